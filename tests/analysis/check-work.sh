#!/usr/bin/env bash
# usage: check-work.sh REPORT PLUGIN_DIR K M TRACE_DIR
# work_scenario.c ran with K tokens handed over while the consumer slept and
# 2 batches of M units by main: the wakeups-per-unit tables must hold the
# exact numbers, in JSON, CSV and text, and with --work-event.
set -u
report=$1 plugins=$2 K=$3 M=$4 trace=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-work.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-work: $*" >&2; exit 1; }
"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" ||
	fail "report failed: $(cat "$tmp/err")"
eq() { # eq WHAT JQ WANT [FILE]
	local got
	got=$(jq -r "$2" "${4:-$tmp/r.json}")
	[ "$got" = "$3" ] || fail "$1: got '$got', want '$3'"
}
prog='.procname == "test_analysis_w"' # comm: 15 characters
row='.tables[] | select(.name == "wakes.work") | .rows[] | select('"$prog"')'
thr='.tables[] | select(.name == "wakes.work_threads") | .rows[]'
U=$((K + 2 * M))
ratio=$(awk -v a="$K" -v b="$U" 'BEGIN { printf "%.6g", a / b }')

eq "version" '.version' "1.5"
eq "unit" "$row | .unit" "synctrace_work:done"
eq "unit events" "$row | .unit_events" $((K + 2))
eq "units" "$row | .units" "$U"
eq "futex wakes" "$row | .futex_wakes" "$K"
eq "threads woken" "$row | .threads_woken" "$K"
eq "woke nobody" "$row | .wasted_wakes" 0
eq "sem wakeups" "$row | .sem_wakeups" "$K"
eq "cond wakeups" "$row | .cond_wakeups" 0
eq "threads woken per unit" "$row | .threads_woken_per_unit" "$ratio"
eq "wakes per unit" "$row | .futex_wakes_per_unit" "$ratio"
eq "sem wakeups per unit" "$row | .sem_wakeups_per_unit" "$ratio"
pid=$(jq -r "$row | .vpid" "$tmp/r.json")
eq "consumer units" "$thr | select(.name == \"consumer\") | .units" "$K"
eq "consumer woken" "$thr | select(.name == \"consumer\") | .woken" "$K"
eq "consumer woken per unit" "$thr | select(.name == \"consumer\") | .woken_per_unit" 1
eq "main units" "$thr | select(.vtid == $pid) | .units" $((2 * M))
eq "main woke" "$thr | select(.vtid == $pid) | .threads_woken" "$K"
eq "main sem wakeups" "$thr | select(.vtid == $pid) | .sem_wakeups" "$K"
eq "main woke per unit" "$thr | select(.vtid == $pid) | .threads_woken_per_unit" \
	"$(awk -v a="$K" -v b="$((2 * M))" 'BEGIN { printf "%.6g", a / b }')"

# CSV: the same row; text: the table and its numbers.
"$report" --format csv "$trace" >"$tmp/r.csv" || fail "csv failed"
line=$(awk '/^# wakes.work$/ {on = 1; getline; next} on && /^$/ {exit} on' "$tmp/r.csv" |
	grep '^[0-9]*,test_analysis_w,')
want="$pid,test_analysis_w,synctrace_work:done,$((K + 2)),$U,$K,$K,0,0,$K,"
[ "${line#"$want"}" != "$line" ] || fail "csv row: '$line', want it to begin '$want'"
"$report" "$trace" >"$tmp/r.txt" || fail "text failed"
grep -q '^Wakeups per unit of work$' "$tmp/r.txt" || fail "text lacks the table"
grep -Eq "^ *$pid +test_analysis_w +synctrace_work:done +$((K + 2)) +$U +$K +$K +0 +0 +$K " \
	"$tmp/r.txt" || fail "text row: $(grep test_analysis_w "$tmp/r.txt" | head -3)"

# --work-event: the consumer's K acquisitions after sleeping as the unit.
"$report" --format json --work-event synctrace_sem:acquired "$trace" >"$tmp/a.json" ||
	fail "--work-event failed"
eq "work-event unit" "$row | .unit" "synctrace_sem:acquired" "$tmp/a.json"
eq "work-event units" "$row | .units" "$K" "$tmp/a.json"
eq "work-event woken per unit" "$row | .threads_woken_per_unit" 1 "$tmp/a.json"
# ... and the declared units through it, field and all: as the default.
"$report" --format json --work-event synctrace_work:done/units "$trace" >"$tmp/b.json" ||
	fail "--work-event with a field failed"
eq "work-event field units" "$row | .units" "$U" "$tmp/b.json"
"$report" --work-event nocolon "$trace" >/dev/null 2>"$tmp/e.err" && fail "bad --work-event: exit 0"
grep -q "work-event" "$tmp/e.err" || fail "bad --work-event: message: $(cat "$tmp/e.err")"
# The plugin agrees (parameter work_event); plugins "-": a build without
# it (ST_SANITIZE), the other build checks it.
if [ "$plugins" != - ]; then
	babeltrace2 --plugin-path="$plugins" "$trace" -c sink.synctrace.report \
		-p 'format="json",work_event="synctrace_sem:acquired"' >"$tmp/p.json" 2>"$tmp/err" ||
		fail "plugin failed: $(cat "$tmp/err")"
	eq "plugin work-event units" "$row | .units" "$K" "$tmp/p.json"
else
	echo "check-work: no plugin in this build (ST_SANITIZE): its checks are the other build's"
fi
echo "check-work: ok ($U units, $K wakes, $ratio threads woken per unit)"
