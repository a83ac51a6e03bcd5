#!/bin/bash
# Build the unpatched tree, for comparison with the series: build/stock/
# holds a git worktree of build/linux at its "pristine" commit, its own
# obj directory, and build/stock/bzImage.  The same config fragment, so
# that the only difference between the two kernels is the series.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
main=$top/build/linux
tree=$top/build/stock/linux

die() { echo "kernel/stock.sh: $*" >&2; exit 1; }

# build/linux, and its pristine commit, come from kernel/prepare.sh.
"$top/kernel/prepare.sh"
pristine=$(git -C "$main" rev-parse -q --verify pristine) ||
	die "build/linux has no pristine tag: run 'make kernel' first"

# A worktree whose build/linux was unpacked again no longer resolves.
if [ -e "$tree" ] && [ "$(git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null)" != "$pristine" ]; then
	echo "  STOCK   build/stock/linux is stale: checking it out again"
	rm -rf "$tree"
	git -C "$main" worktree prune
fi
if [ ! -e "$tree/Makefile" ]; then
	mkdir -p "$top/build/stock"
	echo "  STOCK   build/stock/linux: worktree at pristine (this takes a minute)"
	git -C "$main" worktree add -q --detach "$tree" pristine
fi

TREE=$tree KBUILD_OUTPUT_DIR=$top/build/stock/obj BZIMAGE_OUT=$top/build/stock/bzImage \
	exec "$top/kernel/build.sh"
