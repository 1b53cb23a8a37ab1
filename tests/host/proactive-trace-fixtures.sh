# proactive-trace on trace.dat files recorded in the guest (by the
# proactive-round and backoff-unmovable tests): the exact rounds, defers,
# scores and totals those recordings hold.
. "$(dirname "$0")/../lib/host.sh"

pt=$top/build/bin/proactive-trace
fx=$top/tests/host/fixtures
[ -x "$pt" ] || fail "no $pt (make lab)"

expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1"
}

# A triggered round on each node, both compacted below the low threshold.
"$pt" "$fx/trace-round.dat" > "$TEST_DIR/round.summary" || fail "proactive-trace failed"
expect "round totals" "$(grep -E '^(checks|begins|begins_triggered|ends|ends_success|defers|kcompactd_sleeps) ' "$TEST_DIR/round.summary" | paste -sd' ')" \
	"checks 6 begins 2 begins_triggered 2 ends 2 ends_success 2 defers 0 kcompactd_sleeps 6"
expect "round marker" "$(grep '^marker' "$TEST_DIR/round.summary")" "marker 0.000000 write-20"
expect "rounds" "$("$pt" -q -r - "$fx/trace-round.dat")" \
"nid,begin_s,end_s,duration_ms,score_before,score_after,migrate_scanned,free_scanned,outcome,triggered
1,0.037535,0.263332,225.797,96,79,45067,20699,success,1
0,0.037542,0.313660,276.119,99,76,53842,22661,success,1"
expect "first scores" "$("$pt" -q -s - "$fx/trace-round.dat" | head -5)" \
"time_s,nid,score,low,high,decision
0.037273,0,99,80,90,start
0.037274,1,96,80,90,start
0.776291,1,79,80,90,below_threshold
0.836123,0,76,80,90,below_threshold"

# Unmovable pages: every round fails to lower the score and defers 32 s.
"$pt" "$fx/trace-backoff.dat" > "$TEST_DIR/backoff.summary" || fail "proactive-trace failed"
expect "backoff totals" "$(grep -E '^(begins|ends_partial|defers|node) ' "$TEST_DIR/backoff.summary" | paste -sd' ')" \
	"begins 4 ends_partial 4 defers 4 node 0 checks 2 begins 2 ends 2 success 0 defers 2 node 1 checks 2 begins 2 ends 2 success 0 defers 2"
expect "defers" "$("$pt" -q -d - "$fx/trace-backoff.dat")" \
"time_s,nid,score,defer_ms
0.026474,1,99,32000
0.038125,0,99,32000
33.525998,0,99,32000
33.526634,1,99,32000"
expect "retry on node 0 after the window" "$("$pt" -q -r - "$fx/trace-backoff.dat" | awk -F, '$1 == 0 { print $2 }' | paste -sd' ')" \
	"0.000813 33.523884"

"$pt" "$fx/console-clean.log" >/dev/null 2>&1 && fail "a non-trace file was accepted"
"$pt" --help | grep -q '^usage: proactive-trace' || fail "no --help"
echo "ok: bad input rejected, --help"
