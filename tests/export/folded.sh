#!/usr/bin/env bash
# --format folded of contend.c: exact lines for the known stack (the call
# site alone without --stacks; waiter_main → take_queue with them), the
# contention count per --sample, and the wait ns equal to the report's.
. "$(dirname "$0")/lib.sh"
record_both
want="$comm;waiter;take_queue ($srcname:$take);mutex queue_lock 4"
export_to "folded contentions" "$T/c.folded" --format folded --sample contentions "$T/plain"
if grep -qxF "$want" "$T/c.folded"; then pass "plain: '$want'"; else
	fail "plain: no line '$want' in:"; cat "$T/c.folded" >&2; fi
n=$(grep -c . "$T/c.folded")
[ "$n" -eq 1 ] && pass "plain: one line (main never waited)" || { fail "plain: $n lines"; cat "$T/c.folded" >&2; }
export_to "folded wait" "$T/w.folded" --format folded "$T/plain"
read -r wns nw < <(report_wait "$T/plain")
got=$(awk -v p="$comm;waiter;take_queue ($srcname:$take);mutex queue_lock" \
	'{ v = $NF; sub(/ [0-9]+$/, ""); if ($0 == p) print v }' "$T/w.folded")
[ -n "$got" ] && [ "$got" = "$wns" ] && pass "plain: wait $got ns = the report's" ||
	fail "plain: folded wait '$got' ns, report '$wns' ns (waits $nw)"

export_to "stacks folded" "$T/s.folded" --format folded --sample contentions "$T/stacks"
tail="waiter_main ($srcname:$loop);take_queue ($srcname:$take);mutex queue_lock 4"
if awk -v h="$comm;waiter;" -v t=";$tail" 'index($0, h) == 1 &&
	substr($0, length($0) - length(t) + 1) == t { ok = 1 } END { exit !ok }' "$T/s.folded"; then
	pass "stacks: '...;$tail'"
else fail "stacks: no line ending '$tail':"; cat "$T/s.folded" >&2; fi
# --format html draws the same rows as a flame graph (icicle): one box per
# frame, the callee one row below its caller, the lock below take_queue.
export_to "stacks html" "$T/s.html" --format html "$T/stacks"
box_y() { # the y of the box titled "FRAME: ..." (one box expected)
	grep -F "<g class=\"fg\"><title>$1: " "$T/s.html" | sed -n 's/.*<svg x="[0-9.]*" y="\([0-9]*\)".*/\1/p'
}
yw=$(box_y "waiter_main ($srcname:$loop)")
yt=$(box_y "take_queue ($srcname:$take)")
yl=$(box_y "mutex queue_lock")
if [ "$(wc -w <<<"$yw $yt $yl")" -eq 3 ] && [ $((yw + 17)) -eq "$yt" ] && [ $((yt + 17)) -eq "$yl" ]; then
	pass "html flame graph: waiter_main → take_queue → mutex queue_lock (y $yw $yt $yl)"
else fail "html flame graph: boxes waiter_main '$yw' take_queue '$yt' queue_lock '$yl'"
	sed -n '/id="flame"/,/<\/section>/p' "$T/s.html" >&2; fi
nbox=$(grep -c '<rect class="fl"' "$T/s.html")
[ "$nbox" -ge 6 ] && [ "$nbox" -le 400 ] && pass "html flame graph: $nbox boxes" ||
	fail "html flame graph: $nbox boxes, expected 6..400"
finish
