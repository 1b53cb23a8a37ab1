# lab-tags: series tools
# The score in mm_compaction_proactive_check is the formula fragscore
# recomputes from /proc/buddyinfo and /proc/zoneinfo: the check events
# just before and just after a fragscore read both agree with it, and carry
# the thresholds that proactiveness 1 gives on this tree (thresholds()).
#
# The memory is held still: fragmented, with proactiveness 1 (thresholds 99
# and 100, so checks run every 500 ms but never start a round).  A check
# and the /proc read are a fraction of a second apart, so a few pages may
# have moved between them; one score point is 1% of a node's free memory
# (several MiB here), hence a tolerance of 1.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

set_proactiveness 0
fragment
set_proactiveness 1
read -r low high <<< "$(thresholds 1)"
# Wait until the scores hold still: freed pages drain back to the buddy
# lists for a while after fragmenting (seconds on the debug kernel).
steady() {
	"$LAB_BIN/fragscore" > /tmp/steady.0
	sleep 1
	"$LAB_BIN/fragscore" > /tmp/steady.1
	cmp -s /tmp/steady.0 /tmp/steady.1
}
wait_until 60 steady
# Read the scores while tracing, on the memory the checks see:
# trace_start allocates the ring buffer (8 MiB per CPU), trace_stop frees
# it and writes the trace file.  Read after trace_stop, the debug kernel's
# node 0 was 2 points off (97 vs 99) with the memory otherwise steady.
# Markers around the read place it among the checks.
trace_start
sleep 2
marker fragscore-a
"$LAB_BIN/fragscore" > /tmp/user
marker fragscore-b
sleep 2
trace_stop checks
cat /tmp/user
scores checks > "$OUT/scores.csv"
summary checks checks > /dev/null
at() { awk -v m="$1" '$1 == "marker" && $3 == m { print $2 }' "$OUT/checks.summary"; }
a=$(at fragscore-a) b=$(at fragscore-b)
[ -n "$a" ] && [ -n "$b" ] || fail "no markers around the fragscore read in the recording"
echo "fragscore read between $a s and $b s of the recording"

n=0
while [ "$n" -lt "$NODES" ]; do
	user=$(awk -v n=$n '$2 == n { print $4 }' /tmp/user)
	[ -n "$user" ] || fail "fragscore printed no score for node $n"
	cols "$OUT/scores.csv" time_s nid score low high decision | awk -v n=$n '$2 == n' > /tmp/node-checks
	before=$(awk -v a="$a" '$1 < a' /tmp/node-checks | tail -1)
	after=$(awk -v b="$b" '$1 > b' /tmp/node-checks | head -1)
	[ -n "$before" ] || fail "node $n: no check event before the fragscore read"
	[ -n "$after" ] || fail "node $n: no check event after the fragscore read"
	for c in "$before" "$after"; do
		read -r t _ score elow ehigh decision <<< "$c"
		diff=$((score > user ? score - user : user - score))
		[ "$diff" -le 1 ] || fail "node $n: check event at $t s: score $score, fragscore $user"
		expect_eq "node $n check at $t s: thresholds and decision" "$elow $ehigh $decision" "$low $high below"
	done
	echo "ok: node $n: fragscore $user, check events around the read $(echo "$before" | cut -d' ' -f3) and $(echo "$after" | cut -d' ' -f3)"
	n=$((n + 1))
done
