#!/usr/bin/env bash
# callsites.c under SYNCTRACE_STACKS=1: each contended lock is preceded by
# a stack:use; each distinct stack has exactly one stack:frames; the two
# call sites (push_item, pop_item) are two distinct stacks.
set -u
trace=$1
events=$(${ST_EVENTS:?set by tests/run-mode.sh} "$trace") || { echo "frames_once: cannot read $trace" >&2; exit 1; }
ids() { grep "synctrace_stack:$1:" <<<"$events" | grep -o ' id = 0x[0-9A-Fa-f]*' | sort; }
fail=0
nreq=$(grep -c 'synctrace_mutex:requested:' <<<"$events")
nuse=$(ids use | wc -l)
nframes=$(ids frames | wc -l)
nframes_distinct=$(ids frames | uniq | wc -l)
nuse_distinct=$(ids use | uniq | wc -l)
[ "$nreq" -eq 8 ] || { echo "frames_once: expected 8 contended requests, found $nreq" >&2; fail=1; }
[ "$nuse" -eq "$nreq" ] || { echo "frames_once: $nuse stack:use for $nreq requests" >&2; fail=1; }
[ "$nframes" -eq "$nframes_distinct" ] || { echo "frames_once: a stack emitted twice ($nframes frames events, $nframes_distinct ids)" >&2; fail=1; }
[ "$nuse_distinct" -eq 2 ] || { echo "frames_once: expected 2 distinct stacks (push, pop), found $nuse_distinct" >&2; fail=1; }
missing=$(comm -23 <(ids use | uniq) <(ids frames | uniq))
[ -z "$missing" ] || { echo "frames_once: stacks used but never emitted:$missing" >&2; fail=1; }
# A use comes right before its event on the same thread: the event after
# each use in that thread's sequence is the request.
bad=$(grep -E 'synctrace_(stack:use|mutex:requested):' <<<"$events" |
	awk '{ tid = $0; sub(/.*vtid = /, "", tid); sub(/[^0-9].*/, "", tid)
	       if ($0 ~ /stack:use/) { pending[tid]++ }
	       else if (pending[tid] != 1) { bad++ } else { pending[tid] = 0 } }
	     END { print bad + 0 }')
[ "$bad" -eq 0 ] || { echo "frames_once: $bad requests not preceded by exactly one stack:use" >&2; fail=1; }
[ $fail -eq 0 ] && echo "frames_once: $nreq uses of $nframes stacks, each emitted once"
exit $fail
