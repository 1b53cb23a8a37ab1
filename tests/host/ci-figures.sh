# lab-tags: runner
# The CI figures in Documentation/testing.md ("Measured on 2 cores") are
# those of the runs committed in Documentation/runs/: each count and time
# the paragraph gives is found in its run's file.  So are the backports'
# kABI and test figures in their cover letters.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

runs=$top/Documentation/runs
warm=$runs/ci-cd8626c-warm.txt
cold=$runs/ci-0c742a6-cold.txt
dbg=$runs/debug-39b0632.txt
doc=$top/Documentation/testing.md
para=$(sed -n '/^Measured on 2 cores (2026-12-06)/,/^$/p' "$doc" | tr '\n' ' ' | tr -s ' ')
[ -n "$para" ] || fail "no CI paragraph in $doc"
has() {	# FILE REGEX WHAT
	grep -qE "$2" "$1" || fail "$3: not in $(basename "$1")"
}
in_doc() {	# TEXT
	case $para in *"$1"*) ;; *) fail "the paragraph no longer says '$1'" ;; esac
}
in_doc "(commit cd8626c): the mainline step's 45 tests"
has "$warm" '^1\.\.45$' "45 tests"
in_doc "in 1625 s (one failure"
has "$warm" '^# ci: 1625s so far$' "1625 s"
has "$warm" '^# 44 passed, 1 failed, 0 skipped$' "one failure"
in_doc "the 6.12 step, 25 passed: 2453 s in all"
has "$warm" '^# 25 passed, 0 failed, 0 skipped$' "25 passed"
has "$warm" '^# ci: 2453s in all$' "2453 s"
in_doc "(commit 0c742a6): the mainline step's 45 tests, 45 passed, in 2938 s in all"
has "$cold" '^45 passed, 0 failed, 0 skipped$' "45 passed"
has "$cold" '^# ci: 2938s in all$' "2938 s"
[ "$(grep -c '^# ci: .* skipped: ' "$cold")" = 3 ] || fail "the cold run did not skip three steps"
for t in 6.12 6.1; do
	f=$runs/step-$t-base.txt
	c=$(sed -n 's/^# \([0-9]*\) passed, \([0-9]*\) failed, 0 skipped$/\1 passed, \2 failed/p' "$f")
	e=$(sed -n 's/^rc=0 elapsed=\([0-9]*\)$/\1/p' "$f")
	[ -n "$c" ] && [ -n "$e" ] || fail "$f: no counts or no rc=0"
	in_doc "$t, $c in $e s"
done
in_doc "passed 5 of 5 in 346 s"
has "$dbg" '^# 5 passed, 0 failed, 0 skipped$' "5 of 5"
has "$dbg" 'elapsed=346$' "346 s"
echo "ok: the CI paragraph's figures are in the committed runs"

# The backports' "Debian kABI" figures are those of make debian-check's
# committed reports: the enum's item counts, the sizes and every CRC change.
for t in 6.12 6.1; do
	r=$top/Documentation/runs/debian-check-$t.txt
	letter=$(tr '\n' ' ' < "$top/patches/$t/0000-cover-letter.patch" | tr -s ' ')
	items=$(sed -n 's/^enum node_stat_item: \([0-9]*\) -> \([0-9]*\) items.*/\1 -> \2/p' "$r")
	sizes=$(sed -n 's/^sizeof(struct pglist_data): stock \([0-9]*\), patched \([0-9]*\) .*/\1 -> \2/p' "$r")
	[ -n "$items" ] && [ -n "$sizes" ] || fail "$r: no enum or size line"
	case $letter in *"enum node_stat_item: $items items"*) ;; *) fail "$t letter: not the report's $items items" ;; esac
	case $letter in *"sizeof(struct pglist_data): $sizes bytes"*) ;; *) fail "$t letter: not the report's sizes $sizes" ;; esac
	n=0
	for sym in $(sed -n 's/^CRC changed: [0-9]*: //p' "$r"); do
		case $letter in *" $sym,"* | *" $sym."*) n=$((n + 1)) ;; *) fail "$t letter: CRC change of $sym not named" ;; esac
	done
	case $letter in *", $n change CRC"*) ;; *) fail "$t letter: not '$n change CRC'" ;; esac
	echo "ok: $t's kABI figures are its debian-check report's ($n CRCs)"
done

# The backports' test figures are those of their committed guest runs
# (Documentation/runs/guest-<tree>.txt): the counts of the run of every
# guest test, the fixed test's rerun, and the kselftest's round.
for t in 6.12 6.1; do
	r=$top/Documentation/runs/guest-$t.txt
	letter=$(tr '\n' ' ' < "$top/patches/$t/0000-cover-letter.patch" | tr -s ' ')
	run1=$(sed -n '/^== run 1$/,/^== run 2$/p' "$r")
	n=$(echo "$run1" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
	counts=$(echo "$run1" | sed -n 's/^# \([0-9]*\) passed, \([0-9]*\) failed, 0 skipped$/\1 passed and \2 failed/p')
	[ -n "$n" ] && [ -n "$counts" ] || fail "$r: no plan or counts in run 1"
	case $letter in *"$n tests (make test KVER=$t T='guest/*'), $counts"*) ;; *) fail "$t letter: not run 1's $n tests, $counts" ;; esac
	failed=$(echo "$run1" | sed -n 's/^not ok [0-9]* [^/]*\/guest\///p')
	for f in $failed; do
		case $letter in *"($f)"*) ;; *) fail "$t letter: the failed $f not named" ;; esac
		sed -n '/^== run 2$/,/^== run 1:/p' "$r" | grep -qE "^ok [0-9]+ [^/]*/guest/$f$" ||
			fail "$r: $f does not pass in run 2"
	done
	frag=$(sed -n 's/^# node [0-9]*: [0-9]* kB free, \([0-9]*\) kB fragmented, score \([0-9]*\)$/\1 kB fragmented/p' "$r")
	round=$(sed -n 's/^# node [0-9]*: round at proactiveness \([0-9]*\): score [0-9]*, low \([0-9]*\), high \([0-9]*\)$/proactiveness \1 with low \2 and high \3/p' "$r")
	[ -n "$frag" ] && [ -n "$round" ] || fail "$r: no kselftest round"
	case $letter in *"$frag"*) ;; *) fail "$t letter: not the run's $frag" ;; esac
	case $letter in *"$round"*) ;; *) fail "$t letter: not the run's $round" ;; esac
	echo "ok: $t's test figures are its committed guest run's ($counts of $n, then $failed passed; $frag)"
done
