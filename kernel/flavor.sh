#!/bin/bash
# make kernel FLAVOR=NAME: the series with kernel/flavor-NAME.config added to
# the guest's fragment, from the same build/linux, into build/NAME/obj and
# build/NAME/bzImage.  "make test FLAVOR=NAME" then boots that kernel.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
name=${1:-}

die() { echo "kernel/flavor.sh: $*" >&2; exit 1; }

[ -n "$name" ] || die "usage: kernel/flavor.sh NAME (kernel/flavor-NAME.config)"
extra=$top/kernel/flavor-$name.config
if [ ! -f "$extra" ]; then
	known=$(cd "$top/kernel" && ls flavor-*.config 2>/dev/null |
		sed 's/^flavor-//; s/\.config$//' | tr '\n' ' ')
	die "no flavour '$name' (kernel/flavor-$name.config); known: ${known:-none}"
fi

dir=$top/build/$name
mkdir -p "$dir"
# One fragment for kconfig: the guest's, then the flavour's, which wins.
cat "$top/kernel/freezegraph.config" "$extra" >"$dir/fragment.config.new"
if ! cmp -s "$dir/fragment.config.new" "$dir/fragment.config"; then
	mv "$dir/fragment.config.new" "$dir/fragment.config"
else
	rm -f "$dir/fragment.config.new"
fi

KBUILD_OUTPUT_DIR=$dir/obj BZIMAGE_OUT=$dir/bzImage FRAGMENT=$dir/fragment.config \
	exec "$top/kernel/build.sh"
