#!/usr/bin/env bash
# One generated emitter per event is the only way to fire it: the
# primitives call st_<family>_ev_<event>() (generated in
# src/internal/trace.h from the .def files), never the probe table or
# ST_TRACE themselves; only the probe library (tracepoints/probes.c,
# stacks.c) fires LTTng tracepoints. Fails on any other emission.
# usage: raw-emission.sh SOURCE_DIR
set -u
root=$1
cd "$root" || exit 1
fail=0
raw() { # raw WHAT PATTERN DIR... : every match is a raw emission
	local what=$1 pat=$2 hits
	shift 2
	hits=$(grep -rnE "$pat" "$@" --include='*.c' --include='*.h' --include='*.in' |
		grep -v '^src/internal/trace.h:')
	if [ -n "$hits" ]; then
		printf 'raw-emission: %s outside the generated emitters:\n%s\n' "$what" "$hits" >&2
		fail=1
	fi
}
raw "ST_TRACE" '\bST_TRACE(_FULL)?\(' src tracepoints
raw "a call through the probe table" 'st_probes_in\)?[[:space:]]*->' src tracepoints
raw "an LTTng tracepoint" '\blttng_ust_(do_)?tracepoint\(' src
# The probe library fires only from its generated st_fire_* functions and
# the announcement (meta:start, meta:config, meta:module, meta:base).
hits=$(grep -nE '\blttng_ust_(do_)?tracepoint\(' tracepoints/*.c |
	grep -vE 'lttng_ust_do_tracepoint\(synctrace_##fam, name|lttng_ust_tracepoint\(synctrace_meta, (start|config|module|base),')
if [ -n "$hits" ]; then
	printf 'raw-emission: a tracepoint fired outside the generated probes:\n%s\n' "$hits" >&2
	fail=1
fi
n=$(grep -rhoE '\bst_[a-z0-9_]+_ev_[a-z0-9_]+\(' src | sort -u | wc -l)
[ $fail -eq 0 ] && echo "raw-emission: none ($n emitters called)"
exit $fail
