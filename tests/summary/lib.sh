# Shared by the tests/summary scripts (sourced after tests/cli/lib.sh).

# The same program at two levels must take the same decisions: its spins
# must not depend on the machine's load (src/wait/crowd.h).
export SYNCTRACE_SPIN_CROWD=off

# project JSON COMM: the numbers of the report's tables for the program
# COMM (its processes), as a JSON array whose first element names the
# trace level (project.jq); only=TYPE: of its objects of that type.
project() {
	jq --arg comm "$2" --arg only "${only:-}" -f "$(dirname "${BASH_SOURCE[0]}")/project.jq" "$1"
}

# record_levels [RECORD OPTIONS] -- PROGRAM ARGS...: record the program at
# the contention and the summary level ($T/contention, $T/summary), report
# both as JSON and project them ($T/<level>.tables). comm: its procname;
# lock, wake: jq paths to its rows of contention.locks, wakes.objects.
record_levels() {
	local opts=() level
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
	shift
	comm=$(basename "$1" | cut -c1-15)
	lock='.tables[] | select(.name == "contention.locks") | .rows[] | select(.procname == "'"$comm"'")'
	wake='.tables[] | select(.name == "wakes.objects") | .rows[] | select(.procname == "'"$comm"'")'
	for level in contention summary; do
		run_st "${want_status:-0}" "record --level $level" record -q --level "$level" \
			"${opts[@]}" -o "$T/$level" -- "$@"
		"$SYNCTRACE" report --format json "$T/$level" >"$T/$level.json" 2>"$T/err" ||
			{ fail "report of the $level trace: $(cat "$T/err")"; finish; }
		project "$T/$level.json" "$comm" >"$T/$level.tables"
	done
	[ -n "${ST_KEEP:-}" ] && mkdir -p "$ST_KEEP" && cp -r "$T"/* "$ST_KEEP"
	if [ "$(jq -r '.[0].level' "$T/summary.tables")" = "summary" ]; then
		pass "the summary trace says its level"
	else
		fail "the summary trace's level: $(jq -r '.[0].level' "$T/summary.tables")"
	fi
}

# same_tables: every number of the two projections is the same.
same_tables() {
	if diff <(jq -S '.[1:]' "$T/contention.tables") <(jq -S '.[1:]' "$T/summary.tables") \
		>"$T/diff"; then
		pass "every table the same at both levels ($(jq '[.[1:] | .. | numbers] | length' \
			"$T/summary.tables") numbers)"
	else
		fail "the tables differ (contention <, summary >):"
		cat "$T/diff" >&2
	fi
}

# same_at_both_levels [RECORD OPTIONS] -- PROGRAM ARGS...: record_levels,
# then same_tables and no_transitions.
same_at_both_levels() {
	record_levels "$@"
	same_tables
	no_transitions
}

# no_transitions: the summary trace has no event per transition (batched
# records read as the events they hold).
no_transitions() {
	local n
	n=$(trace_events "$T/summary" | grep "procname = \"$comm\"" |
		grep -cE 'synctrace_(mutex:(requested|acquired|released|timeout)|futex|spin|barrier:(arrival|released|departure)|once|spinlock):' || true)
	if [ "$n" -eq 0 ]; then pass "no transition events at the summary level"; else
		fail "$n transition events at the summary level"; fi
}

# flushed REASON: the program's flushed events with that reason in its
# summary trace.
flushed() {
	babeltrace2 "$T/summary" | grep "procname = \"$comm\"" |
		grep -c "synctrace_summary:flushed: .*reason = ( \"$1\"" || true
}

# expect_flushed REASON N WHAT: the program's summary trace has N flushed
# events with that reason.
expect_flushed() {
	local n
	n=$(flushed "$1")
	if [ "$n" -eq "$2" ]; then pass "$3 ($n $1)"; else fail "$3: $n $1 flushes, expected $2"; fi
}

# eq_json LEVEL WHAT JQ WANT: a number of that level's JSON report.
eq_json() {
	local got
	got=$(jq -r "$3" "$T/$1.json")
	if [ "$got" = "$4" ]; then pass "$1: $2: $got"; else fail "$1: $2: got '$got', want '$4'"; fi
}
