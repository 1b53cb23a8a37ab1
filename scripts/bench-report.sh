#!/bin/sh
# make bench's report: from the boots' readings (bench.sh's results folder)
# write metrics.csv (one row per boot) and bench.md (per configuration
# min, median and max, and the medians' ratios to stock).
#
# Per boot, from kcompactd's CPU time (all nodes) and the counters:
#   rounds phase: CPU ns per 100k pages scanned (compact_migrate_scanned +
#   compact_free_scanned: nothing but kcompactd compacts in this phase,
#   and stock 6.1's proactive rounds do not count into the
#   compact_daemon_* ones), pages, rounds (patched only: the series'
#   compact_daemon_proactive_round);
#   idle phase: CPU ns per check, the checks taken as two a second per
#   node (kcompactd's 500 ms period); with events on, the trace's count of
#   checks over both phases is given beside it as a cross-check.
#
# usage: bench-report.sh RESULTS_DIR
set -eu

dir=$1
pt=${PROACTIVE_TRACE:-$(dirname "$0")/../build/bin/proactive-trace}
# ns FROM TO: kcompactd CPU ns over all nodes between two readings
ns() { awk 'FNR == NR { b[$1] = $2; next } { s += $2 - b[$1] } END { print s }' "$1" "$2"; }
# moved FROM TO COUNTER...: the counters' summed delta ("-" if absent)
moved() {
	f=$1 t=$2
	shift 2
	awk -v want=" $* " 'FNR == NR { b[$1] = $2; next } index(want, " " $1 " ") { s += $2 - b[$1]; n++ } END { print n ? s : "-" }' "$f" "$t"
}

{
	echo "config,boot,round_cpu_ns,pages_scanned,rounds,cpu_ns_per_100k_pages,idle_cpu_ns,checks,cpu_ns_per_check,traced_checks,run_cpu_ns"
	for d in "$dir"/*-[0-9]*/; do
		d=${d%/}
		b=${d##*/}
		[ -r "$d/cpu-idle" ] || continue
		nodes=$(grep -c . "$d/cpu-idle")
		idle_s=$(cat "$d/idle-s" 2>/dev/null || echo "${BENCH_IDLE_S:?}")
		traced=-
		[ ! -r "$d/bench.dat" ] || traced=$("$pt" "$d/bench.dat" | awk '$1 == "checks" { print $2 }')
		echo "${b%-*},${b##*-},$(ns "$d/cpu-start" "$d/cpu-rounds"),$(moved "$d/vmstat-start" "$d/vmstat-rounds" compact_migrate_scanned compact_free_scanned),$(moved "$d/vmstat-start" "$d/vmstat-rounds" compact_daemon_proactive_round),$(ns "$d/cpu-rounds" "$d/cpu-idle"),$((nodes * idle_s * 2)),$traced"
	done | awk -F, -v OFS=, '{ per = $4 > 0 ? $3 / $4 * 100000 : 0; print $1, $2, $3, $4, $5, sprintf("%.0f", per), $6, $7, sprintf("%.0f", $6 / $7), $8, $3 + $6 }'
} > "$dir/metrics.csv"

# stats CONFIG COLUMN: min median max of a column over a config's boots
stats() {
	awk -F, -v c="$1" -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) k = i; next } $1 == c && $k != "-" { print $k }' "$dir/metrics.csv" |
		sort -n | awk '{ v[NR] = $1 } END { if (!NR) { print "- - -"; exit } print v[1], (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[NR] }'
}
# diff CONFIG BASE COLUMN: the difference of CONFIG's mean from BASE's, in
# % of BASE's, with its 95% confidence interval (Welch's t, degrees of
# freedom rounded down: a little wide)
diff() {
	awk -F, -v c="$1" -v base="$2" -v col="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) k = i; next }
		$k != "-" && ($1 == c || $1 == base) { n[$1]++; s[$1] += $k; q[$1] += $k * $k }
		END {
			if (n[c] < 2 || n[base] < 2) { print "-"; exit }
			for (g in n) { m[g] = s[g] / n[g]; v[g] = (q[g] - n[g] * m[g] * m[g]) / (n[g] - 1); if (v[g] < 0) v[g] = 0 }
			a = v[c] / n[c]; b = v[base] / n[base]; se = sqrt(a + b)
			df = (a + b) ^ 2 / ((a ? a * a / (n[c] - 1) : 0) + (b ? b * b / (n[base] - 1) : 0) + 1e-300)
			split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262", t, " ")
			tt = df >= 10 ? 2.228 : t[df < 1 ? 1 : int(df)]
			d = (m[c] - m[base]) * 100 / m[base]; h = tt * se * 100 / m[base]
			printf "%+.1f%% (%+.1f%% .. %+.1f%%)", d, d - h, d + h
		}' "$dir/metrics.csv"
}
row() {	# TITLE COLUMN
	printf "| %s |" "$1"
	for c in stock off on; do
		# shellcheck disable=SC2046 # min median max, three words
		set -- "$1" "$2" $(stats "$c" "$2")
		printf " %s / %s / %s |" "$3" "$4" "$5"
	done
	s=$(stats stock "$2" | cut -d' ' -f2) o=$(stats off "$2" | cut -d' ' -f2) n=$(stats on "$2" | cut -d' ' -f2)
	awk -v s="$s" -v o="$o" -v n="$n" 'function r(x) { return (s == "-" || !s || x == "-") ? "-" : sprintf("%.3f", x / s) }
		BEGIN { printf " %s | %s |\n", r(o), r(n) }'
}
{
	echo "# make bench: what the series costs kcompactd"
	echo
	echo "Kernels: stock $(cat "$dir"/stock-1/kernel 2>/dev/null || echo -); patched $(cat "$dir"/off-1/kernel 2>/dev/null || echo -)."
	echo "Guest: $(cat "$dir/machine" 2>/dev/null || echo -).  Boots per configuration: $(awk -F, '$1 == "stock"' "$dir/metrics.csv" | wc -l), interleaved."
	echo
	echo "Each cell: min / median / max over the boots.  Ratios: the medians' against stock."
	echo
	echo "| measure | stock | patched, tracing off | patched, events on | off / stock | on / stock |"
	echo "|---|---|---|---|---:|---:|"
	row "kcompactd CPU per 100k pages scanned (ns)" cpu_ns_per_100k_pages
	row "kcompactd CPU per idle check (ns)" cpu_ns_per_check
	row "pages scanned in the rounds phase" pages_scanned
	row "kcompactd CPU, rounds phase (ns)" round_cpu_ns
	row "kcompactd CPU, idle phase (ns)" idle_cpu_ns
	row "kcompactd CPU, whole run (ns)" run_cpu_ns
	row "proactive rounds (the series' counter)" rounds
	echo
	echo "Differences of the means, with 95% confidence intervals (Welch's t), in % of the second configuration's mean:"
	echo
	echo "| measure | off - stock | on - stock | on - off |"
	echo "|---|---:|---:|---:|"
	for m in cpu_ns_per_100k_pages cpu_ns_per_check run_cpu_ns; do
		echo "| $m | $(diff off stock $m) | $(diff on stock $m) | $(diff on off $m) |"
	done
	echo
	echo "Added CPU per recorded check event in the idle phase (events on against tracing off, medians of the idle phase's CPU over its checks): $(awk -F, '$1 == "on" || $1 == "off" { print $1, $7, $8 }' "$dir/metrics.csv" | sort -k1,1 -k2n |
		awk '{ v[$1, ++n[$1]] = $2; c = $3 } END { for (g in n) { k = n[g]; m[g] = k % 2 ? v[g, (k + 1) / 2] : (v[g, k / 2] + v[g, k / 2 + 1]) / 2 } if (c) printf "%.0f ns", (m["on"] - m["off"]) / c; else print "-" }')." 
	echo
	echo "Checks in the idle phase: taken as two a second per node.  Checks recorded with events on, over both phases: $(stats on traced_checks | tr ' ' /) (min/median/max)."
	echo "Pages scanned: compact_migrate_scanned + compact_free_scanned over the rounds phase, in which nothing but kcompactd compacts."
	echo
	echo "Per boot: metrics.csv."
} > "$dir/bench.md"
