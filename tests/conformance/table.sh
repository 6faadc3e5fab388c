#!/usr/bin/env bash
# The README table "Compatibility with glibc" and the conformance cases are
# one list: every row names a case of the binary, every case has a row, no
# row twice, and each row has its five cells filled (id, behaviour, glibc,
# synctrace, why), all inside that section.
# usage: table.sh README.md test_conformance
set -u
readme=$1 bin=$2
fail() { echo "table.sh: $*" >&2; exit 1; }
section=$(awk '/^## /{on = ($0 == "## Compatibility with glibc")} on' "$readme")
[ -n "$section" ] || fail "no section '## Compatibility with glibc' in $readme"
all_rows=$(grep -c '^| `conformance\.' "$readme")
rows=$(grep '^| `conformance\.' <<<"$section")
[ "$(grep -c . <<<"$rows")" -eq "$all_rows" ] || fail "conformance rows outside the section"
while IFS= read -r row; do
	cells=$(awk -F'|' '{n = 0; for (i = 2; i < NF; i++) if ($i ~ /[^ ]/) n++; print n}' <<<"$row")
	[ "$cells" -eq 5 ] || fail "row without five filled cells: $row"
done <<<"$rows"
ids=$(sed -n 's/^| `conformance\.\([a-z0-9_]*\)` |.*/\1/p' <<<"$rows" | sort)
dups=$(uniq -d <<<"$ids")
[ -z "$dups" ] || fail "rows twice: $dups"
cases=$("$bin" --list | sort) || fail "$bin --list failed"
missing=$(comm -13 <(echo "$ids") <(echo "$cases"))
[ -z "$missing" ] || fail "cases without a README row: $missing"
extra=$(comm -23 <(echo "$ids") <(echo "$cases"))
[ -z "$extra" ] || fail "README rows without a case: $extra"
echo "table.sh: $(grep -c . <<<"$ids") rows, one case each"
