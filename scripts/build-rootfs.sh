#!/bin/sh
# Build the guest's root filesystem folder with debootstrap (minbase bookworm
# plus guest-image/packages), from the mirror in the host's apt configuration.
# Slow (about a minute) and so kept apart from build-image.sh, which is fast.
#
# usage: build-rootfs.sh PACKAGES DIR
set -eu

packages=$1 dir=$2
here=$(dirname "$0")

mirror=$("$here/apt-mirror.sh")
include=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$packages" | paste -sd, -)

rm -rf "$dir" "$dir.tmp"
echo "  DEBOOTSTRAP bookworm ($include) from $mirror"
debootstrap --variant=minbase --include="$include" bookworm "$dir.tmp" "$mirror" \
	> "$dir.log" 2>&1 || { tail -20 "$dir.log" >&2; exit 1; }

# An unprivileged user for permission tests.
chroot "$dir.tmp" useradd -m -s /bin/bash lab
# Keep the image small: no package lists or caches are needed in the guest.
rm -rf "$dir.tmp"/var/cache/apt/archives/*.deb "$dir.tmp"/var/lib/apt/lists/*
mv "$dir.tmp" "$dir"
