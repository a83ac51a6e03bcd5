# fg_main: run one topology from /run/fg, then report to the host.
#
# The steps of the topology run in subshells with "set -e": a failing
# command fails its step, and "exit 1" in a step ends only that step.

fg_requires() {
	local r
	for r in $TOPO_REQUIRES; do
		case $r in
		kernel:seed) fg_has_seed || fg_skip "kernel lacks the fs freeze on suspend patches" ;;
		kernel:graph) fg_has_graph || fg_skip "kernel has no /sys/kernel/debug/fs_freeze_graph" ;;
		*) command -v "$r" >/dev/null || fg_skip "guest lacks the command '$r'" ;;
		esac
	done
}

# fg_step NAME: run topo_NAME; a failure fails the run.
fg_step() {
	fg_log "step $1"
	(set -e; "topo_$1") >>"$FG_RESULTS/commands.log" 2>&1
	local rc=$?
	[ $rc -eq 0 ] || fg_fail "step $1 exited with $rc (see commands.log)"
	return $rc
}

fg_main() {
	mkdir -p "$FG_RESULTS" "$FG_STATE"
	: >"$FG_RESULTS/failures"
	[ -r /run/fg/params ] && . /run/fg/params
	fg_log "kernel $(uname -r), topology ${FG_NAME:-?}"
	[ -r /run/fg/topology ] || { fg_fail "no topology in the initramfs"; fg_exit 2; }
	fg_cmdline_check || fg_exit 2
	. /run/fg/topology
	fg_requires
	fg_kmsg "topology ${FG_NAME:-?} start"

	fg_step setup || fg_exit 1
	fg_graph_snapshot setup
	fg_graph_check setup
	fg_step load || fg_exit 1
	fg_cycles "${FG_CYCLES:-$TOPO_CYCLES}"
	fg_load_stop
	fg_graph_snapshot cycles
	fg_graph_check cycles
	fg_sequence_check
	fg_step check
	fg_load_verify
	fg_teardown
	fg_kmsg "topology ${FG_NAME:-?} end"
	if fg_failed; then fg_exit 1; else fg_exit 0; fi
}
