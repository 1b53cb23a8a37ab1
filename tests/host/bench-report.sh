# lab-tags: tools
# make bench's report from a fixture in the formats bench.sh and its guest
# job write (tests/host/fixtures/bench: three blocks of stock, off, on and
# calib, made by hand; the events-on boots given the recorded
# trace-round.dat): lab-report bench writes the per-boot figures the raw
# readings hold into metrics.csv (the checks counted from the context
# switches), min / median / max per configuration, the ratios of the
# geometric means with their log-scale intervals and n, the added CPU per
# check and per event; what it says follows the data, also when the data
# is changed to say the opposite, and the 1% rule both ways.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

fx=$top/tests/host/fixtures
res=$TEST_DIR/bench
lr=$top/build/bin/lab-report
[ -x "$top/build/bin/proactive-trace" ] || fail "no build/bin/proactive-trace (make lab)"
[ -x "$lr" ] || fail "no $lr (make build/bin/lab-report)"

fixture() {
	rm -rf "$res"
	cp -r "$fx/bench" "$res"
	for d in "$res"/on-*; do cp "$fx/trace-round.dat" "$d/bench.dat"; done
}
report() {
	"$lr" bench "$res" > "$TEST_DIR/report.log" 2>&1 || fail "lab-report bench: $(tail -3 "$TEST_DIR/report.log")"
}
expect() {	# WHAT GOT WANT
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
	echo "ok: $1"
}
has_line() {	# WHAT PATTERN (grep -E on bench.md)
	grep -qE "$2" "$res/bench.md" || fail "$1: no line matching '$2' in bench.md"
}
# col CONFIG BOOT NAME: a metrics.csv figure
col() {
	cols "$res/metrics.csv" config boot "$3" | awk -v c="$1" -v b="$2" '$1 == c && $2 == b { print $3 }'
}
# delta FROM TO: kcompactd ns over the nodes between two readings
delta() {
	awk 'FNR == NR { b[$1] = $2; next } { s += $2 - b[$1] } END { print s }' "$1" "$2"
}

fixture
report
expect "twelve boots" "$(($(wc -l < "$res/metrics.csv") - 1))" 12
d=$res/off-2
expect "off-2 rounds-phase CPU" "$(col off 2 round_cpu_ns)" "$(delta "$d/cpu-start" "$d/cpu-rounds")"
expect "off-2 idle-phase CPU" "$(col off 2 idle_cpu_ns)" "$(delta "$d/cpu-rounds" "$d/cpu-idle")"
expect "off-2 pages scanned" "$(col off 2 pages_scanned)" \
	"$(awk 'FNR == NR { b[$1] = $2; next } $1 == "compact_migrate_scanned" || $1 == "compact_free_scanned" { s += $2 - b[$1] } END { print s }' \
		"$d/vmstat-start" "$d/vmstat-rounds")"
expect "off-2 checks: counted, the context switches" "$(col off 2 checks)" "$(delta "$d/csw-rounds" "$d/csw-idle")"
expect "calib-3 events" "$(col calib 3 events)" "$(cat "$res/calib-3/events")"
expect "off-1 has no events" "$(col off 1 events)" -
expect "stock has no rounds counter" "$(col stock 1 rounds)" -
expect "on-1 checks recorded (proactive-trace --json)" "$(col on 1 traced_checks)" 16
expect "stock-3 CPU per 100k pages" "$(col stock 3 cpu_ns_per_100k_pages)" \
	"$(awk -v c="$(col stock 3 round_cpu_ns)" -v p="$(col stock 3 pages_scanned)" 'BEGIN { printf "%.0f", c / p * 100000 }')"

# The report: the spread, the ratios with their intervals and n
has_line "boots" '^Guest: .*Boots per configuration: stock 3, off 3, on 3, calib 3'
has_line "idle-check row" "^\| kcompactd CPU per idle check \(ns\) \| $(cols "$res/metrics.csv" config cpu_ns_per_check |
	awk '$1 == "stock" { print $2 }' | sort -n | paste -sd' ' | awk '{ print $1 " / " $2 " / " $3 }') \|"
ratio=$(cols "$res/metrics.csv" config cpu_ns_per_check | awk '$1 == "on" { a += log($2); na++ } $1 == "off" { b += log($2); nb++ }
	END { printf "%.3f", exp(a / na - b / nb) }')
has_line "on / off per check: the geometric means' ratio, its interval and n" \
	"^\| cpu_ns_per_check \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \(n 3/3\) \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \(n 3/3\) \| $ratio \[[0-9.]+, [0-9.]+\] \(n 3/3\) \| [0-9.]+ \[[0-9.]+, [0-9.]+\] \(n 3/3\) \|"
jq -e --argjson r "$ratio" '.ratios.cpu_ns_per_check_on_off | (.ratio * 1000 | round) == ($r * 1000 | round) and .ci95[0] < .ratio and .ratio < .ci95[1] and .n == [3, 3]' \
	"$res/summary.json" > /dev/null || fail "summary.json: $(jq -c .ratios.cpu_ns_per_check_on_off "$res/summary.json")"
echo "ok: summary.json's ratio"
cv=$(cols "$res/metrics.csv" config pages_scanned | awk '$1 == "off" { s += $2; q += $2 * $2; n++ }
	END { m = s / n; printf "%.2f", 100 * sqrt((q - n * m * m) / (n - 1)) / m }')
has_line "off's coefficient of variation of pages scanned" "^\| pages_scanned \| [0-9.]+ \| $cv \| [0-9.]+ \| [0-9.]+ \|$"
# The fixture: events on cost more per check; off against stock per check
# is not resolved
added() {	# CONFIG-A CONFIG-B: the difference of the mean CPU per check, from metrics.csv
	cols "$res/metrics.csv" config cpu_ns_per_check | awk -v a="$1" -v b="$2" '
		$1 == a { sa += $2; na++ } $1 == b { sb += $2; nb++ } END { printf "%.1f", sa / na - sb / nb }'
}
near() {	# WHAT LINE-REGEX WANT: the line's figure before " ns [" is WANT, to 1 ns (metrics.csv rounds)
	got=$(grep -E "$2" "$res/bench.md" | sed -n 's/.*: \(-\{0,1\}[0-9.]*\) ns \[.*/\1/p')
	[ -n "$got" ] || fail "$1: no line matching '$2' in bench.md"
	awk -v g="$got" -v w="$3" 'BEGIN { exit !(g - w < 1 && w - g < 1) }' || fail "$1: $got ns, want $3"
	echo "ok: $1: $got ns"
}
near "events on: added per check" "^- per check, the series' events on \(one check event a check\), on against off .* \(n 3/3\)\.$" "$(added on off)"
near "calib: added per check, the yardstick" "^- per check, the yardstick: stock recording mm_compaction_kcompactd_sleep, calib against stock .* \(n 3/3\)\.$" "$(added calib stock)"
has_line "boots for a 1% half-width" '^- cpu_ns_per_check: the interval does not lie inside \[0.99, 1.01\]; boots for a 1% half-width: [0-9]+$'
has_line "on / off per check excludes 1" '^Intervals that exclude 1:.* cpu_ns_per_check on / off: [0-9.]+ \(higher\)'
grep -q 'cpu_ns_per_check off / stock' "$res/bench.md" && fail "off / stock per check named as resolved"
has_line "checks counted" '^Checks: counted'
has_line "checks recorded" 'Checks recorded with the series. events on, over both phases: 16/16/16'
has_line "the 1% rule: per check, not within" '^- cpu_ns_per_check: the interval does not lie inside \[0.99, 1.01\]'
jq -e '.within_1pct.cpu_ns_per_check == 0 and .checks_counted == true' "$res/summary.json" > /dev/null ||
	fail "summary.json: $(jq -c '{within_1pct, checks_counted}' "$res/summary.json")"

# The opposite: events on as cheap as tracing off in the idle phase
fixture
for i in 1 2 3; do
	awk 'FNR == NR { r[$1] = $2; next } { print $1, r[$1] + $2 }' "$res/on-$i/cpu-rounds" /dev/stdin > "$TEST_DIR/idle" <<-IDLE
	$(awk 'FNR == NR { b[$1] = $2; next } { print $1, $2 - b[$1] }' "$res/off-$i/cpu-rounds" "$res/off-$i/cpu-idle")
	IDLE
	mv "$TEST_DIR/idle" "$res/on-$i/cpu-idle"
done
report
expect "on's idle CPU is off's" "$(col on 2 idle_cpu_ns)" "$(col off 2 idle_cpu_ns)"
grep -q 'cpu_ns_per_check on / off' "$res/bench.md" && fail "on / off per check still named as resolved"
# and stock's and off's idle phases alike to 0.1% (off 0.05% above)
for i in 1 2 3; do
	for c in stock off; do
		awk -v k="$i" -v c="$c" '{ print $1, $2 + 2500000 * (1 + (k - 2) / 1000) * (c == "off" ? 1.0005 : 1) }' \
			"$res/$c-$i/cpu-rounds" > "$res/$c-$i/cpu-idle"
		awk '{ print $1, $2 + 40 }' "$res/$c-$i/csw-rounds" > "$res/$c-$i/csw-idle"
	done
done
report
has_line "the 1% rule: per check, within" '^- cpu_ns_per_check: the interval lies inside \[0.99, 1.01\]'
jq -e '.within_1pct.cpu_ns_per_check == 1' "$res/summary.json" > /dev/null ||
	fail "summary.json: $(jq -c .within_1pct "$res/summary.json")"
echo "ok: what it says follows the changed data"

# Bad input: no boots
mkdir -p "$TEST_DIR/empty"
"$lr" bench "$TEST_DIR/empty" 2> "$TEST_DIR/empty.err" && fail "lab-report accepted a folder without boots"
grep -q 'no boot results' "$TEST_DIR/empty.err" || fail "lab-report's error: $(cat "$TEST_DIR/empty.err")"
echo "ok: bad input rejected"
