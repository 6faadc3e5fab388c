# Medians of one figure per (workload, mode), and paired ratios to glibc.
# input (bench/run.sh raw rows): label, mode, repeat, wall s, discarded, output
# vars: key (a key=value of the output, "wall", or cpu_per_op:RATE_KEY or
# cpu_per_op/COUNT_KEY: CPU seconds per operation), inv (non-empty: lower is
# better, the ratio is glibc's value over the mode's)
# output: label, mode, n, median, min, max, ratio median, min, max
function med(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# the value of key=value in a run's output, "" when absent
function fig(o, k) {
	return match(" " o " ", " " k "=[-0-9.e+]+ ") ? substr(" " o " ", RSTART + length(k) + 2, RLENGTH - length(k) - 3) : ""
}
BEGIN { FS = "\t" }
{
	if (key == "wall") v = $4
	else if (key ~ /^cpu_per_op[:\/]/) {
		# CPU seconds per operation: cpu_per_op:RATE (operations per second
		# of the workload's own seconds=, else of the process's wall_s) or
		# cpu_per_op/COUNT (operations)
		if ((c = fig($6, "cpu_s")) == "" || (n = fig($6, substr(key, 12))) == "" || n <= 0) next
		if ((w = fig($6, "seconds")) == "" || w <= 0) w = fig($6, "wall_s")
		v = substr(key, 11, 1) == "/" ? c / n : (w > 0 ? c / (n * w) : "")
		if (v == "") next
	} else if ((v = fig($6, key)) == "") next
	if (!($1 in li)) { li[$1] = ++nl; lname[nl] = $1 }
	if (!(($1, $2) in seen)) { seen[$1, $2] = 1; nm[$1]++; mname[$1, nm[$1]] = $2 }
	val[$1, $2, $3] = v + 0
	rep[$1, $2, ++cnt[$1, $2]] = $3
}
END {
	for (i = 1; i <= nl; i++) {
		l = lname[i]
		for (j = 1; j <= nm[l]; j++) {
			m = mname[l, j]; n = cnt[l, m]; r = 0
			delete a; delete b
			for (k = 1; k <= n; k++) {
				a[k] = val[l, m, rep[l, m, k]]
				# a pair with a zero on the divided side has no ratio (a
				# consumer that never waited has 0 wakeups); awk would stop
				# at the division and lose every row after it
				if ((l, "glibc", rep[l, m, k]) in val) {
					g = val[l, "glibc", rep[l, m, k]]
					if (inv ? a[k] > 0 : g > 0) b[++r] = inv ? g / a[k] : a[k] / g
				}
			}
			md = med(a, n); mn = a[1]; mx = a[n]
			printf "%s\t%s\t%d\t%.6g\t%.6g\t%.6g", l, m, n, md, mn, mx
			if (r && m != "glibc") { rm = med(b, r); printf "\t%.3f\t%.3f\t%.3f", rm, b[1], b[r] }
			printf "\n"
		}
	}
}
