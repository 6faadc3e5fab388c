#!/usr/bin/env bash
# Records the golden traces again (tests/golden/traces/NAME) from the
# programs of this folder, then rewrites the expected outputs. Needs an
# LTTng session daemon: run it as `./synctrace.sh golden --record`.
# Each program is copied to /tmp/synctrace-golden/ and run from there,
# then removed: the trace's module paths name a file that no longer
# exists, so the reports show module+offset on every machine alike.
#   contended     contended.c, 3 rounds, full level, no spinning
#   condtimeouts  condtimeouts.c, 4 timed-out waits per thread
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
st=$build/tools/synctrace
bin=/tmp/synctrace-golden
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden-rec.XXXXXX")
trap 'rm -rf "$tmp" "$bin"' EXIT
cmake --build "$build" -j2 --target synctrace-cli synctrace synctrace-tp synctrace-report \
	test_golden_contended test_golden_condtimeouts >/dev/null
mkdir -p "$bin"
# record NAME PROGRAM ARGS... (options before --)
record() {
	local n=$1 prog=$2
	shift 2
	cp "$build/tests/golden/test_golden_$prog" "$bin/$n"
	"$st" record -q "$@" -o "$tmp/$n" -- "$bin/$n" ${ARGS[$n]} >/dev/null
	rm -f "$bin/$n"
	local meta
	meta=$(find "$tmp/$n" -name metadata | head -1)
	rm -rf "$here/traces/$n"
	mkdir -p "$here/traces/$n"
	find "$(dirname "$meta")" -maxdepth 1 -type f -exec cp {} "$here/traces/$n/" \;
	echo "record.sh: $n: $(du -sh "$here/traces/$n" | cut -f1)"
}
declare -A ARGS=([contended]=3 [condtimeouts]=4)
SYNCTRACE_SPIN=none record contended contended --level full --spin none
record condtimeouts condtimeouts
"$here/golden.sh" "$build" --update
