#!/usr/bin/env bash
# Condvars without an init, one per job (noinit.c): every condvar table
# the same at both levels, each life named by its first call site (main's
# wait), not by the worker's signal that an aggregate spanning the lives
# carries.
# A pause of 1.1 s at half way: at the summary level main's kept destroy
# is written there (its table a second old) and a new run of lives
# begins, which must name the object again before the worker's aggregate
# of those lives arrives.
# usage: noinit.sh SYNCTRACE PROGRAM ROUNDS
SYNCTRACE=$1 prog=$2 rounds=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$rounds" 1100
for level in contention summary; do
	only=cond project "$T/$level.json" "$comm" >"$T/$level.cond"
	got=$(jq -c "[.tables[] | select(.name == \"waits.top\") | .rows[] | select(.procname == \"$comm\" and .kind == \"cond\") | {site: (.site | split(\" \")[0]), instances}]" "$T/$level.json")
	if [ "$got" = '[{"site":"main","instances":'"$rounds"'}]' ]; then
		pass "$level: $rounds condvars, named by main's wait"
	else
		fail "$level: condvar rows $got, want $rounds from main"
	fi
done
# The job's mutex is only ever taken without contention (no event of its
# own): it is named by the wait that takes it back, at both levels, not
# by its address (analysis/model/cond.c, relocked; the summary level's
# agg_cond_relocked).
for level in contention summary; do
	got=$(jq -c "[.tables[] | select(.name == \"waits.top\") | .rows[] | select(.procname == \"$comm\" and .kind == \"cond-relock\") | {site: (.site | split(\" \")[0]), waits}]" "$T/$level.json")
	if [ "$got" = '[{"site":"main","waits":'"$rounds"'}]' ]; then
		pass "$level: the job's mutex named by main's wait"
	else
		fail "$level: cond-relock rows $got, want $rounds waits named by main's wait"
	fi
done
# ... and not a record per life at the summary level: main's first wait of
# each life begins it as an init would (the format unchanged), so the lives
# fold: their destroys are kept back and taken on by the next life's first
# wait (one written at the pause, one at the end; one more each second,
# which a loaded machine may reach), where the contention level writes
# one per life.
for level in contention summary; do
	n=$(trace_events "$T/$level" | grep "procname = \"$comm\"" | grep -c 'synctrace_cond:destroy:' || true)
	eval "destroys_$level=$n"
done
if [ "$destroys_contention" -eq "$rounds" ]; then pass "contention: $rounds destroy records"; else
	fail "contention: $destroys_contention destroy records, want $rounds"; fi
if [ "$destroys_summary" -ge 2 ] && [ "$destroys_summary" -le $((rounds / 2)) ]; then
	pass "summary: $destroys_summary destroy records for $rounds lives"
else
	fail "summary: $destroys_summary destroy records for $rounds lives (want 2 to $((rounds / 2)))"
fi
objs=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep 'synctrace_summary:object:' | grep -c '"COND"' || true)
if [ "$objs" -le $((rounds / 2)) ]; then pass "summary: $objs condvar object events for $rounds lives"; else
	fail "summary: $objs condvar object events for $rounds lives (want at most $((rounds / 2)))"; fi
if diff <(jq -S '.[1:]' "$T/contention.cond") <(jq -S '.[1:]' "$T/summary.cond") >"$T/diff"; then
	pass "cond: every table the same at both levels"
else
	fail "cond: the tables differ (contention <, summary >):"
	cat "$T/diff" >&2
fi
finish
