#!/bin/bash
# Run the kernel's checkpatch.pl --strict on every patch of patches/series.
# Exit status: 0 when every patch is clean, 1 otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
. "$top/kernel/series-hash.sh"
[ -x "$tree/scripts/checkpatch.pl" ] ||
	{ echo "kernel/checkpatch.sh: no build/linux tree (run make kernel)" >&2; exit 1; }
rc=0
for p in $(series_list "$top"); do
	if out=$(cd "$tree" && ./scripts/checkpatch.pl --strict -q \
			"$top/patches/$p" 2>&1); then
		echo "ok   $p"
	else
		echo "FAIL $p"
		echo "$out" | sed 's/^/     /'
		rc=1
	fi
done
exit $rc
