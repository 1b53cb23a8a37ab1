# lab-guest: CPUS_PER_NODE=2
# lab-tags: series hotplug
# kcompactd is bound to its node's CPUs and runs proactive rounds while
# those CPUs go offline and online.  On a fragmented guest with 2 CPUs per
# node, pagecheck fills half of node 1's free memory (mbind) with
# checksummed pages and, eight times, fragments it and runs a cycle that
# puts node 1's CPUs in one of four states (cpu3 off, cpu2 off, both off:
# kcompactd1 then runs outside its node, all on), starts a round with a
# write of 100, takes the node's other CPU offline and back while the
# round may still run, and brings every CPU back.  Afterwards: every page
# verifies, the series' counters (in /proc/vmstat and per node, folded:
# a fold takes every online CPU's deltas, an offlined CPU's are folded when
# it goes) never went down between any two reads, the events and counters
# agree over the whole window, in total and per node, node 1 had a round
# in every cycle, kcompactd1 is bound to node 1's CPUs again, and (the
# runner's check) the console shows no splat.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
need_nodes 2

[ "$CPUS_PER_NODE" -ge 2 ] || fail "needs 2 CPUs per node (got $CPUS_PER_NODE)"
node1_cpus=$(cat /sys/devices/system/node/node1/cpulist)
expect_eq "node 1's CPUs" "$node1_cpus" 2-3

# cpu N 0|1: take cpuN offline, or bring it online
cpu() { echo "$2" > "/sys/devices/system/cpu/cpu$1/online" || fail "cpu$1 online=$2 refused"; }

# The cycle pagecheck runs after each fragmenting: cycle k puts node 1's
# CPUs in state k (cpu3 off, cpu2 off, both off: kcompactd1 then runs
# outside its node, all on), starts a round with a write of 100, takes
# the other CPU of the node offline and back while the round may still
# run, reads the counters, and brings every CPU back.
hotplug_cycle() {
	local k state
	k=$(($(cat /tmp/hp-n 2>/dev/null || echo 0) + 1))
	echo "$k" > /tmp/hp-n
	case $((k % 4)) in
	1) cpu 3 0; state="cpu3 off" ;;
	2) cpu 2 0; state="cpu2 off" ;;
	3) cpu 2 0; cpu 3 0; state="node 1 without CPUs" ;;
	0) state="all on" ;;
	esac
	set_proactiveness 100
	sleep 0.3
	[ "$((k % 4))" != 1 ] || { cpu 2 0; cpu 2 1; }
	[ "$((k % 4))" != 2 ] || { cpu 3 0; cpu 3 1; }
	sleep 1
	proactive_counters "/tmp/hp-v$(printf %04d "$k")"
	echo "cycle $k, $state: $(awk '$1 == "compact_daemon_proactive_round" { print "rounds", $2 }' "/tmp/hp-v$(printf %04d "$k")")"
	set_proactiveness 0
	for c in 2 3; do cpu "$c" 1; done
}

proactive_counters /tmp/hp-v0000
pagecheck_window hotplug 8 hotplug_cycle cpu

# The counters, read after every step: none ever went down
never_down /tmp/hp-v*

nr=$(node_summary hotplug 1 rounds) || nr=0
[ "$nr" -ge 8 ] || fail "node 1 had $nr proactive rounds in 8 cycles (all nodes: $(summary hotplug rounds))"
echo "ok: node 1: $nr rounds in 8 cycles, each CPU state twice (all nodes: $(summary hotplug rounds))"
pid=$(pgrep -x kcompactd1)
expect_eq "kcompactd1's CPUs after the CPUs came back" "$(awk '/^Cpus_allowed_list/ { print $2 }' "/proc/$pid/status")" 2-3
set_proactiveness 20
