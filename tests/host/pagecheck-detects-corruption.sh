# lab-tags: tools
# The data-integrity checker itself: pagecheck (run on the host: plain
# userspace) passes when its command leaves its pages alone, and fails,
# naming the page, when the command changes one byte of one page through
# /proc/PID/mem.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

pc=$top/build/bin/pagecheck
"$pc" --percent 1 --cycles 1 -- true > "$TEST_DIR/clean.log" 2>&1 ||
	fail "pagecheck failed with a command that touches nothing: $(tail -2 "$TEST_DIR/clean.log")"
grep -q 'total pages_verified [1-9][0-9]* mismatches 0$' "$TEST_DIR/clean.log" || fail "no clean total: $(tail -1 "$TEST_DIR/clean.log")"
echo "ok: untouched pages verify"

# Page 1 of each 2 MiB chunk survives the first cycle's fragmentation.
corrupt='printf X | dd of=/proc/$PPID/mem bs=1 seek=$((PAGECHECK_BASE + 4096 + 100)) conv=notrunc status=none'
for shared in "" --shared; do
	if "$pc" --percent 1 --cycles 1 $shared -- sh -c "$corrupt" > "$TEST_DIR/corrupt$shared.log" 2>&1; then
		fail "pagecheck passed although a byte of page 1 was changed ${shared:-(private)}"
	fi
	grep -q 'page 1 (.*): 1 words differ' "$TEST_DIR/corrupt$shared.log" ||
		fail "pagecheck did not name page 1: $(head -5 "$TEST_DIR/corrupt$shared.log")"
	echo "ok: a changed byte is caught and named ${shared:-(private)}: $(grep -m1 'words differ' "$TEST_DIR/corrupt$shared.log")"
done
