# lab-tags: posting
# make posting writes the mainline series as a v3 a person can send: it
# refuses without an identity, with a malformed one and with the
# repository's placeholder (the cover letter's From:), and then leaves an
# earlier posting as it was; given a throwaway identity, every patch is
# From: and Signed-off-by: it and by nobody else, addressed from
# get_maintainer.pl, and the posting applies with git am to the pristine
# tarball the tree was unpacked from.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

[ "${KVER:-mainline}" = mainline ] || skip "KVER=$KVER: only the mainline series is posted"
out=$TEST_DIR/posting
post() {	# POSTER: run posting.sh into $out
	POSTER=$1 "$scripts/posting.sh" "${LAB_TREE:?}" "${LAB_PATCHES:?}" "$out" > "$TEST_DIR/log" 2>&1
}
refused() {	# POSTER WHY: the posting is refused with WHY, $out untouched
	before=$(ls -l "$out" 2>/dev/null | md5sum)
	post "$1" && fail "POSTER='$1': a posting was written"
	grep -q "$2" "$TEST_DIR/log" || fail "POSTER='$1': no '$2' in: $(cat "$TEST_DIR/log")"
	[ "$(ls -l "$out" 2>/dev/null | md5sum)" = "$before" ] || fail "POSTER='$1': the refusal changed $out"
	echo "ok: POSTER='$1' refused: $(tail -n 1 "$TEST_DIR/log")"
}
cover_from=$(git mailinfo /dev/null /dev/null < "$LAB_PATCHES/0000-cover-letter.patch" |
	awk '/^Author: / { sub(/^Author: /, ""); n = $0 } /^Email: / { e = $2 } END { print n " <" e ">" }')

refused "" "no POSTER"
refused "Ada Tester" "is not 'Name <local@domain>'"
refused "<ada@example.org>" "is not 'Name <local@domain>'"
refused "Ada Tester <ada@example.org>" "reserved domain"
refused "Ada Tester <ada@mail.invalid>" "reserved domain"
refused "Ada Tester <ada@users.noreply.github.com>" "no-reply address"
refused "$cover_from" "placeholder identity"
refused "Ada Tester <${cover_from#*<}" "placeholder identity"

post "Ada Tester <ada.tester@posting-check.dev>" || fail "the posting failed: $(cat "$TEST_DIR/log")"
n=0
for p in "$LAB_PATCHES"/0*.patch; do
	case $p in *0000-cover-letter.patch) ;; *) n=$((n + 1)) ;; esac
done
i=0
for p in "$out"/v3-0*.patch; do
	b=$(basename "$p")
	grep -qx "Subject: \[PATCH v3 $i/$n\].*" "$p" || fail "$b: not [PATCH v3 $i/$n]"
	[ "$(sed -n 's/^From: //p' "$p")" = "Ada Tester <ada.tester@posting-check.dev>" ] || fail "$b: From: is not the poster"
	[ "$(sed -n 's/^To: //p' "$p")" = "Andrew Morton <akpm@linux-foundation.org>" ] ||
		fail "$b: To: is not akpm alone, the one maintainer get_maintainer.pl names for every patch"
	grep -q "linux-mm@kvack.org" "$p" || fail "$b: linux-mm is not addressed"
	if [ "$i" != 0 ]; then
		sob=$(grep "^Signed-off-by: " "$p")
		[ "$sob" = "Signed-off-by: Ada Tester <ada.tester@posting-check.dev>" ] ||
			fail "$b: sign-offs are '$sob', want the poster's only"
	fi
	i=$((i + 1))
done
[ "$i" = $((n + 1)) ] || fail "$i files in the posting, want $((n + 1))"
! grep -l -i -F "${cover_from#*<}" "$out"/*.patch || fail "the placeholder's address is in the files above"
! grep -q "BLURB HERE\|SUBJECT HERE" "$out"/v3-0000-cover-letter.patch || fail "the cover letter is the template"
echo "ok: $i files, each From: and signed by the poster only, To: and Cc: from get_maintainer.pl"

"$scripts/apply-series.sh" "$top/build/linux-source-mainline.tar.xz" "$out"/*.patch ||
	fail "the posting does not apply to the pristine tarball"
refused "" "no POSTER"
echo "ok: the posting applies with git am to the pristine tree"
