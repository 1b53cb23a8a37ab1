# lab-guest: DIMM_PER_NODE=512
# lab-tags: series hotplug slow
# Memory goes offline and online under proactive rounds.  Each node has a
# hot-pluggable DIMM, onlined into ZONE_MOVABLE, of 4 memory blocks.
# pagecheck fills half of node 1's free memory (mbind) with checksummed
# pages and, eight times, fragments it and runs a cycle that starts a round
# with a write of 100 and, while the round may run, offlines one of four
# sets of blocks: one block of node 1; all of node 1's DIMM (its
# ZONE_MOVABLE empties, so the node's score loses a zone); one block of each
# node; all of node 0's DIMM.  The blocks come back online (movable) at the
# end of the cycle.  Meanwhile a reader loops on every node's vmstat
# (/sys/devices/system/node/nodeN/vmstat), checking each read for the
# series' counters of every node, none lower than at the read before.
# Afterwards: every page verifies, every offline and online succeeded,
# emptied zones were empty and came back whole, the series' counters (in
# /proc/vmstat and per node, folded) never went down between any two reads,
# the events and counters agree over the whole window, in total and per
# node, node 1 had a round in every cycle, the reader never failed, and
# (the runner's check) the console shows no splat.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
need_nodes 2

[ "$DIMM_PER_NODE" -gt 0 ] || fail "needs hot-pluggable memory (DIMM_PER_NODE, got 0)"
# Each node's hot-pluggable blocks, in /tmp/mh-blocksN.
for n in $(mem_nodes); do
	hotplug_blocks "$n" > "/tmp/mh-blocks$n"
	expect_eq "node $n's hot-pluggable blocks" \
		"$(wc -l < "/tmp/mh-blocks$n")" "$((DIMM_PER_NODE * 1048576 / $(printf %d "0x$(cat /sys/devices/system/memory/block_size_bytes)")))"
done

# movable_present NODE: pages present in the node's ZONE_MOVABLE
movable_present() {
	awk -v n="$1" '$1 == "Node" { z = ($2 == n "," && $4 == "Movable") } z && $1 == "present" { print $2 }' /proc/zoneinfo
}
full0=$(movable_present 0) full1=$(movable_present 1)

# block STATE BLOCK: set a memory block's state; a migration that never
# ends is stopped after 20 s, which fails the write.  The kernel may refuse
# an offline: a busy page it cannot migrate (seen: a libc page-cache page
# that several processes map) keeps the block online.  Such a refusal is
# noted in /tmp/mh-refused and the block stays online; a refused online is
# a failure.
block() {
	if ! echo "$1" | timeout 20 tee "/sys/devices/system/memory/$2/state" > /dev/null; then
		[ "$1" = offline ] || fail "$2: $1 refused or timed out"
		echo "note: $2: offline refused or timed out: $(dmesg | grep -m1 -o 'migrating pfn [0-9a-fx]* failed.*' | tail -1)"
		echo "$2" >> /tmp/mh-refused
		return 1
	fi
	echo "$1 $2" >> /tmp/mh-ops
}
# pick NODE: one of the node's hot-pluggable blocks, at random
pick() { shuf -n 1 "/tmp/mh-blocks$1"; }

# The cycle pagecheck runs after each fragmenting: cycle k starts a round,
# offlines set k (see above) while the round may run, reads the counters
# (folded) and the scores (fragscore), and onlines what it offlined.
hotplug_cycle() {
	local k what offlined='' b blocks
	k=$(($(cat /tmp/mh-n 2>/dev/null || echo 0) + 1))
	echo "$k" > /tmp/mh-n
	case $((k % 4)) in
	1) set -- "$(pick 1)"; what="one block of node 1" ;;
	2) mapfile -t blocks < /tmp/mh-blocks1; set -- "${blocks[@]}"; what="all of node 1's DIMM" ;;
	3) set -- "$(pick 0)" "$(pick 1)"; what="one block of each node" ;;
	0) mapfile -t blocks < /tmp/mh-blocks0; set -- "${blocks[@]}"; what="all of node 0's DIMM" ;;
	esac
	set_proactiveness 100
	sleep 0.3
	for b; do block offline "$b" && offlined="$offlined $b"; done
	[ "$offlined" != "$(printf ' %s' "$@")" ] ||
	case $((k % 4)) in
	2) expect_eq "node 1's ZONE_MOVABLE with its DIMM offline" "$(movable_present 1)" 0 ;;
	0) expect_eq "node 0's ZONE_MOVABLE with its DIMM offline" "$(movable_present 0)" 0 ;;
	esac
	sleep 1
	proactive_counters "/tmp/mh-v$(printf %04d "$k")"
	"$LAB_BIN/fragscore" > "/tmp/mh-score$k"
	echo "cycle $k, $what offline ($*): scores $(awk '{ print $4 }' "/tmp/mh-score$k" | paste -sd' '), $(awk '$1 == "compact_daemon_proactive_round" { print "rounds", $2 }' "/tmp/mh-v$(printf %04d "$k")")"
	set_proactiveness 0
	for b in $offlined; do block online_movable "$b"; done
}

# The reader: every node's vmstat, over and over, while memory comes and
# goes, as a monitoring agent would read it (no fold: the values lag, but
# never go down).  Each read must have the series' counters of every node.
want=$(($(grep -c '^compact_daemon_proactive_' /proc/vmstat) * NODES))
reader() {
	local n=0
	while :; do
		for d in "$NODE_SYSFS"/node[0-9]*; do
			awk -v n="${d##*/}" '$1 ~ /^compact_daemon_proactive_/ { print n ":" $1, $2 }' "$d/vmstat" ||
				{ echo "FAIL: read $n: $d/vmstat failed"; exit 1; }
		done > /tmp/mh-read.new
		[ "$(wc -l < /tmp/mh-read.new)" = "$want" ] || { echo "FAIL: read $n: $(cat /tmp/mh-read.new)"; exit 1; }
		if [ -s /tmp/mh-read ]; then
			awk 'FNR == NR { old[$1] = $2; next } $2 < old[$1] { print "FAIL: read " n ": " $1 " went down: " old[$1] " -> " $2; bad = 1 } END { exit bad }' \
				n="$n" /tmp/mh-read /tmp/mh-read.new || exit 1
		fi
		mv /tmp/mh-read.new /tmp/mh-read
		n=$((n + 1))
		echo "$n" > /tmp/mh-reads
	done
}
reader > "$OUT/reader.log" 2>&1 &
READER=$!
trap 'kill $READER 2>/dev/null || :' EXIT

proactive_counters /tmp/mh-v0000
pagecheck_window hotplug 8 hotplug_cycle block pick movable_present

kill -0 $READER 2>/dev/null || fail "the nodes' vmstat reader stopped: $(tail -1 "$OUT/reader.log")"
echo "ok: every node's vmstat read $(cat /tmp/mh-reads) times, its counters never lower than at the read before"
# 22 offlines tried, each done one undone; at most 2 refused by the kernel
refused=0
[ ! -e /tmp/mh-refused ] || refused=$(wc -l < /tmp/mh-refused)
ops=$(wc -l < /tmp/mh-ops)
expect_eq "offlines done and refused" "$((ops / 2 + refused))" $(((1 + 4 + 2 + 4) * 2))
expect_eq "onlines for the offlines done" "$(grep -c '^online_movable' /tmp/mh-ops)" "$(grep -c '^offline' /tmp/mh-ops)"
[ "$refused" -le 2 ] || fail "the kernel refused $refused of 22 offlines: $(cat /tmp/mh-refused | paste -sd' ')"
echo "ok: $((ops / 2)) offlines done and undone, $refused refused by the kernel"
expect_eq "pages in ZONE_MOVABLE, node 0 and node 1, afterwards" \
	"$(movable_present 0) $(movable_present 1)" "$full0 $full1"
never_down /tmp/mh-v*
nr=$(node_summary hotplug 1 rounds) || nr=0
[ "$nr" -ge 8 ] || fail "node 1 had $nr proactive rounds in 8 cycles (all nodes: $(summary hotplug rounds))"
echo "ok: node 1: $nr rounds in 8 cycles, each set of blocks offline twice (all nodes: $(summary hotplug rounds))"
set_proactiveness 20
