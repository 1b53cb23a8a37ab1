# lab-tags: runner
# A job that succeeds but makes the kernel WARN must fail, and the verdict
# must name the warning and the console log.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

if guest_run warn 'insmod $LAB_MODULES/lab_warn.ko && echo loaded'; then
	fail "a run with a WARN passed"
fi
v=$(cat "$TEST_DIR/warn/verdict")
echo "verdict: $v"
grep -q '^loaded$' "$TEST_DIR/warn/out/job.log" || fail "the module did not load: $(cat "$TEST_DIR/warn/out/job.log")"
case $v in "splat: kernel: WARNING:"*"(log: $TEST_DIR/warn/console.log)") ;; *) fail "verdict does not name the warning and the log: $v" ;; esac
