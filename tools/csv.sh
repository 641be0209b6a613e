# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Source it: csv_awk, awk with the CSV-by-column-name helpers of csv.awk.
#	csv_awk [-v VAR=VALUE]... 'PROGRAM' FILE...
# PROGRAM calls v("column") on data lines (FNR > 1); see csv.awk.
CSV_AWK=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/csv.awk
csv_awk() {
	local a=()
	while [ "$1" = -v ]; do a+=("$1" "$2"); shift 2; done
	awk "${a[@]}" -f "$CSV_AWK" -f <(printf '%s\n' "$1") "${@:2}"
}
