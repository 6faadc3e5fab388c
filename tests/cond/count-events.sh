#!/bin/sh
# usage: count-events.sh [-p PROCNAME] SPEC... TRACE_DIR
# SPEC is EVENT=N (exactly N events EVENT, e.g. synctrace_cond:signal=2),
# EVENT/FIELD=VALUE=N (exactly N of them with that field value: an
# enumeration field's value, babeltrace2's '( "LABEL" : container = V )',
# matches its integer V), or either
# with =+N (at least N). Every SPEC must hold. -p: count only the events of
# processes with that procname (the first 15 characters of the program's
# name): traced tests running at the same time share each other's events.
proc=
if [ "$1" = -p ]; then
	proc=$2
	shift 2
fi
eval dir=\${$#}
out=$(${ST_EVENTS:?set by tests/run-mode.sh} "$dir" 2>/dev/null) || { echo "cannot read $dir" >&2; exit 1; }
[ -z "$proc" ] || out=$(printf '%s\n' "$out" | grep -F "procname = \"$proc\"")
fail=0
while [ $# -gt 1 ]; do
	want=${1##*=}
	key=${1%=*}
	case $key in
	*/*)
		ev=${key%%/*} fv=${key#*/}
		f=${fv%%=*} v=${fv#*=}
		got=$(printf '%s\n' "$out" | grep " $ev: " |
			grep -c -E "[{ ]$f = ($v|\( \"[A-Z_0-9]+\" : container = $v \))[,} ]")
		;;
	*)
		ev=$key
		got=$(printf '%s\n' "$out" | grep -c " $ev: ")
		;;
	esac
	case $want in
	+*) [ "$got" -ge "${want#+}" ] || { echo "$key: $got events, expected at least ${want#+}" >&2; fail=1; } ;;
	*) [ "$got" -eq "$want" ] || { echo "$key: $got events, expected $want" >&2; fail=1; } ;;
	esac
	shift
done
[ $fail -eq 0 ] || printf '%s\n' "$out" | grep ' synctrace_cond:' | cut -c1-400 >&2
exit $fail
