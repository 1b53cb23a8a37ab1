#!/bin/sh
# Check that a series applies with git am to a pristine tree: the files its
# patches change, unpacked from one of Debian's linux-source tarballs into a
# scratch repository (a patch applies or not on its files alone).
#
# usage: apply-series.sh TARBALL PATCH...   (cover letters are left out)
set -eu

die() { echo "apply-series: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: apply-series.sh TARBALL PATCH..."
tarball=$1
shift
[ -r "$tarball" ] || die "$tarball not found"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p; do
	case $(basename "$p") in *0000-cover-letter.patch) ;; *) realpath "$p" ;; esac
done > "$tmp/series"
[ -s "$tmp/series" ] || die "no patch given"

# The files the series changes that exist before it (a/ side, not new).
top=$(tar -tf "$tarball" | head -n 1 | cut -d/ -f1)
xargs cat < "$tmp/series" | sed -n 's|^--- a/||p' | sort -u | sed "s|^|$top/|" > "$tmp/files"
mkdir "$tmp/tree"
tar -xf "$tarball" -C "$tmp/tree" --strip-components=1 -T "$tmp/files"
git -C "$tmp/tree" init -q
git -C "$tmp/tree" -c user.name=apply -c user.email=apply@localhost add -A -f
git -C "$tmp/tree" -c user.name=apply -c user.email=apply@localhost commit -q -m base
# shellcheck disable=SC2046 # one word per patch file
if ! git -C "$tmp/tree" -c user.name=apply -c user.email=apply@localhost am -q $(cat "$tmp/series") >"$tmp/am.log" 2>&1; then
	cat "$tmp/am.log" >&2
	die "the series does not apply to $(basename "$tarball") with git am"
fi
echo "  APPLY   $(wc -l < "$tmp/series") patches to $(basename "$tarball"): $(git -C "$tmp/tree" rev-list --count HEAD~"$(wc -l < "$tmp/series")"..HEAD) commits"
