# The freeze graph as the topology expects it, as the kernel dumps it, and
# as fsgraph's oracle rebuilds it from sysfs and mountinfo; and the checks
# between the three.

# fg_node SPEC: a node id from "mnt:DIR" (the superblock mounted on DIR) or
# "dev:PATH" (the block device PATH).
fg_node() {
	local id
	case $1 in
	mnt:*)
		id=$(awk -v d="${1#mnt:}" '$5 == d { print $3 }' /proc/self/mountinfo | tail -n1)
		[ -n "$id" ] && echo "sb:$id" ;;
	dev:*)
		id=$(fg_devnum "${1#dev:}") && echo "bdev:$id" ;;
	*) return 1 ;;
	esac
}

# fg_expect FROM TO KIND [ro]: the topology expects the edge FROM -> TO,
# read-only (ro=1) with "ro".
fg_expect() {
	local from to
	from=$(fg_node "$1") || { fg_fail "fg_expect: cannot resolve '$1'"; return 1; }
	to=$(fg_node "$2") || { fg_fail "fg_expect: cannot resolve '$2'"; return 1; }
	[ -n "$from" ] && [ -n "$to" ] || { fg_fail "fg_expect: '$1' or '$2' not found"; return 1; }
	case ${4:-} in
	"" | ro) ;;
	*) fg_fail "fg_expect: '$4' is not 'ro'"; return 1 ;;
	esac
	echo "$from $to $3 $1 $2 ${4:-rw}" >>"$FG_STATE/expect"
}

# fg_expect_dot: the expected edges as DOT, for "fsgraph diff --subset".
fg_expect_dot() {
	echo "digraph expected {"
	awk '{
		printf "  \"%s\" [label=\"%s\"];\n", $1, $4
		printf "  \"%s\" [label=\"%s\"];\n", $2, $5
		printf "  \"%s\" -> \"%s\" [kind=\"%s\"%s];\n", $1, $2, $3, $6 == "ro" ? ", ro=1" : ""
	}' "$FG_STATE/expect"
	echo "}"
}

# fg_graph_snapshot PHASE: save the kernel's dump and the oracle's graph.
fg_graph_snapshot() {
	if fg_has_graph; then
		cat /sys/kernel/debug/fs_freeze_graph >"$FG_RESULTS/graph-$1.dot" ||
			fg_fail "could not read /sys/kernel/debug/fs_freeze_graph"
	fi
	fsgraph oracle >"$FG_RESULTS/oracle-$1.dot" 2>>"$FG_RESULTS/fsgraph.log" ||
		fg_fail "fsgraph oracle failed (see fsgraph.log)"
}

# fg_fsgraph NAME ARGS...: run fsgraph, log its output, fail on non-zero.
fg_fsgraph() {
	local name=$1
	shift
	echo "\$ fsgraph $*" >>"$FG_RESULTS/fsgraph.log"
	fsgraph "$@" >>"$FG_RESULTS/fsgraph.log" 2>&1 || {
		fg_fail "$name: 'fsgraph $*' failed (see fsgraph.log)"
		return 1
	}
}

# fg_graph_check PHASE: the expected edges are in the kernel's graph and in
# the oracle's, the two graphs agree, and the kernel's order is sound.
fg_graph_check() {
	local r=$FG_RESULTS
	if [ -s "$FG_STATE/expect" ]; then
		fg_expect_dot >"$r/expected.dot"
		fg_fsgraph "expected edges ($1, oracle)" diff --subset "$r/expected.dot" "$r/oracle-$1.dot"
	fi
	fg_has_graph || return 0
	fg_fsgraph "kernel graph ($1)" check "$r/graph-$1.dot"
	[ -s "$FG_STATE/expect" ] &&
		fg_fsgraph "expected edges ($1, kernel)" diff --subset "$r/expected.dot" "$r/graph-$1.dot"
	fg_fsgraph "kernel vs oracle ($1)" diff "$r/graph-$1.dot" "$r/oracle-$1.dot"
}

# fg_reverse WORD...: the words in reverse order.
fg_reverse() {
	local out="" w
	for w in "$@"; do out="$w${out:+ $out}"; done
	echo "$out"
}

# fg_words_sorted WORD...: the words, sorted, on one line.
fg_words_sorted() {
	printf '%s\n' "$@" | sort | xargs
}

# fg_still_in DOT ID...: the IDs, on one line; with TOPO_CHANGES=1 only
# those of the superblocks still in the dump DOT.
fg_still_in() {
	local g=$1 id
	shift
	if [ "${TOPO_CHANGES:-0}" != 1 ]; then
		echo "$*"
		return
	fi
	for id in "$@"; do
		grep -q "^  \"$id\" \[kind=\"sb\"" "$g" && printf '%s ' "$id"
	done
	echo
}

# fg_sequence_check: every cycle froze in exactly the order that the graph
# (the kernel's, or the oracle's on a kernel without one) predicts, or with
# fs_freeze_async=1 in an order it allows.  It thawed the same superblocks:
# sequentially, in exactly the reverse of the order its freezes completed
# in; with fs_freeze_async=1, in an order whose reverse the graph allows
# for a freeze (each superblock after those it writes through).
fg_sequence_check() {
	local g kind n ids thawed exact
	fg_has_seed || return 0 # a stock kernel does not freeze filesystems
	g="$FG_RESULTS/oracle-cycles.dot"
	fg_has_graph && g="$FG_RESULTS/graph-cycles.dot"
	# A sequential freeze follows the dump's order exactly; a parallel one
	# (async=1) any order the graph allows.
	exact=--exact
	grep -q '^  graph \[.*async=1' "$g" && exact=
	fg_freeze_sequences freezing >"$FG_RESULTS/freeze-sequences.txt"
	fg_freeze_sequences thawing >"$FG_RESULTS/thaw-sequences.txt"
	while read -r kind n ids; do
		[ "$kind" = disk ] && continue # the image kernel's log is not ours
		# A topology that changes under its cycles (TOPO_CHANGES=1) has
		# superblocks that came and went: only those still in the dump
		# after the cycles can be checked against it.
		# shellcheck disable=SC2086 # split the ids into words
		fg_still_in "$g" $ids >"$FG_STATE/seq"
		fg_fsgraph "freeze order of cycle $kind $n" check "$g" --sequence "$FG_STATE/seq" ${exact:+"$exact"}
		thawed=$(awk -v k="$kind" -v n="$n" '$1 == k && $2 == n { $1 = $2 = ""; print }' \
			"$FG_RESULTS/thaw-sequences.txt" | xargs)
		if [ -n "$exact" ]; then
			# shellcheck disable=SC2086 # split the ids into words
			[ "$thawed" = "$(fg_reverse $ids)" ] ||
				fg_fail "cycle $kind $n: thawed '$thawed', not the reverse of the freeze '$ids'"
			continue
		fi
		# shellcheck disable=SC2086 # split the ids into words
		[ "$(fg_words_sorted $thawed)" = "$(fg_words_sorted $ids)" ] ||
			fg_fail "cycle $kind $n: thawed '$thawed', not what it froze '$ids'"
		# shellcheck disable=SC2086 # split the ids into words
		fg_still_in "$g" $(fg_reverse $thawed) >"$FG_STATE/thaw-rev"
		fg_fsgraph "thaw order of cycle $kind $n, reversed" check "$g" --sequence "$FG_STATE/thaw-rev"
	done <"$FG_RESULTS/freeze-sequences.txt"
}
