#!/usr/bin/env bash
# Merging summaries at scale (bench/README.md, "## Merge").
# usage: run.sh BUILD_DIR [N_SUMMARIES [N_CLASSES [MIN_BUCKETS]]]
#        (default 100 x 1000 x 8)
# Generates N synthetic summaries of N_CLASSES lock classes each (gen.c:
# drawn from a pool of twice as many, MIN to 5 x MIN histogram buckets per
# kind of wait and hold), then times `synctrace-report --merge` of them all (best of 5,
# wall and CPU seconds, max RSS), checks that the merge of all equals the
# merge of two halves merged, and prints the input and output sizes.
set -eu
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
n=${2:-100} classes=${3:-1000} bins=${4:-8}
report=$build/analysis/synctrace-report
dir=$(mktemp -d "${TMPDIR:-/tmp}/st-merge-bench.XXXXXX")
trap 'rm -rf "$dir"' EXIT
cc -O2 -I"$here/../../tracepoints" -o "$dir/gen" "$here/gen.c"
for i in $(seq 1 "$n"); do "$dir/gen" "$classes" "$i" "$bins" >"$dir/s$(printf %04d "$i").json"; done
best_wall= best_cpu= rss=
for r in 1 2 3 4 5; do
	/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$report" --merge "$dir"/s*.json >"$dir/all.json"
	read -r wall user sys kb <"$dir/time"
	cpu=$(echo "$user + $sys" | bc)
	if [ -z "$best_wall" ] || [ "$(echo "$wall < $best_wall" | bc)" = 1 ]; then best_wall=$wall; fi
	if [ -z "$best_cpu" ] || [ "$(echo "$cpu < $best_cpu" | bc)" = 1 ]; then best_cpu=$cpu; fi
	rss=$kb
done
half=$((n / 2))
files=("$dir"/s*.json)
"$report" --merge "${files[@]:0:$half}" >"$dir/h1.json"
"$report" --merge "${files[@]:$half}" >"$dir/h2.json"
"$report" --merge "$dir/h1.json" "$dir/h2.json" | cmp -s - "$dir/all.json" && exact=yes || exact=NO
echo "summaries: $n x $classes classes ($bins-$((5 * bins)) buckets per kind), $(du -ch "$dir"/s*.json | tail -1 | cut -f1) of JSON"
echo "merged: $(jq '.classes | length' "$dir/all.json") classes, $(du -h "$dir/all.json" | cut -f1)"
echo "merge of all: best of 5 wall ${best_wall} s, CPU ${best_cpu} s, max RSS $((rss / 1024)) MiB"
echo "merge(all) == merge(merge(first half), merge(second half)): $exact"
