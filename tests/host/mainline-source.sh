# lab-tags: runner
# scripts/mainline-source.sh against a fake apt: it takes the newest
# linux-source-7.x of unstable, else of experimental, or the one
# MAINLINE_PKG names; it fails with the offered versions named when none
# can be installed, when MAINLINE_PKG names one not offered, and when apt
# would upgrade anything from unstable or experimental; a failure leaves
# no choice behind.
# shellcheck source=tests/lib/host.sh
. "$(dirname "$0")/../lib/host.sh"

d=$TEST_DIR
mkdir -p "$d/bin" "$d/etc/sources.list.d" "$d/etc/preferences.d" "$d/src"
touch "$d/src/linux-source-7.2.tar.xz" "$d/src/linux-source-7.3.tar.xz"
# The fake apt: OFFER is madison's output, INSTALL_FAILS and LEAK are flags,
# and installed packages are files in $d/installed.
cat > "$d/bin/apt-cache" <<'FAKE'
#!/bin/sh
case $1 in
pkgnames) printf '%s\n' "$OFFER" | awk -F'|' 'NF { gsub(/ /, "", $1); print $1 }' ;;
madison) printf '%s\n' "$OFFER" | grep . ;;
esac
FAKE
cat > "$d/bin/apt-get" <<'FAKE'
#!/bin/sh
case $* in
*-s\ upgrade*) [ -z "$LEAK" ] || echo "Inst libc6 [2.36-9] (2.43-1 Debian:unstable [amd64])" ;;
*install*) [ -z "$INSTALL_FAILS" ] || exit 100
	for a; do case $a in linux-source-*) echo "$a" >> "$FAKE_DIR/installed" ;; esac; done ;;
esac
exit 0
FAKE
cat > "$d/bin/dpkg-query" <<'FAKE'
#!/bin/sh
eval "p=\${$#}"
grep -qx "$p" "$FAKE_DIR/installed" 2>/dev/null || exit 1
printf 'installed %s' "$(printf '%s\n' "$OFFER" | awk -F'|' -v p="$p" '{ gsub(/ /, "", $1); gsub(/ /, "", $2) } $1 == p { print $2; exit }')"
FAKE
chmod +x "$d/bin/"*
both=' linux-source-7.2 | 7.2.13-1 | http://deb.debian.org/debian unstable/main all Packages
 linux-source-7.3 | 7.3~rc7-1~exp1 | http://deb.debian.org/debian experimental/main all Packages'
export PATH="$d/bin:$PATH" APT_ETC=$d/etc SRC_DIR=$d/src FAKE_DIR=$d OFFER LEAK="" INSTALL_FAILS="" MAINLINE_PKG=""

run() { (cd "$top" && "$scripts/mainline-source.sh" "$d/out") > "$d/log" 2>&1; }

OFFER=$both
run || fail "a good offer failed: $(cat "$d/log")"
[ "$(cat "$d/out/mainline.pkg")" = "linux-source-7.2 7.2.13-1 unstable" ] || fail "took $(cat "$d/out/mainline.pkg"), not unstable's 7.2"
[ "$(readlink "$d/out/linux-source-mainline.tar.xz")" = "$d/src/linux-source-7.2.tar.xz" ] || fail "the tarball link is wrong"
grep -q 'MAINLINE linux-source-7.2 7.2.13-1 (unstable)' "$d/log" || fail "it did not say which it took: $(cat "$d/log")"
grep -qx 'Pin-Priority: 1' "$d/etc/preferences.d/lab-mainline.pref" || fail "unstable is not pinned at 1"
echo "ok: unstable's 7.2 taken, said, linked, pinned at 1"

MAINLINE_PKG=linux-source-7.3 run || fail "MAINLINE_PKG=linux-source-7.3 failed: $(cat "$d/log")"
[ "$(cut -d' ' -f1 "$d/out/mainline.pkg")" = linux-source-7.3 ] || fail "MAINLINE_PKG was not followed"
echo "ok: MAINLINE_PKG=linux-source-7.3 taken"

OFFER=' linux-source-7.3 | 7.3~rc7-1~exp1 | http://deb.debian.org/debian experimental/main all Packages'
run || fail "experimental only failed: $(cat "$d/log")"
[ "$(cut -d' ' -f1 "$d/out/mainline.pkg")" = linux-source-7.3 ] || fail "without unstable, experimental's was not taken"
echo "ok: without one in unstable, experimental's taken"

# Every failure: a clear message, non-zero, and the choice left as it was.
cp "$d/out/mainline.pkg" "$d/before"
expect_fail() {	# WHAT PATTERN
	if run; then fail "$1 was accepted"; fi
	grep -q "$2" "$d/log" || fail "$1: the message does not say '$2': $(cat "$d/log")"
	cmp -s "$d/before" "$d/out/mainline.pkg" || fail "$1 changed the choice"
	echo "ok: $1 refused: $(tail -1 "$d/log")"
}
OFFER=
expect_fail "nothing offered" "no linux-source-7.x"
OFFER=$both
MAINLINE_PKG=linux-source-7.9 expect_fail "MAINLINE_PKG not offered" "offered: linux-source-7.3 7.3~rc7-1~exp1 (experimental); linux-source-7.2 7.2.13-1 (unstable)"
rm -f "$d/installed"
INSTALL_FAILS=1 expect_fail "a failed install" "cannot be installed; offered: .*linux-source-7.2 7.2.13-1 (unstable)"
LEAK=1 expect_fail "an upgrade from unstable" "would upgrade from unstable or experimental"
