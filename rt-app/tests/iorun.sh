#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The iorun event (rt-app's tutorial example6): the kernel backend writes
# the bytes asked to global.io_device, a buffer (mem_buffer_size) at a
# time; 5 passes of 3000 bytes make a 15000-byte file.  An io_device that
# cannot be opened is refused before the run, named.  The reference takes
# no time for it (as for mem) and writes nothing.
. "${DLB_SRC:-$(dirname "$0")/../..}/tests/lib.sh"
plan 6
RTAPP=$BIN/dlb-rtapp
TMP=$(mktemp -d /tmp/dlb-iorun.XXXXXX)
trap 'rm -rf "$TMP"' EXIT
sed "s|IODEV|$TMP/io.out|" "$DLB_SRC/rt-app/tests/data/iorun.json" >"$TMP/w.json"
sed "s|IODEV|$TMP/no/such/dir/io.out|" "$DLB_SRC/rt-app/tests/data/iorun.json" >"$TMP/bad.json"

"$RTAPP" -q -b reference -m 1 -o "$TMP/ref" "$TMP/w.json" >"$TMP/ref.out" 2>&1
expect_eq "reference: run exits 0" "$?" 0
check "reference: writes no io_device" test ! -e "$TMP/io.out"

exec 9>/tmp/dlbench-kernel.lock
flock 9
"$RTAPP" -q -n -o "$TMP/k" "$TMP/w.json" >"$TMP/k.out" 2>&1
rc=$?
expect_eq "kernel: run exits 0 ($(head -c 300 "$TMP/k.out"))" "$rc" 0
expect_eq "kernel: io_device holds 5 x 3000 bytes" "$(stat -c %s "$TMP/io.out" 2>&1)" 15000
"$RTAPP" -q -n -o "$TMP/kb" "$TMP/bad.json" >"$TMP/kb.out" 2>&1
expect_eq "kernel: unopenable io_device: exit 3" "$?" 3
expect_eq "kernel: unopenable io_device: named" "$(cat "$TMP/kb.out")" \
	"dlb-rtapp: global.io_device: $TMP/no/such/dir/io.out: cannot open for iorun: no such file or directory"
