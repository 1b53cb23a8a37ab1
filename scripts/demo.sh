#!/bin/sh
# make demo: boot the guest once on scripts/demo-guest.sh, collect its raw
# results into RESULTS_ROOT/<timestamp>/, write the report and plots there,
# point RESULTS_ROOT/latest at it and print the report.
#
# Settings (from the Makefile): DEMO_MODES (comma-separated proactiveness
# values), DEMO_SETTLE, DEMO_EXPERIMENTS (comma-separated: alloc,pretouch),
# DEMO_BACKOFF_S, DEMO_TIMEOUT, and what run-guest.sh reads.
#
# usage: demo.sh RESULTS_ROOT
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$1
stamp=$(date +%Y%m%d-%H%M%S)
res=$root/$stamp
run=$LAB_RUNS/demo
mkdir -p "$res"

export LAB_ENV="${LAB_ENV:-} DEMO_MODES=${DEMO_MODES:-0,20} DEMO_SETTLE=${DEMO_SETTLE:-30}
	DEMO_EXPERIMENTS=${DEMO_EXPERIMENTS:-alloc,pretouch} DEMO_BACKOFF_S=${DEMO_BACKOFF_S:-70}"
export TIMEOUT=${DEMO_TIMEOUT:-1800}
echo "demo: modes ${DEMO_MODES:-0,20}, results in $res"
start=$(date +%s)
status=0
"$here/run-guest.sh" "$run" "$here/demo-guest.sh" || status=$?
cp -r "$run/out/." "$res/"
cp "$run/console.log" "$res/"
rm -f "$res/job" "$res/rc" "$res"/*-tmp.dat
echo "$NODES nodes x $MEM_PER_NODE MiB, $CPUS_PER_NODE CPU each, QEMU -accel $ACCEL, $(($(date +%s) - start)) s in the guest" > "$res/machine"
grep '^demo:' "$res/job.log" || true
[ "$status" = 0 ] || { echo "demo: the guest run failed: $(cat "$run/verdict")" >&2; exit 1; }
"$here/demo-report.sh" "$res"
ln -sfn "$stamp" "$root/latest"
grep -v '^!\[' "$res/report.md"
echo "demo: report $res/report.md, summary $res/summary.json, plots $res/*.png"
