#!/usr/bin/env bash
# The event definitions, the code and the documentation agree:
#  - every event of tracepoints/events/<family>.def is documented in a table
#    row of tracepoints/EVENTS.md under its provider's section;
#  - every event is emitted somewhere in src/ (no dead definitions): its
#    generated emitter st_<family>_ev_<event>() is called (raw-emission.sh
#    checks that nothing else emits);
#  - every emitter called is one of a defined event.
# Each file is read once and the checks are awk lookups: a process per
# event and file took 30 s on a loaded machine.
# usage: agree.sh SOURCE_DIR
set -u
root=$1
fail=0
defs=$(cd "$root/tracepoints/events" && for f in *.def; do
	sed -n 's/^ST_EVENT(\([a-z_0-9]*\), *\([a-z_0-9]*\),.*/\1 \2/p' "$f"
done)
[ -n "$defs" ] || { echo "agree: no events found" >&2; exit 1; }
# The documented rows, "fam ev": a row "| `ev` |" under a heading
# "## synctrace_<fam>" (or "## synctrace_<fam>: ...") up to the next "## ".
documented=$(awk 'index($0, "## synctrace_") == 1 { fam = $2; sub(/^synctrace_/, "", fam); sub(/:$/, "", fam); next }
	/^## / { fam = ""; next }
	fam != "" && match($0, /^\| `[a-z_0-9]+` \|/) { print fam, substr($0, RSTART + 3, RLENGTH - 6) }' \
	"$root/tracepoints/EVENTS.md")
# The emitters called in src, "fam ev" (st_<family>_ev_<event>_at: the
# same emitter, for a record written late).
called=$(grep -rhoE "\bst_[a-z0-9]+_ev_[a-z_0-9]+\(" "$root/src" | sed 's/^st_//; s/($//; s/_at$//; s/_ev_/ /' | sort -u)
# What the probe library emits itself, "fam_ev": synctrace_stack and
# meta:mapping (tracepoints/stacks.c, shared.c), synctrace_batch (the
# batches of the others, probes.c) and meta:module (the probes' list of
# loaded objects, with the announcement).
own=$( {
	grep -hoE "st_orig\.[a-z_0-9]+\(" "$root/tracepoints/stacks.c" 2>/dev/null | sed 's/^st_orig\.//'
	grep -hoE "st_shr_orig\.[a-z_0-9]+\(" "$root/tracepoints/shared.c" 2>/dev/null | sed 's/^st_shr_orig\.//'
	grep -hoE "\bst_fire_[a-z_0-9]+\(" "$root/tracepoints/probes.c" 2>/dev/null | sed 's/^st_fire_//'
	grep -hoE "lttng_ust_tracepoint\(synctrace_[a-z_0-9]+, [a-z_0-9]+," "$root/tracepoints/probes.c" 2>/dev/null |
		sed 's/^lttng_ust_tracepoint(synctrace_//; s/, /_/; s/,$//'
} | sed 's/($//' | sort -u)
awk -v documented="$documented" -v called="$called" -v own="$own" '
	BEGIN {
		n = split(documented, a, "\n"); for (i = 1; i <= n; i++) doc[a[i]] = 1
		n = split(called, a, "\n"); for (i = 1; i <= n; i++) call[a[i]] = 1
		n = split(own, a, "\n"); for (i = 1; i <= n; i++) mine[a[i]] = 1
	}
	!(($1 " " $2) in doc) {
		print "agree: synctrace_" $1 ":" $2 " is not documented in EVENTS.md" > "/dev/stderr"; bad = 1
	}
	!(($1 " " $2) in call) && !(($1 "_" $2) in mine) {
		print "agree: synctrace_" $1 ":" $2 " is defined but never emitted" > "/dev/stderr"; bad = 1
	}
	END { exit bad }' <<<"$defs" || fail=1
# Every emitted event is defined.
awk -v defs="$defs" 'BEGIN { n = split(defs, a, "\n"); for (i = 1; i <= n; i++) def[a[i]] = 1 }
	$0 != "" && !($0 in def) {
		print "agree: st_" $1 "_ev_" $2 " is called but not defined" > "/dev/stderr"; bad = 1
	}
	END { exit bad }' <<<"$called" || fail=1
# Every code (ST_ENUM/ST_FLAGS) is in the Codes table of EVENTS.md, each
# value with its label.
for f in "$root"/tracepoints/events/*.def; do
	awk '/^ST_(ENUM|FLAGS)\(/ { sub(/^ST_(ENUM|FLAGS)\(/, ""); split($0, a, /, */); e = a[1] "_" a[2]; next }
	     /^[ \t]*ST_V\(/ { sub(/^[ \t]*ST_V\(/, ""); split($0, a, /, */); print e, a[2], a[1] }' "$f"
done | awk -v doc="$root/tracepoints/EVENTS.md" '
	BEGIN {
		while ((getline line < doc) > 0) {
			if (line ~ /^## Codes/) { on = 1; continue }
			if (line ~ /^## /) on = 0
			if (on && match(line, /^\| `[^`]+`/)) row[substr(line, 4, RLENGTH - 4)] = line
		}
	}
	!($1 in row) || !match(row[$1], "[|,] " $2 " " $3 "(,| \\|)") {
		print "agree: code " $1 " " $2 " " $3 " is not in the Codes table of EVENTS.md" > "/dev/stderr"
		bad = 1
	}
	END { exit bad }' || fail=1
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
