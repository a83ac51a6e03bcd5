# TAP helpers for the test files (bash).  Each test file sources this,
# declares what it requires, and ends with tap_done.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
B=$TOP/build
FSGRAPH=${FSGRAPH:-$B/fsgraph}
# The kernel under test: build/bzImage, or with FG_FLAVOR (make test
# FLAVOR=kasan) the flavour's, from build/FLAVOR/.  KOBJ is its objects.
if [ -n "${FG_FLAVOR:-}" ]; then
	KERNEL=$B/$FG_FLAVOR/bzImage KOBJ=$B/$FG_FLAVOR/obj
	export FG_KERNEL=$KERNEL
else
	KERNEL=$B/bzImage KOBJ=$B/obj
fi
_tap_n=0
_tap_failed=0

# Where this test keeps what a failure needs: build/test-results/GROUP-NNN.
TEST_NAME=$(basename "$(dirname "$0")")-$(basename "$0")
RESULTS=$B/test-results${FG_FLAVOR:+-$FG_FLAVOR}/$TEST_NAME
rm -rf "$RESULTS" && mkdir -p "$RESULTS"

tap_plan() { echo "1..$1"; }
diag() { sed 's/^/# /' <<<"$*"; }

ok() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1"
}

# Every failure also goes to $FAILURES, which "make test" prints last, so
# that a CI log that keeps only its tail still says what failed and why.
FAILURES=$B/test-results${FG_FLAVOR:+-$FG_FLAVOR}/failures.txt

not_ok() {
	_tap_n=$((_tap_n + 1))
	_tap_failed=$((_tap_failed + 1))
	echo "not ok $_tap_n - $1"
	[ $# -gt 1 ] && diag "$2"
	{
		echo "$TEST_NAME: not ok $_tap_n - $1"
		[ $# -gt 1 ] && head -n 45 <<<"$2" | sed '/^$/d; s/^/    /'
	} >>"$FAILURES"
	return 0
}

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local _desc=$1 _out
	shift
	if _out=$("$@" 2>&1); then ok "$_desc"; else not_ok "$_desc" "$_out"; fi
}

# is GOT WANT DESCRIPTION
is() {
	if [ "$1" = "$2" ]; then ok "$3"; else not_ok "$3" "got '$1', want '$2'"; fi
}

# skip_all REASON: the whole file is skipped, visibly.
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

skip() {
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

tap_done() {
	echo "1..$_tap_n"
	[ $_tap_failed -eq 0 ] || diag "kept for inspection: $RESULTS"
	exit $((_tap_failed > 0))
}

# --- requirements ---------------------------------------------------------
requires_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null || skip_all "needs the command $c"
	done
}

requires_file() {
	[ -e "$1" ] || skip_all "needs $1${2:+ ($2)}"
}

# requires_kernel [seed|graph|nokthreadfreezer]: the kernel is built, and
# carries that part of the series (with no argument: any kernel, stock too).
requires_kernel() {
	local map=$KOBJ/System.map sym
	requires_file "$KERNEL" "make kernel${FG_FLAVOR:+ FLAVOR=$FG_FLAVOR}"
	requires_file "$map" "make kernel"
	case ${1:-} in
	'') return 0 ;;
	seed) sym=fs_suspend_freeze ;;
	graph) sym=fs_freeze_graph_sort ;;
	nokthreadfreezer) grep -q ' freeze_kernel_threads$' "$map" &&
		skip_all "the kernel still has the kthread freezer"; return 0 ;;
	*) echo "requires_kernel: unknown feature $1" >&2; exit 2 ;;
	esac
	grep -q " $sym\$" "$map" || skip_all "the kernel lacks the $1 patches ($sym)"
}
