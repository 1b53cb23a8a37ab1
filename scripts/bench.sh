#!/bin/sh
# make bench: what the series costs kcompactd.  BENCH_BOOTS rounds of three
# freshly booted guests, interleaved: the stock kernel (the same tree and
# configuration without the series), the patched kernel with tracing off,
# and the patched kernel recording every mm_compaction_proactive_* event.
# Each runs tests/guest/jobs/bench.sh; the results go to
# RESULTS_ROOT/bench-<timestamp>/<config>-<boot>/, the report (lab-report
# bench: metrics.csv, bench.md, summary.json) there, and
# RESULTS_ROOT/bench-latest points at it.
#
# Settings (from the Makefile): BENCH_BOOTS, and what the guest job
# declares it reads (its header).
#
# usage: bench.sh RESULTS_ROOT STOCK_KERNEL
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$1 stock=$2
: "${BENCH_BOOTS:?}" "${LAB_KERNEL:?}" "${LAB_ROOT:?}"
[ -r "$stock" ] || { echo "bench: no stock kernel $stock" >&2; exit 1; }
res=$root/bench-$(date +%Y%m%d-%H%M%S)
patched=$LAB_KERNEL
mkdir -p "$res"

echo "bench: $BENCH_BOOTS boots each of stock, off, on; ${BENCH_ROUND_S:?}s of rounds, ${BENCH_IDLE_S:?}s idle; results in $res"
start=$(date +%s)
i=1
while [ "$i" -le "$BENCH_BOOTS" ]; do
	for cfg in stock off on; do
		run=$LAB_RUNS/bench/$cfg-$i
		if [ "$cfg" = stock ]; then kernel=$stock; else kernel=$patched; fi
		status=0
		LAB_KERNEL=$kernel "$here/lab-run.sh" --keep "$run.keep" "$LAB_ROOT/tests/guest/jobs/bench.sh" "$run" \
			BENCH_CONFIG=$cfg || status=$?
		[ "$status" = 0 ] || { echo "bench: $cfg-$i failed: $(cat "$run/verdict")" >&2; exit 1; }
		mkdir -p "$res/$cfg-$i"
		cp -r "$run.keep/bench/." "$res/$cfg-$i/"
		rm -rf "$run.keep"
		cp "$run/console.log" "$res/$cfg-$i/"
		grep '^bench:' "$run/out/job.log" || true
	done
	i=$((i + 1))
done
echo "$(cat "$run/machine"), $(($(date +%s) - start)) s for all boots" > "$res/machine"
"${LAB_REPORT:-$here/../build/bin/lab-report}" bench "$res"
ln -sfn "$(basename "$res")" "$root/bench-latest"
cat "$res/bench.md"
