# lab-tags: series
# The thresholds the lab computes for a proactiveness (thresholds() in
# tests/lib/guest.sh, one formula per tree) are the kernel's: over writes
# of 1, 20, 40, 60, 80, 85, 90, 95, 97 and 100 (the trees differ above 80),
# each node's last check event before the next write carries the low and
# high that thresholds() gives for the value written, and every check
# decides by them: "below" at a score at or below high, a round or kswapd
# above it.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

VALUES="1 20 40 60 80 85 90 95 97 100"
set_proactiveness 0
sleep 1
trace_start mm_compaction_proactive_check
for p in $VALUES; do
	marker "p$p"
	set_proactiveness "$p"
	sleep 1.5	# three checks, or one triggered check and a deferral
done
marker end
set_proactiveness 0
wait_until 120 idle_twice
trace_stop thresholds
scores thresholds > "$OUT/scores.csv"
summary thresholds checks > /dev/null
at() { awk -v m="$1" '$1 == "marker" && $3 == m { print $2 }' "$OUT/thresholds.summary"; }

cols "$OUT/scores.csv" score high decision | awk '
	($3 == "below") != ($1 <= $2) { print "FAIL: a check decided " $3 " at score " $1 " with high " $2; bad = 1 }
	END { exit bad }' || fail "a check did not decide by its thresholds"
echo "ok: $(grep -c . "$OUT/scores.csv") checks, each below at a score <= high and not below above it"

set -- $VALUES
while [ $# -gt 0 ]; do
	p=$1 next=end
	[ $# -lt 2 ] || next=p$2
	shift
	from=$(at "p$p") to=$(at "$next")
	[ -n "$from" ] && [ -n "$to" ] || fail "no marker p$p or $next in the recording"
	want=$(thresholds "$p")
	n=0
	while [ "$n" -lt "$NODES" ]; do
		last=$(cols "$OUT/scores.csv" time_s nid low high |
			awk -v n=$n -v a="$from" -v b="$to" '$2 == n && $1 > a && $1 < b { l = $3 " " $4 } END { print l }')
		[ -n "$last" ] || fail "proactiveness $p: no check of node $n between the write and the next"
		expect_eq "proactiveness $p, node $n: low and high of its last check ($KVER)" "$last" "$want"
		n=$((n + 1))
	done
done
