# Helpers of make bench (scripts/bench.sh, scripts/bench-scale.sh), which
# set $top and $out first.

die() { echo "bench: $*" >&2; exit 2; }

# run NAME: boot $out/NAME.topo; 0 if it and every suspend it tried passed.
run() {
	local rc
	"$top/guest/run.sh" -q -o "$out/$1" "$out/$1.topo" >"$out/$1.log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "bench: $1: $(head -n1 "$out/$1/result" 2>/dev/null) (see $out/$1.log)" >&2; return 1; }
	! grep -qv '^0$' "$out/$1"/*.rc
}

# attr NAME DOT: the first numeric value of attribute NAME in DOT.
attr() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" "$2" | head -n 1; }

# ratio A B: A / B to two places, or "-".
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
