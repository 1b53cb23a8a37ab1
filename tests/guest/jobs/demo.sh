# lab-env: DEMO_RUN DEMO_SETTLE DEMO_BACKOFF_S DEMO_PRETOUCH_PCT DEMO_PACE_S
# lab-timeout: DEMO_TIMEOUT
# lab-collect: kernel dmesg.txt p*/ backoff/
# One measurement of the original evaluation, run in a freshly booted guest
# (bash, a guest job; scripts/demo.sh boots one per
# measurement, because compaction's pageblock skip hints and cached scanner
# positions outlive an experiment and would bias the next one).
#
# DEMO_RUN=MODE:EXPERIMENT: fragment every node to a score of at least 95
# with proactive compaction off, switch to proactiveness MODE and let
# kcompactd settle for DEMO_SETTLE seconds (recording whether and when it
# settled: see settled in tests/lib/guest.sh, and tracing it), then run EXPERIMENT
# while trace-cmd records the compaction events, with /proc/vmstat and
# kcompactd's CPU time read before and after.  Experiments: alloc (the
# huge-page allocation latency driver, lab_hpalloc, back to back until
# allocation fails for good), rateN (the same driver paced at N huge
# pages a second for DEMO_PACE_S seconds) and pretouch.
# DEMO_RUN=backoff: the back-off experiment at proactiveness 40 on
# unmovable fragmentation, for DEMO_BACKOFF_S seconds.
#
# Results go to $OUT/p<MODE>/<EXPERIMENT>-* or $OUT/backoff/, for
# lab-report demo (report/demo.c).
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

: "${DEMO_RUN:?}" "${DEMO_SETTLE:?}" "${DEMO_BACKOFF_S:?}" "${DEMO_PRETOUCH_PCT:?}"
log() { echo "demo: $*"; }
# The kernel every measurement ran on, for the report
uname -r -v > "$OUT/kernel"

# The ring buffer is allocated once, before fragmenting: allocated after,
# its unmovable pages would land in the fragmented blocks' holes.  So
# recordings start and stop without resizing or resetting it.  They take
# the proactive events, the rounds of all compaction (begin/end), the
# migrated batches, kcompactd's sleeps and wakes, and, from kcompactd only
# (the allocating task's direct compaction would fill the buffer), each
# pageblock its scanners isolated from and each finish check, and its
# context switches (its CPU time per round): what kcompactd did during a
# long round.
echo 4096 > "$TRACEFS/buffer_size_kb"
KCOMPACTD_ONLY='comm ~ "kcompactd*"'
EVENTS=(mm_compaction_proactive_check mm_compaction_proactive_end
	mm_compaction_wakeup_kcompactd mm_compaction_begin mm_compaction_end
	mm_compaction_kcompactd_sleep mm_compaction_kcompactd_wake
	mm_compaction_migratepages
	mm_compaction_isolate_migratepages -f "$KCOMPACTD_ONLY"
	mm_compaction_isolate_freepages -f "$KCOMPACTD_ONLY"
	mm_compaction_finished -f "$KCOMPACTD_ONLY"
	sched:sched_switch -f 'prev_comm ~ "kcompactd*" || next_comm ~ "kcompactd*"')
demo_trace_start() { trace_start -b 0 "${EVENTS[@]}"; }

# kcompactd_cpu FILE: "nid seconds" of each kcompactd's utime + stime
kcompactd_cpu() {
	local hz
	hz=$(getconf CLK_TCK)
	for pid in $(pgrep '^kcompactd[0-9]+$'); do
		read -r -a st < "/proc/$pid/stat"
		comm=${st[1]}
		echo "${comm//[!0-9]/} $(( st[13] + st[14] )) $hz"
	done | awk '{ printf "%s %.3f\n", $1, $2 / $3 }' | sort -n > "$1"
}

node_meminfo_kb() {	# KEY: total over nodes
	cat /sys/devices/system/node/node*/meminfo | awk -v k="$1:" '$3 == k { s += $4 } END { print s }'
}

# prepare DIR MODE EXP: fragment, switch to MODE, settle; then the
# scores (fragscore) and every node's series counters (folded)
prepare() {
	local dir=$1 mode=$2 exp=$3 t0 t state=timeout
	set_proactiveness 0
	# The share of memory the fragmenter leaves untouched lands in free
	# huge-page blocks or not, by chance: a node ends at 94-99.  Try
	# again (from scratch) rather than fill closer to the OOM killer.
	# Five tries: three left one of the 16 boots of the run in
	# Documentation/runs/demo-4ed35d9 at 94.
	for try in 1 2 3 4 5; do
		fragment
		min=$(min_score "$OUT/fragscore-after-fragmenting")
		[ "$min" -lt 95 ] || break
		kill "$FRAGMENTER"
		wait "$FRAGMENTER" 2>/dev/null || :
	done
	echo "$try" > "$dir/$exp-fragment-tries"
	[ "$min" -ge 95 ] || fail "fragmentation reached only $min after $try tries (want >= 95 on every node)"
	cp "$OUT/fragscore-after-fragmenting" "$dir/$exp-fragscore-before"
	demo_trace_start
	set_proactiveness "$mode"
	# settled takes 1.5 s of quiet: the time given is when the first
	# quiet stretch began.  The whole DEMO_SETTLE is waited out anyway.
	t0=$(date +%s%N)
	while t=$(( ($(date +%s%N) - t0) / 100000000 )); [ "$t" -lt $((DEMO_SETTLE * 10)) ]; do
		if [ "$mode" != 0 ] && [ "$state" = timeout ] && settled; then
			state="settled after $((t / 10)).$((t % 10))s"
		else
			sleep 0.2
		fi
	done
	trace_stop "$exp-settle" "$dir"
	[ "$mode" = 0 ] && state="waited ${DEMO_SETTLE}s (proactive compaction off)"
	echo "$state" > "$dir/$exp-settle"
	fold
	node_counters > "$dir/$exp-node-vmstat-after-settle"
	"$LAB_BIN/fragscore" > "$dir/$exp-fragscore-after-settle"
	log "p$mode: $state; $(paste -sd' ' "$dir/$exp-fragscore-after-settle")"
}

# measure DIR NAME COMMAND...: the experiment under trace, with counters
measure() {
	local dir=$1 name=$2
	shift 2
	node_meminfo_kb MemFree > "$dir/$name-memfree-kb"
	cat /proc/pagetypeinfo > "$dir/$name-pagetypeinfo-before"
	demo_trace_start
	snap "$dir/$name-vmstat-before"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-before"
	"$@"
	snap "$dir/$name-vmstat-after"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-after"
	trace_stop "$name" "$dir"
}

# run_alloc DIR NAME: one run of the latency driver, its samples kept
run_alloc() {
	hpalloc_run 0
	hpalloc_save "$1/$2"
}

run_mode() {
	local mode=${DEMO_RUN%%:*} exp=${DEMO_RUN#*:}
	local dir=$OUT/p$mode
	mkdir -p "$dir"
	case $exp in
	alloc|rate[0-9]*)
		# rateN: N huge pages a second for DEMO_PACE_S seconds
		if [ "$exp" = alloc ]; then
			hpalloc_load
		else
			hpalloc_load rate="${exp#rate}" seconds="${DEMO_PACE_S:?}"
		fi
		prepare "$dir" "$mode" "$exp"
		measure "$dir" "$exp" run_alloc "$dir" "$exp"
		hpalloc_unload
		log "p$mode $exp: $(wc -l < "$dir/$exp-samples-ns") huge pages allocated, $(wc -l < "$dir/$exp-failures-ns") failed attempts" ;;
	pretouch)
		prepare "$dir" "$mode" "$exp"
		measure "$dir" pretouch sh -c "'$LAB_BIN/pretouch' --percent $DEMO_PRETOUCH_PCT > '$dir/pretouch.txt'"
		log "p$mode: $(cat "$dir/pretouch.txt")" ;;
	*)	fail "unknown experiment '$exp' (want alloc, rateN or pretouch)" ;;
	esac
	# The memcpy bandwidth of this boot, against kcompactd's migration rate
	"$LAB_BIN/membw" > "$dir/$exp-membw.txt"
	kill "$FRAGMENTER"
	wait "$FRAGMENTER" 2>/dev/null || :
}

run_backoff() {
	local dir=$OUT/backoff
	mkdir -p "$dir"
	set_proactiveness 0
	insmod "$LAB_MODULES/lab_unmovable.ko" percent=100
	sleep 5
	"$LAB_BIN/fragscore" > "$dir/fragscore-before"
	measure "$dir" backoff sh -c "sysctl -q -w $KNOB=40; sleep $DEMO_BACKOFF_S"
	rmmod lab_unmovable
	log "backoff: $(grep -c . "$dir/fragscore-before") nodes, ${DEMO_BACKOFF_S}s at proactiveness 40"
}

case $DEMO_RUN in
backoff) run_backoff ;;
*:*)	run_mode ;;
*)	fail "DEMO_RUN=$DEMO_RUN: want MODE:EXPERIMENT or backoff" ;;
esac
set_proactiveness 20
log "$DEMO_RUN done"
