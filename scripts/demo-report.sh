#!/bin/sh
# Turn a demo's raw results (scripts/demo-guest.sh's output folder) into
# report.md, summary.json and plots (score.png, alloc-cdf.png).
#
# usage: demo-report.sh RESULTS_DIR
set -eu

dir=$1
here=$(cd "$(dirname "$0")" && pwd)
pt=$here/../build/bin/proactive-trace
modes=$(cd "$dir" && ls -d p[0-9]* 2>/dev/null | sed 's/^p//' | sort -n | paste -sd' ' -)
[ -n "$modes" ] || { echo "demo-report: no mode results in $dir" >&2; exit 1; }
percentiles="5 10 25 30 40 50 60 75 80 90 95"

# pct FILE P: nearest-rank percentile of the successful allocations, in us
pct() {
	sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 }
		END { if (!NR) { print "-"; exit } i = int((p * NR + 99) / 100); if (i < 1) i = 1; printf "%.0f", v[i] / 1000 }'
}
count() { [ -r "$1" ] && wc -l < "$1" || echo 0; }
# coverage FILE MEMFREE_KB: % of free memory the allocated huge pages cover
coverage() { awk -v n="$(count "$1")" -v kb="$(cat "$2")" 'BEGIN { printf "%.1f", n * 2048 * 100 / kb }'; }
# cpu BEFORE AFTER: kcompactd seconds, all nodes
cpu() { awk 'FNR == NR { b[$1] = $2; next } { s += $2 - b[$1] } END { printf "%.2f", s }' "$1" "$2"; }
cpu_nodes() { awk 'FNR == NR { b[$1] = $2; next } { printf "%snode %s %.2f s", sep, $1, $2 - b[$1]; sep = ", " }' "$1" "$2"; }
field() { awk -v k="$2" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$1"; }
rounds() { [ -r "$1" ] && "$pt" "$1" | awk '$1 == "begins" { print $2 }' || echo 0; }

r=$dir/report.md
{
echo "# Proactive compaction: the seed's evaluation in the lab guest"
echo
echo "Guest: $(cat "$dir/machine" 2>/dev/null || echo unknown).  Modes: proactiveness $modes."
echo "Every measurement ran in its own freshly booted guest.  Raw data beside this file: trace.dat, vmstat snapshots, console log and dmesg per measurement, latency samples."
echo
echo "## Fragmentation and settle"
echo
echo "| mode | experiment | scores after fragmenting | settle | scores when the experiment began |"
echo "|---|---|---|---|---|"
for m in $modes; do
	for e in alloc pretouch; do
		[ -r "$dir/p$m/$e-settle" ] || continue
		echo "| p$m | $e | $(awk '{ printf "%s%s", sep, $4; sep = ", " }' "$dir/p$m/$e-fragscore-before") | $(cat "$dir/p$m/$e-settle") | $(awk '{ printf "%s%s", sep, $4; sep = ", " }' "$dir/p$m/$e-fragscore-after-settle") |"
	done
done
echo
echo "## Huge-page allocation latency (lab_hpalloc, us)"
echo
printf "| percentile |"; for m in $modes; do printf " p%s |" "$m"; done; echo
printf "|---|"; for m in $modes; do printf -- "---:|"; done; echo
for p in $percentiles; do
	printf "| %s |" "$p"
	for m in $modes; do printf " %s |" "$(pct "$dir/p$m/alloc-samples-ns" "$p")"; done
	echo
done
printf "| huge pages allocated |"; for m in $modes; do printf " %s |" "$(count "$dir/p$m/alloc-samples-ns")"; done; echo
printf "| %% of free memory |"; for m in $modes; do printf " %s |" "$(coverage "$dir/p$m/alloc-samples-ns" "$dir/p$m/alloc-memfree-kb")"; done; echo
first=${modes%% *} last=${modes##* }
if [ "$first" != "$last" ]; then
	echo
	echo "p95 ratio p$first / p$last: $(awk -v a="$(pct "$dir/p$first/alloc-samples-ns" 95)" -v b="$(pct "$dir/p$last/alloc-samples-ns" 95)" 'BEGIN { printf "%.1fx", b ? a / b : 0 }') (seed: 78x)"
fi
echo
echo "## Pre-touch (MADV_HUGEPAGE region, every page touched)"
echo
echo "| mode | MiB | elapsed s | user s | sys s | huge-page share % |"
echo "|---|---:|---:|---:|---:|---:|"
for m in $modes; do
	f=$dir/p$m/pretouch.txt
	[ -r "$f" ] || continue
	echo "| p$m | $(field "$f" mib) | $(field "$f" elapsed_s) | $(field "$f" user_s) | $(field "$f" sys_s) | $(field "$f" thp_pct) |"
done
if [ -r "$dir/p$first/pretouch.txt" ] && [ -r "$dir/p$last/pretouch.txt" ] && [ "$first" != "$last" ]; then
	echo
	echo "Elapsed ratio p$first / p$last: $(awk -v a="$(field "$dir/p$first/pretouch.txt" elapsed_s)" -v b="$(field "$dir/p$last/pretouch.txt" elapsed_s)" 'BEGIN { printf "%.1fx", b ? a / b : 0 }') (seed: 8.3x)"
fi
echo
echo "## Counters that moved, and kcompactd"
echo
for m in $modes; do
	for e in alloc pretouch; do
		[ -r "$dir/p$m/$e-vmstat-after" ] || continue
		echo "p$m, $e: kcompactd CPU $(cpu_nodes "$dir/p$m/$e-kcompactd-cpu-before" "$dir/p$m/$e-kcompactd-cpu-after"); proactive rounds: $(rounds "$dir/p$m/$e-settle.dat") while settling, $(rounds "$dir/p$m/$e.dat") during the experiment"
		echo
		awk 'FNR == NR { b[$1] = $2; next } $1 ~ /^(compact_|thp_)/ && $2 != b[$1] { printf "    %-42s %+d\n", $1, $2 - b[$1] }' \
			"$dir/p$m/$e-vmstat-before" "$dir/p$m/$e-vmstat-after"
		echo
	done
done
if [ -r "$dir/backoff/backoff.dat" ]; then
	"$pt" -q -r "$dir/backoff/rounds.csv" -d "$dir/backoff/defers.csv" "$dir/backoff/backoff.dat"
	echo "## Back-off: unmovable pages in every huge-page block, proactiveness 40"
	echo
	echo "Scores before: $(awk '{ printf "%s%s", sep, $4; sep = ", " }' "$dir/backoff/fragscore-before")."
	echo "Defer events: $(($(wc -l < "$dir/backoff/defers.csv") - 1)), each $(awk -F, 'NR > 1 { print $4 }' "$dir/backoff/defers.csv" | sort -u | paste -sd/ -) ms."
	echo "Intervals between a node's rounds (s): $(awk -F, 'NR > 1 && $2 != "" { if (last[$1] != "") printf "%s%.1f", sep, $2 - last[$1]; sep = " "; last[$1] = $2 }' "$dir/backoff/rounds.csv")."
	echo "kcompactd CPU during the window: $(cpu_nodes "$dir/backoff/backoff-kcompactd-cpu-before" "$dir/backoff/backoff-kcompactd-cpu-after")."
	echo
fi
echo "## Plots"
echo
echo "![per-node score during the pre-touch](score.png)"
echo
echo "![allocation latency CDF](alloc-cdf.png)"
} > "$r"

# Score timeline of the last (most proactive) mode's pre-touch, Tl and Th
src=$dir/p$last/pretouch.dat
[ -r "$src" ] || src=$dir/p$last/alloc.dat
if [ -r "$src" ]; then
	"$pt" -q -s "$dir/score.csv" "$src"
	tl=$(awk -F, 'NR == 2 { print $4 }' "$dir/score.csv") th=$(awk -F, 'NR == 2 { print $5 }' "$dir/score.csv")
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/score.png"
	set datafile separator ","
	set title "Per-node fragmentation score, proactiveness $last ($(basename "$src" .dat))"
	set xlabel "seconds"; set ylabel "score"; set yrange [0:105]; set key bottom right
	plot "$dir/score.csv" using 1:(\$2 == 0 ? \$3 : 1/0) every ::1 with linespoints title "node 0", \
	     "$dir/score.csv" using 1:(\$2 == 1 ? \$3 : 1/0) every ::1 with linespoints title "node 1", \
	     ${tl:-0} with lines dashtype 2 title "Tl", ${th:-0} with lines dashtype 3 title "Th"
	GP
fi
plots=
for m in $modes; do
	f=$dir/p$m/alloc-samples-ns
	[ -r "$f" ] || continue
	sort -n "$f" | awk '{ v[NR] = $1 } END { for (i = 1; i <= NR; i++) printf "%.3f %.4f\n", v[i] / 1000, i / NR }' > "$dir/p$m/alloc-cdf.txt"
	plots="$plots${plots:+, }\"$dir/p$m/alloc-cdf.txt\" using 1:2 with lines title \"proactiveness $m\""
done
gnuplot <<-GP
set terminal png size 800,400
set output "$dir/alloc-cdf.png"
set title "Huge-page allocation latency"
set xlabel "us (log)"; set ylabel "fraction of allocations"; set logscale x; set key bottom right
plot $plots
GP

# summary.json: the headline figures, by mode
{
	printf '{'
	for m in $modes; do
		d=$dir/p$m
		printf '"p%s": {"alloc_p50_us": %s, "alloc_p95_us": %s, "alloc_count": %s, "alloc_coverage_pct": %s' "$m" \
			"$(pct "$d/alloc-samples-ns" 50 2>/dev/null | sed 's/^-$/null/')" "$(pct "$d/alloc-samples-ns" 95 2>/dev/null | sed 's/^-$/null/')" \
			"$(count "$d/alloc-samples-ns")" "$( [ -r "$d/alloc-memfree-kb" ] && coverage "$d/alloc-samples-ns" "$d/alloc-memfree-kb" || echo null)"
		if [ -r "$d/pretouch.txt" ]; then
			printf ', "pretouch_elapsed_s": %s, "pretouch_sys_s": %s, "pretouch_thp_pct": %s' \
				"$(field "$d/pretouch.txt" elapsed_s)" "$(field "$d/pretouch.txt" sys_s)" "$(field "$d/pretouch.txt" thp_pct)"
		fi
		cpus=0 nr=0
		for e in alloc pretouch; do
			[ -r "$d/$e-kcompactd-cpu-after" ] || continue
			cpus=$(awk -v a="$cpus" -v b="$(cpu "$d/$e-kcompactd-cpu-before" "$d/$e-kcompactd-cpu-after")" 'BEGIN { printf "%.2f", a + b }')
			nr=$((nr + $(rounds "$d/$e-settle.dat") + $(rounds "$d/$e.dat")))
		done
		printf ', "kcompactd_cpu_s": %s, "proactive_rounds": %s}, ' "$cpus" "$nr"
	done
	if [ -r "$dir/backoff/defers.csv" ]; then
		printf '"backoff": {"defer_events": %s, "retry_interval_s": %s}' "$(($(wc -l < "$dir/backoff/defers.csv") - 1))" \
			"$(awk -F, 'NR > 1 && $2 != "" { if (last[$1] != "") print $2 - last[$1]; last[$1] = $2 }' "$dir/backoff/rounds.csv" |
				sort -n | awk '{ v[NR] = $1 } END { if (NR) printf "%.1f", v[int((NR + 1) / 2)]; else print "null" }')"
	else
		printf '"backoff": null'
	fi
	echo '}'
} > "$dir/summary.json"
