#!/bin/bash
# make compare: boot every topology on the stock kernel (build/stock/bzImage,
# "make kernel STOCK=1") and on the series (build/bzImage), and print one
# table: topology, stock outcome, series outcome.  The outcome is guest/run.sh's
# verdict: PASS, FAIL, HANG, SKIP, with its reason.  Results stay under
# build/compare/{stock,series}/NAME; the table is build/compare/table.txt.
# COMPARE_TOPOLOGIES=path... selects a subset.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/compare
stock=$top/build/stock/bzImage series=$top/build/bzImage

for k in "$stock" "$series"; do
	[ -f "$k" ] || { echo "compare: $k is missing: run 'make kernel' and 'make kernel STOCK=1'" >&2; exit 2; }
done

# verdict DIR: guest/run.sh's verdict for that run, or why there is none.
verdict() {
	head -n 1 "$1/result" 2>/dev/null || echo "no verdict (see $1.log)"
}

topos=${COMPARE_TOPOLOGIES:-$(ls -d "$top"/topologies/* | grep -v '\.md$')}
mkdir -p "$out/stock" "$out/series"
table=$out/table.txt
printf '%-32s | %-40s | %s\n' topology stock series >"$table"
printf '%s\n' "$(printf -- '-%.0s' $(seq 1 100))" >>"$table"
for t in $topos; do
	name=$(basename "$t")
	for k in stock series; do
		kern=$stock
		[ $k = series ] && kern=$series
		"$top/guest/run.sh" -q -k "$kern" -o "$out/$k/$name" "$t" >"$out/$k/$name.log" 2>&1
	done
	printf '%-32s | %-40s | %s\n' "$name" "$(verdict "$out/stock/$name")" \
		"$(verdict "$out/series/$name")" | tee -a "$table"
done
echo
cat "$table"
