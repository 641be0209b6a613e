# SPDX-License-Identifier: GPL-2.0
# tests/fault: fault-injection tests (TAP), run by make check.  The kernel
# ones (tests/fault/kernel-*.sh) are listed by kernel.mk; kernel-lib.sh is
# sourced by them, not a test.
TEST_SCRIPTS	+= $(filter-out tests/fault/kernel-%,$(wildcard tests/fault/*.sh))
