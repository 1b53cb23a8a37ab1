#!/bin/sh
# Print the Debian mirror this machine's apt uses (the first URIs: of a
# deb822 source, or the first "deb" line), so that nothing in the repository
# names a mirror.
set -eu
for f in /etc/apt/sources.list.d/*.sources; do
	[ -r "$f" ] || continue
	url=$(awk '/^URIs:/ && $2 !~ /security/ { print $2; exit }' "$f")
	[ -n "$url" ] && { echo "$url"; exit 0; }
done
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -r "$f" ] || continue
	url=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' "$f")
	[ -n "$url" ] && { echo "$url"; exit 0; }
done
echo "apt-mirror: no Debian mirror found in /etc/apt" >&2
exit 1
