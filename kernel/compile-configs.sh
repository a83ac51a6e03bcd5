#!/bin/bash
# Link the series in the configs the guest does not use, where its guards
# matter: system sleep without a block layer, and a block layer without
# system sleep.  Each is allnoconfig plus a few options, in its own object
# directory (build/obj-cfg-NAME), built to a linked vmlinux; nothing boots.
#
#   noblock  SUSPEND=y, BLOCK=n: fs/suspend.c and the graph are not built,
#            so every caller must see the stubs (FUSE, kernel/power).
#   nosleep  BLOCK=y, PM_SLEEP=n, with the cgroup freezer, so that
#            kernel/power/process.c is built without sleep support, and the
#            block code that calls the graph's stubs (holders, partitions,
#            disks, loop, md).
#
# Usage: kernel/compile-configs.sh [NAME...]   (default: both)
# TREE=DIR builds another tree; CFG_OBJ_PREFIX=PATH-PREFIX puts its object
# directories elsewhere (PATH-PREFIXnoblock, ...).
# Prints "ok   NAME" or "FAIL NAME" and the log's tail for each.  Exit
# status: 0 when every config linked, 1 when one did not, 2 when the tree is
# not usable.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${TREE:-$top/build/linux}
jobs=${JOBS:-$(nproc)}

die() { echo "kernel/compile-configs.sh: $*" >&2; exit 2; }
[ -f "$tree/Makefile" ] || die "no kernel tree in build/linux: run 'make kernel'"

. "$top/kernel/kbuild.sh"

# frag NAME: the options of config NAME, one per line.
frag() {
	case $1 in
	noblock)
		# Without EXPERT, BLOCK cannot be turned off.
		printf '%s\n' CONFIG_EXPERT=y CONFIG_PM=y CONFIG_SUSPEND=y CONFIG_FUSE_FS=y \
			'# CONFIG_BLOCK is not set' ;;
	nosleep)
		# The stubs are the same as noblock's; what is new here is the
		# block code that calls them.  ext4, xfs, fuse and nbd call the
		# same stubs as fs/super.c, md and noblock's fuse: left out, they
		# save CI minutes.
		printf '%s\n' CONFIG_BLOCK=y CONFIG_CGROUPS=y CONFIG_CGROUP_FREEZER=y \
			CONFIG_BLK_DEV=y CONFIG_BLK_DEV_LOOP=y CONFIG_MD=y CONFIG_BLK_DEV_MD=y \
			'# CONFIG_SUSPEND is not set' '# CONFIG_HIBERNATION is not set' ;;
	*)
		return 1 ;;
	esac
}

# expect NAME OBJ: the config is the one this test is about.
expect() {
	local c=$2/.config
	case $1 in
	noblock) grep -qx CONFIG_PM_SLEEP=y "$c" && ! grep -q '^CONFIG_BLOCK=y' "$c" ;;
	nosleep) grep -qx CONFIG_BLOCK=y "$c" && ! grep -q '^CONFIG_PM_SLEEP=y' "$c" &&
		grep -qx CONFIG_FREEZER=y "$c" ;;
	esac
}

rc=0
for n in ${*:-noblock nosleep}; do
	frag "$n" >/dev/null || die "no config named $n (noblock, nosleep)"
	o=${CFG_OBJ_PREFIX:-$top/build/obj-cfg-}$n
	mkdir -p "$o"
	frag "$n" >"$o/allconfig.frag"
	start=$(date +%s)
	if ! kconfig "$o" "$o/allconfig.frag" >"$o/build.log" 2>&1 || ! expect "$n" "$o"; then
		echo "FAIL $n: the config is not the one meant (${o#"$top"/}/.config)"
		sed 's/^/     /' "$o/build.log"
		rc=1
		continue
	fi
	if kmake "$o" -j"$jobs" vmlinux >>"$o/build.log" 2>&1 && [ -f "$o/vmlinux" ]; then
		echo "ok   $n ($(( $(date +%s) - start ))s)"
	else
		echo "FAIL $n (${o#"$top"/}/build.log):"
		tail -n 20 "$o/build.log" | sed 's/^/     /'
		rc=1
	fi
done
exit $rc
