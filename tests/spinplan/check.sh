#!/usr/bin/env bash
# usage: check.sh REPORT K TRACE_DIR
# handoff_rounds.c ran K rounds under SYNCTRACE_SPIN=none, each one lock
# wait that slept once: the replay has K waits, K futex waits recorded,
# gives back K at the recorded setting (none), and no longer budget adds
# one; the spin finding says so, unless none, the setting it ran with,
# is best (then it says nothing).
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
# Which setting wins depends on how long the waits were (a long spin may
# catch the releases on a loaded machine). Nothing spun, so when the best
# is none (the setting it ran with) or unset there is nothing to change
# and no spin finding (unless it warns of a loaded machine); a finding
# says the replay reproduces the recorded run.
rec=$(q '[.tables[] | select(.name == "spin.plan") | .rows[] | select(.group == 0 and .recommended) | .setting] | join(",")')
f='.tables[] | select(.name == "findings") | .rows[] | select(.kind == "spin")'
if [ "$(q "[$f] | length")" = 0 ]; then
	case $rec in none | unset) ;; *) fail "no spin finding, but the replay recommends $rec" ;; esac
else
	eq "finding waits (recommended: $rec)" "$f | .waits" "$K"
	eq "finding recorded futex waits" "$f | .of" "$K"
	q "$f | .text" | grep -q "At the recorded setting (none) the replay predicts $K futex waits against $K recorded\." ||
		fail "finding: $(q "$f | .text")"
	case $rec in none | unset) q "$f | .text" | grep -q "for a CPU" ||
		fail "a finding that changes nothing ($rec): $(q "$f | .text")" ;; esac
fi
# The ledger agrees: K contended lock waits.
eq "ledger" '[.tables[] | select(.name == "waits.top") | .rows[] | select(.kind == "mutex") | .waits] | add' "$K"
"$report" --wide "$trace" | grep -A4 "What-if spin replay"
echo "spinplan check: as expected ($K rounds)"
