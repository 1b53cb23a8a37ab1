# lab-tags: series slow
# A 3-minute `make stress`: every stressor at once, the heartbeat, the
# counters only growing, the traced windows' events equal to the counters'
# deltas, no splat.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

: "${STRESS_CI_S:?}"
st=0
STRESS_S=$STRESS_CI_S "$scripts/stress.sh" "$TEST_DIR/run" || st=$?
[ "$st" != 4 ] || skip "$(cat "$TEST_DIR/run/verdict")"
[ "$st" = 0 ] || fail "stress failed: $(cat "$TEST_DIR/run/verdict" 2>/dev/null)"
grep -q '^stress: done' "$TEST_DIR/run/out/job.log" || fail "the stress run did not report its end"
traced=$(sed -n 's/^stress: done: .*(\([0-9]*\) traced).*/\1/p' "$TEST_DIR/run/out/job.log")
[ "${traced:-0}" -ge 2 ] || fail "only ${traced:-0} traced windows"
echo "ok: $traced traced windows, all consistent"
