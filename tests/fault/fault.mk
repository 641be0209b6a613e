# SPDX-License-Identifier: GPL-2.0
# tests/fault: fault-injection tests (TAP), run by make check.
TEST_SCRIPTS	+= $(wildcard tests/fault/*.sh)
