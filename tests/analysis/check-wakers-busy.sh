#!/usr/bin/env bash
# usage: check-wakers-busy.sh REPORT TRACE_DIR
# wakers_busy.c: main waited on results_cv for a thread that computes
# between its signals, and "idler" on work_cv for a thread that itself
# waits between its signals. The findings must tell them apart: the first
# wait is for its waker's work (more threads or cheaper work would help),
# the second is threads idle for want of work.
set -u
report=$1 trace=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-wb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "check-wakers-busy: FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "check-wakers-busy: ok: $*"; }
"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" ||
	{ echo "check-wakers-busy: report failed: $(cat "$tmp/err")" >&2; exit 1; }
finding() { # finding OBJECT FIELD
	jq -r --arg o "$1" '[.tables[] | select(.name == "findings") | .rows[] |
		select(.procname == "test_analysis_w" and .name == $o and .kind == "wait")] | first | .'"$2"' // empty' "$tmp/r.json"
}
try=$(finding results_cv try)
by=$(finding results_cv by_thread)
case "$by" in cruncher:*) pass "results_cv: woken by $by" ;;
*) fail "results_cv: woken by '$by', want cruncher:TID" ;; esac
case "$try" in
"its wakers spent "*" of their lives outside any wait on a lock, condvar or semaphore: it waits for their work"*"share it among more threads")
	pass "results_cv: waits for its waker's work ($try)" ;;
*) fail "results_cv: try '$try'" ;; esac
try=$(finding work_cv try)
by=$(finding work_cv by_thread)
case "$by" in feeder:*) pass "work_cv: woken by $by" ;;
*) fail "work_cv: woken by '$by', want feeder:TID" ;; esac
if [ "$try" = "threads idle here waiting for work: feed them faster or use fewer" ]; then
	pass "work_cv: idle for want of work"; else fail "work_cv: try '$try'"; fi
if [ $fails -ne 0 ]; then
	jq -r '.tables[] | select(.name == "findings") | .rows[] | .text' "$tmp/r.json" >&2
	exit 1
fi
echo "check-wakers-busy: all passed"
