#!/usr/bin/env bash
# `synctrace record --stacks` of callsites.c, then its report: the lock is
# shown by its call site (function at file:line, from the statedump and the
# debug info), both call sites' stacks are listed once each with their
# uses, and without --stacks the lock is still named by its caller.
# usage: report.sh SYNCTRACE SYNCTRACE_REPORT PROGRAM SOURCE
SYNCTRACE=$1 report=$2 prog=$3 src=$4
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
comm=$(basename "$prog" | cut -c1-15)
push=$(grep -n 'CALLSITE push' "$src" | cut -d: -f1)
pop=$(grep -n 'CALLSITE pop' "$src" | cut -d: -f1)
srcname=$(basename "$src")

run_st 0 "record --stacks" record --stacks --spin none -q -o "$T/trace" -- "$prog"
trace_has "stack:frames recorded" "$T/trace" 'synctrace_stack:frames:'
"$report" --format csv "$T/trace" >"$T/csv" 2>"$T/err" || { fail "report: status $?"; cat "$T/err" >&2; }
lock=$(awk -v c="$comm" '/^# contention.locks/ { on = 1; next } /^$/ { on = 0 } on && index($0, c)' "$T/csv")
if grep -q "push_item at $srcname:$push (+1 other site)" <<<"$lock"; then
	pass "the lock is named by its first call site, push_item at $srcname:$push"
else fail "contention.locks row lacks 'push_item at $srcname:$push (+1 other site)': $lock"; fi
stacks=$(awk -v c="$comm" '/^# stacks.objects/ { on = 1; next } /^$/ { on = 0 } on && index($0, c)' "$T/csv")
# stacks.objects: ...,stack,stack_id,uses,call_site,frames (the last four).
for site in "push_item ($srcname:$push)" "pop_item ($srcname:$pop)"; do
	n=$(awk -F, -v s="$site" '$(NF - 1) == s' <<<"$stacks" | wc -l)
	[ "$n" -eq 1 ] && pass "one stack at $site" || fail "$n stacks at $site: $stacks"
done
if grep -qF ",4,push_item ($srcname:$push),worker ($srcname:" <<<"$stacks"; then
	pass "push stack: 4 uses, called from worker"
else fail "push stack row: $stacks"; fi

# Without --stacks: no stack table, the caller still symbolized.
run_st 0 "record (no --stacks)" record --spin none -q -o "$T/trace2" -- "$prog"
"$report" --format csv "$T/trace2" >"$T/csv2" 2>"$T/err" || fail "report without stacks: status $?"
grep -q '^# stacks.objects' "$T/csv2" && fail "stacks.objects without --stacks"
lock=$(awk -v c="$comm" '/^# contention.locks/ { on = 1; next } /^$/ { on = 0 } on && index($0, c)' "$T/csv2")
if grep -q "push_item at $srcname:$push\"\?$" <<<"$lock"; then pass "without stacks: push_item at $srcname:$push"
else fail "without stacks, contention.locks row: $lock"; fi
finish
