# lab-tags: series debug
# With every node fragmented (score >= 90) while proactive compaction is
# off, writing 20 to vm.compaction_proactiveness starts a round on every node
# within 1 s, flagged as triggered; rounds run until each node is at or
# below the low threshold (thresholds 20: 80, with the high 90, on every
# tree), and the counters and events agree, in total and per node.  With
# kcompactd's context switches recorded, the analysis tool gives each round
# its pages migrated (at most those scanned) and its kcompactd's CPU time
# (more than none, no more than the round lasted).
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

read -r low high <<< "$(thresholds 20)"
set_proactiveness 0
fragment
trace_start compaction sched:sched_switch -f 'prev_comm ~ "kcompactd*" || next_comm ~ "kcompactd*"'
snap /tmp/v0
marker write-20
set_proactiveness 20
wait_until 120 settled
"$LAB_BIN/fragscore"
sleep 1
snap /tmp/v1
cp /tmp/v0 "$OUT/round.v0" && cp /tmp/v1 "$OUT/round.v1"	# for make captures
trace_stop round
rounds round | tee "$OUT/rounds.csv"

p=compact_daemon_proactive
for c in round round_success migrate_scanned free_scanned; do
	d=$(delta ${p}_$c /tmp/v0 /tmp/v1)
	[ "$d" -gt 0 ] || fail "${p}_$c did not move"
	echo "ok: ${p}_$c +$d"
done
d=$(delta compact_daemon_migrate_scanned /tmp/v0 /tmp/v1)
[ "$d" -ge "$(delta ${p}_migrate_scanned /tmp/v0 /tmp/v1)" ] ||
	fail "compact_daemon_migrate_scanned (+$d) does not include the proactive scans"
echo "ok: compact_daemon_migrate_scanned +$d includes the proactive scans"
check_identities round /tmp/v0 /tmp/v1

cols "$OUT/rounds.csv" nid duration_ms cpu_ms migrate_scanned migrated | awk '
	{ if (!($3 > 0 && $3 <= $2 + 0.001)) { print "FAIL: node " $1 ": cpu_ms " $3 " not in (0, duration " $2 "]"; bad = 1 }
	  if (!($5 > 0 && $5 <= $4)) { print "FAIL: node " $1 ": migrated " $5 " not in (0, scanned " $4 "]"; bad = 1 }
	  printf "ok: node %s: round of %s ms, kcompactd CPU %s ms, %s of %s scanned pages migrated\n", $1, $2, $3, $5, $4 }
	END { exit bad }' || fail "a round's CPU time or migrated pages are out of range"

write_at=$(awk '$1 == "marker" && $3 == "write-20" { print $2 }' "$OUT/round.summary")
[ -n "$write_at" ] || fail "no trace_marker in the recording"
n=0
while [ "$n" -lt "$NODES" ]; do
	# this node's rounds: begin_s triggered score_before score_after outcome
	cols "$OUT/rounds.csv" nid begin_s triggered score_before score_after outcome |
		awk -v n=$n '$1 == n { $1 = ""; print substr($0, 2) }' > /tmp/node-rounds
	first=$(head -1 /tmp/node-rounds)
	[ -n "$first" ] || fail "no proactive round on node $n"
	echo "$first" | awk -v w="$write_at" '$2 == 1 && $1 - w < 1.0 && $1 >= w' | grep -q . ||
		fail "node $n: first round '$first' is not a triggered round within 1 s of the write at $write_at"
	echo "ok: node $n: triggered round began $(echo "$first" | awk -v w="$write_at" '{ printf "%.3f", $1 - w }') s after the write"
	awk -v h="$high" '$3 <= h { bad = 1 } END { exit bad }' /tmp/node-rounds ||
		fail "node $n: a round began at a score not above the high threshold $high"
	awk -v l="$low" '$5 == "success" && $4 > l { bad = 1 } END { exit bad }' /tmp/node-rounds ||
		fail "node $n: a successful round ended above the low threshold $low"
	grep -q ' success$' /tmp/node-rounds ||
		fail "node $n: no round reached the low threshold"
	echo "ok: node $n: rounds began above $high, successful ones ended at or below $low"
	n=$((n + 1))
done
