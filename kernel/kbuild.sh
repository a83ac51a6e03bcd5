# Shared by kernel/build.sh and kernel/compile-extra.sh (sourced, after
# $top and $tree are set): the reproducible-build environment, make for one
# out-of-tree object directory, and the config from a fragment.

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export CCACHE_BASEDIR=$top/build
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
export KBUILD_BUILD_TIMESTAMP="2025-01-01 00:00:00 UTC"
export KBUILD_BUILD_USER=freezegraph
export KBUILD_BUILD_HOST=freezegraph

# kmake OBJ ARGS...: make in build/linux, out of tree in OBJ, with ccache.
kmake() {
	local o=$1
	shift
	make -C "$tree" O="$o" ARCH=x86_64 CC="ccache gcc" HOSTCC="ccache gcc" "$@"
}

# kconfig OBJ FRAGMENT: OBJ/.config is allnoconfig plus FRAGMENT, and every
# option of FRAGMENT survived Kconfig's dependencies (else: the list, and 1).
# An option that the tree does not define at all is one the series adds: the
# stock tree, and the commits before the one that adds it, go without it.
kconfig() {
	local o=$1 frag=$2 missing
	mkdir -p "$o"
	kmake "$o" -s KCONFIG_ALLCONFIG="$frag" allnoconfig || return 1
	missing=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$frag" | while IFS= read -r line; do
		grep -qxF "$line" "$o/.config" && continue
		sym=${line%%=*}
		grep -rqx --include='Kconfig*' "config ${sym#CONFIG_}" "$tree" || continue
		echo "  $line"
	done)
	[ -z "$missing" ] && return 0
	echo "these options of $frag did not stick (dependency missing?):" >&2
	echo "$missing" >&2
	return 1
}
