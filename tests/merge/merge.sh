#!/usr/bin/env bash
# usage: merge.sh SYNCTRACE REPORT GOLDEN_TRACES
# A = contended, B = condtimeouts, C = a copy of A (its classes meet A's:
# the same keys, histograms that add). Checks, byte for byte:
#   merge(s(A), s(B)) == s(A B);  merge(s(A), s(C)) == s(A C)
#   merge(merge(a, b), c) == merge(a, merge(b, c)) == merge(a, b, c) == s(A B C)
#   merge(x) == x; merge(x, empty) == x; a trace path given to merge
# and the numbers: C's class holds twice A's waits and histogram counts;
# the report over a merged summary ranks from it.
SYNCTRACE=$1 report=$2 G=$3
. "$(dirname "$0")/../cli/lib.sh"
cp -r "$G/contended" "$T/C"
sum() { "$SYNCTRACE" report --format summary "$@"; }
sum "$G/contended" >"$T/a.json" && sum "$G/condtimeouts" >"$T/b.json" && sum "$T/C" >"$T/c.json" ||
	fail "summaries of the golden traces"
sum "$G/contended" "$G/condtimeouts" >"$T/AB.json" || fail "summary over two traces"
sum "$G/contended" "$T/C" >"$T/AC.json" || fail "summary over A and its copy"
sum "$G/contended" "$G/condtimeouts" "$T/C" >"$T/ABC.json" || fail "summary over three traces"

same() { # WHAT FILE1 FILE2
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1: differ"; diff "$2" "$3" | head -5 >&2; fi
}
"$SYNCTRACE" merge "$T/a.json" "$T/b.json" >"$T/m_ab.json" || fail "merge a b: status $?"
same "merge(s(A), s(B)) == s(A B)" "$T/m_ab.json" "$T/AB.json"
"$SYNCTRACE" merge "$T/a.json" "$T/c.json" >"$T/m_ac.json" || fail "merge a c"
same "merge(s(A), s(C)) == s(A C): classes that meet" "$T/m_ac.json" "$T/AC.json"
"$SYNCTRACE" merge "$T/m_ab.json" "$T/c.json" >"$T/l.json"
"$SYNCTRACE" merge "$T/b.json" "$T/c.json" >"$T/bc.json"
"$SYNCTRACE" merge "$T/a.json" "$T/bc.json" >"$T/r.json"
"$SYNCTRACE" merge "$T/c.json" "$T/a.json" "$T/b.json" >"$T/m3.json"
same "merge(merge(a,b),c) == merge(a,merge(b,c))" "$T/l.json" "$T/r.json"
same "merge(c,a,b) == merge(merge(a,b),c): order does not matter" "$T/m3.json" "$T/l.json"
same "merge of three == s(A B C)" "$T/m3.json" "$T/ABC.json"
"$SYNCTRACE" merge "$T/a.json" >"$T/m1.json"
same "merge(a) == a" "$T/m1.json" "$T/a.json"
"$SYNCTRACE" merge "$T/a.json" "$G/condtimeouts" >"$T/mt.json" || fail "merge of a summary and a trace"
same "merge(s(A), trace B) == s(A B)" "$T/mt.json" "$T/AB.json"
"$report" --merge "$T/a.json" "$T/b.json" | cmp -s - "$T/AB.json" &&
	pass "synctrace-report --merge is synctrace merge" || fail "synctrace-report --merge"

# The numbers: A's class, twice in A C.
cls='.classes[] | select(.class | startswith("mutex:contended+"))'
eqn() { # WHAT FILE JQ WANT
	local got
	got=$(jq -c "$3" "$2" 2>&1)
	if [ "$got" = "$4" ]; then pass "$1: $got"; else fail "$1: $got, expected $4"; fi
}
w=$(jq "$cls | .waits.mutex.waits" "$T/a.json")
[ -n "$w" ] && [ "$w" -gt 0 ] && pass "A's mutex waited $w times" || fail "A's mutex: no waits ($w)"
eqn "A C: waits add" "$T/AC.json" "$cls | .waits.mutex.waits" "$((2 * w))"
eqn "A C: histogram counts add" "$T/AC.json" "[$cls | .waits.mutex.hist[][1]] | add" "$((2 * w))"
eqn "A C: histogram n" "$T/AC.json" "$cls | .waits.mutex.n" "$((2 * w))"
eqn "A C: two objects" "$T/AC.json" "$cls | .objects" 2
eqn "A C: same max" "$T/AC.json" "$cls | .waits.mutex.max_ns" "$(jq "$cls | .waits.mutex.max_ns" "$T/a.json")"
eqn "A C: total doubles" "$T/AC.json" "$cls | .waits.mutex.total_ns" "$((2 * $(jq "$cls | .waits.mutex.total_ns" "$T/a.json")))"
eqn "A B: two traces, processes add" "$T/AB.json" '[.trace.traces, .trace.processes]' \
	"[2,$(($(jq .trace.processes "$T/a.json") + $(jq .trace.processes "$T/b.json")))]"
# (ns since the epoch do not fit jq's doubles: read them as text)
ns() { grep -oE "\"$1\": [0-9]+" "$2" | head -1 | grep -oE '[0-9]+$'; }
f=$(ns first_ns "$T/a.json") g=$(ns first_ns "$T/b.json") l=$(ns last_ns "$T/a.json") m=$(ns last_ns "$T/b.json")
first=$((f < g ? f : g)) last=$((l > m ? l : m))
[ "$(ns first_ns "$T/AB.json")" = $first ] && [ "$(ns last_ns "$T/AB.json")" = $last ] &&
	[ "$(ns duration_ns "$T/AB.json")" = $((last - first)) ] &&
	pass "A B: the span from the first event to the last" || fail "A B: span: $(grep -o '"first_ns.*duration_ns": [0-9]*' "$T/AB.json")"
eqn "schema" "$T/m3.json" '[.schema, .version]' '["synctrace-summary","1.0"]'
# p99 from the histogram: the upper bound of the bucket holding the rank,
# clamped to [min, max] (tracepoints/st_hist.h), never an exact sample.
eqn "p99 within [min, max]" "$T/AC.json" "$cls | .waits.mutex | (.p99_ns >= .min_ns and .p99_ns <= .max_ns)" true

# A report over the merged summary: where threads wait, from it.
"$SYNCTRACE" report "$T/m_ac.json" >"$T/r.txt" 2>"$T/err"; rc=$?
[ $rc -eq 0 ] && pass "report over a summary: status 0" || fail "report over a summary: status $rc: $(cat "$T/err")"
grep -q '^Where threads wait' "$T/r.txt" && pass "report: the ranking" || fail "report: no ranking: $(cat "$T/r.txt")"
grep -qE "^1 +mutex +contended\+0x[0-9a-f]+ .* $((2 * w)) " "$T/r.txt" && pass "report: A's mutex first, $((2 * w)) waits" ||
	fail "report: $(cat "$T/r.txt")"
grep -q '2 traces from 1 host' "$T/r.txt" && pass "report: the traces and hosts" || fail "report head: $(head -1 "$T/r.txt")"
"$SYNCTRACE" report --format json "$T/m_ab.json" "$T/c.json" >"$T/r.json" || fail "json report over summaries"
eqn "json report: the top row's waits" "$T/r.json" '[.tables[] | select(.name == "waits.top") | .rows[]] | map(select(.kind == "mutex"))[0].waits' "$((2 * w))"
eqn "json report: schema" "$T/r.json" '.schema' '"synctrace-report"'
finish
