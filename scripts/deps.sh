#!/bin/bash
# Install the Debian packages that any target of this project needs, and
# only those that are missing.  Safe to run again: with nothing missing it
# returns at once.
set -euo pipefail

pkgs=(
	# kernel build
	build-essential bc bison flex libelf-dev libssl-dev ccache xz-utils
	linux-source-6.1 git
	# guest: QEMU, and the tools the initramfs carries
	qemu-system-x86 busybox-static cpio gzip mdadm lvm2 dmsetup e2fsprogs
	xfsprogs util-linux mount coreutils fdisk
	# guest: storage served by user space (FUSE, nbd)
	fuse2fs fuse3 nbd-client nbd-server
	# tools/: fsgraph is built against graphviz's cgraph, and checked with
	# valgrind
	graphviz libgraphviz-dev pkg-config valgrind
	# checkpatch.pl: spdxcheck.py needs ply, and git for a new file
	python3-ply python3-git
	# the guest shell, and tests: prove
	dash
	perl
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null || {
		echo "deps: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
		exit 1
	}
	sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
