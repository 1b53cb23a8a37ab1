#!/bin/sh
# Write the mainline series as a posting a person can send: git format-patch
# -v3 --cover-letter of the tree's series, From: and Signed-off-by: the
# poster, To:/Cc: from the tree's own scripts/get_maintainer.pl, and
# checkpatch --strict clean (but for the false positives the cover letter
# names: scripts/checkpatch-series.sh).
#
# The repository's git identity is a placeholder, not a person, and cannot
# sign a Developer's Certificate of Origin: its From: and Signed-off-by:
# lines are replaced by the poster's.  Nothing is written without a poster.
#
# POSTER='Name <address>' (from the environment): the poster.
# usage: posting.sh TREE PATCHDIR OUTDIR
#   TREE: a tree made by prepare-tree.sh (the series on branch lab-series)
set -eu

die() { echo "posting: $*" >&2; exit 1; }
[ $# = 3 ] || die "usage: POSTER='Name <address>' posting.sh TREE PATCHDIR OUTDIR"
tree=$1 patchdir=$2 out=$3
scripts=$(dirname "$0")

# The poster: one "Name <local@domain>", not the repository's identity.
poster=${POSTER:-}
[ -n "$poster" ] || die "no POSTER: give the identity that signs the posting, e.g. make posting POSTER='Your Name <you@your.domain>'"
name=$(printf '%s' "$poster" | sed -n 's/^\([^<>]*[^<> ]\) <\([^<>@ ]\{1,\}@[^<>@ ]\{1,\}\)>$/\1/p')
email=$(printf '%s' "$poster" | sed -n 's/^\([^<>]*[^<> ]\) <\([^<>@ ]\{1,\}@[^<>@ ]\{1,\}\)>$/\2/p')
[ -n "$name" ] && [ -n "$email" ] || die "POSTER='$poster' is not 'Name <local@domain>'"
cover=$patchdir/0000-cover-letter.patch
[ -r "$cover" ] || die "no $cover"
# The placeholder: the repository's git identity, which also wrote the
# cover letter kept in PATCHDIR (its From:), and the lab tree's.
info=$(git mailinfo /dev/null /dev/null < "$cover")
cover_name=$(echo "$info" | sed -n 's/^Author: //p')
cover_email=$(echo "$info" | sed -n 's/^Email: //p')
placeholder_email=$(git config user.email 2>/dev/null || :)
lab_email=$(git -C "$tree" config user.email 2>/dev/null || :)
for id in "$(git config user.name 2>/dev/null || :)" "$placeholder_email" \
	"$cover_name" "$cover_email" "$lab_email"; do
	[ -n "$id" ] || continue
	[ "$name" != "$id" ] && [ "$email" != "$id" ] ||
		die "POSTER='$poster' is this repository's placeholder identity, which is not a person and cannot sign off"
done
# An address no one can reply to cannot take a review.
domain=$(printf '%s' "${email#*@}" | tr 'A-Z' 'a-z')
case $domain in
example | example.com | example.org | example.net | *.example | *.invalid | invalid | *.test | test | localhost | *.localhost)
	die "POSTER='$poster': $domain is a reserved domain, which no one can reply to" ;;
esac
case $email in *[Nn][Oo][Rr][Ee][Pp][Ll][Yy]*) die "POSTER='$poster' is a no-reply address, which no one can reply to" ;; esac

git -C "$tree" rev-parse -q --verify lab-series >/dev/null || die "$tree has no series (make tree)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A clone sharing the tree's objects: the series is re-made there, commit by
# commit on the same trees, with the poster as author (where the author was
# the placeholder), committer and signer.
git clone -q -s --bare "$tree" "$tmp/repo.git"
g() {
	GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email git -C "$tmp/repo.git" "$@"
}
is_placeholder() {
	for id in "$cover_email" "$placeholder_email" "$lab_email"; do
		[ -z "$id" ] || [ "$1" != "$id" ] || return 0
	done
	return 1
}
head=$(g rev-parse lab-base)
for c in $(g rev-list --reverse lab-base..lab-series); do
	author_name=$(g log -1 --format=%an "$c") author_email=$(g log -1 --format=%ae "$c")
	if is_placeholder "$author_email"; then
		author_name=$name author_email=$email
	fi
	g log -1 --format=%B "$c" |
		grep -v -i -F -e "<$cover_email>" -e "<${placeholder_email:-$cover_email}>" -e "<${lab_email:-$cover_email}>" |
		git interpret-trailers --if-exists addIfDifferent --trailer "Signed-off-by: $name <$email>" > "$tmp/msg"
	head=$(GIT_AUTHOR_NAME=$author_name GIT_AUTHOR_EMAIL=$author_email \
		GIT_AUTHOR_DATE=$(g log -1 --format=%aD "$c") \
		g commit-tree "$(g rev-parse "$c^{tree}")" -p "$head" -F "$tmp/msg")
done

# To: the maintainers get_maintainer.pl names for every patch (for mm,
# akpm); Cc: everyone else it names for any patch (other maintainers,
# reviewers, lists).  --nogit: the tree has no history.
g format-patch -q -o "$tmp/raw" lab-base.."$head"
: > "$tmp/who"
for p in "$tmp"/raw/*.patch; do
	(cd "$tree" && ./scripts/get_maintainer.pl --nogit --nogit-fallback --rolestats "$p") > "$tmp/who.1" ||
		die "get_maintainer.pl failed on $(basename "$p"): $(cat "$tmp/who.1")"
	cat "$tmp/who.1" >> "$tmp/who"
	grep '(maintainer:' "$tmp/who.1" | sed 's/ (.*//' | sort -u > "$tmp/m.1"
	if [ -e "$tmp/to" ]; then
		comm -12 "$tmp/to" "$tmp/m.1" > "$tmp/to.new" && mv "$tmp/to.new" "$tmp/to"
	else
		mv "$tmp/m.1" "$tmp/to"
	fi
done
set --
to='' cc=''
while IFS= read -r addr; do
	set -- "$@" --to="$addr"
	to="$to${to:+, }$addr"
done < "$tmp/to"
sed 's/ (.*//' "$tmp/who" | awk '!seen[$0]++' | grep -v -x -F -f "$tmp/to" > "$tmp/cc" || :
while IFS= read -r addr; do
	set -- "$@" --cc="$addr"
	cc="$cc${cc:+, }$addr"
done < "$tmp/cc"
[ -n "$to" ] || die "get_maintainer.pl names no maintainer common to every patch"


rm -rf "$tmp/out"
g format-patch -q -v3 --cover-letter --thread=shallow "$@" -o "$tmp/out" lab-base.."$head"
# The cover letter's text: patches/mainline's, from its Subject: line to
# the shortlog, in place of the template's (as export-series.sh keeps it).
new=$(ls "$tmp"/out/v3-0000-cover-letter.patch)
awk -f "$(dirname "$0")/lib/cover-text.awk" "$cover" "$new" > "$tmp/cover"
grep -q '\*\*\* BLURB HERE \*\*\*' "$tmp/cover" && die "the cover letter's text was not found in $cover"
mv "$tmp/cover" "$new"
for id in "$cover_email" "$placeholder_email" "$lab_email"; do
	[ -z "$id" ] || ! grep -l -i -F -e "$id" "$tmp"/out/*.patch ||
		die "the placeholder identity $id is still in the files above"
done

"$scripts/checkpatch-series.sh" "$tree" "$tmp/out"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp/out" "$out"
echo "  POSTING $out: $(ls "$out" | wc -l) files, From: $name <$email>"
echo "          To: $to"
echo "          Cc: $cc"
