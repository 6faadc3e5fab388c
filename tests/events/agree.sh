#!/usr/bin/env bash
# The event definitions, the code and the documentation agree:
#  - every event of tracepoints/events/<family>.def is documented in a table
#    row of tracepoints/EVENTS.md under its provider's section;
#  - every event is emitted somewhere in src/ (no dead definitions): its
#    generated emitter st_<family>_ev_<event>() is called (raw-emission.sh
#    checks that nothing else emits);
#  - every emitter called is one of a defined event.
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
	n=$(grep -rEn "\bst_${fam}_ev_$ev(_at)?\(" "$root/src" | wc -l)
	# synctrace_stack and meta:mapping are emitted by the probe library
	# itself (tracepoints/stacks.c, tracepoints/shared.c).
	n=$((n + $(cat "$root/tracepoints/stacks.c" 2>/dev/null | grep -cE "st_orig\.${fam}_$ev\(")))
	n=$((n + $(cat "$root/tracepoints/shared.c" 2>/dev/null | grep -cE "st_shr_orig\.${fam}_$ev\(")))
	# synctrace_batch: the probes' batches of the others (tracepoints/batch.c).
	n=$((n + $(cat "$root/tracepoints/probes.c" 2>/dev/null | grep -cE "\bst_fire_${fam}_$ev\(")))
	# meta:module: the probes' list of loaded objects, with the announcement.
	n=$((n + $(cat "$root/tracepoints/probes.c" 2>/dev/null |
		grep -cE "lttng_ust_tracepoint\(synctrace_${fam}, ${ev},")))
	if [ "$n" -eq 0 ]; then
		echo "agree: synctrace_$fam:$ev is defined but never emitted" >&2
		fail=1
	fi
done <<<"$defs"
# Every emitted event is defined.
# (st_<family>_ev_<event>_at: the same emitter, for a record written late.)
grep -rhoE "\bst_[a-z0-9]+_ev_[a-z_0-9]+\(" "$root/src" | sed 's/^st_//; s/($//; s/_at$//; s/_ev_/ /' | sort -u |
	while read -r fam ev; do
		grep -qx "$fam $ev" <<<"$defs" || { echo "agree: st_${fam}_ev_$ev is called but not defined" >&2; exit 1; }
	done || fail=1
# Every code (ST_ENUM/ST_FLAGS) is in the Codes table of EVENTS.md, each
# value with its label.
codes=$(awk '/^## Codes/ {on = 1; next} /^## / {on = 0} on' "$root/tracepoints/EVENTS.md")
for f in "$root"/tracepoints/events/*.def; do
	awk '/^ST_(ENUM|FLAGS)\(/ { sub(/^ST_(ENUM|FLAGS)\(/, ""); split($0, a, /, */); e = a[1] "_" a[2]; next }
	     /^[ \t]*ST_V\(/ { sub(/^[ \t]*ST_V\(/, ""); split($0, a, /, */); print e, a[2], a[1] }' "$f"
done | while read -r e v label; do
	row=$(grep "^| \`$e\`" <<<"$codes")
	if [ -z "$row" ] || ! grep -qE "[|,] $v $label(,| \|)" <<<"$row"; then
		echo "agree: code $e $v $label is not in the Codes table of EVENTS.md" >&2
		exit 1
	fi
done || fail=1
# An event with a string or array field cannot be a batched record (its
# fields are 64-bit words): tracepoints/probes.c lists it in st_single.
for f in "$root"/tracepoints/events/*.def; do
	awk '/^ST_EVENT\(/ {sub(/^ST_EVENT\(/, ""); split($0, a, /, */); ev = a[1] "_" a[2]}
	     ev != "" && /lttng_ust_field_(string|sequence|array)/ {print ev; ev = ""}
	     /\)\)\)$/ {ev = ""}' "$f"
done | while read -r ev; do
	grep -q "\[ST_EVI_$ev\] = 1" "$root/tracepoints/probes.c" ||
		{ echo "agree: $ev has a string or array field but is not in probes.c's st_single" >&2; exit 1; }
done || fail=1
n=$(wc -l <<<"$defs")
[ $fail -eq 0 ] && echo "agree: $n events defined, documented and emitted"
exit $fail
