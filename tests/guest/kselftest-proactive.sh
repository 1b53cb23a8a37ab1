# The series' kselftest (tools/testing/selftests/vm/proactive_compaction on
# 6.1, selftests/mm/ on 6.12),
# built from the tree: all three TAP tests pass on the lab's nodes, whose
# free memory the test can fragment within its bound (none may skip), and
# the test leaves vm.compaction_proactiveness as it found it.
. /lab/tests/lib/guest.sh

set_proactiveness 37
cd "$LAB_SELFTESTS"
./proactive_compaction | tee /tmp/tap
grep -q '^1\.\.3$' /tmp/tap || fail "no TAP plan of 3 tests"
expect_eq "TAP results ok" "$(grep -c '^ok ' /tmp/tap)" 3
grep -q '^# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0' /tmp/tap || fail "TAP totals: $(grep Totals /tmp/tap)"
expect_eq "proactiveness after the test" "$(sysctl -n "$KNOB")" 37
