# lab-tags: tools
# perf (Debian's linux-perf) reads the series' tracepoints.  Over one forced
# proactive round per node, recorded from before the write of 20 until after
# the write of 0 (no check runs outside that window):
# - perf stat -a counts of mm_compaction_proactive_* equal the counters'
#   deltas (end events = _round; checks by decision and ends by outcome,
#   with perf's --filter, = _round, _check_kswapd and _round_<outcome>), and
#   the check count equals the checks in an ftrace recording of the window,
#   whose events match the counters in total and per node;
# - perf script prints the events with their symbolic fields decoded;
# - perf's compaction-times script reports kcompactd's compaction time.
#   That script raises KeyError on a recording that starts part-way through
#   a compaction, so the recording starts before the write.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

EV=compaction:mm_compaction_proactive
CT_EVENTS="-e compaction:mm_compaction_begin -e compaction:mm_compaction_end
	-e compaction:mm_compaction_migratepages -e compaction:mm_compaction_isolate_migratepages
	-e compaction:mm_compaction_isolate_freepages"

perf version | tee "$OUT/perf-version"

stat_events="-e ${EV}_*"
for d in start kswapd; do
	stat_events="$stat_events -e ${EV}_check --filter decision==$(symbol mm_compaction_proactive_check $d)"
done
for o in success partial kswapd aborted; do
	stat_events="$stat_events -e ${EV}_end --filter outcome==$(symbol mm_compaction_proactive_end $o)"
done

# round: the workload perf records, a proactive round on every node
round() {
	set_proactiveness 20
	wait_until 120 settled
	set_proactiveness 0
	sleep 1		# a wait already running ends without a check
}
as_command round

set_proactiveness 0
fragment
sleep 1
trace_start
snap /tmp/v0
# shellcheck disable=SC2086 # lists of options
perf record -q -a -o /tmp/perf.data -e "${EV}_*" $CT_EVENTS -- \
	perf stat -a -x, -o "$OUT/perf-stat.csv" $stat_events -- "${COMMAND[@]}"
snap /tmp/v1
trace_stop window
cat "$OUT/perf-stat.csv"

# perf stat: count N EVENT is line N of the counts, in the order of the -e
# options, checking the event's name; the glob's two lines come first, in
# the order perf found the events (6.1: check, end; 6.12: end, check), so
# count glob EVENT looks them up by name.
count() {
	grep -v '^#' "$OUT/perf-stat.csv" | grep . |
		if [ "$1" = glob ]; then head -2; else sed -n "$1p"; fi |
		awk -F, -v e="$2" '$3 == e && $1 ~ /^[0-9]+$/ { print $1; ok = 1 } END { exit !ok }' ||
		fail "no perf stat count of $2 on line $1"
}
p=compact_daemon_proactive
expect_eq "perf stat ${EV}_check vs checks in the ftrace recording" "$(count glob ${EV}_check)" "$(summary window checks)"
expect_eq "perf stat ${EV}_end vs ${p}_round delta" "$(count glob ${EV}_end)" "$(delta ${p}_round /tmp/v0 /tmp/v1)"
expect_eq "perf stat checks with decision=start vs ${p}_round delta" "$(count 3 ${EV}_check)" "$(delta ${p}_round /tmp/v0 /tmp/v1)"
expect_eq "perf stat checks with decision=kswapd vs ${p}_check_kswapd delta" "$(count 4 ${EV}_check)" \
	"$(delta ${p}_check_kswapd /tmp/v0 /tmp/v1)"
i=5
for o in success partial kswapd aborted; do
	expect_eq "perf stat ends with outcome=$o vs ${p}_round_$o delta" "$(count $i ${EV}_end)" \
		"$(delta ${p}_round_$o /tmp/v0 /tmp/v1)"
	i=$((i + 1))
done
[ "$(count glob ${EV}_end)" -ge "$NODES" ] || fail "perf stat counted $(count glob ${EV}_end) rounds for $NODES nodes"
check_identities window /tmp/v0 /tmp/v1

# perf script: the fields decoded, as trace-cmd report shows them
perf script -i /tmp/perf.data -F comm,pid,cpu,time,event,trace > "$OUT/perf-script.txt" 2> "$OUT/perf-script.err"
grep -m2 "${EV}_" "$OUT/perf-script.txt" || fail "perf script printed no proactive event"
read -r low high <<< "$(thresholds 20)"
grep -Eq "kcompactd[0-9]+ .* ${EV}_check: nid=[0-9]+ score=[0-9]+ low=$low high=$high decision=start *$" \
	"$OUT/perf-script.txt" || fail "perf script: no check with low=$low high=$high decision=start, decoded"
grep -Eq "kcompactd[0-9]+ .* ${EV}_end: nid=[0-9]+ score_before=[0-9]+ score_after=[0-9]+ outcome=success migrate_scanned=[0-9]+ free_scanned=[0-9]+ *$" \
	"$OUT/perf-script.txt" || fail "perf script: no end with outcome=success, decoded, in v3's order"
! grep -Eq "(decision|outcome)=(0x)?[0-9]" "$OUT/perf-script.txt" || fail "perf script printed a symbol as a number"
echo "ok: perf script decodes decision and outcome"

# compaction-times, by process, in microseconds
perf script -i /tmp/perf.data -s "$(perf --exec-path)/scripts/python/compaction-times.py" -- -p -u \
	> "$OUT/compaction-times.txt" 2> "$OUT/compaction-times.err" ||
	fail "compaction-times failed: $(tail -3 "$OUT/compaction-times.err")"
cat "$OUT/compaction-times.txt"
! grep -q Traceback "$OUT/compaction-times.err" || fail "compaction-times: $(tail -1 "$OUT/compaction-times.err")"
awk '$1 ~ /^[0-9]+\[kcompactd[0-9]+\]:$/ && $2 ~ /us$/ && $2 + 0 > 0 { n++ } END { exit n == 0 }' \
	"$OUT/compaction-times.txt" || fail "compaction-times reports no kcompactd compaction time"
echo "ok: compaction-times reports kcompactd's compaction time"
