# lab-tags: series debug
# vm.compaction_proactiveness: default 20, bounds 0..100 enforced by the
# kernel, and a rejected write leaves the previous value.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

expect_eq "$KNOB at boot" "$(sysctl -n $KNOB)" 20

for v in 0 1 50 100; do
	sysctl -q -w "$KNOB=$v" || fail "sysctl -w $KNOB=$v was rejected"
	expect_eq "$KNOB after writing $v" "$(sysctl -n $KNOB)" "$v"
done

sysctl -q -w "$KNOB=37" || fail "sysctl -w $KNOB=37 was rejected"
for v in -1 101 abc; do
	if sysctl -q -w "$KNOB=$v" 2>/dev/null; then
		fail "sysctl -w $KNOB=$v exited 0"
	fi
	expect_eq "$KNOB after rejected $v" "$(sysctl -n $KNOB)" 37
done
