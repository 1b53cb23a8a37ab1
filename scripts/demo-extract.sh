#!/bin/sh
# The demo report's first step: read a demo's raw results (what
# tests/guest/jobs/demo.sh wrote: p<MODE>/, backoff/, kernel, machine) and
# write one metrics file per measurement into RESULTS_DIR/metrics/, beside
# the raw data, which is left as it is.  demo-render.sh makes the report
# from the metrics files alone.
#
# A metrics file has one "key value" line per figure; the value is the rest
# of the line.  metrics/run names the kernel, the machine and the modes;
# metrics/p<MODE>-<EXPERIMENT> and metrics/backoff hold each measurement's
# figures; the .csv files beside them are the series that the plots draw.
#
# usage: demo-extract.sh RESULTS_DIR
set -eu

dir=$1
here=$(cd "$(dirname "$0")" && pwd)
pt=${PROACTIVE_TRACE:-$here/../build/bin/proactive-trace}
# shellcheck source=tests/lib/common.sh
. "$here/../tests/lib/common.sh"
met=$dir/metrics
modes=$(cd "$dir" && ls -d p[0-9]* 2>/dev/null | sed 's/^p//' | sort -n | paste -sd' ' -)
[ -n "$modes" ] || { echo "demo-extract: no mode results (p<MODE>/) in $dir" >&2; exit 1; }
[ -x "$pt" ] || { echo "demo-extract: no $pt: build it with make" >&2; exit 1; }
rm -rf "$met"
mkdir -p "$met"

# The percentiles the report shows, and the allocation time under which an
# allocation found a free huge page (direct compaction takes longer here).
PERCENTILES="5 10 25 30 40 50 60 75 80 90 95 99"
FAST_US=1000

# scores FRAGSCORE: the nodes' scores, comma separated
scores() { awk '{ printf "%s%s", sep, $4; sep = ", " } END { print "" }' "$1"; }
# cpu BEFORE AFTER: kcompactd seconds over all nodes, then per node
cpu() { awk 'FNR == NR { b[$1] = $2; next } { s += $2 - b[$1] } END { printf "%.2f\n", s }' "$1" "$2"; }
cpu_nodes() {
	awk 'FNR == NR { b[$1] = $2; next } { printf "%snode %s %.2f s", sep, $1, $2 - b[$1]; sep = ", " } END { print "" }' "$1" "$2"
}
# rounds DAT: proactive rounds in a recording (0 without one)
rounds() {
	if [ -r "$1" ]; then "$pt" "$1" | awk '$1 == "rounds" { print $2 }'; else echo 0; fi
}
# moved BEFORE AFTER: "moved:COUNTER DELTA" for each compaction and THP
# counter that moved
moved() {
	awk 'FNR == NR { b[$1] = $2; next } $1 ~ /^(compact_|thp_)/ && $2 != b[$1] { printf "moved:%s %d\n", $1, $2 - b[$1] }' "$1" "$2"
}
# free_huge PAGETYPEINFO: free blocks of the huge-page order or above, in
# huge pages
free_huge() {
	awk '/^Page block order:/ { o = $4 } $1 == "Node" && $5 == "type" { for (i = 7 + o; i <= NF; i++) n += $i * 2 ^ (i - 7 - o) } END { print n + 0 }' "$1"
}

# common PREFIX: what every measurement has (PREFIX is the raw files'
# common path: p20/alloc, backoff/backoff)
common() {
	[ -r "$1-kcompactd-cpu-after" ] || return 0
	echo "kcompactd_cpu_s $(cpu "$1-kcompactd-cpu-before" "$1-kcompactd-cpu-after")"
	echo "kcompactd_cpu_nodes $(cpu_nodes "$1-kcompactd-cpu-before" "$1-kcompactd-cpu-after")"
	echo "rounds_settle $(rounds "$1-settle.dat")"
	echo "rounds $(rounds "$1.dat")"
	[ -r "$1-vmstat-after" ] && moved "$1-vmstat-before" "$1-vmstat-after"
	return 0
}

# alloc_metrics DIR MODE NAME: the latency driver's samples (NAME-samples-ns), one ns figure a line in
# allocation order: count, coverage of free memory, percentiles; how many
# found a free huge page (fast), how many of those came first in a row
# (lead: the huge pages prepared before the run) and in how much
# allocation time, and how many huge pages were free at the start.
alloc_metrics() {
	s=$1/$3-samples-ns
	n=$(grep -c . "$s" || :)
	echo "count $n"
	awk -v n="$n" -v kb="$(cat "$1/$3-memfree-kb")" 'BEGIN { printf "coverage_pct %.1f\n", n * 2048 * 100 / kb }'
	sort -n "$s" | awk -v ps="$PERCENTILES" '{ v[NR] = $1 }
		END { k = split(ps, p, " ")
			for (j = 1; j <= k; j++) {
				if (!NR) { printf "p%s_us -\n", p[j]; continue }
				i = int((p[j] * NR + 99) / 100); if (i < 1) i = 1
				printf "p%s_us %.0f\n", p[j], v[i] / 1000 } }'
	awk -v f=$((FAST_US * 1000)) '{ t += $1 }
		$1 < f { fast++; if (!slow) { lead++; lead_t = t } }
		$1 >= f { slow = 1 }
		END { printf "fast_us %d\nfast %d\nlead %d\nlead_ms %.1f\nalloc_s %.1f\n", f / 1000, fast, lead, lead_t / 1e6, t / 1e9 }' "$s"
	echo "free_huge_begin $(free_huge "$1/$3-pagetypeinfo-before")"
	sort -n "$s" | awk -v n="$n" 'BEGIN { print "us,fraction" } { printf "%.3f,%.4f\n", $1 / 1000, NR / n }' > "$met/p$2-$3-cdf.csv"
}

# pretouch_metrics DIR: the pre-toucher's "name value" pairs
pretouch_metrics() {
	awk '{ for (i = 2; i < NF; i += 2) print $i, $(i + 1) }' "$1/pretouch.txt"
}

{
	echo "kernel $(cat "$dir/kernel" 2>/dev/null || echo unknown)"
	echo "machine $(cat "$dir/machine" 2>/dev/null || echo unknown)"
	echo "modes $modes"
} > "$met/run"

# kcompactd_work PREFIX: what kcompactd did in a measurement's recording
# (PREFIX.dat): pages it migrated, against its CPU time and this boot's
# memcpy bandwidth (PREFIX-membw.txt); the rounds still open at the end
kcompactd_work() {
	[ -r "$1.dat" ] || return 0
	"$pt" "$1.dat" > "$met/.summary"
	awk '$1 == "kcompactd_migrated" || $1 == "last_event_s" { print }
		$1 == "open_round" { printf "open_round %s %s %s\n", $2, $3, $4 }' "$met/.summary"
	rm -f "$met/.summary"
}
# throughput METRICS: kcompactd's migration rate in MiB per CPU second,
# and the memcpy bandwidth beside it
throughput() {
	awk '$1 == "kcompactd_migrated" { pages = $2 } $1 == "kcompactd_cpu_s" { cpu = $2 } $1 == "mib_per_cpu_s" { bw = $2 }
		END { if (pages != "" && cpu >= 0.05) printf "migrated_mib_per_cpu_s %.0f\n", pages * 4096 / 1048576 / cpu
			if (pages != "" && cpu >= 0.05 && bw) printf "migrated_share_of_memcpy_pct %.1f\n", pages * 4096 / 1048576 / cpu * 100 / bw }' "$1"
}
# refill DIR NAME: the huge-page blocks kcompactd made free while settling,
# from each node's score after fragmenting and when the experiment began
# (score: the share of free memory outside free huge-page blocks; free
# memory split evenly between the nodes), per second of the settle's
# proactive rounds
refill() {
	[ -r "$1/$2-settle.dat" ] || return 0
	"$pt" -q -r "$met/.settle-rounds.csv" "$1/$2-settle.dat"
	paste "$1/$2-fragscore-before" "$1/$2-fragscore-after-settle" | awk -v kb="$(cat "$1/$2-memfree-kb")" \
		-v round_s="$(cols "$met/.settle-rounds.csv" duration_ms | awk '{ s += $1 } END { print s / 1000 }')" '
		{ n++; drop += $4 - $8 }
		END { blocks = drop / 100 * kb / n / 2048
			printf "refill_blocks %.0f\nrefill_round_s %.3f\n", blocks, round_s
			if (round_s > 0) printf "refill_blocks_per_round_s %.0f\n", blocks / round_s }'
	rm -f "$met/.settle-rounds.csv"
}
# round_table PREFIX OUT: the measurement's rounds, open ones included, with
# their rates: nid,begin_s,duration_s,cpu_s,migrate_scanned,migrated,
# scanned_per_s,migrated_per_s,outcome (cpu_s and migrated empty when the
# recording has no sched_switch or migratepages events)
round_table() {
	[ -r "$1.dat" ] || return 0
	"$pt" -q -r "$met/.rounds.csv" "$1.dat"
	{
		echo "nid,begin_s,duration_s,cpu_s,migrate_scanned,migrated,scanned_per_s,migrated_per_s,outcome"
		# by name, with empty fields (migrated, without the batches)
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["begin_s"] != "" { d = $c["duration_ms"] / 1000; ms = $c["migrate_scanned"]; mg = $c["migrated"]
				cpu = $c["cpu_ms"] == "" ? "" : sprintf("%.3f", $c["cpu_ms"] / 1000)
				printf "%s,%s,%.3f,%s,%s,%s,%.0f,%s,%s\n", $c["nid"], $c["begin_s"], d, cpu, ms, mg, (d > 0 ? ms / d : 0),
					(mg == "" ? "" : sprintf("%.0f", (d > 0 ? mg / d : 0))), $c["outcome"] }' "$met/.rounds.csv"
		"$pt" "$1.dat" | awk '$1 == "last_event_s" { end = $2 } $1 == "open_round" { o[$2] = $3; m[$2] = $4 }
			END { for (n in o) { d = end - o[n]; mg = m[n] == "-" ? "" : m[n]
				printf "%s,%s,%.3f,,,%s,,%s,open at end\n", n, o[n], d, mg, (mg == "" ? "" : sprintf("%.0f", (d > 0 ? mg / d : 0))) } }'
	} > "$2"
	rm -f "$met/.rounds.csv"
}

for m in $modes; do
	d=$dir/p$m
	for e in $(ls "$d" | sed -n 's/^\([a-z0-9]*\)-settle$/\1/p'); do
		{
			echo "mode $m"
			echo "experiment $e"
			echo "scores_fragmented $(scores "$d/$e-fragscore-before")"
			echo "settle $(cat "$d/$e-settle")"
			echo "scores_begin $(scores "$d/$e-fragscore-after-settle")"
			common "$d/$e"
			case $e in
			alloc) alloc_metrics "$d" "$m" "$e" ;;
			rate*) echo "rate ${e#rate}"; alloc_metrics "$d" "$m" "$e" ;;
			pretouch) pretouch_metrics "$d" ;;
			esac
			kcompactd_work "$d/$e"
			[ ! -r "$d/$e-membw.txt" ] || awk '{ for (i = 2; i < NF; i += 2) if ($i == "mib_per_cpu_s") print $i, $(i + 1) }' "$d/$e-membw.txt"
			[ "$m" = 0 ] || refill "$d" "$e"
		} > "$met/p$m-$e"
		throughput "$met/p$m-$e" >> "$met/p$m-$e"
		round_table "$d/$e" "$met/p$m-$e-rounds.csv"
	done
done

# The score timeline of the most proactive mode's pre-touch (or its
# allocation experiment), one series per node so that lines join a node's
# own checks.
last=${modes##* }
src=$dir/p$last/pretouch.dat
[ -r "$src" ] || src=$dir/p$last/alloc.dat
if [ -r "$src" ]; then
	"$pt" -q -s "$met/score.csv" "$src"
	echo "score_source p$last $(basename "$src" .dat)" >> "$met/run"
	for n in $(cols "$met/score.csv" nid | sort -un); do
		awk -F, -v n="$n" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "nid") c = i; print; next } $c == n' "$met/score.csv" > "$met/score-node$n.csv"
	done
fi

b=$dir/backoff
if [ -r "$b/backoff.dat" ]; then
	"$pt" -q -r "$met/backoff-rounds.csv" -d "$met/backoff-defers.csv" "$b/backoff.dat"
	{
		echo "scores_before $(scores "$b/fragscore-before")"
		common "$b/backoff"
		echo "defers $(($(wc -l < "$met/backoff-defers.csv") - 1))"
		echo "defer_next_s $(cols "$met/backoff-defers.csv" next_check_s | awk 'NF { printf "%s%s", sep, $1; sep = " " } END { print "" }')"
		# The intervals between a node's successive rounds
		cols "$met/backoff-rounds.csv" nid begin_s | awk '
			{ if ($1 in last) { v[++n] = $2 - last[$1]; printf "%s%.1f", sep, v[n]; sep = " " } last[$1] = $2 }
			END { print ""; for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
				if (n) printf "round_interval_median_s %.1f\n", v[int((n + 1) / 2)]; else print "round_interval_median_s -" }' |
			sed '1s/^/round_intervals_s /'
	} > "$met/backoff"
fi
