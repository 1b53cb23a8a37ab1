# lab-tags: series
# While kswapd runs on a node whose score is above the high threshold,
# proactive compaction does not start (or abandons) its round: the check
# events say kswapd, at a score above the high threshold (thresholds 20),
# and compact_daemon_proactive_check_kswapd (checks) or _round_kswapd
# (rounds) moves, on the nodes whose events say so.
#
# kswapd is kept busy by streaming a file much larger than memory through
# the page cache (reading a sparse file allocates a page per 4 KiB).  The
# score must stay high meanwhile, which a movable fragmenter cannot ensure:
# the page cache fills its holes and reclaim frees whole runs.  Unmovable
# pages in every huge-page block (lab_unmovable) keep every node at ~99
# whatever the page cache does.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

set_proactiveness 0
insmod "$LAB_MODULES/lab_unmovable.ko" percent=100
sleep 5		# let the kswapd run that the module's allocations caused end
"$LAB_BIN/fragscore"
# A wider gap between the watermarks makes each kswapd run longer.
sysctl -q -w vm.watermark_scale_factor=1000
truncate -s 64G /root/sparse
STREAMERS=
for cpu in $(seq 0 $(($(nproc) - 1))); do
	( while :; do taskset -c "$cpu" cat /root/sparse > /dev/null; done ) &
	STREAMERS="$STREAMERS $!"
done
trap 'kill $STREAMERS 2>/dev/null || :; wait 2>/dev/null || :; rmmod lab_unmovable' EXIT
kswapd_busy() { [ "$(awk '$1 == "pgscan_kswapd" { print $2 }' /proc/vmstat)" -gt 0 ]; }
wait_until 60 kswapd_busy
trace_start
snap /tmp/v0
# kswapd runs in bursts, so a given check finds it running only now and
# then, and a node whose round found it idle defers its next check for 32 s.
# Each write to the sysctl triggers a check and ends the window: write
# every 0.15 s, for 100 checks per node.
for _ in $(seq 100); do
	set_proactiveness 20
	sleep 0.15
done
# Proactiveness 0 starts no check; once the last round is over, the
# counters and the recording cover the same events.
kill $STREAMERS
set_proactiveness 0
wait_until 120 idle_twice
snap /tmp/v1
trace_stop kswapd
summary kswapd checks >/dev/null
grep -E '^(checks|rounds|ends|defers)' "$OUT/kswapd.summary"

p=compact_daemon_proactive
dc=$(delta ${p}_check_kswapd /tmp/v0 /tmp/v1) dr=$(delta ${p}_round_kswapd /tmp/v0 /tmp/v1)
[ $((dc + dr)) -gt 0 ] || fail "neither ${p}_check_kswapd nor ${p}_round_kswapd moved"
echo "ok: ${p}_check_kswapd +$dc, ${p}_round_kswapd +$dr"
c=$(summary kswapd checks_kswapd)
e=$(summary kswapd ends_kswapd)
[ $((c + e)) -gt 0 ] || fail "no check or round end reports kswapd"
echo "ok: $c checks and $e round ends report kswapd"
# Every check carried the thresholds of proactiveness 20 on this tree, and
# those that kswapd kept from starting a round found the score above high.
read -r low high <<< "$(thresholds 20)"
scores kswapd > "$OUT/scores.csv"
cols "$OUT/scores.csv" score low high decision | awk -v l="$low" -v h="$high" '
	$2 != l || $3 != h { print "FAIL: a check with low " $2 " high " $3 ", want " l " " h; bad = 1 }
	$4 == "kswapd" && $1 <= h { print "FAIL: a kswapd check at score " $1 ", not above high " h; bad = 1 }
	END { exit bad }' || fail "a check's thresholds or decision do not match proactiveness 20 ($low/$high)"
echo "ok: every check at thresholds $low/$high, every kswapd check above $high"
check_identities kswapd /tmp/v0 /tmp/v1
