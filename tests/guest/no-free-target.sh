# lab-tags: series
# A proactive round that finds no free page to migrate into ends as
# "aborted", and compact_daemon_proactive_round_aborted and the
# mm_compaction_proactive_end event with outcome=aborted say so.
#
# pagecheck fills half of node 1's free memory (mbind) with checksummed
# pages and, three times, fragments it and runs a cycle.  In cycles 1 and 2,
# lab_drain takes node 1's free memory below its min watermark, where
# __isolate_free_page() refuses every free page (see the module), and a
# write of 100 starts a round on a node whose every free page is in small
# pieces: the round must end aborted.  Cycle 3 runs a round with
# page-allocation fault injection (fail_page_alloc, debug flavour) failing
# every allocation of kcompactd1 through its task filter, and reports how
# many failures it injected: compaction takes its target pages from the
# free lists directly (isolate_freepages()), not from the page allocator,
# so these failures cannot cause the outcome.
# Afterwards: every page verifies, the events and counters agree over the
# whole window, in total and per node (node 1's
# compact_daemon_proactive_round_aborted moved in each drained cycle), and
# (the runner's check) the console shows no splat.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh
need_nodes 2

# The test stays on node 0's CPU: an allocation made on node 1's CPU would
# try node 1 first and wake kswapd1, whose running ends rounds early.
taskset -pc 0 $$ > /dev/null

kswapd1_asleep() { [ "$(cut -d' ' -f3 "/proc/$(pgrep -x kswapd1)/stat")" = S ]; }
# round_done OLD: node 1 started a round since the counters in OLD, and
# every kcompactd is idle again
round_done() {
	proactive_counters /tmp/dr-now
	[ "$(delta node1:compact_daemon_proactive_round "$1" /tmp/dr-now)" -ge 1 ] && idle_twice
}
# The cycle pagecheck runs after each fragmenting: cycle k (1, 2) drains
# node 1 (lab_drain), or (3) arms fail_page_alloc on kcompactd1, then
# starts a round with a write of 100 and waits for it to end.
drain_cycle() {
	local k p=compact_daemon_proactive_round_aborted what aborted
	k=$(($(cat /tmp/dr-n 2>/dev/null || echo 0) + 1))
	echo "$k" > /tmp/dr-n
	if [ "$k" -le 2 ]; then
		module_load lab_drain nid=1 || fail "insmod lab_drain failed"
		dmesg | grep 'lab_drain: node 1' | tail -2 | sed 's/^\[[^]]*\] //'
		what="node 1 below its min watermark"
	else
		what="no fault injection in this kernel (CONFIG_FAIL_PAGE_ALLOC)"
		if fpa_present; then
			# every page allocation of kcompactd1, and no other task's
			fpa_arm "$(pgrep -x kcompactd1)"
			what="fail_page_alloc failing every allocation of kcompactd1"
		fi
	fi
	wait_until 60 kswapd1_asleep
	proactive_counters /tmp/dr-before
	set_proactiveness 100
	wait_until 120 round_done /tmp/dr-before
	set_proactiveness 0
	wait_until 60 idle_twice
	proactive_counters /tmp/dr-after
	aborted=$(delta $p /tmp/dr-before /tmp/dr-after)
	if [ "$k" -le 2 ]; then
		module_unload lab_drain || fail "rmmod lab_drain failed"
		[ "$(delta node1:$p /tmp/dr-before /tmp/dr-after)" -ge 1 ] || fail "cycle $k, $what: no aborted round on node 1 ($aborted in all)"
		[ "$aborted" -ge 1 ] || fail "cycle $k, $what: no aborted round ($(delta compact_daemon_proactive_round /tmp/dr-before /tmp/dr-after) rounds, kswapd $(delta compact_daemon_proactive_round_kswapd /tmp/dr-before /tmp/dr-after))"
	elif fpa_present; then
		fpa_disarm "$(pgrep -x kcompactd1)"
		fpa_injected > /tmp/dr-injected
	fi
	echo "cycle $k, $what: $(delta compact_daemon_proactive_round /tmp/dr-before /tmp/dr-after) rounds, $aborted aborted"
}

pagecheck_window drain 3 drain_cycle kswapd1_asleep round_done
rounds drain > "$OUT/drain-rounds.csv"
n=$(cols "$OUT/drain-rounds.csv" nid outcome | awk '$1 == 1 && $2 == "aborted"' | wc -l)
[ "$n" -ge 2 ] || fail "node 1 had $n aborted rounds in the recording, want one per drained cycle"
echo "ok: node 1: $n aborted rounds (events), compact_daemon_proactive_round_aborted +$(delta compact_daemon_proactive_round_aborted /tmp/drain.before /tmp/drain.after)"
[ ! -e /tmp/dr-injected ] || echo "failures injected into kcompactd1 during its round: $(cat /tmp/dr-injected)"
set_proactiveness 20
