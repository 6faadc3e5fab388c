#!/usr/bin/env bash
# synctrace-report on paths that hold no trace: a clear message naming the
# path, exit 2, nothing on stdout.
set -u
report=$1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sa-bad.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bad-paths: $*" >&2; exit 1; }

expect() { # expect CODE PATTERN ARGS...
	local code=$1 pat=$2
	shift 2
	"$report" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc -eq "$code" ] || fail "$*: exit $rc, wanted $code ($(cat "$tmp/err"))"
	grep -q -- "$pat" "$tmp/err" || fail "$*: message lacks '$pat': $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "$*: printed a report"
}

expect 2 "$tmp/missing: No such file or directory" "$tmp/missing"
mkdir "$tmp/empty"
expect 2 "$tmp/empty: no CTF trace here" "$tmp/empty"
echo hello >"$tmp/file"
expect 2 "$tmp/file: not JSON" "$tmp/file" # a file is read as a summary (doc/summaries.md)
mkdir -p "$tmp/t" && : >"$tmp/t/metadata"
expect 2 "$tmp/t/metadata: empty metadata file" "$tmp/t"
expect 2 "unknown format" --format xml "$tmp/t"
expect 2 "unknown sort key" --sort speed "$tmp/t"
expect 2 "usage" # no path
echo "bad-paths: ok"
