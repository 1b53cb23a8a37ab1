# The series' kselftest (tools/testing/selftests/vm/proactive_compaction),
# built from the tree: all its TAP tests pass.
. /lab/tests/lib/guest.sh

cd "$LAB_SELFTESTS"
./proactive_compaction | tee /tmp/tap
grep -q '^1\.\.4$' /tmp/tap || fail "no TAP plan of 4 tests"
expect_eq "TAP results ok" "$(grep -c '^ok ' /tmp/tap)" 4
grep -q '^# Totals: pass:4 fail:0 xfail:0 xpass:0 skip:0 error:0' /tmp/tap || fail "TAP totals: $(grep Totals /tmp/tap)"
