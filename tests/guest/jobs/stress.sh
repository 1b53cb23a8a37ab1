# lab-guest: CPUS_PER_NODE=2 DIMM_PER_NODE=512
# lab-env: STRESS_S STRESS_WINDOW_S
# lab-timeout: STRESS_S + 2 * STRESS_WINDOW_S + TIMEOUT
# make stress, in the guest (bash, a guest job): everything that
# drives compaction at once for STRESS_S seconds, with checks all along.
#
# Stressors (tests/lib/stressors.sh), each a loop in its own process group:
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
#   stressors    none fails or ends: the first that does ends the job at
#                once, with one line "FAIL: stressor NAME: why" (the other
#                stressors are killed, and the guest powers off)
#   heartbeat    a line every 2 s; at the end no gap may exceed 60 s
#   monotonic    every compact_daemon_proactive_* counter, in /proc/vmstat
#                and per node, sampled twice a second, never goes down
#   windows      alternately STRESS_WINDOW_S with the proactive events
#                traced and STRESS_WINDOW_S untraced, at least 2 traced; a
#                traced window starts and ends quiescent (the knob writer
#                stopped, proactiveness 0, both kcompactd idle) so that its
#                events must equal the counters' deltas exactly, in total
#                and per node (check_identities, while the next window runs,
#                or at the end), and the ring buffer must lose nothing
#   modules      at the end the module stressors stop after their unload,
#                and no lab module is left loaded
# A splat, a hang or a failed check fails the run (run-guest.sh's verdict).
#
# Stops: only the knob writer is stopped (SIGSTOP, while a traced window
# begins and ends).  While trace-cmd extract reads /proc/kallsyms (twice:
# for its size and its text, failing when a module came or went in
# between), module loads and unloads wait on a lock (modules_hold) instead
# of being stopped; a stressor's load, unload or offline that a stop
# interrupts anyway is tried again (guest/stress-stop-resume tests that).
#
# Time, the guest's uptime from the job's start: the stressors run for
# STRESS_S, and the windows end with it: an untraced window is cut short
# there, and a traced window (STRESS_WINDOW_S, plus quiescing and saving
# it: "its length") starts only when one of the last one's length still
# ends by then; except that until 2 were traced, a traced window comes
# next whenever the time left could not hold an untraced window and the
# traced ones missing, and these may run past STRESS_S.  The whole job,
# its checks at the end included, takes at most
#   BOUND = STRESS_S + 2 x STRESS_WINDOW_S + 60 s.
# No wait goes past BOUND - TAIL (TAIL = 30 s, kept for the end).  When
# the two traced windows do not fit: before a traced window still needed,
# if the ones missing would end after BOUND - TAIL even at the shortest
# traced window's length so far (at most STRESS_WINDOW_S + 30 s), the job
# fails at once, saying so with the numbers (a longer STRESS_S makes
# room); if a window started runs past BOUND - TAIL (a TCG stall, a slow
# kernel), the job fails at its next wait or step, "guest time bound:
# ..." with the numbers.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
# shellcheck source=tests/lib/stressors.sh
. /lab/tests/lib/stressors.sh

: "${STRESS_S:?}" "${STRESS_WINDOW_S:?}"
W=$STRESS_WINDOW_S
log() { echo "stress: $*"; }
now() { cut -d. -f1 /proc/uptime; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
EVENTS="mm_compaction_proactive_check mm_compaction_proactive_end mm_compaction_wakeup_kcompactd"
STRESSORS="heartbeat monotonic fragmenter hpalloc unmovable knob compact pressure memhotplug cpuhotplug drain"
MODULE_STRESSORS="hpalloc unmovable drain"

START=$(now)
END=$((START + STRESS_S))
BOUND=$((START + STRESS_S + 2 * W + 60))
TAIL=30
LIMIT=$((BOUND - TAIL))

# over WHAT: fail, the bound being reached while doing WHAT
over() {
	fail "guest time bound: $* at $(($(now) - START))s, past $((LIMIT - START))s (STRESS_S + 2 x STRESS_WINDOW_S + 60 = $((BOUND - START))s, less ${TAIL}s for the end)"
}
# left MAX: MAX seconds, or fewer if LIMIT comes first (0 or less: past it)
left() {
	local l=$((LIMIT - $(now)))
	echo $((l < $1 ? l : $1))
}
# await SECONDS COMMAND...: wait_until, in guest time and never past LIMIT
await() {
	local end=$(($(now) + $1))
	shift
	until "$@"; do
		[ "$(now)" -lt "$end" ] || fail "timed out waiting for: $*"
		[ "$(now)" -lt "$LIMIT" ] || over "waiting for: $*"
		sleep 0.2
	done
}

knob_stopped() { [ "$(cut -d' ' -f3 "/proc/${STRESSOR_PID[knob]}/stat")" = T ]; }

# quiesce: no proactive event can happen until the knob is written again
quiesce() {
	kill -STOP "${STRESSOR_PID[knob]}"
	await 60 knob_stopped
	echo 0 > "$KNOB_FILE"
	await 120 idle_twice
}

overruns() {
	cat "$TRACEFS"/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }'
}

# traced_window K: window K, traced, in $OUT/window-K.dat, the counters
# around it in /tmp/window-K.before and .after
traced_window() {
	local k=$1 t q0 q1 lost s
	t=$(uptime_s); quiesce; q0=$(awk -v a="$t" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
	# shellcheck disable=SC2086 # one word per event
	trace_start -b 4096 $EVENTS
	snap "/tmp/window-$k.before"
	kill -CONT "${STRESSOR_PID[knob]}"
	s=$(left "$W")
	[ "$s" -gt 0 ] || over "tracing window $k"
	sleep "$s"
	t=$(uptime_s); quiesce; q1=$(awk -v a="$t" -v b="$(uptime_s)" 'BEGIN { printf "%.1f", b - a }')
	snap "/tmp/window-$k.after"
	lost=$(overruns)
	s=$(left 60)
	[ "$s" -gt 0 ] || over "saving window $k"
	modules_hold "$s"
	trace_stop "window-$k"
	modules_release
	kill -CONT "${STRESSOR_PID[knob]}"
	expect_eq "window $k: events lost in the ring buffer" "$lost" 0
	[ "$(now)" -le "$LIMIT" ] || over "saving window $k"
	log "window $k traced (quiesced in ${q0}s and ${q1}s; at $(uptime_s)s)"
}

# check_window K: the events of traced window K equal the counters' deltas
# (check_identities; its lines in $OUT/window-K.identities);
# /tmp/window-K.checked once they do
check_window() {
	( check_identities "window-$1" "/tmp/window-$1.before" "/tmp/window-$1.after" ) > "$OUT/window-$1.identities" ||
		fail "window $1: $(sed -n 's/^FAIL: //p' "$OUT/window-$1.identities" | head -1)"
	log "window $1: $(summary "window-$1" checks) checks, $(summary "window-$1" rounds) rounds, $(summary "window-$1" defers) defers; identities hold"
	touch "/tmp/window-$1.checked"
}

# drive: the windows (see the top); in the background, while the job
# watches the stressors.  A traced window's check runs during the window
# after it, unless that is the last and shorter than STRESS_WINDOW_S: then
# it is left to the end, when the stressors have stopped.
drive() {
	local k=0 traced=0 last=untraced cost=$((W + 30)) fit=$((W + 30)) t need kind len checker=
	log "running for ${STRESS_S}s and at least 2 traced windows, in at most $((BOUND - START))s"
	while t=$(now); [ "$t" -lt "$END" ] || [ "$traced" -lt 2 ]; do
		k=$((k + 1))
		need=$((traced < 2 ? 2 - traced : 0))
		kind=untraced
		if [ "$need" -gt 0 ]; then
			[ "$last" = traced ] && [ $((END - t)) -ge $((W + need * cost)) ] || kind=traced
		elif [ "$last" = untraced ] && [ $((t + cost)) -le "$END" ]; then
			kind=traced
		fi
		if [ "$kind" = traced ]; then
			[ $((t + need * fit)) -le "$LIMIT" ] ||
				fail "the 2 traced windows do not fit in the guest time bound: at $((t - START))s, with $traced traced, the $need still missing would end at $((t + need * fit - START))s at the least (${fit}s each: the shortest traced window so far, at most STRESS_WINDOW_S + 30 s), past $((LIMIT - START))s (STRESS_S + 2 x STRESS_WINDOW_S + 60 = $((BOUND - START))s, less ${TAIL}s for the end); a longer STRESS_S makes room"
			traced_window "$k"
			cost=$(($(now) - t))
			[ "$cost" -ge "$fit" ] || fit=$cost
			traced=$((traced + 1))
			echo "$k" >> /tmp/windows-traced
			if [ -n "$checker" ]; then wait "$checker" || exit 1; checker=; fi
			if [ $(($(now) + W)) -le "$END" ] || [ "$traced" -lt 2 ]; then
				check_window "$k" & checker=$!
			fi
		else
			len=$((END - t < W ? END - t : W))
			sleep "$len"
			if [ -n "$checker" ]; then wait "$checker" || exit 1; checker=; fi
			log "window $k untraced, ${len}s (at $(uptime_s)s)"
		fi
		last=$kind
	done
	echo "$k" > /tmp/windows
}

for n in $(mem_nodes); do
	[ -n "$(hotplug_blocks "$n")" ] || fail "node $n has no hot-pluggable memory (DIMM_PER_NODE=$DIMM_PER_NODE)"
done
DRIVER=
trap '[ -z "$DRIVER" ] || kill "$DRIVER" 2>/dev/null; stressor_kill' EXIT
# shellcheck disable=SC2086 # one word per stressor
stressor_start $STRESSORS
if fpa_present; then
	# shellcheck disable=SC2046 # one word per pid
	fpa_arm $(pgrep '^kcompactd[0-9]+$')
	log "faults: fail_page_alloc fails every page allocation of $(pgrep -c '^kcompactd[0-9]+$') kcompactd threads"
fi

# The windows run in the background; the job waits for them or for the
# first stressor to end, whichever comes first (wait -n: a stressor that
# is stopped does not end the wait).
drive & DRIVER=$!
rc=0
wait -n -p ended "$DRIVER" "${STRESSOR_PID[@]}" || rc=$?
if [ "$ended" != "$DRIVER" ]; then
	name=$(stressor_name "$ended") || name="pid $ended"
	fail "stressor $name: $(stressor_why "$name" "$rc")"
fi
DRIVER=
[ "$rc" = 0 ] || exit "$rc"
stress_s=$(($(now) - START))
for name in "${!STRESSOR_PID[@]}"; do
	if stressor_ended "$name"; then
		rc=0
		wait "${STRESSOR_PID[$name]}" || rc=$?
		fail "stressor $name: $(stressor_why "$name" "$rc")"
	fi
done

# The end: the module stressors after their unload, the others at once;
# then the traced windows not checked yet, now that the guest is quiet
s=$(left 60)
[ "$s" -gt 0 ] || over "stopping the module stressors"
# shellcheck disable=SC2086 # one word per stressor
stressor_stop "$s" $MODULE_STRESSORS
loaded=$(grep -o '^lab_[a-z]*' /proc/modules | paste -sd' ' || :)
[ -z "$loaded" ] || fail "modules left loaded after the module stressors stopped: $loaded"
echo "ok: the module stressors stopped, no lab module loaded"
stressor_kill
traced=0 checks=0 rounds=0 defers=0
for k in $(cat /tmp/windows-traced); do
	[ -e "/tmp/window-$k.checked" ] || check_window "$k"
	traced=$((traced + 1))
	checks=$((checks + $(summary "window-$k" checks)))
	rounds=$((rounds + $(summary "window-$k" rounds)))
	defers=$((defers + $(summary "window-$k" defers)))
done
gap=$(awk '{ t = $2; if (NR > 1 && t - last > max) max = t - last; last = t } END { printf "%d", max }' "$OUT/stress-heartbeat.log")
# 60 s: TCG's own stalls (see run-guest.sh, watchdog_thresh) reach 40 s.
[ "$gap" -le 60 ] || fail "the heartbeat stopped for ${gap}s"
took=$(($(now) - START))
[ "$took" -le $((BOUND - START)) ] || fail "guest time bound: the job took ${took}s, more than $((BOUND - START))s (STRESS_S + 2 x STRESS_WINDOW_S + 60)"
log "done: ${stress_s}s of stress, $(cat /tmp/windows) windows ($traced traced), heartbeat gap <= ${gap}s, counters never went down; guest time ${took}s (bound $((BOUND - START))s)"
log "events in traced windows: $checks checks, $rounds rounds, $defers defers"
count() { grep -c "^$2" "$OUT/stress-$1.log" || :; }
log "memory hotplug: $(count memhotplug offline) blocks offlined ($(count memhotplug refused) refused), $(count memhotplug online) onlined"
log "cpu hotplug: $(count cpuhotplug offline) CPUs offlined, $(count cpuhotplug online) onlined"
log "drain: $(count drain drained) loads ($(count drain refused) refused)"
log "modules: $(count hpalloc burst) lab_hpalloc bursts, $(count unmovable unloaded) lab_unmovable loads"
log "calls interrupted and tried again: $(cat "$OUT"/stress-*.log | grep -c '^interrupted: ' || :)"
! fpa_present || log "faults: $(fpa_injected) page allocations of kcompactd failed"
grep -E "^(compact_daemon|compact_stall|compact_success|compact_fail|pgmigrate_success|pgscan_kswapd|thp_fault_alloc)" /proc/vmstat |
	sed 's/^/stress: /'
