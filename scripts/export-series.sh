#!/bin/sh
# Write a tree's series back to its patch folder: git format-patch of
# lab-base..BRANCH with a cover letter whose text (its Subject: line to
# the shortlog) is kept from the folder's current cover letter, so that
# only the shortlog and the diffstat are regenerated.
#
# usage: export-series.sh TREE BRANCH PATCHDIR PREFIX   (PREFIX: "PATCH v3")
set -eu

tree=$1 branch=$2 patchdir=$3 prefix=$4
die() { echo "export-series: $*" >&2; exit 1; }
old=$patchdir/0000-cover-letter.patch
[ -r "$old" ] || die "no $old to take the cover letter's text from"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$tree" format-patch -q --cover-letter --subject-prefix="$prefix" \
	-o "$tmp" "lab-base..$branch"
# The text: from Subject: up to the line before the shortlog's
# "Name (N):" line; the new file's template text is replaced by it.
awk -f "$(dirname "$0")/lib/cover-text.awk" "$old" "$tmp/0000-cover-letter.patch" > "$tmp/cover"
grep -q '\*\*\* BLURB HERE \*\*\*' "$tmp/cover" && die "the cover letter's text was not found in $old"
mv "$tmp/cover" "$tmp/0000-cover-letter.patch"
rm -f "$patchdir"/[0-9][0-9][0-9][0-9]-*.patch
cp "$tmp"/*.patch "$patchdir"/
ls "$patchdir"
