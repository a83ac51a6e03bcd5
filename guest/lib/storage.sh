# Storage helpers for topology files: make and mount filesystems, attach
# loop files, and tear everything down again with an fsck of each
# filesystem.  Every mount made with fg_mount is recorded in
# $FG_STATE/mounts, one "DEV DIR TYPE" line each, in mount order.

# fg_mkfs TYPE DEV [MKFS OPTIONS...]
fg_mkfs() {
	_t=$1 _dev=$2
	shift 2
	case $_t in
	ext2 | ext3 | ext4) fg_run mkfs mke2fs -q -F -t "$_t" "$@" "$_dev" ;;
	xfs) fg_run mkfs mkfs.xfs -q -f "$@" "$_dev" ;;
	*) fg_fail "fg_mkfs: unknown filesystem type '$_t'"; return 1 ;;
	esac
}

# fg_mount DEV DIR [MOUNT OPTIONS]
fg_mount() {
	mkdir -p "$2"
	if [ -n "${3:-}" ]; then
		fg_run mount mount -o "$3" "$1" "$2" || return 1
	else
		fg_run mount mount "$1" "$2" || return 1
	fi
	_type=$(awk -v d="$2" '$2 == d { t = $3 } END { print t }' /proc/mounts)
	echo "$1 $2 $_type" >>"$FG_STATE/mounts"
}

# fg_fuse2fs IMAGE DIR: serve the ext2/3/4 image IMAGE at DIR with fuse2fs,
# in the foreground of a background job whose pid goes to
# $FG_STATE/fuse2fs.pid.  The mount is recorded for teardown like any other:
# its fsck waits for the daemon to exit, then checks IMAGE.
fg_fuse2fs() {
	mkdir -p "$2"
	fuse2fs -f "$1" "$2" >>"$FG_RESULTS/commands.log" 2>&1 &
	echo $! >"$FG_STATE/fuse2fs.pid"
	_t=0
	until awk -v d="$2" '$2 == d && $3 ~ /^fuse/ { f = 1 } END { exit !f }' /proc/mounts; do
		_t=$((_t + 1))
		if [ $_t -gt 100 ] || ! kill -0 $! 2>/dev/null; then
			fg_fail "fuse2fs: $1 did not mount on $2"
			return 1
		fi
		sleep 0.1
	done
	echo "$1 $2 fuse2fs" >>"$FG_STATE/mounts"
}

# fg_nbd_serve FILE: export FILE with an nbd-server on a unix socket, in
# this guest, connect /dev/nbd0 to it over netlink, and print /dev/nbd0.
# fg_release_unused disconnects it and stops the server.
fg_nbd_serve() {
	cat >/run/nbd-server.conf <<-EOF
	[generic]
	user = root
	group = root
	unixsock = /run/nbd.sock
	[fg]
	exportname = $1
	EOF
	nbd-server -C /run/nbd-server.conf -p "$FG_STATE/nbd-server.pid" \
		>>"$FG_RESULTS/commands.log" 2>&1 || { fg_fail "nbd-server did not start"; return 1; }
	_t=0
	until [ -S /run/nbd.sock ]; do
		_t=$((_t + 1))
		[ $_t -gt 100 ] && { fg_fail "nbd-server: no socket /run/nbd.sock"; return 1; }
		sleep 0.1
	done
	fg_run nbd-client nbd-client -unix /run/nbd.sock /dev/nbd0 -N fg || return 1
	echo /dev/nbd0
}

# fg_loop_file PATH SIZE: create a file of SIZE (dd-style, e.g. 64M) and
# print the loop device attached to it.
fg_loop_file() {
	dd if=/dev/zero of="$1" bs=1M count="${2%M}" 2>/dev/null || return 1
	losetup -f --show "$1"
}

# fg_mounted_dirs: recorded mount points, newest first.
fg_mounted_dirs() {
	[ -s "$FG_STATE/mounts" ] || return 0
	awk '{ l[NR] = $2 } END { for (i = NR; i > 0; i--) print l[i] }' "$FG_STATE/mounts"
}

# fg_fsck DEV TYPE DIR: check an unmounted filesystem, read-only.
fg_fsck() {
	case $2 in
	ext2 | ext3 | ext4)
		fg_run fsck e2fsck -fn "$1" ;;
	xfs)
		_opts=$(awk -v d="$3" '$1 == d { print $2 }' "$FG_STATE/mountopts" 2>/dev/null)
		set -- "$1"
		for _o in $(echo "$_opts" | tr ',' ' '); do
			case $_o in
			logdev=*) set -- -l "${_o#logdev=}" "$@" ;;
			rtdev=*) set -- -r "${_o#rtdev=}" "$@" ;;
			esac
		done
		fg_run fsck xfs_repair -n "$@" ;;
	fuse2fs)
		# The daemon writes the image back until it exits.
		_pid=$(cat "$FG_STATE/fuse2fs.pid" 2>/dev/null)
		_t=0
		while [ -n "$_pid" ] && kill -0 "$_pid" 2>/dev/null && [ $_t -lt 300 ]; do
			sleep 0.1
			_t=$((_t + 1))
		done
		fg_run fsck e2fsck -fn "$1" ;;
	*) fg_log "no fsck for $2 on $1" ;;
	esac
}

# fg_release_unused: stop whatever block devices nothing uses any more, so
# that the filesystems below them can be unmounted.  Failures are expected
# for devices still in use, and ignored.
fg_release_unused() {
	dmsetup remove_all >/dev/null 2>&1
	for _md in /dev/md[0-9]*; do
		[ -b "$_md" ] && mdadm --stop "$_md" >/dev/null 2>&1
	done
	# A loop device that is mounted or held, or one of whose partitions
	# is, must not be detached: losetup -d would only mark it to go away on
	# last close, before its fsck.
	# An nbd device goes once nothing holds or mounts it, and the server
	# with the last of them.
	for _n in /sys/block/nbd*; do
		[ -e "$_n/pid" ] || continue
		[ -z "$(ls "$_n/holders" 2>/dev/null)" ] || continue
		grep -q "^/dev/${_n##*/} " /proc/mounts && continue
		nbd-client -d "/dev/${_n##*/}" >/dev/null 2>&1
	done
	if [ -s "$FG_STATE/nbd-server.pid" ] && ! ls /sys/block/nbd*/pid >/dev/null 2>&1; then
		kill "$(cat "$FG_STATE/nbd-server.pid")" 2>/dev/null
		rm -f "$FG_STATE/nbd-server.pid"
	fi
	for _l in /sys/block/loop*; do
		[ -e "$_l/loop/backing_file" ] || continue
		for _p in "$_l" "$_l/${_l##*/}"p*; do
			[ -e "$_p" ] || continue
			[ -z "$(ls "$_p/holders" 2>/dev/null)" ] || continue 2
			grep -q "^/dev/${_p##*/} " /proc/mounts && continue 2
		done
		losetup -d "/dev/${_l##*/}" >/dev/null 2>&1
	done
}

# fg_is_layer DIR: DIR (or a directory in it) is a layer of a mounted overlay.
fg_is_layer() {
	awk -v d="$1" '$3 == "overlay" && match($4, "(dir=|:)" d "([/,:]|$)") { f = 1 }
		END { exit !f }' /proc/mounts
}

# fg_teardown: unmount every recorded filesystem, newest first, and fsck it
# right after its unmount.  Stacked devices are released between passes.
fg_teardown() {
	cp /proc/mounts "$FG_STATE/mounts.before-teardown"
	awk '{ print $1, $4 }' /proc/mounts >"$FG_STATE/mountopts"
	_left=$(fg_mounted_dirs)
	_pass=0
	while [ -n "$_left" ] && [ $_pass -lt 6 ]; do
		_pass=$((_pass + 1))
		_still=
		for _d in $_left; do
			# A layer of a mounted overlay would unmount, but its
			# superblock would live on under the overlay: not yet.
			if fg_is_layer "$_d"; then
				_still="$_still $_d"
				continue
			fi
			_dev=$(awk -v d="$_d" '$2 == d { print $1 }' "$FG_STATE/mounts" | tail -n1)
			_type=$(awk -v d="$_d" '$2 == d { print $3 }' "$FG_STATE/mounts" | tail -n1)
			if umount "$_d" 2>>"$FG_RESULTS/commands.log"; then
				fg_log "unmounted $_d ($_type on $_dev)"
				fg_fsck "$_dev" "$_type" "$_dev"
			else
				_still="$_still $_d"
			fi
		done
		_left=$_still
		[ -n "$_left" ] && fg_release_unused
	done
	if [ -n "$_left" ]; then
		fg_fail "teardown: could not unmount:$_left"
		{ echo "--- teardown: still mounted:$_left"; fuser -vm $_left; ps; } >>"$FG_RESULTS/commands.log" 2>&1
	fi
}

# fg_sectors DEV: the size of a block device, in 512-byte sectors.
fg_sectors() {
	cat "/sys/dev/block/$(fg_devnum "$1")/size"
}

# fg_kname DEV: the kernel's name of a block device (dm-0 for /dev/mapper/x).
fg_kname() {
	basename "$(readlink -f "/sys/dev/block/$(fg_devnum "$1")")"
}

# fg_md_rebuild MD DEV: fail, remove, wipe and add DEV back to the RAID1
# MD, so that md copies the whole array onto it (a rebuild).
fg_md_rebuild() {
	mdadm -q "$1" --fail "$2" &&
		mdadm -q "$1" --remove "$2" &&
		mdadm -q --zero-superblock "$2" &&
		mdadm -q "$1" --add "$2"
}
