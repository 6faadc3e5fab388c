#!/usr/bin/env bash
# Paired benchmark runs: each workload against glibc and synctrace.
#
# usage: run.sh BUILD_DIR [REPEATS]   (from `./synctrace.sh bench`, which
#        starts a private LTTng session daemon for the traced modes)
#
# Modes, alternated within every repeat so machine drift hits all alike:
#   glibc       the workload as built
#   preload     LD_PRELOAD=libsynctrace.so, no tracing
#   contention  preloaded with the probes, a session recording synctrace_*
#               at the default (contention) level
#   full        the same with SYNCTRACE_LEVEL=full
# A workload prints "result: key=value ..."; the first key is the figure
# compared (higher is better). Printed: the median per mode, and the
# median, min and max of the per-repeat ratios to glibc.
set -u
build=$1
reps=${2:-5}
lib=$build/libsynctrace.so
tp=$build/libsynctrace-tp.so
results=${ST_BENCH_RESULTS:-$build/bench-results}
mkdir -p "$results"

# name|command...
workloads=(
	"mutex 1 thread, empty|$build/bench/bench_mutex 1 0 0.5"
	"mutex 1 thread, 200ns|$build/bench/bench_mutex 1 200 0.5"
	"mutex 2 threads, empty|$build/bench/bench_mutex 2 0 0.5"
	"mutex 2 threads, 200ns|$build/bench/bench_mutex 2 200 0.5"
	"mutex 4 threads, empty|$build/bench/bench_mutex 4 0 0.5"
	"mutex 4 threads, 200ns|$build/bench/bench_mutex 4 200 0.5"
)
if [ -n "${ST_BENCH_EXTRA:-}" ]; then
	while IFS= read -r w; do [ -n "$w" ] && workloads+=("$w"); done <"$ST_BENCH_EXTRA"
fi

run_mode() { # mode command... → the primary figure
	local mode=$1
	shift
	local out
	case $mode in
	glibc) out=$("$@") ;;
	preload) out=$(LD_PRELOAD=$lib "$@") ;;
	contention | full)
		local s="bench-$$-$RANDOM" dir
		dir=$(mktemp -d)
		lttng create "$s" --output="$dir" >/dev/null
		lttng enable-channel -u -s "$s" --subbuf-size=8M --num-subbuf=16 chan >/dev/null
		lttng enable-event -u -s "$s" -c chan 'synctrace_*' >/dev/null
		lttng start "$s" >/dev/null
		if [ "$mode" = full ]; then
			out=$(SYNCTRACE_LEVEL=full LD_PRELOAD="$lib $tp" "$@")
		else
			out=$(LD_PRELOAD="$lib $tp" "$@")
		fi
		lttng destroy "$s" >/dev/null
		rm -rf "$dir"
		;;
	esac
	sed -n 's/^result: \([a-z_]*\)=\([0-9.e+-]*\).*/\2/p' <<<"$out" | head -1
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

modes=(glibc preload contention full)
printf '%-28s %12s %22s %22s %22s\n' workload glibc "preload/glibc" "contention/glibc" "full/glibc"
json="$results/results.json"
echo "[" >"$json"
first=1
for w in "${workloads[@]}"; do
	name=${w%%|*}
	cmd=${w#*|}
	declare -A vals=()
	for ((r = 0; r < reps; r++)); do
		for m in "${modes[@]}"; do
			# shellcheck disable=SC2086
			vals[$m]+="$(run_mode "$m" $cmd) "
		done
	done
	line=$(printf '%-28s' "$name")
	g_med=$(tr ' ' '\n' <<<"${vals[glibc]}" | grep . | median)
	line+=$(printf ' %12.0f' "$g_med")
	entry="{\"workload\": \"$name\", \"glibc_median\": $g_med"
	for m in preload contention full; do
		read -ra gs <<<"${vals[glibc]}"
		read -ra ms <<<"${vals[$m]}"
		ratios=$(for ((i = 0; i < ${#gs[@]}; i++)); do awk -v a="${ms[$i]}" -v b="${gs[$i]}" 'BEGIN {if (b > 0) printf "%.4f\n", a / b}'; done)
		med=$(median <<<"$ratios")
		mn=$(sort -g <<<"$ratios" | head -1)
		mx=$(sort -g <<<"$ratios" | tail -1)
		line+=$(printf ' %8.2fx [%.2f-%.2f]' "$med" "$mn" "$mx")
		entry+=", \"${m}_ratio_median\": $med, \"${m}_ratio_min\": $mn, \"${m}_ratio_max\": $mx"
	done
	echo "$line"
	[ $first -eq 1 ] || echo "," >>"$json"
	first=0
	echo "$entry}" >>"$json"
	unset vals
done
echo "]" >>"$json"
echo "(ratios: synctrace's figure over glibc's from paired runs, median [min-max] of $reps; higher is faster)"
echo "results: $json"
