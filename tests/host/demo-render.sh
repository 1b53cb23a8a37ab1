# lab-tags: tools
# The demo report from a committed fixture of a real run's raw results
# (tests/host/fixtures/demo: a 6.1 make demo-quick, its trace.dat files replaced
# by the two recorded fixtures): lab-report demo reads the raw files once
# and writes metrics/ with the figures they hold, the report, summary.json,
# sweep.csv, rate.csv and plots, and adds nothing to the raw folders; the
# percentiles are type 7 with their order-statistic intervals; the rate
# sweep's exclusion rule is shown both ways; each explanatory sentence
# follows the data, also when the data is changed to say the opposite.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

fx=$top/tests/host/fixtures
res=$TEST_DIR/res
lr=$top/build/bin/lab-report
[ -x "$top/build/bin/proactive-trace" ] || fail "no build/bin/proactive-trace (make lab)"
[ -x "$lr" ] || fail "no $lr (make build/bin/lab-report)"

# fixture DIR: a fresh copy of the raw results, with recordings
fixture() {
	rm -rf "$1"
	cp -r "$fx/demo" "$1"
	cp "$fx/trace-round.dat" "$1/p20/alloc.dat"
	cp "$fx/trace-round.dat" "$1/p20/pretouch.dat"
	cp "$fx/trace-backoff.dat" "$1/backoff/backoff.dat"
}
report() {
	"$lr" demo "$1" > "$TEST_DIR/report.log" 2>&1 || fail "lab-report demo: $(tail -3 "$TEST_DIR/report.log")"
}
expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1"
}
has_line() {	# WHAT PATTERN (grep -E on report.md)
	grep -qE "$2" "$res/report.md" || fail "$1: no line matching '$2' in the report"
}
metric() {	# FILE KEY
	awk -v k="$2" '$1 == k { sub(/^[^ ]+ /, ""); print }' "$res/metrics/$1"
}
# type7 FILE P: percentile P of the ns samples in FILE, in us (linear
# interpolation between order statistics), as the report rounds it
type7() {
	sort -n "$1" | awk -v p="$2" '{ v[NR] = $1 } END { h = (NR - 1) * p / 100; i = int(h)
		x = i + 1 < NR ? v[i + 1] + (h - i) * (v[i + 2] - v[i + 1]) : v[NR]; printf "%.0f", x / 1000 }'
}

fixture "$res"
(cd "$res" && find . -type f | sort) > "$TEST_DIR/raw-before"
report "$res"
expect "the raw folders are unchanged" "$(cd "$res" && find . -type f ! -path './metrics/*' ! -name 'report.md' \
	! -name summary.json ! -name sweep.csv ! -name rate.csv ! -name '*.png' | sort)" "$(cat "$TEST_DIR/raw-before")"

# The figures, against what the raw files hold
expect "p20 allocations" "$(metric p20-alloc count)" "$(grep -c . "$res/p20/alloc-samples-ns")"
expect "p0 p50 (type 7)" "$(metric p0-alloc p50_us)" "$(type7 "$res/p0/alloc-samples-ns" 50)"
expect "p20 p95 (type 7)" "$(metric p20-alloc p95_us)" "$(type7 "$res/p20/alloc-samples-ns" 95)"
# p95 of p0's 28 paced allocations: the interval's lower bound is the
# 24th smallest (P(B <= 23) = 0.012 for B ~ Binomial(28, 0.95)), its upper
# side open (P(B = 28) = 0.24 > 0.025)
expect "p0 rate10 p95 interval" "$(metric p0-rate10 p95_us_ci95)" \
	"$(sort -n "$res/p0/rate10-samples-ns" | awk 'NR == 24 { printf "%.0f -", $1 / 1000 }')"
expect "p20 rounds: the recording's" "$(metric p20-alloc rounds)" 2
expect "p0 rounds without a recording: unknown" "$(metric p0-alloc rounds)" -
expect "p20 compact_stall delta" "$(metric p20-alloc moved:compact_stall)" \
	"$(awk 'FNR == NR { if ($1 == "compact_stall") b = $2; next } $1 == "compact_stall" { print $2 - b }' \
		"$res/p20/alloc-vmstat-before" "$res/p20/alloc-vmstat-after")"
expect "pre-touch sys_s" "$(metric p0-pretouch sys_s)" "$(awk '{ for (i = 2; i < NF; i++) if ($i == "sys_s") print $(i + 1) }' "$res/p0/pretouch.txt")"
expect "p20 pages migrated by kcompactd (proactive-trace --json)" "$(metric p20-alloc kcompactd_migrated)" 28705
expect "backoff defers" "$(metric backoff defers)" 4
expect "backoff round intervals" "$(metric backoff round_intervals_s)" "33.5 33.5"

# The rendering
for row in '^Kernel: 6\.1\.' '^\| 5 \| [0-9]+ \[[0-9]+, [0-9]+\] \|' '^\| 99 \|' '^\| huge pages allocated \| 719 \| 700 \|' \
	'^p95 ratio p0 / p20: [0-9.]+x \[[0-9.]+, [0-9.]+\] \(n = 719 / 700' '^Statistics .*type 7' \
	'^Elapsed ratio p0 / p20: [0-9.]+x' '^Deferring rounds: 4;' '^p20, alloc: kcompactd CPU node 0 ' \
	'^Intervals between a node.s rounds \(s\): 33.5 33.5 \(median 33.5, n = 2\)' '^Median round: [0-9.]+ s \(n = 4 rounds\)'; do
	has_line "row" "$row"
done
# p20's rounds are its two runs' (kcompactd's CPU is read around them
# only); its settles and p0 have no recording: unknown, not 0
jq -e '.p20.proactive_rounds == 4 and .p20.proactive_rounds_settle == null and .p0.proactive_rounds == null and
	.backoff.defer_events == 4' "$res/summary.json" >/dev/null ||
	fail "summary.json: $(jq -c . "$res/summary.json" 2>&1 | head -c 300)"
expect "summary.json: p95 and its interval" "$(jq -r '.p20 | "\(.alloc_p95_us) \(.alloc_p95_us_ci95[0] <= .alloc_p95_us and .alloc_p95_us <= .alloc_p95_us_ci95[1])"' "$res/summary.json")" \
	"$(metric p20-alloc p95_us) true"
expect "sweep.csv from summary.json" "$(cat "$res/sweep.csv")" "$(echo 'proactiveness,alloc_p50_us,alloc_p95_us,alloc_coverage_pct,kcompactd_cpu_s' &&
	jq -r '["p0", "p20"][] as $m | .[$m] | [($m | ltrimstr("p")), .alloc_p50_us, .alloc_p95_us, .alloc_coverage_pct, .kcompactd_cpu_s] | map(tostring) | join(",")' "$res/summary.json")"
for png in score.png alloc-cdf.png sweep.png; do
	expect "$png is a PNG" "$(head -c 4 "$res/$png" | od -An -tx1 | tr -d ' ')" 89504e47
done

# The rate sweep (the fixture's paced runs at 10 a second): its row, with
# the intervals (p0's p95 and p99 open above: 28 allocations), the
# sentence that p0's run stalled (28 allocations against 200), and the
# highest ratio with and without the flagged rate
has_line "rate row" '^\| 10 \| [0-9]+ \[[0-9]+, [0-9]+\] \| [0-9]+ \[[0-9]+, \?\] \| [0-9]+ \[[0-9]+, \?\] \| 28 \| [0-9.]+ \| [0-9]+ \[[0-9]+, [0-9]+\] \| [0-9]+ \[[0-9]+, [0-9]+\] \| [0-9]+ \[[0-9]+, \?\] \| 200 \|'
has_line "stalled p0 named" '^At 10/s, p0 made only 28 allocations against p20.s 200: single allocations took seconds'
has_line "the highest ratio over every rate" '^Over every rate, the highest p95 ratio is [0-9.]+x \[[0-9.]+, \?\] at 10/s: its interval lies above'
has_line "the highest without the flagged rates" '^Without the rates named above .*no rate is left'
expect "summary.json has the paced run" "$(jq -r '."p20-rate10".alloc_count' "$res/summary.json")" 200
expect "rate.png is a PNG" "$(head -c 4 "$res/rate.png" | od -An -tx1 | tr -d ' ')" 89504e47
expect "membw in the paced run's metrics" "$(metric p20-rate10 mib_per_cpu_s)" \
	"$(awk '{ for (i = 2; i < NF; i++) if ($i == "mib_per_cpu_s") print $(i + 1) }' "$res/p20/rate10-membw.txt")"

# The fixture's sentences: the pre-touch at p0 took more system time
p0sys=$(metric p0-pretouch sys_s) p20sys=$(metric p20-pretouch sys_s)
awk -v a="$p0sys" -v b="$p20sys" 'BEGIN { exit !(a - b >= 0.05) }' || fail "fixture: p0 sys $p0sys not above p20 $p20sys"
has_line "pre-touch: more system time at p0" '^Why: .* came with [0-9.]+ s more system time'
has_line "alloc: the prepared huge pages ran out" '^Why: at p20, .*used up the huge pages prepared before the run'

# The same run, with the data changed to say the opposite: p0's pre-touch
# as cheap as p20's, every p20 allocation slow, and p0's paced run as
# long as p20's (p20's samples)
fixture "$res"
sed -i "s/sys_s [0-9.]*/sys_s $p20sys/" "$res/p0/pretouch.txt"
awk '{ print $1 + 5000000 }' "$fx/demo/p20/alloc-samples-ns" > "$res/p20/alloc-samples-ns"
awk '{ print $1 * 3 }' "$fx/demo/p20/rate10-samples-ns" > "$res/p0/rate10-samples-ns"
report "$res"
has_line "pre-touch: same system time" '^Why: .* came with the same system time'
grep -q 'more system time' "$res/report.md" && fail "the report claims more system time against its data"
has_line "alloc: no fast allocation" '^Why: at p20, 0 of the [0-9]+ allocations .*Not even the first allocation found a free huge page'
grep -q 'used up the huge pages' "$res/report.md" && fail "the report explains a run of fast allocations that did not happen"
grep -q 'made only' "$res/report.md" && fail "the report names a stalled run that did not stall"
has_line "rates: nothing left out" '^No rate was left out'
has_line "rates: the ratio now below 78x" '^Over every rate, the highest p95 ratio is [0-9.]+x .* short of the original'
echo "ok: the explanations follow the changed data"

# Bad input: no mode results
mkdir -p "$TEST_DIR/empty"
"$lr" demo "$TEST_DIR/empty" 2> "$TEST_DIR/empty.err" && fail "lab-report accepted a folder without results"
grep -q 'no mode results' "$TEST_DIR/empty.err" || fail "lab-report's error: $(cat "$TEST_DIR/empty.err")"
echo "ok: bad input rejected"
