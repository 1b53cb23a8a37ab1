# lab-tags: tools
# The demo report from a committed fixture of a real run's raw results
# (tests/host/fixtures/demo: a 6.1 make demo, its trace.dat files replaced
# by the two recorded fixtures): the extract step writes the figures the
# raw files hold into metrics/ and adds nothing to the raw folders; the
# render step makes the report, summary.json, sweep.csv and plots from
# metrics/ alone; each explanatory sentence follows the data, also when
# the data is changed to say the opposite.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

fx=$top/tests/host/fixtures
res=$TEST_DIR/res
[ -x "$top/build/bin/proactive-trace" ] || fail "no build/bin/proactive-trace (make lab)"

# fixture DIR: a fresh copy of the raw results, with recordings
fixture() {
	rm -rf "$1"
	cp -r "$fx/demo" "$1"
	cp "$fx/trace-round.dat" "$1/p20/alloc.dat"
	cp "$fx/trace-round.dat" "$1/p20/pretouch.dat"
	cp "$fx/trace-backoff.dat" "$1/backoff/backoff.dat"
}
# report DIR: extract, then render, with the metrics the only input of the
# second step (the raw folders are moved away first)
report() {
	"$scripts/demo-extract.sh" "$1" > "$TEST_DIR/extract.log" 2>&1 || fail "extract: $(tail -3 "$TEST_DIR/extract.log")"
	mkdir "$1.raw"
	mv "$1/p0" "$1/p20" "$1/backoff" "$1/kernel" "$1/machine" "$1.raw/"
	"$scripts/demo-render.sh" "$1" > "$TEST_DIR/render.log" 2>&1 || fail "render: $(tail -3 "$TEST_DIR/render.log")"
	mv "$1.raw"/* "$1/"
	rmdir "$1.raw"
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

fixture "$res"
(cd "$res" && find . -type f | sort) > "$TEST_DIR/raw-before"
report "$res"
expect "the raw folders are unchanged" "$(cd "$res" && find . -type f ! -path './metrics/*' ! -name 'report.md' \
	! -name summary.json ! -name sweep.csv ! -name rate.csv ! -name '*.png' | sort)" "$(cat "$TEST_DIR/raw-before")"

# The figures, against what the raw files hold
expect "p20 allocations" "$(metric p20-alloc count)" "$(grep -c . "$res/p20/alloc-samples-ns")"
expect "p0 p50 (nearest rank)" "$(metric p0-alloc p50_us)" \
	"$(sort -n "$res/p0/alloc-samples-ns" | awk '{ v[NR] = $1 } END { printf "%.0f", v[int((50 * NR + 99) / 100)] / 1000 }')"
expect "p20 rounds: the recording's" "$(metric p20-alloc rounds)" 2
expect "p0 rounds without a recording" "$(metric p0-alloc rounds)" 0
expect "p20 compact_stall delta" "$(metric p20-alloc moved:compact_stall)" \
	"$(awk 'FNR == NR { if ($1 == "compact_stall") b = $2; next } $1 == "compact_stall" { print $2 - b }' \
		"$res/p20/alloc-vmstat-before" "$res/p20/alloc-vmstat-after")"
expect "pre-touch sys_s" "$(metric p0-pretouch sys_s)" "$(awk '{ for (i = 2; i < NF; i++) if ($i == "sys_s") print $(i + 1) }' "$res/p0/pretouch.txt")"
expect "backoff defers" "$(metric backoff defers)" 4
expect "backoff round intervals" "$(metric backoff round_intervals_s)" "33.5 33.5"

# The rendering
for row in '^Kernel: 6\.1\.' '^\| 5 \|' '^\| 99 \|' '^\| huge pages allocated \|' '^p95 ratio p0 / p20: [0-9.]+x' \
	'^Elapsed ratio p0 / p20: [0-9.]+x' '^Deferring rounds: 4;' '^p20, alloc: kcompactd CPU node 0 '; do
	has_line "row" "$row"
done
jq -e '.p20.proactive_rounds == 4 and .p0.proactive_rounds == 0 and .backoff.defer_events == 4' "$res/summary.json" >/dev/null ||
	fail "summary.json: $(jq -c . "$res/summary.json" 2>&1 | head -c 300)"
expect "sweep.csv from summary.json" "$(cat "$res/sweep.csv")" "$(echo 'proactiveness,alloc_p50_us,alloc_p95_us,alloc_coverage_pct,kcompactd_cpu_s' &&
	jq -r '["p0", "p20"][] as $m | .[$m] | [($m | ltrimstr("p")), .alloc_p50_us, .alloc_p95_us, .alloc_coverage_pct, .kcompactd_cpu_s] | map(tostring) | join(",")' "$res/summary.json")"
for png in score.png alloc-cdf.png sweep.png; do
	expect "$png is a PNG" "$(head -c 4 "$res/$png" | od -An -tx1 | tr -d ' ')" 89504e47
done

# The rate sweep (the fixture's paced runs at 10 a second): its row, and
# the sentence that p0's run stalled (28 allocations against 200)
has_line "rate row" '^\| 10 \| [0-9]+ \| [0-9]+ \| [0-9]+ \| 28 \| [0-9.]+ \| [0-9]+ \| [0-9]+ \| [0-9]+ \| 200 \|'
has_line "stalled p0 named" '^At 10/s, p0 made only 28 allocations against p20.s 200'
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
# as cheap as p20's, and every p20 allocation slow
fixture "$res"
sed -i "s/sys_s [0-9.]*/sys_s $p20sys/" "$res/p0/pretouch.txt"
awk '{ print $1 + 5000000 }' "$fx/demo/p20/alloc-samples-ns" > "$res/p20/alloc-samples-ns"
report "$res"
has_line "pre-touch: same system time" '^Why: .* came with the same system time'
grep -q 'more system time' "$res/report.md" && fail "the report claims more system time against its data"
has_line "alloc: no fast allocation" '^Why: at p20, 0 of the [0-9]+ allocations .*Not even the first allocation found a free huge page'
grep -q 'used up the huge pages' "$res/report.md" && fail "the report explains a run of fast allocations that did not happen"
echo "ok: the explanations follow the changed data"

# Bad input: no mode results
mkdir -p "$TEST_DIR/empty"
"$scripts/demo-extract.sh" "$TEST_DIR/empty" 2> "$TEST_DIR/empty.err" && fail "extract accepted a folder without results"
grep -q 'no mode results' "$TEST_DIR/empty.err" || fail "extract's error: $(cat "$TEST_DIR/empty.err")"
"$scripts/demo-render.sh" "$TEST_DIR/empty" 2> /dev/null && fail "render accepted a folder without metrics"
echo "ok: bad input rejected"
