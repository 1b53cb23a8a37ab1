#!/bin/sh
# Run the tree's scripts/checkpatch.pl --strict on every patch of a series
# (not the cover letter); fail if any reports an error or a warning.
#
# Three message types are ignored, each a false positive for this series;
# the cover letter says so, and the raw report is printed for the record:
#  - UNKNOWN_COMMIT_ID: the backports' "commit <sha> upstream." lines name
#    upstream commits, which the tree, unpacked from a tarball, does not
#    have (they were checked against public sources);
#  - COMPLEX_MACRO: the EM()/EMe() enum lists in trace/events/mmflags.h
#    cannot be wrapped in parentheses, like every list already there;
#  - FILE_PATH_CHANGES: asks whether MAINTAINERS needs updating for a new
#    file; get_maintainer.pl sends the new document to linux-doc and the
#    new selftest to linux-mm, and the v1 review asked for no MAINTAINERS
#    change.
#
# usage: checkpatch-series.sh TREE PATCHDIR
set -eu

tree=$1 patchdir=$(realpath "$2")
ignore=UNKNOWN_COMMIT_ID,COMPLEX_MACRO,FILE_PATH_CHANGES
bad=0
for p in "$patchdir"/*.patch; do
	[ -e "$p" ] || continue
	case $(basename "$p") in *0000-cover-letter.patch) continue ;; esac
	# Debian's python3, which has the modules spdxcheck.py imports.
	raw=$(cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict "$p" 2>&1 |
		grep '^total:' || true)
	total=$(cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict \
		--ignore "$ignore" "$p" 2>&1 | grep '^total:' || true)
	echo "  CHECKPATCH $(basename "$p"): ${total:-no verdict}"
	[ "$raw" = "$total" ] || echo "             without --ignore $ignore: $raw"
	case $total in "total: 0 errors, 0 warnings,"*) ;; *) bad=1 ;; esac
done
[ "$bad" = 0 ] || { echo "checkpatch-series: errors or warnings" >&2; exit 1; }
