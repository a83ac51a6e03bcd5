#!/bin/bash
# make bench: how long the freeze phase takes, sequential (fs_freeze_async=0)
# against parallel (=1), each figure a median of BENCH_ROUNDS (3)
# pm_test=freezer suspends in one boot, the modes taking turns, so that
# machine noise and the boot's drift cancel out.
#
#  - k = 1, 2, 4 independent virtio disks, each throttled by QEMU to
#    BENCH_BPS (4M) of writes, each with an ext4 holding BENCH_DIRTY_MB (6)
#    MiB dirty in a new file written just before the suspend, with
#    sync_on_suspend off, so that the freeze does the writeback.  Each
#    figure is also given as a ratio to k = 1, next to the physical limit,
#    BENCH_DIRTY_MB / BENCH_BPS, and the median thaw of each mode: one at
#    a time, and independent ones at once.
#  - a dependent chain: an ext4 on a loop file in an xfs, on one throttled
#    disk, both dirty: parallel is no faster, and the order is the same;
#    medians of BENCH_CHAIN_ROUNDS (5) suspends per mode.
#  - scale and the DAG order's overhead: scripts/bench-scale.sh, unless
#    BENCH_SCALE=0.
#
# Results stay under build/bench/NAME; the table is build/bench/table.txt.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
out=$B/bench
. "$top/tests/common/topo.sh"
. "$top/scripts/bench-lib.sh"

rounds=${BENCH_ROUNDS:-3}
chain_rounds=${BENCH_CHAIN_ROUNDS:-5}
bps=${BENCH_BPS:-4M}
dirty=${BENCH_DIRTY_MB:-6}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS: '$rounds' is not a positive number"
[[ $chain_rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_CHAIN_ROUNDS: '$chain_rounds' is not a positive number"
[[ $bps =~ ^[1-9][0-9]*M$ ]] || die "BENCH_BPS: '$bps' is not a bandwidth in MiB/s like 4M"
[[ $dirty =~ ^[1-9][0-9]*$ ]] || die "BENCH_DIRTY_MB: '$dirty' is not a number of MiB"
scale=${BENCH_SCALE:-1}
[[ $scale =~ ^[01]$ ]] || die "BENCH_SCALE: '$scale' is not 0 or 1"
[ -f "${FG_KERNEL:-$top/build/bzImage}" ] || die "no kernel: run 'make kernel'"
mkdir -p "$out"

# guest_rounds N: the guest side of every bench topology.  N rounds, in
# each of which the modes take turns: write the dirty data (topo_dirty),
# then suspend once with fs_freeze_async=MODE.  Taking turns, a drift in
# the boot (the filesystems filling up, the host's load) weighs on both
# modes alike.
guest_rounds() {
	cat <<EOF
rounds() {
	echo 0 >/sys/power/sync_on_suspend
	for r in \$(seq 1 $1); do
		for mode in 0 1; do
			echo \$mode >/sys/power/fs_freeze_async || return 1
			topo_dirty "m\$mode-r\$r" || return 1
			fg_try_suspend "m\$mode-r\$r"
		done
	done
	echo 1 >/sys/power/sync_on_suspend
}
topo_load() { :; }
topo_check() { :; }
EOF
}

# parallel_topo K: K throttled disks, an ext4 on each.
parallel_topo() {
	local k=$1 i sizes=""
	for i in $(seq 1 "$k"); do sizes+="$((2 * rounds * dirty + 48))M "; done
	cat <<EOF
# make bench: $k independent throttled disks, an ext4 on each.
TOPO_DISKS="${sizes% }"
TOPO_DISK_BPS=$bps
TOPO_CYCLES="freezer:1"
topo_dirty() {
	for i in \$(seq 0 $((k - 1))); do
		dd if=/dev/urandom of=/mnt/f\$i/\$1 bs=1M count=$dirty status=none || return 1
	done
}
topo_setup() {
	for i in \$(seq 0 $((k - 1))); do
		fg_mkfs ext4 "\$(fg_disk \$i)"
		fg_mount "\$(fg_disk \$i)" /mnt/f\$i
	done
	sync
	rounds
}
EOF
	guest_rounds "$rounds"
}

# chain_topo: an ext4 on a loop file in an xfs, on one throttled disk.
chain_topo() {
	cat <<EOF
# make bench: a dependent chain, ext4 on a loop file in an xfs.
TOPO_DISKS="$((4 * chain_rounds * dirty + 512))M"
TOPO_DISK_BPS=$bps
TOPO_CYCLES="freezer:1"
topo_dirty() {
	dd if=/dev/urandom of=/mnt/inner/\$1 bs=1M count=$dirty status=none &&
		dd if=/dev/urandom of=/mnt/xfs/\$1 bs=1M count=$dirty status=none
}
topo_setup() {
	fg_mkfs xfs "\$(fg_disk 0)"
	fg_mount "\$(fg_disk 0)" /mnt/xfs
	truncate -s $((2 * chain_rounds * dirty + 64))M /mnt/xfs/inner.img
	loop=\$(losetup -f --show /mnt/xfs/inner.img) || return 1
	fg_mkfs ext4 "\$loop"
	fg_mount "\$loop" /mnt/inner
	echo "sb:\$(fg_devnum "\$loop") sb:\$(fg_devnum "\$(fg_disk 0)")" >"\$FG_RESULTS/chain"
	sync
	rounds
}
EOF
	guest_rounds "$chain_rounds"
}

# phase_ms DIR MODE: the freeze_phase_ns of each round's dump, in ms.
phase_ms() {
	local f
	for f in "$1"/m"$2"-r*.dot; do
		sed -n 's/.*freeze_phase_ns=\([0-9]*\).*/\1/p' "$f" | awk '{ printf "%.0f\n", $1 / 1e6 }'
	done
}


# thaw_ms DIR MODE: the median of the boot's thaws in that mode: "thawed N
# filesystems in M ms" (0), or "thawed N filesystems, independent ones at
# once, in M ms" (1).
thaw_ms() {
	local how=
	[ "$2" = 1 ] && how=', independent ones at once,'
	sed -n "s/.*fs_freeze: thawed [0-9]* filesystems*$how in \([0-9]*\) ms.*/\1/p" "$1/dmesg.txt" | median
}

table=$out/table.txt
start=$(date +%s)
{
	echo "make bench: BENCH_ROUNDS=$rounds BENCH_BPS=$bps BENCH_DIRTY_MB=$dirty, kernel ${FG_KERNEL:-$top/build/bzImage}"
	echo "freeze phase, medians of $rounds pm_test=freezer suspends per mode, taking turns, in one boot per row (ms)"
	printf '%-10s | %9s | %8s | %9s | %8s | %8s | %8s | %s\n' disks "seq ms" "seq/k1" "par ms" "par/k1" "par/seq" "limit ms" "thaw seq, par ms"
} >"$table"
limit=$(awk -v d="$dirty" -v b="${bps%M}" 'BEGIN { printf "%.0f", 1000 * d / b }')
seq1= par1= failed=0
for k in 1 2 4; do
	name=parallel-$k
	parallel_topo "$k" >"$out/$name.topo"
	if ! run "$name"; then
		failed=1
		printf '%-10s | %s\n' "$k" "FAILED (see $out/$name)" | tee -a "$table"
		continue
	fi
	s=$(phase_ms "$out/$name" 0 | median) p=$(phase_ms "$out/$name" 1 | median)
	[ "$k" = 1 ] && seq1=$s par1=$p
	printf '%-10s | %9s | %8s | %9s | %8s | %8s | %8s | %s\n' "$k" "$s" "$(ratio "$s" "${seq1:-0}")" \
		"$p" "$(ratio "$p" "${par1:-0}")" "$(ratio "$p" "$s")" "$limit" \
		"$(thaw_ms "$out/$name" 0), $(thaw_ms "$out/$name" 1)" | tee -a "$table"
done

chain_topo >"$out/chain.topo"
if run chain; then
	s=$(phase_ms "$out/chain" 0 | median) p=$(phase_ms "$out/chain" 1 | median)
	# The ext4 on the loop must start its freeze before the xfs, both ways.
	order=same
	read -r inner outer <"$out/chain/chain"
	for f in "$out"/chain/m*-r*.dot; do
		a=$(sed -n "s/^  \"$inner\" \[.*freeze_start_ns=\([0-9]*\),.*/\1/p" "$f")
		b=$(sed -n "s/^  \"$outer\" \[.*freeze_start_ns=\([0-9]*\),.*/\1/p" "$f")
		[ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] || order="DIFFERS in $(basename "$f")"
	done
	# Each mode's range, and the parallel rounds over 1.10 times the
	# sequential median: a median hides an occasional slow round.
	range() { phase_ms "$out/chain" "$1" | sort -n | sed -n '1p;$p' | paste -sd-; }
	slow=$(phase_ms "$out/chain" 1 | awk -v s="$s" '$1 > 1.10 * s { n++ } END { print n + 0 }')
	{
		echo
		echo "dependent chain (ext4 on a loop file in an xfs), medians of $chain_rounds suspends per mode, taking turns:"
		echo "  seq $s ms ($(range 0)), par $p ms ($(range 1)), par/seq $(ratio "$p" "$s"); par rounds over 1.10 x seq: $slow of $chain_rounds; order: $order"
	} | tee -a "$table"
else
	failed=1
	echo "dependent chain: FAILED (see $out/chain)" | tee -a "$table"
fi
# Scale and order overhead: scripts/bench-scale.sh appends its rows.
if [ "$scale" = 1 ]; then
	"$top/scripts/bench-scale.sh" || failed=1
fi
echo "total: $(($(date +%s) - start)) s" >>"$table"
echo
cat "$table"
exit $failed
