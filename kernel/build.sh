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
frag=$top/kernel/freezegraph.config
jobs=${JOBS:-$(nproc)}

die() { echo "kernel/build.sh: $*" >&2; exit 1; }

[ -f "$tree/Makefile" ] || die "no kernel tree in build/linux: run kernel/prepare.sh"
command -v ccache >/dev/null || die "ccache not found: run 'make deps'"

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$top/build
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00 UTC"
export KBUILD_BUILD_USER=freezegraph
export KBUILD_BUILD_HOST=freezegraph

kmake() {
	make -C "$tree" O="$obj" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

mkdir -p "$obj"
kmake -s KCONFIG_ALLCONFIG="$frag" allnoconfig

# Every option of the fragment must have survived Kconfig's dependencies.
missing=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag" | while IFS= read -r line; do
	grep -qxF "$line" "$obj/.config" || echo "  $line"
done)
[ -z "$missing" ] || die "these options of $frag did not stick (dependency missing?):
$missing"

start=$(date +%s)
kmake -j"$jobs" bzImage
out=${BZIMAGE_OUT:-$top/build/bzImage}
cp "$obj/arch/x86/boot/bzImage" "$out"
echo "  KERNEL  ${out#"$top"/} ($(make -s -C "$tree" O="$obj" kernelrelease)," \
	"$(( $(date +%s) - start ))s)"
