#!/usr/bin/env bash
# The terminal view, through a pseudo-terminal (script(1)): each snapshot
# is drawn over the last (home + clear), the command's own output is kept
# off the screen, and typing q ends the view at once with a final
# snapshot, the command interrupted (SIGINT), well before its
# 30 s; no private relay daemon is left.
# usage: keys.sh SYNCTRACE
SYNCTRACE=$1
. "$(dirname "$(readlink -f "$0")")/../cli/lib.sh"
need_daemon
command -v script >/dev/null || { echo "keys: no script(1): skipped"; exit 77; }
ours() { pgrep -f "lttng-relayd .*-o ${TMPDIR:-/tmp}/synctrace-top-" >/dev/null; }
mkfifo "$T/keys"
start=$SECONDS
# (the typescript's header repeats the command line: the output differs)
# A terminal of 14 rows: each redrawn snapshot fits it.
script -qfec "stty rows 14 cols 120; exec $SYNCTRACE top --interval 0.2 -- sh -c 'echo cmd-output-\$((6 * 7)); exec sleep 30'" \
	"$T/screen" <"$T/keys" >/dev/null 2>&1 &
sc=$!
exec 3>"$T/keys"
for _ in $(seq 400); do
	[ "$(grep -c '(q: quit)' "$T/screen" 2>/dev/null)" -ge 2 ] && break
	sleep 0.05
done
printf q >&3
wait $sc
rc=$?
exec 3>&-
took=$((SECONDS - start))
# SIGINT (130); SIGTERM (143) when SIGINT is ignored, as in this test's
# background job.
[ $rc -eq 130 ] || [ $rc -eq 143 ] && pass "q: the command interrupted (status $rc)" ||
	fail "q: status $rc"
[ $took -lt 25 ] && pass "q: ended in ${took} s, not the command's 30" || fail "q: took $took s"
n=$(grep -o $'\e\[H\e\[2J' "$T/screen" | wc -l)
[ "$n" -ge 2 ] && pass "$n snapshots drawn in place (home, clear)" || fail "$n redraws"
grep -q $'\e\[H\e\[2Jsynctrace top (final)' "$T/screen" && pass "a final snapshot" || fail "no final snapshot"
# Each redrawn (not final) snapshot: at most 13 lines, so nothing scrolls
# away on 14 rows; a taller view says what it left out.
tall=$(awk 'BEGIN { RS = "\033\\[H\033\\[2J" } /\(q: quit\)/ { n = gsub(/\n/, "&"); if (n > m) m = n } END { print m + 0 }' "$T/screen")
[ "$tall" -ge 1 ] && [ "$tall" -le 13 ] && pass "redrawn snapshots fit 14 rows ($tall lines at most)" ||
	fail "a redrawn snapshot has $tall lines on 14 rows"
grep -qE '^\.\.\. [0-9]+ more lines: a taller terminal shows them' "$T/screen" &&
	pass "the cut view says how many lines it left out" || fail "no '... N more lines' note"
grep -q 'cmd-output-42' "$T/screen" && fail "the command's output on the view's screen" ||
	pass "the command's output kept off the screen"
! ours && pass "private relay daemon stopped" || fail "a relay daemon was left running"
finish
