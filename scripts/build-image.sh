#!/bin/sh
# Turn the rootfs folder plus guest-image/ (the init) into an ext4 image,
# without loop mounts.  The image is booted with snapshot=on, so every run
# starts from the same pristine state.
#
# usage: build-image.sh ROOTFS INIT IMAGE SIZE
set -eu

rootfs=$1 init=$2 image=$3 size=$4

install -m 0755 "$init" "$rootfs/sbin/lab-init"
mkdir -p "$rootfs/lab" "$rootfs/out"
rm -f "$image.tmp"
mke2fs -q -t ext4 -L lab-root -d "$rootfs" "$image.tmp" "$size" >/dev/null
mv "$image.tmp" "$image"
