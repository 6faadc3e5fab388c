#!/usr/bin/env bash
# usage: check-barrier-once.sh REPORT R TRACE_DIR
# barrier_once.c ran R barrier rounds (main always last) and two once
# objects (one with two waiters, one whose first run was cancelled): the
# barrier and once tables, and their rows in the contention table, must
# hold the exact numbers.
set -u
report=$1 R=$2 trace=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-bo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-barrier-once: $*" >&2; exit 1; }
"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" ||
	fail "report failed: $(cat "$tmp/err")"
eq() { # eq WHAT JQ WANT
	local got
	got=$(jq -r "$2" "$tmp/r.json")
	[ "$got" = "$3" ] || fail "$1: got '$got', want '$3'"
}
ge() { # ge WHAT JQ MIN
	local got
	got=$(jq -r "$2" "$tmp/r.json")
	[ "$got" -ge "$3" ] 2>/dev/null || fail "$1: got '$got', want at least $3"
}
prog='.procname == "test_analysis_b"'
pid=$(jq -r '.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"') | .vpid' "$tmp/r.json")
[ -n "$pid" ] || fail "no process test_analysis_b in the report"
tid() { jq -r '.tables[] | select(.name == "summary.threads") | .rows[] | select(.vpid == '"$pid"' and .name == "'"$1"'") | .vtid' "$tmp/r.json"; }
bar='.tables[] | select(.name == "barriers.objects") | .rows[] | select('"$prog"')'
bth='.tables[] | select(.name == "barriers.threads") | .rows[] | select(.vpid == '"$pid"')'
once='.tables[] | select(.name == "once.objects") | .rows[] | select('"$prog"')'
lock='.tables[] | select(.name == "contention.locks") | .rows[] | select('"$prog"')'
ms30=30000000

eq "version" '.version' "1.5"
# ---- the barrier -----------------------------------------------------------
eq "barriers" "[$bar] | length" 1
eq "count" "$bar | .count" 3
eq "rounds" "$bar | .rounds" "$R"
eq "waits" "$bar | .waits" $((2 * R))
eq "departures" "$bar | .departures" $((2 * R))
eq "woken" "$bar | .woken" $((2 * R))
eq "last arrivers" "$bar | .serial_threads" 1
eq "most often last" "$bar | .top_serial_tid" "$pid"
eq "its rounds" "$bar | .top_serial_rounds" "$R"
eq "its share" "$bar | .top_serial_share" 1
eq "destroy EBUSY" "$bar | .destroy_busy" 0
eq "wait histogram total" "$bar | .wait_log2_hist | add" $((2 * R))
ge "waiting for the last, mean" "$bar | .wait_last_mean_ns" "$ms30"
ge "wait, mean" "$bar | .wait_mean_ns" "$ms30"
addr=$(jq -r "$bar | .address" "$tmp/r.json")
eq "barrier threads" "[$bth | select(.address == \"$addr\")] | length" 3
eq "main passes" "$bth | select(.vtid == $pid) | .passes" "$R"
eq "main last" "$bth | select(.vtid == $pid) | .serial" "$R"
eq "main last share" "$bth | select(.vtid == $pid) | .serial_share" 1
eq "main released" "$bth | select(.vtid == $pid) | .released_others" $((2 * R))
eq "main waits" "$bth | select(.vtid == $pid) | .waits" 0
for w in bar-1 bar-2; do
	t=$(tid "$w")
	[ -n "$t" ] || fail "no thread $w"
	eq "$w passes" "$bth | select(.vtid == $t) | .passes" "$R"
	eq "$w waits" "$bth | select(.vtid == $t) | .waits" "$R"
	eq "$w last" "$bth | select(.vtid == $t) | .serial" 0
	eq "$w made others wait" "$bth | select(.vtid == $t) | .made_wait_ns" 0
	ge "$w waited for last" "$bth | select(.vtid == $t) | .wait_last_ns" $((R * ms30))
done
# What main made the others wait is exactly what they waited for it.
eq "made others wait = waited for last" \
	"[$bth | select(.address == \"$addr\") | .wait_last_ns] | add" \
	"$(jq -r "$bth | select(.vtid == $pid) | .made_wait_ns" "$tmp/r.json")"
eq "barrier row: passes" "$lock | select(.address == \"$addr\") | .acquisitions" $((3 * R))
eq "barrier row: contended" "$lock | select(.address == \"$addr\") | .contended" $((2 * R))
eq "barrier row: after sleep" "$lock | select(.address == \"$addr\") | .after_sleep" $((2 * R))
eq "barrier row: type" "$lock | select(.address == \"$addr\") | .type" barrier

# ---- once A: one run by once-run, two waiters ------------------------------
A="$once | select(.waits > 0)"
eq "once A" "[$A] | length" 1
eq "A runner" "$A | .runner" "$(tid once-run)"
eq "A runner name" "$A | .runner_name" once-run
eq "A runs" "$A | .runs" 1
eq "A completed" "$A | .completed" 1
eq "A cancelled" "$A | .cancelled" 0
eq "A waiters" "$A | .waits" 2
eq "A asleep at once" "$A | .max_waiting" 2
eq "A woken" "$A | .woken" 2
eq "A unfinished" "$A | .running_at_end" false
ge "A run time" "$A | .run_ns" "$ms30"
ge "A wait, max" "$A | .wait_max_ns" "$ms30"
addrA=$(jq -r "$A | .address" "$tmp/r.json")
eq "A row: contended" "$lock | select(.address == \"$addrA\") | .contended" 2
eq "A row: holds" "$lock | select(.address == \"$addrA\") | .holds" 1
# ---- once B: cancelled in once-cancel, completed by main --------------------
B="$once | select(.cancelled > 0)"
eq "once B" "[$B] | length" 1
eq "B runs" "$B | .runs" 2
eq "B cancelled" "$B | .cancelled" 1
eq "B cancelled in" "$B | .cancelled_runner" "$(tid once-cancel)"
eq "B completed" "$B | .completed" 1
eq "B runner" "$B | .runner" "$pid"
eq "B waiters" "$B | .waits" 0
eq "B woken" "$B | .woken" 0
[ "$(jq -r "$A | .routine" "$tmp/r.json")" != "$(jq -r "$B | .routine" "$tmp/r.json")" ] ||
	fail "A and B: the same routine"
# The routines named by their own address (not the instruction before
# it, as a return address is: that was the function before, frame_dummy)
case "$(jq -r "$A | .routine_site" "$tmp/r.json")" in
"routine_a at barrier_once.c:"*) ;; *) fail "A routine_site: $(jq -r "$A | .routine_site" "$tmp/r.json")" ;; esac
case "$(jq -r "$B | .routine_site" "$tmp/r.json")" in
"routine_b at barrier_once.c:"*) ;; *) fail "B routine_site: $(jq -r "$B | .routine_site" "$tmp/r.json")" ;; esac

# CSV and text carry the tables.
"$report" --format csv "$trace" >"$tmp/r.csv" || fail "csv failed"
for t in barriers.objects barriers.threads once.objects; do
	grep -q "^# $t\$" "$tmp/r.csv" || fail "csv lacks $t"
done
"$report" "$trace" >"$tmp/r.txt" || fail "text failed"
grep -q "arrived last in $R of $R rounds" "$tmp/r.txt" || fail "text lacks the straggler note"
echo "check-barrier-once: ok"
