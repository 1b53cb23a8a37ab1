# lab-env: BENCH_CONFIG BENCH_ROUND_S BENCH_IDLE_S
# lab-timeout: BENCH_TIMEOUT
# lab-collect: bench/
# One boot of make bench (bash, a guest job; scripts/bench.sh boots one per
# run, configurations interleaved): what the series costs kcompactd, the
# same workload on the stock kernel and on the patched one, with the
# series' events off or on.
#
# BENCH_CONFIG=stock|off|on|calib (on: every mm_compaction_proactive_*
# event recorded, on the patched kernel; calib: one existing event,
# mm_compaction_kcompactd_sleep, recorded on the stock kernel: like the
# series' check event, kcompactd emits it once a check, so it is the
# yardstick for what an event costs a check): fragment every node with proactive
# compaction off, read each kcompactd's CPU time (taskcpu: the scheduler's
# ns), its voluntary context switches (one a wake-up: the checks, counted)
# and the counters, set proactiveness 20 and give the rounds BENCH_ROUND_S
# seconds, read again, then BENCH_IDLE_S seconds of checks that find
# nothing to do, and read again.  Results: $OUT/bench/{cpu,csw,vmstat}-
# {start,rounds,idle}, events (the events written, lost ones included),
# event (which), kernel.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

: "${BENCH_CONFIG:?}" "${BENCH_ROUND_S:?}" "${BENCH_IDLE_S:?}"
dir=$OUT/bench
mkdir -p "$dir"
uname -r -v > "$dir/kernel"
echo "$BENCH_IDLE_S" > "$dir/idle-s"
# The series: its counters in /proc/vmstat and its events in tracefs
series=no
if grep -q '^compact_daemon_proactive_round ' /proc/vmstat; then
	[ -d "$TRACEFS/events/compaction/mm_compaction_proactive_end" ] ||
		fail "the kernel has the series' counters but not its events"
	series=yes
fi
events=
case $BENCH_CONFIG in
stock)	[ "$series" = no ] || fail "BENCH_CONFIG=stock, but the kernel has the series" ;;
calib)	[ "$series" = no ] || fail "BENCH_CONFIG=calib, but the kernel has the series"
	events=compaction:mm_compaction_kcompactd_sleep ;;
off)	[ "$series" = yes ] || fail "BENCH_CONFIG=off, but the kernel has no series" ;;
on)	[ "$series" = yes ] || fail "BENCH_CONFIG=on, but the kernel has no series"
	events='compaction:mm_compaction_proactive_*' ;;
*)	fail "BENCH_CONFIG=$BENCH_CONFIG: want stock, off, on or calib" ;;
esac

# The ring buffer before fragmenting (its pages would land in the holes)
[ -z "$events" ] || echo 4096 > "$TRACEFS/buffer_size_kb"
# which event the boot records, for the report's labels
[ -z "$events" ] || echo "${events#compaction:}" > "$dir/event"

# written: the events the ring buffer took, those overwritten included
written() {
	cat "$TRACEFS"/per_cpu/cpu*/stats |
		awk '$1 == "entries:" || $1 == "overrun:" { n += $2 } END { print n + 0 }'
}

# read_point NAME: every kcompactd's CPU ns ("nid ns") and the counters
# (folded: the series' are per-node stats, whose per-CPU deltas lag)
read_point() {
	for pid in $(pgrep '^kcompactd[0-9]+$'); do
		comm=$(cat "/proc/$pid/comm")
		echo "${comm#kcompactd} $("$LAB_BIN/taskcpu" "$pid" | cut -d' ' -f2)"
		echo "${comm#kcompactd} $(awk '$1 == "voluntary_ctxt_switches:" { print $2 }' "/proc/$pid/status")" >&3
	done 3> "$dir/csw-$1.tmp" | sort -n > "$dir/cpu-$1"
	sort -n "$dir/csw-$1.tmp" > "$dir/csw-$1" && rm "$dir/csw-$1.tmp"
	fold
	grep -E '^compact_' /proc/vmstat > "$dir/vmstat-$1"
}

set_proactiveness 0
fragment
"$LAB_BIN/fragscore" > "$dir/fragscore-before"
# Idle first, so that no round of the fragmenting is still running
sleep 2
[ -z "$events" ] || trace_start -b 0 "$events"
read_point start
set_proactiveness 20
sleep "$BENCH_ROUND_S"
read_point rounds
"$LAB_BIN/fragscore" > "$dir/fragscore-rounds"
sleep "$BENCH_IDLE_S"
read_point idle
if [ -n "$events" ]; then
	written > "$dir/events"
	trace_stop bench "$dir"
fi
"$LAB_BIN/fragscore" > "$dir/fragscore-idle"
echo "bench: $BENCH_CONFIG: scores $(paste -sd' ' "$dir/fragscore-before" | tr -s ' ') -> $(paste -sd' ' "$dir/fragscore-idle" | tr -s ' ')"
