#!/usr/bin/env bash
# `synctrace record` of a program that dlopens a library after it started:
# the library's global lock is named by its symbol (the dl helper's events
# are recorded by default; the statedump alone predates the library).
# usage: check-dlopen.sh SYNCTRACE NAMES LOADER LOADER_SOURCE PLUGIN_SOURCE PLUGIN
. "$(dirname "$0")/lib.sh"
src=$5 plugin=$6 s=$(basename "$5")
L=$(line plugin)
run_st 0 "record" record --spin none -q -o "$T/t" -- "$prog"
trace_has "dl helper's dlopen event recorded" "$T/t" 'lttng_ust_dl:dlopen:'
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 1 ] && pass "one object" || fail "$(wc -l <"$T/n") objects, want 1"
expect "$T/n" "the plugin's lock" 1 "mutex|symbol|plugin_lock|worker ($s:$L)"
klass=$(klass_of "$T/n" plugin_lock)
[[ $klass == "mutex:$(basename "$plugin")+0x"* ]] && pass "klass in the plugin's module: $klass" ||
	fail "klass '$klass' not in $(basename "$plugin")"
finish
