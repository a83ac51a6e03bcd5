#!/bin/bash
# make demo: boot topologies (by default the plain ext4, then the dm-reload
# inversion), suspend each under load, then render its freeze graph and
# print the DAG and list orders side by side.
#
#   scripts/demo.sh [TOPOLOGY...]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

demo_one() {
topo=$1
name=$(basename "$topo")
res=$top/build/results/$name
fsgraph=$top/build/fsgraph

"$top/guest/run.sh" -o "$res" "$topo"
rc=$?
echo
echo "== $name: $(cat "$res/result" 2>/dev/null)"
[ -s "$res/cycles.txt" ] && { echo "== cycles (kind n result seconds):"; sed 's/^/   /' "$res/cycles.txt"; }

# The dump taken right after the suspend cycles, with the stack still up
# (fs_freeze_graph.dot is taken at the very end, after the teardown).
dump=$res/graph-cycles.dot
if [ ! -s "$dump" ]; then
	dump=$res/oracle-cycles.dot
	echo "== this kernel has no /sys/kernel/debug/fs_freeze_graph; showing the oracle's graph"
fi
if [ -s "$dump" ]; then
	"$fsgraph" render "$dump" -o "$res/graph.svg" && "$fsgraph" render "$dump" -o "$res/graph.png" &&
		echo "== rendered: $res/graph.svg and $res/graph.png"
	echo "== freeze orders ($(basename "$dump")):"
	"$fsgraph" order "$dump" | sed 's/^/   /'
	[ -s "$res/freeze-sequences.txt" ] && { echo "== what the kernel froze, per cycle:"; sed 's/^/   /' "$res/freeze-sequences.txt"; }
fi
return $rc
}

[ $# -gt 0 ] || set -- "$top/topologies/ext4" "$top/topologies/dm-reload-onto-loop"
status=0
for t in "$@"; do
	demo_one "$t" || status=1
	echo
done
exit $status
