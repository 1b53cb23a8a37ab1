# lab-tags: series debug
# Back-off: with unmovable pages scattered over every huge-page block
# (lab_unmovable), compaction cannot lower the score.  At proactiveness 40
# each node's round starts above the high threshold (thresholds 40), makes
# no progress (its mm_compaction_proactive_end has score_after >=
# score_before) and the node's compact_daemon_proactive_round_deferred
# moves; kcompactd then waits 500 ms << 6 = 32 s, not 500 ms, for the
# node's next check.  The trace shows it: after each deferring end event,
# no mm_compaction_proactive_check on that node for 32 s (0.3 s of slack
# under TCG) and none later than 36 s (TCG runs timers late: 0.9 s seen),
# and no round begins inside the window; every node's first window is
# measured that way, and the events match the counters, in total and per
# node.
#
# Any wake-up of kcompactd ends a window early, by design: a compaction
# request from kswapd (mm_compaction_kcompactd_wake) or a write of the
# tunable (mm_compaction_wakeup_kcompactd order=-1), after which kcompactd
# checks again 500 ms later or at once.  A window so ended is noted, not
# measured.  The second recording shows the write case on every tree: with
# every node deferred, a write of 40 is followed within 1 s on every node by
# a check that starts a round flagged as triggered, and the window it
# ended was shorter than 32 s.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

set_proactiveness 0
insmod "$LAB_MODULES/lab_unmovable.ko" percent=100
trap 'rmmod lab_unmovable 2>/dev/null' EXIT
# Taking all free memory ran kswapd, which wakes kcompactd when it goes back
# to sleep; such a wake-up ends a defer window early (kcompactd() resets its
# timeout), so let it pass before measuring.
sleep 5
"$LAB_BIN/fragscore"
read -r low high <<< "$(thresholds 40)"

# deferred_all OLD: every node with memory deferred a round since the snap OLD
deferred_all() {
	local n
	snap /tmp/vd
	for n in $(mem_nodes); do
		[ "$(delta "node$n:compact_daemon_proactive_round_deferred" "$1" /tmp/vd)" -ge 1 ] || return 1
	done
}

# ---- The windows
trace_start
snap /tmp/v0
set_proactiveness 40
wait_until 60 deferred_all /tmp/v0
marker all-deferred
# Stay past the first windows (36 s at the latest), to see that nothing
# began inside them and when each ended.
sleep 37
# End the recording with proactiveness 0, so that no round can begin
# between the snap and the end of the trace: the next windows close at
# times the test does not choose, and a wake-up by kswapd closes one at
# once (a round begun there counted in the trace and not in the delta).
set_proactiveness 0
wait_until 60 settled
snap /tmp/v1
cp /tmp/v0 "$OUT/backoff.v0" && cp /tmp/v1 "$OUT/backoff.v1"	# for make captures
trace_stop backoff
rounds backoff > "$OUT/rounds.csv"
defers backoff | tee "$OUT/defers.csv"
wakes backoff | tee "$OUT/wakes.csv"
summary backoff checks >/dev/null
last=$(summary backoff last_event_s)

for n in $(mem_nodes); do
	d=$(delta "node$n:compact_daemon_proactive_round_deferred" /tmp/v0 /tmp/v1)
	[ "$d" -ge 1 ] || fail "node $n: compact_daemon_proactive_round_deferred moved by $d"
	echo "ok: node $n: compact_daemon_proactive_round_deferred +$d"
done
check_identities backoff /tmp/v0 /tmp/v1
cols "$OUT/rounds.csv" nid score_before | awk -v h="$high" '$2 <= h { print "FAIL: node " $1 ": a round began at score " $2; bad = 1 } END { exit bad }' ||
	fail "a round began at a score not above the high threshold $high"
echo "ok: every round began above the high threshold $high"

# woken NID FROM TO: the first wake-up of the node's kcompactd in (FROM, TO)
cols "$OUT/wakes.csv" time_s nid by > /tmp/wakes
woken() {
	awk -v n="$1" -v a="$2" -v b="$3" '$2 == n && $1 > a && $1 < b { print $1, $3; exit }' /tmp/wakes
}
# Each deferral's window: the next check on the node 31.7 to 36 s after
# the deferring end, unless a wake-up came first.
counted=0
while read -r t n gap; do
	if [ -z "$gap" ]; then
		w=$(woken "$n" "$t" 1e9)
		awk -v t="$t" -v e="$last" 'BEGIN { exit !(e > t + 36) }' && [ -z "$w" ] &&
			fail "node $n: deferred at $t s, and no check in the $(awk -v t="$t" -v e="$last" 'BEGIN { print e - t }') s the recording goes on"
		continue
	fi
	w=$(woken "$n" "$t" "$(awk -v t="$t" -v g="$gap" 'BEGIN { print t + g }')")
	if [ -n "$w" ]; then
		echo "note: node $n: deferred at $t s, woken at ${w% *} s by ${w#* }, checked $gap s after the deferral"
	elif awk -v g="$gap" 'BEGIN { exit !(g >= 31.7 && g <= 36) }'; then
		echo "ok: node $n: deferred at $t s, no check for $gap s"
		counted=$((counted + 1))
	else
		fail "node $n: deferred at $t s, checked again $gap s later (want 32 s: 31.7 to 36)"
	fi
done < <(cols "$OUT/defers.csv" time_s nid next_check_s)
[ "$counted" -gt 0 ] || fail "no node's window ran undisturbed"

for n in $(mem_nodes); do
	first=$(cols "$OUT/defers.csv" time_s nid | awk -v n="$n" '$2 == n { print $1; exit }')
	[ -n "$first" ] || fail "node $n was not deferred"
	# The window: 32 s, or up to a wake-up
	end=$(woken "$n" "$first" "$(awk -v t="$first" 'BEGIN { print t + 32 }')")
	[ -n "$end" ] && echo "note: node $n: a wake-up by ${end#* } at ${end% *} s ended the window early"
	end=${end% *}
	end=${end:-$(awk -v t="$first" 'BEGIN { print t + 31.7 }')}
	# rounds on node n that began inside (first, end)
	inside=$(cols "$OUT/rounds.csv" nid begin_s | awk -v n="$n" -v t="$first" -v e="$end" '$1 == n && $2 > t && $2 < e')
	[ -z "$inside" ] || fail "node $n: a round began inside the defer window from $first s: $inside"
	echo "ok: node $n: deferred at $first s, no round before $end s"
done

# ---- A write of the tunable ends a deferral (every tree)
trace_start
snap /tmp/c0
set_proactiveness 40		# from 0, wakes every node: a round, deferred again
wait_until 60 deferred_all /tmp/c0
sleep 2
marker write-40
set_proactiveness 40
sleep 2
set_proactiveness 0		# as above: no round between the snap and the end
wait_until 60 settled
snap /tmp/c1
trace_stop cancel
rounds cancel > "$OUT/cancel-rounds.csv"
defers cancel | tee "$OUT/cancel-defers.csv"
summary cancel checks >/dev/null
w=$(awk '$1 == "marker" && $3 == "write-40" { print $2 }' "$OUT/cancel.summary")
[ -n "$w" ] || fail "no trace_marker in the second recording"
check_identities cancel /tmp/c0 /tmp/c1
for n in $(mem_nodes); do
	# the node's last deferral before the write, and its next check
	read -r t gap <<< "$(cols "$OUT/cancel-defers.csv" time_s nid next_check_s |
		awk -v n="$n" -v w="$w" '$2 == n && $1 < w { t = $1; g = $3 } END { print t, g }')"
	[ -n "$t" ] || fail "node $n: no deferral before the write at $w s"
	[ -n "$gap" ] || fail "node $n: deferred at $t s, and no check after the write at $w s"
	awk -v t="$t" -v g="$gap" -v w="$w" 'BEGIN { c = t + g; exit !(c > w && c <= w + 1 && g < 31.7) }' ||
		fail "node $n: deferred at $t s, next check $gap s later: not within 1 s of the write at $w s"
	r=$(cols "$OUT/cancel-rounds.csv" nid begin_s triggered | awk -v n="$n" -v w="$w" '$1 == n && $2 > w && $2 <= w + 1 { print $3; exit }')
	expect_eq "node $n: the round begun within 1 s of the write is triggered" "$r" 1
	echo "ok: node $n: deferred at $t s, the write at $w s ended the window: checked $gap s after the deferral"
done
