#!/usr/bin/env bash
# `synctrace record --level full` of late_events.c: every lock/unlock pair
# is in the trace (one mutex:released each), the 15 a pthread key's
# destructor makes after its thread's thread:exit and the one of an atexit
# handler included, though record enables neither the mutex provider nor
# any other whose events go in batches.
# usage: late_events.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "record --level full" record -q --level full -o "$T/t" -- "$prog"
trace_events "$T/t" >"$T/events"
n=$(grep -c 'synctrace_mutex:released:' "$T/events")
[ "$n" -eq 16 ] && pass "16 releases recorded" || fail "$n releases recorded, want 16"
# After each thread's exit, its destructor's 5 releases, by that thread.
awk '/synctrace_thread:exit:/ {match($0, /vtid = [0-9]+/); t = substr($0, RSTART, RLENGTH); n[t] = 0; ended[t] = 1; next}
     /synctrace_mutex:released:/ {match($0, /vtid = [0-9]+/); t = substr($0, RSTART, RLENGTH); if (ended[t]) n[t]++}
     END {for (t in n) print t, n[t]}' "$T/events" >"$T/after"
[ "$(wc -l <"$T/after")" -eq 3 ] && ! grep -qv ' 5$' "$T/after" &&
	pass "3 threads, 5 releases each after their thread:exit" ||
	fail "releases after thread:exit: $(tr '\n' ';' <"$T/after")"
finish
