#!/usr/bin/env bash
# The event definitions, the code and the documentation agree:
#  - every event of tracepoints/events/<family>.def is documented in a table
#    row of tracepoints/EVENTS.md under its provider's section;
#  - every event is emitted somewhere in src/ (no dead definitions), and
#    events with more than one ST_TRACE site are listed (STYLE.md rule 4:
#    a family routes such an event through one inline emitter, as
#    src/mutex/events.h does);
#  - no ST_TRACE names an event that is not defined.
# usage: agree.sh SOURCE_DIR
set -u
root=$1
fail=0
defs=$(cd "$root/tracepoints/events" && for f in *.def; do
	sed -n 's/^ST_EVENT(\([a-z_0-9]*\), *\([a-z_0-9]*\),.*/\1 \2/p' "$f"
done)
[ -n "$defs" ] || { echo "agree: no events found" >&2; exit 1; }
while read -r fam ev; do
	# the provider's section(s): from "## synctrace_<fam>" to the next "## "
	doc=$(awk -v h="## synctrace_$fam" 'index($0, h) == 1 {on = 1; next} /^## / {on = 0} on' \
		"$root/tracepoints/EVENTS.md")
	if ! grep -q "^| \`$ev\` |" <<<"$doc"; then
		echo "agree: synctrace_$fam:$ev is not documented in EVENTS.md" >&2
		fail=1
	fi
	n=$(grep -rEn "ST_TRACE(_FULL)?\(([^,]*, *)?$fam, *$ev[,)]" "$root/src" | wc -l)
	# synctrace_stack and meta:mapping are emitted by the probe library
	# itself (tracepoints/stacks.c, tracepoints/shared.c).
	n=$((n + $(cat "$root/tracepoints/stacks.c" 2>/dev/null | grep -cE "st_orig\.${fam}_$ev\(")))
	n=$((n + $(cat "$root/tracepoints/shared.c" 2>/dev/null | grep -cE "st_shr_orig\.${fam}_$ev\(")))
	if [ "$n" -eq 0 ]; then
		echo "agree: synctrace_$fam:$ev is defined but never emitted" >&2
		fail=1
	elif [ "$n" -gt 1 ]; then
		echo "agree: note: synctrace_$fam:$ev has $n ST_TRACE sites" >&2
	fi
done <<<"$defs"
# Every emitted event is defined.
grep -rhoE "ST_TRACE\([a-z_0-9]+, *[a-z_0-9]+" "$root/src" --exclude=trace.h | sed 's/ST_TRACE(//; s/, */ /' | sort -u |
	while read -r fam ev; do
		grep -qx "$fam $ev" <<<"$defs" || { echo "agree: $fam:$ev is emitted but not defined" >&2; exit 1; }
	done || fail=1
n=$(wc -l <<<"$defs")
[ $fail -eq 0 ] && echo "agree: $n events defined, documented and emitted"
exit $fail
