# SPDX-License-Identifier: GPL-2.0
# Shared by the analyzer's shell tests: TAP helpers, paths, a scratch dir.
# shellcheck shell=bash
# shellcheck disable=SC2034  # A, D, F, rc: read by the tests that source this file
. "${DLB_SRC:-$(dirname "${BASH_SOURCE[0]}")/../..}/tests/lib.sh"
A=$BIN/dlb-analyze
D=$DLB_SRC/analyzer/tests/data
F=$DLB_SRC/analyzer/tests/fixtures
T=$(mktemp -d /tmp/dlb-analyzer-test.XXXXXX)
trap 'rm -rf "$T"' EXIT

# run CMD...: stdout in $T/out, stderr in $T/err, exit code in $rc
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
