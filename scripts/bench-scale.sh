#!/bin/bash
# make bench, second part: scale and order overhead, each in one boot.
#
#  - Scale: the guest grows to BENCH_SIZES (250 500 1000 2000) superblocks
#    of its own, a tenth of them eligible (a small ext4 on a loop file in a
#    tmpfs; the others tmpfs), with twice as many block devices (those
#    loops, and dm-linear devices over one more loop).  At each size, over
#    BENCH_DUMPS (15) dumps: the kernel's sort_ns (median and least), the
#    dump's size and the time to read it (guest time, median), the
#    freeze phase, sequential and parallel, and the time
#    `fsgraph check` takes on the dump (host time).
#  - Order overhead: 60 ext4s on loop files in one xfs, no inversion:
#    BENCH_OVERHEAD_CYCLES (20) suspends in DAG order, as many in list
#    order, taking turns; the ratio of the freeze phases' medians, and the
#    medians of the phase less the superblocks' own freeze_ns.
#
# Appends its rows to build/bench/table.txt.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
B=$top/build
out=$B/bench
FSGRAPH=$B/fsgraph
. "$top/tests/common/topo.sh"
. "$top/scripts/bench-lib.sh"

sizes=${BENCH_SIZES:-250 500 1000 2000}
cycles=${BENCH_OVERHEAD_CYCLES:-20}
dumps=${BENCH_DUMPS:-15}
for n in $sizes; do
	[[ $n =~ ^[1-9][0-9]*$ ]] && [ "$n" -ge 20 ] || die "BENCH_SIZES: '$n' is not a number of superblocks >= 20"
done
[[ $cycles =~ ^[1-9][0-9]*$ ]] || die "BENCH_OVERHEAD_CYCLES: '$cycles' is not a positive number"
[[ $dumps =~ ^[1-9][0-9]?$ ]] || die "BENCH_DUMPS: '$dumps' is not a number of dumps from 1 to 99"
[ -x "$FSGRAPH" ] || die "no $FSGRAPH: run 'make fsgraph'"
mkdir -p "$out"
table=$out/table.txt

scale_topo() {
	cat <<EOF
# make bench: superblocks and block devices by the thousand.
TOPO_DISKS="16M"
TOPO_CYCLES="freezer:1"
TOPO_TIMEOUT=3600
topo_setup() {
	mkdir -p /mnt/files && mount -t tmpfs -o size=512M none /mnt/files || return 1
	truncate -s 64M /mnt/files/base.img
	base=\$(losetup -f --show /mnt/files/base.img) || return 1
	e=0 t=0 d=0
	for n in $sizes; do
		while [ \$e -lt \$((n / 10)) ]; do
			f=/mnt/files/e\$e.img
			truncate -s 1M \$f && mkfs.ext4 -q -F -O ^has_journal -b 1024 -N 16 \$f || return 1
			l=\$(losetup -f --show \$f) && mkdir -p /mnt/e\$e && mount \$l /mnt/e\$e || return 1
			e=\$((e + 1))
		done
		while [ \$t -lt \$((n - n / 10)) ]; do
			mkdir -p /mnt/t\$t && mount -t tmpfs none /mnt/t\$t || return 1
			t=\$((t + 1))
		done
		spec=
		while [ \$d -lt \$((2 * n - e - 1)) ]; do
			spec="\$spec\${spec:+;}s\$d,,,rw,0 8 linear \$base \$((d * 8))"
			d=\$((d + 1))
		done
		[ -z "\$spec" ] || dmsetup create --concise "\$spec" || return 1
		sync
		for i in \$(seq 1 $dumps); do
			dd if=/sys/kernel/debug/fs_freeze_graph of="\$FG_RESULTS/dump-\$n-\$i.dot" bs=1M 2>&1 |
				sed -n 's/.*copied, \\([0-9.e-]*\\) s.*/\\1/p' >>"\$FG_RESULTS/dump-\$n.s"
		done
		for mode in 0 1; do
			echo \$mode >/sys/power/fs_freeze_async
			fg_try_suspend "scale-\$n-m\$mode"
		done
		echo 0 >/sys/power/fs_freeze_async
	done
}
topo_load() { :; }
topo_check() { :; }
EOF
}

overhead_topo() {
	cat <<EOF
# make bench: 60 ext4s on loop files in one xfs; DAG against list order.
TOPO_DISKS="1G"
TOPO_CYCLES="freezer:1"
TOPO_TIMEOUT=1800
topo_setup() {
	fg_mkfs xfs "\$(fg_disk 0)"
	fg_mount "\$(fg_disk 0)" /mnt/xfs
	for i in \$(seq 1 60); do
		f=/mnt/xfs/o\$i.img
		truncate -s 8M \$f && mkfs.ext4 -q -F \$f || return 1
		l=\$(losetup -f --show \$f) && mkdir -p /mnt/o\$i && mount \$l /mnt/o\$i || return 1
	done
	sync
	# The orders take turns, so that a drift in the boot (ext4's lazy
	# inode-table init, the host's load) weighs on both alike.
	for r in \$(seq 1 $cycles); do
		for order in dag list; do
			echo \$order >/sys/power/fs_freeze_order
			echo \$r >/mnt/o\$(( (r % 60) + 1 ))/\$order-r\$r
			fg_try_suspend "\$order-\$r"
		done
	done
	echo dag >/sys/power/fs_freeze_order
}
topo_load() { :; }
topo_check() {
	for i in \$(seq 1 60); do umount /mnt/o\$i || return 1; done
	losetup -D
}
EOF
}


failed=0
scale_topo >"$out/scale.topo"
{
	echo
	echo "scale: one boot, growing; sort_ns (median and least) and the read (dd, median) of $dumps dumps; read and freeze in guest ms, check in host ms"
	printf '%6s | %6s | %10s | %7s | %10s | %7s | %9s | %7s | %9s | %9s | %8s\n' sbs bdevs "sort med" "x prev" "sort min" "x prev" \
		"dump KiB" "read ms" "seq ms" "par ms" "check ms"
} | tee -a "$table"
MEM=1536M run scale || failed=1
# The sizes the boot reached, even if it failed at a larger one.
prev= prevm=
for n in $sizes; do
	d=$out/scale/dump-$n-1.dot
	if [ ! -s "$out/scale/scale-$n-m1.dot" ]; then
		failed=1
		echo "scale: $n: FAILED (see $out/scale)" | tee -a "$table"
		break
	fi
	sorts=$(for i in $(seq 1 "$dumps"); do attr sort_ns "$out/scale/dump-$n-$i.dot"; done)
	s=$(median <<<"$sorts") m=$(sort -n <<<"$sorts" | head -n 1)
	r=$(awk '{ printf "%.1f\n", $1 * 1000 }' "$out/scale/dump-$n.s" | median)
	t0=$(date +%s%N)
	"$FSGRAPH" check "$d" >/dev/null 2>"$out/scale/check-$n.err" || failed=1
	c=$((($(date +%s%N) - t0) / 1000000))
	printf '%6s | %6s | %10s | %7s | %10s | %7s | %9s | %7s | %9s | %9s | %8s\n' \
		"$(grep -c 'kind="sb"' "$d")" "$(grep -c 'kind="bdev"' "$d")" "$s" "$(ratio "$s" "${prev:-0}")" \
		"$m" "$(ratio "$m" "${prevm:-0}")" "$(($(stat -c %s "$d") / 1024))" "$r" \
		"$(($(attr freeze_phase_ns "$out/scale/scale-$n-m0.dot") / 1000000))" \
		"$(($(attr freeze_phase_ns "$out/scale/scale-$n-m1.dot") / 1000000))" "$c" | tee -a "$table"
	prevm=$m
	prev=$s
done

overhead_topo >"$out/overhead.topo"
if run overhead; then
	# The phase, and the part of it outside the freezes themselves (the
	# phase less the sum of the superblocks' freeze_ns): the order's own
	# cost (the sort, the flushes, the hops between jobs) is there, while
	# the freezes' writeback varies from one suspend to the next.
	for o in dag list; do
		for f in "$out"/overhead/$o-*.dot; do
			echo $(($(attr freeze_phase_ns "$f") / 1000))
		done | median >"$out/overhead/$o.median"
		for f in "$out"/overhead/$o-*.dot; do
			echo $((($(attr freeze_phase_ns "$f") - $(grep -o ' freeze_ns=[0-9]*' "$f" |
				awk -F= '{ s += $2 } END { print s + 0 }')) / 1000))
		done | median >"$out/overhead/$o.outside"
	done
	dag=$(cat "$out/overhead/dag.median") list=$(cat "$out/overhead/list.median")
	dago=$(cat "$out/overhead/dag.outside") listo=$(cat "$out/overhead/list.outside")
	{
		echo
		echo "order overhead, 60 ext4s on loop files in one xfs, medians of $cycles suspends each, taking turns:"
		echo "  freeze phase: dag $dag us, list $list us, dag/list $(ratio "$dag" "$list")"
		echo "  outside the freezes: dag $dago us, list $listo us; dag's extra, against list's phase: $(ratio $((list + dago - listo)) "$list")"
	} | tee -a "$table"
else
	failed=1
	echo "order overhead: FAILED (see $out/overhead)" | tee -a "$table"
fi
exit $failed
