#!/usr/bin/env bash
# usage: check-blame.sh SYNCTRACE REPORT PROGRAM K
# Records contended.c (K rounds: thread "holder" holds the global mutex
# queue_lock in flush_queue while thread "popper" sleeps on it in
# pop_item) at the full level and checks that every format names the
# symbol, the waiting thread and function, the holding thread and
# function, K, and the hold time (at least 2 ms per hold).
SYNCTRACE=$1 report=$2 prog=$3 K=$4
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
run_st 0 "record contended" record -q --level full --spin none -o "$T/trace" -- "$prog" "$K"
"$report" --format json "$T/trace" >"$T/r.json" 2>"$T/err" || fail "json report: $(cat "$T/err")"
top='.tables[] | select(.name == "waits.top") | .rows[] | select(.name == "queue_lock" and .kind == "mutex")'
eqj "waits.top: queue_lock's waits" "$top | .waits" "$K"
eqj "waits.top: queue_lock's contended waits" "$top | .contended" "$K"
eqj "waits.top: queue_lock ranks first" '[.tables[] | select(.name == "waits.top") | .rows[]][0].name' queue_lock
f='[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "wait")][0]'
eqj "finding: the symbol" "$f | .name" queue_lock
eqj "finding: K waits" "$f | .waits" "$K"
matchj "finding: the holder" "$f | .by_thread" '^holder:[0-9]+$'
matchj "finding: the holding function" "$f | .by_site" 'flush_queue'
eqj "finding: hold time at least 2 ms" "$f | .hold_mean_ns >= 2000000" true
matchj "finding: the waiter and its function" "$f | .text" 'while `popper:[0-9]+` waited.*pop_item'
# (the holder's release is stamped after its wake: the waiter's acquired
# often comes first, and the hold still gets the release's site and time)
b='[.tables[] | select(.name == "waits.blame") | .rows[] | select(.name == "queue_lock" and .role == "held")][0]'
eqj "blame: one row, the holder at flush_queue" '[.tables[] | select(.name == "waits.blame") | .rows[] | select(.role == "held")] | length' 1
matchj "blame: holder" "$b | .by_thread" '^holder:'
matchj "blame: site" "$b | .by_site" 'flush_queue'
eqj "blame: per hold at least 2 ms" "$b | .hold_mean_ns >= 2000000" true
th='.tables[] | select(.name == "waits.threads") | .rows[] | select(.name == "popper")'
eqj "per thread: popper's waits" "$th | .waits" "$K"
matchj "per thread: popper waited on queue_lock" "$th | .top_wait" '^mutex queue_lock$'

# CSV: the same rows.
"$report" --format csv "$T/trace" >"$T/r.csv" || fail "csv report"
awk '/^# waits.top$/ { on = 1; next } /^$/ { on = 0 } on' "$T/r.csv" >"$T/top.csv"
grep -qE "^1,mutex,mutex,[0-9]+,[^,]*,0x[0-9a-f]+,[0-9]+,queue_lock,[^,]*,1,[^,]*,$K,$K," "$T/top.csv" &&
	pass "csv: queue_lock first with $K waits" || fail "csv waits.top: $(head -3 "$T/top.csv")"
awk '/^# findings$/ { on = 1; next } /^$/ { on = 0 } on' "$T/r.csv" | grep -q 'flush_queue' &&
	pass "csv: a finding names flush_queue" || fail "csv findings lack flush_queue"

# Text: the first finding says it all in one sentence.
"$report" "$T/trace" >"$T/r.txt" || fail "text report"
sed -n '/^Findings$/,/^$/p' "$T/r.txt" | tr '\n' ' ' | sed 's/  */ /g' >"$T/f.txt"
for want in 'mutex `queue_lock`' "$K waits" 'held by thread `holder:' 'in flush_queue' 'per hold' \
	'while `popper:' 'pop_item'; do
	grep -qF "$want" "$T/f.txt" && pass "text finding: '$want'" || fail "text finding lacks '$want': $(cat "$T/f.txt")"
done
grep -qE '^1 +mutex +queue_lock' "$T/r.txt" && pass "text: queue_lock tops the waits" ||
	fail "text: waits.top: $(sed -n '/^Where threads wait/,/^$/p' "$T/r.txt")"

# HTML: the bar of queue_lock, the finding.
"$report" --format html -o "$T/r.html" "$T/trace" || fail "html report"
grep -q '<g class="lock"><title>mutex queue_lock' "$T/r.html" && pass "html: queue_lock's bar" ||
	fail "html: no bar for queue_lock"
grep -q 'flush_queue' "$T/r.html" && pass "html: names flush_queue" || fail "html lacks flush_queue"
finish
