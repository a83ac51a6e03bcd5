#!/bin/bash
# Bisectability: build every commit of build/linux on top of the pristine
# tree, one after the other, in a scratch worktree.  Slow (each step is an
# incremental build); for developers, not for CI.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
wt=$top/build/bisect
git -C "$tree" worktree remove --force "$wt" 2>/dev/null || true
git -C "$tree" worktree add -q --detach "$wt" pristine
trap 'git -C "$tree" worktree remove --force "$wt"' EXIT
for c in $(git -C "$tree" rev-list --reverse pristine..HEAD); do
	git -C "$wt" checkout -q "$c"
	echo "=== $(git -C "$wt" log -1 --format='%h %s')"
	KBUILD_OUTPUT_DIR=$top/build/obj-bisect TREE=$wt BZIMAGE_OUT=$top/build/bisect-bzImage \
		"$top/kernel/build.sh" >"$top/build/bisect-$c.log" 2>&1 ||
		{ echo "FAILED: see build/bisect-$c.log"; exit 1; }
	echo "    builds"
done
