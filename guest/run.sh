#!/bin/bash
# Boot one topology in a QEMU guest and report what happened.
usage() {
	cat <<'TXT'
usage: guest/run.sh [options] TOPOLOGY

Boots build/bzImage under QEMU (TCG, machine "pc") with the disks that
TOPOLOGY asks for, runs its setup, load, suspend cycles and check in the
guest, and copies the results back into a directory.

options:
  -o DIR        result directory (default: build/results/NAME)
  -c "CYCLES"   suspend cycles, overriding TOPO_CYCLES, e.g. "freezer:2 mem:1"
  -a "ARGS"     extra kernel command line, e.g. "fs_freeze_order=list"
  -t SECONDS    host-side timeout (default: TOPO_TIMEOUT, else 900)
  -k KERNEL     kernel image (default: $FG_KERNEL, else build/bzImage)
  -i INITRD     base initramfs (default: build/initramfs.cpio.gz)
  -q            do not copy the guest console to stdout
  -s            stop the cycles at the first one that fails (make soak)
  -x            a hang is expected: at the timeout, kill the guest without
                the NMI that dumps its tasks (which takes 20 s)
  -n            only check TOPOLOGY and the options, boot nothing
  -h            this help

environment: ACCEL=tcg|kvm (default tcg), SMP (2), MEM (768M), KEEP_DISKS=1,
  FG_KARGS (kernel command line for every run, before -a; make KARGS=...)

exit status:
  0   the topology passed
  1   it failed: a step, a cycle, a check, or a splat in the kernel log
  2   bad usage, a malformed topology or a missing file
  3   the guest hung: hung-task report or host timeout
  4   the guest crashed: panic without a hung task, or no status reported
  77  the topology was skipped (the reason is in DIR/skip-reason)
TXT
}
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/guest/topology.sh"
. "$top/guest/splats.sh"

kernel=${FG_KERNEL:-$top/build/bzImage} initrd=$top/build/initramfs.cpio.gz
out= cycles= append= tmo= quiet=0 dry=0 stop=0 expect_hang=0
while getopts "o:c:a:t:k:i:qsxnh" opt; do
	case $opt in
	o) out=$OPTARG ;; c) cycles=$OPTARG ;; a) append=$OPTARG ;;
	t) tmo=$OPTARG ;; k) kernel=$OPTARG ;; i) initrd=$OPTARG ;;
	q) quiet=1 ;; s) stop=1 ;; x) expect_hang=1 ;; n) dry=1 ;; h) usage; exit 0 ;; *) usage >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { usage >&2; exit 2; }
topo=$1

die() { echo "run: $*" >&2; exit 2; }
topo_validate "$topo" || exit 2
[ -z "$cycles" ] || topo_cycles_valid "$cycles" || exit 2
[ -z "$tmo" ] || [[ $tmo =~ ^[1-9][0-9]*$ ]] || die "-t: '$tmo' is not a number of seconds"
[ "$dry" = 0 ] || exit 0
[ -r "$kernel" ] || die "no kernel at $kernel (make kernel)"
[ -r "$initrd" ] || die "no initramfs at $initrd (make guest)"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found (make deps)"

name=$(basename "$topo")
out=${out:-$top/build/results/$name}
rm -rf "$out" && mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
cycles=${cycles:-$(topo_var "$topo" TOPO_CYCLES)}
cycles=${cycles:-freezer:2 devices:2 mem:1}
tmo=${tmo:-$(topo_var "$topo" TOPO_TIMEOUT)}
tmo=${tmo:-900}

# --- disks: the topology's, then swap (for hibernation), then results ---
# TOPO_DISK_BPS throttles the writes of each topology disk (make bench).
bps=$(topo_var "$topo" TOPO_DISK_BPS)
case $bps in
*K) bps=$((${bps%K} * 1024)) ;; *M) bps=$((${bps%M} * 1048576)) ;;
esac
drives=() i=0
for size in $(topo_var "$topo" TOPO_DISKS); do
	truncate -s "$size" "$out/disk$i.img"
	drives+=(-drive "file=$out/disk$i.img,format=raw,if=none,id=d$i,cache=unsafe${bps:+,throttling.bps-write=$bps}"
		 -device "virtio-blk-pci,drive=d$i,serial=fg-disk$i")
	i=$((i + 1))
done
letters=abcdefghijklmnop
cmdline="console=ttyS0,115200 loglevel=4 log_buf_len=8M panic=-1 oops=panic pm_debug_messages"
# hung_task_timeout_secs has no command-line parameter of its own, only the
# generic "sysctl." form; the guest fails a run whose command line holds a
# parameter the kernel does not know.
cmdline+=" sysctl.kernel.hung_task_panic=1 sysctl.kernel.hung_task_timeout_secs=30"
# A soft lockup is reported after 2 * watchdog_thresh s.  Stop 17's CI run
# saw one of 27 s in stock code, the boot CPU waiting in do_boot_cpu() for
# the other vCPU to call in while resuming from S3, which TCG on a loaded
# 2-core host can starve; it did not happen here in 36 S3 cycles.  60 s
# keeps real lockups (and the host timeout catches any hang).
cmdline+=" softlockup_panic=1 watchdog_thresh=30"
cmdline+=" suspend.pm_test_delay=1 no_console_suspend mitigations=off"
# A guest that outlives the host timeout gets an NMI, which panics it
# (unknown_nmi_panic) with every task's stack and the locks held
# (panic_print=0x9): a hang inside a PM transition, where the hung-task
# detector is off, still names what it waits on.
cmdline+=" unknown_nmi_panic panic_print=0x9"
if [[ " $cycles " == *" disk:"* ]]; then
	truncate -s "${MEM:-768M}" "$out/swap.img"
	drives+=(-drive "file=$out/swap.img,format=raw,if=none,id=swap,cache=unsafe"
		 -device "virtio-blk-pci,drive=swap,serial=fg-swap")
	cmdline+=" resume=/dev/vd${letters:$i:1}"
	i=$((i + 1))
fi
truncate -s 64M "$out/results.img"
drives+=(-drive "file=$out/results.img,format=raw,if=none,id=res,cache=unsafe"
	 -device "virtio-blk-pci,drive=res,serial=fg-results")
cmdline+=" ${FG_KARGS:+$FG_KARGS }$append"

# --- the per-run initramfs: topology and parameters -----------------------
stage=$(mktemp -d) && trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/fg-run"
cp "$topo" "$stage/fg-run/topology"
printf 'FG_NAME=%q\nFG_CYCLES=%q\nFG_STOP_ON_FAIL=%s\n' "$name" "$cycles" "$stop" >"$stage/fg-run/params"
(cd "$stage" && find fg-run | cpio -o -H newc --owner=0:0 --quiet | gzip -n) >"$stage/run.cpio.gz"
cat "$initrd" "$stage/run.cpio.gz" >"$out/initrd.img"

if [ "$quiet" = 1 ]; then
	console=(-chardev "file,id=con,path=$out/console.log")
else
	console=(-chardev "stdio,id=con,logfile=$out/console.log,signal=off")
fi
accel=${ACCEL:-tcg}
# A monitor on a pair of fifos, so that a guest that outlives the timeout can
# be asked what state it is in (running, or asleep in S3) before it is killed.
mkfifo "$out/monitor.in" "$out/monitor.out"
qemu=(qemu-system-x86_64 -M pc -accel "$accel" -smp "${SMP:-2}" -m "${MEM:-768M}"
      -nodefaults -no-reboot -display none -vga none
      "${console[@]}" -serial chardev:con
      -chardev "pipe,id=mon,path=$out/monitor" -mon chardev=mon,mode=readline
      -global PIIX4_PM.disable_s3=0
      -device isa-debug-exit,iobase=0xf4,iosize=0x04
      -kernel "$kernel" -initrd "$out/initrd.img" -append "$cmdline" "${drives[@]}")
printf '%q ' "${qemu[@]}" >"$out/qemu-command.txt"
echo >>"$out/qemu-command.txt"

# The watcher: every 5 s it asks the monitor for the VM's state.  A guest
# that has been asleep in S3 for 30 s missed its RTC alarm (the guest arms
# it at most 20 s ahead, but under TCG the alarm can fire while the suspend
# is still under way, when the host is busy); it is woken with
# system_wakeup, and each such wake-up is counted in host-wakeups.
# "suspended" means S3 was entered: nothing of the resume path has run, so
# this hides no resume bug.  At the timeout it records the state, injects
# an NMI into a running guest for its stacks, and kills QEMU.
watch_guest() {
	local t=0 asleep=0 line state
	exec 3<>"$out/monitor.in" 4<>"$out/monitor.out"
	while [ $t -lt "$tmo" ]; do
		sleep 5
		t=$((t + 5))
		kill -0 "$qpid" 2>/dev/null || return 0
		echo "info status" >&3
		state=
		while read -r -t 1 line <&4; do
			echo "$line" >>"$out/monitor.log"
			case $line in *"VM status: "*) state=${line##*VM status: } ;; esac
		done
		case $state in *suspended*) asleep=$((asleep + 1)) ;; *) asleep=0 ;; esac
		if [ $asleep -ge 6 ]; then
			echo system_wakeup >&3
			echo "$t" >>"$out/host-wakeups"
			asleep=0
		fi
	done
	echo "${state:-unknown}" >"$out/timed-out"
	if [ "$expect_hang" = 0 ]; then
		case $state in *running*)
			echo nmi >&3
			sleep 20
			;;
		esac
	fi
	kill "$qpid" 2>/dev/null
	sleep 10
	kill -9 "$qpid" 2>/dev/null
}

echo "run: $name (cycles: $cycles; timeout ${tmo}s) -> $out"
start=$(date +%s)
"${qemu[@]}" </dev/null 2>"$out/qemu-stderr.log" &
qpid=$!
watch_guest &
wpid=$!
wait "$qpid"
rc=$?
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
secs=$(( $(date +%s) - start ))
rm -f "$out/monitor.in" "$out/monitor.out"
tar -C "$out" -xf "$out/results.img" 2>/dev/null || true
[ "${KEEP_DISKS:-0}" = 1 ] || rm -f "$out"/disk*.img "$out/swap.img" "$out/results.img" "$out/initrd.img"

# --- verdict ---------------------------------------------------------------
wakeups=$(grep -c . "$out/host-wakeups" 2>/dev/null)
note=${wakeups:+, host woke it from S3 $wakeups time(s)}
verdict() { echo "$1" >"$out/result"; echo "run: $name: $1 (${secs}s$note) results in $out"; exit "$2"; }
if [ -e "$out/timed-out" ]; then
	verdict "HANG: host timeout after ${tmo}s (VM status: $(cat "$out/timed-out"))" 3
fi
if grep -q 'blocked for more than' "$out/console.log" 2>/dev/null; then
	verdict "HANG: $(grep -m1 -o 'task .*blocked for more than [0-9]* seconds' "$out/console.log")" 3
fi
if [ $rc -eq 0 ] || [ $((rc % 2)) -eq 0 ]; then
	why=$(grep -m1 -E 'Kernel panic.*|BUG:.*|Oops.*' "$out/console.log" 2>/dev/null)
	verdict "CRASH: guest ended without a status (qemu rc $rc)${why:+: $why}" 4
fi
status=$(( (rc - 1) / 2 ))
splats=$(fg_splats "$out/console.log" "$out/dmesg.txt" | sort -u)
if [ -n "$splats" ]; then
	echo "$splats" >"$out/splats.txt"
	verdict "FAIL: kernel splat: $(head -n1 "$out/splats.txt")" 1
fi
case $status in
0) verdict "PASS" 0 ;;
77) verdict "SKIP: $(cat "$out/skip-reason" 2>/dev/null)" 77 ;;
*) verdict "FAIL: $(head -n1 "$out/failures" 2>/dev/null || echo "guest status $status")" 1 ;;
esac
