# The tree's own vm kselftests that exercise compaction, migration and THP
# and fit the guest, on the patched kernel: compaction_test (a peer's test
# of compaction: mlocked memory fragmented, then huge pages must cover at
# least a third of it), migration (pages moved between the two nodes while
# threads use them), split_huge_page_test (THP split, page cache and anon)
# and khugepaged (collapse).  Each must report no failure.
. /lab/tests/lib/guest.sh

cd "$LAB_SELFTESTS"
echo 1 > /proc/sys/vm/compact_unevictable_allowed
ulimit -l unlimited
# name, TAP line that must appear, timeout in seconds
while read -r t want limit; do
	echo "== $t"
	status=0
	timeout "$limit" "./$t" > "$OUT/$t.tap" 2>&1 || status=$?
	cat "$OUT/$t.tap"
	[ "$status" = 0 ] || fail "$t exited with status $status"
	grep -q "$want" "$OUT/$t.tap" || fail "$t: no line '$want'"
	if grep -q '^not ok' "$OUT/$t.tap"; then
		fail "$t: $(grep -m1 '^not ok' "$OUT/$t.tap")"
	fi
	echo "ok: $t: $(grep -c '^ok' "$OUT/$t.tap") TAP results ok, none failed"
done <<'LIST'
compaction_test ^ok\ 1\ check_compaction 300
migration ^#\ PASSED: 300
split_huge_page_test ^ok 300
khugepaged . 600
LIST
