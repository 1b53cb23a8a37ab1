# lab-guest: CPUS_PER_NODE=2 DIMM_PER_NODE=512
# lab-env: STRESS_S STRESS_WINDOW_S
# lab-timeout: STRESS_S + 2 * STRESS_WINDOW_S + TIMEOUT
# lab-collect: stress-*.log
# make stress, in the guest (bash, a guest job): everything that
# drives compaction at once for STRESS_S seconds, with checks all along.
#
# Stressors, each a loop in its own process group:
#   fragmenter   fragment 60% of free memory, hold it a few seconds, free it
#   hpalloc      load lab_hpalloc, allocate a burst of 32 huge pages, unload
#   unmovable    load lab_unmovable (5% of memory, unmovable), unload
#   knob         random proactiveness writes, 0 and 100 included
#   compact      write compact_memory every few seconds
#   pressure     stream the disk (/dev/vda) through the page cache: kswapd runs
#   memhotplug   offline one hot-pluggable memory block of a node, or (one
#                time in four) all of the node's DIMM, for 1-3 s, then online
#                it movable; an offline that has not finished in 120 s is
#                stopped and counted as refused
#   cpuhotplug   take a CPU other than cpu0 offline for 1-3 s
#   drain        load lab_drain on a node for 1-2 s: the node's free memory
#                below its min watermark, so that its rounds run out of free
#                target pages (aborted); a load that finds nothing to give
#                back fails and is counted as refused
#   faults       (where the kernel has fail_page_alloc: the debug flavour)
#                every page allocation of every kcompactd fails, all along
# Checks:
#   heartbeat    a line every 2 s; at the end no gap may exceed 60 s
#   monotonic    every compact_daemon_proactive_* counter, in /proc/vmstat
#                and per node, sampled twice a second, never goes down
#   windows      until STRESS_S has passed and 2 were traced, alternately
#                15 s with the proactive events traced and 15 s
#                untraced; a traced window starts and ends quiescent (the
#                knob writer stopped, proactiveness 0, both kcompactd idle)
#                so that its events must equal the counters' deltas exactly,
#                in total and per node (check_identities), and the ring
#                buffer must lose nothing
# A splat, a hang or a failed check fails the run (run-guest.sh's verdict).
. /lab/tests/lib/guest.sh

: "${STRESS_S:?}" "${STRESS_WINDOW_S:?}"
log() { echo "stress: $*"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
EVENTS="mm_compaction_proactive_check mm_compaction_proactive_end mm_compaction_wakeup_kcompactd"
knob=$KNOB_FILE
PIDS=
trap 'for p in $PIDS; do kill -CONT -- -$p 2>/dev/null; kill -- -$p 2>/dev/null; done; wait 2>/dev/null || :' EXIT

# spawn NAME COMMAND...: run a stressor loop in its own process group
spawn() {
	local name=$1
	shift
	setsid bash -c "$*" > "$OUT/stress-$name.log" 2>&1 &
	PIDS="$PIDS $!"
	eval "PID_$name=$!"
}

p=compact_daemon_proactive
spawn heartbeat 'while :; do echo "heartbeat $(cut -d" " -f1 /proc/uptime)"; sleep 2; done'
# (unfolded reads, of /proc/vmstat and of every node's vmstat: they lag,
# but every update adds, so they never go down either)
spawn monotonic "prev=/tmp/mono.0 cur=/tmp/mono.1
	read_all() { grep -H '^${p}_' /proc/vmstat $NODE_SYSFS/node[0-9]*/vmstat | tr ':' ' ' | awk '{ print \$1 \":\" \$2, \$3 }'; }
	read_all > \$prev
	while :; do
		sleep 0.5
		read_all > \$cur
		awk 'FNR == NR { old[\$1] = \$2; next } \$2 < old[\$1] { print \"went down:\", \$1, old[\$1], \"->\", \$2; bad = 1 } END { exit bad }' \$prev \$cur || exit 1
		mv \$cur \$prev
	done"
spawn fragmenter "while :; do
		rm -f /tmp/stress-frag
		$LAB_BIN/fragmenter --percent 60 --hold --ready /tmp/stress-frag & f=\$!
		for i in \$(seq 300); do [ -e /tmp/stress-frag ] && break; sleep 0.2; done
		sleep \$((RANDOM % 6 + 3)); kill \$f; wait \$f
	done"
spawn hpalloc "while :; do
		insmod $LAB_MODULES/lab_hpalloc.ko && echo 32 > /sys/kernel/debug/lab_hpalloc/run && rmmod lab_hpalloc || exit 1
		sleep 0.\$((RANDOM % 10))
	done"
spawn unmovable "while :; do
		insmod $LAB_MODULES/lab_unmovable.ko percent=5 || exit 1
		sleep \$((RANDOM % 3 + 1)); rmmod lab_unmovable || exit 1; sleep 1
	done"
# A single process writing with a builtin, so that stopping it is exact.
spawn knob "while :; do
		case \$((RANDOM % 4)) in 0) v=0 ;; 1) v=100 ;; *) v=\$((RANDOM % 101)) ;; esac
		echo \$v > $knob
		sleep 0.\$((RANDOM % 10))
	done"
spawn compact 'while :; do sleep $((RANDOM % 5 + 2)); echo 1 > /proc/sys/vm/compact_memory; done'
spawn pressure 'while :; do cat /dev/vda > /dev/null; done'
# Each node's hot-pluggable blocks: those onlined movable.
for n in $(seq 0 $((NODES - 1))); do
	for b in /sys/devices/system/node/node$n/memory[0-9]*; do
		[ "$(cat "$b/valid_zones")" != Movable ] || basename "$b"
	done > /tmp/stress-blocks$n
	[ -s /tmp/stress-blocks$n ] || fail "node $n has no hot-pluggable memory (DIMM_PER_NODE=$DIMM_PER_NODE)"
done
spawn memhotplug "while :; do
		n=\$((RANDOM % $NODES))
		if [ \$((RANDOM % 4)) = 0 ]; then set -- \$(cat /tmp/stress-blocks\$n); else set -- \$(shuf -n 1 /tmp/stress-blocks\$n); fi
		for b; do
			if timeout 120 sh -c \"echo offline > /sys/devices/system/memory/\$b/state\"; then echo \"offline \$b\"; else echo \"refused \$b\"; fi
		done
		sleep \$((RANDOM % 3 + 1))
		for b; do
			[ \"\$(cat /sys/devices/system/memory/\$b/state)\" = offline ] || continue
			echo online_movable > /sys/devices/system/memory/\$b/state || exit 1
			echo \"online \$b\"
		done
		sleep 1
	done"
spawn cpuhotplug "while :; do
		c=\$((RANDOM % $((NODES * CPUS_PER_NODE - 1)) + 1))
		echo 0 > /sys/devices/system/cpu/cpu\$c/online || exit 1
		echo \"offline cpu\$c\"
		sleep \$((RANDOM % 3 + 1))
		echo 1 > /sys/devices/system/cpu/cpu\$c/online || exit 1
		echo \"online cpu\$c\"
		sleep 0.\$((RANDOM % 10))
	done"
spawn drain "while :; do
		sleep \$((RANDOM % 4 + 2))
		n=\$((RANDOM % $NODES))
		if insmod $LAB_MODULES/lab_drain.ko nid=\$n 2>/dev/null; then
			echo \"drained node \$n\"; sleep \$((RANDOM % 2 + 1)); rmmod lab_drain || exit 1
		else
			echo \"refused node \$n\"
		fi
	done"
FI=/sys/kernel/debug/fail_page_alloc
if [ -d $FI ]; then
	for kv in task-filter=Y probability=100 interval=1 times=1000000 \
		min-order=0 ignore-gfp-wait=N ignore-gfp-highmem=N verbose=0; do
		echo "${kv#*=}" > "$FI/${kv%%=*}"
	done
	for pid in $(pgrep '^kcompactd[0-9]+$'); do echo 1 > "/proc/$pid/make-it-fail"; done
	log "faults: fail_page_alloc fails every page allocation of $(pgrep -c '^kcompactd[0-9]+$') kcompactd threads"
fi
STRESSORS="heartbeat monotonic fragmenter hpalloc unmovable knob compact pressure memhotplug cpuhotplug drain"

# alive NAME: the stressor still runs (a loop that exited has failed)
alive() {
	local pid
	eval "pid=\$PID_$1"
	kill -0 "$pid" 2>/dev/null || fail "stressor $1 stopped: $(tail -3 "$OUT/stress-$1.log")"
}

knob_stopped() { [ "$(cut -d' ' -f3 "/proc/$PID_knob/stat")" = T ]; }

# group_stopped NAME: every process of a stressor's session has stopped
# (or exited, a zombie until its stopped parent reaps it)
group_stopped() {
	local pid
	eval "pid=\$PID_$1"
	! ps -o stat= -s "$pid" | grep -qv '^[TZ]'
}

# hold_modules / release_modules: trace-cmd extract reads /proc/kallsyms
# twice, for its size and its text, and fails when a module comes or goes
# in between; the module stressors stop (after their syscall) meanwhile.
hold_modules() {
	kill -STOP -- "-$PID_hpalloc" "-$PID_unmovable" "-$PID_drain"
	wait_until 60 group_stopped hpalloc
	wait_until 60 group_stopped unmovable
	wait_until 60 group_stopped drain
}
release_modules() {
	kill -CONT -- "-$PID_hpalloc" "-$PID_unmovable" "-$PID_drain"
}

# quiesce: no proactive event can happen until the knob is written again
quiesce() {
	kill -STOP "$PID_knob"
	wait_until 60 knob_stopped
	echo 0 > $knob
	wait_until 120 idle_twice
}

overruns() {
	cat $TRACEFS/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }'
}

start=$(cut -d. -f1 /proc/uptime)
end=$((start + STRESS_S))
windows=0 traced=0 checks=0 rounds=0 defers=0
log "running for ${STRESS_S}s and at least 2 traced windows"
# At least two traced windows, however slow the kernel: on the debug flavour
# quiescing and extracting can take minutes, and one window would not show
# tracing switched on again after it was off.
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ] || [ "$traced" -lt 2 ]; do
	windows=$((windows + 1))
	for s in $STRESSORS; do alive "$s"; done
	if [ $((windows % 2)) = 1 ]; then
		t=$(uptime_s); quiesce; q0=$(awk -v a="$t" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
		# shellcheck disable=SC2086 # one word per event
		trace_start -b 4096 $EVENTS
		snap /tmp/w0
		kill -CONT "$PID_knob"
		sleep "$STRESS_WINDOW_S"
		t=$(uptime_s); quiesce; q1=$(awk -v a="$t" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
		snap /tmp/w1
		lost=$(overruns)
		hold_modules
		trace_stop window
		release_modules
		kill -CONT "$PID_knob"
		expect_eq "window $windows: events lost in the ring buffer" "$lost" 0
		check_identities window /tmp/w0 /tmp/w1 > /dev/null
		traced=$((traced + 1))
		checks=$((checks + $(summary window checks)))
		rounds=$((rounds + $(summary window rounds)))
		defers=$((defers + $(summary window defers)))
		log "window $windows traced: $(summary window checks) checks, $(summary window rounds) rounds, $(summary window defers) defers; identities hold (quiesced in ${q0}s and ${q1}s; at $(uptime_s)s)"
	else
		sleep "$STRESS_WINDOW_S"
		log "window $windows untraced (at $(uptime_s)s)"
	fi
done
for s in $STRESSORS; do alive "$s"; done
gap=$(awk '{ t = $2; if (NR > 1 && t - last > max) max = t - last; last = t } END { printf "%d", max }' "$OUT/stress-heartbeat.log")
# 60 s: TCG's own stalls (see run-guest.sh, watchdog_thresh) reach 40 s.
[ "$gap" -le 60 ] || fail "the heartbeat stopped for ${gap}s"
log "done: $(($(cut -d. -f1 /proc/uptime) - start))s, $windows windows ($traced traced), heartbeat gap <= ${gap}s, counters never went down"
log "events in traced windows: $checks checks, $rounds rounds, $defers defers"
count() { grep -c "^$2" "$OUT/stress-$1.log" || :; }
log "memory hotplug: $(count memhotplug offline) blocks offlined ($(count memhotplug refused) refused), $(count memhotplug online) onlined"
log "cpu hotplug: $(count cpuhotplug offline) CPUs offlined, $(count cpuhotplug online) onlined"
log "drain: $(count drain drained) loads ($(count drain refused) refused)"
[ ! -d $FI ] || log "faults: $((1000000 - $(cat $FI/times))) page allocations of kcompactd failed"
grep -E "^(compact_daemon|compact_stall|compact_success|compact_fail|pgmigrate_success|pgscan_kswapd|thp_fault_alloc)" /proc/vmstat |
	sed 's/^/stress: /'
