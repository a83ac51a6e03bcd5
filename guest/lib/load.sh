# Write load while suspending: the seed RFC's dd loop, plus a writer of
# checksummed, fsync'ed files whose checksums are verified after the cycles.

# fg_loop_holes DIR: MiB that the loop files on DIR's filesystem may still
# allocate: their size less what they hold.  mke2fs and mkfs.xfs discard the
# device they format, and a loop device punches the discard into its file,
# so even a file written in full is sparse once formatted.  The filesystem
# on it fills the holes later, and a write into a hole on a full filesystem
# fails inside the loop driver: an I/O error for the filesystem above.
fg_loop_holes() {
	_dev=$(stat -c %d "$1")
	losetup -l -n -O BACK-FILE 2>/dev/null | while read -r _f; do
		[ -f "$_f" ] && [ "$(stat -c %d "$_f")" = "$_dev" ] || continue
		stat -c '%s %b %B' "$_f"
	done | awk '{ h = $1 - $2 * $3; if (h > 0) s += h } END { print int(s / 1048576) }'
}

# fg_dd_count DIR: MiB for one dd run, 1 GiB or what the filesystem allows
# once the holes of the loop files on it are kept free.
fg_dd_count() {
	_holes=$(fg_loop_holes "$1")
	_free=$(df -m "$1" | awk -v h="$_holes" 'NR == 2 { print int(($4 - h) * 0.6) }')
	[ "$_free" -gt 1024 ] && _free=1024
	[ "$_free" -lt 1 ] && _free=1
	echo "$_free"
}

# fg_load_start DIR...: start both writers on each directory.
fg_load_start() {
	for _dir in "$@"; do
		_n=$(fg_dd_count "$_dir")
		fg_log "load: dd loop of ${_n} MiB and checksummed writer on $_dir ($(fg_loop_holes "$_dir") MiB kept for loop files)"
		(
			while [ ! -e "$FG_STATE/stop-load" ]; do
				dd if=/dev/zero of="$_dir/fg-dd" bs=1M count="$_n" 2>/dev/null
			done
		) &
		echo $! >>"$FG_STATE/dd-pids"
		fg_ck_write "$_dir" 8 # before the cycles: these must survive them
		fg_ck_loop_start "$_dir"
	done
}

# fg_ck_loop_start DIR: a writer of checksummed files on DIR, one after the
# other, until the load stops.
fg_ck_loop_start() {
	(
		_i=0
		while [ ! -e "$FG_STATE/stop-load" ]; do
			fg_ck_write "$1" 1 "loop$_i"
			_i=$(((_i + 1) % 32))
		done
	) &
	echo $! >>"$FG_STATE/load-pids"
}

# fg_ck_write DIR COUNT [TAG]: write COUNT random files, fsync each, and
# record its checksum once it is on disk.  A file's old checksum is
# forgotten before it is rewritten, so a writer stopped half-way never
# leaves a checksum behind that its file does not match.
fg_ck_write() {
	_list="$FG_STATE/checksums.$(echo "$1" | tr / _)"
	_k=0
	while [ $_k -lt "$2" ]; do
		_f="$1/fg-ck.${3:-pre}.$_k"
		touch "$_list"
		grep -v " $_f\$" "$_list" >"$_list.tmp"
		mv "$_list.tmp" "$_list"
		head -c 65536 /dev/urandom >"$_f.tmp" &&
			dd if="$_f.tmp" of="$_f" bs=64k conv=fsync 2>/dev/null &&
			rm -f "$_f.tmp" &&
			sha256sum "$_f" >>"$_list"
		_k=$((_k + 1))
	done
}

# fg_load_stop: stop the writers and wait for them.
fg_load_stop() {
	touch "$FG_STATE/stop-load"
	# The big dd runs are only load: cut them short.  The checksummed
	# writers finish the file they are writing.
	for _p in $(cat "$FG_STATE/dd-pids" 2>/dev/null); do
		pkill -P "$_p" -x dd 2>/dev/null
	done
	# The writers were started by the load step's subshell, so they are
	# not our children: poll until they are gone.
	for _p in $(cat "$FG_STATE/dd-pids" "$FG_STATE/load-pids" 2>/dev/null); do
		_t=0
		while [ -d "/proc/$_p" ] && [ $_t -lt 600 ]; do
			pkill -P "$_p" -x dd 2>/dev/null
			sleep 0.1
			_t=$((_t + 1))
		done
		[ -d "/proc/$_p" ] && fg_fail "load: writer $_p did not stop"
	done
	rm -f "$FG_STATE/dd-pids" "$FG_STATE/load-pids"
	sync
}

# fg_load_verify: every recorded file still has its checksum, read back
# from disk after the page cache has been dropped.
fg_load_verify() {
	ls "$FG_STATE"/checksums.* >/dev/null 2>&1 || return 0
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat "$FG_STATE"/checksums.* >"$FG_STATE/checksums"
	_n=$(wc -l <"$FG_STATE/checksums")
	if sha256sum -c "$FG_STATE/checksums" >"$FG_RESULTS/checksums.log" 2>&1; then
		fg_log "checksums: $_n files intact"
	else
		fg_fail "checksums: mismatch (see checksums.log)"
	fi
}
