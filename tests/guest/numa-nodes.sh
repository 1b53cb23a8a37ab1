# lab-tags: runner
# The guest has NODES NUMA nodes, each with memory, and one kcompactd
# thread per node.
# shellcheck source=tests/lib/guest.sh
. /lab/tests/lib/guest.sh

nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)
expect_eq "NUMA nodes" "$nodes" "$NODES"

for d in /sys/devices/system/node/node[0-9]*; do
	n=${d##*node}
	kb=$(awk '/MemTotal:/ { print $4 }' "$d/meminfo")
	[ "${kb:-0}" -gt 0 ] || fail "node $n has no memory"
	echo "ok: node $n has $kb kB"
	threads=$(pgrep -c -x "kcompactd$n")
	expect_eq "kcompactd$n threads" "$threads" 1
done
expect_eq "kcompactd threads in all" "$(pgrep -c '^kcompactd[0-9]+$')" "$NODES"
