#!/bin/bash
# Export the commits of build/linux on top of the pristine tree into
# patches/, as git format-patch output plus a series file, and record the
# tree's state so that kernel/prepare.sh knows the two agree.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
git -C "$tree" rev-parse -q --verify pristine >/dev/null ||
	{ echo "kernel/export.sh: no build/linux tree (run make kernel)" >&2; exit 1; }
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "kernel/export.sh: build/linux has uncommitted changes; commit them first" >&2; exit 1; }

rm -f "$top"/patches/*.patch
git -C "$tree" format-patch -q --no-signature --zero-commit --no-numbered \
	-o "$top/patches" pristine..HEAD
(cd "$top/patches" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') >"$top/patches/series"
n=$(grep -c . "$top/patches/series" || true)

# The tree now matches the series: record it like prepare.sh does.
. "$top/kernel/series-hash.sh"
{ series_hash "$top"; git -C "$tree" rev-parse HEAD; } >"$tree/.git/freezegraph-series"
echo "  EXPORT  $n patch(es) to patches/"
