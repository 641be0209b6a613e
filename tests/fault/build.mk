# SPDX-License-Identifier: GPL-2.0
# tests/fault: fault-injection tests (TAP), run by make check: parser and
# file faults (*.sh), and kernel-run faults (kernel-*.sh: signals,
# trace_marker, tracefs, privileges, full disk; docs/notes/kernel-faults.md).
# kernel-lib.sh is sourced by the kernel ones, not a test.
TEST_SCRIPTS	+= $(filter-out tests/fault/kernel-%,$(wildcard tests/fault/*.sh)) \
		   $(filter-out tests/fault/kernel-lib.sh,$(sort $(wildcard tests/fault/kernel-*.sh)))
