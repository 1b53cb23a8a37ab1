# proactive-trace on trace.dat files recorded in the guest (by the
# proactive-round and backoff-unmovable tests): the exact rounds, deferrals,
# scores and totals those recordings hold.
. "$(dirname "$0")/../lib/host.sh"

pt=$top/build/bin/proactive-trace
fx=$top/tests/host/fixtures
[ -x "$pt" ] || fail "no $pt (make lab)"

expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1"
}

# A write of 20 woke both nodes (mm_compaction_wakeup_kcompactd order=-1);
# each check started a round, which compacted the node below the low
# threshold; the next periodic checks found the score below the threshold.
"$pt" "$fx/trace-round.dat" > "$TEST_DIR/round.summary" || fail "proactive-trace failed"
expect "round totals" "$(grep -E '^(checks|checks_below|rounds|ends|ends_success|defers|migrate_scanned|free_scanned|rounds_open_at_end|ends_without_start|unknown_symbols|sysctl_wakeups|kcompactd_sleeps) ' "$TEST_DIR/round.summary" | paste -sd' ')" \
	"checks 6 checks_below 4 rounds 2 ends 2 ends_success 2 defers 0 migrate_scanned 92135 free_scanned 43047 rounds_open_at_end 0 ends_without_start 0 unknown_symbols 0 sysctl_wakeups 2 kcompactd_sleeps 6"
expect "pages migrated by kcompactd (the two rounds' sum)" "$(awk '$1 == "kcompactd_migrated" { print $2 }' "$TEST_DIR/round.summary")" 28553
expect "recording length" "$(awk '$1 == "last_event_s" { print $2 }' "$TEST_DIR/round.summary")" 1.282595
expect "round marker" "$(grep '^marker' "$TEST_DIR/round.summary")" "marker 0.000000 write-20"
expect "rounds" "$("$pt" -q -r - "$fx/trace-round.dat")" \
"nid,begin_s,end_s,duration_ms,score_before,score_after,migrate_scanned,free_scanned,outcome,triggered,deferred,migrated,cpu_ms
1,0.029598,0.228486,198.888,96,76,44498,21241,success,1,0,13996,
0,0.029579,0.257214,227.634,96,79,47637,21806,success,1,0,14557,"
# migrated: each kcompactd's nr_migrated, as trace-cmd prints the batches
# (here each kcompactd migrated only in its one round)
expect "migrated per kcompactd, from trace-cmd report" \
	"$(trace-cmd report "$fx/trace-round.dat" 2>/dev/null | awk '$4 == "mm_compaction_migratepages:" {
		split($1, t, "-"); for (i = 5; i <= NF; i++) if (sub(/^nr_migrated=/, "", $i)) s[t[1]] += $i }
		END { print "kcompactd0", s["kcompactd0"], "kcompactd1", s["kcompactd1"] }')" \
	"kcompactd0 14557 kcompactd1 13996"
expect "first scores" "$("$pt" -q -s - "$fx/trace-round.dat" | head -5)" \
"time_s,nid,score,low,high,decision
0.029579,0,96,80,90,start
0.029598,1,96,80,90,start
0.739913,1,76,80,90,below
0.770658,0,79,80,90,below"

# Unmovable pages: every round fails to lower the score (outcome partial)
# and defers the node's next check, which comes about 32 s later.
"$pt" "$fx/trace-backoff.dat" > "$TEST_DIR/backoff.summary" || fail "proactive-trace failed"
expect "backoff totals" "$(grep -E '^(rounds|ends_partial|defers|node) ' "$TEST_DIR/backoff.summary" | paste -sd' ')" \
	"rounds 4 ends_partial 4 defers 4 node 0 checks 2 rounds 2 ends 2 success 0 defers 2 node 1 checks 2 rounds 2 ends 2 success 0 defers 2"
expect "defers" "$("$pt" -q -d - "$fx/trace-backoff.dat")" \
"time_s,nid,score,next_check_s
0.030203,0,99,32.857
0.020227,1,99,32.868
32.888510,0,99,
32.894684,1,99,"
expect "rounds on node 0: triggered, then the retry after the window" \
	"$("$pt" -q -r "$TEST_DIR/backoff-rounds.csv" "$fx/trace-backoff.dat" &&
		cols "$TEST_DIR/backoff-rounds.csv" nid begin_s outcome triggered deferred |
		awk '$1 == 0 { print $2, $3, $4, $5 }' | paste -sd' ')" \
	"0.000599 partial 1 1 32.887459 partial 0 1"

"$pt" "$fx/console-clean.log" >/dev/null 2>&1 && fail "a non-trace file was accepted"
"$pt" --help | grep -q '^usage: proactive-trace' || fail "no --help"
echo "ok: bad input rejected, --help"
