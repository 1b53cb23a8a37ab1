# lab-tags: tools slow
# A reduced `make demo-quick` (the allocation experiment only, short settle, no
# back-off window): fragmentation reached 95 on every node, the driver
# ran until allocation failed for good and allocated at least 90% of free
# memory as huge pages in both modes, proactive rounds ran only at
# proactiveness 20, and the report, which names the kernel, the summary
# and plots were written with the expected rows.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

# (a results folder relative to where it runs, as make demo-quick gives it).
# A boot whose five tries at fragmenting all left a node under 95 (each
# try lands at 88-99 by chance: a CI run's boot gave 92-95 on node 0 five
# times) fails, and make demo-quick again resumes at it, as a user would do:
# twice at most, for that failure only.
demo() {
	(cd "$TEST_DIR" && DEMO_MODES=0,20 DEMO_SETTLE=8 DEMO_EXPERIMENTS=alloc DEMO_RATES="" DEMO_BACKOFF_S=0 \
		LAB_RUNS=$TEST_DIR "$scripts/demo.sh" results) >> "$TEST_DIR/demo.log" 2>&1
}
for try in 1 2 3; do
	demo && break
	grep -q "fragmentation reached only" "$TEST_DIR/demo.log" && [ "$try" -lt 3 ] ||
		fail "demo failed: $(tail -3 "$TEST_DIR/demo.log")"
	echo "note: $(grep -o 'fragmentation reached only [^(]*' "$TEST_DIR/demo.log" | tail -1); make demo-quick again"
	sed -i 's/fragmentation reached only/(seen) fragmentation reached only/' "$TEST_DIR/demo.log"
done
res=$TEST_DIR/results/latest
# The driver ends a run after this many failures in a row.
max_failures=$(sed -n "s/^#define MAX_FAILURES[[:space:]]*//p" "$top/tests/modules/lab_hpalloc/lab_hpalloc.c")
[ -r "$res/report.md" ] || fail "no report"

# The share of free memory the allocations must reach, per tree: direct
# compaction alone (p0) reached 90% and more on 6.1 and 6.12; on 7.2 it
# has reached 84% in one run and 74.7% in another (a fresh-clone CI run
# on 2026-12-06), so the bound there is 60%: what it guards is a
# driver that stops early, which the failures in a row also show.
case $KVER in 6.1 | 6.12) want_cov=90 ;; *) want_cov=60 ;; esac
for m in 0 20; do
	min=$(min_score "$res/p$m/alloc-fragscore-before")
	[ "$min" -ge 95 ] || fail "p$m: fragmented only to $min"
	cov=$(jq -r ".p$m.alloc_coverage_pct" "$res/summary.json")
	fails=$(grep -c . "$res/p$m/alloc-failures-ns" || :)
	[ "$fails" -eq "$max_failures" ] || fail "p$m: the run did not end with $max_failures failures in a row ($fails)"
	awk -v c="$cov" -v w="$want_cov" 'BEGIN { exit !(c >= w) }' || fail "p$m: huge pages cover only $cov% of free memory (want $want_cov%)"
	echo "ok: p$m: fragmented to >= $min, huge pages cover $cov% of free memory"
done
# while settling and during the run: both were recorded, so both are known
rounds() {
	jq -r ".p$1 | if .proactive_rounds == null or .proactive_rounds_settle == null then \"unknown\"
		else .proactive_rounds + .proactive_rounds_settle end" "$res/summary.json"
}
r0=$(rounds 0) r20=$(rounds 20)
[ "$r0" != unknown ] && [ "$r20" != unknown ] || fail "proactive rounds unknown (a recording missing): p0 $r0, p20 $r20"
[ "$r0" = 0 ] || fail "proactive rounds at proactiveness 0: $r0"
[ "$r20" -gt 0 ] || fail "no proactive round at proactiveness 20"
echo "ok: proactive rounds: p0 $r0, p20 $r20"

# The report names the kernel the guests ran: the tree's version, as the
# guest's uname saw it, and the series
kline=$(grep '^Kernel: ' "$res/report.md") || fail "the report names no kernel"
pkg=linux-source-${KVER:?} ver=$KVER
if [ "$KVER" = mainline ]; then
	pkg=$(cut -d' ' -f1,2 "$top/build/mainline.pkg") || fail "no build/mainline.pkg"
	ver=$(echo "$pkg" | sed 's/^linux-source-\([0-9.]*\) .*/\1/')
fi
case $kline in
"Kernel: $ver."*"$pkg with patches/$KVER.") echo "ok: $kline" ;;
*) fail "the report's kernel is not a $KVER kernel of this series: $kline" ;;
esac

for row in '| 5 |' '| 95 |' '| huge pages allocated |' '| % of free memory |' 'p95 ratio p0 / p20:'; do
	grep -qF "$row" "$res/report.md" || fail "report has no row '$row'"
done
for png in score.png alloc-cdf.png; do
	[ "$(head -c 4 "$res/$png" | od -An -tx1 | tr -d ' ')" = 89504e47 ] || fail "$png is not a PNG"
done
echo "ok: report rows, summary.json and plots"
