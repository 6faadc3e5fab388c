#!/usr/bin/env bash
# usage: diff.sh SYNCTRACE BASE_PROGRAM NEW_PROGRAM K
# Records the base build of hold.c twice and the new one (queue_lock held
# 80 ms instead of 20 ms, one more lock) once, at the full level, and
# checks synctrace diff: queue_lock is the top change (K x 60 ms more), audit_lock is new (vanished the other way), --fail-on trips on
# the totals and on queue_lock but not on stats_lock, two recordings of
# the base do not trip (a wait is the hold plus the time main takes to
# see the waiter asleep: on a loaded machine that adds up to tens of ms,
# so the checks rest on lower bounds, the holds, and exact counts), summaries diff as their traces do, and
# summaries of real recordings merge exactly.
SYNCTRACE=$1 base=$2 new=$3 K=$4
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
run_st 0 "record base" record -q --level full --spin none -o "$T/b1" -- "$base" "$K"
run_st 0 "record base again" record -q --level full --spin none -o "$T/b2" -- "$base" "$K"
run_st 0 "record new" record -q --level full --spin none -o "$T/n1" -- "$new" "$K"

eqn() { # WHAT FILE JQ WANT
	local got
	got=$(jq -c "$3" "$2" 2>&1)
	if [ "$got" = "$4" ]; then pass "$1: $got"; else fail "$1: $got, expected $4"; fi
}
status() { # WANT WHAT ARGS...: synctrace diff's exit status
	local want=$1 what=$2 rc
	shift 2
	"$SYNCTRACE" diff "$@" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc -eq "$want" ] && pass "$what: status $rc" || { fail "$what: status $rc, expected $want"; cat "$T/err" "$T/out" >&2; }
}

status 0 "diff base new (json)" --format json "$T/b1" "$T/n1"
cp "$T/out" "$T/d.json"
rows='[.tables[] | select(.name == "diff.classes") | .rows[]]'
eqn "top change: queue_lock" "$T/d.json" "$rows[0].name" '"queue_lock"'
eqn "queue_lock: more" "$T/d.json" "$rows[0].status" '"more"'
eqn "queue_lock: K contended before and after" "$T/d.json" "$rows[0] | [.contended_base, .contended_new]" "[$K,$K]"
eqn "queue_lock: at least K x 80 ms after" "$T/d.json" "$rows[0].wait_new_ns >= $K * 80000000" true
eqn "queue_lock: at least K x 40 ms more" "$T/d.json" "$rows[0].wait_change_ns >= $K * 40000000" true
eqn "stats_lock: K waits both sides, changed less than queue_lock" "$T/d.json" \
	"$rows | map(select(.name == \"stats_lock\"))[0] | [.waits_base, .waits_new, .rank > 1]" "[$K,$K,true]"
eqn "audit_lock: new, 2 waits" "$T/d.json" "$rows | map(select(.name == \"audit_lock\"))[0] | [.status, .waits_new, .wait_base_ns]" '["new",2,null]'
eqn "not tripped without --fail-on" "$T/d.json" '.tripped' false

status 1 "--fail-on wait>+20%: the totals" --fail-on 'wait>+20%' "$T/b1" "$T/n1"
sed 's/^/    /' "$T/out" # the text diff, for the log
grep -q '^FAILED' "$T/out" && pass "text says FAILED" || fail "text: $(tail -3 "$T/out")"
grep -qE '^1 +more +queue_lock ' "$T/out" && pass "text: queue_lock first" || fail "text: $(cat "$T/out")"
status 1 "--fail-on queue_lock:wait>+20%" --fail-on 'queue_lock:wait>+20%' "$T/b1" "$T/n1"
status 1 "--fail-on queue_lock:wait>+50ms (the change)" --fail-on 'queue_lock:wait>+50ms' "$T/b1" "$T/n1"
status 1 "--fail-on queue_lock:p99>60ms (the value after)" --fail-on 'queue_lock:p99>60ms' "$T/b1" "$T/n1"
status 0 "--fail-on stats_lock:wait>+100%" --fail-on 'stats_lock:wait>+100%' "$T/b1" "$T/n1"
status 1 "--fail-on '*:contended>+0': audit_lock is new" --fail-on '*:contended>+0' "$T/b1" "$T/n1"
status 1 "several, one trips" --format json --fail-on 'stats_lock:wait>+100%, queue_lock:wait>+20%' "$T/b1" "$T/n1"
eqn "json: which tripped" "$T/out" '[.tables[] | select(.name == "diff.fail_on") | .rows[] | [.scope, .tripped]]' \
	'[["stats_lock",false],["queue_lock",true]]'
eqn "json: tripped" "$T/out" '.tripped' true

status 0 "the same build twice does not trip" \
	--fail-on 'wait>+100%,queue_lock:wait>+100%,queue_lock:contended>+0,stats_lock:waits>+0' "$T/b1" "$T/b2"
grep -q '^passed' "$T/out" && pass "text says passed" || fail "text: $(tail -3 "$T/out")"
status 0 "diff new base (json)" --format json "$T/n1" "$T/b1"
eqn "audit_lock vanished" "$T/out" "$rows | map(select(.name == \"audit_lock\"))[0].status" '"vanished"'
eqn "queue_lock: less" "$T/out" "$rows[0] | [.name, .status]" '["queue_lock","less"]'

# Summaries diff as their traces do.
"$SYNCTRACE" report --format summary "$T/b1" >"$T/b1.json" && "$SYNCTRACE" report --format summary "$T/n1" >"$T/n1.json" ||
	fail "summaries of the recordings"
status 0 "diff of summaries" --format json "$T/b1.json" "$T/n1.json"
jq -c .tables "$T/out" >"$T/ds.tables" && jq -c .tables "$T/d.json" >"$T/dt.tables"
cmp -s "$T/ds.tables" "$T/dt.tables" && pass "summaries and traces: the same diff" || fail "summaries diff differently"

status 2 "a class that no summary has" --fail-on 'nosuch_lock:wait>+1%' "$T/b1.json" "$T/n1.json"
grep -q "no class named 'nosuch_lock'" "$T/err" && pass "names it" || fail "stderr: $(cat "$T/err")"
status 2 "a bad expression" --fail-on 'wait>>1' "$T/b1.json" "$T/n1.json"
status 2 "a time unit on a count" --fail-on 'waits>+5ms' "$T/b1.json" "$T/n1.json"
grep -q "unit 'ms'" "$T/err" && pass "says the unit" || fail "stderr: $(cat "$T/err")"
status 2 "an unknown metric" --fail-on 'holdx>+5%' "$T/b1.json" "$T/n1.json"

# Real recordings merge exactly too, and their classes meet (one binary).
"$SYNCTRACE" report --format summary "$T/b2" >"$T/b2.json"
"$SYNCTRACE" merge "$T/b1.json" "$T/b2.json" >"$T/m.json"
"$SYNCTRACE" report --format summary "$T/b1" "$T/b2" >"$T/b12.json"
cmp -s "$T/m.json" "$T/b12.json" && pass "merge(s(b1), s(b2)) == s(b1 b2)" || fail "merge of recordings differs"
eqn "merged: queue_lock's 2K waits in one class" "$T/m.json" '[.classes[] | select(.name == "queue_lock") | .waits.mutex.waits]' "[$((2 * K))]"
finish
