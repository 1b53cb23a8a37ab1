#!/bin/sh
# make demo: the original evaluation.  Every measurement (each experiment in
# each mode, then the back-off experiment) runs tests/guest/jobs/demo.sh in its
# own freshly booted guest, as the original work measured each kernel from a
# fresh boot.  The raw results are collected into RESULTS_ROOT/<timestamp>/;
# lab-report (report/, in build/bin) writes their figures into its
# metrics/, the report, summary and plots; RESULTS_ROOT/latest points at
# it and the report is printed.
#
# Settings (from the Makefile): DEMO_MODES (comma-separated proactiveness
# values), DEMO_EXPERIMENTS (comma-separated: alloc,pretouch),
# DEMO_BACKOFF_S (0: no back-off run), DEMO_RATES (comma-separated huge
# pages per second: a paced allocation experiment per rate and mode; may be
# empty), and what the guest job declares it reads (its header).
#
# usage: demo.sh RESULTS_ROOT
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$1
stamp=$(date +%Y%m%d-%H%M%S)
res=$root/$stamp
: "${DEMO_MODES:?}" "${DEMO_EXPERIMENTS:?}" "${DEMO_BACKOFF_S:?}" "${LAB_ROOT:?}"
modes=$(echo "$DEMO_MODES" | tr , ' ')
# The paced allocation experiments, one per rate
exps=$(echo "$DEMO_EXPERIMENTS" | tr , ' ')$(echo "${DEMO_RATES:-}" | tr , '\n' | sed -n 's/^\([0-9][0-9]*\)$/ rate\1/p' | tr -d '\n')
case ${DEMO_RATES:-} in *[!0-9,]*) echo "demo: DEMO_RATES=$DEMO_RATES: want comma-separated huge pages per second" >&2; exit 2 ;; esac
mkdir -p "$res"

# measure NAME RESDIR: one boot of the demo job on DEMO_RUN=NAME; what it
# collects goes to the results, its logs to RESDIR/<experiment>-*
measure() {
	run=$LAB_RUNS/demo/$(echo "$1" | tr : -)
	status=0
	"$here/lab-run.sh" --keep "$res" "$LAB_ROOT/tests/guest/jobs/demo.sh" "$run" DEMO_RUN="$1" || status=$?
	mkdir -p "$2"
	cp "$run/console.log" "$2/${1#*:}-console.log" 2>/dev/null || :
	cp "$run/out/job.log" "$2/${1#*:}-job.log" 2>/dev/null || :
	[ ! -e "$res/dmesg.txt" ] || mv "$res/dmesg.txt" "$2/${1#*:}-dmesg.txt"
	grep '^demo:' "$2/${1#*:}-job.log" 2>/dev/null || true
	[ "$status" = 0 ] || { echo "demo: $1 failed: $(cat "$run/verdict")" >&2; exit 1; }
	cp "$run/machine" "$res/machine"
}

echo "demo: modes $modes, experiments $exps, one boot each; results in $res"
start=$(date +%s)
for m in $modes; do
	for e in $exps; do
		measure "$m:$e" "$res/p$m"
	done
done
[ "$DEMO_BACKOFF_S" -gt 0 ] && measure backoff "$res/backoff"
echo "$(cat "$res/machine"), $(($(date +%s) - start)) s for all boots" > "$res/machine"
# The package the tree came from: for mainline, the one make deps took
pkg="linux-source-${KVER:?}"
[ "$KVER" != mainline ] || pkg="$(cut -d' ' -f1,2 "$LAB_ROOT/build/mainline.pkg" 2>/dev/null || echo "linux-source-7.x")"
echo "$(cat "$res/kernel"), Debian's $pkg with patches/$KVER" > "$res/kernel"
"${LAB_REPORT:-$here/../build/bin/lab-report}" demo "$res"
ln -sfn "$stamp" "$root/latest"
grep -v '^!\[' "$res/report.md"
echo "demo: report $res/report.md, summary $res/summary.json, plots $res/*.png"
