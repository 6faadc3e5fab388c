# Shared by the tests/golden check scripts (sourced after ../cli/lib.sh):
# assertions on the JSON report in $T/r.json.
q() { jq -r "$1" "$T/r.json"; }
eqj() { # WHAT JQ WANT
	local got
	got=$(q "$2")
	[ "$got" = "$3" ] && pass "$1: $got" || fail "$1: got '$got', want '$3'"
}
matchj() { # WHAT JQ REGEX
	local got
	got=$(q "$2")
	[[ "$got" =~ $3 ]] && pass "$1: $got" || fail "$1: got '$got', want /$3/"
}
