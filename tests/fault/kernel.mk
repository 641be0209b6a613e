# Kernel-run fault injection (signals, trace_marker, tracefs, privileges, full disk).
TEST_SCRIPTS	+= $(filter-out tests/fault/kernel-lib.sh,$(sort $(wildcard tests/fault/kernel-*.sh)))
