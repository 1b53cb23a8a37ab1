#!/bin/sh
# Install, with apt-get, the Debian packages the lab needs that are missing,
# and the extra ones named as arguments (the kernel source package of the
# chosen tree).  Nothing is downloaded from anywhere but the machine's own
# apt sources.
#
# usage: deps.sh [PACKAGE...]
set -eu

packages="
	$*
	build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils rsync
	ccache pkg-config
	qemu-system-x86 debootstrap e2fsprogs
	trace-cmd libtracecmd-dev libtraceevent-dev libtracefs-dev
	libcap-dev libnuma-dev
	gnuplot-nox jq shellcheck
	python3-ply python3-git
"

missing=
for p in $packages; do
	status=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$status" = installed ] || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

echo "  APT     $missing"
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086 # one word per package
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
