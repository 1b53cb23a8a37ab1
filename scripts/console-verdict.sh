#!/bin/sh
# Read a guest's console log and decide whether the kernel complained.
# Prints the first offending kernel line and exits 1; exits 0 on a clean log.
#
# Only kernel messages count (they carry the printk timestamp, "[    1.234567]",
# which may follow a test's unterminated output on the same line), so a test
# that echoes the word WARNING does not fail itself.
#
# usage: console-verdict.sh CONSOLE_LOG
set -eu

log=$1
[ -r "$log" ] || { echo "no console log $log"; exit 1; }

# One pattern per kind of splat the runner must never let pass.
patterns='Kernel panic - not syncing
Oops:
general protection fault
kernel BUG at
BUG:
WARNING:
UBSAN:
INFO: task .* blocked for more than
INFO: rcu
rcu: INFO:
INFO: trying to register non-static key
watchdog: Watchdog detected hard LOCKUP
page allocation failure'

alt=$(printf '%s\n' "$patterns" | paste -sd'|' -)
hit=$(tr -d '\r' < "$log" | grep -m1 -E "\[ *[0-9]+\.[0-9]+\] .*($alt)" || true)
if [ -n "$hit" ]; then
	echo "kernel: $(echo "$hit" | sed 's/^.*\[ *[0-9]*\.[0-9]*\] //')"
	exit 1
fi
exit 0
