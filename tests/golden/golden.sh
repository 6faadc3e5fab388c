#!/usr/bin/env bash
# Golden reports: each checked-in trace (tests/golden/traces/NAME, a CTF
# trace directory) rendered as text, text --wide, JSON, CSV and HTML,
# compared byte for byte with tests/golden/expected/NAME.*.
#   golden.sh BUILD --check NAME    compare one trace (the ctest golden.NAME)
#   golden.sh BUILD --update        after an intended change: rewrite every
#                                   expected file (review the diff, commit)
# (./synctrace.sh golden is the same --update after a build.) The report is
# run from the traces folder with the trace's relative name, so no path of
# this machine enters the outputs; the traces' programs were removed after
# recording (record.sh), so their symbols are module+offset everywhere.
set -u
build=$(cd "$1" && pwd) mode=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
report=$build/analysis/synctrace-report
[ -x "$report" ] || { echo "golden.sh: no $report (build first)" >&2; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# render NAME OUTDIR: every format of trace NAME into OUTDIR/NAME.*
render() {
	local n=$1 out=$2 rc=0
	local args=(--checks)
	(
		cd "$here/traces" || exit 1
		"$report" "${args[@]}" "$n" >"$out/$n.txt" || exit 1
		"$report" "${args[@]}" --wide "$n" >"$out/$n.wide.txt" || exit 1
		"$report" "${args[@]}" --by object --all "$n" >"$out/$n.object.txt" || exit 1
		"$report" "${args[@]}" --format json "$n" >"$out/$n.json" || exit 1
		"$report" "${args[@]}" --format csv "$n" >"$out/$n.csv" || exit 1
		"$report" "${args[@]}" --format html "$n" >"$out/$n.html" || exit 1
	) 2>"$out/$n.err" || rc=1
	[ $rc -eq 0 ] || { echo "golden.sh: $n: report failed: $(cat "$out/$n.err")" >&2; return 1; }
	rm -f "$out/$n.err"
}

case $mode in
--check)
	n=$1
	render "$n" "$tmp" || exit 1
	bad=0
	for f in "$tmp/$n".*; do
		want=$here/expected/$(basename "$f")
		if ! cmp -s "$f" "$want"; then
			echo "golden.sh: $(basename "$f") differs from $want:" >&2
			diff -u "$want" "$f" | head -40 >&2
			bad=1
		fi
	done
	[ $bad -eq 0 ] && echo "golden.sh: $n: every format as expected" ||
		echo "golden.sh: if the change is intended: tests/golden/golden.sh BUILD --update" >&2
	exit $bad
	;;
--update)
	mkdir -p "$here/expected"
	for d in "$here"/traces/*/; do
		n=$(basename "$d")
		render "$n" "$tmp" || exit 1
		rm -f "$here/expected/$n".*
		cp "$tmp/$n".* "$here/expected/"
		echo "golden.sh: $n: $(ls "$here/expected/$n".* | wc -l) expected files written"
	done
	;;
*)
	echo "usage: golden.sh BUILD --check NAME | --update" >&2
	exit 2
	;;
esac
