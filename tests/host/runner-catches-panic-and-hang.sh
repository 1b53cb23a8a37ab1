# lab-tags: runner
# The runner fails a run whose job exits non-zero, whose guest panics, and
# one that hangs past TIMEOUT, and its verdict's first word says which
# (job, splat, timeout).  A good run passes, so the failures are not the
# runner failing everything.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

guest_run good 'true' || fail "a clean run failed: $(cat "$TEST_DIR/good/verdict")"
[ "$(cat "$TEST_DIR/good/verdict")" = ok ] || fail "a clean run's verdict: $(cat "$TEST_DIR/good/verdict")"
echo "good: $(cat "$TEST_DIR/good/verdict")"

guest_run fails 'exit 3' && fail "a job exiting 3 passed"
grep -q '^job: exited with status 3 (log: ' "$TEST_DIR/fails/verdict" || fail "wrong verdict: $(cat "$TEST_DIR/fails/verdict")"
echo "fails: $(cat "$TEST_DIR/fails/verdict")"

guest_run panic 'echo c > /proc/sysrq-trigger; sleep 100' && fail "a run with a panic passed"
grep -q '^splat: kernel: .*\(Kernel panic\|Oops\|BUG\)' "$TEST_DIR/panic/verdict" || fail "wrong verdict: $(cat "$TEST_DIR/panic/verdict")"
echo "panic: $(cat "$TEST_DIR/panic/verdict")"

TIMEOUT=25 guest_run hang 'sleep 1000' && fail "a hanging run passed"
grep -q '^timeout: killed after 25s (log: ' "$TEST_DIR/hang/verdict" || fail "wrong verdict: $(cat "$TEST_DIR/hang/verdict")"
echo "hang: $(cat "$TEST_DIR/hang/verdict")"
