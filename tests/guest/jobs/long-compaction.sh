# lab-env: LONG_MODE LONG_RATE LONG_S
# lab-timeout: LONG_S + TIMEOUT
# What a long compaction does (bash, a guest job; make long-compaction):
# the demo's paced allocation experiment, with perf sampling every CPU
# (cpu-clock, hrtimer-driven: TCG has no PMU) and every compaction and
# migration event recorded, so that the time of an allocation or a
# proactive round that takes seconds can be attributed to functions.
#
# LONG_MODE (proactiveness), LONG_RATE (huge pages a second), LONG_S
# (seconds of allocation).  Results in $OUT/long/: samples-ns (the
# allocations' latencies), trace.dat, perf.data and its reports, and
# where the kernel image lies (iomem-kernel).
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

: "${LONG_MODE:?}" "${LONG_RATE:?}" "${LONG_S:?}"
dir=$OUT/long
mkdir -p "$dir"
# Where KASLR put the kernel image: its freed rodata/data gap pages are
# slow to write under TCG (scripts/run-guest.sh)
grep -i kernel /proc/iomem > "$dir/iomem-kernel"
dmesg | grep -i 'freeing unused kernel image' > "$dir/freed-kernel-image" || :
echo 8192 > "$TRACEFS/buffer_size_kb"
hpalloc_load rate="$LONG_RATE" seconds="$LONG_S"
set_proactiveness 0
fragment
set_proactiveness "$LONG_MODE"
sleep 10
"$LAB_BIN/fragscore" > "$dir/fragscore-begin"
trace_start -b 0 compaction migrate:mm_migrate_pages
perf record -q -a -g -F 199 -e cpu-clock -o /root/perf.data -- sleep $((LONG_S + 3)) &
perf_pid=$!
sleep 1
marker "alloc-begin"
hpalloc_run 0
marker "alloc-end"
wait "$perf_pid"
trace_stop trace "$dir"
cp "$HPALLOC/samples" "$dir/samples-ns"
hpalloc_unload
# The perf clock is the trace clock's (local): samples and events line up
perf report -q -i /root/perf.data --stdio --no-children --sort comm,sym --percent-limit 1 > "$dir/perf-report.txt" 2>/dev/null
perf script -i /root/perf.data -F comm,tid,cpu,time,ip,sym > "$dir/perf-script.txt" 2>/dev/null
echo "long: p$LONG_MODE rate $LONG_RATE: $(grep -c . "$dir/samples-ns") allocations, longest $(sort -n "$dir/samples-ns" | tail -1) ns"
