# lab-tags: runner
# prepare-tree.sh on a tiny stand-in tarball: the series is applied with
# git am, a patch that does not apply stops it with the patch's name and no
# key is left behind, the tree is not unpacked again when only patches
# change, an unchanged series is not re-applied, and a changed one rewrites
# only the files it changes (so make rebuilds nothing else).
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

d=$TEST_DIR
mkdir -p "$d/src/linux-source-6.1" "$d/good" "$d/bad"
printf 'one\ntwo\nthree\n' > "$d/src/linux-source-6.1/file.txt"
echo untouched > "$d/src/linux-source-6.1/other.txt"
tar -cJf "$d/linux.tar.xz" -C "$d/src" linux-source-6.1

# Make a git-format-patch from a throw-away repository.
git init -q "$d/mk" && cp "$d/src/linux-source-6.1/file.txt" "$d/mk/" &&
	git -C "$d/mk" add file.txt && git -C "$d/mk" -c user.name=t -c user.email=t@t commit -qm base &&
	cp "$d/src/linux-source-6.1/other.txt" "$d/mk/" && git -C "$d/mk" add other.txt &&
	git -C "$d/mk" -c user.name=t -c user.email=t@t commit -qm other &&
	sed -i 's/two/TWO/' "$d/mk/file.txt" && echo touched > "$d/mk/other.txt" &&
	git -C "$d/mk" -c user.name=t -c user.email=t@t commit -qam 'file: shout two' &&
	git -C "$d/mk" format-patch -q -1 -o "$d/good" || fail "could not make a patch"
sed 's/^-two$/-zwei/' "$d/good/0001-file-shout-two.patch" > "$d/bad/0001-file-shout-two.patch"
mkdir -p "$d/good2"
sed 's/^+TWO$/+Two/' "$d/good/0001-file-shout-two.patch" > "$d/good2/0001-file-shout-two.patch"

"$scripts/prepare-tree.sh" "$d/linux.tar.xz" "$d/tree" "$d/good" || fail "good series did not apply"
grep -q '^TWO$' "$d/tree/file.txt" || fail "patch not applied"
[ "$(git -C "$d/tree" log --format=%s -1)" = "file: shout two" ] || fail "patch not committed with its subject"
echo "ok: good series applied"

out=$("$scripts/prepare-tree.sh" "$d/linux.tar.xz" "$d/tree" "$d/good") || fail "re-run failed"
[ -z "$out" ] || fail "unchanged series was re-applied: $out"
echo "ok: unchanged series not re-applied"

if out=$("$scripts/prepare-tree.sh" "$d/linux.tar.xz" "$d/tree" "$d/bad" 2>&1); then
	fail "a patch that does not apply was accepted"
fi
echo "$out"
echo "$out" | grep -q 'patch 0001-file-shout-two.patch does not apply' || fail "error does not name the patch: $out"
[ ! -e "$d/tree.series-key" ] || fail "a failed series left its key behind"
case $out in *UNPACK*) fail "the tree was unpacked again for a change of patches" ;; esac
git -C "$d/tree" rev-parse -q --verify lab-base >/dev/null || fail "base tag lost"
grep -q '^two$' "$d/tree/file.txt" || fail "failed series left the tree patched"
echo "ok: bad patch named, tree left at base"

"$scripts/prepare-tree.sh" "$d/linux.tar.xz" "$d/tree" "$d/good" || fail "good series did not re-apply"
grep -q '^TWO$' "$d/tree/file.txt" || fail "patch not re-applied"
echo "ok: good series re-applied after the bad one"

touch -d '2001-01-01' "$d/tree/other.txt"
"$scripts/prepare-tree.sh" "$d/linux.tar.xz" "$d/tree" "$d/good2" || fail "a changed series did not apply"
grep -q '^Two$' "$d/tree/file.txt" || fail "changed series not applied"
[ "$(stat -c %Y "$d/tree/other.txt")" = "$(date -d 2001-01-01 +%s)" ] ||
	fail "a file both series change the same way was written again"
echo "ok: a changed series rewrites only the files whose content changes"
