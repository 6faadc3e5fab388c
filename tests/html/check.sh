#!/usr/bin/env bash
# check.sh REPORT OUTDIR TRACE: render TRACE (scenario.c) as HTML, check it
# is self-contained and that no text from the trace became markup, then
# load it in headless chromium: no console message (a script, a blocked
# load, a CSP violation would log one), the charts' elements in the counts
# the JSON report gives, the flame graph's boxes, and a screenshot kept in
# OUTDIR.
set -u
report=$1 out=$2 trace=$3
fail() { echo "html/check.sh: $*" >&2; exit 1; }
mkdir -p "$out" || fail "cannot create $out"
html=$out/report.html
"$report" --format html --checks -o "$html" "$trace" || fail "$report --format html failed"
[ -s "$html" ] || fail "empty $html"

# Self-contained, and the hostile thread names only as text.
grep -qi '<script' "$html" && fail "a <script> element in $html"
grep -Eqi '<(img|link|iframe|object|embed|image|use|a|foreignObject)[ >/]' "$html" &&
	fail "an element that could load something in $html"
grep -Eoi 'https?://[^" ]*' "$html" | grep -vqx 'http://www.w3.org/2000/svg' && fail "a URL in $html"
grep -Eqi '<[a-z][^>]* (src|href)=' "$html" && fail "a src or href attribute in $html"
grep -qF '&lt;script&gt;alert1' "$html" || fail "thread name <script>alert1 not shown escaped"
grep -qF '&quot;&amp;&#39;&lt;b&gt;x&lt;/b&gt;' "$html" || fail "thread name \"&'<b>x</b> not shown escaped"
grep -qF '&lt;/title&gt;&lt;svg&gt;' "$html" || fail "thread name </title><svg> not shown escaped"
grep -qF 'a&amp;amp;b' "$html" || fail "thread name a&amp;b not shown escaped"

# Expected counts, from the JSON report of the same trace.
json=$("$report" --format json "$trace") || fail "json report failed"
rows() { jq -r ".tables[] | select(.name == \"$1\") | .rows | $2" <<<"$json"; }
# The top-waits chart: every kind of wait (waits.top), no bar for 0 ns.
drawn='map(select(.wait_total_ns > 0)) | sort_by(-.wait_total_ns) | .[0:20]'
nlocks=$(rows waits.top "$drawn | length")
ncond=$(rows waits.top "$drawn | map(select(.kind == \"cond\")) | length")
nmutex=$(rows contention.locks 'map(select(.type == "mutex" and .contended > 0)) | length')
nhist=$(rows waits.top "$drawn | map(select((.wait_log2_hist | add // 0) > 0)) | length")
ncv=$(rows races.condvars 'length')
nspin=$(rows spin.objects 'length')
[ "$nmutex" -ge 3 ] || fail "expected the scenario's 3 contended mutexes, the report has $nmutex"
[ "$ncv" -ge 1 ] || fail "expected the scenario's condvar in races.condvars"
[ "$ncond" -ge 1 ] || fail "expected the scenario's condvar waits among the top waits"

# The browser.
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chrome() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 "$@"
}
chrome --dump-dom "file://$html" >"$out/dom.html" 2>"$out/console.log" ||
	fail "chromium --dump-dom failed (see $out/console.log)"
if grep -E 'CONSOLE|Uncaught|Refused to|Content Security Policy' "$out/console.log"; then
	fail "console messages while rendering $html (above)"
fi
count() { grep -o "class=\"$1\"" "$out/dom.html" | wc -l; }
expect() { # expect WHAT GOT WANT
	[ "$2" -eq "$3" ] || fail "$1: $2 in the rendered page, expected $3"
	echo "html/check.sh: $1: $2"
}
nfind=$(rows findings 'length')
expect "findings first (li.fnd)" "$(count fnd)" "$nfind"
grep -q '<h1>synctrace report</h1>' "$out/dom.html" &&
	[ "$(grep -o '<section id="[a-z-]*"' "$out/dom.html" | head -1)" = '<section id="findings"' ] ||
	fail "the page does not open with the findings"
expect "wait bars (rect.bar)" "$(count bar)" "$nlocks"
expect "condvar wait bars" "$(grep -o '<g class="lock"><title>cond ' "$out/dom.html" | wc -l)" "$ncond"
expect "wait histograms (svg.hist)" "$(count hist)" "$nhist"
expect "condvar rows (g.cv)" "$(count cv)" "$ncv"
expect "spin rows (g.spinrow)" "$(count spinrow)" "$nspin"
# The flame graph: every box the file has survives parsing; the condvar
# waiter's thread (its name escaped) has a box, its cond wait one below.
# (Frame names by symbol: tests/export/folded.sh, of a recorded program.)
nfl=$(grep -o '<rect class="fl"' "$html" | wc -l)
[ "$nfl" -ge 5 ] && [ "$nfl" -le 400 ] || fail "flame graph boxes in $html: $nfl, expected 5..400"
expect "flame graph boxes (rect.fl)" "$(count fl)" "$nfl"
box_y() { # the y of the first box whose title starts with $1
	grep -F "<g class=\"fg\"><title>$1" "$out/dom.html" | head -1 |
		sed -n 's/.*<svg x="[0-9.]*" y="\([0-9]*\)".*/\1/p'
}
# (the condvar named by its symbol: the probes list the loaded objects)
yt=$(box_y 'cv &lt;waiter&gt;: ') yc=$(box_y 'cond cv: ')
[ -n "$yt" ] && [ -n "$yc" ] && [ "$yc" -gt "$yt" ] ||
	fail "flame graph: no box for thread 'cv <waiter>' (y '$yt') above its cond wait (y '$yc')"
lanes=$(count lane)
[ "$lanes" -ge 8 ] || fail "timeline lanes: $lanes, expected at least 8 (main, 6 workers, waiter)"
holds=$(grep -o 'class="span span-hold"' "$out/dom.html" | wc -l)
[ "$holds" -ge 1 ] || fail "no hold interval in the timeline"
wakes=$(count wake)
[ "$wakes" -ge 2 ] || fail "no wake arrow in the timeline"
echo "html/check.sh: timeline: $lanes lanes, $holds holds, $((wakes - 1)) wake arrows"
grep -q '<script' "$out/dom.html" && fail "a script element in the rendered DOM"

# --window: the timeline covers the window asked for.
"$report" --format html --window 0,0.01 -o "$out/window.html" "$trace" || fail "--window 0,0.01 failed"
grep -q 'Window +0.000000 s to +0.010000 s (10.0 ms) from the first event: as asked' "$out/window.html" ||
	fail "--window 0,0.01: the timeline does not say its window"
"$report" --format html --window 2,1 "$trace" >/dev/null 2>&1 && fail "--window 2,1 accepted"

chrome --screenshot="$out/report.png" --window-size=1400,1000 "file://$html" \
	>/dev/null 2>"$out/console-shot.log" || fail "chromium --screenshot failed"
[ -s "$out/report.png" ] || fail "no screenshot"
# The whole page too (the timeline is below the first screen).
chrome --screenshot="$out/report-full.png" --window-size=1400,2600 "file://$html" \
	>/dev/null 2>>"$out/console-shot.log" || fail "chromium --screenshot (full page) failed"
echo "html/check.sh: screenshots in $out/report.png and report-full.png"
