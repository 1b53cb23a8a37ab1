# Back-off: with unmovable pages scattered over every huge-page block
# (lab_unmovable), compaction cannot lower the score.  At proactiveness 40
# each node's round makes no progress, the next check is deferred by
# 500 ms << 6 = 32000 ms, no round begins on that node inside the window,
# and <debugfs>/compaction/proactive counts the window down.
#
# By design a compaction request from kswapd (mm_compaction_kcompactd_wake)
# ends a window early; the test allows that, and only that, and says so.
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
deferred_all() { awk '$10 == 0 { bad = 1 } END { exit bad }' "$PROACTIVE"; }
wait_until 60 deferred_all
marker debugfs-1
cp "$PROACTIVE" /tmp/d1
sleep 2
marker debugfs-2
cp "$PROACTIVE" /tmp/d2
cat /tmp/d1 /tmp/d2

# Stay past the first window, to see that nothing began inside it.
sleep 32
snap /tmp/v1
trace_stop backoff
rounds backoff > "$OUT/rounds.csv"
defers backoff | tee "$OUT/defers.csv"
wakes backoff | tee "$OUT/wakes.csv"
summary backoff checks >/dev/null
m1=$(awk '$1 == "marker" && $3 == "debugfs-1" { print $2 }' "$OUT/backoff.summary")
m2=$(awk '$1 == "marker" && $3 == "debugfs-2" { print $2 }' "$OUT/backoff.summary")

counted=0
while read -r _ n _ _ _ _ _ _ _ ms1; do
	ms2=$(awk -v n="$n" '$2 == n { print $10 }' /tmp/d2)
	if [ "$ms2" -eq 0 ] && awk -F, -v n="$n" -v a="$m1" -v b="$m2" \
			'$2 == n && $1 > a && $1 < b { found = 1 } END { exit !found }' "$OUT/wakes.csv"; then
		echo "note: node $n: a kswapd request to kcompactd ended the window"
		continue
	fi
	[ "$ms2" -gt 0 ] && [ "$ms2" -lt "$ms1" ] || fail "node $n: deferred_ms went from $ms1 to $ms2 in 2 s"
	[ "$((ms1 - ms2))" -ge 1500 ] || fail "node $n: deferred_ms fell by only $((ms1 - ms2)) in 2 s"
	echo "ok: node $n: deferred_ms counts down, $ms1 -> $ms2"
	counted=$((counted + 1))
done < /tmp/d1
[ "$counted" -gt 0 ] || fail "no node's window ran undisturbed"

d=$(delta compact_daemon_proactive_defer /tmp/v0 /tmp/v1)
[ "$d" -ge "$LAB_NODES" ] || fail "compact_daemon_proactive_defer moved by $d"
echo "ok: compact_daemon_proactive_defer +$d"
check_identities backoff /tmp/v0 /tmp/v1

# time_s,nid,score,defer_ms
awk -F, '$4 != 32000 { bad = 1 } END { exit bad }' "$OUT/defers.csv" ||
	fail "a defer other than 32000 ms"
echo "ok: every defer is 32000 ms"
n=0
while [ "$n" -lt "$LAB_NODES" ]; do
	first=$(awk -F, -v n=$n '$2 == n { print $1; exit }' "$OUT/defers.csv")
	[ -n "$first" ] || fail "node $n was not deferred"
	# The window: 32 s, or up to a kcompactd wake-up for kswapd.
	end=$(awk -F, -v n=$n -v t="$first" '$2 == n && $1 > t && $1 < t + 32 { print $1; exit }' "$OUT/wakes.csv")
	[ -n "$end" ] && echo "note: node $n: a kswapd request at $end s ended the window early"
	end=${end:-$(echo "$first" | awk '{ print $1 + 32 }')}
	# nid,begin_s,...: rounds on node n that began inside (first, end)
	inside=$(awk -F, -v n=$n -v t="$first" -v e="$end" '$1 == n && $2 > t && $2 < e' "$OUT/rounds.csv")
	[ -z "$inside" ] || fail "node $n: a round began inside the defer window from $first s: $inside"
	echo "ok: node $n: deferred at $first s, no round before $end s"
	n=$((n + 1))
done
