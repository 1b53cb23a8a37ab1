# Back-off: with unmovable pages scattered over every huge-page block
# (lab_unmovable), compaction cannot lower the score.  At proactiveness 40
# each node's round makes no progress, the next check is deferred by
# 500 ms << 6 = 32000 ms, no round begins on that node inside the window,
# and <debugfs>/extfrag/proactive_compaction counts the window down, to the
# millisecond that the deferring round's end event gives.  Setting
# proactiveness to 0 cancels the deferral: the file then reads 0.
#
# By design a compaction request from kswapd (mm_compaction_kcompactd_wake)
# ends a window early; the test allows that, and a window that runs out
# across a guest clock jump, and says so.
. /lab/tests/lib/guest.sh

set_proactiveness 0
insmod "$LAB_MODULES/lab_unmovable.ko" percent=100
trap 'rmmod lab_unmovable 2>/dev/null' EXIT
# Taking all free memory ran kswapd, which wakes kcompactd when it goes back
# to sleep; such a wake-up ends a defer window early (kcompactd() resets its
# timeout), so let it pass before measuring.
sleep 5
"$LAB_BIN/fragscore"
trace_start
snap /tmp/v0
set_proactiveness 40
deferred_all() { state "$PROACTIVE" deferred_ms | awk '$1 == 0 { bad = 1 } END { exit bad }'; }
wait_until 60 deferred_all
# Two reads of deferred_ms 2 s apart, each between two markers, so that the
# trace clock says when each read happened.
marker debugfs-1a
cp "$PROACTIVE" /tmp/d1
marker debugfs-1b
sleep 2
marker debugfs-2a
cp "$PROACTIVE" /tmp/d2
marker debugfs-2b
cat /tmp/d1 /tmp/d2

# Stay past the first window, to see that nothing began inside it.
sleep 32
snap /tmp/v1
trace_stop backoff
rounds backoff > "$OUT/rounds.csv"
defers backoff | tee "$OUT/defers.csv"
wakes backoff | tee "$OUT/wakes.csv"
summary backoff checks >/dev/null
at() { awk -v m="$1" '$1 == "marker" && $3 == m { print $2 }' "$OUT/backoff.summary"; }
m1a=$(at debugfs-1a) m1b=$(at debugfs-1b) m2a=$(at debugfs-2a) m2b=$(at debugfs-2b)
echo "reads at $m1a..$m1b s and $m2a..$m2b s of the trace"

# deferred_ms must be the time left of the window that the node's last
# deferring round (score_after >= score_before) opened: end = defer + 32 s on the trace
# clock, read somewhere between the markers around the read, within 50 ms;
# or within 250 ms (the deferral counts jiffies, which under TCG can lag
# the trace clock) if the two reads count down as the trace clock does.  A kswapd
# request (mm_compaction_kcompactd_wake) ends a window early, by design; a
# window may also run out between the reads when a TCG stall makes the
# guest clock jump.  Both are allowed, said, and not counted.
counted=0
cols "$OUT/defers.csv" time_s nid > /tmp/defers
cols "$OUT/wakes.csv" time_s nid > /tmp/wakes
while read -r n ms1; do
	ms2=$(state /tmp/d2 node deferred_ms | awk -v n="$n" '$1 == n { print $2 }')
	since=$(awk -v n="$n" -v b="$m1b" '$2 == n && $1 < b { t = $1 } END { if (t != "") print t }' /tmp/defers)
	[ -n "$since" ] || fail "node $n: deferred_ms $ms1 at the first read, but no defer event before it"
	# ok MS A B [TOL]: MS is the time left at a read between markers A and
	# B, give or take TOL ms (default 50)
	ok() {
		awk -v ms="$1" -v a="$2" -v b="$3" -v e="$since" -v tol="${4:-50}" 'BEGIN {
			lo = (e + 32 - b) * 1000 - tol; hi = (e + 32 - a) * 1000 + tol
			if (lo < 0) lo = 0
			exit !(ms >= lo && ms <= hi) }'
	}
	woken=$(awk -v n="$n" -v a="$since" -v b="$m2b" '$2 == n && $1 > a && $1 < b { print $1; exit }' /tmp/wakes)
	expired=$(awk -v e="$since" -v b="$m2b" 'BEGIN { print (e + 32 <= b) ? 1 : 0 }')
	if ok "$ms1" "$m1a" "$m1b" && [ "$expired" = 1 ]; then
		echo "note: node $n: its window from $since s ran out between the reads ($m1b -> $m2a s): the guest clock jumped"
	elif ok "$ms1" "$m1a" "$m1b" && ok "$ms2" "$m2a" "$m2b"; then
		echo "ok: node $n: deferred_ms counts down the window from $since s, $ms1 -> $ms2"
		counted=$((counted + 1))
	elif ok "$ms1" "$m1a" "$m1b" 250 && ok "$ms2" "$m2a" "$m2b" 250 &&
		awk -v d=$((ms1 - ms2)) -v a1="$m1a" -v b1="$m1b" -v a2="$m2a" -v b2="$m2b" \
			'BEGIN { exit !(d >= (a2 - b1) * 1000 - 50 && d <= (b2 - a1) * 1000 + 50) }'; then
		# The deferral counts jiffies, which under TCG can lag the trace
		# clock; less than half a check period off still names the window.
		echo "ok: node $n: deferred_ms counts down the window from $since s, $ms1 -> $ms2, as the trace clock does, but off it by up to 250 ms (jiffies under TCG)"
		counted=$((counted + 1))
	elif [ -n "$woken" ]; then
		echo "note: node $n: a kswapd request to kcompactd at $woken s ended the window from $since s ($ms1 -> $ms2 ms)"
	else
		fail "node $n: deferred_ms went $ms1 -> $ms2, but the window from $since s has $(awk -v e="$since" -v a="$m1a" -v b="$m2a" 'BEGIN { printf "%.0f -> %.0f", (e + 32 - a) * 1000, (e + 32 - b) * 1000 }') ms left then"
	fi
done < <(state /tmp/d1 node deferred_ms)
[ "$counted" -gt 0 ] || fail "no node's window ran undisturbed"

d=$(delta compact_daemon_proactive_round_deferred /tmp/v0 /tmp/v1)
[ "$d" -ge "$NODES" ] || fail "compact_daemon_proactive_round_deferred moved by $d"
echo "ok: compact_daemon_proactive_round_deferred +$d"
check_identities backoff /tmp/v0 /tmp/v1

# The node's next check comes 32 s after the deferring round (one jiffy
# of timer granularity and 0.1 s of guest clock allowed), unless kswapd
# woke kcompactd in between.
while read -r t n gap; do
	[ -n "$gap" ] || continue
	woken=$(awk -v n="$n" -v a="$t" -v g="$gap" '$2 == n && $1 > a && $1 < a + g { print $1; exit }' /tmp/wakes)
	if [ -n "$woken" ]; then
		echo "note: node $n: deferred at $t s, woken by kswapd at $woken s"
	elif awk -v g="$gap" 'BEGIN { exit !(g >= 31.9) }'; then
		echo "ok: node $n: deferred at $t s, next check $gap s later"
	else
		fail "node $n: deferred at $t s, but checked again $gap s later"
	fi
done < <(cols "$OUT/defers.csv" time_s nid next_check_s)
n=0
while [ "$n" -lt "$NODES" ]; do
	first=$(awk -v n=$n '$2 == n { print $1; exit }' /tmp/defers)
	[ -n "$first" ] || fail "node $n was not deferred"
	# The window: 32 s, or up to a kcompactd wake-up for kswapd.
	end=$(awk -v n=$n -v t="$first" '$2 == n && $1 > t && $1 < t + 32 { print $1; exit }' /tmp/wakes)
	[ -n "$end" ] && echo "note: node $n: a kswapd request at $end s ended the window early"
	end=${end:-$(echo "$first" | awk '{ print $1 + 32 }')}
	# rounds on node n that began inside (first, end)
	inside=$(cols "$OUT/rounds.csv" nid begin_s | awk -v n=$n -v t="$first" -v e="$end" '$1 == n && $2 > t && $2 < e')
	[ -z "$inside" ] || fail "node $n: a round began inside the defer window from $first s: $inside"
	echo "ok: node $n: deferred at $first s, no round before $end s"
	n=$((n + 1))
done

# A deferral cancelled by proactiveness 0 reads as none.
wait_until 60 deferred_all
set_proactiveness 0
cat "$PROACTIVE"
state "$PROACTIVE" deferred_ms | awk '$1 != 0 { bad = 1 } END { exit bad }' ||
	fail "deferred_ms is not 0 on every node after proactiveness 0"
echo "ok: proactiveness 0 reads as no deferral on every node"
