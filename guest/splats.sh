# The kernel log lines that fail a test, wherever they appear: bugs,
# warnings, lockdep reports, hung tasks, soft lockups, RCU stalls, oopses
# and panics.  One extended regex, used by guest/run.sh on every run.
FG_SPLAT_RE='BUG:|WARNING:|INFO: possible|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|DEBUG_LOCKS_WARN_ON|blocked for more than [0-9]+ seconds|soft lockup|rcu: INFO|self-detected stall|detected stalls|Oops|general protection fault|Kernel panic|UBSAN:|KASAN:|KFENCE:|ODEBUG:|list_(add|del) corruption'

# Lines that match but are not splats: the harness's own, the command line,
# and md's advice, printed as "WARNING:", when an array's members share a
# disk (md-raid1-on-loop-partitions does that on purpose).
FG_SPLAT_NOT_RE='fg: |Kernel command line|lockdep_assert|md[0-9]+: WARNING: [^ ]+ appears to be on the same physical disk as'

# fg_splats FILE...: print the splat lines of the given logs.
fg_splats() {
	grep -h -E "$FG_SPLAT_RE" "$@" 2>/dev/null | grep -v -E "$FG_SPLAT_NOT_RE" || true
}
