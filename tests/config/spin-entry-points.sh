#!/usr/bin/env bash
# The library (SYNCTRACE_SPIN in the environment) and the command
# (`synctrace record --spin`) accept and reject exactly the values of the
# table (spin-values.txt): they share one parser.
# usage: spin-entry-points.sh SYNCTRACE LIBSYNCTRACE TABLE
set -u
cli=$1 lib=$2 table=$3
err=$(mktemp)
trap 'rm -f "$err"' EXIT
fail=0 n=0
while read -r verdict value _; do
	case $verdict in accept | reject) ;; *) continue ;; esac
	n=$((n + 1))
	# The command: --help after --spin exits 0 once the options parsed.
	"$cli" record --spin "$value" --help >/dev/null 2>"$err"
	rc=$?
	if [ "$verdict" = accept ] && [ $rc -ne 0 ]; then
		echo "command rejects '$value' (status $rc): $(cat "$err")" >&2
		fail=1
	elif [ "$verdict" = reject ] && { [ $rc -eq 0 ] || ! grep -q -- "--spin wants" "$err"; }; then
		echo "command accepts '$value' (status $rc)" >&2
		fail=1
	fi
	# The library: its constructor complains on stderr about a value it
	# rejects and says nothing about one it takes.
	LD_PRELOAD=$lib SYNCTRACE_SPIN=$value /bin/true 2>"$err"
	if [ "$verdict" = accept ] && [ -s "$err" ]; then
		echo "library rejects '$value': $(cat "$err")" >&2
		fail=1
	elif [ "$verdict" = reject ] && ! grep -qF "SYNCTRACE_SPIN=$value is not" "$err"; then
		echo "library accepts '$value'" >&2
		fail=1
	fi
done <"$table"
[ "$n" -ge 20 ] || { echo "only $n values in $table" >&2; fail=1; }
[ $fail -eq 0 ] && echo "spin-entry-points: $n values, the same verdict from both"
exit $fail
