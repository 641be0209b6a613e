# Kernel-run fault injection (signals, trace_marker, tracefs, privileges, full disk).
TEST_SCRIPTS	+= $(sort $(wildcard tests/fault/kernel-*.sh))
