#!/bin/sh
# make stress: boot the guest once on tests/guest/jobs/stress.sh for STRESS_S
# seconds (the guest gets STRESS_S + TIMEOUT s, TIMEOUT being the flavour's
# allowance for one guest job, before the runner calls it hung) and print
# what it saw.  The guest has the shape the job declares (its "# lab-guest:"
# line: 2 CPUs and a hot-pluggable DIMM per node).  The run fails on a
# splat, a hang, a heartbeat gap, a counter that went down, or events that
# disagree with the counters.
#
# usage: stress.sh RUNDIR
set -eu

here=$(cd "$(dirname "$0")" && pwd)
run=$1
: "${STRESS_S:?}" "${STRESS_WINDOW_S:?}" "${TIMEOUT:?}"
export TIMEOUT=$((STRESS_S + TIMEOUT))
export LAB_ENV="${LAB_ENV:-} STRESS_S=$STRESS_S STRESS_WINDOW_S=$STRESS_WINDOW_S"
. "$here/../tests/lib/common.sh"
job=$here/../tests/guest/jobs/stress.sh
shape=$(shape "$job") || { echo "stress: $shape" >&2; exit 1; }
echo "stress: ${STRESS_S}s in the guest ($shape), log in $run/console.log"
status=0
# shellcheck disable=SC2086 # words NAME=value
echo "exec bash /lab/tests/guest/jobs/stress.sh" | env $shape "$here/run-guest.sh" "$run" || status=$?
grep -E '^(stress:|FAIL)' "$run/out/job.log" 2>/dev/null || true
[ "$status" = 0 ] || { echo "stress: failed: $(cat "$run/verdict")" >&2; exit 1; }
