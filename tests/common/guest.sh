# Running topologies in guests from a test file.  guest/run.sh is the
# harness: it applies the host timeout and fails the run on any splat in
# the kernel log (BUG, WARNING, lockdep, hung task, Oops).

. "$TOP/guest/splats.sh"

# run_guest LABEL TOPOLOGY [run.sh options]: boot it; results go to
# $RESULTS/LABEL.  Sets GUEST_RC and GUEST_OUT, and prints the verdict as a
# TAP comment.
run_guest() {
	local label=$1 topo=$2
	shift 2
	GUEST_OUT=$RESULTS/$label
	"$TOP/guest/run.sh" -q -o "$GUEST_OUT" "$@" "$topo" >"$RESULTS/$label.run.log" 2>&1
	GUEST_RC=$?
	diag "$(tail -n1 "$RESULTS/$label.run.log")"
	return 0
}

# guest_passed LABEL DESCRIPTION: one TAP line for a run that must pass.
guest_passed() {
	if [ "$GUEST_RC" -eq 0 ]; then
		ok "$1"
	elif [ "$GUEST_RC" -eq 77 ]; then
		skip "$1" "$(cat "$GUEST_OUT/skip-reason" 2>/dev/null)"
	else
		not_ok "$1" "$(cat "$GUEST_OUT/result" 2>/dev/null); results: $GUEST_OUT
$(head -n5 "$GUEST_OUT/failures" 2>/dev/null)
$(head -n5 "$GUEST_OUT/splats.txt" 2>/dev/null)
$(splat_trace "$GUEST_OUT/console.log")
last lines of the console:
$(console_tail "$GUEST_OUT/console.log")"
	fi
}

# console_tail LOG: the last lines of a guest console, without the
# carriage returns and the escape sequences.
console_tail() {
	tail -n 12 "$1" 2>/dev/null | tr -d '\r' | sed 's/\x1b\[[0-9;]*[a-zA-Z]//g'
}

# splat_trace LOG: where the first splat of a guest console happened: the
# harness's last "fg:" marker before it, the splat line, and the kernel
# frames of its first call trace.  A CI log keeps only a report's tail, and
# the tail of a panic is the user-space registers of the task.
splat_trace() {
	local clean
	clean=$(tr -d '\r' <"$1" 2>/dev/null | sed 's/\x1b\[[0-9;]*[a-zA-Z]//g') || return 0
	awk -v re="$FG_SPLAT_RE" -v not="$FG_SPLAT_NOT_RE" '
		!found && / fg: / { marker = $0 }
		!found && $0 ~ re && $0 !~ not {
			found = 1; n = 0
			print "first splat, after: " marker
			print; next
		}
		found && n < 80 {
			n++
			if ($0 ~ /RIP: 0010:|Call Trace|[a-zA-Z_.]+\+0x[0-9a-f]+\/0x/ && shown < 24) {
				print; shown++
			}
			if ($0 ~ /<\/TASK>/) exit
		}' <<<"$clean"
}

# freeze_ids FILE, thaw_ids FILE: the node ids of the "fs_freeze: freezing ..."
# (or "thawing ...") lines of a dmesg, in order, whatever cycle they are in.
freeze_ids() {
	grep -o 'fs_freeze: freezing .* (sb:[0-9]*:[0-9]*)' "$1" | grep -o 'sb:[0-9]*:[0-9]*'
}

thaw_ids() {
	grep -o 'fs_freeze: thawing .* (sb:[0-9]*:[0-9]*)' "$1" | grep -o 'sb:[0-9]*:[0-9]*'
}

# dump_span DOT ID freeze|thaw: "START END" of that superblock's last
# freeze (or thaw) in the dump DOT, in ns (schema 1.3 and 1.4).
dump_span() {
	local start ns
	# Summed by the shell: mawk prints a sum over 2^31 as 3.08793e+09.
	read -r start ns < <(sed -n "s/^  \"$2\" \[.*$3_start_ns=\([0-9]*\), $3_ns=\([0-9]*\),.*/\1 \2/p" "$1")
	[ -n "$ns" ] && echo "$start $((start + ns))"
}

# spans_overlap "START END" "START END": 0 when the two overlap in time, 1
# when not, 2 when one is missing.
spans_overlap() {
	[ -n "$1" ] && [ -n "$2" ] || return 2
	# shellcheck disable=SC2086 # split "START END" into two words
	set -- $1 $2
	[ "$1" -lt "$4" ] && [ "$3" -lt "$2" ]
}

# kmsg FILE: a dmesg without its "[   12.345678] " timestamps.
kmsg() {
	sed 's/^\[[^]]*\] //' "$1"
}
