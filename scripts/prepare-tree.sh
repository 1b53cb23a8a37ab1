#!/bin/sh
# Prepare a kernel tree: unpack one of Debian's linux-source-X.Y tarballs into
# a git repository at a base commit (tag lab-base), then apply that tree's
# series (patches/X.Y) as git am would.
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

base_key=$(stat -L -c '%s %Y' "$tarball")
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
	pkg=$(basename "$(readlink -f "$tarball")" .tar.xz)
	git_tree commit -q -m "$pkg $(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null)"
	git_tree tag -f lab-base >/dev/null
	echo "$base_key" > "$base_key_file"
fi

[ "$(cat "$series_key_file" 2>/dev/null)" = "$series_key" ] && exit 0

rm -f "$series_key_file"
git_tree am --abort >/dev/null 2>&1 || true
# The series goes on its own branch, so that a branch being worked on in the
# tree is left alone.  Its commits are made in a private index, as git am
# would make them, and the tree is then checked out from where it was to
# the new series in one step: only the files that differ are written, so
# that make rebuilds only what the new series changed.
index=$(mktemp)
trap 'rm -f "$index" "$index.msg" "$index.info" "$index.patch"' EXIT
git_idx() { GIT_INDEX_FILE=$index git_tree "$@"; }
git_idx read-tree lab-base
head=$(git_tree rev-parse lab-base)
for p in "$patchdir"/*.patch; do
	[ -e "$p" ] || continue
	case $(basename "$p") in 0000-*) continue ;; esac	# cover letter
	echo "  GIT-AM  $(basename "$p")"
	git_tree mailinfo "$index.msg" "$index.patch" < "$p" > "$index.info"
	if ! git_idx apply --cached --whitespace=nowarn "$index.patch"; then
		git_tree checkout -q -f -B lab-series lab-base
		git_tree clean -q -fd
		die "patch $(basename "$p") does not apply to $(git_tree describe --always "$head")"
	fi
	field() { sed -n "s/^$1: //p" "$index.info"; }
	subject=$(field Subject)
	head=$(printf '%s\n\n%s' "$subject" "$(cat "$index.msg")" |
		GIT_AUTHOR_NAME=$(field Author) GIT_AUTHOR_EMAIL=$(field Email) \
		GIT_AUTHOR_DATE=$(field Date) git_tree commit-tree "$(git_idx write-tree)" -p "$head" -F -)
done
# A file whose stat changed but whose content did not is not written again
git_tree update-index -q --refresh >/dev/null || true
git_tree checkout -q -f -B lab-series "$head"
git_tree clean -q -fd
echo "$series_key" > "$series_key_file"
