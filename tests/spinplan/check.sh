#!/usr/bin/env bash
# usage: check.sh REPORT K TRACE_DIR
# handoff_rounds.c ran K rounds under SYNCTRACE_SPIN=none, each one lock
# wait that slept once: the replay has K waits, K futex waits recorded,
# gives back K at the recorded setting (none), and no longer budget adds
# one; it recommends none, the setting it ran with, and says nothing.
set -u
report=$1 K=$2 trace=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-spinplan.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "spinplan check: $*" >&2; exit 1; }
"$report" --format json "$trace" >"$tmp/r.json" 2>"$tmp/err" || fail "report failed: $(cat "$tmp/err")"
q() { jq -r "$1" "$tmp/r.json"; }
eq() { # eq WHAT JQ WANT
	local got
	got=$(q "$2")
	[ "$got" = "$3" ] || fail "$1: got '$got', want '$3'"
}
row() { echo '.tables[] | select(.name == "spin.plan") | .rows[] | select(.group == 0 and .setting == "'"$1"'")'; }
eq "waits replayed" "$(row '(recorded)') | .waits" "$K"
eq "futex waits recorded" "$(row '(recorded)') | .futex_waits" "$K"
eq "spun recorded" "$(row '(recorded)') | .spun" 0
eq "replayed at none" "$(row none) | .futex_waits" "$K"
eq "none changes nothing" "$(row none) | .wait_change_ns" 0
longest=$(q '[.tables[] | select(.name == "spin.plan") | .rows[] | select(.group == 0) | .setting | select(startswith("full:"))] | last')
for s in bail:100 full:100 "$longest" unset; do
	got=$(q "$(row "$s") | .futex_waits")
	[ "$got" -le "$K" ] || fail "$s predicts $got futex waits, more than the $K recorded"
	eq "$s: spun + slept" "$(row "$s") | (.spun + .futex_waits)" "$K"
done
# Recommended: none, the setting it ran with (every mutex spins unset: that
# costs spin CPU and saves no wait); nothing spun and nothing to change,
# so no spin finding on the first screen.
eq "recommended" '[.tables[] | select(.name == "spin.plan") | .rows[] | select(.group == 0 and .recommended) | .setting] | join(",")' none
eq "no spin finding" '[.tables[] | select(.name == "findings") | .rows[] | select(.kind == "spin")] | length' 0
# The ledger agrees: K contended lock waits.
eq "ledger" '[.tables[] | select(.name == "waits.top") | .rows[] | select(.kind == "mutex") | .waits] | add' "$K"
"$report" --wide "$trace" | grep -A4 "What-if spin replay"
echo "spinplan check: as expected ($K rounds)"
