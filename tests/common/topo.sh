# Helpers for the topology tests: run one topology in DAG order (and, for
# an inversion, in list order too), check it, and write its row of the
# summary table that "make test" prints at the end.

TABLE=$B/test-results${FG_FLAVOR:+-$FG_FLAVOR}/topology-table.txt

# median: the median of the numbers on stdin, or "-".
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'
}

# p99: the 99th percentile (nearest rank) of the numbers on stdin, or "-".
p99() {
	sort -n | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
		r = int(NR * 0.99); if (r < NR * 0.99) r++; print v[r] }'
}

# edges_found DUMP: "mount:2 holder:1 ..." for the edges of a dump.
edges_found() {
	grep -o '" -> "[^]]*kind="[a-z]*"' "$1" | grep -o 'kind="[a-z]*"' | cut -d'"' -f2 |
		sort | uniq -c | awk '{ printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1 }'
}

# freeze_ms DIR: for each cycle of a run, the freeze phase in ms: the early
# phase (if it froze anything) plus the late one.
freeze_ms() {
	grep -oE 'froze [0-9]+ filesystems? (needing user space, before freezing tasks, )?in [a-z]+ order(, independent ones at once,)? in [0-9]+ ms' \
		"$1/dmesg.txt" 2>/dev/null |
		awk '/needing user space/ { early += $(NF - 1); next } { print early + $(NF - 1); early = 0 }'
}

# cycle_counts DIR: "RUNS PASSED" for a run's cycles; from the console when
# no results came back (a hang or a crash).
cycle_counts() {
	if [ -s "$1/cycles.txt" ]; then
		echo "$(grep -c . "$1/cycles.txt") $(grep -c ' ok ' "$1/cycles.txt")"
	else
		echo "$(grep -c 'fg: cycle [a-z]* [0-9]*: ' "$1/console.log" 2>/dev/null)" \
			"$(grep -c 'fg: cycle [a-z]* [0-9]*: ok' "$1/console.log" 2>/dev/null)"
	fi
}

ROW_FMT='%-22s | %-34s | %-18s | %-18s | %-13s | %6s | %5s | %s\n'

# table_row NAME DIR LISTRESULT: one row of the summary table.  Its notes:
# the DAG run's verdict unless PASS, LISTRESULT unless "-", host wake-ups.
table_row() {
	local name=$1 dir=$2 dump brief dag lst viol runs passed ms wakes verdict n notes=() joined=
	dump=$dir/graph-cycles.dot
	[ -s "$dump" ] || dump=$dir/oracle-cycles.dot
	brief=$("$FSGRAPH" order --brief "$dump" 2>/dev/null)
	dag=$(sed -n 's/^dag: //p' <<<"$brief" | tr ' ' ',')
	lst=$(sed -n 's/^list: //p' <<<"$brief" | tr ' ' ',')
	viol=$(sed -n 's/^violated: *//p' <<<"$brief" | tr ' ' ',')
	read -r runs passed < <(cycle_counts "$dir")
	verdict=$(cat "$dir/result" 2>/dev/null)
	[ "$verdict" = PASS ] || notes+=("DAG run ${verdict:-gave no verdict}")
	[ "$3" = - ] || notes+=("$3")
	ms=$(freeze_ms "$dir" | median)
	wakes=$(grep -c . "$dir/host-wakeups" 2>/dev/null)
	[ -z "$wakes" ] || notes+=("host woke S3 x$wakes")
	for n in "${notes[@]}"; do joined+="${joined:+; }$n"; done
	printf "$ROW_FMT" "$name" \
		"$(edges_found "$dump" 2>/dev/null)" "${dag:--}" "${lst:--}" "${viol:--}" \
		"${passed:-0}/${runs:-0}" "$ms" "${joined:--}" >>"$TABLE"
}

table_header() {
	{
		printf "$ROW_FMT" topology \
			"edges found" "DAG freeze order" "list order" "list violates" cycles "ms" "list-order run; notes"
		printf '%s\n' "$(printf '%.0s-' $(seq 150))"
	} >"$TABLE"
}

# list_hang_shown CONSOLE: the console shows the freeze stuck as predicted:
# the last fs_freeze line is "freezing" (no "froze" after it), and the xfs
# holding the loop file was frozen before it in that cycle.
list_hang_shown() {
	local last
	last=$(grep -o 'fs_freeze: .*' "$1" | tail -n1)
	case $last in
	"fs_freeze: freezing "*) ;;
	*) echo "last fs_freeze line is not a freeze in progress: $last"; return 1 ;;
	esac
	grep -o 'fs_freeze: .*' "$1" | tail -n 3 | grep -q 'fs_freeze: freezing xfs' ||
		{ echo "no xfs frozen just before: $(grep -o 'fs_freeze: .*' "$1" | tail -n3)"; return 1; }
}
