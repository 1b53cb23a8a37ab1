# vm.compaction_proactiveness: default 20, bounds 0..100 enforced by the
# kernel, and a rejected write leaves the previous value.
. /lab/tests/lib/guest.sh

knob=vm.compaction_proactiveness
expect_eq "$knob at boot" "$(sysctl -n $knob)" 20

for v in 0 1 50 100; do
	sysctl -q -w "$knob=$v" || fail "sysctl -w $knob=$v was rejected"
	expect_eq "$knob after writing $v" "$(sysctl -n $knob)" "$v"
done

sysctl -q -w "$knob=37" || fail "sysctl -w $knob=37 was rejected"
for v in -1 101 abc; do
	if sysctl -q -w "$knob=$v" 2>/dev/null; then
		fail "sysctl -w $knob=$v exited 0"
	fi
	expect_eq "$knob after rejected $v" "$(sysctl -n $knob)" 37
done
