#!/bin/sh
# usage: count-events.sh [-p PROCNAME] SPEC... TRACE_DIR
# SPEC is EVENT=N (exactly N events EVENT, e.g. synctrace_cond:signal=2),
# EVENT/FIELD=VALUE=N (exactly N of them with that field value: an
# enumeration field's value, babeltrace2's '( "LABEL" : container = V )',
# matches its integer V), or either
# with =+N (at least N). Every SPEC must hold. -p: count only the events of
# processes with that procname (the first 15 characters of the program's
# name): traced tests running at the same time share each other's events.
# Always checked besides: every batched record was analyzed in time order,
# and each waiter woken by a signal (cond:woke how SIGNALED, private
# condvar: its node) comes after the cond:signaled naming its node (a
# single signal writes that record after the waiter's release, with the
# time it happened: src/cond/signal.c).
proc=
if [ "$1" = -p ]; then
	proc=$2
	shift 2
fi
eval dir=\${$#}
err=$(mktemp)
out=$(${ST_EVENTS:?set by tests/run-mode.sh} "$dir" 2>"$err") || { echo "cannot read $dir" >&2; cat "$err" >&2; rm -f "$err"; exit 1; }
[ -z "$proc" ] || out=$(printf '%s\n' "$out" | grep -F "procname = \"$proc\"")
fail=0
if grep -q 'out of time order' "$err"; then
	cat "$err" >&2
	fail=1
fi
rm -f "$err"
printf '%s\n' "$out" | awk '
	/ synctrace_cond:signaled: / { match($0, /node = 0x[0-9A-F]+/); sig[substr($0, RSTART + 7, RLENGTH - 7)]++ }
	/ synctrace_cond:woke: .*how = \( "SIGNALED"/ {
		match($0, /node = 0x[0-9A-F]+/); n = substr($0, RSTART + 7, RLENGTH - 7)
		if (!(n in sig) || sig[n] == 0) { bad++; if (!first) first = $0 } else sig[n]--
	}
	END { if (bad) { printf "%d waiters woken by a signal before their cond:signaled, first: %s\n", bad, substr(first, 1, 300) > "/dev/stderr"; exit 1 } }' || fail=1
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
[ $fail -eq 0 ] || printf '%s\n' "$out" | grep ' synctrace_cond:' | head -100 | cut -c1-400 >&2
exit $fail
