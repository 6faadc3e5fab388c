#!/usr/bin/env bash
# A mutex made and destroyed per job with pthread_mutex_init (noinit.c
# with MUTEX init): at the summary level the thread that made it and
# destroys it keeps one aggregate for its lives (what only adds up: here
# the condvar wait's relocks), where it sent one per life, and its
# destroys are kept back and taken on by its next init there (format
# minor 15: the lives' acquisitions, which only those destroys carried,
# summed in the table, LIFE b 3); every table the same at both levels,
# the mutexes' acquisitions included.
# usage: mutex_lives.sh SYNCTRACE PROGRAM ROUNDS
SYNCTRACE=$1 prog=$2 rounds=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$rounds" 0 init
same_tables
no_transitions
for what in init destroy; do
	n=$(trace_events "$T/contention" | grep "procname = \"$comm\"" | grep -c "synctrace_mutex:$what:" || true)
	if [ "$n" -eq "$rounds" ]; then pass "contention: $n mutex $what records"; else
		fail "contention: $n mutex $what records, want $rounds"; fi
	# one a run of lives (one more each second, which a loaded machine
	# may reach)
	n=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep -c "synctrace_mutex:$what:" || true)
	if [ "$n" -ge 1 ] && [ "$n" -le $((rounds / 2)) ]; then pass "summary: $n mutex $what records"; else
		fail "summary: $n mutex $what records, want 1 to $((rounds / 2))"; fi
done
eq_json contention "the job's mutexes' acquisitions" "[.tables[] | select(.name == \"contention.locks\") | .rows[] | select(.procname == \"$comm\" and .type == \"mutex\" and .instances == $rounds) | .acquisitions] | add" "$((3 * rounds))"
eq_json summary "the job's mutexes' acquisitions" "[.tables[] | select(.name == \"contention.locks\") | .rows[] | select(.procname == \"$comm\" and .type == \"mutex\" and .instances == $rounds) | .acquisitions] | add" "$((3 * rounds))"
# the job's mutex: an aggregate for the run of lives (one more at most
# each second, which a loaded machine may reach), not one a life
objs=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep 'synctrace_summary:object:' | grep -c '"MUTEX"' || true)
if [ "$objs" -ge 1 ] && [ "$objs" -le $((rounds / 2)) ]; then
	pass "summary: $objs mutex object events for $rounds lives"
else
	fail "summary: $objs mutex object events for $rounds lives (want 1 to $((rounds / 2)))"
fi
eq_json summary "the job's mutexes" "[.tables[] | select(.name == \"waits.top\") | .rows[] | select(.procname == \"$comm\" and .kind == \"cond-relock\") | .instances] | add" "$rounds"

# Lives with a contended acquisition each (the worker holds the mutex
# until main sleeps on it): they carry counters' maxima and a contended
# counter, which do not add up across lives: neither their aggregates
# nor their records fold, and every table is the same at both levels.
rm -rf "$T/contention" "$T/summary"
record_levels --spin none -- "$prog" "$rounds" 0 contended
same_tables
for level in contention summary; do
	n=$(trace_events "$T/$level" | grep "procname = \"$comm\"" | grep -c "synctrace_mutex:destroy:" || true)
	if [ "$n" -eq "$rounds" ]; then pass "contended, $level: $n mutex destroy records"; else
		fail "contended, $level: $n mutex destroy records, want $rounds"; fi
	eq_json "$level" "contended, the job's mutexes' contended acquisitions" "[.tables[] | select(.name == \"contention.locks\") | .rows[] | select(.procname == \"$comm\" and .type == \"mutex\" and .instances == $rounds) | .contended] | add" "$rounds"
done
finish
