# lab-tags: runner
# console-verdict.sh on fixture logs: a clean boot and a test that prints
# WARNING on its own pass; each kind of kernel splat fails with its line.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

fx=$top/tests/host/fixtures
for log in console-clean console-test-says-warning; do
	v=$("$scripts/console-verdict.sh" "$fx/$log.log") || fail "$log: flagged as '$v'"
	echo "ok: $log passes"
done

# fixture:the line the verdict must quote
while IFS=: read -r log want; do
	if v=$("$scripts/console-verdict.sh" "$fx/$log.log"); then
		fail "$log: passed"
	fi
	[ "$v" = "kernel: $want" ] || fail "$log: verdict '$v', want 'kernel: $want'"
	echo "ok: $log fails with '$want'"
done <<'EOF_CASES'
console-warn:WARNING: CPU: 0 PID: 66 at /lab/build/kbuild-base/lab-modules/src/lab_warn/lab_warn.c:12 lab_warn_init+0xc/0x1000 [lab_warn]
console-lockdep:WARNING: possible circular locking dependency detected
console-kasan:BUG: KASAN: use-after-free in isolate_migratepages_block+0x1a2/0x1330
console-softlockup:watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [kcompactd1:32]
console-hung-task:INFO: task trace-cmd:181 blocked for more than 120 seconds.
console-rcu-stall:rcu: INFO: rcu_sched self-detected stall on CPU
console-oops:BUG: kernel NULL pointer dereference, address: 0000000000000008
EOF_CASES

"$scripts/console-verdict.sh" "$fx/no-such.log" >/dev/null && fail "a missing log passed"
echo "ok: a missing log fails"
