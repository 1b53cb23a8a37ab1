#!/bin/sh
# make bench: what the series costs kcompactd.  BENCH_BOOTS blocks of four
# freshly booted guests, one of each configuration, in an order drawn at
# random for each block (seed BENCH_SEED):
#   stock  the same tree and configuration without the series
#   calib  stock, recording one existing compaction event, emitted once a
#          check like the series' check event (the yardstick)
#   off    the patched kernel, tracing off
#   on     the patched kernel, recording every mm_compaction_proactive_*
# Each runs tests/guest/jobs/bench.sh.  BENCH_PAR guests run at a time
# (the repeatable mode's guest time does not follow the host's load).
#
# The run resumes: its plan (the settings, the seed and the order) is
# RESULTS_ROOT/bench-<settings hash>/plan, and each boot's results are
# moved into <config>-<block>/ only once the boot has passed, so that a
# run stopped part-way (Ctrl-C, a lost machine) starts again, with the
# same settings, at the first boot it has not finished.  When every boot
# is in, lab-report bench writes metrics.csv, bench.md and summary.json
# there, and RESULTS_ROOT/bench-latest points at it.
#
# Settings (from the Makefile): BENCH_BOOTS BENCH_SEED BENCH_PAR, and what
# the guest job declares it reads (its header).
#
# usage: bench.sh RESULTS_ROOT STOCK_KERNEL
set -eu

here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: bench.sh RESULTS_ROOT STOCK_KERNEL" >&2; exit 2; }
root=$1 stock=$2
: "${BENCH_BOOTS:?}" "${LAB_KERNEL:?}" "${LAB_ROOT:?}" "${LAB_RUNS:?}"
: "${BENCH_ROUND_S:?}" "${BENCH_IDLE_S:?}" "${ACCEL:?}" "${QEMU_CPU:?}" "${LAB_TREE:?}"
# BENCH_PAR empty: two at a time in the repeatable mode, else one (TCG's
# wall-clock time follows the host's load)
if [ -z "${BENCH_PAR:-}" ]; then
	if [ "$ACCEL" = icount ]; then BENCH_PAR=2; else BENCH_PAR=1; fi
fi
for v in "BENCH_BOOTS=$BENCH_BOOTS" "BENCH_PAR=$BENCH_PAR"; do
	case ${v#*=} in ''|*[!0-9]*|0) echo "bench: $v: want a positive number" >&2; exit 2 ;; esac
done
[ -r "$stock" ] || { echo "bench: no stock kernel $stock" >&2; exit 1; }
patched=$LAB_KERNEL
configs="stock calib off on"

# The plan's identity: everything that changes what a boot measures.
settings="boots=$BENCH_BOOTS round_s=$BENCH_ROUND_S idle_s=$BENCH_IDLE_S accel=$ACCEL cpu=$QEMU_CPU"
settings="$settings nodes=$NODES mem=$MEM_PER_NODE kernels=$(cksum < "$stock" | cut -d' ' -f1)+$(cksum < "$patched" | cut -d' ' -f1)"
settings="$settings job=$(cksum < "$LAB_ROOT/tests/guest/jobs/bench.sh" | cut -d' ' -f1)"
seed=${BENCH_SEED:-}
[ -n "$seed" ] || seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
case $seed in *[!0-9]*) echo "bench: BENCH_SEED=$seed: want a number" >&2; exit 2 ;; esac
res=$root/bench-$(printf '%s' "$settings" | cksum | cut -d' ' -f1)
mkdir -p "$res"
if [ -s "$res/plan" ]; then
	seed=$(sed -n 's/^seed //p' "$res/plan")
	echo "bench: resuming $res (seed $seed)"
else
	# The order: each block's four configurations, shuffled with the seed
	awk -v seed="$seed" -v n="$BENCH_BOOTS" -v cfgs="$configs" -v s="$settings" 'BEGIN {
		srand(seed); k = split(cfgs, c, " ")
		printf "settings %s\nseed %d\n", s, seed
		for (b = 1; b <= n; b++) {
			for (i = k; i > 1; i--) { j = int(rand() * i) + 1; t = c[i]; c[i] = c[j]; c[j] = t }
			for (i = 1; i <= k; i++) printf "boot %s-%d\n", c[i], b
		}
	}' > "$res/plan.tmp"
	mv "$res/plan.tmp" "$res/plan"
	echo "bench: new run $res (seed $seed)"
fi

# One boot: its results move into place only when it has passed.
boot() {	# CELL
	cell=$1 cfg=${1%-*}
	[ ! -e "$res/$cell/done" ] || return 0
	run=$LAB_RUNS/bench/$cell
	case $cfg in stock|calib) kernel=$stock ;; *) kernel=$patched ;; esac
	status=0
	LAB_KERNEL=$kernel "$here/lab-run.sh" --keep "$run.keep" "$LAB_ROOT/tests/guest/jobs/bench.sh" "$run" \
		BENCH_CONFIG="$cfg" || status=$?
	if [ "$status" != 0 ]; then
		echo "bench: $cell failed: $(cat "$run/verdict")" >&2
		return 1
	fi
	# (each step checked: set -e does not hold in a function called in a list)
	rm -rf "$res/$cell.tmp" && mkdir -p "$res/$cell.tmp" &&
		cp -r "$run.keep/bench/." "$run/console.log" "$run/machine" "$res/$cell.tmp/" &&
		: > "$res/$cell.tmp/done" && rm -rf "$run.keep" "${res:?}/$cell" &&
		mv "$res/$cell.tmp" "$res/$cell" || { echo "bench: $cell: could not keep its results" >&2; return 1; }
	grep '^bench:' "$run/out/job.log" | sed "s/^bench:/bench: $cell:/" || true
}

todo=$(sed -n 's/^boot //p' "$res/plan")
left=0
for cell in $todo; do [ -e "$res/$cell/done" ] || left=$((left + 1)); done
echo "bench: $(echo "$todo" | wc -w) boots planned, $left to run, $BENCH_PAR at a time; results in $res"
start=$(date +%s)
# BENCH_PAR lanes, lane k taking the plan's boots k, k + PAR, ...: the
# plan's order holds within a lane, and the lanes run side by side.
lane=0 pids=
while [ "$lane" -lt "$BENCH_PAR" ]; do
	(
		i=0
		for cell in $todo; do
			[ $((i % BENCH_PAR)) -ne "$lane" ] || boot "$cell"
			i=$((i + 1))
		done
	) &
	pids="$pids $!"
	lane=$((lane + 1))
done
# An interrupt stops the lanes and their guests: a shell's background
# jobs ignore SIGINT, so Ctrl-C alone would leave them running.
kill_tree() {	# PID: the process and its descendants
	for c in $(pgrep -P "$1" 2>/dev/null); do kill_tree "$c"; done
	kill -TERM "$1" 2>/dev/null || :
}
stop_lanes() {
	trap - INT TERM
	for pid in $pids; do kill_tree "$pid"; done
	echo "bench: interrupted; make bench again resumes at the boots not done" >&2
	exit 130
}
trap stop_lanes INT TERM
failed=0
for pid in $pids; do wait "$pid" || failed=1; done
trap - INT TERM
[ "$failed" = 0 ] || { echo "bench: stopped; make bench again resumes at the boots not done" >&2; exit 1; }

# The bench kernels' configuration against the test kernel's (base)
kbuild=$(dirname "$(dirname "$(dirname "$(dirname "$patched")")")")
base=$res/base-config
if [ ! -s "$res/config-diff" ]; then
	"$here/kconfig.sh" "$LAB_TREE" "$base" "$LAB_ROOT/scripts/kconfig/base.config" &&
		"$LAB_TREE/scripts/diffconfig" "$base/.config" "$kbuild/.config" > "$res/config-diff" ||
		echo "bench: no config-diff (kconfig of the base flavour failed)" >&2
	rm -rf "$base"
fi
first=$(echo "$todo" | head -1)
echo "$(cat "$res/$first/machine"), $BENCH_PAR at a time, $(($(date +%s) - start)) s for the last $left boots, seed $seed" > "$res/machine"
"${LAB_REPORT:-$here/../build/bin/lab-report}" bench "$res"
ln -sfn "$(basename "$res")" "$root/bench-latest"
cat "$res/bench.md"
