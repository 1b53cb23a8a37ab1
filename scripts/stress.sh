#!/bin/sh
# make stress: boot the guest once on tests/guest/jobs/stress.sh for STRESS_S
# seconds (the guest gets STRESS_S + TIMEOUT s, TIMEOUT being the flavour's
# allowance for one guest job, before the runner calls it hung)
# and print what it saw.  The run fails on a splat, a hang, a heartbeat
# gap, a counter that went down, or events that disagree with the counters.
#
# usage: stress.sh RUNDIR
set -eu

here=$(cd "$(dirname "$0")" && pwd)
run=$1
: "${STRESS_S:?}" "${STRESS_WINDOW_S:?}" "${TIMEOUT:?}"
export TIMEOUT=$((STRESS_S + TIMEOUT))
export LAB_ENV="${LAB_ENV:-} STRESS_S=$STRESS_S STRESS_WINDOW_S=$STRESS_WINDOW_S"
echo "stress: ${STRESS_S}s in the guest, log in $run/console.log"
status=0
echo "exec bash /lab/tests/guest/jobs/stress.sh" | "$here/run-guest.sh" "$run" || status=$?
grep -E '^(stress:|FAIL)' "$run/out/job.log" 2>/dev/null || true
[ "$status" = 0 ] || { echo "stress: failed: $(cat "$run/verdict")" >&2; exit 1; }
