#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# dlbench driver (bash, no Python).  ./run.sh --help for the commands.
set -u
DLB_SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$DLB_SRC" || exit 3

usage() {
	cat <<'USAGE'
usage: ./run.sh [COMMAND] [ARGS]

  (none)     bootstrap dependencies, build, run the default suite
  test       bootstrap dependencies, build, run every test (make check)
  deps       install missing Debian packages (root) or print the command
  help       this text
USAGE
}

bootstrap() {
	tools/deps.sh || exit $?
	make -s -j"$(nproc)" all || exit 3
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
test)	bootstrap; exec make -s -j"$(nproc)" check ;;
deps)	exec tools/deps.sh "$@" ;;
help|-h|--help) usage ;;
"")	bootstrap; exec make -s check ;;
*)	echo "run.sh: unknown command '$cmd'" >&2; usage >&2; exit 2 ;;
esac
