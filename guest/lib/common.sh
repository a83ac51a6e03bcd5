# Shared helpers of the guest: logging, the result directory and the exit
# channel.  POSIX sh, sourced by /init in busybox ash.

FG_RESULTS=/results
FG_STATE=/tmp/fg

fg_log() {
	echo "fg: $*" >/dev/console
	echo "$(cut -d' ' -f1 /proc/uptime) $*" >>"$FG_RESULTS/guest.log"
}

# fg_fail MESSAGE: record a failure; the run goes on so that everything a
# failure needs to be understood is still collected.
fg_fail() {
	fg_log "FAIL: $*"
	echo "$*" >>"$FG_RESULTS/failures"
}

fg_failed() { [ -s "$FG_RESULTS/failures" ]; }

# fg_cmdline_check: the kernel knew every parameter on its command line.
# It passes one it does not know to init, where it does nothing: a
# misspelt parameter would silently leave the run without what it asked for.
# A "sysctl." parameter that does not take is reported by the kernel itself.
fg_cmdline_check() {
	local unknown sysctl
	unknown=$(dmesg | sed -n 's/.*Unknown kernel command line parameters "\(.*\)", will be passed to user space.*/\1/p')
	sysctl=$(dmesg | sed -n 's/^\[[^]]*\] *//; /to set sysctl parameter/p' | head -n1)
	[ -z "$unknown" ] || fg_fail "kernel command line: the kernel does not know $unknown"
	[ -z "$sysctl" ] || fg_fail "kernel command line: $sysctl"
	[ -z "$unknown$sysctl" ]
}

# fg_skip REASON: the topology cannot run here.  Ends the run.
fg_skip() {
	fg_log "SKIP: $*"
	echo "$*" >"$FG_RESULTS/skip-reason"
	fg_exit 77
}

# fg_run NAME CMD...: run a command, log it and its output, fail on error.
fg_run() {
	_name=$1; shift
	fg_log "run: $*"
	if ! "$@" >>"$FG_RESULTS/commands.log" 2>&1; then
		fg_fail "$_name: '$*' failed (see commands.log)"
		return 1
	fi
}

# fg_results_disk: the virtio disk the host gave serial "fg-results".
fg_disk_by_serial() {
	for _d in /sys/block/vd*; do
		[ "$(cat "$_d/serial" 2>/dev/null)" = "$1" ] && { echo "/dev/${_d##*/}"; return 0; }
	done
	return 1
}

# fg_disk N: the Nth topology disk (0 is the first), as /dev/vdX.
fg_disk() { fg_disk_by_serial "fg-disk$1"; }

# fg_devnum PATH: "MAJ:MIN" of a block device node.
fg_devnum() {
	_m=$(stat -L -c '%t %T' "$1" 2>/dev/null) || return 1
	set -- $_m
	echo "$((0x$1)):$((0x$2))"
}

fg_has_seed() { grep -q ' fs_suspend_freeze$' /proc/kallsyms; }
fg_has_graph() { [ -e /sys/kernel/debug/fs_freeze_graph ]; }

# fg_exit STATUS: collect the results, write them to the results disk and
# report STATUS to the host through the isa-debug-exit port.
fg_exit() {
	_st=$1
	fg_collect
	echo "$_st" >"$FG_RESULTS/status"
	_disk=$(fg_disk_by_serial fg-results)
	if [ -n "$_disk" ]; then
		tar -C "$FG_RESULTS" -cf "$_disk" . 2>/dev/console
		sync
	else
		echo "fg: no results disk" >/dev/console
	fi
	echo "fg: exit status $_st" >/dev/console
	# QEMU exits with (value << 1) | 1.
	printf "\\$(printf %03o "$_st")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
	sleep 60
}

# fg_collect: everything the host needs to understand the run.
fg_collect() {
	dmesg >"$FG_RESULTS/dmesg.txt" 2>/dev/null
	cat /proc/mounts >"$FG_RESULTS/mounts.txt" 2>/dev/null
	cat /proc/self/mountinfo >"$FG_RESULTS/mountinfo.txt" 2>/dev/null
	for _f in success fail failed_freeze last_failed_dev last_failed_errno; do
		echo "$_f $(cat /sys/power/suspend_stats/$_f 2>/dev/null)"
	done >"$FG_RESULTS/suspend_stats.txt"
	if fg_has_graph; then
		cat /sys/kernel/debug/fs_freeze_graph >"$FG_RESULTS/fs_freeze_graph.dot" 2>&1
	fi
	[ -d "$FG_STATE" ] && cp -a "$FG_STATE" "$FG_RESULTS/state" 2>/dev/null
	cat /proc/cmdline >"$FG_RESULTS/cmdline.txt"
}
