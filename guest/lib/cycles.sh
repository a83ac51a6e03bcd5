# Suspend and hibernation cycles.  Each cycle is bracketed by markers in the
# kernel log, so that the freeze and thaw sequence of every cycle can be cut
# out of dmesg afterwards.  $FG_RESULTS/cycles.txt gets one line a cycle:
#   KIND N ok|fail SECONDS

FG_PM_TESTS="freezer devices platform processors core"

fg_kmsg() { echo "fg: $*" >/dev/kmsg; }

fg_success_count() { cat /sys/power/suspend_stats/success; }

# fg_cycle_pm_test LEVEL: a suspend that stops at pm_test LEVEL.
fg_cycle_pm_test() {
	echo "$1" >/sys/power/pm_test || return 1
	echo mem >/sys/power/state
	local rc=$?
	echo none >/sys/power/pm_test
	return $rc
}

# fg_try_suspend NAME: a pm_test=freezer suspend outside the cycles, for a
# test: its status in $FG_RESULTS/NAME.rc, its duration in NAME.ms, the
# dump after it in NAME.dot.  /proc/uptime counts in 10 ms steps, so the
# figure is rounded, not truncated: awk's 5.00 - 0.00 may be 4.9999...,
# which %d makes 4999.
fg_try_suspend() {
	_t0=$(cut -d' ' -f1 /proc/uptime)
	fg_cycle_pm_test freezer 2>"$FG_RESULTS/$1.err" && _rc=0 || _rc=$?
	_t1=$(cut -d' ' -f1 /proc/uptime)
	awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.0f\n", (b - a) * 1000 }' >"$FG_RESULTS/$1.ms"
	echo $_rc >"$FG_RESULTS/$1.rc"
	cat /sys/kernel/debug/fs_freeze_graph >"$FG_RESULTS/$1.dot" 2>/dev/null || true
}

# fg_rtc_delay: seconds until the RTC alarm of an S3 cycle.  The alarm is
# armed before the kernel's own "Filesystems sync", which under the dd load
# on a loop stack can take longer than 3 s; an alarm that fires before S3
# is entered never wakes the guest.  So: 3 s, plus twice the longest sync
# of this boot so far (every cycle, pm_test ones too, logs one), at most
# 20 s: the host wakes a guest that has been in S3 for 30 s.
fg_rtc_delay() {
	local s d
	s=$(dmesg | sed -n 's/.*Filesystems sync: \([0-9]*\)\.[0-9]* seconds.*/\1/p' |
		sort -n | tail -n 1)
	d=$((3 + 2 * ${s:-0}))
	[ $d -le 20 ] || d=20
	echo $d
}

# fg_cycle_mem: a real S3, woken up by the RTC alarm (fg_rtc_delay).
fg_cycle_mem() {
	local delay
	delay=$(fg_rtc_delay)
	echo none >/sys/power/pm_test
	echo "rtcwake -d rtc0 -m mem -s $delay" >>"$FG_RESULTS/commands.log"
	rtcwake -d rtc0 -m mem -s "$delay" >>"$FG_RESULTS/commands.log" 2>&1
}

# fg_cycle_disk: hibernation and resume within one boot.  The swap disk is
# made fresh by the host and mkswap'ed once per boot by fg_swap_setup.
fg_cycle_disk() {
	echo none >/sys/power/pm_test
	echo test_resume >/sys/power/disk || return 1
	echo disk >/sys/power/state
}

fg_swap_setup() {
	local dev
	dev=$(fg_disk_by_serial fg-swap) || {
		fg_fail "hibernation cycles need the fg-swap disk"
		return 1
	}
	fg_run swap mkswap "$dev" && fg_run swap swapon "$dev"
}

# fg_cycle KIND N: one cycle; fails the run if it does not succeed.  A
# topology's optional topo_precycle step runs right before each one.
fg_cycle() {
	local kind=$1 n=$2 before after rc t0 t1 ok=ok
	if command -v topo_precycle >/dev/null 2>&1; then
		fg_step precycle || true
	fi
	before=$(fg_success_count)
	t0=$(cut -d. -f1 /proc/uptime)
	fg_kmsg "cycle $kind $n begin"
	case $kind in
	mem) fg_cycle_mem ;;
	disk) fg_cycle_disk ;;
	*) fg_cycle_pm_test "$kind" ;;
	esac
	rc=$?
	fg_kmsg "cycle $kind $n end rc=$rc"
	t1=$(cut -d. -f1 /proc/uptime)
	after=$(fg_success_count)
	if [ $rc -ne 0 ]; then
		ok=fail
		fg_fail "cycle $kind $n: suspend returned $rc"
	elif [ "$kind" != disk ] && [ "$after" -ne $((before + 1)) ]; then
		ok=fail
		fg_fail "cycle $kind $n: suspend_stats/success went from $before to $after"
	fi
	echo "$kind $n $ok $((t1 - t0))" >>"$FG_RESULTS/cycles.txt"
	fg_log "cycle $kind $n: $ok ($((t1 - t0))s)"
}

# fg_cycles SPEC: run "KIND:COUNT ..." cycles, e.g. "freezer:3 mem:1".  A
# kind may come back ("freezer:2 mem:1 freezer:2"): its cycles are numbered
# on.  With FG_STOP_ON_FAIL=1 (guest/run.sh -s, make soak), the first cycle
# that fails ends them.
fg_cycles() {
	local item kind count i n
	case " $1 " in *" disk:"*) fg_swap_setup || return 1 ;; esac
	for item in $1; do
		kind=${item%%:*}
		count=${item#*:}
		i=1
		while [ $i -le "$count" ]; do
			eval "n=\$((\${_fg_n_$kind:-0} + 1)); _fg_n_$kind=\$n"
			fg_cycle "$kind" "$n"
			if [ "${FG_STOP_ON_FAIL:-0}" = 1 ] && fg_failed; then
				fg_log "stopping the cycles at the first failure"
				return 1
			fi
			i=$((i + 1))
		done
	done
}

# fg_freeze_sequences [freezing|thawing]: for each cycle, the filesystems in
# the order the kernel froze (or thawed) them, as "KIND N id id ..." lines.
# A freeze is logged when it completes ("frozen"), which is the order the
# thaw reverses; a kernel that logs only "freezing" (the seed) logs it then.
fg_freeze_sequences() {
	dmesg | awk -v what="fs_freeze: ${1:-freezing} " -v done="fs_freeze: frozen " '
		function id() {
			return match($0, /\(sb:[0-9]+:[0-9]+\)/) ? " " substr($0, RSTART + 1, RLENGTH - 2) : ""
		}
		/fg: cycle .* begin/ { kind = $(NF - 2); n = $(NF - 1); seq = ""; fin = ""; on = 1; next }
		/fg: cycle .* end/ {
			if (on) print kind, n (what ~ /freezing/ && fin != "" ? fin : seq)
			on = 0
			next
		}
		on && index($0, what) { seq = seq id() }
		on && index($0, done) { fin = fin id() }'
}
