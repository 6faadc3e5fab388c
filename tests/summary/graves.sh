#!/usr/bin/env bash
# Semaphore lives passed between threads through shared slots (graves.c):
# whatever the interleaving, each init site's class has exactly its lives
# and failed trywaits at both levels, and the summary trace has fewer
# init records than lives (kept destroys taken back).
# usage: graves.sh SYNCTRACE PROGRAM THREADS ROUNDS
SYNCTRACE=$1 prog=$2 threads=$3 rounds=$4
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$threads" "$rounds"
b=$((threads * ((rounds + 2) / 3))) a=$((threads * rounds - threads * ((rounds + 2) / 3)))
want='[{"site":"sem_a","instances":'"$a"',"trylock_failed":'"$a"'},{"site":"sem_b","instances":'"$b"',"trylock_failed":'$((2 * b))'}]'
for level in contention summary; do
	got=$(jq -c "[$lock | select(.type == \"sem\") | {site: (.site | split(\" \")[0]), instances, trylock_failed}] | sort_by(.site)" "$T/$level.json")
	if [ "$got" = "$want" ]; then pass "$level: each site's lives and trywaits ($got)"; else
		fail "$level: $got, want $want"; fi
done
objs() { "$SYNCTRACE" report "$1" 2>/dev/null | head -1 | grep -o '[0-9,]* objects'; }
if [ "$(objs "$T/contention")" = "$(objs "$T/summary")" ]; then
	pass "the same object count at both levels ($(objs "$T/summary"))"
else
	fail "objects: contention $(objs "$T/contention"), summary $(objs "$T/summary")"
fi
lives=$((threads * rounds))
n=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep -c 'synctrace_sem:init:' || true)
if [ "$n" -lt "$lives" ]; then pass "summary: $n init records for $lives lives"; else
	fail "summary: $n init records for $lives lives (none taken back)"; fi
finish
