#!/usr/bin/env bash
# Condvars without an init, one per job (noinit.c): every condvar table
# the same at both levels, each life named by its first call site (main's
# wait), not by the worker's signal that an aggregate spanning the lives
# carries.
# usage: noinit.sh SYNCTRACE PROGRAM ROUNDS
SYNCTRACE=$1 prog=$2 rounds=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$rounds"
for level in contention summary; do
	only=cond project "$T/$level.json" "$comm" >"$T/$level.cond"
	got=$(jq -c "[.tables[] | select(.name == \"waits.top\") | .rows[] | select(.procname == \"$comm\" and .kind == \"cond\") | {site: (.site | split(\" \")[0]), instances}]" "$T/$level.json")
	if [ "$got" = '[{"site":"main","instances":'"$rounds"'}]' ]; then
		pass "$level: $rounds condvars, named by main's wait"
	else
		fail "$level: condvar rows $got, want $rounds from main"
	fi
done
if diff <(jq -S '.[1:]' "$T/contention.cond") <(jq -S '.[1:]' "$T/summary.cond") >"$T/diff"; then
	pass "cond: every table the same at both levels"
else
	fail "cond: the tables differ (contention <, summary >):"
	cat "$T/diff" >&2
fi
finish
