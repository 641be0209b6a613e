#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/check-all.sh: what CI runs (./run.sh test, make check-all).
#
#   1. make check                              plain build (build/)
#   2. make check SANITIZE=address,undefined   ASan + UBSan + LSan (build-san/)
#   3. make fuzz-smoke                         each fuzz corpus briefly (build-fuzz/)
#
# Each part's own output is shown as it runs.  The last line adds the parts
# up: "N passed, N failed, N skipped", where each fuzz corpus counts as one
# result (passed when clean), and a part that ends without its summary line
# (build error, crash of the harness) counts as one failure.  Exit 1 if any
# part failed.  MAKE_JOBS (default nproc) is passed to the two checks;
# FUZZ_SMOKE_SECONDS to fuzz-smoke.
set -u
cd "$(dirname "$0")/.." || exit 1
jobs=${MAKE_JOBS:-$(nproc)}
pass=0 fail=0 skip=0
parts=()
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# part NAME CMD...: run it, tee its output, add its summary line.
part() {
	local name=$1 log=$tmp/$1.log start=$SECONDS rc line p f s
	shift
	echo "=== $name: $*"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -aE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -1)
	if [ -n "$line" ]; then
		read -r p _ f _ s _ <<<"${line//,/}"
	else
		# fuzz-smoke: one result per corpus line ("... ok" / "FAILED").
		p=$(grep -acE '^[a-z_]+ +[0-9]+s \.\.\..* ok$' "$log")
		f=$(grep -acE '^[a-z_]+ +[0-9]+s \.\.\. FAILED' "$log")
		s=0
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	if [ $((p + f + s)) -eq 0 ]; then
		f=1
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	parts+=("$(printf '%-10s %4d passed %3d failed %3d skipped %5ds' "$name" "$p" "$f" "$s" $((SECONDS - start)))")
}

part check make -s -j"$jobs" check
part check-san make -s -j"$jobs" check SANITIZE=address,undefined
if command -v "${FUZZ_CC:-clang-14}" >/dev/null 2>&1; then
	part fuzz make -s fuzz-smoke ${FUZZ_SMOKE_SECONDS:+FUZZ_SMOKE_SECONDS=$FUZZ_SMOKE_SECONDS}
else
	# tools/deps.sh installs clang-14 + libclang-rt-14-dev as root.
	echo "=== fuzz: skipped: ${FUZZ_CC:-clang-14} not installed (tools/deps.sh)"
	skip=$((skip + 1))
	parts+=("fuzz       skipped: ${FUZZ_CC:-clang-14} not installed")
fi

echo "=== check-all"
printf '  %s\n' "${parts[@]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
