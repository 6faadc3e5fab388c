#!/usr/bin/env bash
# usage: check-wakers-busy.sh REPORT busy|idle|busy-summary TRACE_DIR
# wakers_busy.c's condvar waits, told apart by what their wakers did with
# their lives (the findings' advice, and waits.threads' CPU columns):
#   busy: main waited on input_cv for a thread that sleeps between its
#     signals (a wait for its input: feed it faster), then on results_cv
#     for a thread that computes between them (a wait for its work:
#     cheaper work or more threads would help; or more CPUs, when it also
#     waited for them); taking each item under the lock, either looks like
#     futile wakeups;
#   idle: "idler" waited on work_cv for a thread that itself waits between
#     its signals (threads idle for want of work: the idler did nothing
#     else, verdict idle);
#   spare: three spare threads waited on spare_cv all their lives while
#     two workers took turns on m5: the workers' mutex comes first in the
#     findings, the spare threads' condvar after it (verdict idle);
#   turns: three threads passed a turn on turn_cv (5 ms timed waits, as
#     CPython's GIL) and on lock_sem (a semaphore used as a lock): their
#     wakers are their waiters, and the advice says they take turns;
#   busy-summary: busy, recorded at the summary level, where the wakers
#     come from the threads' aggregates.
set -u
report=$1 mode=$2 trace=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-wb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "check-wakers-busy: FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "check-wakers-busy: ok: $*"; }
"$report" --all --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" ||
	{ echo "check-wakers-busy: report failed: $(cat "$tmp/err")" >&2; exit 1; }
prog='.procname == "test_analysis_w"'
level=contention
case $mode in busy-summary) mode=busy level=summary ;; esac
got=$(jq -r '[.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"') | .level] | first' "$tmp/r.json")
if [ "$got" = "$level" ]; then pass "recorded at the $level level"; else
	fail "recorded at the '$got' level, want $level"; fi
finding() { # finding OBJECT FIELD
	jq -r --arg o "$1" '[.tables[] | select(.name == "findings") | .rows[] |
		select('"$prog"' and .name == $o and .kind == "wait")] | first | .'"$2"' // empty' "$tmp/r.json"
}
woken_by() { # woken_by OBJECT THREAD
	local by
	by=$(finding "$1" by_thread)
	case "$by" in "$2":*) pass "$1: woken by $by" ;;
	*) fail "$1: woken by '$by', want $2:TID" ;; esac
}
cpu() { # cpu THREAD: its cpu_share_of_life, as a percentage
	jq -r --arg t "$1" '[.tables[] | select(.name == "waits.threads") | .rows[] |
		select(.name == $t)] | first | .cpu_share_of_life // "null" |
		if . == "null" then "null" else (. * 100 | floor) end' "$tmp/r.json"
}
cpu_in() { # cpu_in THREAD MIN MAX
	local c
	c=$(cpu "$1")
	if [ "$c" != null ] && [ "$c" -ge "$2" ] && [ "$c" -le "$3" ]; then
		pass "$1: on a CPU $c % of its life"; else
		fail "$1: on a CPU '$c' % of its life, want $2-$3"; fi
}
case $mode in
busy)
	woken_by results_cv cruncher
	try=$(finding results_cv try)
	# (on a loaded machine the cruncher also waits for a CPU, and the
	# advice says the machine is short of them)
	case "$try" in
	"its wakers ran "*" of their lives: it waits for their work; make that work cheaper or share it among more threads" | \
	"its wakers ran "*" of their lives and waited for a CPU "*": it waits for their work, on a machine short of CPUs; make that work cheaper or the load lighter")
		pass "results_cv: waits for its waker's work ($try)" ;;
	*) fail "results_cv: try '$try'" ;; esac
	woken_by input_cv napper
	try=$(finding input_cv try)
	case "$try" in
	"its wakers were blocked elsewhere (I/O, a sleep, a join) "*" of their lives, ran "*": it waits for their input; feed them faster")
		pass "input_cv: waits for its waker's input ($try)" ;;
	*) fail "input_cv: try '$try'" ;; esac
	# CPU time: the cruncher computes its whole life (on a loaded machine,
	# less: its time slices are shared, and life is wall time; it is alive
	# at the exit, so its times come from thread:times), the napper
	# sleeps (its times from its thread:exit), main waits or joins (from
	# meta:stop).
	# main, alone waiting on input_cv and results_cv, takes each item under
	# the lock and waits for the next: not told apart from futile wakeups
	# in the trace, and the finding (of the first, or both) says both
	# readings
	futile=$(jq -r '[.tables[] | select(.name == "findings") | .rows[] |
		select('"$prog"' and (.name == "input_cv" or .name == "results_cv") and .verdict == "futile")] | first | .text // empty' "$tmp/r.json")
	case "$futile" in
	*"or, with one thread alone waiting on it, a consumer that took its item under the lock and waited for the next"*"a consumer looping under the lock needs nothing.")
		pass "main's waits: the futile finding names the consumer loop" ;;
	*) fail "main's waits: futile finding '$futile'" ;; esac
	cpu_in cruncher 20 100
	cpu_in napper 0 10
	cpu_in test_analysis_w 0 20
	;;
idle)
	woken_by work_cv feeder
	try=$(finding work_cv try)
	# (the idler, not main, waited all its life and computed nothing: a
	# spare thread, and its row says so)
	if [ "$try" = "spare threads waiting for work: nothing is lost unless they should have had some (then feed them faster); else use fewer" ]; then
		pass "work_cv: idle for want of work"; else fail "work_cv: try '$try'"; fi
	verdict=$(finding work_cv verdict)
	if [ "$verdict" = idle ]; then pass "work_cv: verdict idle"; else
		fail "work_cv: verdict '$verdict', want idle"; fi
	cpu_in feeder 0 10
	cpu_in idler 0 10
	;;
spare)
	# The wait findings in order: the workers' mutex first (all the
	# waiting of threads not idle), then the spare threads' condvar,
	# whose waiting (most of all) is theirs.
	order=$(jq -r '[.tables[] | select(.name == "findings") | .rows[] |
		select(.kind == "wait" and .procname == "test_analysis_w") | .wait_kind] | join(",")' "$tmp/r.json")
	case "$order" in
	mutex,cond | mutex,cond,*) pass "the workers' mutex before the spare threads' condvar ($order)" ;;
	*) fail "wait findings in the order '$order', want mutex,cond" ;; esac
	text=$(jq -r '[.tables[] | select(.name == "findings") | .rows[] |
		select(.kind == "wait" and .wait_kind == "mutex")] | first | .text // empty' "$tmp/r.json")
	case "$text" in
	*"of working threads'"*"Try: hold it for less time"*) pass "m5: weighed against working threads' waiting" ;;
	*) fail "m5: text '$text'" ;; esac
	row=$(jq -r '[.tables[] | select(.name == "findings") | .rows[] |
		select(.kind == "wait" and .wait_kind == "cond")] | first |
		"\(.verdict) \(.idle_wait_ns == .wait_total_ns) \(.wait_share > 0.5)"' "$tmp/r.json")
	if [ "$row" = "idle true true" ]; then
		pass "spare_cv: verdict idle, all its waiting idle threads', most of all"; else
		fail "spare_cv: verdict, idle_wait_ns = wait_total_ns, share > 0.5: '$row'"; fi
	row=$(jq -r '[.tables[] | select(.name == "waits.top") | .rows[] |
		select(.name == "spare_cv")] | first | "\(.idle_wait_ns == .wait_total_ns) \(.idle_wait_ns > 0)"' "$tmp/r.json")
	if [ "$row" = "true true" ]; then pass "waits.top: spare_cv's waiting all idle"; else
		fail "waits.top: spare_cv idle_wait_ns = wait_total_ns > 0: '$row'"; fi
	row=$(jq -r '[.tables[] | select(.name == "waits.top") | .rows[] |
		select(.name == "m5")] | first | .idle_wait_ns' "$tmp/r.json")
	if [ "$row" = 0 ]; then pass "waits.top: m5's waiting not idle"; else
		fail "waits.top: m5 idle_wait_ns '$row', want 0"; fi
	"$report" "$trace" >"$tmp/r.txt" 2>/dev/null
	if grep -q "^# waited for .* idle\$" "$tmp/r.txt" && grep -q "idle = by threads that waited 95 %+ of their lives" "$tmp/r.txt"; then
		pass "text: the idle column and its note"; else fail "text: no idle column or note"; fi
	try=$(finding spare_cv try)
	case "$try" in
	"spare threads waiting for work: nothing is lost unless they should have had some"*)
		pass "spare_cv: spare threads" ;;
	*) fail "spare_cv: try '$try'" ;; esac
	text=$(finding spare_cv text)
	case "$text" in
	*"; 3 threads that did little else (waited 95 % or more of their lives) made 100 % of it."*)
		pass "spare_cv: the 3 spare threads named" ;;
	*) fail "spare_cv: text '$text'" ;; esac
	;;
turns)
	# (the turners compute in their turn: no wait of theirs is idle)
	try=$(finding turn_cv try)
	case "$try" in
	[0-9]*" % of its wakes came from threads that waited here too: they take turns, as at a lock (a GIL is one); fewer threads contending, or less work done per turn")
		pass "turn_cv: turns ($try)" ;;
	*) fail "turn_cv: try '$try'" ;; esac
	pct=${try%% *}
	if [ "$pct" -ge 90 ] 2>/dev/null; then pass "turn_cv: $pct % of the wakes by its waiters"; else
		fail "turn_cv: '$pct' % of the wakes by its waiters, want 90 or more"; fi
	try=$(finding lock_sem try)
	case "$try" in
	[0-9]*" % of its posts came from threads that waited on it too: a lock in all but name, passed among them; fewer threads contending, or less work done holding it")
		pass "lock_sem: a lock in all but name ($try)" ;;
	*) fail "lock_sem: try '$try'" ;; esac
	;;
*) echo "check-wakers-busy: mode $mode?" >&2; exit 2 ;;
esac
if [ $fails -ne 0 ]; then
	jq -r '.tables[] | select(.name == "findings") | .rows[] | .text' "$tmp/r.json" >&2
	exit 1
fi
echo "check-wakers-busy: all passed"
