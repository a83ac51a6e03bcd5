#!/bin/bash
# make soak: SOAK_CYCLES suspend cycles (default 200) on each topology, under
# the topology's write load, with lockdep on: the mix SOAK_MIX (default
# "freezer:4 devices:3 mem:2 disk:1", hibernation included) repeated until
# there are enough.  The first cycle that fails ends that topology's run,
# whose console stays under build/soak/NAME.  One table at the end,
# build/soak/table.txt: cycles passed, freeze phase median and p99 (ms, both
# phases), the longest pre-suspend sync (s), splats, verdict.
# SOAK_TOPOLOGIES=path... selects a subset; SOAK_JOBS=N runs N at once.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
FSGRAPH=$B/fsgraph
out=$B/soak${FG_FLAVOR:+-$FG_FLAVOR}
. "$top/tests/common/topo.sh"
. "$top/guest/topology.sh"

die() { echo "soak: $*" >&2; exit 2; }

cycles=${SOAK_CYCLES:-200}
njobs=${SOAK_JOBS:-1}
[[ $njobs =~ ^[1-9]$ ]] || die "SOAK_JOBS: '$njobs' is not a number of guests from 1 to 9"
mix=${SOAK_MIX:-freezer:4 devices:3 mem:2 disk:1}
[[ $cycles =~ ^[1-9][0-9]*$ ]] || die "SOAK_CYCLES: '$cycles' is not a positive number"
topo_cycles_valid "$mix" || die "SOAK_MIX: '$mix' is not a list of KIND:COUNT"

# spec: the mix, repeated, cut at $cycles cycles.
spec=() n=0
while [ $n -lt "$cycles" ]; do
	for item in $mix; do
		k=${item%%:*} c=${item#*:}
		[ $((n + c)) -le "$cycles" ] || c=$((cycles - n))
		[ "$c" -gt 0 ] || break
		spec+=("$k:$c")
		n=$((n + c))
	done
done
# A cycle takes 3 to 10 s under TCG; hibernation more.
tmo=$((600 + 20 * cycles))

topos=${SOAK_TOPOLOGIES:-$(ls -d "$top"/topologies/* | grep -v '\.md$')}
mkdir -p "$out"
table=$out/table.txt
fmt='%-28s | %9s | %7s | %7s | %8s | %6s | %s\n'
{
	echo "make soak: SOAK_CYCLES=$cycles SOAK_MIX=\"$mix\", kernel ${FG_KERNEL:-$B/bzImage}"
	printf "$fmt" topology cycles "med ms" "p99 ms" "sync s" splats verdict
	printf '%s\n' "$(printf -- '-%.0s' $(seq 1 100))"
} >"$table"
# soak_one TOPOLOGY: run it, and print its row.
soak_one() {
	local t=$1 name dir t0 runs passed sync splats verdict
	name=$(basename "$t")
	dir=$out/$name
	t0=$(date +%s)
	"$top/guest/run.sh" -q -s -t "$tmo" -c "${spec[*]}" -o "$dir" "$t" >"$dir.log" 2>&1
	read -r runs passed < <(cycle_counts "$dir")
	sync=$(sed -n 's/.*Filesystems sync: \([0-9.]*\) seconds.*/\1/p' "$dir/dmesg.txt" 2>/dev/null |
		sort -n | tail -n 1)
	splats=$(grep -c . "$dir/splats.txt" 2>/dev/null)
	verdict=$(head -n 1 "$dir/result" 2>/dev/null || echo "no verdict (see $dir.log)")
	printf "$fmt" "$name" "${passed:-0}/$cycles" "$(freeze_ms "$dir" | median)" \
		"$(freeze_ms "$dir" | p99)" "${sync:--}" "${splats:-0}" \
		"$verdict ($(($(date +%s) - t0)) s)"
}

# SOAK_JOBS topologies at once (default 1): a guest spends much of a cycle
# asleep, so two or three share the 2 cores well; each row is written
# whole when its topology ends; the table has them in topology order.
start=$(date +%s)
rows=$out/row
for t in $topos; do
	while [ "$(jobs -rp | wc -l)" -ge "$njobs" ]; do wait -n; done
	soak_one "$t" >"$rows.$(basename "$t")" && cat "$rows.$(basename "$t")" &
done
wait
for t in $topos; do cat "$rows.$(basename "$t")" 2>/dev/null; rm -f "$rows.$(basename "$t")"; done >>"$table"
echo "total: $(($(date +%s) - start)) s" >>"$table"
echo
cat "$table"
