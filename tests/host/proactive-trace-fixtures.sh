# lab-tags: tools
# proactive-trace on trace.dat files recorded in the guest (by the
# proactive-round and backoff-unmovable tests, on the mainline tree with
# v3 of the series: the end event's fields nid, score_before, score_after,
# outcome, migrate_scanned, free_scanned): the exact rounds, deferrals,
# wake-ups, scores and totals those recordings hold; --json gives the
# summary's figures under the same names.
# shellcheck source=tests/lib/host.sh
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
	"checks 16 checks_below 14 rounds 2 ends 2 ends_success 2 defers 0 migrate_scanned 120831 free_scanned 43211 rounds_open_at_end 0 ends_without_start 0 unknown_symbols 0 sysctl_wakeups 2 kcompactd_sleeps 16"
expect "pages migrated by kcompactd (the two rounds' sum)" "$(awk '$1 == "kcompactd_migrated" { print $2 }' "$TEST_DIR/round.summary")" 28705
expect "recording length" "$(awk '$1 == "last_event_s" { print $2 }' "$TEST_DIR/round.summary")" 4.020575
expect "round marker" "$(grep '^marker' "$TEST_DIR/round.summary")" "marker 0.000000 write-20"
expect "rounds" "$("$pt" -q -r - "$fx/trace-round.dat")" \
"nid,begin_s,end_s,duration_ms,score_before,score_after,migrate_scanned,free_scanned,outcome,triggered,deferred,migrated,cpu_ms
1,0.031910,0.381589,349.679,96,78,55296,20405,success,1,0,13319,225.171
0,0.031905,0.400178,368.273,96,79,65535,22806,success,1,0,15386,254.740"
# migrated: each kcompactd's nr_migrated, as trace-cmd prints the batches
# (here each kcompactd migrated only in its one round)
expect "migrated per kcompactd, from trace-cmd report" \
	"$(trace-cmd report "$fx/trace-round.dat" 2>/dev/null | awk '$4 == "mm_compaction_migratepages:" {
		split($1, t, "-"); for (i = 5; i <= NF; i++) if (sub(/^nr_migrated=/, "", $i)) s[t[1]] += $i }
		END { print "kcompactd0", s["kcompactd0"], "kcompactd1", s["kcompactd1"] }')" \
	"kcompactd0 15386 kcompactd1 13319"
expect "first scores" "$("$pt" -q -s - "$fx/trace-round.dat" | head -5)" \
"time_s,nid,score,low,high,decision
0.031905,0,96,80,90,start
0.031910,1,96,80,90,start
0.897732,1,78,80,90,below
0.928429,0,79,80,90,below"

# Unmovable pages: every round fails to lower the score (outcome partial)
# and defers the node's next check, which comes about 32 s later (33.5:
# TCG runs the timer late); the write of 40 that started the recording
# woke both nodes (sysctl), kswapd woke node 0 later.
"$pt" "$fx/trace-backoff.dat" > "$TEST_DIR/backoff.summary" || fail "proactive-trace failed"
expect "backoff totals" "$(grep -E '^(rounds|ends_partial|defers|node) ' "$TEST_DIR/backoff.summary" | paste -sd' ')" \
	"rounds 4 ends_partial 4 defers 4 node 0 checks 2 rounds 2 ends 2 success 0 defers 2 node 1 checks 2 rounds 2 ends 2 success 0 defers 2"
expect "defers" "$("$pt" -q -d - "$fx/trace-backoff.dat")" \
"time_s,nid,score,next_check_s
0.006075,0,99,33.477
0.002880,1,99,33.482
33.483886,0,99,
33.492530,1,99,"
expect "wake-ups" "$("$pt" -q -w - "$fx/trace-backoff.dat")" \
"time_s,nid,order,by
0.000000,0,-1,sysctl
0.000524,1,-1,sysctl
39.105041,0,9,kswapd"
expect "rounds on node 0: triggered, then the retry after the window" \
	"$("$pt" -q -r "$TEST_DIR/backoff-rounds.csv" "$fx/trace-backoff.dat" &&
		cols "$TEST_DIR/backoff-rounds.csv" nid begin_s outcome triggered deferred |
		awk '$1 == 0 { print $2, $3, $4, $5 }' | paste -sd' ')" \
	"0.000873 partial 1 1 33.483168 partial 0 1"

# --json: the same summary as one JSON object, the same names and values
# (the scalars as "name value" lines; open rounds and nodes as the text's)
for f in trace-round trace-backoff; do
	"$pt" --json "$fx/$f.dat" > "$TEST_DIR/$f.json" || fail "proactive-trace --json failed"
	expect "$f: --json has the text summary's figures" "$(jq -r '(to_entries[] | select(.value | type == "number") | "\(.key) \(.value)"),
		(.markers[] | "marker \(.time_s) \(.text)"), (.open_rounds[] | "open_round \(.nid) \(.begin_s) \(.migrated // "-")"),
		(.nodes[] | "node \(.nid) checks \(.checks) rounds \(.rounds) ends \(.ends) success \(.success) defers \(.defers)")' \
		"$TEST_DIR/$f.json" | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+$/) $i += 0; print }' | sort)" \
		"$("$pt" "$fx/$f.dat" | awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9.]+$/) $i += 0; print }' | sort)"
done

"$pt" "$fx/console-clean.log" >/dev/null 2>&1 && fail "a non-trace file was accepted"
"$pt" --help | grep -q '^usage: proactive-trace' || fail "no --help"
echo "ok: bad input rejected, --help"
