#!/usr/bin/env bash
# `synctrace record` of a program that dlopens a library after it started:
# the library's global lock is named by its symbol (the dl helper's events
# are recorded by default; the statedump alone predates the library).
# usage: check-dlopen.sh SYNCTRACE NAMES LOADER PLUGIN PLUGIN_SOURCE
SYNCTRACE=$1 names=$2 loader=$3 plugin=$4 src=$5
. "$(dirname "$0")/../cli/lib.sh"
need_daemon
comm=$(basename "$loader" | cut -c1-15)
L=$(grep -n 'NAMESITE plugin' "$src" | cut -d: -f1)
run_st 0 "record" record --spin none -q -o "$T/t" -- "$loader" "$plugin"
trace_has "dl helper's dlopen event recorded" "$T/t" 'lttng_ust_dl:dlopen:'
ctf=$(dirname "$(find "$T/t" -name metadata | head -1)")
"$names" "$comm" "$ctf" >"$T/n" 2>"$T/err" || { fail "names: status $?"; cat "$T/err" >&2; }
want=$(printf 'mutex\tsymbol\tplugin_lock\tworker (%s:%s)\tmutex:%s+0x' "$(basename "$src")" "$L" \
	"$(basename "$plugin")")
if [ "$(wc -l <"$T/n")" -eq 1 ] && grep -qF "$want" "$T/n"; then
	pass "the plugin's lock: plugin_lock, klass in $(basename "$plugin")"
else fail "names: $(tr '\t' '|' <"$T/n"), want ${want//$'\t'/|}..."; fi
finish
