# lab-tags: protocol
# The protocol's boots, as scripts/protocol.sh runs them
# (tests/guest/jobs/demo.sh with DEMO_PROTOCOL=1, DEMO_SETTLE 30), at the
# protocol's 1 GiB a node: a count-sized paced run at proactiveness 0 with
# vm.defrag_mode=1, on fragmented memory, where some attempts must need
# direct compaction, and the co-located workload at 20.  Checked from what the host keeps: the modes
# the guest had; every attempt of the driver's log, marked with its direct
# compactions, and none of the driver task's outside them; the run ended
# at its count (98% of MemFree) or after 256 failures in a row; the
# recording's lost events counted; on every node with a CPU, thpfault's
# one latency per 2 MiB fault, as many as it says it made.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

[ "$KVER" = mainline ] || skip "vm.defrag_mode is mainline's (KVER=$KVER)"
job=$top/tests/guest/jobs/demo.sh
# boot NAME DEMO_RUN DEFRAG: a boot as the runner makes it, at the
# protocol's 1 GiB a node; one the fragmenter left under 95 (excluded, by
# the protocol's rule a) is made again, up to three times, as the runner
# does
boot() {
	for try in 1 2 3 4; do
		st=0
		rm -rf "$TEST_DIR/$1.keep"
		MEM_PER_NODE=1024 CPUS_PER_NODE=1 LAB_GIVEN='' DEMO_TIMEOUT=900 \
			"$scripts/lab-run.sh" --keep "$TEST_DIR/$1.keep" "$job" "$TEST_DIR/$1" \
			DEMO_RUN="$2" DEMO_DEFRAG="$3" DEMO_PROTOCOL=1 DEMO_SETTLE=30 DEMO_BACKOFF_S=0 \
			DEMO_PRETOUCH_PCT=80 DEMO_PACE_S=0 || st=$?
		[ "$st" = 0 ] || fail "$1: $(cat "$TEST_DIR/$1/verdict")"
		e=$(cat "$TEST_DIR/$1.keep"/p*/*-excluded 2>/dev/null) || return 0
		echo "note: $1: boot $try excluded: $e"
	done
	fail "$1: four boots excluded"
}

# ---- count50, proactiveness 0, defrag_mode 1
boot count 0:count50 1
d=$TEST_DIR/count.keep/p0
expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1: $3"
}
expect "the modes written" "$(cat "$d/count50-modes")" "vm.compaction_proactiveness 0 vm.defrag_mode 1"
expect "attempts marked" "$(sed '$d' "$d/count50-attempts" | awk '{ print $1, $2, $3 }' | cmp -s - "$d/count50-attempts-log" && echo same)" same
expect "direct compactions of the driver outside its attempts" "$(tail -1 "$d/count50-attempts")" "outside 0"
sed '$d' "$d/count50-attempts" | awk 'NF != 4 || $4 !~ /^[0-9]+$/ { exit 1 }' || fail "an attempt without its count of direct compactions"
n=$(sed '$d' "$d/count50-attempts" | grep -c . || :)
ok=$(grep -c ' ok$' "$d/count50-attempts-log" || :)
free=$(cat "$d/count50-memfree-kb")
want=$(( (free * 98 + 100 * 2048 - 1) / (100 * 2048) ))
expect "the count the run was sized to" "$(cat "$d/count50-count")" "$want"
case $(cat "$d/count50-end") in
count) expect "huge pages of a run that ended on its count (98% of $free kB free)" "$ok" "$want" ;;
failures) echo "ok: the run ended after 256 failures in a row, at $ok of $want huge pages" ;;
*) fail "the run ended by '$(cat "$d/count50-end")', want count or failures" ;;
esac
grep -qx '[0-9][0-9]*' "$d/count50-overrun" || fail "no count of lost events: $(cat "$d/count50-overrun")"
direct=$(sed '$d' "$d/count50-attempts" | awk '$4 > 0' | grep -c . || :)
[ "$direct" -gt 0 ] || fail "no attempt marked with a direct compaction, on fragmented memory at proactiveness 0"
echo "ok: $n attempts, $direct of them needed direct compaction; $(cat "$d/count50-overrun") events lost"
grep -Eq '^long rounds [0-9]+ rounds_over_1s [0-9]+ round_max_ms [0-9.]+ direct [1-9][0-9]* direct_over_100ms [0-9]+ direct_max_ms [0-9.]+$' \
	"$d/count50-long" || fail "the long compactions' line does not count the direct compactions: $(cat "$d/count50-long")"
echo "ok: $(cat "$d/count50-long")"

# ---- coloc at 20
boot coloc 20:coloc 0
d=$TEST_DIR/coloc.keep/p20
expect "the modes written" "$(cat "$d/coloc-modes")" "vm.compaction_proactiveness 20 vm.defrag_mode 0"
nodes=0
for f in "$d"/coloc-node*.txt; do
	[ -e "$f" ] || fail "no thpfault summary"
	n=${f##*coloc-node}; n=${n%.txt}
	faults=$(sed -n 's/.* faults \([0-9]*\) .*/\1/p' "$f")
	[ -n "$faults" ] && [ "$faults" -gt 0 ] || fail "node $n: thpfault says: $(cat "$f")"
	expect "node $n: latencies kept" "$(grep -c . "$d/coloc-faults-node$n-ns")" "$faults"
	nodes=$((nodes + 1))
done
expect "nodes with a faulting task" "$nodes" 2
