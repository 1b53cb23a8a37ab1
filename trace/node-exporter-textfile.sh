#!/bin/sh
# Export each node's proactive compaction state (debugfs
# extfrag/proactive_compaction: score, thresholds, time left in a deferral)
# to Prometheus through node_exporter's textfile collector.
#
# The metrics are written to DIR/proactive_compaction.prom atomically: to a
# temporary file in DIR first, then renamed over the old one, so that a
# scrape never reads a half-written file.  Run it as root (debugfs), from a
# timer as often as the scrape interval.  On any error it exits non-zero and
# leaves the previous file as it was.
#
# usage: node-exporter-textfile.sh [DIR]
#        (default DIR: /var/lib/prometheus/node-exporter, Debian's
#        --collector.textfile.directory)
set -eu

state=${PROACTIVE_STATE:-/sys/kernel/debug/extfrag/proactive_compaction}

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
[ -r "$state" ] || die "$state: cannot read it (root, debugfs mounted, a kernel with the series?)"

tmp=$(mktemp "$dir/.proactive_compaction.prom.XXXXXX") || die "cannot create a file in $dir"
trap 'rm -f "$tmp"' EXIT

# A line of the state file: node N score S low L high H deferred_ms D
awk '
function metric(name, help) {
	printf "# HELP node_compaction_proactive_%s %s\n", name, help
	printf "# TYPE node_compaction_proactive_%s gauge\n", name
}
$1 == "node" && $3 == "score" && $5 == "low" && $7 == "high" && $9 == "deferred_ms" {
	n++
	node[n] = $2; score[n] = $4; low[n] = $6; high[n] = $8; defer[n] = $10
	next
}
{ bad = 1 }
END {
	if (bad || !n)
		exit 1
	metric("score", "Fragmentation score of the node (0-100), as kcompactd'"'"'s next check computes it.")
	for (i = 1; i <= n; i++)
		printf "node_compaction_proactive_score{node=\"%s\"} %s\n", node[i], score[i]
	metric("low_threshold", "Score at or below which a proactive round ends.")
	for (i = 1; i <= n; i++)
		printf "node_compaction_proactive_low_threshold{node=\"%s\"} %s\n", node[i], low[i]
	metric("high_threshold", "Score above which a check starts a proactive round.")
	for (i = 1; i <= n; i++)
		printf "node_compaction_proactive_high_threshold{node=\"%s\"} %s\n", node[i], high[i]
	metric("deferred_seconds", "Time left before the next check of a node whose last round did not lower its score; 0 when not deferred.")
	for (i = 1; i <= n; i++)
		printf "node_compaction_proactive_deferred_seconds{node=\"%s\"} %.3f\n", node[i], defer[i] / 1000
}' "$state" > "$tmp" || die "$state: not the format this script reads"

chmod 0644 "$tmp"
mv -f "$tmp" "$dir/proactive_compaction.prom"
trap - EXIT
