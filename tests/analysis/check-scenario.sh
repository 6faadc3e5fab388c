#!/usr/bin/env bash
# usage: check-scenario.sh REPORT PLUGIN_DIR K W TRACE_DIR
# The scenario (scenario.c) ran with K contended rounds on mutex A and W
# timed-out rounds on mutex B: assert the JSON report's numbers exactly,
# the plugin's agreement, then the verdicts on damaged copies of the trace.
set -u
report=$1 plugins=$2 K=$3 W=$4 trace=$5
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-chk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-scenario: $*" >&2; exit 1; }

"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" ||
	fail "report failed: $(cat "$tmp/err")"
q() { jq -r "$1" "$tmp/r.json"; }
eq() { # eq WHAT JQ WANT
	local got
	got=$(q "$2")
	[ "$got" = "$3" ] || fail "$1: got '$got', want '$3'"
}
prog='.procname == "test_analysis_s"' # comm is truncated to 15 characters
lock='.tables[] | select(.name == "contention.locks") | .rows[] | select('"$prog"')'
wake='.tables[] | select(.name == "wakes.objects") | .rows[] | select('"$prog"')'
spin='.tables[] | select(.name == "spin.objects") | .rows[] | select('"$prog"')'

eq "schema" '.schema + " " + .version' "synctrace-report 1.5"
eq "partial" '.partial' false
eq "lower bounds" '.lower_bounds' false
eq "processes" '[.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"')] | length' 1
eq "mutexes spin" '.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"') | .mutexes_spin' "all"
eq "format" '.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"') | .format' "4.18"
eq "threads" '.tables[] | select(.name == "summary.processes") | .rows[] | select('"$prog"') | .threads' 2
eq "mutexes" "[$lock] | length" 2
# Mutex A: the one with contended acquisitions.
A="$lock | select(.contended > 0)"
eq "A contended" "$A | .contended" "$K"
eq "A after sleep" "$A | .after_sleep" "$K"
eq "A after spin" "$A | .after_spin" 0
eq "A acquisitions" "$A | .acquisitions" $((2 * K))
eq "A timeouts" "$A | .timeouts" 0
eq "A wait histogram total" "$A | .wait_log2_hist | add" "$K"
addrA=$(q "$A | .address")
B="$lock | select(.address != \"$addrA\")"
addrB=$(q "$B | .address")
eq "B contended" "$B | .contended" 0
eq "B acquisitions" "$B | .acquisitions" "$W"
eq "B timeouts" "$B | .timeouts" "$W"
eq "A wakes" "$wake | select(.address == \"$addrA\") | .futex_wakes" $((2 * K))
eq "A woke nobody" "$wake | select(.address == \"$addrA\") | .wasted_wakes" "$K"
eq "A threads woken" "$wake | select(.address == \"$addrA\") | .threads_woken" "$K"
eq "A wake-then-block" "$wake | select(.address == \"$addrA\") | .wake_then_block" 0
eq "A spurious" "$wake | select(.address == \"$addrA\") | .spurious" 0
eq "B wakes" "$wake | select(.address == \"$addrB\") | .futex_wakes" "$W"
eq "B woke nobody" "$wake | select(.address == \"$addrB\") | .wasted_wakes" "$W"
eq "B sleeps timed out" "$wake | select(.address == \"$addrB\") | .returned_timedout" "$W"
eq "A spin loops" "$spin | select(.address == \"$addrA\") | .loops" "$K"
eq "A spins gave up" "$spin | select(.address == \"$addrA\") | .gave_up" "$K"
eq "B spin loops" "$spin | select(.address == \"$addrB\") | .loops" "$W"
# Every loop of the scenario spins to the limit: the spin verdict says so.
eq "spin verdict" '[.tables[] | select(.name == "spin.objects") | .notes[] | select(startswith("verdict"))][0] | split(";")[0]' \
	"verdict: most loops spin to the limit and fail"
# The ranked view of waits and the findings: A's K contended waits.
top='.tables[] | select(.name == "waits.top") | .rows[] | select('"$prog"')'
eq "A in waits.top" "$top | select(.kind == \"mutex\" and .address == \"$addrA\") | .contended" "$K"
eq "B timeouts in waits.top" "$top | select(.kind == \"mutex\" and .address == \"$addrB\") | .timeouts" "$W"
eq "first finding: A" '[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "wait")][0].address' "$addrA"
eq "spin finding" '.tables[] | select(.name == "findings") | .rows[] | select(.kind == "spin") | .verdict + " " + .try' "fails SYNCTRACE_SPIN=none"
eq "total woke nobody" '.tables[] | select(.name == "wakes.total") | .rows[0].wasted_wakes' $((W + K))

# The other formats and options run and agree.
"$report" --format csv "$trace" >"$tmp/r.csv" || fail "csv failed"
grep -q '^# contention.locks$' "$tmp/r.csv" || fail "csv lacks contention.locks"
"$report" --sort hold --top 1 --wide "$trace" >"$tmp/r.txt" || fail "text failed"
grep -q '^1 of 2 locks shown' "$tmp/r.txt" && : # (not every build prints the note)
grep -q 'Contention per lock' "$tmp/r.txt" || fail "text lacks the contention table"
# The plugin gives the same JSON. plugins "-": a build without it
# (ST_SANITIZE: babeltrace2 cannot load a sanitized plugin); the build
# without sanitizers checks it.
if [ "$plugins" != - ]; then
	babeltrace2 --plugin-path="$plugins" "$trace" -c sink.synctrace.report \
		-p 'format="json"' >"$tmp/p.json" 2>"$tmp/err" || fail "plugin failed: $(cat "$tmp/err")"
	# (the trace names in summary.trace notes come from the paths given)
	norm() { jq -S "del(.tables[] | select(.name == \"summary.trace\") | .notes)" "$1"; }
	[ "$(norm "$tmp/r.json")" = "$(norm "$tmp/p.json")" ] || fail "plugin and synctrace-report disagree"
else
	echo "check-scenario: no plugin in this build (ST_SANITIZE): its checks are the other build's"
fi
# Two traces in one report: twice the processes.
cp -r "$trace" "$tmp/copy"
"$report" --format json "$trace" "$tmp/copy" >"$tmp/two.json" || fail "two traces failed"
[ "$(jq '[.tables[] | select(.name == "summary.processes") | .rows[]] | length' "$tmp/two.json")" = \
  "$(( 2 * $(jq '[.tables[] | select(.name == "summary.processes") | .rows[]] | length' "$tmp/r.json") ))" ] ||
	fail "two traces: processes not doubled"
rm -rf "$tmp/copy"

# ---- damaged copies ------------------------------------------------------
meta=$(find "$trace" -name metadata | head -1)
tdir=$(dirname "$meta")
stream=$(find "$tdir" -maxdepth 1 -type f -name 'chan*' -size +0 | sort | head -1)
[ -n "$stream" ] || fail "no stream file in $tdir"

# Truncated stream file: non-zero, the file named, a report marked partial
# (or no report when babeltrace2 refuses the stream up front).
cp -r "$tdir" "$tmp/trunc"
s="$tmp/trunc/$(basename "$stream")"
size=$(stat -c %s "$s")
truncate -s $((size - 37)) "$s"
rm -rf "$tmp/trunc/index"
"$report" --format json "$tmp/trunc" >"$tmp/t.json" 2>"$tmp/t.err"
rc=$?
[ $rc -ne 0 ] || fail "truncated stream: exit 0"
grep -q "$(basename "$stream")" "$tmp/t.err" || grep -q "trunc" "$tmp/t.err" ||
	fail "truncated stream: message does not name the file: $(cat "$tmp/t.err")"
if [ -s "$tmp/t.json" ]; then
	[ "$(jq -r .partial "$tmp/t.json")" = true ] || fail "truncated stream: report not partial"
fi

# Corrupt packet: garbage over a packet header's magic.
cp -r "$tdir" "$tmp/corrupt"
rm -rf "$tmp/corrupt/index"
s="$tmp/corrupt/$(basename "$stream")"
printf '\xde\xad\xbe\xef\xde\xad\xbe\xef' | dd of="$s" bs=1 seek=0 conv=notrunc 2>/dev/null
"$report" "$tmp/corrupt" >"$tmp/c.out" 2>"$tmp/c.err"
rc=$?
[ $rc -ne 0 ] || fail "corrupt packet: exit 0"
[ $rc -lt 128 ] || fail "corrupt packet: crashed ($rc)"
[ -s "$tmp/c.err" ] || fail "corrupt packet: no message"

# Metadata of another provider only: refused, naming the metadata file.
cp -r "$tdir" "$tmp/foreign"
# (same length: the metadata packets stay valid)
sed -i 's/synctrace_/othertrac_/g' "$tmp/foreign/metadata"
"$report" "$tmp/foreign" >/dev/null 2>"$tmp/f.err"
rc=$?
[ $rc -ne 0 ] || fail "foreign metadata: exit 0"
grep -q "foreign/metadata: no synctrace provider" "$tmp/f.err" ||
	fail "foreign metadata: message: $(cat "$tmp/f.err")"
if [ "$plugins" != - ]; then
	babeltrace2 --plugin-path="$plugins" "$tmp/foreign" -c sink.synctrace.report \
		>/dev/null 2>"$tmp/pf.err" && fail "plugin, foreign metadata: exit 0"
	grep -q "no synctrace events" "$tmp/pf.err" || fail "plugin, foreign metadata: message"
fi

# A newer format major in synctrace_meta:start: refused, exit 3.
cp -r "$tdir" "$tmp/newer"
for f in "$tmp"/newer/chan*; do
	# format_major=4, minor (any), level=1, spin_mode=1, spin_limit=100
	# (int32 LE) becomes major 7, the same minor
	perl -0777 -pi -e 's/\x04\x00\x00\x00([\x00-\xff])\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x64\x00\x00\x00/\x07\x00\x00\x00$1\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00\x00\x64\x00\x00\x00/' "$f"
done
"$report" "$tmp/newer" >"$tmp/n.out" 2>"$tmp/n.err"
rc=$?
[ $rc -eq 3 ] || fail "newer format: exit $rc, want 3 ($(cat "$tmp/n.err"))"
grep -q "format 7.x" "$tmp/n.err" || fail "newer format: message: $(cat "$tmp/n.err")"
[ ! -s "$tmp/n.out" ] || fail "newer format: printed a report"
if [ "$plugins" != - ]; then
	babeltrace2 --plugin-path="$plugins" "$tmp/newer" -c sink.synctrace.report \
		>/dev/null 2>"$tmp/pn.err" && fail "plugin, newer format: exit 0"
	grep -q "format 7.x" "$tmp/pn.err" || fail "plugin, newer format: message"
fi
echo "check-scenario: ok"
