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
trace-cmd report -t -i /tmp/attempts.dat 2>/dev/null |
	awk -v pid="$pid" '/mm_compaction_try_to_compact_pages:/ && index($0, "-" pid " ") {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; break }
		sub(/:$/, "", t); split(t, s, "."); printf "%.0f\n", s[1] * 1000000000 + s[2] }' > "$OUT/events-ns"
[ -s "$OUT/events-ns" ] || fail "no mm_compaction_try_to_compact_pages of the run's task (pid $pid): no direct compaction on fragmented memory at proactiveness 0?"
awk 'FNR == NR { st[++n] = $1; en[n] = $1 + $2; next }
	{ hit = 0; for (i = 1; i <= n; i++) if ($1 >= st[i] && $1 <= en[i]) { hit = i; break }
	  if (!hit) { printf "event at %.0f ns is in no attempt\n", $1; out++ } else used[hit] = 1 }
	END { for (i in used) k++; printf "%d %d\n", k, out; exit out > 0 }' "$OUT/attempts" "$OUT/events-ns" > /tmp/match ||
	fail "an event of the run's task lies outside every attempt: $(head -1 /tmp/match)"
read -r needed _ < <(tail -1 /tmp/match)
[ "$needed" -gt 0 ] || fail "no attempt needed direct compaction"
echo "ok: $(grep -c . "$OUT/events-ns") direct compactions of pid $pid, all inside attempts; $needed of $(grep -c . "$OUT/attempts") attempts needed direct compaction"
