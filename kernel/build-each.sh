#!/bin/bash
# Bisectability: build every commit of build/linux on top of the pristine
# tree, one after the other.  The tree is checked out at each commit in
# place, so that each step is an incremental build of the last (with
# ccache), and put back where it was at the end.  It refuses to run on a
# tree with uncommitted changes.  Images go to build/bisect-bzImage, not
# over build/bzImage.  FROM=COMMIT starts there, to finish a run that was
# stopped: the commits before it are not built.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	{ echo "kernel/build-each.sh: build/linux has uncommitted changes" >&2; exit 1; }
head=$(git -C "$tree" symbolic-ref -q --short HEAD || git -C "$tree" rev-parse HEAD)
trap 'git -C "$tree" checkout -q "$head"' EXIT
commits=$(git -C "$tree" rev-list --reverse pristine..HEAD)
if [ -n "${FROM:-}" ]; then
	from=$(git -C "$tree" rev-parse -q --verify "$FROM^{commit}") ||
		{ echo "kernel/build-each.sh: FROM=$FROM is not a commit of build/linux" >&2; exit 1; }
	grep -qx "$from" <<<"$commits" ||
		{ echo "kernel/build-each.sh: FROM=$FROM is not between pristine and HEAD" >&2; exit 1; }
	commits=$(sed -n "/^$from\$/,\$p" <<<"$commits")
fi
for c in $commits; do
	git -C "$tree" checkout -q "$c"
	echo "=== $(git -C "$tree" log -1 --format='%h %s')"
	start=$(date +%s)
	BZIMAGE_OUT=$top/build/bisect-bzImage "$top/kernel/build.sh" >"$top/build/bisect-$c.log" 2>&1 ||
		{ echo "    FAILED: see build/bisect-$c.log"; exit 1; }
	echo "    builds ($(( $(date +%s) - start ))s)"
done
