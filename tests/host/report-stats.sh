# lab-tags: tools
# lab-report's statistics module on known values (lab-report selftest):
# type-7 percentiles and the median, Student's t quantiles, the binomial
# order-statistic intervals of a median and of a p95 (one side open), the
# log-scale ratio interval and Welch's difference; and lab-report --help.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

lr=$top/build/bin/lab-report
[ -x "$lr" ] || fail "no $lr (make build/bin/lab-report)"
"$lr" selftest > "$TEST_DIR/selftest.log" 2>&1 || { cat "$TEST_DIR/selftest.log"; fail "lab-report selftest: $(grep -c FAIL "$TEST_DIR/selftest.log") failed"; }
cat "$TEST_DIR/selftest.log"
n=$(grep -c '^ok:' "$TEST_DIR/selftest.log")
[ "$n" -ge 20 ] || fail "only $n checks ran"
"$lr" --help | grep -q '^usage: lab-report' || fail "no --help"
"$lr" frobnicate x 2> /dev/null; [ $? -eq 2 ] || fail "an unknown report was not a usage error"
echo "ok: --help, usage errors"
