# lab-tags: runner
# The CI figures in Documentation/testing.md ("Measured on 2 cores") are
# those of the runs committed in Documentation/runs/: each count and time
# the paragraph gives is found in its run's file.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

ci=$top/Documentation/runs/ci-95bf8c4.txt
dbg=$top/Documentation/runs/debug-39b0632.txt
doc=$top/Documentation/testing.md
para=$(sed -n '/^Measured on 2 cores (2026-12-06/,/^$/p' "$doc" | tr '\n' ' ')
[ -n "$para" ] || fail "no CI paragraph in $doc"
has() {	# FILE REGEX WHAT
	grep -qE "$2" "$1" || fail "$3: not in $(basename "$1")"
}
in_doc() {	# TEXT
	case $para in *"$1"*) ;; *) fail "the paragraph no longer says '$1'" ;; esac
}
in_doc "commit 95bf8c4"
in_doc "43 tests"
has "$ci" '^1\.\.43$' "43 tests"
in_doc "in 1656 s"
has "$ci" '^# ci: 1656s so far' "1656 s"
in_doc "2958 s in all"
has "$ci" '^rc=1 elapsed=2958$' "2958 s"
has "$ci" '^not ok [0-9]+ mainline-base/guest/hpalloc-paced$' "hpalloc-paced failed"
has "$ci" '^# 0 passed, 5 failed, 0 skipped$' "the debug step failed"
in_doc "passed 5 of 5 in 346 s"
has "$dbg" '^# 5 passed, 0 failed, 0 skipped$' "5 of 5"
has "$dbg" 'elapsed=346$' "346 s"
echo "ok: the CI paragraph's figures are in the committed runs"
