# lab-env: DEMO_RUN DEMO_SETTLE DEMO_BACKOFF_S DEMO_PRETOUCH_PCT DEMO_PACE_S DEMO_DEFRAG DEMO_PROTOCOL
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
# The protocol's boots (Documentation/protocol.md, scripts/protocol.sh)
# add: vm.defrag_mode=DEMO_DEFRAG (empty: left alone) written with the
# mode; the experiments countR (the driver paced at R a second, sized by
# count: 98% of MemFree, or 256 failures in a row; each attempt marked
# with the direct compactions of the driver's task, in countR-attempts)
# and coloc (the co-located workload); and, with DEMO_PROTOCOL=1, a boot
# whose nodes stay under 95 after five tries at fragmenting ends with
# EXP-excluded ("a ...") instead of failing.  Every recording's ring
# buffer overruns are kept (NAME-overrun: exclusion b).
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
# The allocating task's direct compactions (the protocol's primary
# measure), and the monotonic clock that the driver's log reads
EVENTS+=(mm_compaction_try_to_compact_pages)
demo_trace_start() { trace_start -b 0 -C mono "${EVENTS[@]}"; }

# overruns: the events the ring buffer has lost since it was last reset,
# summed over the CPUs
overruns() {
	cat "$TRACEFS"/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }'
}

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
		FRAGMENT_MIN=0 fragment
		min=$(min_score "$OUT/fragscore-after-fragmenting")
		[ "$min" -lt 95 ] || break
		stop_fragmenter
	done
	echo "$try" > "$dir/$exp-fragment-tries"
	cp "$OUT/fragscore-after-fragmenting" "$dir/$exp-fragscore-before"
	if [ "$min" -lt 95 ]; then
		[ "${DEMO_PROTOCOL:-0}" = 1 ] || fail "fragmentation reached only $min after $try tries (want >= 95 on every node)"
		echo "a: a node at $min after $try tries at fragmenting" > "$dir/$exp-excluded"
		log "p$mode $exp: excluded: $(cat "$dir/$exp-excluded")"
		return 1
	fi
	[ "$exp" != coloc ] || return 0	# coloc writes the mode itself
	demo_trace_start
	set_modes "$mode"
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

# set_modes MODE: vm.defrag_mode (if DEMO_DEFRAG is set), then the
# proactiveness, whose write wakes kcompactd
set_modes() {
	[ -z "${DEMO_DEFRAG:-}" ] || sysctl -q -w "vm.defrag_mode=$DEMO_DEFRAG" ||
		fail "sysctl -w vm.defrag_mode=$DEMO_DEFRAG rejected"
	set_proactiveness "$1"
	echo "vm.compaction_proactiveness $(sysctl -n "$KNOB") vm.defrag_mode $(sysctl -n vm.defrag_mode 2>/dev/null || echo none)" \
		> "$dir/$exp-modes"
}

# measure DIR NAME COMMAND...: the experiment under trace, with counters
# and the ring buffer's overruns over it
measure() {
	local dir=$1 name=$2 o
	shift 2
	node_meminfo_kb MemFree > "$dir/$name-memfree-kb"
	cat /proc/pagetypeinfo > "$dir/$name-pagetypeinfo-before"
	demo_trace_start
	o=$(overruns)
	snap "$dir/$name-vmstat-before"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-before"
	"$@"
	snap "$dir/$name-vmstat-after"
	kcompactd_cpu "$dir/$name-kcompactd-cpu-after"
	echo $(( $(overruns) - o )) > "$dir/$name-overrun"
	trace_stop "$name" "$dir"
	[ "${DEMO_PROTOCOL:-0}" = 0 ] || long_compactions "$dir/$name.dat" > "$dir/$name-long"
}

# long_compactions DAT: one line, "long" and pairs: kcompactd's proactive
# rounds in the recording (a check that starts one to the node's end
# event), how many took over 1 s and the longest; the direct compactions
# (an mm_compaction_begin/end pair of a task other than kcompactd: one
# zone's compaction), how many took over 100 ms and the longest; for the
# protocol's long compactions, counted in every boot
long_compactions() {
	trace-cmd report -t -i "$1" 2>/dev/null | awk '
	{
		for (i = 2; i <= NF && $i !~ /^[0-9]+\.[0-9]+:$/; i++) ;
		if (i > NF) next
		t = $i; sub(/:$/, "", t); split(t, s, "."); ns = s[1] * 1e9 + s[2]
		ev = $(i + 1); sub(/:$/, "", ev)
		pid = $1; sub(/.*-/, "", pid); kcd = $1 ~ /^kcompactd/
		nid = ""; if (match($0, /nid=[0-9]+/)) nid = substr($0, RSTART + 4, RLENGTH - 4)
	}
	ev == "mm_compaction_proactive_check" && /decision=start/ { start[nid] = ns; rounds++ }
	ev == "mm_compaction_proactive_end" && (nid in start) {
		d = ns - start[nid]; delete start[nid]
		if (d > 1e9) rlong++
		if (d > rmax) rmax = d
	}
	ev == "mm_compaction_begin" && !kcd { begin[pid] = ns }
	ev == "mm_compaction_end" && !kcd && (pid in begin) {
		d = ns - begin[pid]; delete begin[pid]; direct++
		if (d > 1e8) dlong++
		if (d > dmax) dmax = d
	}
	END {
		printf "long rounds %d rounds_over_1s %d round_max_ms %.1f direct %d direct_over_100ms %d direct_max_ms %.1f\n",
			rounds, rlong, rmax / 1e6, direct, dlong, dmax / 1e6
	}'
}

# run_alloc DIR NAME [sized]: one run of the latency driver, until
# allocation fails for good, or, sized, until its huge pages cover 98% of
# the MemFree that measure read before it (DIR/NAME-memfree-kb, rounded
# up; the count in DIR/NAME-count); its samples kept, and its attempt
# log, task and end
run_alloc() {
	local n=0
	if [ "${3:-}" = sized ]; then
		n=$(( ($(cat "$1/$2-memfree-kb") * 98 + 100 * 2048 - 1) / (100 * 2048) ))
		echo "$n" > "$1/$2-count"
	fi
	hpalloc_run "$n"
	hpalloc_save "$1/$2"
	cp "$HPALLOC/attempts" "$1/$2-attempts-log"
	cat "$HPALLOC/pid" > "$1/$2-pid"
	cat "$HPALLOC/end" > "$1/$2-end"
}

# thpfault_ready NODE PID: the node's thpfault has mapped its memory;
# fails the job if it died first
thpfault_ready() {
	[ ! -e "/tmp/thpfault-ready.$1" ] || return 0
	kill -0 "$2" 2>/dev/null || fail "coloc: thpfault on node $1 ended before it was ready: $(cat "$dir/coloc-node$1.txt")"
	return 1
}

# run_coloc DIR MODE: the co-located workload: a thpfault on each node's
# first CPU, the modes written once all have started, their exit
# statuses checked
run_coloc() {
	local dir=$1 n cpu pids=() nodes=() i
	for n in $(mem_nodes); do
		cpu=$(cut -d, -f1 < "$NODE_SYSFS/node$n/cpulist" | cut -d- -f1)
		[ -n "$cpu" ] || continue
		rm -f "/tmp/thpfault-ready.$n"
		"$LAB_BIN/thpfault" --cpu "$cpu" --node "$n" --percent 40 --ready "/tmp/thpfault-ready.$n" \
			> "$dir/coloc-faults-node$n-ns" 2> "$dir/coloc-node$n.txt" &
		pids+=($!) nodes+=("$n")
	done
	[ ${#pids[@]} -gt 0 ] || fail "coloc: no node has a CPU"
	for i in "${!pids[@]}"; do
		wait_until 60 thpfault_ready "${nodes[$i]}" "${pids[$i]}"
	done
	set_modes "$2"
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || fail "coloc: thpfault on node ${nodes[$i]} failed: $(cat "$dir/coloc-node${nodes[$i]}.txt")"
	done
}


run_mode() {
	local mode=${DEMO_RUN%%:*} exp=${DEMO_RUN#*:}
	local dir=$OUT/p$mode
	mkdir -p "$dir"
	case $exp in
	count[0-9]*)
		# countR: R huge pages a second, sized by count
		hpalloc_load rate="${exp#count}"
		prepare "$dir" "$mode" "$exp" || return 0
		measure "$dir" "$exp" run_alloc "$dir" "$exp" sized
		hpalloc_unload
		hpalloc_direct "$dir/$exp.dat" "$(cat "$dir/$exp-pid")" "$dir/$exp-attempts-log" > "$dir/$exp-attempts"
		log "p$mode $exp: $(wc -l < "$dir/$exp-samples-ns") huge pages allocated, $(awk '$3 == "fail"' "$dir/$exp-attempts" | grep -c . || :) failed attempts, $(awk '$4 > 0' "$dir/$exp-attempts" | grep -c . || :) needed direct compaction; ended by $(cat "$dir/$exp-end"); $(cat "$dir/$exp-overrun") events lost" ;;
	coloc)
		prepare "$dir" "$mode" "$exp" || return 0
		measure "$dir" coloc run_coloc "$dir" "$mode"
		log "p$mode coloc: $(cat "$dir"/coloc-node*.txt | paste -sd' ')" ;;
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
		prepare "$dir" "$mode" "$exp" || return 0
		measure "$dir" pretouch sh -c "'$LAB_BIN/pretouch' --percent $DEMO_PRETOUCH_PCT > '$dir/pretouch.txt'"
		log "p$mode: $(cat "$dir/pretouch.txt")" ;;
	*)	fail "unknown experiment '$exp' (want alloc, rateN, countN, coloc or pretouch)" ;;
	esac
	# The memcpy bandwidth of this boot, against kcompactd's migration rate
	"$LAB_BIN/membw" > "$dir/$exp-membw.txt"
	stop_fragmenter
}

stop_fragmenter() {
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
