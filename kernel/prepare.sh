#!/bin/bash
# Unpack Debian's linux-source-6.1 into build/linux as a git tree and apply
# patches/series on top of it, one commit per patch (git am).
#
# The pristine source is the first commit, tagged "pristine".  A stamp in
# .git/freezegraph-series records which series the tree was built from, so
# that running this again is cheap when nothing changed, re-applies the series
# when patches/ changed, and refuses to throw away commits made in the tree
# that were never exported with "make patches".
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
src=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
tree=$top/build/linux
series=$top/patches/series
stamp=$tree/.git/freezegraph-series

die() { echo "kernel/prepare.sh: $*" >&2; exit 1; }

. "$top/kernel/series-hash.sh"

git_k() {
	git -C "$tree" -c core.autocrlf=false "$@"
}

unpack() {
	[ -r "$src" ] || die "$src not found: run 'make deps' (package linux-source-6.1)"
	echo "  UNPACK  $src -> build/linux"
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" --strip-components=1 -xf "$src"
	mv "$tree.tmp" "$tree"
	cd "$tree"
	git_k init -q -b main
	git_k config gc.auto 0
	# Commits made in the tree are the project's patches.
	git_k config user.name "Freezegraph Developers"
	git_k config user.email "dev@freezegraph.example"
	# Debian's .gitignore ignores everything at the top level, which
	# would keep new files out of our commits: drop that rule.
	sed -i -e '/^# Debian packaging: ignore everything at the top level/,/^!\/debian\/$/d' .gitignore
	echo "  GIT     pristine commit (this takes a minute)"
	git_k add -A -f .
	GIT_AUTHOR_DATE=2025-01-01T00:00:00Z GIT_COMMITTER_DATE=2025-01-01T00:00:00Z \
		git_k commit -q -m "Debian $(basename "$src") (pristine)" \
			-m "Debian's top-level ignore rule is dropped from .gitignore."
	git_k tag pristine
}

apply_series() {
	local p n=0
	git_k checkout -q main
	git_k reset -q --hard pristine
	for p in $(series_list "$top"); do
		[ -f "$top/patches/$p" ] || die "patches/series names $p, which does not exist"
		if ! git_k am -q --committer-date-is-author-date "$top/patches/$p"; then
			git_k am --abort || true
			die "patch $p does not apply to build/linux"
		fi
		n=$((n + 1))
	done
	series_hash "$top" > "$stamp"
	git_k rev-parse HEAD >> "$stamp"
	echo "  SERIES  $n patch(es) applied"
}

git_k rev-parse -q --verify pristine >/dev/null 2>&1 || unpack

want=$(series_hash "$top")
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$want" ]; then
	exit 0 # tree already carries this series (plus any local work)
fi

# The series changed.  Only rebuild the tree if it holds nothing unexported.
if [ -f "$stamp" ] && [ "${FORCE:-0}" != 1 ]; then
	head_now=$(git_k rev-parse HEAD)
	if [ "$head_now" != "$(sed -n 2p "$stamp")" ] ||
	   [ -n "$(git_k status --porcelain --untracked-files=no)" ]; then
		die "build/linux has commits or changes not in patches/ and patches/ changed too.
  Export your work first (make patches), or discard it with: make kernel FORCE=1"
	fi
fi
apply_series
