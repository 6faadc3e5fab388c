#!/usr/bin/env bash
# Exports of damaged or empty input, every format: a trace with no
# synctrace event, one whose packet says events were discarded, one whose
# stream is truncated. Each gives a valid file that says so (status 1 for
# no events), or a clear error and no file; never a crash (status > 2).
# usage: edge.sh SYNCTRACE_REPORT CHROME_CHECK GOLDEN_TRACE
report=$1 check=$2 golden=$3
SYNCTRACE=true
. "$(dirname "$0")/../cli/lib.sh"
export HOME=$T GOCACHE=$T/gocache

# valid FORMAT FILE NOTE: the file is a valid FORMAT export carrying NOTE.
valid() {
	local fmt=$1 f=$2 note=$3
	case $fmt in
	folded)
		if grep -v '^# ' "$f" | grep -qvE '^[^;]+;[^;]+;.* [0-9]+$'; then
			fail "folded: a line is not 'stack VALUE': $(grep -v '^# ' "$f" | head -3)"
		else pass "folded: every line is 'stack VALUE'"; fi
		grep -q "^# .*$note" "$f" && pass "folded says '$note'" || fail "folded lacks '# ...$note'" ;;
	pprof)
		if go tool pprof -raw "$f" >"$T/raw" 2>"$T/perr"; then pass "go tool pprof reads it"
		else fail "go tool pprof: $(cat "$T/perr")"; fi
		go tool pprof -comments "$f" 2>/dev/null | grep -q "$note" && pass "pprof comment '$note'" ||
			fail "pprof comments lack '$note'" ;;
	chrome)
		if "$check" "$f" >/dev/null 2>"$T/cerr"; then pass "chrome_check: valid"
		else fail "chrome_check: $(cat "$T/cerr")"; fi
		grep -q "\"notes\": \[[^]]*$note" "$f" && pass "chrome notes '$note'" ||
			fail "chrome notes lack '$note'" ;;
	esac
}

# case NAME DIR WANT_STATUS NOTE
case_() {
	local what=$1 dir=$2 want=$3 note=$4 fmt rc
	for fmt in folded pprof chrome; do
		rm -f "$T/out"
		"$report" --format $fmt -o "$T/out" "$dir" 2>"$T/err"
		rc=$?
		if [ $rc -gt 2 ]; then fail "$what $fmt: status $rc: $(cat "$T/err")"; continue; fi
		if [ "$want" = error ]; then
			# a clear error and no file, or a partial export that says so
			if [ $rc -eq 0 ]; then fail "$what $fmt: status 0"
			elif [ -s "$T/out" ]; then valid $fmt "$T/out" PARTIAL
			else grep -q . "$T/err" && pass "$what $fmt: status $rc, error: $(head -1 "$T/err")" ||
				fail "$what $fmt: status $rc, no file and no message"; fi
			continue
		fi
		[ $rc -eq "$want" ] && pass "$what $fmt: status $rc" || fail "$what $fmt: status $rc, want $want"
		valid $fmt "$T/out" "$note"
	done
}

mkdir "$T/empty"
cp "$golden/metadata" "$T/empty/"
: >"$T/empty/synctrace_0"
case_ "no events" "$T/empty" 1 "no synctrace events"

cp -r "$golden" "$T/disc"
printf '\x05' | dd of="$T/disc/synctrace_0" bs=1 seek=72 conv=notrunc 2>/dev/null # events_discarded
case_ "discarded" "$T/disc" 0 "LOWER BOUNDS"
# and the discarded trace's waits are still there
"$report" --format folded "$T/disc" 2>/dev/null | grep -q ';mutex ' && pass "discarded: waits kept" ||
	fail "discarded: no wait line"

# The golden trace itself (recorded at the full level, no statedump):
# exact lines, holds per release site, --window.
"$report" --format folded --sample hold "$golden" >"$T/hold" 2>/dev/null
want="contended;holder;contended+0x142b;mutex contended+0x40c0 10097622
contended;popper;contended+0x131d;mutex contended+0x40c0 6990"
[ "$(cat "$T/hold")" = "$want" ] && pass "golden: holds per release site, exact" ||
	fail "golden --sample hold: $(cat "$T/hold")"
line="contended;popper;contended+0x130d;mutex contended+0x40c0 7020478"
[ "$("$report" --format folded "$golden" 2>/dev/null)" = "$line" ] && pass "golden: the wait, exact" ||
	fail "golden folded: $("$report" --format folded "$golden" 2>&1)"
"$report" --format folded --window 0,100 "$golden" 2>/dev/null | grep -qxF "$line" &&
	pass "--window over everything: the same wait" || fail "--window 0,100 lost the wait"
[ "$("$report" --format folded --top 1 "$golden" 2>/dev/null)" = "$line" ] &&
	pass "--top 1: the one lock kept" || fail "--top 1 lost the wait"
n=$("$report" --format folded --window 0,0.000001 "$golden" 2>/dev/null | grep -vc '^# ')
[ "$n" -eq 0 ] && pass "--window before the wait: no line" || fail "--window 0,1us: $n lines"
"$report" --format chrome -o "$T/g.json" "$golden" 2>/dev/null
"$check" "$T/g.json" >"$T/gsum" || fail "golden chrome invalid"
for l in "slice holder|hold contended+0x40c0 3" "slice popper|mutex contended+0x40c0 3" "flows 3"; do
	grep -qxF "$l" "$T/gsum" && pass "golden chrome: $l" || fail "golden chrome lacks '$l': $(cat "$T/gsum")"
done

cp -r "$golden" "$T/trunc"
truncate -s $(($(stat -c %s "$T/trunc/synctrace_0") - 37)) "$T/trunc/synctrace_0"
case_ "truncated" "$T/trunc" error PARTIAL
finish
