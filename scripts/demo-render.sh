#!/bin/sh
# The demo report's second step: from RESULTS_DIR/metrics/ alone (written
# by demo-extract.sh), write RESULTS_DIR/report.md, summary.json, sweep.csv
# and the plots (score.png, alloc-cdf.png, sweep.png).  Every explanatory
# sentence is chosen by the figures it explains.
#
# usage: demo-render.sh RESULTS_DIR
set -eu

dir=$1
met=$dir/metrics
# shellcheck source=tests/lib/common.sh
. "$(dirname "$0")/../tests/lib/common.sh"
[ -r "$met/run" ] || { echo "demo-render: no $met/run: run demo-extract.sh first" >&2; exit 1; }

# metric FILE KEY: the value of KEY in metrics file FILE ("-" if absent)
metric() {
	[ -r "$1" ] || { echo -; return 0; }
	awk -v k="$2" '$1 == k { sub(/^[^ ]+ ?/, ""); print; f = 1; exit } END { if (!f) print "-" }' "$1"
}
# has NAME: whether the measurement's metrics exist
has() { [ -r "$met/$1" ]; }
# measurements: the names of the mode experiments measured, by mode
measurements() {
	for m in $modes; do
		for e in alloc pretouch $(rates | sed 's/^/rate/'); do
			! has "p$m-$e" || echo "p$m-$e"
		done
	done
}
# rates: the paced allocation rates measured, ascending
rates() {
	(cd "$met" && ls) | sed -n 's/^p[0-9]*-rate\([0-9]*\)$/\1/p' | sort -nu
}
# refill_rate: kcompactd's refill rate, huge-page blocks made free per
# second of proactive rounds while settling, the median over the
# measurements that settled with proactive compaction on
refill_rate() {
	cat "$met"/p*-* 2>/dev/null | awk '$1 == "refill_blocks_per_round_s" { print $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}
# ratio A B: A / B, as "N.Nx"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || !b) print "-"; else printf "%.1fx\n", a / b }'; }

modes=$(metric "$met/run" modes)
first=${modes%% *} last=${modes##* }
percentiles="5 10 25 30 40 50 60 75 80 90 95 99"

# why_alloc NAME: what the proactive mode's allocations and trace say about
# its latencies
why_alloc() {
	f=$met/$1
	awk -v m="$(metric "$f" mode)" -v all="$(metric "$f" count)" -v fast="$(metric "$f" fast)" \
		-v fast_us="$(metric "$f" fast_us)" -v lead="$(metric "$f" lead)" -v lead_ms="$(metric "$f" lead_ms)" \
		-v alloc_s="$(metric "$f" alloc_s)" -v free="$(metric "$f" free_huge_begin)" \
		-v rounds="$(metric "$f" rounds)" -v cpu="$(metric "$f" kcompactd_cpu_s)" 'BEGIN {
		if (!all) { printf "Why: at p%s no allocation succeeded.\n", m; exit }
		printf "Why: at p%s, %d of the %d allocations (%.0f%%) found a free huge page and took under %d us; the other %d went through direct compaction.  ", m, fast, all, fast * 100 / all, fast_us, all - fast
		if (!lead) {
			printf "Not even the first allocation found a free huge page, although %d were free when the run began.\n", free
			exit
		}
		printf "%d huge pages were free when the run began; the first %d allocations in a row were fast, in %.1f ms of allocation time", free, lead, lead_ms
		if (lead_ms < 500)
			printf ", less than kcompactd'"'"'s 500 ms period.  "
		else
			printf ", longer than kcompactd'"'"'s 500 ms period.  "
		if (fast > lead)
			printf "The other %d fast ones found blocks freed during the run (%.1f s of allocation time), by kcompactd (%d proactive rounds, %.2f s CPU) or by an earlier direct compaction.  ", fast - lead, alloc_s, rounds, cpu
		if (lead <= free && lead < all / 2)
			printf "The driver used up the huge pages prepared before the run within its first half; the prepared share of free memory scales with memory, so a bigger machine holds more of them (the original ran on a 1 TB machine).\n"
		else if (lead > free)
			printf "More allocations were fast in a row than huge pages were free at the start: blocks were freed during that run of fast allocations.\n"
		else
			printf "The huge pages prepared before the run served at least half of the allocations.\n"
	}'
}

# why_pretouch NAME0 NAME1: where the pre-touch's system time went: the
# cost of a huge-page fault in the proactive mode against the direct
# compactions of the other
why_pretouch() {
	f0=$met/$1 f1=$met/$2
	awk -v m0="$(metric "$f0" mode)" -v m1="$(metric "$f1" mode)" \
		-v s0="$(metric "$f0" sys_s)" -v s1="$(metric "$f1" sys_s)" \
		-v f1="$(metric "$f1" moved:thp_fault_alloc)" \
		-v c0="$(metric "$f0" moved:compact_stall)" -v c1="$(metric "$f1" moved:compact_stall)" 'BEGIN {
		printf "Why: at p%s the %d huge-page faults cost %.1f ms of system time each, with %d direct compactions in all.  ", m1, f1, f1 ? s1 * 1000 / f1 : 0, c1
		if (s0 - s1 >= 0.05) {
			printf "At p%s, %d direct compactions came with %.1f s more system time for the same work.  ", m0, c0, s0 - s1
			if (s0 - s1 < s1)
				printf "That is less than the faults themselves cost at p%s: here the fault dominates both runs, where on the original'"'"'s hardware compaction dominated the run without proactive compaction (its p95 allocation took 34 ms).\n", m1
			else
				printf "That is more than the faults themselves cost at p%s: compaction dominates the run without proactive compaction, as on the original'"'"'s hardware.\n", m1
		} else if (s1 - s0 >= 0.05)
			printf "At p%s, %d direct compactions came with %.1f s less system time: in this run proactive compaction did not make the faults cheaper.\n", m0, c0, s1 - s0
		else
			printf "At p%s, %d direct compactions came with the same system time (within 0.05 s): in this run direct compaction did not cost measurable time.\n", m0, c0
	}'
}

report() {
	echo "# Proactive compaction: the original evaluation in the lab guest"
	echo
	echo "Kernel: $(metric "$met/run" kernel)."
	echo "Guest: $(metric "$met/run" machine).  Modes: proactiveness $modes."
	echo "Every measurement ran in its own freshly booted guest.  Raw data beside this file: trace.dat, vmstat snapshots, console log and dmesg per measurement, latency samples; the figures below are in metrics/."
	echo
	echo "## Fragmentation and settle"
	echo
	echo "| mode | experiment | scores after fragmenting | settle | scores when the experiment began |"
	echo "|---|---|---|---|---|"
	for n in $(measurements); do
		f=$met/$n
		echo "| ${n%-*} | ${n#*-} | $(metric "$f" scores_fragmented) | $(metric "$f" settle) | $(metric "$f" scores_begin) |"
	done
	echo
	echo "## Huge-page allocation latency (lab_hpalloc, us)"
	echo
	printf "| percentile |"; for m in $modes; do printf " p%s |" "$m"; done; echo
	printf "|---|"; for m in $modes; do printf -- "---:|"; done; echo
	for p in $percentiles; do
		printf "| %s |" "$p"
		for m in $modes; do printf " %s |" "$(metric "$met/p$m-alloc" "p${p}_us")"; done
		echo
	done
	printf "| huge pages allocated |"; for m in $modes; do printf " %s |" "$(metric "$met/p$m-alloc" count)"; done; echo
	printf "| %% of free memory |"; for m in $modes; do printf " %s |" "$(metric "$met/p$m-alloc" coverage_pct)"; done; echo
	if [ "$first" != "$last" ] && has "p$first-alloc" && has "p$last-alloc"; then
		echo
		echo "p95 ratio p$first / p$last: $(ratio "$(metric "$met/p$first-alloc" p95_us)" "$(metric "$met/p$last-alloc" p95_us)") (original: 78x)"
	fi
	if [ "$last" != 0 ] && has "p$last-alloc"; then
		echo
		why_alloc "p$last-alloc"
	fi
	echo
	[ -z "$(rates)" ] || rate_sweep
	echo "## Pre-touch (MADV_HUGEPAGE region, every page touched)"
	echo
	echo "| mode | MiB | elapsed s | user s | sys s | huge-page share % |"
	echo "|---|---:|---:|---:|---:|---:|"
	for m in $modes; do
		has "p$m-pretouch" || continue
		f=$met/p$m-pretouch
		echo "| p$m | $(metric "$f" mib) | $(metric "$f" elapsed_s) | $(metric "$f" user_s) | $(metric "$f" sys_s) | $(metric "$f" thp_pct) |"
	done
	if [ "$first" != "$last" ] && has "p$first-pretouch" && has "p$last-pretouch"; then
		echo
		echo "Elapsed ratio p$first / p$last: $(ratio "$(metric "$met/p$first-pretouch" elapsed_s)" "$(metric "$met/p$last-pretouch" elapsed_s)") (original: 8.3x)"
		echo
		why_pretouch "p$first-pretouch" "p$last-pretouch"
	fi
	echo
	echo "## Counters that moved, and kcompactd"
	echo
	for n in $(measurements); do
		f=$met/$n
		echo "${n%-*}, ${n#*-}: kcompactd CPU $(metric "$f" kcompactd_cpu_nodes); proactive rounds: $(metric "$f" rounds_settle) while settling, $(metric "$f" rounds) during the experiment"
		echo
		awk '$1 ~ /^moved:/ { printf "    %-42s %+d\n", substr($1, 7), $2 }' "$f"
		echo
	done
	if has backoff; then
		f=$met/backoff
		echo "## Back-off: unmovable pages in every huge-page block, proactiveness 40"
		echo
		echo "Scores before: $(metric "$f" scores_before)."
		echo "Deferring rounds: $(metric "$f" defers); seconds from each to the node's next check: $(metric "$f" defer_next_s)."
		echo "Intervals between a node's rounds (s): $(metric "$f" round_intervals_s)."
		echo "kcompactd CPU during the window: $(metric "$f" kcompactd_cpu_nodes)."
		echo
	fi
	round_table
	throughput
	echo "## Plots"
	echo
	echo "![per-node score during the pre-touch](score.png)"
	echo
	echo "![allocation latency CDF](alloc-cdf.png)"
	if [ "$first" != "$last" ]; then
		echo
		echo "![p50/p95 latency, coverage and kcompactd CPU against proactiveness](sweep.png)"
	fi
	if [ -n "$(rates)" ]; then
		echo
		echo "![p95 allocation latency against the allocation rate](rate.png)"
	fi
}

# rate_sweep: the paced allocation experiments, latency and coverage by
# rate and mode, and what they say against kcompactd's refill rate
rate_sweep() {
	refill=$(refill_rate)
	echo "## Allocation rate sweep (lab_hpalloc paced, us)"
	echo
	echo "Each rate ran for its own seconds in its own boot (DEMO_PACE_S); coverage is the share of free memory the allocated huge pages cover."
	echo "kcompactd's refill rate, measured while settling (huge-page blocks made free per second of proactive rounds, median over the boots): $refill."
	echo
	printf "| rate/s |"; for m in $modes; do printf " p%s p50 | p%s p95 | p%s p99 | p%s pages | p%s cov %% |" "$m" "$m" "$m" "$m" "$m"; done
	[ "$first" = "$last" ] || printf " p95 p%s/p%s |" "$first" "$last"
	echo
	printf "|---:|"; for m in $modes; do printf -- "---:|---:|---:|---:|---:|"; done; [ "$first" = "$last" ] || printf -- "---:|"; echo
	for r in $(rates); do
		printf "| %s |" "$r"
		for m in $modes; do
			f=$met/p$m-rate$r
			printf " %s | %s | %s | %s | %s |" "$(metric "$f" p50_us)" "$(metric "$f" p95_us)" "$(metric "$f" p99_us)" "$(metric "$f" count)" "$(metric "$f" coverage_pct)"
		done
		[ "$first" = "$last" ] || printf " %s |" "$(ratio "$(metric "$met/p$first-rate$r" p95_us)" "$(metric "$met/p$last-rate$r" p95_us)")"
		echo
	done
	echo
	[ "$first" = "$last" ] || why_rates "$refill"
	echo
}

# why_rates REFILL: the p95 ratios below and above the refill rate; the
# rates at which the first mode made far fewer allocations than the last
# (single allocations took seconds), whose ratios compare unlike runs and
# are left out of the best
why_rates() {
	for r in $(rates); do
		echo "$r $(metric "$met/p$first-rate$r" p95_us) $(metric "$met/p$last-rate$r" p95_us) $(metric "$met/p$first-rate$r" count) $(metric "$met/p$last-rate$r" count) $(metric "$met/p$first-rate$r" p99_us)"
	done | awk -v refill="$1" -v a="$first" -v b="$last" '
		$2 != "-" && $3 != "-" && $3 > 0 {
			x = $2 / $3; r[++n] = $1; v[n] = x
			if ($4 != "-" && $5 != "-" && $4 * 2 < $5) { few[++nf] = $1; fc[nf] = $4; fl[nf] = $5; fmax[nf] = $6 }
			else if (x > best) { best = x; bestr = $1 } }
		END {
			if (!n) exit
			printf "At each rate, the p95 ratio p%s/p%s:", a, b
			for (i = 1; i <= n; i++) {
				side = refill == "-" ? "" : (r[i] <= refill ? " (below the refill rate)" : " (above the refill rate)")
				printf "%s %.1fx at %s/s%s", (i > 1 ? "," : ""), v[i], r[i], side
			}
			printf ".\n"
			for (i = 1; i <= nf; i++)
				printf "At %s/s, p%s made only %d allocations against p%s'"'"'s %d: single allocations took seconds (p99 %.1f s), so its ratio compares a stalled run with a running one.\n", few[i], a, fc[i], b, fl[i], fmax[i] / 1e6
			if (bestr == "")
				printf "No rate had comparable runs in both modes.\n"
			else if (best >= 78)
				printf "Among the rates at which both modes made comparable numbers of allocations, the highest ratio is %.1fx, at %s/s: it reaches the original'"'"'s 78x.\n", best, bestr
			else
				printf "Among the rates at which both modes made comparable numbers of allocations, the highest ratio is %.1fx, at %s/s, short of the original'"'"'s 78x.\n", best, bestr
		}'
}

# round_table: every proactive round of every measurement, open ones too,
# with its rates; a round over 1 s and over 5 times the median is flagged
round_table() {
	ls "$met"/p*-rounds.csv >/dev/null 2>&1 || return 0
	echo "## Proactive rounds during the experiments"
	echo
	for f in "$met"/p*-rounds.csv; do
		n=${f##*/}
		awk -F, -v m="${n%-rounds.csv}" 'NR > 1 { print m "," $0 }' "$f"
	done > "$met/.all-rounds"
	med=$(cut -d, -f4 "$met/.all-rounds" | sort -n | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }')
	echo "Median round: $med s.  Rates are pages per second of the round's wall time; migrated counts kcompactd's mm_compaction_migratepages batches."
	echo
	echo "| measurement | node | begin s | duration s | kcompactd CPU s | migrate-scanned/s | migrated | migrated/s | outcome | |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"
	awk -F, -v med="$med" '{ flag = ($4 > 1 && $4 > 5 * med) ? "**outlier**" : ""
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $8, $7, $9, $10, flag }' "$met/.all-rounds"
	echo
	n=$(awk -F, -v med="$med" '$4 > 1 && $4 > 5 * med' "$met/.all-rounds" | wc -l)
	if [ "$n" -gt 0 ]; then
		echo "$n outlier round(s): see Documentation/demo.md, \"The long compactions\"."
	else
		echo "No outlier round in this run."
	fi
	rm -f "$met/.all-rounds"
	echo
}

# throughput: kcompactd's migration rate against memcpy, per measurement
throughput() {
	rows=$(for n in $(measurements); do
		f=$met/$n
		[ "$(metric "$f" migrated_mib_per_cpu_s)" != - ] || continue
		echo "| $n | $(metric "$f" kcompactd_migrated) | $(metric "$f" kcompactd_cpu_s) | $(metric "$f" migrated_mib_per_cpu_s) | $(metric "$f" mib_per_cpu_s) | $(metric "$f" migrated_share_of_memcpy_pct) |"
	done)
	[ -n "$rows" ] || return 0
	echo "## kcompactd's migration throughput against memcpy (same boot)"
	echo
	echo "| measurement | pages migrated by kcompactd | kcompactd CPU s | MiB migrated per CPU s | memcpy MiB per CPU s | % of memcpy |"
	echo "|---|---:|---:|---:|---:|---:|"
	echo "$rows"
	echo
}

# num FILE KEY: a metric as a JSON number, null if absent
num() { num_of "$(metric "$1" "$2")"; }
num_of() {
	case $1 in -|'') echo null ;; *) echo "$1" ;; esac
}

# summary: the headline figures by mode, built with jq
summary() {
	j='{kernel: $kernel}'
	for m in $modes; do
		a=$met/p$m-alloc p=$met/p$m-pretouch
		cpu=0 nr=0
		for f in "$a" "$p"; do
			[ -r "$f" ] || continue
			cpu=$(awk -v a="$cpu" -v b="$(metric "$f" kcompactd_cpu_s)" 'BEGIN { printf "%.2f", a + b }')
			nr=$((nr + $(metric "$f" rounds_settle) + $(metric "$f" rounds)))
		done
		j="$j + {p$m: {alloc_p50_us: $(num "$a" p50_us), alloc_p95_us: $(num "$a" p95_us), alloc_p99_us: $(num "$a" p99_us),"
		j="$j alloc_count: $(num "$a" count), alloc_coverage_pct: $(num "$a" coverage_pct),"
		j="$j pretouch_elapsed_s: $(num "$p" elapsed_s), pretouch_sys_s: $(num "$p" sys_s), pretouch_thp_pct: $(num "$p" thp_pct),"
		j="$j kcompactd_cpu_s: $cpu, proactive_rounds: $nr}}"
	done
	for r in $(rates); do
		for m in $modes; do
			f=$met/p$m-rate$r
			j="$j + {\"p$m-rate$r\": {rate: $r, alloc_p50_us: $(num "$f" p50_us), alloc_p95_us: $(num "$f" p95_us), alloc_p99_us: $(num "$f" p99_us), alloc_count: $(num "$f" count), alloc_coverage_pct: $(num "$f" coverage_pct)}}"
		done
	done
	j="$j + {refill_blocks_per_round_s: $(num_of "$(refill_rate)")}"
	if has backoff; then
		j="$j + {backoff: {defer_events: $(num "$met/backoff" defers), retry_interval_s: $(num "$met/backoff" round_interval_median_s)}}"
	else
		j="$j + {backoff: null}"
	fi
	jq -n --arg kernel "$(metric "$met/run" kernel)" "$j"
}

# sweep: the headline figures against proactiveness, the curve for choosing
# a value (drawn for any 2+ modes)
sweep() {
	echo "proactiveness,alloc_p50_us,alloc_p95_us,alloc_coverage_pct,kcompactd_cpu_s"
	for m in $modes; do
		jq -r --arg m "p$m" '.[$m] | [$m[1:], .alloc_p50_us, .alloc_p95_us, .alloc_coverage_pct, .kcompactd_cpu_s] | map(. // "") | @csv' \
			"$dir/summary.json" | tr -d '"'
	done
}

report > "$dir/report.md"
summary > "$dir/summary.json"

if [ -r "$met/score.csv" ]; then
	tl=$(cols "$met/score.csv" low | head -1) th=$(cols "$met/score.csv" high | head -1)
	plots=
	for f in "$met"/score-node*.csv; do
		n=${f##*score-node}
		plots="$plots\"$f\" using 1:3 every ::1 with linespoints title \"node ${n%.csv}\", "
	done
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/score.png"
	set datafile separator ","
	set title "Per-node fragmentation score, proactiveness $(metric "$met/run" score_source)"
	set xlabel "seconds"; set ylabel "score"; set yrange [0:105]; set key bottom right
	plot $plots ${tl:-0} with lines dashtype 2 title "Tl", ${th:-0} with lines dashtype 3 title "Th"
	GP
fi
plots=
for m in $modes; do
	f=$met/p$m-alloc-cdf.csv
	[ "$(wc -l < "$f" 2>/dev/null || echo 0)" -gt 1 ] || continue
	plots="$plots${plots:+, }\"$f\" using 1:2 every ::1 with lines title \"proactiveness $m\""
done
if [ -n "$plots" ]; then
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/alloc-cdf.png"
	set datafile separator ","
	set title "Huge-page allocation latency"
	set xlabel "us (log)"; set ylabel "fraction of allocations"; set logscale x; set key bottom right
	plot $plots
	GP
fi
if [ -n "$(rates)" ]; then
	{
		printf "rate"; for m in $modes; do printf ",p%s_p95_us" "$m"; done; echo
		for r in $(rates); do
			printf "%s" "$r"; for m in $modes; do printf ",%s" "$(metric "$met/p$m-rate$r" p95_us | sed 's/^-$//')"; done; echo
		done
	} > "$dir/rate.csv"
	plots='' i=2
	for m in $modes; do
		plots="$plots\"$dir/rate.csv\" every ::1 using 1:$i with linespoints title \"p95, proactiveness $m\", "
		i=$((i + 1))
	done
	refill=$(refill_rate)
	gnuplot <<-GP
	set terminal png size 800,400
	set output "$dir/rate.png"
	set datafile separator ","
	set title "p95 huge-page allocation latency against the allocation rate"
	set xlabel "huge pages per second (log)"; set ylabel "us (log)"; set logscale xy; set key top left
	$( [ "$refill" = - ] || echo "set arrow from $refill, graph 0 to $refill, graph 1 nohead dashtype 2; set label \"kcompactd refill $refill/s\" at $refill, graph 0.95 offset 1,0" )
	plot ${plots%, }
	GP
fi
if [ "$first" != "$last" ]; then
	sweep > "$dir/sweep.csv"
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
