#!/usr/bin/env bash
# speedscope.sh REPORT TRACE NPMDIR OUTDIR: the Chrome Trace Event JSON
# export (--format chrome) of TRACE opened in a real viewer, speedscope
# (npm), in headless chromium: the viewer names the trace's process and
# thread (DOM), and draws its boxes (the screenshot has coloured pixels
# well beyond those of speedscope's welcome page: ~19k at 1200x800).
# speedscope is installed into NPMDIR (the build tree) when missing; if
# npm cannot fetch it the test is skipped (exit 77).
set -u
report=$1 trace=$2 dir=$3 out=$4
name=export/speedscope.sh
fail() { echo "$name: FAIL: $*" >&2; exit 1; }
skip() { echo "$name: SKIP: $*"; exit 77; }
tool=$(dirname "$0")/speedscope_tool.js
for c in node npm chromium; do command -v $c >/dev/null || skip "no $c"; done
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || fail "cannot create $dir"
dist=$dir/node_modules/speedscope/dist/release
if [ ! -f "$dist/index.html" ]; then
	timeout 300 npm install --prefix "$dir" --no-audit --no-fund speedscope >"$dir/npm.log" 2>&1 &&
		[ -f "$dist/index.html" ] || skip "npm could not fetch speedscope (see $dir/npm.log)"
fi
mkdir -p "$out" || fail "cannot create $out"
site=$(mktemp -d) profile=$(mktemp -d) srv=
trap '[ -n "$srv" ] && kill "$srv"; rm -rf "$site" "$site.port" "$profile"' EXIT
ln -s "$dist"/* "$site"/ || fail "cannot link $dist"
"$report" --format chrome -o "$site/profile.json" "$trace" || fail "$report --format chrome failed"

# A local server (speedscope fetches the profile; a file:// page may not).
node "$tool" serve "$site" >"$site.port" 2>&1 &
srv=$!
port=
for _ in $(seq 300); do # until it listens (or 30 s)
	port=$(sed -n 's/^port \([0-9]*\)$/\1/p' "$site.port")
	[ -n "$port" ] && break
	kill -0 "$srv" 2>/dev/null || break
	sleep 0.1
done
[ -n "$port" ] || fail "the server did not start: $(cat "$site.port")"
rm -f "$site.port"
url="http://127.0.0.1:$port/index.html#profileURL=http://127.0.0.1:$port/profile.json"
chrome() {
	timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --window-size=1200,800 "$@"
}
proc=$(jq -r '.traceEvents[] | select(.name == "process_name") | .args.name' "$site/profile.json" | head -1)
[ -n "$proc" ] || fail "no process_name in the export"
# The viewer fetches the profile after the page's load event: load again,
# giving it longer each time, until it shows the profile (or 10 tries).
shown=0
for try in $(seq 10); do
	chrome --virtual-time-budget=$((try * 2000)) --dump-dom "$url" >"$out/speedscope-dom.html" \
		2>"$out/speedscope-console.log" || fail "chromium --dump-dom failed"
	grep -qF "$proc (pid " "$out/speedscope-dom.html" && { shown=1; break; }
done
[ $shown = 1 ] ||
	fail "speedscope does not name process '$proc' (DOM in $out/speedscope-dom.html)"
echo "$name: speedscope shows the profile of '$proc' (load $try)"
chromatic=0 colours=0
for try in $(seq 10); do
	chrome --virtual-time-budget=$((try * 2000)) --screenshot="$out/speedscope.png" "$url" \
		>/dev/null 2>&1 || fail "chromium --screenshot failed"
	read -r _ chromatic _ colours < <(node "$tool" png "$out/speedscope.png") ||
		fail "cannot decode $out/speedscope.png"
	[ "$chromatic" -gt 40000 ] && [ "$colours" -ge 3 ] && break
done
[ "$chromatic" -gt 40000 ] && [ "$colours" -ge 3 ] ||
	fail "$out/speedscope.png: $chromatic coloured pixels ($colours colours), expected > 40000"
echo "$name: screenshot $out/speedscope.png: $chromatic coloured pixels, $colours colours"
