# Charts for bench/run.sh, as standalone SVG (no external tools).
#   awk -v type=bar  -v title=T -v ylabel=Y [-v refline=Y0] -f svg.awk  < group\tseries\tvalue\tlo\thi
#   awk -v type=line -v title=T -v xlabel=X -v ylabel=Y -f svg.awk  < series\tx\ty\tlo\thi
# Bars are grouped by the first column, one colour per series, with a
# min-max whisker; lines are one curve per series, with min-max whiskers.
# Series and groups keep their order of first appearance.
BEGIN {
	FS = "\t"
	W = 960; H = 480; L = 80; R = 200; T = 50; B = (type == "bar") ? 120 : 60
	split("#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf", pal, " ")
}
function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); return s }
function num(v) { return (v == "" || v == "nan" || v == "-") ? -1 : v + 0 }
function nice(m,   e, f) {
	if (m <= 0) return 1
	e = 10 ^ int(log(m / 5) / log(10) - (m < 5 ? 1 : 0)); f = m / 5 / e
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e
}
function fmt(v) {
	if (v >= 1e9) return sprintf("%gG", v / 1e9)
	if (v >= 1e6) return sprintf("%gM", v / 1e6)
	if (v >= 1e3) return sprintf("%gk", v / 1e3)
	return sprintf("%g", v)
}
{
	if (type == "bar") { g = $1; s = $2; v = num($3); lo = num($4); hi = num($5); x = 0 }
	else { s = $1; x = $2 + 0; v = num($3); lo = num($4); hi = num($5); g = x }
	if (!(g in gi)) { gi[g] = ++ng; gname[ng] = g }
	if (!(s in si)) { si[s] = ++ns; sname[ns] = s }
	k = gi[g] SUBSEP si[s]
	val[k] = v; vlo[k] = lo; vhi[k] = hi; xval[gi[g]] = x
	if (v > ymax) ymax = v
	if (hi > ymax) ymax = hi
	if (type == "line") { if (ng == 1 || x < xmin) xmin = x; if (x > xmax) xmax = x }
}
END {
	step = nice(ymax); top = step * (int(ymax / step) + 1)
	pw = W - L - R; ph = H - T - B
	printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n", W, H, W, H
	printf "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
	printf "<text x=\"%d\" y=\"24\" font-size=\"16\" font-weight=\"bold\">%s</text>\n", L, esc(title)
	for (y = 0; y <= top + step / 2; y += step) {
		py = T + ph - y / top * ph
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", L, L + pw, py, py
		printf "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", L - 6, py + 4, fmt(y)
	}
	printf "<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", T + ph / 2, esc(ylabel)
	if (refline != "" && refline <= top) {
		py = T + ph - refline / top * ph
		printf "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n", L, L + pw, py, py
	}
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, L + pw, T + ph, T + ph
	printf "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", L, L, T, T + ph
	if (type == "bar") {
		gw = pw / ng; bw = gw * 0.8 / ns
		for (i = 1; i <= ng; i++) {
			cx = L + (i - 0.5) * gw
			printf "<text transform=\"translate(%.1f,%d) rotate(-30)\" text-anchor=\"end\">%s</text>\n", cx, T + ph + 14, esc(gname[i])
			for (j = 1; j <= ns; j++) {
				k = i SUBSEP j
				if (!(k in val) || val[k] < 0) continue
				bx = L + (i - 1) * gw + gw * 0.1 + (j - 1) * bw
				bh = val[k] / top * ph
				printf "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s, %s: %s</title></rect>\n", bx, T + ph - bh, bw * 0.95, bh, pal[(j - 1) % 10 + 1], esc(gname[i]), esc(sname[j]), val[k]
				if (vlo[k] >= 0 && vhi[k] >= 0) {
					mx = bx + bw * 0.475
					printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", mx, mx, T + ph - vlo[k] / top * ph, T + ph - vhi[k] / top * ph
				}
			}
		}
	} else {
		span = (xmax > xmin) ? xmax - xmin : 1
		for (i = 1; i <= ng; i++) {
			px = L + (xval[i] - xmin) / span * pw
			printf "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", px, T + ph + 16, xval[i]
		}
		printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", L + pw / 2, T + ph + 40, esc(xlabel)
		for (j = 1; j <= ns; j++) {
			c = pal[(j - 1) % 10 + 1]; pts = ""
			dash = (sname[j] ~ /pinned/) ? " stroke-dasharray=\"6 4\"" : ""
			for (i = 1; i <= ng; i++) {
				k = i SUBSEP j
				if (!(k in val) || val[k] < 0) continue
				px = L + (xval[i] - xmin) / span * pw
				pts = pts sprintf("%.1f,%.1f ", px, T + ph - val[k] / top * ph)
				printf "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s, %s: %s</title></circle>\n", px, T + ph - val[k] / top * ph, c, esc(sname[j]), xval[i], val[k]
				if (vlo[k] >= 0 && vhi[k] >= 0)
					printf "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-opacity=\"0.5\"/>\n", px, px, T + ph - vlo[k] / top * ph, T + ph - vhi[k] / top * ph, c
			}
			printf "<polyline points=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", pts, c, dash
		}
	}
	for (j = 1; j <= ns; j++) {
		ly = T + (j - 1) * 18
		printf "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n", L + pw + 14, ly, pal[(j - 1) % 10 + 1]
		printf "<text x=\"%d\" y=\"%d\">%s</text>\n", L + pw + 32, ly + 10, esc(sname[j])
	}
	print "</svg>"
}
