#!/bin/sh
# Prepare a kernel tree: unpack one of Debian's linux-source-X.Y tarballs into
# a git repository at a base commit (tag lab-base), then apply that tree's
# series (patches/X.Y) with git am.
#
# The tree is unpacked again only when the tarball changes, and the series is
# re-applied only when a patch of patches/ changes (not the cover letter); the keys are kept outside the tree.
#
# usage: prepare-tree.sh TARBALL TREE PATCHDIR
set -eu

tarball=$1 tree=$2 patchdir=$3
base_key_file=$tree.base-key
series_key_file=$tree.series-key

die() { echo "prepare-tree: $*" >&2; exit 1; }

[ -r "$tarball" ] || die "$tarball not found (run 'make deps')"

base_key=$(stat -c '%s %Y' "$tarball")
# The cover letter is not applied: editing it must not rebuild the kernel.
series_key=$(for p in "$patchdir"/*.patch; do
	case $(basename "$p") in 0000-*) ;; *) [ -e "$p" ] && cat "$p" ;; esac
done | sha256sum | cut -d' ' -f1)

git_tree() { git -C "$tree" -c gc.auto=0 "$@"; }

if [ ! -d "$tree/.git" ] || [ "$(cat "$base_key_file" 2>/dev/null)" != "$base_key" ]; then
	echo "  UNPACK  $tarball"
	rm -rf "$tree" "$base_key_file" "$series_key_file"
	mkdir -p "$tree"
	tar -xf "$tarball" -C "$tree" --strip-components=1
	git_tree init -q
	git_tree config user.name "Proactive compaction lab"
	git_tree config user.email "lab@localhost"
	git_tree config core.autocrlf false
	# Debian's .gitignore ignores the whole top level: add with -f.
	git_tree add -A -f
	pkg=$(basename "$tarball" .tar.xz)
	git_tree commit -q -m "$pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)"
	git_tree tag -f lab-base >/dev/null
	echo "$base_key" > "$base_key_file"
fi

[ "$(cat "$series_key_file" 2>/dev/null)" = "$series_key" ] && exit 0

rm -f "$series_key_file"
git_tree am --abort >/dev/null 2>&1 || true
# The series goes on its own branch, so that a branch being worked on in the
# tree is left alone.
git_tree checkout -q -f -B lab-series lab-base
git_tree clean -q -fd
for p in "$patchdir"/*.patch; do
	[ -e "$p" ] || continue
	case $(basename "$p") in 0000-*) continue ;; esac	# cover letter
	echo "  GIT-AM  $(basename "$p")"
	if ! git_tree am -q --whitespace=nowarn "$(realpath "$p")"; then
		git_tree am --abort >/dev/null 2>&1 || true
		die "patch $(basename "$p") does not apply to $(git_tree describe --always HEAD)"
	fi
done
echo "$series_key" > "$series_key_file"
