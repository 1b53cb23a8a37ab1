# lab-tags: tools
# Prometheus node_exporter (Debian's prometheus-node-exporter) exports the
# series: its vmstat collector, given a --collector.vmstat.fields pattern
# that adds compact_daemon_proactive_*, exports every counter's sum over
# the nodes (/proc/vmstat), and its textfile collector exports what
# trace/node-exporter-textfile.sh writes: every node's counters
# (nodeN/vmstat) with a node label, typed counter, and every node's score,
# the script's own recomputation from /proc/buddyinfo and /proc/zoneinfo.
# A scrape of /metrics over loopback, taken after a proactive round on
# every node, shows each value as the kernel does: a /proc/vmstat sum
# between its reads (folded) just before and just after the scrape; a
# node's counter between nodeN/vmstat's reads (folded) just before and
# just after the script ran, which add up to /proc/vmstat's; a node's
# score equal to fragscore's read before or after.  On copies of
# /proc/buddyinfo and /proc/zoneinfo taken at one moment, the script's
# scores are fragscore's, exactly.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

TEXTFILE=/lab/trace/node-exporter-textfile.sh
FIELDS='^(oom_kill|pgpg|pswp|pg.*fault|compact_daemon_proactive_).*'
URL=http://127.0.0.1:9100/metrics
dir=/tmp/textfile
p=compact_daemon_proactive

# The script: bad input changes nothing.
mkdir -p "$dir"
if "$TEXTFILE" /nonexistent 2> "$OUT/textfile-bad.err"; then
	fail "the textfile script accepted a missing directory"
fi
grep -q 'no such directory' "$OUT/textfile-bad.err" || fail "no clear error: $(cat "$OUT/textfile-bad.err")"
# a kernel without the series: its nodes' vmstat have no such counter
mkdir -p /tmp/stock/node0
grep -v "^${p}_" "$NODE_SYSFS/node0/vmstat" > /tmp/stock/node0/vmstat
if NODE_DIR=/tmp/stock "$TEXTFILE" "$dir" 2> "$OUT/textfile-bad.err"; then
	fail "the textfile script accepted a node vmstat without the series' counters"
fi
grep -q "no ${p}_\* counters" "$OUT/textfile-bad.err" || fail "no clear error: $(cat "$OUT/textfile-bad.err")"
# a buddyinfo it cannot read
mkdir -p /tmp/badproc/sys/vm
cp /proc/version /tmp/badproc/buddyinfo
cp /proc/zoneinfo /tmp/badproc/zoneinfo
: > /tmp/badproc/sys/vm/stat_refresh
if PROC_DIR=/tmp/badproc "$TEXTFILE" "$dir" 2> "$OUT/textfile-bad.err"; then
	fail "the textfile script accepted a buddyinfo it cannot read"
fi
grep -q 'not in the format' "$OUT/textfile-bad.err" || fail "no clear error: $(cat "$OUT/textfile-bad.err")"
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

# Folded reads of the counters (/proc/vmstat's and every node's) and of
# the scores, around the script's run and the scrape
"$LAB_BIN/fragscore" > /tmp/score0
proactive_counters /tmp/vm0
"$TEXTFILE" "$dir"
scrape "$OUT/metrics.prom"
proactive_counters /tmp/vm1
"$LAB_BIN/fragscore" > /tmp/score1
cp "$dir/proactive_compaction.prom" "$OUT/textfile.prom"
"$TEXTFILE" "$dir"	# run again: a second rename over the first file
expect_eq "temporary files left in $dir" "$(find "$dir" -mindepth 1 ! -name proactive_compaction.prom | grep -c . || true)" 0

# value METRIC: its value in the scrape, as an integer
value() {
	awk -v k="$1" '$1 == k { printf "%.0f", $2; found = 1 } END { if (!found) exit 1 }' "$OUT/metrics.prom"
}

# Every series counter's sum, within [before, after] the scrape.
grep -q "^${p}_" /tmp/vm0 || fail "no ${p}_* counter in /proc/vmstat"
while read -r name before; do
	case $name in *:*) continue ;; esac
	after=$(awk -v k="$name" '$1 == k { print $2 }' /tmp/vm1)
	got=$(value "node_vmstat_$name") || fail "node_vmstat_$name is not in the scrape"
	[ "$got" -ge "$before" ] && [ "$got" -le "$after" ] ||
		fail "node_vmstat_$name = $got, /proc/vmstat read $before before the scrape and $after after"
	echo "ok: node_vmstat_$name $got"
done < /tmp/vm0
[ "$(value node_vmstat_${p}_round)" -gt 0 ] || fail "the scrape shows no proactive round"

# Every node's counter, within [before, after] the script's run, typed
# counter; and the nodes' add up to /proc/vmstat's in each folded read.
node_identities /tmp/vm0 /tmp/vm1 || fail "the nodes' counters do not add up to /proc/vmstat's"
for f in /tmp/vm0 /tmp/vm1; do
	awk '$1 ~ /:/ { split($1, a, ":"); s[a[2]] += $2; next } { v[$1] = $2 }
		END { for (k in v) if (s[k] != v[k]) { print "FAIL: " k ": the nodes add up to " s[k] ", /proc/vmstat has " v[k]; bad = 1 }; exit bad }' "$f" ||
		fail "in the folded read $f, the nodes' counters do not add up to /proc/vmstat's"
done
echo "ok: in both folded reads, each counter's node values add up to /proc/vmstat's"
nodes=$(awk '$1 ~ /^node[0-9]+:/ { split($1, a, ":"); n[a[1]] = 1 } END { for (k in n) c++; print c }' /tmp/vm0)
expect_eq "nodes with counters" "$nodes" "$NODES"
while read -r key before; do
	case $key in node*:*) ;; *) continue ;; esac
	n=${key%%:*} name=${key#*:}
	n=${n#node}
	m=node_compaction_proactive_${name#${p}_}_total
	after=$(awk -v k="$key" '$1 == k { print $2 }' /tmp/vm1)
	got=$(value "$m{node=\"$n\"}") || fail "$m{node=\"$n\"} is not in the scrape"
	[ "$got" -ge "$before" ] && [ "$got" -le "$after" ] ||
		fail "$m{node=\"$n\"} = $got, node$n/vmstat read $before before the script ran and $after after"
	grep -qx "# TYPE $m counter" "$OUT/metrics.prom" || fail "$m is not typed counter in the scrape"
done < /tmp/vm0
echo "ok: every node's $(grep -c "^node0:" /tmp/vm0) counters, typed counter, as nodeN/vmstat has them"
# When nothing moved, exactly: the nodes' exported counters add up to /proc/vmstat's
if cmp -s /tmp/vm0 /tmp/vm1; then
	while read -r name v; do
		case $name in *:*) continue ;; esac
		m=node_compaction_proactive_${name#${p}_}_total
		s=$(awk -v k="$m{" 'index($1, k) == 1 { s += $2 } END { printf "%.0f", s }' "$OUT/metrics.prom")
		expect_eq "$m summed over the nodes vs /proc/vmstat's $name" "$s" "$v"
	done < /tmp/vm0
else
	echo "note: a counter moved between the reads around the scrape; the sums were checked within them"
fi

# Every node's score, equal to fragscore's read before or after.
for n in $(seq 0 $((NODES - 1))); do
	got=$(value "node_compaction_proactive_score{node=\"$n\"}") ||
		fail "node_compaction_proactive_score{node=\"$n\"} is not in the scrape"
	s0=$(awk -v n="$n" '$2 == n { print $4 }' /tmp/score0)
	s1=$(awk -v n="$n" '$2 == n { print $4 }' /tmp/score1)
	[ "$got" = "$s0" ] || [ "$got" = "$s1" ] ||
		fail "node $n: score $got in the scrape, fragscore read $s0 before and $s1 after"
	echo "ok: node $n: score $got"
done
grep -qx '# TYPE node_compaction_proactive_score gauge' "$OUT/metrics.prom" || fail "the score is not typed gauge"

# The same scores, exactly, on copies of the /proc files taken at once
mkdir -p /tmp/procs/sys/vm /tmp/textfile2
cp /proc/buddyinfo /proc/zoneinfo /tmp/procs/
: > /tmp/procs/sys/vm/stat_refresh
PROC_DIR=/tmp/procs "$TEXTFILE" /tmp/textfile2
"$LAB_BIN/fragscore" --proc /tmp/procs | tee "$OUT/fragscore-copies"
expect_eq "the script's scores on the copies vs fragscore's" \
	"$(awk '$1 ~ /^node_compaction_proactive_score\{/ { n = $1; gsub(/[^0-9]/, "", n); print "node", n, "score", $2 }' /tmp/textfile2/proactive_compaction.prom)" \
	"$(cat "$OUT/fragscore-copies")"
expect_eq "node_textfile_scrape_error" "$(awk '$1 == "node_textfile_scrape_error" { print $2 }' "$OUT/metrics.prom")" 0
