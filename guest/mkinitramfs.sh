#!/bin/bash
# Build the guest's base initramfs: busybox-static for the shell and small
# applets, the host's own storage tools with every shared library they need,
# the guest scripts, and the fsgraph tool.
#
#   guest/mkinitramfs.sh OUTPUT.cpio.gz [FSGRAPH_BINARY [HELPER...]]
#
# Real tools live at their Debian paths (/usr/sbin/mdadm ...).  Busybox applets
# go into /bb, which comes last in PATH, so that no applet shadows a real
# util-linux or e2fsprogs tool; the shell is dash (/bin/sh).  Per-run files (the topology, the parameters)
# are appended by guest/run.sh as a second cpio archive.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: mkinitramfs.sh OUTPUT.cpio.gz [FSGRAPH]}
fsgraph=${2:-}
shift $(($# > 1 ? 2 : 1))
helpers=("$@")

die() { echo "guest/mkinitramfs.sh: $*" >&2; exit 1; }

# Each tool the guest runs, and the Debian package that provides it.
tools="
mdadm:mdadm mdmon:mdadm lvm:lvm2 dmsetup:dmsetup losetup:mount
mke2fs:e2fsprogs mkfs.ext4:e2fsprogs e2fsck:e2fsprogs tune2fs:e2fsprogs
dumpe2fs:e2fsprogs mkfs.xfs:xfsprogs xfs_repair:xfsprogs xfs_io:xfsprogs
xfs_db:xfsprogs fsfreeze:util-linux rtcwake:util-linux mkswap:util-linux
swapon:util-linux swapoff:util-linux blkid:util-linux mount:mount
umount:mount sha256sum:coreutils dd:coreutils mkfs.minix:util-linux
sfdisk:fdisk blkdiscard:util-linux
fuse2fs:fuse2fs fusermount:fuse3 nbd-client:nbd-client nbd-server:nbd-server
"

stage=$(mktemp -d "${TMPDIR:-/tmp}/fg-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT

# Copy one file to the same path under the stage, following symlinks.
put() {
	local src=$1 dst=$stage${2:-$1}
	mkdir -p "$(dirname "$dst")"
	cp -L "$src" "$dst"
}

# Copy a binary and the shared libraries ldd says it needs.
put_elf() {
	local bin=$1 lib
	put "$bin" "${2:-}"
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' || true); do
		[ -e "$stage$lib" ] || put "$lib"
	done
}

mkdir -p "$stage"/{bb,dev,proc,sys,tmp,run,mnt,results,etc,root,usr/bin,usr/sbin,usr/lib,usr/lib64}
ln -s usr/bin "$stage/bin"
ln -s usr/sbin "$stage/sbin"
ln -s usr/lib "$stage/lib"
ln -s usr/lib64 "$stage/lib64"

bb=$(command -v busybox) || die "busybox not found: run 'make deps' (package busybox-static)"
ldd "$bb" >/dev/null 2>&1 &&
	die "$bb is not statically linked: install busybox-static"
cp "$bb" "$stage/bb/busybox"
for applet in $("$bb" --list); do
	[ "$applet" = busybox ] || ln -s busybox "$stage/bb/$applet"
done

# The guest's shell is dash, not busybox ash: Debian's busybox runs its own
# applets in preference to PATH ("standalone shell"), which would shadow the
# real mke2fs, losetup, mount and rtcwake.
dash=$(command -v dash) || die "dash not found: run 'make deps' (package dash)"
put_elf "$dash" /usr/bin/sh

for t in $tools; do
	name=${t%%:*} pkg=${t#*:}
	path=$(PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$name") ||
		die "$name not found: run 'make deps' (package $pkg)"
	put_elf "$path"
done

[ -n "$fsgraph" ] && put_elf "$fsgraph" /usr/bin/fsgraph
for h in "${helpers[@]}"; do
	put_elf "$h" "/usr/bin/$(basename "$h")"
done

put /etc/mke2fs.conf /etc/mke2fs.conf 2>/dev/null || true
cp -a "$top/guest/rootfs/." "$stage/"
install -m 0755 "$top/guest/init" "$stage/init"
mkdir -p "$stage/fg"
cp "$top"/guest/lib/*.sh "$stage/fg/"
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"
echo "root:x:0:" > "$stage/etc/group"

(cd "$stage" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --owner=0:0 --quiet) | gzip -n -1 > "$out.tmp"
mv "$out.tmp" "$out"
echo "  INITRD  $out ($(du -h "$out" | cut -f1))"
