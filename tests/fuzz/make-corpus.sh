#!/usr/bin/env bash
# usage: make-corpus.sh BUILD_DIR
# Regenerates the trace fuzzer's fixed metadata (tests/fuzz/metadata) and
# seed corpus (tests/fuzz/corpus/) from one real recording: `synctrace
# record --level full --stacks` of a few of the project's own programs (the
# analysis scenario: contended and timed-out mutexes; a semaphore destroyed
# while waited on; a lock-order inversion; an unlock of an unlocked mutex),
# so the seeds hold every family's slow-path events, statedump and stacks.
# Needs an LTTng session daemon (synctrace record starts a private one as
# root) and the build's programs; the seeds must be regenerated with the
# metadata (event ids are the session's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
cmake --build "$build" -j2 --target synctrace-cli synctrace-tp synctrace fuzz-pack \
	test_analysis_scenario test_checks_destroy_waited \
	test_checks_lock_order test_checks_unlock_unlocked >/dev/null
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-corpus.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t=$build/tests
export ST_TEST_MODE=traced
"$build/tools/synctrace" record -q -l full --stacks -o "$tmp/trace" -- sh -c "
	$t/analysis/test_analysis_scenario 3 2 &&
	$t/checks/test_checks_destroy_waited &&
	$t/checks/test_checks_lock_order &&
	$t/checks/test_checks_unlock_unlocked" >/dev/null
meta=$(find "$tmp/trace" -name metadata | head -1)
dir=$(dirname "$meta")
babeltrace2 -o ctf-metadata "$dir" >"$here/metadata"
rm -rf "$here/corpus"
mkdir -p "$here/corpus"
"$build/tests/fuzz/fuzz-pack" "$here/corpus" $(find "$dir" -maxdepth 1 -type f -name 'synctrace_*' | sort)
# Keep the corpus small: the whole trace only if under 64 KiB.
[ "$(stat -c %s "$here/corpus/all")" -lt 65536 ] || rm "$here/corpus/all"
echo "make-corpus: $(babeltrace2 "$dir" | wc -l) events; $(ls "$here/corpus" | wc -l) seeds, $(du -sh "$here/corpus" | cut -f1)"
