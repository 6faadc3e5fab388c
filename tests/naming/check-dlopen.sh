#!/usr/bin/env bash
# `synctrace record` of a program that dlopens a library after it started:
# the library's global lock is named by its symbol (the dl helper's events
# are recorded by default; the statedump alone predates the library).
# usage: check-dlopen.sh SYNCTRACE NAMES LOADER PLUGIN PLUGIN_SOURCE
SYNCTRACE=$1 names=$2 loader=$3 plugin=$4 src=$5
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
need_daemon
comm=$(basename "$loader" | cut -c1-15)
L=$(grep -n 'NAMESITE plugin' "$src" | cut -d: -f1)
run_st 0 "record" record --spin none -q -o "$T/t" -- "$loader" "$plugin"
trace_has "dl helper's dlopen event recorded" "$T/t" 'lttng_ust_dl:dlopen:'
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 1 ] && pass "one object" || fail "$(wc -l <"$T/n") objects, want 1"
expect "$T/n" "the plugin's lock" 1 "mutex|symbol|plugin_lock|worker ($(basename "$src"):$L)"
klass=$(klass_of "$T/n" plugin_lock)
[[ $klass == "mutex:$(basename "$plugin")+0x"* ]] && pass "klass in the plugin's module: $klass" ||
	fail "klass '$klass' not in $(basename "$plugin")"
finish
