#!/bin/sh
# make stress: boot the guest once on tests/guest/jobs/stress.sh for STRESS_S
# seconds, in the shape and for the time its header declares, and print
# what it saw.  The run fails on a splat, a hang, a heartbeat gap, a
# counter that went down, a stressor that failed, or events that disagree
# with the counters (the job's header comment has the details).  Exit
# status: 0 passed, 4 skipped (the job's shape conflicts with the command
# line), 1 failed.
#
# usage: stress.sh RUNDIR
set -eu

here=$(cd "$(dirname "$0")" && pwd)
run=$1
: "${STRESS_S:?}" "${LAB_ROOT:?}"
echo "stress: ${STRESS_S}s in the guest, log in $run/console.log"
status=0
"$here/lab-run.sh" "$LAB_ROOT/tests/guest/jobs/stress.sh" "$run" || status=$?
grep -E '^(stress:|FAIL)' "$run/out/job.log" 2>/dev/null || true
case $status in
0) ;;
4) echo "stress: skipped: $(cat "$run/verdict")" >&2; exit 4 ;;
*) echo "stress: failed: $(cat "$run/verdict" 2>/dev/null)" >&2; exit 1 ;;
esac
