# lab-tags: runner
# Runs shellcheck at severity warning on every shell file of the project: the
# scripts and their libraries, the host and guest tests, the guest jobs,
# the host-side checks (*.host), .ci/run and the guest's init.  Sourced
# files are followed (-x) through "# shellcheck source=" directives, which
# name paths from the repository's root.  A file without a #! line is
# checked as bash in the guest (tests/guest/, tests/lib/guest.sh) and as
# POSIX sh elsewhere, which is how each is run.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

command -v shellcheck > /dev/null || fail "no shellcheck (make deps installs it)"
cd "$top" || fail "cannot enter $top"
files=$(find scripts tests trace -path tests/host/fixtures -prune -o \( -name '*.sh' -o -name '*.host' \) -print | sort)
files="$files .ci/run guest-image/init"
n=0 bad=0
for f in $files; do
	case $(head -c 2 "$f") in
	'#!') shell= ;;
	*) case $f in tests/guest/* | tests/lib/guest.sh) shell='bash' ;; *) shell='sh' ;; esac ;;
	esac
	n=$((n + 1))
	shellcheck -x -S warning ${shell:+-s "$shell"} "$f" >> "$TEST_DIR/findings" 2>&1 || bad=$((bad + 1))
done
[ "$bad" -eq 0 ] || { cat "$TEST_DIR/findings"; fail "shellcheck: warnings in $bad of $n files (above)"; }
echo "ok: shellcheck -S warning: $n files, no finding"
