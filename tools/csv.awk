# SPDX-License-Identifier: GPL-2.0
#
# CSV columns by header name, for every script that reads our CSV files
# (jobs.csv, costs.csv, ...): a column's number is never written down, so a
# column added or moved cannot silently shift what a script reads.
#
#	awk -f "$DLB_SRC/tools/csv.awk" -f <(printf '%s' 'PROGRAM') FILE.csv
#	(or the csv_awk function of tests/lib.sh and plots/plot.sh)
#
# In PROGRAM, on each data line (FNR > 1) of a CSV file:
#	v("name")	the field of column "name", unquoted ("a,b" and "a""b" as
#			the analyzer writes them); a missing column stops the
#			program with exit 2 and one line on stderr naming it
#	has("name")	whether the file has that column
# The header line itself (FNR == 1) is read here; programs skip it with
# FNR > 1.  Files that are not CSV (FNR == NR on a space-separated table,
# say) may be read beside, as long as PROGRAM does not call v() on them.

# Split @line into out[1..n] (RFC 4180 quoting); returns n.
function csv_split(line, out,    n, i, c, f, q, len) {
	if (index(line, "\"") == 0)
		return split(line, out, ",")
	n = 0; f = ""; q = 0; len = length(line)
	for (i = 1; i <= len; i++) {
		c = substr(line, i, 1)
		if (q) {
			if (c == "\"") {
				if (substr(line, i + 1, 1) == "\"") { f = f "\""; i++ }
				else q = 0
			} else f = f c
		} else if (c == "\"") q = 1
		else if (c == ",") { out[++n] = f; f = "" }
		else f = f c
	}
	out[++n] = f
	return n
}

function has(name) { return name in _csv_col }

function v(name) {
	if (!(name in _csv_col)) {
		printf "%s: no column '%s' in its header\n", FILENAME, name > "/dev/stderr"
		_csv_bad = 1
		exit 2
	}
	if (_csv_line != FNR SUBSEP FILENAME) {
		split("", _csv_f)
		csv_split($0, _csv_f)
		_csv_line = FNR SUBSEP FILENAME
	}
	return _csv_f[_csv_col[name]]
}

FNR == 1 {
	sub(/\r$/, "")
	split("", _csv_col)
	_csv_n = csv_split($0, _csv_h)
	for (_csv_i = 1; _csv_i <= _csv_n; _csv_i++)
		_csv_col[_csv_h[_csv_i]] = _csv_i
}
