# Shared by the tests/naming scripts (sourced after ../cli/lib.sh): the
# names driver over a recorded trace, and assertions on its lines.
# Needs: names (the driver), comm (the program's comm, 15 characters).

# names TRACE_OUTPUT FILE: the driver's lines (TYPE HOW NAME SITE KLASS), sorted.
names() {
	local ctf
	ctf=$(dirname "$(find "$1" -name metadata | head -1)")
	"$names" "$comm" "$ctf" >"$2.raw" 2>"$T/names-err" || { fail "names $1: status $?"; cat "$T/names-err" >&2; }
	sort "$2.raw" >"$2"
}
# expect FILE WHAT COUNT TYPE|HOW|NAME|SITE: exactly COUNT objects so named.
expect() {
	local n
	n=$(cut -f1-4 "$1" | tr '\t' '|' | grep -cxF "$4")
	[ "$n" -eq "$3" ] && pass "$2: $4 (${3}x)" || { fail "$2: $n objects '$4', want $3"; tr '\t' '|' <"$1" >&2; }
}
# klass_of FILE NAME: the class keys of the objects named NAME (sorted, unique).
klass_of() { awk -F'\t' -v n="$2" '$3 == n { print $5 }' "$1" | sort -u; }

