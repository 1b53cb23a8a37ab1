#!/bin/sh
# Run the tree's scripts/checkpatch.pl --strict on every patch of a series
# (not the cover letter); fail if any reports an error or a warning.
#
# usage: checkpatch-series.sh TREE PATCHDIR
set -eu

tree=$1 patchdir=$(realpath "$2")
bad=0
for p in "$patchdir"/[0-9]*.patch; do
	[ -e "$p" ] || continue
	case $(basename "$p") in 0000-*) continue ;; esac
	# Debian's python3, which has the modules spdxcheck.py imports.
	total=$(cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict "$p" 2>&1 |
		grep '^total:' || true)
	echo "  CHECKPATCH $(basename "$p"): ${total:-no verdict}"
	case $total in "total: 0 errors, 0 warnings,"*) ;; *) bad=1 ;; esac
done
[ "$bad" = 0 ] || { echo "checkpatch-series: errors or warnings" >&2; exit 1; }
