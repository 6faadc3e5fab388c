#!/usr/bin/env bash
# usage: bad_input.sh SYNCTRACE REPORT GOLDEN_TRACES
# merge, report and diff refuse what is not a summary, with exit 2 and a
# message naming the file and what is wrong; nothing on standard output.
SYNCTRACE=$1 report=$2 G=$3
. "$(dirname "$0")/../cli/lib.sh"
"$SYNCTRACE" report --format summary "$G/contended" >"$T/good.json" || fail "a summary"
refused() { # WHAT PATTERN FILE (as the second of a merge)
	local rc
	for cmd in merge report diff; do
		"$SYNCTRACE" $cmd "$T/good.json" "$3" >"$T/out" 2>"$T/err"
		rc=$?
		[ $rc -eq 2 ] && pass "$cmd $1: status 2" || fail "$cmd $1: status $rc"
		[ -s "$T/out" ] && fail "$cmd $1: printed: $(head -c 200 "$T/out")"
		grep -qF "$3" "$T/err" && grep -qE "$2" "$T/err" && pass "$cmd $1: says '$2'" ||
			fail "$cmd $1: stderr: $(cat "$T/err")"
	done
}
printf 'hello' >"$T/text.json"
refused "not JSON" 'not JSON: ' "$T/text.json"
head -c 300 "$T/good.json" >"$T/trunc.json"
refused "truncated" 'not JSON: ' "$T/trunc.json"
: >"$T/empty.json"
refused "empty" 'not JSON' "$T/empty.json"
"$SYNCTRACE" report --format json "$G/contended" >"$T/report.json"
refused "a report, not a summary" 'a synctrace report, not a summary' "$T/report.json"
echo '{"schema": "pprof", "version": "1.0"}' >"$T/foreign.json"
refused "foreign schema" 'not a synctrace summary \(schema "pprof"\)' "$T/foreign.json"
echo '[1, 2]' >"$T/array.json"
refused "an array" 'not a synctrace summary' "$T/array.json"
sed 's/"version": "1.0"/"version": "2.0"/' "$T/good.json" >"$T/newer.json"
refused "newer major" 'summary version 2.0; this analyzer reads 1.x' "$T/newer.json"
sed 's/"buckets": 520/"buckets": 256/' "$T/good.json" >"$T/bounds.json"
refused "other histogram boundaries" 'histogram of 256 buckets' "$T/bounds.json"
sed 's/"hist": \[\[\([0-9]*\), /"hist": [[600, /' "$T/good.json" >"$T/index.json"
refused "a bucket out of range" 'classes\[0\]\.waits\.mutex\.hist\[0\]: bucket 600' "$T/index.json"
sed 's/"n": \([0-9]*\), "total_ns"/"n": 999, "total_ns"/' "$T/good.json" >"$T/count.json"
refused "n not the histogram's total" 'n is 999 but the histogram holds' "$T/count.json"
sed 's/"waits": {"mutex"/"waits": {"futex"/' "$T/good.json" >"$T/kind.json"
refused "an unknown kind" 'waits\.futex: not a kind of wait' "$T/kind.json"
sed 's/"futex_wakes": /"futex_wakes": -/' "$T/good.json" >"$T/neg.json"
refused "a negative count" 'wakes\.futex_wakes: not a non-negative integer' "$T/neg.json"
sed 's/"objects": 1, "waits"/"waits"/' "$T/good.json" >"$T/missing.json"
refused "a missing field" 'classes\[0\]: no "objects"' "$T/missing.json"
sed 's/"type": "mutex", /"type": "mutex", "type": "x", /' "$T/good.json" >"$T/dup.json"
refused "a duplicate key" 'classes\[0\]: the key "type" twice' "$T/dup.json"
jq -c '.classes += .classes' "$T/good.json" >"$T/twice.json"
refused "a class twice" 'appears twice' "$T/twice.json"
"$SYNCTRACE" merge "$T/good.json" "$T/nothere.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'nothere.json: No such file' "$T/err" && pass "a missing file: status 2, named" ||
	fail "a missing file: $(cat "$T/err")"
"$SYNCTRACE" report --format html "$T/good.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q 'need the traces' "$T/err" && pass "html over a summary: refused" || fail "html over a summary: $(cat "$T/err")"
"$SYNCTRACE" diff "$T/good.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && pass "diff with one input: status 2" || fail "diff with one input"
finish
