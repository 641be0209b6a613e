#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The build fails loudly: in a scratch copy of the tree, a tool's source or a
# component's build.mk removed makes `make` fail (it used to drop the tool
# and its tests quietly), and the harness fails `make check` when a
# component runs no test or only skips.  make -n only: nothing is compiled.
. "${DLB_SRC:-$(dirname "$0")/..}/tests/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
plan 11

mkdir "$T/src"
for e in "$DLB_SRC"/*; do
	case ${e##*/} in build | build-*) continue ;; esac
	cp -a "$e" "$T/src/"
done
# mk ARGS...: make -n in the copy; $rc, $T/err
mk() { make -C "$T/src" -n "$@" >/dev/null 2>"$T/err"; rc=$?; }

mk all
expect_eq "the intact copy builds (make -n all)" "$rc" 0

mv "$T/src/reference/dlb-sim.c" "$T/dlb-sim.c"
mk all
check "without reference/dlb-sim.c, make all fails" [ "$rc" -ne 0 ]
check "and names what is missing" grep -q "dlb-sim" "$T/err"
mv "$T/dlb-sim.c" "$T/src/reference/dlb-sim.c"

mv "$T/src/workloads/build.mk" "$T/build.mk"
mk all
check "without workloads/build.mk, make fails" [ "$rc" -ne 0 ]
check "and names the fragment" grep -q "workloads/build.mk" "$T/err"
mv "$T/build.mk" "$T/src/workloads/build.mk"

mv "$T/src/analyzer/input/build.mk" "$T/build.mk"
mk all
check "without analyzer/input/build.mk, make fails" [ "$rc" -ne 0 ]
mv "$T/build.mk" "$T/src/analyzer/input/build.mk"

# The harness on a fake tree: lib has a passing test, rt-app a skipping one.
F=$T/fake
mkdir -p "$F/lib/tests" "$F/rt-app/tests"
printf 'echo 1..1; echo "ok 1 - fine"\n' >"$F/lib/tests/ok.sh"
printf 'echo 1..1; echo "ok 1 - kernel # SKIP needs root"\n' >"$F/rt-app/tests/skip.sh"
H=$DLB_SRC/tests/harness.sh
# harness COMPONENTS TESTS...: $rc, $T/out
harness() {
	local c=$1
	shift
	DLB_SRC=$F DLB_BUILD=$T/fb DLB_COMPONENTS=$c bash "$H" "$@" >"$T/out" 2>&1
	rc=$?
}
harness "lib" "$F/lib/tests/ok.sh"
expect_eq "harness: every component ran a test: exit 0" "$rc" 0
harness "lib workloads" "$F/lib/tests/ok.sh"
check "a component with no test fails make check" [ "$rc" -ne 0 ]
check "and is named" grep -q "workloads: no test of this component was run" "$T/out"
harness "lib rt-app" "$F/lib/tests/ok.sh" "$F/rt-app/tests/skip.sh"
check "a component whose tests all skip fails" [ "$rc" -ne 0 ]
check "and is named" grep -q "rt-app: every test of this component skipped" "$T/out"
