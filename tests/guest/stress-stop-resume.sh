# lab-tags: runner slow
# make stress's module stressors (tests/lib/stressors.sh: hpalloc,
# unmovable, drain) are safe to stop and resume, and wait while the
# modules are held.  The three run at once, as in make stress, so that
# their loads and unloads contend for module_mutex: a stop that reaches a
# load or unload waiting for it ends it with EINTR, which used to kill the
# stressor ("rmmod: ... Interrupted system call").
#  0. A load stopped while it waits for another: while a first insmod of
#     lab_unmovable stays in its init (init_delay_ms), module_load (as
#     the stressors load) of the same file waits for it, interruptibly.
#     Kernels since 6.4 wait in finit_module() for a load of the same
#     inode (so both load one copy in the guest's /tmp: on 6.12, two
#     loads of one file on the 9p share did not meet there), and a stop
#     ends that wait with EINTR: resumed, module_load says "interrupted".
#     6.1 waits only for the module's name, in load_module(), and a stop
#     there restarts the call.  Either way, resumed once the first load
#     is over and unloaded, module_load loads the module with its own
#     parameter.
#  1. Over and over, the three process groups are stopped (SIGSTOP), left
#     stopped 0.2 s once all their processes are seen stopped, and resumed
#     (SIGCONT) for 0.1-0.4 s.  A stop has landed in a load or an unload
#     when the stopped group has an insmod or rmmod: until 30 have, at
#     least 5 of them in each.
#  2. Three times, modules_hold holds the modules for 2 s, and the
#     stressors are stopped and resumed meanwhile: no module comes or goes
#     (/proc/modules), and the stressors wait instead of failing.
# Throughout, no stressor fails or ends; afterwards each has gone on
# loading and unloading, stressor_stop ends each after its unload, no lab
# module is left loaded, and no stressor's log has a FAIL line.  How many
# calls came back interrupted and were tried again is reported: it depends
# on timing.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
# shellcheck source=tests/lib/stressors.sh
. /lab/tests/lib/stressors.sh

STOPS=30
trap stressor_kill EXIT

# alive: every stressor still runs; else fails with the reason it gave
alive() {
	local name rc
	for name in "${!STRESSOR_PID[@]}"; do
		stressor_ended "$name" || continue
		rc=0
		wait "${STRESSOR_PID[$name]}" || rc=$?
		fail "stressor $name: $(stressor_why "$name" "$rc")"
	done
}

# group_stopped SID: every process of the session has stopped (or exited)
group_stopped() { ! ps -o stat= -s "$1" | grep -qv '^[TZ]'; }

# waiting_load SID: the session's insmod sleeps in the module loader,
# where it sleeps left in /tmp/load-wchan
waiting_load() {
	local pid
	pid=$(pgrep -s "$1" -x insmod) || return 1
	[ "$(cut -d' ' -f3 "/proc/$pid/stat")" = S ] || return 1
	cat "/proc/$pid/wchan" > /tmp/load-wchan
	grep -qE 'finit_module|idempotent|load_module|add_unformed_module|module_patient' /tmp/load-wchan
}

# all_stopped: every process of the stressors' sessions has stopped (or
# exited: a zombie until its stopped parent reaps it); their "SID STAT
# COMM" in /tmp/stopped
all_stopped() {
	ps -eo sid=,stat=,comm= | awk -v s=" ${STRESSOR_PID[*]} " 'index(s, " " $1 " ")' > /tmp/stopped
	! awk '$2 !~ /^[TZ]/' /tmp/stopped | grep -q .
}

# iterations NAME: the loads and unloads a stressor has done, as its log
# says (a burst: one of each; a drain: one of each, or a refused load)
iterations() {
	case $1 in
	hpalloc) grep -c '^burst' "$OUT/stress-hpalloc.log" || : ;;
	unmovable) grep -c '^unloaded' "$OUT/stress-unmovable.log" || : ;;
	drain) grep -cE '^(drained|refused) ' "$OUT/stress-drain.log" || : ;;
	esac
}

# went_on: every stressor has done more loads and unloads than before the
# holds
went_on() {
	local name
	for name in "${!done_before[@]}"; do
		[ "$(iterations "$name")" -gt "${done_before[$name]}" ] || return 1
	done
}

# 0. The load a stop interrupts: a first load that stays 30 s in its init
mkdir -p /tmp/modules
cp "$LAB_MODULES/lab_unmovable.ko" /tmp/modules/
insmod /tmp/modules/lab_unmovable.ko percent=25 init_delay_ms=30000 & first=$!
wait_until 20 test -e /sys/module/lab_unmovable
LAB_MODULES=/tmp/modules setsid bash /lab/tests/lib/call.sh module_load lab_unmovable percent=5 \
	> "$OUT/interrupted-load.log" 2>&1 &
second=$!
wait_until 20 waiting_load "$second"
wchan=$(cat /tmp/load-wchan)
echo "the second load waits in $wchan"
kill -STOP -- "-$second"
wait_until 30 group_stopped "$second"
kill -0 "$first" 2>/dev/null || fail "the first load ended before the second was stopped in its wait"
wait "$first" || fail "insmod lab_unmovable percent=25 failed"
rmmod lab_unmovable
kill -CONT -- "-$second"
rc=0
wait "$second" || rc=$?
cat "$OUT/interrupted-load.log"
expect_eq "module_load, stopped in its wait and resumed: status" "$rc" 0
case $wchan in
*finit_module* | *idempotent*)
	grep -q '^interrupted: ' "$OUT/interrupted-load.log" ||
		fail "the stop did not interrupt the load waiting in $wchan"
	echo "ok: the stop ended the wait in $wchan with EINTR, and the load was tried again" ;;
*)
	echo "ok: the stop restarted the load waiting in $wchan" ;;
esac
expect_eq "lab_unmovable's percent after the interrupted load" "$(cat /sys/module/lab_unmovable/parameters/percent)" 5
rmmod lab_unmovable

stressor_start hpalloc unmovable drain

# 1. Stops that land in a load or an unload
declare -A landed=([insmod]=0 [rmmod]=0)
sent=0
end=$((SECONDS + 200))
while [ $((landed[insmod] + landed[rmmod])) -lt "$STOPS" ] || [ "${landed[insmod]}" -lt 5 ] || [ "${landed[rmmod]}" -lt 5 ]; do
	[ "$SECONDS" -lt "$end" ] ||
		fail "in 200 s, $sent stops of the three, and only ${landed[insmod]} landed in an insmod and ${landed[rmmod]} in an rmmod (want $STOPS, at least 5 each)"
	alive
	for sid in "${STRESSOR_PID[@]}"; do kill -STOP -- "-$sid"; done
	sent=$((sent + 1))
	wait_until 30 all_stopped
	for c in insmod rmmod; do
		landed[$c]=$((landed[$c] + $(awk -v c="$c" '$3 == c' /tmp/stopped | wc -l)))
	done
	sleep 0.2
	for sid in "${STRESSOR_PID[@]}"; do kill -CONT -- "-$sid"; done
	sleep "0.$((RANDOM % 4 + 1))"
done
echo "ok: $((landed[insmod] + landed[rmmod])) stops landed in a module load or unload (insmod ${landed[insmod]}, rmmod ${landed[rmmod]}), in $sent stops of the three"
declare -A done_before
for name in "${!STRESSOR_PID[@]}"; do done_before[$name]=$(iterations "$name"); done

# 2. The modules held, the stressors stopped and resumed meanwhile
for i in 1 2 3; do
	alive
	modules_hold 60
	before=$(cut -d' ' -f1 /proc/modules | sort | paste -sd' ')
	for name in "${!STRESSOR_PID[@]}"; do kill -STOP -- "-${STRESSOR_PID[$name]}"; done
	sleep 1
	for name in "${!STRESSOR_PID[@]}"; do kill -CONT -- "-${STRESSOR_PID[$name]}"; done
	sleep 1
	after=$(cut -d' ' -f1 /proc/modules | sort | paste -sd' ')
	modules_release
	expect_eq "hold $i: the modules loaded after 2 s held" "$after" "$before"
	sleep 2
done
alive

# Afterwards: they went on, and end after their unloads
wait_until 120 went_on
for name in "${!STRESSOR_PID[@]}"; do
	echo "ok: $name: $(iterations "$name") loads and unloads in all, $((done_before[$name])) before the holds"
done
stressor_stop 120 hpalloc unmovable drain
loaded=$(grep -o '^lab_[a-z]*' /proc/modules | paste -sd' ' || :)
expect_eq "lab modules loaded after the stressors stopped" "$loaded" ""
! grep '^FAIL' "$OUT"/stress-*.log || fail "a stressor logged a failure (above)"
echo "ok: no stressor failed"
echo "calls of the stressors that a stop interrupted, tried again: $(cat "$OUT"/stress-*.log | grep -c '^interrupted: ' || :)"
grep -h '^interrupted: ' "$OUT"/stress-*.log | sort | uniq -c | head || :
