#!/bin/bash
# The stressors of make stress (tests/guest/jobs/stress.sh), which
# guest/stress-stop-resume also runs (bash, sourced after guest.sh).  Each
# is a function, stressor_NAME: a loop that stressor_start runs as "bash
# stressors.sh NAME" in a session, so a process group, of its own, its
# output in $OUT/stress-NAME.log.  A stressor runs until it fails, its
# last line then "FAIL: why" (see stressor_why), or until stressor_stop
# asks it to end: after its iteration, with status 0.
#
# A stressor may be stopped (SIGSTOP) and resumed (SIGCONT) at any time.
# A stop ends some of the kernel's interruptible waits with EINTR rather
# than restarting them once resumed: a module load or unload (see
# module_load in guest.sh) and a memory block's offline (offline_pages()
# backs off on any signal).  Those calls are tried again, and say
# "interrupted: ..."; an interrupted call is never a failure.

STRESSORS_LIB=/lab/tests/lib/stressors.sh
MEMORY_SYSFS=/sys/devices/system/memory
declare -gA STRESSOR_PID=()

# ---- The stressors

# heartbeat: a line with the uptime every 2 s
stressor_heartbeat() {
	while stressor_running; do
		echo "heartbeat $(cut -d' ' -f1 /proc/uptime)"
		sleep 2
	done
}

# monotonic: every compact_daemon_proactive_* counter, in /proc/vmstat
# and per node, read twice a second, never goes down (unfolded reads:
# they lag, but every update adds)
stressor_monotonic() {
	local down
	monotonic_read > /tmp/mono.0
	while stressor_running; do
		sleep 0.5
		monotonic_read > /tmp/mono.1
		down=$(awk 'FNR == NR { old[$1] = $2; next } $2 < old[$1] { print $1, old[$1], "->", $2; bad = 1 }
			END { exit bad }' /tmp/mono.0 /tmp/mono.1) || fail "went down: $down"
		mv /tmp/mono.1 /tmp/mono.0
	done
}
monotonic_read() {
	grep -H '^compact_daemon_proactive_' /proc/vmstat "$NODE_SYSFS"/node[0-9]*/vmstat |
		tr ':' ' ' | awk '{ print $1 ":" $2, $3 }'
}

# fragmenter: fragment 60% of free memory, hold it 3-8 s, free it
stressor_fragmenter() {
	local f
	while stressor_running; do
		rm -f /tmp/stress-frag
		"$LAB_BIN/fragmenter" --percent 60 --hold --ready /tmp/stress-frag &
		f=$!
		for _ in $(seq 300); do
			[ ! -e /tmp/stress-frag ] || break
			sleep 0.2
		done
		sleep $((RANDOM % 6 + 3))
		kill "$f" 2>/dev/null || :
		wait "$f" || :
	done
}

# hpalloc: load lab_hpalloc, allocate a burst of 32 huge pages, unload
stressor_hpalloc() {
	while stressor_running; do
		hpalloc_load
		hpalloc_run 32 || fail "a burst of 32 huge pages failed"
		hpalloc_unload
		echo "burst"
		sleep "0.$((RANDOM % 10))"
	done
}

# unmovable: load lab_unmovable (5% of memory, unmovable) for 1-3 s
stressor_unmovable() {
	while stressor_running; do
		module_load lab_unmovable percent=5 || fail "insmod lab_unmovable failed"
		echo "loaded"
		sleep $((RANDOM % 3 + 1))
		module_unload lab_unmovable || fail "rmmod lab_unmovable failed"
		echo "unloaded"
		sleep 1
	done
}

# knob: random proactiveness writes, 0 and 100 a quarter of the time each.
# A single process writing with a builtin, so that stopping it is exact.
stressor_knob() {
	local v
	while stressor_running; do
		case $((RANDOM % 4)) in
		0) v=0 ;;
		1) v=100 ;;
		*) v=$((RANDOM % 101)) ;;
		esac
		echo "$v" > "$KNOB_FILE"
		sleep "0.$((RANDOM % 10))"
	done
}

# compact: write compact_memory every 2-6 s
stressor_compact() {
	while stressor_running; do
		sleep $((RANDOM % 5 + 2))
		echo 1 > /proc/sys/vm/compact_memory || :
	done
}

# pressure: stream the disk (/dev/vda) through the page cache: kswapd runs
stressor_pressure() {
	while stressor_running; do
		cat /dev/vda > /dev/null || :
	done
}

# memhotplug: offline one hot-pluggable memory block of a node, or (one
# time in four) all of the node's DIMM, for 1-3 s, then online it movable.
# An offline the kernel refuses or that has not ended in 120 s is counted
# as refused ("refused memoryN"); a refused online is a failure.
stressor_memhotplug() {
	local n b blocks
	for n in $(mem_nodes); do
		hotplug_blocks "$n" > "/tmp/stress-blocks$n"
	done
	while stressor_running; do
		n=$((RANDOM % NODES))
		if [ $((RANDOM % 4)) = 0 ]; then
			mapfile -t blocks < "/tmp/stress-blocks$n"
		else
			mapfile -t blocks < <(shuf -n 1 "/tmp/stress-blocks$n")
		fi
		for b in "${blocks[@]}"; do
			if block_offline "$b"; then echo "offline $b"; else echo "refused $b"; fi
		done
		sleep $((RANDOM % 3 + 1))
		for b in "${blocks[@]}"; do
			[ "$(cat "$MEMORY_SYSFS/$b/state")" = offline ] || continue
			eintr_retry write online_movable "$MEMORY_SYSFS/$b/state" || fail "$b: online_movable refused"
			echo "online $b"
		done
		sleep 1
	done
}
# block_offline BLOCK: offline a memory block, within 120 s; an offline
# that a stop interrupted is tried again
block_offline() {
	local end=$((SECONDS + 120)) err
	while [ "$SECONDS" -lt "$end" ]; do
		err=$(echo offline | timeout --foreground $((end - SECONDS)) tee "$MEMORY_SYSFS/$1/state" 2>&1 > /dev/null) &&
			return 0
		case $err in
		*"Interrupted system call"*) echo "interrupted: offline $1" ;;
		*) return 1 ;;
		esac
	done
	return 1
}

# cpuhotplug: take a CPU other than cpu0 offline for 1-3 s
stressor_cpuhotplug() {
	local c
	while stressor_running; do
		c=$((RANDOM % (NODES * CPUS_PER_NODE - 1) + 1))
		eintr_retry write 0 "/sys/devices/system/cpu/cpu$c/online" || fail "cpu$c: offline refused"
		echo "offline cpu$c"
		sleep $((RANDOM % 3 + 1))
		eintr_retry write 1 "/sys/devices/system/cpu/cpu$c/online" || fail "cpu$c: online refused"
		echo "online cpu$c"
		sleep "0.$((RANDOM % 10))"
	done
}

# drain: load lab_drain on a node for 1-2 s: the node's free memory below
# its min watermark, so that its rounds run out of free target pages
# (aborted).  A load that finds nothing to give back fails: "refused".
stressor_drain() {
	local n
	while stressor_running; do
		sleep $((RANDOM % 4 + 2))
		n=$((RANDOM % NODES))
		if module_load lab_drain "nid=$n"; then
			echo "drained node $n"
			sleep $((RANDOM % 2 + 1))
			module_unload lab_drain || fail "rmmod lab_drain failed"
		else
			echo "refused node $n"
		fi
	done
}

# write VALUE FILE: write VALUE into FILE (for eintr_retry)
write() {
	echo "$1" > "$2"
}

# ---- Running them

# stressor_running: in a stressor, whether it may begin another iteration
stressor_running() {
	[ ! -e "/tmp/stressor-$STRESSOR.stop" ]
}

# stressor_start NAME...: start the stressors, each in a session of its own
# (setsid: the job's background child is no process group leader, so
# setsid does not fork); a stressor's pid, which is its process group's,
# in STRESSOR_PID[NAME].  Returns once each leads its session.
stressor_start() {
	local name
	for name; do
		declare -F "stressor_$name" > /dev/null || fail "no stressor '$name'"
		rm -f "/tmp/stressor-$name.stop"
		setsid bash "$STRESSORS_LIB" "$name" > "$OUT/stress-$name.log" 2>&1 &
		STRESSOR_PID[$name]=$!
	done
	for name; do wait_until 30 session_leader "${STRESSOR_PID[$name]}"; done
}
# session_leader PID: PID leads its session
session_leader() { [ "$(cut -d' ' -f6 "/proc/$1/stat")" = "$1" ]; }

# stressor_name PID: the stressor whose pid is PID
stressor_name() {
	local name
	for name in "${!STRESSOR_PID[@]}"; do
		[ "${STRESSOR_PID[$name]}" != "$1" ] || { echo "$name"; return; }
	done
	return 1
}

# stressor_why NAME STATUS: why a stressor ended, from its log: its FAIL
# line (and the line before, often the failed command's error), else its
# exit status and last line
stressor_why() {
	local log=$OUT/stress-$1.log why before
	why=$(grep '^FAIL: ' "$log" | tail -1)
	if [ -n "$why" ]; then
		before=$(grep -B1 '^FAIL: ' "$log" | tail -2 | head -1)
		[ "$before" = "$why" ] || why="$why ($before)"
		echo "${why#FAIL: }"
	else
		echo "exited with status $2: $(tail -1 "$log")"
	fi
}

# stressor_stop SECONDS NAME...: ask the stressors to end after their
# iteration, and wait at most SECONDS for them; fails naming one that
# failed, or that has not ended
stressor_stop() {
	local max=$1 name rc
	shift
	for name; do touch "/tmp/stressor-$name.stop"; done
	for name; do
		wait_until "$max" stressor_ended "$name"
		rc=0
		wait "${STRESSOR_PID[$name]}" || rc=$?
		[ "$rc" = 0 ] || fail "stressor $name: $(stressor_why "$name" "$rc")"
		unset "STRESSOR_PID[$name]"
	done
}
stressor_ended() { ! kill -0 "${STRESSOR_PID[$1]}" 2>/dev/null; }

# stressor_kill: end every stressor still running, at once: its whole
# process group, resumed first in case it was stopped
stressor_kill() {
	local name pid
	for name in "${!STRESSOR_PID[@]}"; do
		pid=${STRESSOR_PID[$name]}
		kill -CONT -- "-$pid" 2>/dev/null || :
		kill -- "-$pid" 2>/dev/null || :
		wait "$pid" 2>/dev/null || :
		unset "STRESSOR_PID[$name]"
	done
}

# As a command, "bash stressors.sh NAME" (stressor_start): stressor NAME.
# Its reason for failing is the job's to give (stressor_why), not its own
# to leave in the job's WHY_FILE.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	# shellcheck source=tests/lib/guest.sh
	. /lab/tests/lib/guest.sh
	WHY_FILE=
	STRESSOR=$1
	"stressor_$STRESSOR"
fi
