# Host-side reading of topology files (bash).  A topology is a POSIX sh
# fragment that the guest sources; topologies/README.md is its definition.
# Here it is checked without running any of it on the host: its syntax with
# the guest's own shell (dash), and its header assignments by reading them.

# topo_error FILE LINE MESSAGE: the one-line error format for bad topologies.
topo_error() {
	if [ -n "$2" ]; then
		echo "$1:$2: $3" >&2
	else
		echo "$1: $3" >&2
	fi
	return 1
}

# topo_var FILE NAME: the value of a top-level NAME="..." assignment.
topo_var() {
	sed -n -E "s/^$2=(\"([^\"]*)\"|'([^']*)'|([^[:space:]#]*))[[:space:]]*(#.*)?\$/\\2\\3\\4/p" "$1" | tail -n1
}

topo_var_line() { grep -n -E "^$2=" "$1" | tail -n1 | cut -d: -f1; }

# topo_validate FILE: 0 if FILE is a well-formed topology, else one error
# line per problem on stderr.
topo_validate() {
	local f=$1 bad=0 line v tok kind count
	[ -e "$f" ] || { topo_error "$f" "" "no such file"; return 1; }
	[ -r "$f" ] || { topo_error "$f" "" "not readable"; return 1; }
	[ -s "$f" ] || { topo_error "$f" "" "empty file"; return 1; }

	local msg
	if ! msg=$(dash -n "$f" 2>&1); then
		topo_error "$f" "" "shell syntax error: ${msg#"$f": }"
		return 1
	fi

	grep -q -E '^TOPO_DISKS=' "$f" ||
		{ topo_error "$f" "" "TOPO_DISKS is not set (sizes of the disks, e.g. TOPO_DISKS=\"512M 512M\")"; bad=1; }
	v=$(topo_var "$f" TOPO_DISKS)
	line=$(topo_var_line "$f" TOPO_DISKS)
	count=0
	for tok in $v; do
		count=$((count + 1))
		[[ $tok =~ ^[1-9][0-9]*[MG]$ ]] ||
			{ topo_error "$f" "$line" "TOPO_DISKS: '$tok' is not a size like 512M or 2G"; bad=1; }
	done
	if grep -q -E '^TOPO_DISKS=' "$f" && { [ $count -lt 1 ] || [ $count -gt 8 ]; }; then
		topo_error "$f" "$line" "TOPO_DISKS: need 1 to 8 disks, found $count"; bad=1
	fi

	v=$(topo_var "$f" TOPO_CYCLES)
	line=$(topo_var_line "$f" TOPO_CYCLES)
	for tok in $v; do
		kind=${tok%%:*} count=${tok#*:}
		case $kind in
		freezer | devices | platform | processors | core | mem | disk) ;;
		*) topo_error "$f" "$line" "TOPO_CYCLES: unknown cycle kind '$kind' in '$tok'"; bad=1 ;;
		esac
		[[ $tok == *:* && $count =~ ^[1-9][0-9]*$ ]] ||
			{ topo_error "$f" "$line" "TOPO_CYCLES: '$tok' is not KIND:COUNT"; bad=1; }
	done

	v=$(topo_var "$f" TOPO_DISK_BPS)
	if [ -n "$v" ] && ! [[ $v =~ ^[1-9][0-9]*[KM]?$ ]]; then
		topo_error "$f" "$(topo_var_line "$f" TOPO_DISK_BPS)" "TOPO_DISK_BPS: '$v' is not a write bandwidth like 4M (bytes per second, K or M)"; bad=1
	fi

	v=$(topo_var "$f" TOPO_TIMEOUT)
	if [ -n "$v" ] && ! [[ $v =~ ^[1-9][0-9]*$ ]]; then
		topo_error "$f" "$(topo_var_line "$f" TOPO_TIMEOUT)" "TOPO_TIMEOUT: '$v' is not a number of seconds"; bad=1
	fi

	v=$(topo_var "$f" TOPO_INVERSION)
	case $v in
	"" | yes | no) ;;
	*) topo_error "$f" "$(topo_var_line "$f" TOPO_INVERSION)" "TOPO_INVERSION: '$v' is not yes or no"; bad=1 ;;
	esac

	for fn in setup load check; do
		grep -q -E "^topo_$fn[[:space:]]*\(\)" "$f" ||
			{ topo_error "$f" "" "no topo_$fn() step"; bad=1; }
	done
	return $bad
}

# topo_cycles_valid SPEC: the same check for a CYCLES override.
topo_cycles_valid() {
	local tok
	for tok in $1; do
		[[ $tok =~ ^(freezer|devices|platform|processors|core|mem|disk):[1-9][0-9]*$ ]] || {
			echo "run: -c: CYCLES: '$tok' is not KIND:COUNT (kinds: freezer devices platform processors core mem disk)" >&2
			return 1
		}
	done
}
