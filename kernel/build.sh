#!/bin/bash
# Build build/bzImage from build/linux, out of tree in build/obj.
#
# The config is regenerated from kernel/freezegraph.config on every run
# (allnoconfig + fragment); kbuild only recompiles what an option change
# touches.  ccache and a fixed KBUILD_BUILD_TIMESTAMP make a rebuild of an
# unchanged tree, or of a tree where one file changed, take minutes.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${TREE:-$top/build/linux}
obj=${KBUILD_OUTPUT_DIR:-$top/build/obj}
frag=${FRAGMENT:-$top/kernel/freezegraph.config}
jobs=${JOBS:-$(nproc)}

die() { echo "kernel/build.sh: $*" >&2; exit 1; }

[ -f "$tree/Makefile" ] || die "no kernel tree in build/linux: run kernel/prepare.sh"
command -v ccache >/dev/null || die "ccache not found: run 'make deps'"

. "$top/kernel/kbuild.sh"
kconfig "$obj" "$frag" || die "no usable config in ${obj#"$top"/}"

start=$(date +%s)
kmake "$obj" -j"$jobs" bzImage
out=${BZIMAGE_OUT:-$top/build/bzImage}
cp "$obj/arch/x86/boot/bzImage" "$out"
echo "  KERNEL  ${out#"$top"/} ($(make -s -C "$tree" O="$obj" kernelrelease)," \
	"$(( $(date +%s) - start ))s)"
