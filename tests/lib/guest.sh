# Helpers for guest tests (bash, sourced).  A test prints what it does and
# ends with "FAIL: why" and a non-zero exit on the first broken expectation;
# a command that fails unexpectedly ends it the same way.

set -eE -o pipefail
trap 'echo "FAIL: line $LINENO: \"$BASH_COMMAND\" exited with status $?"' ERR

fail() {
	echo "FAIL: $*"
	exit 1
}

. /lab/tests/lib/common.sh

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1 = $3"
}

# vmstat NAME: one counter of /proc/vmstat
vmstat() {
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' /proc/vmstat
}

# ---- Proactive compaction helpers

KNOB=vm.compaction_proactiveness
KNOB_FILE=/proc/sys/vm/compaction_proactiveness
PROACTIVE=/sys/kernel/debug/extfrag/proactive_compaction
TRACEFS=/sys/kernel/tracing

set_proactiveness() {
	sysctl -q -w "$KNOB=$1" || fail "sysctl -w $KNOB=$1 rejected"
}

# trace_start [-b KB] [EVENT [-f FILTER]...]: record the EVENTs (default: every
# compaction event) and trace_marker writes into an empty ring buffer of KB
# per CPU (default 8192; 0 keeps the size it has, for a job that sized it
# before fragmenting memory: allocated after, the buffer's unmovable pages
# would land in the fragmented blocks' holes).
# trace_stop NAME [DIR]: stop, save the recording as DIR/NAME.dat (default
# $OUT), and leave the buffer empty, its events off and its size alone.
# An EVENT may be followed by -f FILTER, which applies to it.
trace_start() {
	local kb=8192 opts=()
	if [ "${1:-}" = -b ]; then kb=$2; shift 2; fi
	[ "$kb" = 0 ] || opts=(-b "$kb")
	[ $# -gt 0 ] || set -- compaction
	while [ $# -gt 0 ]; do
		if [ "$1" = -f ]; then opts+=(-f "$2"); shift 2; else opts+=(-e "$1"); shift; fi
	done
	echo > "$TRACEFS/trace"
	trace-cmd start "${opts[@]}" >/dev/null 2>&1 || fail "trace-cmd start ${opts[*]} failed"
}
trace_stop() {
	local dir=${2:-$OUT}
	trace-cmd stop
	trace-cmd extract -o "/root/$1.dat" > "$dir/$1.extract.log" 2>&1 ||
		fail "trace-cmd extract failed: $(tail -1 "$dir/$1.extract.log")"
	echo 0 > "$TRACEFS/events/enable"
	echo > "$TRACEFS/trace"
	cp "/root/$1.dat" "$dir/$1.dat"
}
marker() {
	echo "$*" > "$TRACEFS/trace_marker"
}

# symbol EVENT NAME: the number that the compaction EVENT's format prints as
# NAME (__print_symbolic), for tools that see the raw field: perf --filter,
# bpftrace
symbol() {
	grep -o "{ *[0-9a-fx]*, *\"$2\" *}" "$TRACEFS/events/compaction/$1/format" |
		sed 's/{ *\([0-9a-fx]*\),.*/\1/' | head -1 | grep . ||
		fail "$1: no symbol $2 in its format"
}

# summary NAME KEY: a value of proactive-trace's summary of $OUT/NAME.dat
summary() {
	"$LAB_BIN/proactive-trace" "$OUT/$1.dat" > "$OUT/$1.summary"
	awk -v k="$2" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' "$OUT/$1.summary"
}
# rounds NAME / defers NAME / scores NAME / wakes NAME: the analysis tool's
# CSVs of $OUT/NAME.dat, with their header line: read them with cols
rounds() { "$LAB_BIN/proactive-trace" -q -r - "$OUT/$1.dat"; }
defers() { "$LAB_BIN/proactive-trace" -q -d - "$OUT/$1.dat"; }
scores() { "$LAB_BIN/proactive-trace" -q -s - "$OUT/$1.dat"; }
wakes() { "$LAB_BIN/proactive-trace" -q -w - "$OUT/$1.dat"; }

# state FILE KEY...: per node, the values of the KEYs (node, score, low,
# high, deferred_ms) in the per-node state file ($PROACTIVE) or a copy of it
state() {
	local f=$1
	shift
	awk -v want="$*" '{
		for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
		n = split(want, w, " "); s = v[w[1]]
		for (j = 2; j <= n; j++) s = s " " v[w[j]]
		print s
	}' "$f"
}

# snap FILE: the compaction counters; delta NAME OLD NEW: how much one moved
snap() {
	grep -E '^(compact|thp|pgmigrate)_' /proc/vmstat > "$1"
}
delta() {
	awk -v k="$1" 'FNR == NR { old[$1] = $2; next } $1 == k { print $2 - old[k] }' "$2" "$3"
}

# never_down FILE...: reads of counters ("name value" lines) in the order
# given; fails if any counter went down from one read to the next
never_down() {
	local prev= f
	for f in "$@"; do
		[ -z "$prev" ] || awk 'FNR == NR { old[$1] = $2; next } $2 < old[$1] { print "FAIL: " $1 " went down: " old[$1] " -> " $2; bad = 1 } END { exit bad }' "$prev" "$f" ||
			fail "a counter went down between $prev and $f"
		prev=$f
	done
	echo "ok: $# reads of the counters, none went down"
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.2 s; fail on timeout
wait_until() {
	local limit=$(($1 * 5)) i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ "$i" -lt "$limit" ] || fail "timed out waiting for: $*"
		sleep 0.2
	done
}

# kcompactd_idle: every kcompactd asleep in its own wait, not in a round.
# The wchan of that wait differs between the trees: 6.1 names kcompactd();
# 6.12 names process_timeout (the timer of schedule_timeout()) while the
# 500 ms wait of proactive checks runs, and kcompactd() otherwise.
kcompactd_idle() {
	local pid
	for pid in $(pgrep '^kcompactd[0-9]+$'); do
		[ "$(cut -d' ' -f3 "/proc/$pid/stat")" = S ] || return 1
		case $(cat "/proc/$pid/wchan") in
		kcompactd) ;;
		process_timeout) [ "$KVER" != 6.1 ] || return 1 ;;
		*) return 1 ;;
		esac
	done
}

# idle_twice: kcompactd_idle, and still so 0.2 s later
idle_twice() { kcompactd_idle && sleep 0.2 && kcompactd_idle; }

# fragmenter_ready: the fragmenter is done; fails at once if it died
fragmenter_ready() {
	[ -e /tmp/fragmented ] && return
	kill -0 "$FRAGMENTER" 2>/dev/null || fail "the fragmenter died: $(tail -2 "$OUT/fragmenter.log")"
	return 1
}

# fragment [FRAGMENTER ARGS]: fragment every node, holding the memory in the
# background until the test ends, and check that every node scores >= 90.
fragment() {
	rm -f /tmp/fragmented
	"$LAB_BIN/fragmenter" --hold --ready /tmp/fragmented "$@" > "$OUT/fragmenter.log" 2>&1 &
	FRAGMENTER=$!
	trap 'kill $FRAGMENTER 2>/dev/null || :' EXIT
	wait_until 180 fragmenter_ready
	"$LAB_BIN/fragscore" | tee "$OUT/fragscore-after-fragmenting"
	min=$(min_score "$OUT/fragscore-after-fragmenting")
	[ "$min" -ge 90 ] || fail "fragmenting left a node at score $min"
}

# settled: every node at or below its low threshold, or deferred
settled() {
	state "$PROACTIVE" score low deferred_ms | awk '!($1 <= $2 || $3 > 0) { bad = 1 } END { exit bad }'
}

# check_identities TRACE OLD NEW: the events of a recording add up to the
# counters' deltas over it, exactly, and the counters to each other
# (Documentation/admin-guide/mm/proactive-compaction.rst):
#   checks with decision=start          = delta _round
#   checks with decision=kswapd         = delta _check_kswapd
#   end events                          = checks with decision=start
#   end events with outcome=X           = delta _round_X
#   end events, score_after >= before   = delta _round_deferred
#   sum of end events' *_scanned        = delta _migrate/_free_scanned
#   delta _round = the sum of the deltas of _round_{success,partial,kswapd,aborted}
# The recording must start and end with no round in progress.
check_identities() {
	local t=$1 old=$2 new=$3 p=compact_daemon_proactive o sum=0
	expect_eq "rounds open at the end, ends without a start" \
		"$(summary "$t" rounds_open_at_end) $(summary "$t" ends_without_start)" "0 0"
	expect_eq "decisions and outcomes not known to proactive-trace" "$(summary "$t" unknown_symbols)" 0
	expect_eq "start checks vs ${p}_round delta" "$(summary "$t" rounds)" "$(delta ${p}_round "$old" "$new")"
	expect_eq "kswapd checks vs ${p}_check_kswapd delta" "$(summary "$t" checks_kswapd)" \
		"$(delta ${p}_check_kswapd "$old" "$new")"
	expect_eq "end events vs start checks" "$(summary "$t" ends)" "$(summary "$t" rounds)"
	for o in success partial kswapd aborted; do
		expect_eq "$o ends vs ${p}_round_$o delta" "$(summary "$t" "ends_$o")" "$(delta "${p}_round_$o" "$old" "$new")"
		sum=$((sum + $(delta "${p}_round_$o" "$old" "$new")))
	done
	expect_eq "deferring ends vs ${p}_round_deferred delta" "$(summary "$t" defers)" \
		"$(delta ${p}_round_deferred "$old" "$new")"
	expect_eq "migrate_scanned of end events vs ${p}_migrate_scanned delta" "$(summary "$t" migrate_scanned)" \
		"$(delta ${p}_migrate_scanned "$old" "$new")"
	expect_eq "free_scanned of end events vs ${p}_free_scanned delta" "$(summary "$t" free_scanned)" \
		"$(delta ${p}_free_scanned "$old" "$new")"
	expect_eq "${p}_round delta vs the sum of its outcomes' deltas" "$(delta ${p}_round "$old" "$new")" "$sum"
}
