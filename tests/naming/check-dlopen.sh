#!/usr/bin/env bash
# `synctrace record` of a program that dlopens a library after it started:
# the library's global lock is named by its symbol (the probes emit
# synctrace_meta:module for the objects a dlopen loaded, with first = 0:
# the announcement's list predates the library).
# usage: check-dlopen.sh SYNCTRACE NAMES LOADER LOADER_SOURCE PLUGIN_SOURCE PLUGIN
. "$(dirname "$0")/lib.sh"
src=$5 plugin=$6 s=$(basename "$5")
L=$(line plugin)
run_st 0 "record" record --spin none -q -o "$T/t" -- "$prog"
trace_has "the plugin's meta:module event recorded, after the announcement's list" "$T/t" \
	"synctrace_meta:module: .*path = \"[^\"]*$(basename "$plugin")\", .*first = 0 }"
names "$T/t" "$T/n"
[ "$(wc -l <"$T/n")" -eq 1 ] && pass "one object" || fail "$(wc -l <"$T/n") objects, want 1"
expect "$T/n" "the plugin's lock" 1 "mutex|symbol|plugin_lock|worker ($s:$L)"
klass=$(klass_of "$T/n" plugin_lock)
[[ $klass == "mutex:$(basename "$plugin")+0x"* ]] && pass "klass in the plugin's module: $klass" ||
	fail "klass '$klass' not in $(basename "$plugin")"
finish
