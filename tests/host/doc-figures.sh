# lab-tags: tools
# Documentation/bench.md's figures are those of the committed runs: every
# block that bench.md tags with "<!-- from: runs/DIR/FILE -->" is, line for
# line, FILE as regenerated from the data in Documentation/runs/DIR
# (bench.md: lab-report bench on a copy of the boots' readings) or, for a
# file that cannot be regenerated on the host (static-summary: it needs
# the two kernel builds), the committed FILE.  A figure changed by hand in
# the document, or data changed without the document, fails the test.  In
# the results section, a number outside such a block is flagged, so that
# no figure escapes the check; let be are the label paragraphs ("Run:
# ..."), which name runs, dates and commits, "commit HASH", the paths of
# runs, and the protocol's constants: 95%, 1%, 100k, [0.99, 1.01].
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

doc=$top/Documentation/bench.md
runs=$top/Documentation/runs
lr=$top/build/bin/lab-report
[ -x "$lr" ] || fail "no $lr (make build/bin/lab-report)"

tags=$(sed -n 's/^<!-- from: runs\/\(.*\) -->$/\1/p' "$doc")
[ -n "$tags" ] || skip "bench.md quotes no run"
n=0
for tag in $tags; do
	dir=${tag%/*} file=${tag##*/}
	[ -d "$runs/$dir" ] || fail "bench.md quotes runs/$dir, which is not committed"
	# the quoted block: the fenced lines after the tag
	awk -v t="<!-- from: runs/$tag -->" '$0 == t { on = 1; next }
		on == 1 && /^```/ { on = 2; next } on == 2 && /^```/ { exit } on == 2' "$doc" > "$TEST_DIR/quoted"
	[ -s "$TEST_DIR/quoted" ] || fail "bench.md: no fenced block after the tag for runs/$tag"
	case $file in
	bench.md)
		rm -rf "$TEST_DIR/run" && cp -r "$runs/$dir" "$TEST_DIR/run"
		"$lr" bench "$TEST_DIR/run" > "$TEST_DIR/report.log" 2>&1 ||
			fail "lab-report bench runs/$dir: $(tail -3 "$TEST_DIR/report.log")"
		want=$TEST_DIR/run/bench.md ;;
	*)
		want=$runs/$tag
		[ -r "$want" ] || fail "bench.md quotes runs/$tag, which is not committed" ;;
	esac
	diff -u "$want" "$TEST_DIR/quoted" > "$TEST_DIR/diff" ||
		fail "bench.md's block from runs/$tag differs from the data's: $(sed -n '3,$p' "$TEST_DIR/diff" | grep -m1 '^[-+]')"
	echo "ok: runs/$tag: $(wc -l < "$TEST_DIR/quoted") lines as the data gives them"
	n=$((n + 1))
done
echo "ok: $n blocks"

# Numbers in the results' and the protocol changes' prose, and fenced
# blocks there without a tag
awk '/^## (Results|Changes to the protocol)/ { on = 1; next } on && /^## / { on = 0 } !on { next }
	/^<!-- from: / { tagged = 1; next }
	/^```/ { if (!fence && !tagged) print FNR ": an untagged block"; fence = !fence; tagged = 0; next }
	fence { next }
	/^Run: / { label = 1 } /^$/ { label = 0 }
	{ l = $0; gsub(/95%|1%|100k|\[0\.99, 1\.01\]|runs\/[^ `]*|commit [0-9a-f]+|bench-[0-9a-f]+-[0-9]+/, "", l) }
	label { gsub(/[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|linux-source-7\.2|7\.2\.13/, "", l) }
	l ~ /[0-9]/ { print FNR ": " $0 }' "$doc" > "$TEST_DIR/untagged"
[ ! -s "$TEST_DIR/untagged" ] || fail "bench.md: a figure outside the quoted blocks, line $(head -1 "$TEST_DIR/untagged")"
echo "ok: no figure in the results' prose outside the quoted blocks"

# The static method's files, against the listings they come from: the
# summary's instruction counts, and each range of the hand trace
# (path.txt: "  FROM-TO  N  ..." or "  AT  N  ...") and its totals.
for st in "$runs"/bench-static-*/; do
	[ -d "$st" ] || continue
	count() {	# LISTING [FROM TO]: instructions (with those addresses)
		awk -F'\t' -v a="${2:-0}" -v b="${3:-ffffffff}" '
			function hex(x,  i, v) { v = 0; for (i = 1; i <= length(x); i++) v = v * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1; return v }
			$1 ~ /^ *[0-9a-f]+:$/ && NF >= 2 { x = $1; gsub(/[ :]/, "", x); v = hex(x)
				if (v >= hex(a) && v <= hex(b)) n++ } END { print n + 0 }' "$1"
	}
	want="function kcompactd: stock $(count "$st/stock.s") instructions, patched $(count "$st/patched.s")"
	[ "$(head -1 "$st/summary")" = "$want" ] || fail "$st/summary: '$(head -1 "$st/summary")', the listings give '$want'"
	which=
	while IFS= read -r line; do
		case $line in
		stock*) which=stock ;;
		patched*) which=patched ;;
		"  inline: "*)
			total=$(echo "$line" | sed 's/^  inline: \([0-9]*\).*/\1/')
			[ "$total" = "${sum:-0}" ] || fail "path.txt: $which inline $total, its ranges sum to ${sum:-0}"
			echo "ok: path.txt: $which, $total inline"
			sum=0 ;;
		"  "[0-9a-f]*)
			# shellcheck disable=SC2086 # the line's words
			set -- $line
			from=${1%-*} to=${1#*-}
			got=$(count "$st/$which.s" "$from" "$to")
			[ "$got" = "$2" ] || fail "path.txt: $which $1: $2 instructions, the listing has $got"
			sum=$((${sum:-0} + got)) ;;
		esac
	done < "$st/path.txt"
	echo "ok: $(basename "$st"): the summary's counts and the hand trace's ranges are the listings'"
done