# lab-tags: series kselftest
# The series' kselftest (tools/testing/selftests/vm/proactive_compaction on
# 6.1, selftests/mm/ on 6.12 and mainline),
# built from the tree: all its TAP tests (two on every tree, whose v3
# series has the counters per node: counters, forced round) pass on the
# lab's nodes, whose free memory the test can fragment within its bound
# (none may skip), and the test leaves vm.compaction_proactiveness as it
# found it.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

tests=2
set_proactiveness 37
cd "$LAB_SELFTESTS"
./proactive_compaction | tee /tmp/tap
cp /tmp/tap "$OUT/tap.txt"	# for make captures
grep -q "^1\.\.$tests\$" /tmp/tap || fail "no TAP plan of $tests tests"
expect_eq "TAP results ok" "$(grep -c '^ok ' /tmp/tap)" "$tests"
grep -q "^# Totals: pass:$tests fail:0 xfail:0 xpass:0 skip:0 error:0" /tmp/tap || fail "TAP totals: $(grep Totals /tmp/tap)"
expect_eq "proactiveness after the test" "$(sysctl -n "$KNOB")" 37
