#!/bin/sh
# The condvar's events, its state-machine block and EVENTS.md agree:
#  - every event of tracepoints/events/cond.def has exactly one call site
#    (its emitter st_cond_ev_<name>(...)) under src/ — one tracepoint, one
#    call site;
#  - every call site names an event of cond.def;
#  - every event is documented in the synctrace_cond section of EVENTS.md;
#  - every state-transition event appears in the table of src/cond/cond.h.
# usage: events-agree.sh SOURCE_DIR
root=${1:?source dir}
def=$root/tracepoints/events/cond.def
fail=0
events=$(sed -n 's/^ST_EVENT(cond, \([a-z_]*\),.*/\1/p' "$def")
[ -n "$events" ] || { echo "no events in $def" >&2; exit 1; }
section=$(sed -n '/^## synctrace_cond/,/^## /p' "$root/tracepoints/EVENTS.md")
# st_cond_ev_<name>_at(t, ...) is the same emitter, for a record written
# after its moment (src/internal/trace.h): the same event's call site.
sites=$(grep -rhoE '\bst_cond_ev_[a-z_]+\(' "$root/src" | sed 's/^st_cond_ev_//; s/($//; s/_at$//')
for e in $events; do
	n=$(printf '%s\n' "$sites" | grep -cx "$e")
	[ "$n" -eq 1 ] || { echo "cond:$e has $n call sites (want 1)" >&2; fail=1; }
	printf '%s\n' "$section" | grep -q "| \`$e\` |" ||
		{ echo "cond:$e is not documented in EVENTS.md" >&2; fail=1; }
	case $e in
	init | destroy | misuse) ;;
	*) grep -qw "$e" "$root/src/cond/cond.h" ||
		{ echo "cond:$e is not in the state machine block of cond.h" >&2; fail=1; } ;;
	esac
done
for s in $sites; do
	printf '%s\n' "$events" | grep -qx "$s" || { echo "st_cond_ev_$s() has no event" >&2; fail=1; }
done
exit $fail
