#!/usr/bin/env bash
# expect.sh REPORT EXPECTED TRACE: run `REPORT --checks` on TRACE and
# compare the findings (check name and count, one per line, sorted) with
# EXPECTED, a comma-separated list of CHECK=COUNT ("none" for none). The
# numbers that vary between runs (addresses, tids, times) are not compared;
# the check names, how often each fired, and the number of findings are.
set -u
report=$1 expected=$2 trace=$3
csv=$("$report" --checks --format csv "$trace") || { echo "expect.sh: $report failed on $trace" >&2; exit 1; }
# The checks.findings block: header row, then rows until the blank line.
found=$(awk -F, '/^# checks.findings$/ {on = 1; getline; next} on && /^$/ {on = 0} on {print $1 "=" $6}' <<<"$csv" | sort)
want=$( [ "$expected" = none ] || tr ',' '\n' <<<"$expected" | sed '/^$/d' | sort)
if [ "$found" != "$want" ]; then
	echo "expect.sh: findings differ in $trace" >&2
	echo "expected:" >&2; echo "$want" >&2
	echo "found:" >&2; echo "$found" >&2
	"$report" --checks "$trace" | sed -n '/^Debug checks/,$p' >&2
	exit 1
fi
# The text report says it too.
"$report" --checks "$trace" | sed -n '/^Debug checks/,$p'
echo "expect.sh: findings as expected: ${expected:-none}"
