# Cells of one table of a `synctrace-report --format json` document, one row
# per line, tab-separated, in the order of `keys` (space-separated). Relies
# on the report's layout: a table's "name" opens its line, each row is one
# line. Strings are printed without quotes; a missing key prints "-".
# vars: table, keys.  With keys "notes": the table's notes, one per line.
BEGIN { nk = split(keys, k, " ") }
/^ *\{"name": "/ { t = $0; sub(/^ *\{"name": "/, "", t); sub(/".*/, "", t); cur = (t == table); next }
cur && keys == "notes" && /"notes": \[/ {
	s = $0; sub(/.*"notes": \[/, "", s); sub(/\]\}?,? *$/, "", s)
	while (match(s, /"([^"\\]|\\.)*"/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
	next
}
cur && keys != "notes" && /^ *\{"/ {
	line = ""
	for (i = 1; i <= nk; i++) {
		v = "-"
		if (match($0, "\"" k[i] "\": (\"([^\"\\\\]|\\\\.)*\"|[^,}]*)")) {
			v = substr($0, RSTART + length(k[i]) + 4, RLENGTH - length(k[i]) - 4)
			if (v ~ /^"/) v = substr(v, 2, length(v) - 2)
		}
		line = line (i > 1 ? "\t" : "") v
	}
	print line
}
