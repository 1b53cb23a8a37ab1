#!/bin/sh
# Build the tree's admin-guide documentation with Sphinx from Debian's
# packages (make SPHINXDIRS=admin-guide htmldocs) and fail if any warning
# names a Documentation/ file that the series touches.  Slow: behind
# `make htmldocs`, not part of make test.
#
# usage: htmldocs.sh TREE OUTDIR
set -eu

tree=$1 out=$(mkdir -p "$2" && cd "$2" && pwd)
missing=
for p in python3-sphinx python3-sphinx-rtd-theme python3-yaml; do
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" = installed ] ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "  APT    $missing"
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	# shellcheck disable=SC2086 # one word per package
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

files=$(git -C "$tree" diff --name-only lab-base lab-series -- Documentation)
[ -n "$files" ] || { echo "htmldocs: the series touches no documentation"; exit 0; }
echo "  HTMLDOCS admin-guide (log: $out/build.log)"
# Debian's python3 and sphinx-build, whatever python is first in PATH.
PATH=/usr/bin:$PATH make -C "$tree" O="$out" SPHINXDIRS=admin-guide htmldocs \
	> "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
grep -iE 'warning|error' "$out/build.log" > "$out/warnings.log" || true
echo "  $(wc -l < "$out/warnings.log") warnings in the whole build"
bad=0
for f in $files; do
	if grep -F "$f" "$out/warnings.log"; then
		bad=1
	else
		echo "  no warning in $f"
	fi
done
[ "$bad" = 0 ] || { echo "htmldocs: warnings in the series' documentation" >&2; exit 1; }
[ -s "$out/Documentation/output/admin-guide/mm/proactive-compaction.html" ] ||
	{ echo "htmldocs: no admin-guide/mm/proactive-compaction.html" >&2; exit 1; }
echo "htmldocs: the series' pages build without warnings: $out/Documentation/output/admin-guide/mm/proactive-compaction.html"
