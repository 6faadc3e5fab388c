#!/usr/bin/env bash
# The report's Processes table lists the processes with the most events
# first: a command run through a shell script or a wrapper (pyenv's
# shims: tens of short bash processes) must not fill its 8 text rows
# before the program that did the work. Here a shell starts two short
# processes, then the program (tests/trace/mutex_exact.c), then one
# more: by pid the program is fourth of ours; by events, first. Only
# this command's processes are looked at (by name): other traced
# programs of the same user that run meanwhile are recorded too.
# usage: processes_order.sh SYNCTRACE PROGRAM
SYNCTRACE=$1 prog=$2
. "$(dirname "$0")/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)
run_st 0 "record a shell that runs the program among short commands" \
	record -q --spin none -o "$T/trace" -- /bin/sh -c "/bin/true; /bin/true; '$prog'; /bin/true"
"$SYNCTRACE" report --format json "$T/trace" >"$T/r.json" 2>"$T/report.err" ||
	fail "report: status $?: $(cat "$T/report.err")"
mine=$(jq -c --arg c "$comm" '[.tables[] | select(.name == "summary.processes") | .rows[] |
	select(.procname == $c or .procname == "true" or .procname == "sh") | {procname, vpid, events}]' "$T/r.json")
n=$(jq --arg c "$comm" '[.[] | select(.procname == $c or .procname == "sh")] | length' <<<"$mine")
if [ "$n" -eq 2 ]; then pass "the shell and the program are in the table"; else
	fail "$n rows of the shell and the program, want 2: $mine"; fi
first=$(jq -r '.[0].procname' <<<"$mine")
if [ "$first" = "$comm" ]; then pass "the program is listed first of them"; else
	fail "first of them: $first, want $comm: $mine"; fi
if jq -e '[.[].events] as $e | $e == ($e | sort | reverse)' <<<"$mine" >/dev/null; then
	pass "by events, most first"; else fail "not by events, most first: $mine"; fi
# The text shows the same order.
"$SYNCTRACE" report "$T/trace" >"$T/r.txt" 2>/dev/null
row=$(sed -n '/^Processes$/,/^$/p' "$T/r.txt" | awk -v c="$comm" 'NR > 2 && ($2 == c || $2 == "true" || $2 == "sh") {print $2; exit}')
if [ "$row" = "$comm" ]; then pass "text: the program's row first of the shell's"; else
	fail "text: first of the shell's rows is '$row', want $comm"; sed -n '/^Processes$/,/^$/p' "$T/r.txt" >&2; fi
finish
