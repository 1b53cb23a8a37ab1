# Helpers for guest tests (bash, sourced).  A test prints what it does and
# ends with "FAIL: why" and a non-zero exit on the first broken expectation;
# a command that fails unexpectedly ends it the same way.  A test that
# cannot test what it tests in this guest ends with skip (exit 4, as a
# kselftest).  The first reason given is also left in $OUT/why, for the
# runner's verdict.

set -eE -o pipefail
trap 'on_err $? $LINENO "$BASH_COMMAND"' ERR

# on_err STATUS LINE COMMAND: a command failed unexpectedly.  The test ends
# with status 1 even when the command's was 4: only skip skips.
on_err() {
	why "line $2: \"$3\" exited with status $1"
	echo "FAIL: line $2: \"$3\" exited with status $1"
	exit 1
}

WHY_FILE=$OUT/why
# shellcheck source=tests/lib/common.sh
. /lab/tests/lib/common.sh

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1 = $3"
}

# ---- Counters.  The series' nine compact_daemon_proactive_* counters are
# per-node stats: each node's are in /sys/devices/system/node/nodeN/vmstat
# (and /proc/zoneinfo), their sums in /proc/vmstat.  An update goes to a
# per-CPU delta first, which reaches the node's and the global counter only
# when it is folded (within about a second, or when it grows past the
# CPU's threshold): every exact read folds first, with fold.

NODE_SYSFS=/sys/devices/system/node

# fold: fold every CPU's pending counter deltas into the node and global
# counters (/proc/sys/vm/stat_refresh; root)
fold() {
	echo 1 > /proc/sys/vm/stat_refresh || fail "cannot write /proc/sys/vm/stat_refresh"
}

# vmstat NAME: one counter of /proc/vmstat, folded
vmstat() {
	fold
	awk -v k="$1" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' /proc/vmstat
}

# need_nodes N: skip unless the guest has at least N nodes (for a test
# that works on node 1: the header can pin NODES, not ask for a minimum)
need_nodes() {
	[ "$NODES" -ge "$1" ] || skip "needs at least $1 NUMA nodes, and NODES=$NODES"
}

# mem_nodes: the nodes with memory (N_MEMORY), one number a line
mem_nodes() {
	tr ',' '\n' < "$NODE_SYSFS/has_memory" |
		awk -F- 'NF { last = NF > 1 ? $2 : $1; for (i = $1; i <= last; i++) print i }'
}

# node_counters: every node's compact_daemon_proactive_* counters as they
# are (no fold), one "nodeN:NAME VALUE" line each.  Without a fold they
# lag, but never go down: every update adds.
node_counters() {
	local d
	for d in "$NODE_SYSFS"/node[0-9]*; do
		awk -v n="${d##*/}" '$1 ~ /^compact_daemon_proactive_/ { print n ":" $1, $2; found = 1 }
			END { if (!found) exit 1 }' "$d/vmstat" || fail "no compact_daemon_proactive_* counter in $d/vmstat"
	done
}

# proactive_counters FILE: the series' counters, folded: /proc/vmstat's
# sums ("NAME VALUE") and every node's ("nodeN:NAME VALUE")
proactive_counters() {
	fold
	grep '^compact_daemon_proactive_' /proc/vmstat > "$1" ||
		fail "no compact_daemon_proactive_* counter in /proc/vmstat"
	node_counters >> "$1"
}

# ---- Proactive compaction helpers

KNOB=vm.compaction_proactiveness
# shellcheck disable=SC2034 # for the tests that source this
KNOB_FILE=/proc/sys/vm/compaction_proactiveness
TRACEFS=/sys/kernel/tracing

set_proactiveness() {
	sysctl -q -w "$KNOB=$1" || fail "sysctl -w $KNOB=$1 rejected"
}

# thresholds P: "LOW HIGH", the fragmentation score thresholds that
# proactiveness P gives on this tree ($KVER): a check starts a round above
# HIGH, a round ends at or below LOW.  The kernel shows them only in the
# mm_compaction_proactive_check event (low=, high=); this is the one place
# the lab computes them.
#   mainline (7.x): low = 100 - P, leeway = min(10, low / 2),
#                   high = min(low + leeway, 100)
#   6.1, 6.12:      low = max(100 - P, 5), high = min(low + 10, 100)
thresholds() {
	local p=$1 low leeway high
	case $p in '' | *[!0-9]*) fail "thresholds: '$p' is not a proactiveness" ;; esac
	[ "$p" -le 100 ] || fail "thresholds: $p is not a proactiveness (0..100)"
	low=$((100 - p))
	case ${KVER:-} in
	mainline | 7.*)
		leeway=$((low / 2 < 10 ? low / 2 : 10))
		high=$((low + leeway)) ;;
	6.1 | 6.12)
		[ "$low" -ge 5 ] || low=5
		high=$((low + 10)) ;;
	*)	fail "thresholds: no formula for KVER='${KVER:-}' (mainline, 6.12 or 6.1)" ;;
	esac
	[ "$high" -le 100 ] || high=100
	echo "$low $high"
}

# trace_start [-b KB] [-C CLOCK] [EVENT [-f FILTER]...]: record the EVENTs
# (default: every compaction event) and trace_marker writes into an empty
# ring buffer of KB per CPU (default 8192; 0 keeps the size it has, for a
# job that sized it before fragmenting memory: allocated after, the
# buffer's unmovable pages would land in the fragmented blocks' holes),
# stamped by the trace clock CLOCK (default: the kernel's, local).
# trace_stop NAME [DIR]: stop, save the recording as DIR/NAME.dat (default
# $OUT), and leave the buffer empty, its events off and its size alone.
# An EVENT may be followed by -f FILTER, which applies to it.
trace_start() {
	local kb=8192 opts=()
	if [ "${1:-}" = -b ]; then kb=$2; shift 2; fi
	if [ "${1:-}" = -C ]; then opts+=(-C "$2"); shift 2; fi
	[ "$kb" = 0 ] || opts+=(-b "$kb")
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

# analyse NAME: proactive-trace's summary and CSVs of $OUT/NAME.dat, in
# $OUT/NAME.summary and $OUT/NAME.{scores,rounds,defers,wakes}.csv, from
# one run of the tool (a run can take seconds on a busy guest), made again
# only when the recording is newer than them
analyse() {
	[ "$OUT/$1.summary" -nt "$OUT/$1.dat" ] && return
	rm -f "$OUT/$1.summary"
	"$LAB_BIN/proactive-trace" -s "$OUT/$1.scores.csv" -r "$OUT/$1.rounds.csv" \
		-d "$OUT/$1.defers.csv" -w "$OUT/$1.wakes.csv" "$OUT/$1.dat" > "$OUT/$1.summary.new" ||
		fail "proactive-trace could not read $OUT/$1.dat"
	mv "$OUT/$1.summary.new" "$OUT/$1.summary"
}
# summary NAME KEY: a value of proactive-trace's summary of $OUT/NAME.dat
summary() {
	analyse "$1"
	awk -v k="$2" '$1 == k { print $2; found = 1 } END { if (!found) exit 1 }' "$OUT/$1.summary"
}
# node_summary NAME NID KEY: a value of node NID's line of that summary
# ("node NID checks C rounds R ends E success S defers D"), by its name
node_summary() {
	analyse "$1"
	awk -v n="$2" '$1 == "node" && $2 == n' "$OUT/$1.summary" | value_of "$3"
}
# value_of KEY: the word after KEY on the lines of stdin, lines of "KEY
# VALUE" pairs (such as pagecheck's and the summary's node lines); fails if
# no line has KEY
value_of() {
	awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); found = 1 } }
		END { if (!found) exit 1 }'
}
# rounds NAME / defers NAME / scores NAME / wakes NAME: the analysis tool's
# CSVs of $OUT/NAME.dat, with their header line: read them with cols
rounds() { analyse "$1"; cat "$OUT/$1.rounds.csv"; }
defers() { analyse "$1"; cat "$OUT/$1.defers.csv"; }
scores() { analyse "$1"; cat "$OUT/$1.scores.csv"; }
wakes() { analyse "$1"; cat "$OUT/$1.wakes.csv"; }

# snap FILE: the compaction counters, folded: /proc/vmstat's compact_*,
# thp_* and pgmigrate_* ("NAME VALUE"), and every node's
# compact_daemon_proactive_* ("nodeN:NAME VALUE", see node_counters)
# snap_node N FILE: node N's compact_daemon_proactive_* counters, folded
# ("NAME VALUE", from nodeN/vmstat)
# delta NAME OLD NEW: how much one moved (NAME as in the file:
# node1:compact_daemon_proactive_round is node 1's)
snap() {
	fold
	{ grep -E '^(compact|thp|pgmigrate)_' /proc/vmstat; node_counters; } > "$1"
}
snap_node() {
	fold
	grep '^compact_daemon_proactive_' "$NODE_SYSFS/node$1/vmstat" > "$2" ||
		fail "no compact_daemon_proactive_* counter in $NODE_SYSFS/node$1/vmstat"
}
delta() {
	awk -v k="$1" 'FNR == NR { old[$1] = $2; next } $1 == k { print $2 - old[k] }' "$2" "$3"
}

# never_down FILE...: reads of counters ("name value" lines) in the order
# given; fails if any counter went down from one read to the next
never_down() {
	local prev='' f
	for f in "$@"; do
		[ -z "$prev" ] || awk 'FNR == NR { old[$1] = $2; next } $2 < old[$1] { print "FAIL: " $1 " went down: " old[$1] " -> " $2; bad = 1 } END { exit bad }' "$prev" "$f" ||
			fail "a counter went down between $prev and $f"
		prev=$f
	done
	echo "ok: $# reads of the counters, none went down"
}

# wait_until SECONDS COMMAND...: poll COMMAND every 0.2 s; fail when it
# has not succeeded SECONDS after the first try began (wall time: a COMMAND
# may take a while itself, settled does)
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ "$SECONDS" -lt "$end" ] || fail "timed out waiting for: $*"
		sleep 0.2
	done
}

# kcompactd_idle: every kcompactd asleep in its own wait, not in a round.
# The wchan of that wait differs between the trees: 6.1 names kcompactd();
# 6.12 and mainline name process_timeout (the timer of schedule_timeout())
# while the 500 ms wait of proactive checks runs, and kcompactd() otherwise.
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
# background until the test ends, and check that every node scores at
# least FRAGMENT_MIN (90; 0 leaves the judgement to the caller).  The
# fragmenter gets 180 s per GiB of a node's memory (filling memory runs at
# a few hundred MiB a second under TCG).
fragment() {
	local wait_s=$(( 180 * (${MEM_PER_NODE:-1024} + 1023) / 1024 ))
	rm -f /tmp/fragmented
	"$LAB_BIN/fragmenter" --hold --ready /tmp/fragmented "$@" > "$OUT/fragmenter.log" 2>&1 &
	FRAGMENTER=$!
	trap 'kill $FRAGMENTER 2>/dev/null || :' EXIT
	wait_until "$wait_s" fragmenter_ready
	"$LAB_BIN/fragscore" | tee "$OUT/fragscore-after-fragmenting"
	min=$(min_score "$OUT/fragscore-after-fragmenting")
	[ "$min" -ge "${FRAGMENT_MIN:-90}" ] || fail "fragmenting left a node at score $min"
}

# settled: no proactive round will start on its own any more, told from
# the counters (the kernel shows no per-node state): on every node with
# memory, after a fold, no round is in progress (the node's _round equals
# the sum of its _round_{success,partial,kswapd,aborted}), and the node's
# _round did not move over 1.5 s, checked at both ends of those 1.5 s.
# Why 1.5 s: a round that leaves its node above the high threshold is
# followed by the next one at the next check, 500 ms later (the check
# interval, with room for TCG to run late); 1.5 s is three intervals.  A
# node at or below its high threshold starts none, nor does a deferred
# node for 32 s.  Takes 1.5 s.
settled() {
	local a b
	a=$(rounds_at_rest) || return 1
	sleep 1.5
	b=$(rounds_at_rest) || return 1
	[ "$a" = "$b" ]
}
# rounds_at_rest: "N ROUNDS" for every node with memory, after a fold;
# fails if a round is in progress on one of them
rounds_at_rest() {
	local n
	fold
	for n in $(mem_nodes); do
		awk -v n="$n" -v p=compact_daemon_proactive_round '
			$1 == p { r = $2 } $1 == p "_success" || $1 == p "_partial" || $1 == p "_kswapd" || $1 == p "_aborted" { o += $2 }
			END { if (r == "" || r != o) exit 1; print n, r }' "$NODE_SYSFS/node$n/vmstat" || return 1
	done
}

# check_identities TRACE OLD NEW: the events of a recording add up to the
# counters' deltas over it, exactly, and the counters to each other
# (Documentation/admin-guide/mm/proactive-compaction.rst).  OLD and NEW
# are snap files.  In total (/proc/vmstat):
#   checks with decision=start          = delta _round
#   checks with decision=kswapd         = delta _check_kswapd
#   end events                          = checks with decision=start
#   end events with outcome=X           = delta _round_X
#   end events, score_after >= before   = delta _round_deferred
#   sum of end events' *_scanned        = delta _migrate/_free_scanned
# and the same on every node, from the events with its nid and the node's
# counters (nodeN/vmstat); and the counters' identities of check_counters.
# The recording must start and end with no round in progress.
check_identities() {
	local t=$1 old=$2 new=$3 p=compact_daemon_proactive o
	expect_eq "rounds open at the end, ends without a start" \
		"$(summary "$t" rounds_open_at_end) $(summary "$t" ends_without_start)" "0 0"
	expect_eq "decisions and outcomes not known to proactive-trace" "$(summary "$t" unknown_symbols)" 0
	expect_eq "start checks vs ${p}_round delta" "$(summary "$t" rounds)" "$(delta ${p}_round "$old" "$new")"
	expect_eq "kswapd checks vs ${p}_check_kswapd delta" "$(summary "$t" checks_kswapd)" \
		"$(delta ${p}_check_kswapd "$old" "$new")"
	expect_eq "end events vs start checks" "$(summary "$t" ends)" "$(summary "$t" rounds)"
	for o in success partial kswapd aborted; do
		expect_eq "$o ends vs ${p}_round_$o delta" "$(summary "$t" "ends_$o")" "$(delta "${p}_round_$o" "$old" "$new")"
	done
	expect_eq "deferring ends vs ${p}_round_deferred delta" "$(summary "$t" defers)" \
		"$(delta ${p}_round_deferred "$old" "$new")"
	expect_eq "migrate_scanned of end events vs ${p}_migrate_scanned delta" "$(summary "$t" migrate_scanned)" \
		"$(delta ${p}_migrate_scanned "$old" "$new")"
	expect_eq "free_scanned of end events vs ${p}_free_scanned delta" "$(summary "$t" free_scanned)" \
		"$(delta ${p}_free_scanned "$old" "$new")"
	# Per node: "nid decision" of every check, "nid outcome deferred
	# migrate_scanned free_scanned" of every round (none open, none
	# without its start: checked above)
	analyse "$t"
	cols "$OUT/$t.scores.csv" nid decision > /tmp/ci-checks
	cols "$OUT/$t.rounds.csv" nid outcome deferred migrate_scanned free_scanned > /tmp/ci-rounds
	node_identities "$old" "$new" /tmp/ci-checks /tmp/ci-rounds ||
		fail "a node's events or counters do not match (see above)"
	total_identities "$old" "$new"
}

# check_counters OLD NEW: the counters' identities over an interval with
# no round in progress at either end (OLD and NEW are snap files):
#   on every node, and in total:
#     delta _round = the sum of the deltas of _round_{success,partial,kswapd,aborted}
#     delta _round_deferred <= delta _round - delta _round_success
#   every counter's deltas on the nodes add up to its /proc/vmstat delta
#   in total only (compact_daemon_{migrate,free}_scanned are global vm
#   events): delta _migrate/_free_scanned <= delta compact_daemon_migrate/free_scanned
check_counters() {
	node_identities "$1" "$2" ||
		fail "a node's counters break an identity, or the nodes' do not add up to /proc/vmstat's (see above)"
	total_identities "$1" "$2"
}
# total_identities OLD NEW: check_counters' identities in /proc/vmstat
total_identities() {
	local old=$1 new=$2 p=compact_daemon_proactive c sum=0 o
	for o in success partial kswapd aborted; do
		sum=$((sum + $(delta "${p}_round_$o" "$old" "$new")))
	done
	expect_eq "${p}_round delta vs the sum of its outcomes' deltas" "$(delta ${p}_round "$old" "$new")" "$sum"
	[ "$(delta ${p}_round_deferred "$old" "$new")" -le \
		$(($(delta ${p}_round "$old" "$new") - $(delta ${p}_round_success "$old" "$new"))) ] ||
		fail "${p}_round_deferred moved by $(delta ${p}_round_deferred "$old" "$new"), more than the rounds that did not succeed"
	echo "ok: ${p}_round_deferred delta <= the rounds that did not succeed"
	for c in migrate free; do
		[ "$(delta ${p}_${c}_scanned "$old" "$new")" -le "$(delta compact_daemon_${c}_scanned "$old" "$new")" ] ||
			fail "${p}_${c}_scanned moved by $(delta ${p}_${c}_scanned "$old" "$new"), compact_daemon_${c}_scanned by only $(delta compact_daemon_${c}_scanned "$old" "$new")"
		echo "ok: ${p}_${c}_scanned delta <= compact_daemon_${c}_scanned delta"
	done
}

# node_identities OLD NEW [CHECKS ROUNDS]: per node, from the "nodeN:"
# lines of two snap files: the node's identities (check_counters), every
# counter's node deltas adding up to its /proc/vmstat delta, and, given
# the events (CHECKS: "nid decision" lines, ROUNDS: "nid outcome deferred
# migrate_scanned free_scanned" lines), each node's events equal to its
# counters' deltas.  Prints a line per node and per broken identity.
node_identities() {
	awk -v p=compact_daemon_proactive -v events=$(($# > 2)) '
	FILENAME == ARGV[1] { old[$1] = $2; next }
	FILENAME == ARGV[2] { new[$1] = $2; if ($1 ~ /^node[0-9]+:/) { split($1, a, ":"); node[a[1]] = 1 }; next }
	FILENAME == ARGV[3] {
		nid["node" $1] = 1
		if ($2 == "start") ev["node" $1 ":" p "_round"]++
		else if ($2 == "kswapd") ev["node" $1 ":" p "_check_kswapd"]++
		next
	}
	{
		k = "node" $1 ":" p
		nid["node" $1] = 1
		ev[k "_round_" $2]++
		if ($3 == 1) ev[k "_round_deferred"]++
		ev[k "_migrate_scanned"] += $4
		ev[k "_free_scanned"] += $5
	}
	END {
		nc = split("check_kswapd round round_success round_partial round_kswapd round_aborted round_deferred migrate_scanned free_scanned", c, " ")
		nn = 0
		for (n in node) nn++
		if (!nn) { print "FAIL: no node counters (nodeN:...) in " ARGV[2]; exit 1 }
		for (n in nid) if (!(n in node)) { print "FAIL: events on " n ", which has no counters"; bad = 1 }
		for (j = 1; j <= nc; j++) {
			g = p "_" c[j]
			if (!(g in new) || !(g in old)) { print "FAIL: no " g " in /proc/vmstat"; bad = 1; continue }
			s = 0
			for (n in node) {
				k = n ":" g
				if (!(k in new) || !(k in old)) { print "FAIL: no " g " in " n "/vmstat"; bad = 1; continue }
				d[k] = new[k] - old[k]; s += d[k]
				if (events && ev[k] + 0 != d[k]) {
					printf "FAIL: %s: the events with its nid give %d, its counter moved by %d\n", k, ev[k], d[k]
					bad = nbad[n] = 1
				}
			}
			if (s != new[g] - old[g]) {
				printf "FAIL: %s: the nodes moved by %d in all, /proc/vmstat by %d\n", g, s, new[g] - old[g]; bad = 1
			}
		}
		for (n in node) {
			k = n ":" p
			r = d[k "_round"]; o = d[k "_round_success"] + d[k "_round_partial"] + d[k "_round_kswapd"] + d[k "_round_aborted"]
			if (r != o) { printf "FAIL: %s: %s_round moved by %d, its outcomes by %d\n", n, p, r, o; bad = nbad[n] = 1 }
			if (d[k "_round_deferred"] > r - d[k "_round_success"]) {
				printf "FAIL: %s: %s_round_deferred moved by %d, but only %d rounds did not succeed\n", n, p, d[k "_round_deferred"], r - d[k "_round_success"]
				bad = nbad[n] = 1
			}
			if (!nbad[n])
				printf "ok: %s: rounds +%d (success +%d, partial +%d, kswapd +%d, aborted +%d, deferred +%d), kswapd checks +%d, scanned +%d/+%d%s\n",
				n, r, d[k "_round_success"], d[k "_round_partial"], d[k "_round_kswapd"], d[k "_round_aborted"], d[k "_round_deferred"],
				d[k "_check_kswapd"], d[k "_migrate_scanned"], d[k "_free_scanned"], events ? ", as its events say" : ""
		}
		if (!bad)
			printf "ok: the %d nodes'\'' counters add up to /proc/vmstat'\''s, each of the %d\n", nn, nc
		exit bad
	}' "$@" | sort
}

# ---- Functions as commands.  A program that runs a command (pagecheck's
# cycle, perf stat's workload) runs one of the test's functions through
# call.sh, rather than a script the test would write into /tmp.

# as_command FUNCTION [HELPER...]: export FUNCTION and the HELPERs it calls
# (the library's own need not be), and set the array COMMAND to the
# command that runs FUNCTION: (bash /lab/tests/lib/call.sh FUNCTION)
as_command() {
	# shellcheck disable=SC2163 # the functions named
	export -f "$@"
	COMMAND=(bash /lab/tests/lib/call.sh "$1")
}

# ---- pagecheck: data checked across what a test does to the kernel

# pagecheck_total LOG KEY: pages_verified or mismatches of pagecheck's
# total line in LOG
pagecheck_total() {
	grep '^pagecheck: total ' "$1" | value_of "$2"
}

# pagecheck_window NAME CYCLES FUNCTION [HELPER...]: node 1's pages checked
# across what FUNCTION does, the recipe of the hotplug and drain tests.
# With proactive compaction off, the compaction events are recorded and
# the counters read (snap: /tmp/NAME.before, /tmp/NAME.after) around
# pagecheck, which fills half of node 1's free memory (mbind) with
# checksummed pages and, CYCLES times, fragments it and runs FUNCTION
# (as_command) while it re-reads every page.  Once kcompactd is idle the
# recording is saved as NAME.  Fails unless every page verified and the
# events equal the counters' deltas (check_identities).  pagecheck's
# output is in $OUT/pagecheck.log.
pagecheck_window() {
	local name=$1 cycles=$2
	shift 2
	as_command "$@"
	set_proactiveness 0
	trace_start
	snap "/tmp/$name.before"
	"$LAB_BIN/pagecheck" --node 1 --percent 50 --cycles "$cycles" -- "${COMMAND[@]}" | tee "$OUT/pagecheck.log" ||
		fail "pagecheck found changed pages, or a cycle failed (or pagecheck could not run)"
	wait_until 120 idle_twice
	snap "/tmp/$name.after"
	trace_stop "$name"
	expect_eq "mismatching pages" "$(pagecheck_total "$OUT/pagecheck.log" mismatches)" 0
	check_identities "$name" "/tmp/$name.before" "/tmp/$name.after"
}

# ---- Memory blocks

# hotplug_blocks NODE: the node's hot-pluggable memory blocks (those of
# its DIMM, onlined movable: run-guest.sh), "memoryN" a line
hotplug_blocks() {
	local b
	for b in "$NODE_SYSFS/node$1"/memory[0-9]*; do
		[ "$(cat "$b/valid_zones")" != Movable ] || basename "$b"
	done
}

# ---- Modules.  A signal reaching a module load or unload while it waits
# can end it with EINTR instead of restarting it: delete_module() waits
# for module_mutex interruptibly (held by another module's load or unload,
# across synchronize_rcu()), and finit_module() so waits for a concurrent
# load of the same file.  SIGSTOP is such a signal: a load or unload that
# a stop interrupted is tried again.

# eintr_retry COMMAND...: COMMAND, run again (up to 100 times) while it
# fails with "Interrupted system call"; each retry says "interrupted:
# COMMAND".  Returns COMMAND's last status; passes its output on.
eintr_retry() {
	local out rc try
	for try in $(seq 100); do
		rc=0
		out=$("$@" 2>&1) || rc=$?
		case $rc:$out in
		0:*) break ;;
		*"Interrupted system call"*) echo "interrupted: $* (try $try)" ;;
		*) break ;;
		esac
	done
	[ -z "$out" ] || echo "$out"
	return "$rc"
}

# module_load NAME [PARAM=VALUE...] / module_unload NAME: insmod
# $LAB_MODULES/NAME.ko, rmmod NAME; tried again when interrupted
# (eintr_retry), and never while modules_hold holds the modules
MODULES_LOCK=/tmp/lab-modules.lock
module_load() {
	local name=$1
	shift
	eintr_retry flock -s "$MODULES_LOCK" insmod "$LAB_MODULES/$name.ko" "$@"
}
module_unload() {
	eintr_retry flock -s "$MODULES_LOCK" rmmod "$1"
}
# modules_hold SECONDS / modules_release: no module_load or module_unload
# runs in between; waits at most SECONDS for those running to end.  For
# trace-cmd extract, which reads /proc/kallsyms twice, for its size and
# its text, and fails when a module came or went in between.
modules_hold() {
	exec {MODULES_HELD}> "$MODULES_LOCK"
	flock -x -w "$1" "$MODULES_HELD" || fail "a module load or unload still ran after $1 s"
}
modules_release() {
	exec {MODULES_HELD}>&-
}

# ---- lab_hpalloc, the huge-page allocation latency driver
# (tests/modules/lab_hpalloc): runs are written to its debugfs directory,
# their latencies read from it

HPALLOC=/sys/kernel/debug/lab_hpalloc

# hpalloc_load [rate=R] [seconds=S]: load the driver with its parameters
hpalloc_load() {
	module_load lab_hpalloc "$@" || fail "insmod lab_hpalloc $* failed"
}
# hpalloc_param NAME: the loaded driver's parameter NAME
# hpalloc_set NAME VALUE: set it, for the runs to come
hpalloc_param() { cat "/sys/module/lab_hpalloc/parameters/$1"; }
hpalloc_set() { echo "$2" > "/sys/module/lab_hpalloc/parameters/$1"; }
# hpalloc_run N: one run, N huge pages at most (0: until allocation fails
# for good, or the run's seconds end); returns when it ended
hpalloc_run() {
	echo "$1" > "$HPALLOC/run"
}
# hpalloc_count samples|failures: how many allocations of the last run
# succeeded, or failed at its end
hpalloc_count() {
	grep -c . "$HPALLOC/$1" || :
}
# hpalloc_save PREFIX: the last run's latencies in ns, one a line, in
# PREFIX-samples-ns (successes) and PREFIX-failures-ns
hpalloc_save() {
	cp "$HPALLOC/samples" "$1-samples-ns"
	cp "$HPALLOC/failures" "$1-failures-ns"
}
# hpalloc_direct DAT PID ATTEMPTS: each attempt of the driver's log
# ATTEMPTS ("start_ns duration_ns ok|fail"), with a fourth column: how many
# mm_compaction_try_to_compact_pages events of task PID in the recording
# DAT (made with the trace clock mono, which the log's ktime_get_ns()
# reads) fall inside it, from its start to its end.  An attempt with one
# or more needed direct compaction (Documentation/protocol.md).  Events
# of PID outside every attempt are counted on the last line, "outside N".
# Both are in time order, so one pass over each.
hpalloc_direct() {
	trace-cmd report -t -i "$1" 2>/dev/null |
		awk -v pid="$2" '/mm_compaction_try_to_compact_pages:/ && index($0, "-" pid " ") {
			for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; break }
			sub(/:$/, "", t); split(t, s, "."); printf "%.0f\n", s[1] * 1000000000 + s[2] }' |
		awk 'FNR == NR { st[++n] = $1; en[n] = $1 + $2; line[n] = $0; next }
			FNR == 1 { k = 1 }
			{ while (k <= n && en[k] < $1) k++
			  if (k <= n && $1 >= st[k]) hits[k]++; else out++ }
			END { for (k = 1; k <= n; k++) print line[k], hits[k] + 0; print "outside", out + 0 }' "$3" -
}
# hpalloc_unload: unload the driver
# hpalloc_stop: unload it if it is loaded (for an EXIT trap)
hpalloc_unload() {
	module_unload lab_hpalloc || fail "rmmod lab_hpalloc failed"
}
hpalloc_stop() {
	[ ! -d /sys/module/lab_hpalloc ] || module_unload lab_hpalloc > /dev/null || :
}

# ---- fail_page_alloc, page-allocation fault injection
# (CONFIG_FAIL_PAGE_ALLOC: the debug flavour), aimed at chosen tasks

FAIL_PAGE_ALLOC=/sys/kernel/debug/fail_page_alloc
FPA_TIMES=1000000

# fpa_present: the kernel has fail_page_alloc
fpa_present() { [ -d "$FAIL_PAGE_ALLOC" ]; }
# fpa_arm PID...: every page allocation of these tasks fails (up to
# FPA_TIMES in all), and no other task's: the task filter, each task's
# /proc/PID/make-it-fail
fpa_arm() {
	local kv pid
	for kv in task-filter=Y probability=100 interval=1 times=$FPA_TIMES \
		min-order=0 ignore-gfp-wait=N ignore-gfp-highmem=N verbose=0; do
		echo "${kv#*=}" > "$FAIL_PAGE_ALLOC/${kv%%=*}"
	done
	for pid; do
		echo 1 > "/proc/$pid/make-it-fail"
		expect_eq "make-it-fail of $(cat "/proc/$pid/comm")" "$(cat "/proc/$pid/make-it-fail")" 1
	done
}
# fpa_disarm PID...: no more failures, for these tasks or any other
fpa_disarm() {
	local pid
	for pid; do echo 0 > "/proc/$pid/make-it-fail"; done
	echo 0 > "$FAIL_PAGE_ALLOC/probability"
}
# fpa_injected: the failures injected since fpa_arm
fpa_injected() {
	echo $((FPA_TIMES - $(cat "$FAIL_PAGE_ALLOC/times")))
}
