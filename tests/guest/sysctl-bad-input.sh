# lab-tags: series debug
# Bad input on vm.compaction_proactiveness: every malformed or out-of-range
# write, through sysctl -w and through one raw write(2), is refused with an
# error and leaves the previous value; an unprivileged user can read the
# knob but not write it; 8 processes writing 10,000 random strings each get
# the right answer to every write and leave a value one of them wrote.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

file=$KNOB_FILE
set_proactiveness 37
n=0
for v in -1 101 1000 4294967296 18446744073709551616 abc '' 20abc; do
	if out=$(sysctl -w "$KNOB=$v" 2>&1); then
		fail "sysctl -w $KNOB='$v' exited 0: $out"
	fi
	expect_eq "value after sysctl -w '$v' ($out)" "$(cat $file)" 37
	# The empty string as a tool writes it: an empty line.
	raw=$v
	[ -n "$raw" ] || raw=$'\n'
	expect_eq "raw write(2) of '$v'" "$("$LAB_BIN/knobwrite" "$file" "$raw" || :)" "error EINVAL"
	expect_eq "value after raw write of '$v'" "$(cat $file)" 37
	n=$((n + 1))
done
# A zero-length write(2) is not a value at all: proc_sys accepts it as a
# no-op (returns 0), so the one thing to check is that nothing changed.
expect_eq "zero-length write(2)" "$("$LAB_BIN/knobwrite" "$file" '')" "ok 0"
expect_eq "value after a zero-length write" "$(cat $file)" 37
echo "ok: $n bad inputs refused both ways"

id lab >/dev/null || fail "the image has no unprivileged user 'lab'"
expect_eq "read as user lab" "$(setpriv --reuid=lab --regid=lab --clear-groups cat $file)" 37
got=$(setpriv --reuid=lab --regid=lab --clear-groups "$LAB_BIN/knobwrite" "$file" 5 || :)
case $got in
"error EACCES" | "error EPERM") echo "ok: write as user lab: $got" ;;
*) fail "write as user lab: got '$got', want EACCES or EPERM" ;;
esac
if setpriv --reuid=lab --regid=lab --clear-groups sysctl -q -w "$KNOB=5" 2>/dev/null; then
	fail "sysctl -w as user lab exited 0"
fi
expect_eq "value after user lab's writes" "$(cat $file)" 37

"$LAB_BIN/knobwrite" --hammer --procs 8 --writes 10000 "$file" || fail "the concurrent writers saw a wrong answer or left a foreign value"
v=$(cat $file)
[ "$v" -ge 0 ] && [ "$v" -le 100 ] || fail "value $v out of 0..100 after the hammer"
set_proactiveness 20
