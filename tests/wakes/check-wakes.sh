#!/usr/bin/env bash
# usage: check-wakes.sh REPORT CASE N TRACE_DIR
# The wake-outcome ledger of a recorded program (doc/wakes.md), exactly:
#   broadcast_futile N  N broadcasts x 4 woken, 1 useful and 3 futile each,
#                       and the stop broadcast (another site): 4 woken, 4 won
#   woke_nobody N       main's unlock: N calls, N woken, N won; the
#                       worker's: N calls that woke nobody
#   signal_leaving      2 signals that met a leaving waiter: 1 went on, 1 lost
set -u
report=$1 case=$2 N=$3 trace=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wl-chk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "check-wakes $case: $*" >&2; exit 1; }
"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" || fail "report failed: $(cat "$tmp/err")"
"$report" --format html "$trace" >"$tmp/r.html" 2>"$tmp/err" || fail "html failed: $(cat "$tmp/err")"
q() { jq -r "$1" "$tmp/r.json"; }
eq() { # eq WHAT JQ WANT
	local got
	got=$(q "$2")
	[ "$got" = "$3" ] || fail "$1: got '$got', want '$3'"
}
obj='.tables[] | select(.name == "wakes.outcomes") | .rows[]'
site='.tables[] | select(.name == "wakes.sites") | .rows[]'
grep -q 'id="wake-outcomes"' "$tmp/r.html" || fail "html: no wake-outcomes section"
case $case in
broadcast_futile)
	cv="$obj | select(.type == \"cond\")"
	eq "condvars" "[$cv] | length" 1
	eq "calls" "$cv | .wake_calls" $((N + 1))
	eq "woken" "$cv | .woken" $((4 * N + 4))
	eq "won" "$cv | .won" $((N + 4))
	eq "futile" "$cv | .futile" $((3 * N))
	eq "undecided" "$cv | .undecided" 0
	b="$site | select(.type == \"cond\" and .call == \"cond:broadcast\")"
	eq "broadcast sites" "[$b] | length" 2
	eq "distinct sites" "[$b | .call_site_address] | unique | length" 2
	r="$b | select(.wake_calls == $N)"
	eq "round site woken" "$r | .woken" $((4 * N))
	eq "round site won" "$r | .won" "$N"
	eq "round site futile" "$r | .futile" $((3 * N))
	eq "round site fan-out" "$r | .fanout_mean" 4
	eq "round site useful per broadcast" "$r | .useful_per_multi" 1
	s="$b | select(.wake_calls == 1)"
	eq "stop site woken" "$s | .woken" 4
	eq "stop site won" "$s | .won" 4
	eq "stop site futile" "$s | .futile" 0
	eq "futile total" '.tables[] | select(.name == "wakes.total") | .rows[0].futile' $((3 * N))
	eq "finding" '[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "futile_wakes" and .verdict == "futile")][0].count' $((3 * N))
	;;
woke_nobody)
	u="$site | select(.type == \"mutex\" and .call == \"mutex:released\")"
	eq "unlock sites" "[$u] | length" 2
	n="$u | select(.woke_nobody > 0)"
	eq "worker site calls" "$n | .wake_calls" "$N"
	eq "worker site woke nobody" "$n | .woke_nobody" "$N"
	eq "worker site woken" "$n | .woken" 0
	w="$u | select(.woke_nobody == 0)"
	eq "main site calls" "$w | .wake_calls" "$N"
	eq "main site woken" "$w | .woken" "$N"
	eq "main site won" "$w | .won" "$N"
	eq "main site lost" "$w | .lost" 0
	eq "finding" '[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "futile_wakes" and .verdict == "woke_nobody")][0].count' "$N"
	;;
signal_leaving)
	cv="$obj | select(.type == \"cond\")"
	eq "condvars" "[$cv] | length" 1
	eq "calls" "$cv | .wake_calls" 2
	eq "met leaving" "$cv | .met_leaving" 2
	eq "went on" "$cv | .went_on" 1
	eq "woke nobody" "$cv | .woke_nobody" 1
	eq "woken" "$cv | .woken" 1
	eq "won" "$cv | .won" 1
	eq "signal site" "[$site | select(.type == \"cond\" and .call == \"cond:signal\")] | length" 1
	;;
*) fail "unknown case" ;;
esac
echo "check-wakes $case: ok"
