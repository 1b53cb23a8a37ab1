# Prometheus node_exporter (Debian's prometheus-node-exporter) exports the
# series: its vmstat collector, given a --collector.vmstat.fields pattern
# that adds compact_daemon_proactive_*, exports every counter, and its
# textfile collector exports each node's state as written by
# trace/node-exporter-textfile.sh.  A scrape of /metrics over loopback, taken
# after a proactive round, shows each value as /proc/vmstat and the state
# file show it: a counter between its reads just before and just after the
# scrape, a node's state equal to one of those two reads.
. /lab/tests/lib/guest.sh

TEXTFILE=/lab/trace/node-exporter-textfile.sh
FIELDS='^(oom_kill|pgpg|pswp|pg.*fault|compact_daemon_proactive_).*'
URL=http://127.0.0.1:9100/metrics
dir=/tmp/textfile

# The script: bad input changes nothing.
mkdir -p "$dir"
if "$TEXTFILE" /nonexistent 2> "$OUT/textfile-bad.err"; then
	fail "the textfile script accepted a missing directory"
fi
grep -q 'no such directory' "$OUT/textfile-bad.err" || fail "no clear error: $(cat "$OUT/textfile-bad.err")"
if PROACTIVE_STATE=/proc/version "$TEXTFILE" "$dir" 2> "$OUT/textfile-bad.err"; then
	fail "the textfile script accepted a state file it cannot read"
fi
expect_eq "files left in $dir by the failed runs" "$(ls -A "$dir" | wc -l)" 0

# Something to count: a proactive round on every node.
set_proactiveness 0
fragment
ip link set lo up
prometheus-node-exporter --web.listen-address=127.0.0.1:9100 \
	--collector.vmstat.fields="$FIELDS" --collector.textfile.directory="$dir" \
	> "$OUT/node-exporter.log" 2>&1 &
exporter=$!
trap 'kill $exporter $FRAGMENTER 2>/dev/null || :' EXIT
scrape() { curl -sf -o "$1" "$URL"; }
wait_until 60 scrape /tmp/first.prom
echo "ok: node_exporter $(prometheus-node-exporter --version 2>&1 | awk 'NR == 1 { print $3 }') answers on $URL"

set_proactiveness 20
wait_until 120 settled
wait_until 30 idle_twice

vmstat_read() { grep '^compact_daemon_proactive_' /proc/vmstat > "$1"; }
cp "$PROACTIVE" /tmp/state0
"$TEXTFILE" "$dir"
vmstat_read /tmp/vm0
scrape "$OUT/metrics.prom"
vmstat_read /tmp/vm1
cp "$PROACTIVE" /tmp/state1
"$TEXTFILE" "$dir"	# run again: a second rename over the first file
expect_eq "temporary files left in $dir" "$(ls -A "$dir" | grep -vc '^proactive_compaction\.prom$' || true)" 0

# Every series counter, within [before, after] the scrape.
[ -s /tmp/vm0 ] || fail "no compact_daemon_proactive_* counter in /proc/vmstat"
while read -r name before; do
	after=$(awk -v k="$name" '$1 == k { print $2 }' /tmp/vm1)
	got=$(awk -v k="node_vmstat_$name" '$1 == k { printf "%.0f", $2; found = 1 } END { if (!found) exit 1 }' \
		"$OUT/metrics.prom") || fail "node_vmstat_$name is not in the scrape"
	[ "$got" -ge "$before" ] && [ "$got" -le "$after" ] ||
		fail "node_vmstat_$name = $got, /proc/vmstat read $before before the scrape and $after after"
	echo "ok: node_vmstat_$name $got"
done < /tmp/vm0
[ "$(awk '$1 == "node_vmstat_compact_daemon_proactive_round" { print $2 + 0 }' "$OUT/metrics.prom")" -gt 0 ] ||
	fail "the scrape shows no proactive round"

# Every node's state, equal to the state file before or after the scrape.
metric_value() {
	awk -v k="node_compaction_proactive_$1{node=\"$2\"}" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' \
		"$OUT/metrics.prom"
}
nodes=0
while read -r n score low high ms; do
	for m in "score $score score" "low_threshold $low low" "high_threshold $high high" "deferred_seconds $ms deferred_ms"; do
		set -- $m
		got=$(metric_value "$1" "$n") || fail "node_compaction_proactive_$1{node=\"$n\"} is not in the scrape"
		[ "$1" = deferred_seconds ] && got=$(awk -v s="$got" 'BEGIN { printf "%.0f", s * 1000 }')
		other=$(state /tmp/state1 node "$3" | awk -v n="$n" '$1 == n { print $2 }')
		[ "$got" = "$2" ] || [ "$got" = "$other" ] ||
			fail "node $n: $1 is $got in the scrape, the state file read $2 before and $other after"
	done
	echo "ok: node $n: score $score, thresholds $low/$high, deferred ${ms} ms"
	nodes=$((nodes + 1))
done < <(state /tmp/state0 node score low high deferred_ms)
expect_eq "nodes in the scrape's state" "$nodes" "$NODES"
expect_eq "node_textfile_scrape_error" "$(awk '$1 == "node_textfile_scrape_error" { print $2 }' "$OUT/metrics.prom")" 0
