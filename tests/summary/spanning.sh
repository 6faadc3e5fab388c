#!/usr/bin/env bash
# A thread's aggregate spanning lives at one address goes out mid-run
# (spanning.c): every life keeps its init site's name and class at both
# levels, none is named after the toucher's trywait, and the semaphore
# tables are the same.
# usage: spanning.sh SYNCTRACE PROGRAM LIVES
SYNCTRACE=$1 prog=$2 lives=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$lives"
want='[{"site":"made_here","instances":'"$lives"',"trylock_failed":'"$lives"'}]'
for level in contention summary; do
	got=$(jq -c "[$lock | select(.type == \"sem\") | {site: (.site | split(\" \")[0]), instances, trylock_failed}]" "$T/$level.json")
	if [ "$got" = "$want" ]; then pass "$level: $lives lives named by their init ($got)"; else
		fail "$level: $got, want $want"; fi
done
# The toucher's aggregate went out mid-run, before the last life began
# (else this run did not test what it is for).
ages=$(flushed AGE)
if [ "$ages" -ge 1 ]; then pass "summary: the toucher's table went out by age ($ages)"; else
	fail "summary: no table went out by age"; fi
for level in contention summary; do
	only=sem project "$T/$level.json" "$comm" >"$T/$level.sem"
done
if diff <(jq -S '.[1:]' "$T/contention.sem") <(jq -S '.[1:]' "$T/summary.sem") >"$T/diff"; then
	pass "sem: every table the same at both levels"
else
	fail "sem: the tables differ (contention <, summary >):"
	cat "$T/diff" >&2
fi
finish
