# lab-tags: tools
# bpftrace (Debian's bpftrace) counts the series' events: a one-liner that
# counts proactive rounds by outcome, running over one forced round per
# node, gives the deltas of compact_daemon_proactive_round_<outcome>, and
# counted by node and outcome (args->nid), each node's deltas
# (nodeN/vmstat), which add up to /proc/vmstat's.  bpftrace sees the raw
# outcome field; the format's symbols name it.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

bpftrace --version | tee "$OUT/bpftrace-version"
set_proactiveness 0
fragment
sleep 1
snap /tmp/v0
bpftrace -e 'tracepoint:compaction:mm_compaction_proactive_end { @rounds[args->outcome] = count(); @nodes[args->nid, args->outcome] = count(); }' \
	> "$OUT/bpftrace.txt" 2>&1 &
bt=$!
attached() {
	kill -0 "$bt" 2>/dev/null || fail "bpftrace exited: $(tail -3 "$OUT/bpftrace.txt")"
	grep -q '^Attaching 1 probe' "$OUT/bpftrace.txt"
}
wait_until 120 attached
sleep 1
set_proactiveness 20
wait_until 120 settled
set_proactiveness 0
sleep 1
kill -INT "$bt"
wait "$bt" || fail "bpftrace exited with status $?: $(tail -3 "$OUT/bpftrace.txt")"
snap /tmp/v1
cat "$OUT/bpftrace.txt"

rounds=0
for o in success partial kswapd aborted; do
	sym=$(symbol mm_compaction_proactive_end $o)
	n=$(awk -v k="@rounds[$sym]:" '$1 == k { print $2 }' "$OUT/bpftrace.txt")
	expect_eq "bpftrace rounds with outcome=$o vs compact_daemon_proactive_round_$o delta" "${n:-0}" \
		"$(delta compact_daemon_proactive_round_$o /tmp/v0 /tmp/v1)"
	rounds=$((rounds + ${n:-0}))
	for nid in $(mem_nodes); do
		n=$(awk -v k="@nodes[$nid," -v o="$sym]:" '$1 == k && $2 == o { print $3 }' "$OUT/bpftrace.txt")
		expect_eq "bpftrace rounds of node $nid with outcome=$o vs its compact_daemon_proactive_round_$o delta" "${n:-0}" \
			"$(delta "node$nid:compact_daemon_proactive_round_$o" /tmp/v0 /tmp/v1)"
	done
done
[ "$rounds" -ge "$NODES" ] || fail "bpftrace counted $rounds rounds for $NODES nodes"
check_counters /tmp/v0 /tmp/v1
