#!/usr/bin/env bash
# Objects made and freed by the hundred (lives.c): the same tables at both
# levels, each life's numbers in its init site's class, while the summary
# trace holds an aggregate per thread and run of lives from one site, not
# one per life, nor a pair of init and destroy records per life
# (src/trace/summary.c, st_summary_saw).
# usage: lives.sh SYNCTRACE PROGRAM ROUNDS
SYNCTRACE=$1 prog=$2 rounds=$3
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
record_levels --spin none -- "$prog" "$rounds"
no_transitions
# Every number of each family's objects the same at both levels (which
# of a thread's waits took longest, a whole-trace row, depends on timing:
# the families are compared apart, as only= does).
for f in sem cond rwlock; do
	for level in contention summary; do
		only=$f project "$T/$level.json" "$comm" >"$T/$level.$f"
	done
	if diff <(jq -S '.[1:]' "$T/contention.$f") <(jq -S '.[1:]' "$T/summary.$f") >"$T/diff"; then
		pass "$f: every table the same at both levels ($(jq '[.[1:] | .. | numbers] | length' "$T/summary.$f") numbers)"
	else
		fail "$f: the tables differ (contention <, summary >):"
		cat "$T/diff" >&2
	fi
done

# lives: every init at the contention level (5 objects a round: part 1's
# semaphore, rwlock and condvar, part 2's semaphore and condvar; 2 more in
# part 3)
lives=$(trace_events "$T/contention" | grep "procname = \"$comm\"" | grep -c 'synctrace_\(sem\|rwlock\|cond\):init:' || true)
if [ "$lives" -eq $((5 * rounds + 2)) ]; then pass "$lives lives of short-lived objects"; else
	fail "lives: $lives, not $((5 * rounds + 2))"; fi

# ... and their records: at the summary level a run of lives from one
# site at one address writes one init and one destroy (a destroy kept
# back, taken on by the same thread's next init there: format minor 14):
# part 1 a run every 2 rounds for each of the 3 families, part 2 one for
# each of its 4 addresses, part 3 two (3 rounds / 2 + 6 in all). A kept
# destroy is also written once it is a second old, which a run on a
# loaded machine may reach: at most all of them, never fewer.
want=$((3 * rounds / 2 + 6))
for what in init destroy; do
	n=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep -c "synctrace_\(sem\|rwlock\|cond\):$what:" || true)
	if [ "$n" -ge "$want" ] && [ "$n" -lt "$lives" ]; then
		pass "summary: $n $what records for $lives lives (a run of lives: $want)"
	else
		fail "summary: $n $what records for $lives lives (want $want, at most $((lives - 1)))"
	fi
done

# the summary level: an object event for each run of lives from one site
# (part 1: site A A B B ...: a run every 2 rounds, for each of the 3
# families that aggregate there; part 2 folds every round's lives of each
# address until the thread exits), nowhere near one per life
# (not counting the counts of lives without records: an event per init
# site at the thread's exit, tag LIFE b 2, checked below)
objs=$(trace_events "$T/summary" | grep "procname = \"$comm\"" | grep 'synctrace_summary:object:' |
	grep -vc '\] = 576460752303423490,' || true) # tag LIFE << 56 | 2
folded=$(babeltrace2 "$T/summary" 2>/dev/null | grep "procname = \"$comm\"" | grep 'synctrace_summary:object:' |
	grep -c '\] = 576460752303423489,' || true) # tag LIFE << 56 | 1
if [ "$objs" -gt 0 ] && [ "$objs" -le $((3 * rounds / 2 + 12)) ]; then
	pass "$objs object events for $lives lives"
else
	fail "$objs object events for $lives lives (want at most $((3 * rounds / 2 + 12)))"
fi
if [ "$folded" -gt 0 ]; then pass "$folded object events hold lives (tag LIFE)"; else
	fail "no object event holds lives"; fi
# lives without records: counted per init site (6 sites: sem, rwlock and
# condvar, A and B), sent with the thread's table
unrec=$(babeltrace2 "$T/summary" 2>/dev/null | grep "procname = \"$comm\"" | grep 'synctrace_summary:object:' |
	grep -c '\] = 576460752303423490,' || true)
if [ "$unrec" -ge 6 ] && [ "$unrec" -le 12 ]; then pass "$unrec object events count lives without records"; else
	fail "$unrec object events count lives without records (want 6 to 12: 6 sites)"; fi

# each site's class got its own lives' numbers: part 1's semaphores
# failed 2 trywaits and timed out once a life, in rounds/2 lives a site
for level in contention summary; do
	n=$(jq '[.tables[] | select(.name == "contention.locks") | .rows[] | select(.procname == "'"$comm"'" and .type == "sem")] | length' "$T/$level.json")
	[ "$n" -ge 2 ] && pass "$level: $n semaphore rows" || fail "$level: $n semaphore rows"
done
finish
