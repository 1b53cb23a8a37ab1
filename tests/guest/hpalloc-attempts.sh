# lab-tags: tools
# The latency driver's attempt log, which tells which allocations needed
# direct compaction (Documentation/protocol.md, the primary measure): on
# memory fragmented at proactiveness 0, one run of the driver is recorded
# with the trace clock mono.  Its log has one line per attempt, the
# successful ones in the order and with the latencies of its samples, and
# says why the run ended; every mm_compaction_try_to_compact_pages event
# of the task that ran it falls inside one of its attempts (the log's
# ktime_get_ns() and the trace's mono clock agree), and some attempts
# needed direct compaction, there being no free huge page to take.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

set_proactiveness 0
fragment
hpalloc_load
trap hpalloc_stop EXIT
limit=64
trace-cmd record -q -C mono -e compaction:mm_compaction_try_to_compact_pages \
	-o /tmp/attempts.dat -- sh -c "echo $limit > $HPALLOC/run" > /dev/null 2>&1 ||
	fail "trace-cmd record of a run of $limit failed"
cp "$HPALLOC/attempts" "$OUT/attempts"
pid=$(cat "$HPALLOC/pid")
end=$(cat "$HPALLOC/end")

# The log against the samples and failures files
expect_eq "attempts logged ok" "$(grep -c ' ok$' "$OUT/attempts" || :)" "$(hpalloc_count samples)"
awk '$3 == "ok" { print $2 }' "$OUT/attempts" | cmp -s - "$HPALLOC/samples" ||
	fail "the successful attempts' durations are not the samples, in order"
echo "ok: $(grep -c . "$OUT/attempts") attempts logged, the successful ones as the samples"
case $end in
count) expect_eq "allocations of a run that ended on its count" "$(hpalloc_count samples)" $limit ;;
failures) expect_eq "failures in a row at the end" "$(hpalloc_count failures)" 256 ;;
*) fail "the run ended by '$end', want count or failures" ;;
esac
echo "ok: the run ended by $end"
awk 'NR > 1 && $1 < prev_end { bad = 1 } { prev_end = $1 + $2 } END { exit bad }' "$OUT/attempts" ||
	fail "an attempt began before the one before it ended"

# The events of the run's task, in ns on the mono clock, against the log
hpalloc_direct /tmp/attempts.dat "$pid" "$OUT/attempts" > "$OUT/attempts-direct"
read -r _ outside < <(tail -1 "$OUT/attempts-direct")
events=$(sed '$d' "$OUT/attempts-direct" | awk '{ s += $4 } END { print s + 0 }')
needed=$(sed '$d' "$OUT/attempts-direct" | awk '$4 > 0' | grep -c . || :)
[ "$((events + outside))" -gt 0 ] || fail "no mm_compaction_try_to_compact_pages of the run's task (pid $pid): no direct compaction on fragmented memory at proactiveness 0?"
expect_eq "events of the run's task outside every attempt" "$outside" 0
[ "$needed" -gt 0 ] || fail "no attempt needed direct compaction"
echo "ok: $events direct compactions of pid $pid, all inside attempts; $needed of $(grep -c . "$OUT/attempts") attempts needed direct compaction"
