#!/usr/bin/env bash
# usage: hang.sh SYNCTRACE REPORT NAME PROGRAM STOP LEVEL
# Records PROGRAM (one of tests/hang/*.c) with `synctrace record --level
# LEVEL`, waits for it to say it reached its state (it checks in /proc
# that its threads sleep where they should, then writes its pid to a
# file), stops it (STOP int: SIGINT to the recording's process group, as
# Ctrl-C; int2: the program ignores SIGINT, a second Ctrl-C makes
# synctrace kill it; kill: SIGKILL to the program), and checks the report of the trace: the
# hang findings (kind, verdict, threads), the wait-for graph rows, the
# sentence, in the default report and with --checks.
set -u
SYNCTRACE=$1 REPORT=$2 NAME=$3 PROG=$4 STOP=$5 LEVEL=$6
T=$(mktemp -d "${TMPDIR:-/tmp}/st-hang.XXXXXX")
app=
trap '[ -n "$app" ] && kill -KILL "$app" 2>/dev/null; rm -rf "$T"' EXIT
fails=0
fail() { echo "hang $NAME: FAIL: $*" >&2; fails=$((fails + 1)); }
pass() { echo "hang $NAME: ok: $*"; }

# Its own process group, as a terminal's foreground job (a background job
# of a script would start with SIGINT ignored, and the program inherit it).
set -m
[ "$STOP" = int2 ] && export HANG_IGNORE_INT=1
"$SYNCTRACE" record -q --level "$LEVEL" -o "$T/trace" -- "$PROG" "$T/ready" >"$T/out" 2>"$T/err" &
st=$!
set +m
for _ in $(seq 600); do [ -s "$T/ready" ] && break; kill -0 $st 2>/dev/null || break; sleep 0.1; done
if [ ! -s "$T/ready" ]; then
	echo "hang $NAME: the program never got ready" >&2; cat "$T/err" >&2
	kill -KILL $st 2>/dev/null; exit 1
fi
app=$(cat "$T/ready")
case $STOP in
int) kill -INT -- -$st; want_rc=130 ;; # Ctrl-C: the whole foreground group
kill) kill -KILL "$app"; want_rc=137 ;;
int2) # the program ignores SIGINT: Ctrl-C again until synctrace kills it
	kill -INT -- -$st
	for _ in $(seq 100); do kill -0 $st 2>/dev/null || break; kill -INT -- -$st 2>/dev/null; sleep 0.1; done
	want_rc=137 ;;
esac
wait $st
rc=$?
app=
[ $rc -eq $want_rc ] && pass "recording ended with status $rc" || fail "synctrace status $rc, want $want_rc"

# HANG_KEEP=DIR keeps the trace (DIR/NAME) to look at.
[ -n "${HANG_KEEP:-}" ] && rm -rf "${HANG_KEEP:?}/$NAME" && mkdir -p "$HANG_KEEP" && cp -r "$T/trace" "$HANG_KEEP/$NAME"
"$REPORT" --format json "$T/trace" >"$T/r.json" 2>"$T/rerr" || fail "report failed: $(cat "$T/rerr")"
"$REPORT" --checks --format json "$T/trace" >"$T/rc.json" 2>/dev/null || fail "report --checks failed"
"$REPORT" "$T/trace" >"$T/r.txt" 2>/dev/null
"$REPORT" --format html "$T/trace" >"$T/r.html" 2>/dev/null
html_graph() { # html_graph WHAT WANT_ROWS: the HTML section and its rows (0: no section)
	local got
	got=$(sed -n '/<section id="waitfor">/,/<\/section>/p' "$T/r.html" | grep -c '<g class="wf-edge">')
	if [ "$got" = "$2" ]; then pass "$1: $got"; else fail "$1: got $got rows, want $2"; fi
}
eq() { # eq WHAT JQ WANT [FILE]
	local got
	got=$(jq -r "$2" "${4:-$T/r.json}" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$3" ]; then pass "$1: $got"; else fail "$1: got '$got', want '$3'"; fi
}
has() { # has WHAT TEXT: the hang finding's sentence says it, and so does the text report
	if jq -r "$F | .text" "$T/r.json" | grep -qF -- "$2"; then pass "$1"; else
		fail "$1: no '$2' in the finding"; fi
	tr -s ' \n' '  ' <"$T/r.txt" | grep -qF -- "$2" || fail "$1: no '$2' in the text report"
}
F='.tables[] | select(.name == "findings") | .rows[] | select(.kind == "hang")'
G='.tables[] | select(.name == "hangs.graph") | .rows[]'

case $NAME in
cond_cycle)
	eq "one hang finding" "[$F] | length" 1
	eq "verdict" "$F | .verdict" cycle
	eq "by" "$F | .by_thread | sub(\":.*\"; \"\")" flusher
	eq "threads in it" "$F | .count" 2
	eq "on" "$F | .wait_kind + \" \" + .name" "cond dirty_cv"
	eq "graph" "[$G | (.thread | sub(\":.*\"; \"\")) + \"/\" + .wait_kind + \"/\" + .name + \"/\" + .state] | sort | join(\" \")" \
		"flusher/cond/dirty_cv/stuck writer/mutex/table_lock/stuck"
	eq "with --checks too" "[$F | .verdict] | join(\" \")" cycle "$T/rc.json"
	html_graph "HTML wait-for graph rows" 2
	has "the sentence" "waits on condvar \`dirty_cv\`"
	has "its signaler" "its only signaler \`writer:"
	has "the holder" "is blocked on mutex \`table_lock\`"
	"$REPORT" --at 0 --format json "$T/trace" >"$T/at0.json" 2>/dev/null
	eq "--at 0: nothing blocked" "[.tables[] | select(.name == \"hangs.graph\")] | length" 0 "$T/at0.json"
	"$REPORT" --at 3600 --format json "$T/trace" >"$T/at.json" 2>/dev/null
	eq "--at after the end: the same" "[$F | .verdict] | join(\" \")" cycle "$T/at.json"
	;;
sem_cycle)
	eq "one hang finding" "[$F] | length" 1
	eq "verdict" "$F | .verdict" cycle
	eq "by" "$F | .by_thread | sub(\":.*\"; \"\")" consumer
	eq "threads in it" "$F | .count" 2
	eq "graph" "[$G | (.thread | sub(\":.*\"; \"\")) + \"/\" + .wait_kind + \"/\" + .name + \"/\" + .state] | sort | join(\" \")" \
		"consumer/sem/items/stuck producer/mutex/pool_lock/stuck"
	has "its poster" "its only poster \`producer:"
	;;
barrier_exit)
	eq "one hang finding" "[$F] | length" 1
	eq "verdict" "$F | .verdict" no_waker
	eq "threads in it" "$F | .count" 2
	eq "graph" "[$G | (.thread | sub(\":.*\"; \"\")) + \"/\" + .wait_kind + \"/\" + .name + \"/\" + .state] | sort | join(\" \")" \
		"stayer0/barrier/gate/stuck stayer1/barrier/gate/stuck"
	has "the missing thread" "thread not arrived \`quitter:"
	has "exited" "exited at"
	;;
first_post)
	eq "one hang finding" "[$F] | length" 1
	eq "verdict" "$F | .verdict" all_blocked
	eq "by" "$F | .by_thread | sub(\":.*\"; \"\")" producer
	eq "threads in it" "$F | .count" 2
	eq "graph" "[$G | .wait_kind + \"/\" + .name + \"/\" + .state] | sort | join(\" \")" \
		"mutex/pool_lock/stuck sem/items/stuck"
	has "why" "every thread of its process is blocked"
	;;
slow_signaler)
	eq "no hang finding" "[$F] | length" 0
	eq "no hang with --checks" "[$F] | length" 0 "$T/rc.json"
	eq "graph" "[$G | (.thread | sub(\":.*\"; \"\")) + \"/\" + .wait_kind + \"/\" + .name + \"/\" + .state] | sort | join(\" \")" \
		"flusher/cond/dirty_cv/waker_runs writer/mutex/table_lock/waker_runs"
	eq "the holder named" "$G | select(.wait_kind == \"mutex\") | .wakers | test(\"held by .slowpoke:\")" true
	;;
woken_before_end)
	eq "no hang finding" "[$F] | length" 0
	eq "no hang with --checks" "[$F] | length" 0 "$T/rc.json"
	eq "no graph: nothing blocked" "[.tables[] | select(.name == \"hangs.graph\")] | length" 0
	html_graph "no HTML wait-for graph" 0
	;;
*) fail "unknown test $NAME" ;;
esac
if [ $fails -ne 0 ]; then
	sed -n '1,40p' "$T/r.txt" >&2
	exit 1
fi
echo "hang $NAME: all passed"
