#!/bin/bash
# Compile the C files that the series changes but the guest's config does not
# build (today: drivers/xen/manage.c, which patch "PM: freeze workqueues, not
# kernel threads" edits, and drivers/md/bcache/super.c, which patch "bcache:
# tell the freeze graph when a holder link fails" edits), so that a change
# there is compiled, not only read.
#
# A second out-of-tree build, build/obj-extra, takes the guest's fragment
# plus Xen guest support, and builds just those objects; nothing is linked
# and nothing boots.  Exit status: 0 when every such file compiled, 1 when
# one did not, 2 when the tree or the config is not usable.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${TREE:-$top/build/linux}
obj=$top/build/obj
extra_obj=$top/build/obj-extra
frag=$top/kernel/freezegraph.config
jobs=${JOBS:-$(nproc)}
extra_opts="CONFIG_HYPERVISOR_GUEST=y CONFIG_PARAVIRT=y CONFIG_XEN=y CONFIG_XEN_PV=y CONFIG_BCACHE=y"

die() { echo "kernel/compile-extra.sh: $*" >&2; exit 2; }

[ -f "$tree/Makefile" ] || die "no kernel tree in build/linux: run 'make kernel'"
[ -f "$obj/.config" ] || die "no guest build in build/obj: run 'make kernel'"
git -C "$tree" rev-parse -q --verify pristine >/dev/null || die "build/linux has no 'pristine' tag"

. "$top/kernel/kbuild.sh"

# The files the series changes whose object the guest's build lacks.
unbuilt=$(git -C "$tree" diff --name-only pristine HEAD -- '*.c' | while read -r f; do
	[ -f "$obj/${f%.c}.o" ] || echo "$f"
done)
if [ -z "$unbuilt" ]; then
	echo "every C file the series changes is built by the guest's config"
	exit 0
fi

mkdir -p "$extra_obj"
{ cat "$frag"; tr ' ' '\n' <<<"$extra_opts"; } >"$extra_obj/allconfig.frag"
kconfig "$extra_obj" "$extra_obj/allconfig.frag" || die "no usable config in build/obj-extra"

rc=0
for f in $unbuilt; do
	if kmake "$extra_obj" -j"$jobs" "${f%.c}.o" >"$extra_obj/build.log" 2>&1 && [ -f "$extra_obj/${f%.c}.o" ]; then
		echo "ok   $f"
	else
		echo "FAIL $f (build/obj-extra/build.log):"
		tail -n 20 "$extra_obj/build.log" | sed 's/^/     /'
		rc=1
	fi
done
exit $rc
