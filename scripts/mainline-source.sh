#!/bin/sh
# Install the mainline tree Debian offers, linux-source-7.x, from unstable
# (or experimental when unstable has none), and name it for the lab.
#
# Unstable and experimental are added to apt's sources, from the machine's
# own mirror, pinned at priority 1: below the 100 of installed packages, so
# that nothing on the machine is ever upgraded from them and only a package
# asked for by name comes from them.  No -t: that would raise every
# unstable package to 990 and pull a new libc with the kernel source.
#
# MAINLINE_PKG=linux-source-7.N picks one; the default is the newest 7.x in
# unstable (a released tree), else the newest in experimental.  The choice
# is written to OUTDIR/mainline.pkg, and OUTDIR/linux-source-mainline.tar.xz
# points at its tarball.
#
# --other: install the other 7.x on offer (the newest one that is not the
# choice in OUTDIR/mainline.pkg), for the check that the series applies to
# it too; it is named in OUTDIR/other.pkg and OUTDIR/linux-source-other.tar.xz,
# and the lab's choice is left as it is.
#
# usage: mainline-source.sh [--other] OUTDIR
set -eu

other=
[ "${1:-}" != --other ] || { other=1; shift; }
outdir=$1
# APT_ETC and SRC_DIR are for the host test, which fakes apt.
list=${APT_ETC:-/etc/apt}/sources.list.d/lab-mainline.sources
pref=${APT_ETC:-/etc/apt}/preferences.d/lab-mainline.pref

die() { echo "mainline-source: $*" >&2; exit 1; }
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive

mirror=$(scripts/apt-mirror.sh)
want_list="Types: deb
URIs: $mirror
Suites: unstable experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
want_pref="Package: *
Pin: release a=unstable
Pin-Priority: 1

Package: *
Pin: release a=experimental
Pin-Priority: 1"
if [ "$(cat "$list" 2>/dev/null)" != "$want_list" ] ||
   [ "$(cat "$pref" 2>/dev/null)" != "$want_pref" ]; then
	echo "  APT     unstable and experimental, pinned at priority 1"
	printf '%s\n' "$want_list" | $sudo tee "$list" >/dev/null
	printf '%s\n' "$want_pref" | $sudo tee "$pref" >/dev/null
	$sudo apt-get update -qq
fi

# "PACKAGE VERSION SUITE" for every linux-source-7.N apt knows, newest first.
# shellcheck disable=SC2046 # one word per package name
offered=$(apt-cache madison $(apt-cache pkgnames linux-source-7. | sort -u) 2>/dev/null |
	awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); split($3, s, " ");
		    suite = s[2]; sub(/\/.*/, "", suite); print $1, $2, suite }' |
	sort -t. -k2,2nr -u)
[ -n "$offered" ] || die "no linux-source-7.x in unstable or experimental from $mirror: check 'apt-cache policy linux-source-7.2'"

if [ -n "$other" ]; then
	chosen=$(cut -d' ' -f1 "$outdir/mainline.pkg" 2>/dev/null) ||
		die "no choice in $outdir/mainline.pkg yet (make deps)"
	pick=$(echo "$offered" | awk -v p="$chosen" '$1 != p' | head -n 1)
	[ -n "$pick" ] || die "no linux-source-7.x other than $chosen on offer: $(echo "$offered" | awk '{ printf "%s %s (%s); ", $1, $2, $3 }')"
elif [ -n "${MAINLINE_PKG:-}" ]; then
	pick=$(echo "$offered" | awk -v p="$MAINLINE_PKG" '$1 == p' | head -n 1)
	[ -n "$pick" ] || die "MAINLINE_PKG=$MAINLINE_PKG is not offered; offered: $(echo "$offered" | awk '{ printf "%s %s (%s); ", $1, $2, $3 }')"
else
	pick=$(echo "$offered" | awk '$3 == "unstable"' | head -n 1)
	[ -n "$pick" ] || pick=$(echo "$offered" | head -n 1)
fi
set -- $pick
pkg=$1 ver=$2 suite=$3

if [ "$(dpkg-query -W -f='${db:Status-Status} ${Version}' "$pkg" 2>/dev/null)" != "installed $ver" ]; then
	echo "  APT     $pkg $ver from $suite"
	if ! $sudo apt-get install -y -qq --no-install-recommends "$pkg" >/dev/null; then
		die "$pkg $ver cannot be installed; offered: $(echo "$offered" | awk '{ printf "%s %s (%s); ", $1, $2, $3 }')"
	fi
fi
tarball=${SRC_DIR:-/usr/src}/$pkg.tar.xz
[ -r "$tarball" ] || die "$pkg is installed but $tarball is missing"

# Nothing else may come from unstable or experimental.
leak=$(apt-get -s upgrade 2>/dev/null | awk '/^Inst/ && /(unstable|experimental)/')
[ -z "$leak" ] || die "apt would upgrade from unstable or experimental: $leak"

mkdir -p "$outdir"
if [ -n "$other" ]; then
	ln -sfn "$tarball" "$outdir/linux-source-other.tar.xz"
	echo "$pkg $ver $suite" > "$outdir/other.pkg"
	echo "  OTHER   $pkg $ver ($suite): $(sha256sum "$tarball" | cut -c1-16)"
	exit 0
fi
# mainline.pkg changes only with the choice: the tree is unpacked again then
ln -sfn "$tarball" "$outdir/linux-source-mainline.tar.xz"
[ "$(cat "$outdir/mainline.pkg" 2>/dev/null)" = "$pkg $ver $suite" ] ||
	echo "$pkg $ver $suite" > "$outdir/mainline.pkg"
echo "  MAINLINE $pkg $ver ($suite): $(sha256sum "$tarball" | cut -c1-16)"
