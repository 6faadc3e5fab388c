#!/usr/bin/env bash
# --help of every subcommand: status 0, documents the exit statuses; the
# man page renders without warnings. usage: help.sh SYNCTRACE MANPAGE
SYNCTRACE=$1 man=$2
. "$(dirname "$0")/lib.sh"
for sub in record report run merge diff top; do
	if "$SYNCTRACE" $sub --help >"$T/out" 2>&1 && grep -q "^Exit status" "$T/out"; then
		pass "$sub --help"
	else fail "$sub --help"; cat "$T/out" >&2; fi
done
if "$SYNCTRACE" --help | grep -q "synctrace record"; then pass "--help"; else fail "--help"; fi
# Every option record, run, merge and diff list is in the man page (report
# refers to its --help; top's words name lttng's "--live" too).
for sub in record run merge diff; do
	missing=
	for o in $("$SYNCTRACE" $sub --help 2>&1 | grep -oE '(^|[ ,[])--[a-z][a-z-]+' | sed 's/^[ ,[]*//' | sort -u); do
		grep -qF -- "$(sed 's/-/\\-/g' <<<"$o")" "$man" || missing="$missing $o"
	done
	[ -z "$missing" ] && pass "man page: every option of $sub" || fail "man page lacks $sub's$missing"
done
"$SYNCTRACE" no-such-subcommand >/dev/null 2>&1
[ $? -eq 125 ] && pass "unknown subcommand: 125" || fail "unknown subcommand"
if command -v groff >/dev/null; then
	w=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
	[ -z "$w" ] && pass "man page renders cleanly" || fail "man page: $w"
	grep -q '^\.SH "\{0,1\}EXIT STATUS' "$man" && pass "man: EXIT STATUS" ||
		fail "man page has no EXIT STATUS"
fi
finish
