#!/bin/sh
# Export each node's proactive compaction counters, and a fragmentation
# score per node, to Prometheus through node_exporter's textfile collector.
#
# The counters are the series' per-node stats, read from
# /sys/devices/system/node/nodeN/vmstat: for every
# compact_daemon_proactive_NAME there, one metric with a node label, typed
# counter (they only go up):
#   node_compaction_proactive_NAME_total{node="N"}
# NAME: check_kswapd, round, round_success, round_partial, round_kswapd,
# round_aborted, round_deferred, migrate_scanned, free_scanned.  Their sum
# over the nodes is /proc/vmstat's compact_daemon_proactive_NAME, which
# node_exporter's own vmstat collector exports, without the node, as
# node_vmstat_compact_daemon_proactive_NAME given
# --collector.vmstat.fields='^(...|compact_daemon_proactive_).*'.
#
# The score, node_compaction_proactive_score{node="N"} (a gauge, 0-100), is
# not read from the kernel, which shows it only in the
# mm_compaction_proactive_check trace event: it is this project's own
# recomputation from /proc/buddyinfo and /proc/zoneinfo, the same
# arithmetic as tests/progs/fragscore.c (mm/compaction.c,
# fragmentation_score_node(): each populated zone's external fragmentation
# at the huge-page order, weighted by its present pages over the node's
# present pages plus one, in integers).  It can differ from the kernel's
# by the pages that moved between the kernel's check and this read.  The
# thresholds a round starts above and stops at are in the check event
# (low=, high=), not here.
#
# Example queries:
#   rate(node_compaction_proactive_round_total[5m])
#       rounds started per second, per node
#   increase(node_compaction_proactive_round_deferred_total[1h]) > 0
#       nodes where rounds did not lower the score (unmovable pages, say)
#   rate(node_compaction_proactive_migrate_scanned_total[5m])
#     / ignoring(node) group_left sum(rate(node_vmstat_compact_daemon_migrate_scanned[5m]))
#       each node's share of kcompactd's migration scanning that was proactive
#
# The metrics are written to DIR/proactive_compaction.prom atomically: to a
# temporary file in DIR first, then renamed over the old one, so that a
# scrape never reads a half-written file.  Run it as root, from a timer as
# often as the scrape interval: it writes /proc/sys/vm/stat_refresh first,
# so that the counters include every CPU's pending deltas (otherwise they
# lag by up to a second or so; the write costs a work item per CPU).  On
# any error it exits non-zero and leaves the previous file as it was.
#
# usage: node-exporter-textfile.sh [DIR]
#        (default DIR: /var/lib/prometheus/node-exporter, Debian's
#        --collector.textfile.directory)
#        NODE_DIR (default /sys/devices/system/node) and PROC_DIR (default
#        /proc: buddyinfo, zoneinfo, sys/vm/stat_refresh) read others, for
#        tests.
set -eu

node_dir=${NODE_DIR:-/sys/devices/system/node}
proc=${PROC_DIR:-/proc}

case ${1:-} in
-h | --help)
	sed -n '2,/^set -eu/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
	exit 0
	;;
-*)
	echo "node-exporter-textfile: unknown option $1 (try --help)" >&2
	exit 2
	;;
esac
dir=${1:-/var/lib/prometheus/node-exporter}

die() { echo "node-exporter-textfile: $*" >&2; exit 1; }
[ -d "$dir" ] || die "$dir: no such directory"
set -- "$node_dir"/node[0-9]*/vmstat
[ -r "$1" ] || die "$node_dir: no nodeN/vmstat to read"
[ -r "$proc/buddyinfo" ] && [ -r "$proc/zoneinfo" ] || die "$proc: cannot read buddyinfo and zoneinfo"
# Fold the per-CPU deltas into the node counters (root)
echo 1 2>/dev/null > "$proc/sys/vm/stat_refresh" || die "$proc/sys/vm/stat_refresh: cannot write it (root?)"

tmp=$(mktemp "$dir/.proactive_compaction.prom.XXXXXX") || die "cannot create a file in $dir"
trap 'rm -f "$tmp"' EXIT

# The counters: "compact_daemon_proactive_NAME VALUE" lines of each
# nodeN/vmstat (the node's number from its folder's name)
awk '
BEGIN {
	help["check_kswapd"] = "Checks that found the node above the high threshold but kswapd running, so started no round."
	help["round"] = "Proactive compaction rounds started on the node."
	help["round_success"] = "Rounds that ended with the node at or below the low threshold they started with."
	help["round_partial"] = "Rounds that ended above the low threshold, with no zone stopped by kswapd or aborted."
	help["round_kswapd"] = "Rounds in which a zone'"'"'s compaction stopped because kswapd ran on the node."
	help["round_aborted"] = "Rounds in which a zone'"'"'s compaction was aborted."
	help["round_deferred"] = "Rounds that did not lower the score; kcompactd then waits 32 s, not 500 ms, for the next check unless woken."
	help["migrate_scanned"] = "Pages the migration scanner scanned in proactive rounds."
	help["free_scanned"] = "Pages the free scanner scanned in proactive rounds."
}
FNR == 1 {
	node = FILENAME; sub(/\/vmstat$/, "", node); sub(/.*\/node/, "", node)
	if (node !~ /^[0-9]+$/) bad = 1
	nodes[++nn] = node
}
$1 ~ /^compact_daemon_proactive_[a-z_]+$/ && $2 ~ /^[0-9]+$/ {
	name = substr($1, 26)
	if (!(name in seen)) { seen[name] = 1; names[++nc] = name }
	v[name, node] = $2
}
END {
	if (bad || !nc)
		exit 1
	for (i = 1; i <= nc; i++) {
		m = "node_compaction_proactive_" names[i] "_total"
		h = (names[i] in help) ? help[names[i]] : "The node'"'"'s compact_daemon_proactive_" names[i] "."
		printf "# HELP %s %s (nodeN/vmstat compact_daemon_proactive_%s)\n", m, h, names[i]
		printf "# TYPE %s counter\n", m
		for (j = 1; j <= nn; j++) {
			if (!((names[i], nodes[j]) in v))
				exit 1
			printf "%s{node=\"%s\"} %s\n", m, nodes[j], v[names[i], nodes[j]]
		}
	}
}' "$@" > "$tmp" || die "$node_dir: no compact_daemon_proactive_* counters in every node's vmstat (a kernel without the series?)"

# The score: buddyinfo gives each populated zone's free blocks per order,
# zoneinfo each zone's present pages (the order is x86-64's PMD order, 9)
awk -v order=9 '
FILENAME ~ /buddyinfo$/ && $1 == "Node" && $3 == "zone" {
	nid = $2; sub(/,$/, "", nid); z = nid SUBSEP $4
	free = suitable = 0
	for (i = 5; i <= NF; i++) {
		o = i - 5
		free += $i * 2 ^ o
		if (o >= order) suitable += $i * 2 ^ (o - order)
	}
	zscore[z] = free ? int((free - suitable * 2 ^ order) * 100 / free) : 0
	node[nid] = 1
	nb++
	next
}
FILENAME ~ /zoneinfo$/ && $1 == "Node" && $3 == "zone" { nid = $2; sub(/,$/, "", nid); z = nid SUBSEP $4; node[nid] = 1; next }
FILENAME ~ /zoneinfo$/ && $1 == "present" && z != "" { present[z] = $2; node_present[substr(z, 1, index(z, SUBSEP) - 1)] += $2; np++ }
END {
	for (n in node) nn++
	# a zone in buddyinfo (populated) without its present pages: not
	# the files this reads
	for (z in zscore) if (!present[z]) nb = 0
	if (!nn || !nb || !np)
		exit 1
	print "# HELP node_compaction_proactive_score Fragmentation score of the node (0-100) as kcompactd computes it, recomputed from /proc/buddyinfo and /proc/zoneinfo by this script (not read from the kernel)."
	print "# TYPE node_compaction_proactive_score gauge"
	for (z in zscore) {
		split(z, k, SUBSEP)
		score[k[1]] += int(present[z] * zscore[z] / (node_present[k[1]] + 1))
	}
	for (n = 0; nn; n++)
		if (n in node) { printf "node_compaction_proactive_score{node=\"%d\"} %d\n", n, score[n]; nn-- }
}' "$proc/buddyinfo" "$proc/zoneinfo" >> "$tmp" || die "$proc: buddyinfo or zoneinfo not in the format this script reads"

chmod 0644 "$tmp"
mv -f "$tmp" "$dir/proactive_compaction.prom"
trap - EXIT
