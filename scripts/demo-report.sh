#!/bin/sh
# Turn a demo's raw results (tests/guest/jobs/demo.sh's output folder) into
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
# moved PREFIX COUNTER: how much a counter moved over PREFIX's experiment
moved() { awk -v k="$2" 'FNR == NR { if ($1 == k) b = $2; next } $1 == k { print $2 - b }' "$1-vmstat-before" "$1-vmstat-after"; }
rounds() { [ -r "$1" ] && "$pt" "$1" | awk '$1 == "rounds" { print $2 }' || echo 0; }

# why_alloc DIR: what the proactive mode's samples and trace say about its
# latencies: how many allocations found a huge page free (no direct
# compaction: under FAST_US; direct compaction takes longer here), how
# many huge pages were free when the run began (/proc/pagetypeinfo), how
# fast the driver used them up (the leading run of fast allocations) and
# what kcompactd did during the run.
FAST_US=1000
# free_huge PAGETYPEINFO: free blocks of the huge-page order or above, in
# huge pages
free_huge() {
	awk '/^Page block order:/ { o = $4 } $1 == "Node" && $5 == "type" { for (i = 7 + o; i <= NF; i++) n += $i * 2 ^ (i - 7 - o) } END { print n + 0 }' "$1"
}
why_alloc() {
	awk -v f=$((FAST_US * 1000)) -v all="$(count "$1/alloc-samples-ns")" -v m="${1##*/p}" \
		-v free="$(free_huge "$1/alloc-pagetypeinfo-before")" -v rounds="$(rounds "$1/alloc.dat")" -v cpu="$(cpu "$1/alloc-kcompactd-cpu-before" "$1/alloc-kcompactd-cpu-after")" '
		{ t += $1 }
		$1 < f { fast++; if (!slow) { lead++; lead_t = t } }
		$1 >= f { slow = 1 }
		END {
			printf "Why: at p%s, %d of the %d allocations (%.0f%%) found a free huge page and took under %d us; the other %d went through direct compaction, as at p0.  ", m, fast, all, fast * 100 / all, f / 1000, all - fast
			printf "%d huge pages were free when the run began, prepared by kcompactd while settling; the first %d allocations were fast, in %.1f ms of allocation time", free, lead, lead_t / 1e6
			if (lead_t < 500e6)
				printf ", less than kcompactd'"'"'s 500 ms period.  "
			else
				printf ", longer than kcompactd'"'"'s 500 ms period.  "
			if (fast > lead)
				printf "The other %d fast ones found blocks freed during the run (%.1f s of allocation time), by kcompactd (%d proactive rounds, %.2f s CPU) or by an earlier direct compaction.  ", fast - lead, t / 1e9, rounds, cpu
			if (free > 0 && lead <= free && lead < all / 2)
				printf "The prepared share of free memory scales with memory, and a back-to-back allocation loop used it up here before half of its allocations; the original ran on a 1 TB machine, where the same share holds hundreds of times as many huge pages.\n"
			else
				printf "\n"
		}' "$1/alloc-samples-ns"
}

# why_pretouch DIR0 DIR1: where the pre-touch's system time went: the
# cost of a huge-page fault without direct compaction (the proactive mode,
# almost no compact_stall) against the direct compactions of mode 0.
why_pretouch() {
	d0=$1 d1=$2
	awk -v m0="${d0##*/p}" -v m1="${d1##*/p}" \
		-v s0="$(field "$d0/pretouch.txt" sys_s)" -v s1="$(field "$d1/pretouch.txt" sys_s)" \
		-v f0="$(moved "$d0/pretouch" thp_fault_alloc)" -v f1="$(moved "$d1/pretouch" thp_fault_alloc)" \
		-v c0="$(moved "$d0/pretouch" compact_stall)" -v c1="$(moved "$d1/pretouch" compact_stall)" 'BEGIN {
		printf "Why: at p%s the %d huge-page faults cost %.1f ms of system time each, with %d direct compactions in all.  ", m1, f1, f1 ? s1 * 1000 / f1 : 0, c1
		if (s0 - s1 >= 0.05) {
			printf "At p%s, %d direct compactions came with %.1f s more system time for the same work.  ", m0, c0, s0 - s1
			if (s0 - s1 < s1)
				printf "That is less than the faults themselves cost at p%s: here the fault dominates both runs, where on the original'"'"'s hardware compaction dominated the run without proactive compaction (its p95 allocation took 34 ms).\n", m1
			else
				printf "That is more than the faults themselves cost at p%s: compaction dominates the run without proactive compaction, as on the original'"'"'s hardware.\n", m1
		} else
			printf "At p%s, %d direct compactions came with no more system time (%.1f s less): in this run direct compaction did not cost measurable time.\n", m0, c0, s1 - s0

	}'
}

r=$dir/report.md
{
echo "# Proactive compaction: the original evaluation in the lab guest"
echo
echo "Kernel: $(cat "$dir/kernel" 2>/dev/null || echo unknown)."
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
	echo "p95 ratio p$first / p$last: $(awk -v a="$(pct "$dir/p$first/alloc-samples-ns" 95)" -v b="$(pct "$dir/p$last/alloc-samples-ns" 95)" 'BEGIN { printf "%.1fx", b ? a / b : 0 }') (original: 78x)"
fi
if [ "$last" != 0 ] && [ -r "$dir/p$last/alloc.dat" ]; then
	echo
	why_alloc "$dir/p$last"
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
	echo "Elapsed ratio p$first / p$last: $(awk -v a="$(field "$dir/p$first/pretouch.txt" elapsed_s)" -v b="$(field "$dir/p$last/pretouch.txt" elapsed_s)" 'BEGIN { printf "%.1fx", b ? a / b : 0 }') (original: 8.3x)"
	echo
	why_pretouch "$dir/p$first" "$dir/p$last"
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
	echo "Deferring rounds: $(($(wc -l < "$dir/backoff/defers.csv") - 1)); seconds from each to the node's next check: $(awk -F, 'NR > 1 && $4 != "" { printf "%s%s", sep, $4; sep = " " }' "$dir/backoff/defers.csv")."
	echo "Intervals between a node's rounds (s): $(awk -F, 'NR > 1 && $2 != "" { if (last[$1] != "") { printf "%s%.1f", sep, $2 - last[$1]; sep = " " } last[$1] = $2 }' "$dir/backoff/rounds.csv")."
	echo "kcompactd CPU during the window: $(cpu_nodes "$dir/backoff/backoff-kcompactd-cpu-before" "$dir/backoff/backoff-kcompactd-cpu-after")."
	echo
fi
echo "## Plots"
echo
echo "![per-node score during the pre-touch](score.png)"
echo
echo "![allocation latency CDF](alloc-cdf.png)"
if [ "$first" != "$last" ]; then
	echo
	echo "![p50/p95 latency, coverage and kcompactd CPU against proactiveness](sweep.png)"
fi
} > "$r"

# Score timeline of the last (most proactive) mode's pre-touch, Tl and Th
src=$dir/p$last/pretouch.dat
[ -r "$src" ] || src=$dir/p$last/alloc.dat
if [ -r "$src" ]; then
	"$pt" -q -s "$dir/score.csv" "$src"
	tl=$(awk -F, 'NR == 2 { print $4 }' "$dir/score.csv") th=$(awk -F, 'NR == 2 { print $5 }' "$dir/score.csv")
	# One series per node (time_s,nid,score,...), so that lines join a
	# node's own checks.
	nodes=
	for n in $(awk -F, 'NR > 1 { print $2 }' "$dir/score.csv" | sort -un); do
		awk -F, -v n="$n" 'NR > 1 && $2 == n' "$dir/score.csv" > "$dir/score-node$n.csv"
		nodes="$nodes\"$dir/score-node$n.csv\" using 1:3 with linespoints title \"node $n\", "
	done
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/score.png"
	set datafile separator ","
	set title "Per-node fragmentation score, proactiveness $last ($(basename "$src" .dat))"
	set xlabel "seconds"; set ylabel "score"; set yrange [0:105]; set key bottom right
	plot $nodes ${tl:-0} with lines dashtype 2 title "Tl", ${th:-0} with lines dashtype 3 title "Th"
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
	printf '{"kernel": "%s", ' "$(sed 's/["\\]//g' "$dir/kernel" 2>/dev/null)"
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

# sweep.csv and sweep.png: the headline figures against proactiveness, the
# curve for choosing a value (make demo SWEEP=1; drawn for any 2+ modes).
if [ "$first" != "$last" ]; then
	{
		echo "proactiveness,alloc_p50_us,alloc_p95_us,alloc_coverage_pct,kcompactd_cpu_s"
		for m in $modes; do
			grep -o "\"p$m\": {[^}]*}" "$dir/summary.json" | awk -v m="$m" -F'[:,}]' '{
				for (i = 1; i < NF; i++) { gsub(/[" {]/, "", $i); v[$i] = $(i + 1) + 0 }
				printf "%s,%s,%s,%s,%s\n", m, v["alloc_p50_us"], v["alloc_p95_us"], v["alloc_coverage_pct"], v["kcompactd_cpu_s"] }'
		done
	} > "$dir/sweep.csv"
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/sweep.png"
	set datafile separator ","
	set title "Against proactiveness: allocation latency, coverage, kcompactd CPU"
	set xlabel "proactiveness"; set ylabel "us (log)"; set logscale y
	set y2label "% of free memory / kcompactd s"; set y2tics; set ytics nomirror; set key outside right
	plot "$dir/sweep.csv" every ::1 using 1:2 with linespoints title "p50 us", \
	     "" every ::1 using 1:3 with linespoints title "p95 us", \
	     "" every ::1 using 1:4 axes x1y2 with linespoints title "coverage %", \
	     "" every ::1 using 1:5 axes x1y2 with linespoints title "kcompactd s"
	GP
fi
