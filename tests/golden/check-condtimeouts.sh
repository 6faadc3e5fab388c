#!/usr/bin/env bash
# usage: check-condtimeouts.sh SYNCTRACE REPORT PROGRAM N
# Records condtimeouts.c (2 "sleeper" threads, each N timed waits on
# idle_cv that all time out, then one signalled wait) and checks that the
# ranking and the per-thread view show those waits and timeouts exactly,
# in JSON, CSV and text.
SYNCTRACE=$1 report=$2 prog=$3 N=$4
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "record condtimeouts" record -q -o "$T/trace" -- "$prog" "$N"
"$report" --format json "$T/trace" >"$T/r.json" 2>"$T/err" || fail "json report: $(cat "$T/err")"
top='[.tables[] | select(.name == "waits.top") | .rows[]]'
cv="$top | map(select(.kind == \"cond\" and .name == \"idle_cv\"))[0]"
eqj "waits.top: idle_cv ranks first" "$top[0].name + \" \" + $top[0].kind" "idle_cv cond"
eqj "waits.top: idle_cv's waits" "$cv | .waits" $((2 * (N + 1)))
eqj "waits.top: idle_cv's timeouts" "$cv | .timeouts" $((2 * N))
eqj "waits.top: idle_cv's share over 90 %" "$cv | .wait_share > 0.9" true
th='[.tables[] | select(.name == "waits.threads") | .rows[] | select(.name == "sleeper")]'
eqj "per thread: two sleepers" "$th | length" 2
eqj "per thread: N timeouts each" "$th | map(.timeouts) | join(\",\")" "$N,$N"
eqj "per thread: N + 1 condvar waits each (at least)" "$th | map(.waits >= $((N + 1))) | all" true
eqj "per thread: mostly on idle_cv" "$th | map(.top_wait) | unique | join(\",\")" "cond idle_cv"
eqj "per thread: condvar time at least N x 2 ms" "$th | map(.cond_ns >= $((N * 2000000))) | all" true
eqj "per thread: most of its life waiting" "$th | map(.wait_share_of_life > 0.5) | all" true
f='[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "wait")][0]'
eqj "finding: idle_cv" "$f | .name + \" \" + .wait_kind" "idle_cv cond"
eqj "finding: its timeouts" "$f | .timeouts" $((2 * N))

"$report" --format csv "$T/trace" >"$T/r.csv" || fail "csv report"
awk '/^# waits.threads$/ { on = 1; next } /^$/ { on = 0 } on' "$T/r.csv" >"$T/th.csv"
n=$(grep -cE "^[0-9]+,[0-9]+,sleeper,[0-9]+,[0-9]+,[0-9.]+,[0-9.]*,[0-9]+,$N,cond idle_cv," "$T/th.csv")
[ "$n" -eq 2 ] && pass "csv: 2 sleepers with $N timeouts on idle_cv" || fail "csv waits.threads: $(cat "$T/th.csv")"

"$report" "$T/trace" >"$T/r.txt" || fail "text report"
grep -qE "^1 +cond +idle_cv +.* $((2 * (N + 1))) +$((2 * N)) " "$T/r.txt" &&
	pass "text: idle_cv first, $((2 * (N + 1))) waits, $((2 * N)) timeouts" ||
	fail "text waits.top: $(sed -n '/^Where threads wait/,/^$/p' "$T/r.txt")"
n=$(grep -cE "^ *[0-9]+ sleeper .* $N cond idle_cv " "$T/r.txt")
[ "$n" -eq 2 ] && pass "text: both sleepers, $N timeouts each" ||
	fail "text waits.threads: $(sed -n '/^Waiting per thread/,/^$/p' "$T/r.txt")"
finish
