# lab-tags: tools
# The published figures are those of the committed runs
# (Documentation/testing.md, "Figures").  In README.md and Documentation/*.md:
#  - every block tagged "<!-- from: runs/DIR/FILE -->" (the fenced block
#    after the tag) is, line for line, FILE as regenerated from the data in
#    Documentation/runs/DIR (FILE bench.md: lab-report bench on a copy of
#    the boots' readings; a protocol run's report.md and metrics.csv:
#    lab-report protocol on a copy of its record), or the committed FILE where the host cannot make
#    it again (captures cut from guest recordings, the static listings'
#    summary); "FILE#HEADING" quotes one section of a markdown FILE, from
#    the heading whose text is HEADING to the next heading of its level;
#  - a section marked "<!-- figures: checked -->" under its heading holds
#    no figure outside such blocks: a digit or a number word (three and
#    up, hundreds, twice, ...) in its prose, or an untagged fenced block,
#    fails.  Let be: the paragraphs that label a run ("Run:
#    ..."), which name dates, commits and versions; commit hashes and the
#    paths of runs; and the marker's constants ("<!-- figures: checked;
#    constants: 95% | 1% -->": the protocol's fixed values, literally).
# The mainline cover letter quotes captures and the bench's results: each
# quoted line is found in the committed files.  The static method's summary
# and hand trace are counted again in its committed listings.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

runs=$top/Documentation/runs
lr=$top/build/bin/lab-report
[ -x "$lr" ] || fail "no $lr (make build/bin/lab-report)"

# want TAG: w, the file a tag names, regenerated where the host can
want() {
	dir=${1%/*} file=${1##*/}
	[ -d "$runs/$dir" ] || fail "$doc quotes runs/$dir, which is not committed"
	case $1 in
	*/bench.md)
		rm -rf "$TEST_DIR/run" && cp -r "$runs/$dir" "$TEST_DIR/run"
		"$lr" bench "$TEST_DIR/run" > "$TEST_DIR/report.log" 2>&1 ||
			fail "lab-report bench runs/$dir: $(tail -3 "$TEST_DIR/report.log")"
		w=$TEST_DIR/run/bench.md ;;
	protocol-*/report.md | protocol-*/metrics.csv)
		rm -rf "$TEST_DIR/run" && mkdir "$TEST_DIR/run" && cp -r "$runs/$dir" "$TEST_DIR/run/$dir"
		"$lr" protocol "$TEST_DIR/run/$dir" > "$TEST_DIR/report.log" 2>&1 ||
			fail "lab-report protocol runs/$dir: $(tail -3 "$TEST_DIR/report.log")"
		w=$TEST_DIR/run/$dir/$file ;;
	*)
		[ -r "$runs/$1" ] || fail "$doc quotes runs/$1, which is not committed"
		w=$runs/$1 ;;
	esac
}

n=0 docs=0
for doc in "$top/README.md" "$top"/Documentation/*.md; do
	name=${doc#"$top"/}
	sed -n 's/^<!-- from: runs\/\(.*\) -->$/\1/p' "$doc" > "$TEST_DIR/tags"
	while IFS= read -r tag; do
		awk -v t="<!-- from: runs/$tag -->" '$0 == t { on = 1; next }
			on == 1 && /^```/ { on = 2; next } on == 2 && /^```/ { exit } on == 2' "$doc" > "$TEST_DIR/quoted"
		[ -s "$TEST_DIR/quoted" ] || fail "$name: no fenced block after the tag for runs/$tag"
		section=
		case $tag in *"#"*) section=${tag#*#} tag=${tag%%#*} ;; esac
		want "$tag"
		if [ -n "$section" ]; then
			# the section of the file: its heading line to the next
			# heading of its level or higher, without the blank lines after
			awk -v h="$section" '!on && /^#+ / && substr($0, index($0, " ") + 1) == h {
					on = 1; lvl = index($0, " "); print; next }
				on && /^#+ / && index($0, " ") <= lvl { exit } on' "$w" |
				awk '{ l[NR] = $0 } NF { last = NR } END { for (i = 1; i <= last; i++) print l[i] }' > "$TEST_DIR/section"
			[ -s "$TEST_DIR/section" ] || fail "$name: runs/$tag has no section '$section'"
			w=$TEST_DIR/section tag="$tag#$section"
		fi
		diff -u "$w" "$TEST_DIR/quoted" > "$TEST_DIR/diff" ||
			fail "$name's block from runs/$tag differs from the data's: $(sed -n '3,$p' "$TEST_DIR/diff" | grep -m1 '^[-+]')"
		echo "ok: $name: runs/$tag: $(wc -l < "$TEST_DIR/quoted") lines as the data gives them"
		n=$((n + 1))
	done < "$TEST_DIR/tags"

	# The checked sections: no figure outside the tagged blocks
	# (headings inside fenced blocks are the quoted reports', not the
	# document's; a section ends at the next heading of its level or up)
	awk '/^```/ { if (on && !fence && !tagged) print FNR ": an untagged block"; fence = !fence; tagged = 0; next }
		fence { next }
		/^#+ / { level = index($0, " "); if (on && level <= lvl) on = 0 }
		/^<!-- figures: checked/ { on = 1; lvl = level; consts = $0
			sub(/^<!-- figures: checked;? *(constants: *)?/, "", consts); sub(/ *-->$/, "", consts)
			nc = split(consts, c, / \| /); next }
		!on { next }
		/^<!-- from: / { tagged = 1; next }
		/^Run: / { label = 1 } /^$/ { label = 0 }
		{ l = $0
		  for (i = 1; i <= nc; i++) while ((p = index(l, c[i])) > 0) l = substr(l, 1, p - 1) substr(l, p + length(c[i]))
		  gsub(/runs\/[^ `]*|commit [0-9a-f]+|[a-z]+-[0-9a-f]+-[0-9]+/, "", l) }
		label { gsub(/[0-9]+ [KMG]iB|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|linux-source-[0-9.]+|[0-9]+\.[0-9]+\.[0-9]+(-[0-9]+)?|[0-9]+\.[0-9]+/, "", l) }
		l ~ /[0-9]/ { print FNR ": " $0; next }
		label { next }
		{ w = " " tolower(l) " "; gsub(/[^a-z]+/, " ", w) }
		w ~ / (three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundreds?|thousands?|millions?|dozens?|twice|thrice) / {
			print FNR ": a figure in words: " $0 }' "$doc" > "$TEST_DIR/untagged"
	[ ! -s "$TEST_DIR/untagged" ] || fail "$name: a figure outside the quoted blocks, line $(head -1 "$TEST_DIR/untagged")"
	grep -q '^<!-- figures: checked' "$doc" && docs=$((docs + 1))
done
echo "ok: $n tagged blocks; no figure outside them in the checked sections of $docs documents"

# The mainline cover letter: its trace and counter lines are those of the
# committed captures of the mainline tree (each captures file it quotes,
# whole, indented by two spaces); its cost figures are the bench run's.
letter=$top/patches/mainline/0000-cover-letter.patch
set -- "$runs"/captures-mainline-*/
[ $# = 1 ] && [ -d "$1" ] || fail "want one Documentation/runs/captures-mainline-*/, found: $*"
cap=${1%/}
quoted=0
for f in round.txt round-counters.txt backoff.txt backoff-counters.txt; do
	sed 's/^/  /' "$cap/$f" > "$TEST_DIR/want"
	if awk 'FNR == NR { w[++nw] = $0; next }
		$0 == w[m + 1] { m++; if (m == nw) { found = 1; exit } next }
		{ m = ($0 == w[1]) }
		END { exit !found }' "$TEST_DIR/want" "$letter"; then
		quoted=$((quoted + 1))
	fi
done
[ "$quoted" -gt 0 ] || fail "the mainline letter quotes none of $(basename "$cap")'s files whole"
grep -E '^  (kcompactd|sysctl|compact_daemon_proactive_|delta )' "$letter" | sed 's/^  //' > "$TEST_DIR/lines"
while IFS= read -r line; do
	cat "$cap"/round.txt "$cap"/backoff.txt "$cap"/*-counters.txt | grep -qxF -- "$line" ||
		fail "the mainline letter quotes a line that is in no captures file of $(basename "$cap"): $line"
done < "$TEST_DIR/lines"
echo "ok: the mainline letter quotes $quoted captures files whole, and $(wc -l < "$TEST_DIR/lines") lines all from $(basename "$cap")"
# The kselftest figures it gives
frag=$(sed -n 's/^# node [0-9]*: [0-9]* kB free, \([0-9]*\) kB fragmented, score \([0-9]*\)$/\1 kB fragmented/p' "$cap/kselftest.txt" | head -1)
[ -n "$frag" ] || fail "$cap/kselftest.txt: no fragmentation line"
tr '\n' ' ' < "$letter" | tr -s ' ' | grep -qF "$frag" || fail "the mainline letter does not give the kselftest's $frag"
tr '\n' ' ' < "$letter" | tr -s ' ' | sed -n 's/.*\(The kselftest passes [^.]*\.[^.]*\.\).*/\1/p' |
	grep -oE '[0-9]+' | sort -u > "$TEST_DIR/ksft-numbers"
[ -s "$TEST_DIR/ksft-numbers" ] || fail "the mainline letter has no kselftest paragraph with figures"
while read -r x; do
	grep -qw -- "$x" "$cap/kselftest.txt" || fail "the mainline letter's kselftest figure $x is not in $(basename "$cap")/kselftest.txt"
done < "$TEST_DIR/ksft-numbers"
echo "ok: the letter's kselftest figures are the captures' ($frag; $(wc -l < "$TEST_DIR/ksft-numbers") numbers)"
# Its cost: every "ratio [low, high]" it gives is in the bench report
# (the run bench.md quotes first: its results, the run the letter reports)
bench=$(sed -n 's/^<!-- from: runs\/\(bench-[^/]*\)\/bench.md -->$/\1/p' "$top/Documentation/bench.md" | head -1)
[ -n "$bench" ] || fail "bench.md quotes no bench run"
doc=$top/Documentation/bench.md
want "$bench/bench.md"
tr '\n' ' ' < "$letter" | grep -oE '[0-9]+\.[0-9]+ \[[0-9.]+, [0-9.]+\]' > "$TEST_DIR/ratios" || :
[ -s "$TEST_DIR/ratios" ] || fail "the mainline letter gives no cost ratio"
while IFS= read -r r; do
	grep -qF -- "$r" "$w" || fail "the mainline letter's cost '$r' is not in the report of runs/$bench"
done < "$TEST_DIR/ratios"
echo "ok: the letter's $(wc -l < "$TEST_DIR/ratios") cost ratios are in the report of runs/$bench"
flat=$(tr '\n' ' ' < "$letter" | tr -s ' ')
boots=$(echo "$flat" | grep -oE '[0-9]+ boots of each in randomized' | grep -oE '^[0-9]+')
need=$(echo "$flat" | grep -oE 'about [0-9]+ boots of each' | grep -oE '[0-9]+')
[ -n "$boots" ] && [ -n "$need" ] || fail "the mainline letter gives no boot count, or not the boots a 1% resolution needs"
grep -qF "Boots per configuration: stock $boots, off $boots, on $boots, calib $boots;" "$w" ||
	fail "the letter's $boots boots of each are not the report's"
grep -qE "^- cpu_ns_per_check: .* boots for a 1% half-width: $need\$" "$w" ||
	fail "the letter's $need boots for a 1% resolution per check are not the report's"
echo "ok: the letter's $boots boots and $need boots needed are the report's"
set -- "$runs"/bench-static-*/path.txt
fewer=$(tr '\n' ' ' < "$letter" | tr -s ' ' | grep -oE 'executes [0-9]+ fewer instructions' | grep -oE '[0-9]+')
[ -n "$fewer" ] || fail "the mainline letter gives no instruction count of the check path"
tr '\n' ' ' < "$1" | tr -s ' ' | grep -qF "$fewer fewer in all" || fail "the letter's $fewer fewer instructions are not the hand trace's ($1)"
echo "ok: the letter's $fewer fewer instructions are the hand trace's"

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
