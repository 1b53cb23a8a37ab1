#!/bin/sh
# make demo-quick: the original evaluation, once.  Every measurement (each experiment in
# each mode, then the back-off experiment) runs tests/guest/jobs/demo.sh in its
# own freshly booted guest, as the original work measured each kernel from a
# fresh boot.  The raw results are collected into RESULTS_ROOT/demo-<settings
# hash>/; lab-report (report/, in build/bin) writes their figures into its
# metrics/, the report, summary and plots; RESULTS_ROOT/latest points at
# it and the report is printed.
#
# The run resumes, as make bench's does: the folder is named by a hash of
# everything that changes what a boot measures, and a measurement's
# results are merged into it only once its boot has passed (and marked in
# .done/), so a run stopped part-way (Ctrl-C, a failed boot, a lost
# machine) starts again at the first measurement it has not finished.  A
# finished run is reported again; removing its folder measures it anew.
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
: "${DEMO_MODES:?}" "${DEMO_EXPERIMENTS:?}" "${DEMO_BACKOFF_S:?}" "${LAB_ROOT:?}" "${LAB_KERNEL:?}"
modes=$(echo "$DEMO_MODES" | tr , ' ')
# The paced allocation experiments, one per rate
exps=$(echo "$DEMO_EXPERIMENTS" | tr , ' ')$(echo "${DEMO_RATES:-}" | tr , '\n' | sed -n 's/^\([0-9][0-9]*\)$/ rate\1/p' | tr -d '\n')
case ${DEMO_RATES:-} in *[!0-9,]*) echo "demo: DEMO_RATES=$DEMO_RATES: want comma-separated huge pages per second" >&2; exit 2 ;; esac

# The run's identity: everything that changes what a boot measures
job=$LAB_ROOT/tests/guest/jobs/demo.sh
settings="modes=$DEMO_MODES exps=$exps backoff_s=$DEMO_BACKOFF_S settle=${DEMO_SETTLE:-} pretouch=${DEMO_PRETOUCH_PCT:-}"
settings="$settings pace_s=${DEMO_PACE_S:-} nodes=${NODES:-} mem=${MEM_PER_NODE:-} accel=${ACCEL:-} cpu=${QEMU_CPU:-}"
settings="$settings kernel=$(cksum < "$LAB_KERNEL" | cut -d' ' -f1) job=$(cksum < "$job" | cut -d' ' -f1)"
stamp=demo-$(printf '%s' "$settings" | cksum | cut -d' ' -f1)
res=$root/$stamp
mkdir -p "$res/.done"
if [ -s "$res/settings" ]; then
	echo "demo: resuming $res"
else
	echo "$settings" > "$res/settings"
fi

# measure NAME RESDIR: one boot of the demo job on DEMO_RUN=NAME, unless a
# boot of it has passed already; what it collects is merged into the
# results, its logs go to RESDIR/<experiment>-*, once the boot has passed
measure() {
	cell=$(echo "$1" | tr : -)
	[ ! -e "$res/.done/$cell" ] || return 0
	run=$LAB_RUNS/demo/$cell
	keep=$run.keep
	status=0
	rm -rf "$keep" && mkdir -p "$keep"
	"$here/lab-run.sh" --keep "$keep" "$job" "$run" DEMO_RUN="$1" DEMO_DEFRAG= DEMO_PROTOCOL=0 || status=$?
	grep '^demo:' "$run/out/job.log" 2>/dev/null || true
	[ "$status" = 0 ] || { echo "demo: $1 failed: $(cat "$run/verdict"); make demo-quick again resumes here" >&2; exit 1; }
	d=$keep/${2#"$res"/}
	mkdir -p "$d"
	cp "$run/console.log" "$d/${1#*:}-console.log" 2>/dev/null || :
	cp "$run/out/job.log" "$d/${1#*:}-job.log" 2>/dev/null || :
	[ ! -e "$keep/dmesg.txt" ] || mv "$keep/dmesg.txt" "$d/${1#*:}-dmesg.txt"
	cp "$run/machine" "$res/.done/machine"
	cp -r "$keep/." "$res/" && : > "$res/.done/$cell" && rm -rf "$keep" ||
		{ echo "demo: $1: could not keep its results" >&2; exit 1; }
}

# An interrupt stops the guest too: the launcher's QEMU is a child of
# this shell's children
kill_tree() {	# PID: the process and its descendants
	for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null || :
}
trap 'trap - INT TERM; for c in $(pgrep -P $$); do kill_tree "$c"; done; echo "demo: interrupted; make demo-quick again resumes at the measurements not done" >&2; exit 130' INT TERM

left=0 all=0
for m in $modes; do
	for e in $exps; do
		all=$((all + 1)); [ -e "$res/.done/$m-$e" ] || left=$((left + 1))
	done
done
if [ "$DEMO_BACKOFF_S" -gt 0 ]; then all=$((all + 1)); [ -e "$res/.done/backoff" ] || left=$((left + 1)); fi
echo "demo: modes $modes, experiments $exps, one boot each: $all boots, $left to run; results in $res"
start=$(date +%s)
for m in $modes; do
	for e in $exps; do
		measure "$m:$e" "$res/p$m"
	done
done
[ "$DEMO_BACKOFF_S" -gt 0 ] && measure backoff "$res/backoff"
trap - INT TERM
echo "$(cat "$res/.done/machine"), $(($(date +%s) - start)) s for the last $left of $all boots" > "$res/machine"
# The package the tree came from: for mainline, the one make deps took
pkg="linux-source-${KVER:?}"
[ "$KVER" != mainline ] || pkg="$(cut -d' ' -f1,2 "$LAB_ROOT/build/mainline.pkg" 2>/dev/null || echo "linux-source-7.x")"
uname=$(sed 's/, Debian.s .*//' "$res/kernel")
echo "$uname, Debian's $pkg with patches/$KVER" > "$res/kernel"
"${LAB_REPORT:-$here/../build/bin/lab-report}" demo "$res"
ln -sfn "$stamp" "$root/latest"
grep -v '^!\[' "$res/report.md"
echo "demo: report $res/report.md, summary $res/summary.json, plots $res/*.png"
