#!/bin/bash
# Run the kernel's checkpatch.pl --strict on every patch of patches/series.
# Exit status: 0 when every patch is clean, 1 otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
. "$top/kernel/series-hash.sh"
[ -x "$tree/scripts/checkpatch.pl" ] ||
	{ echo "kernel/checkpatch.sh: no build/linux tree (run make kernel)" >&2; exit 1; }
# build/linux holds a release tarball, not upstream history, so checkpatch
# cannot look up the commits that Fixes: tags name; DESIGN.md lists them,
# checked against mainline.  spdxcheck.py needs Debian's python3 (for ply),
# whatever python3 comes first in PATH.
rc=0
for p in $(series_list "$top"); do
	if out=$(cd "$tree" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict -q \
			--ignore UNKNOWN_COMMIT_ID "$top/patches/$p" 2>&1); then
		echo "ok   $p"
	else
		echo "FAIL $p"
		echo "$out" | sed 's/^/     /'
		rc=1
	fi
done
exit $rc
