# SPDX-License-Identifier: GPL-2.0
# analyzer/input: trace files -> the normalized event stream (trace_input.h),
# plus the schedstat parsers (schedstat.h).
INPUT_SRCS	:= $(wildcard analyzer/input/*.c)
INPUT_LIB	:= $(BUILD)/libdlbinput.a

$(INPUT_LIB): $(call objs,$(INPUT_SRCS))

# Test helper: prints per-type event counts and the quality record of a trace
# (the tests and bench/input/bench_input.sh run it).
$(BUILD)/analyzer/input/tests/tracestat: $(call objs,analyzer/input/tests/tracestat.c) \
	$(INPUT_LIB) $(LIBDLB)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@
TEST_TOOLS	+= $(BUILD)/analyzer/input/tests/tracestat

# Test helper: a v6 trace.dat made N times as long (the memory bound's test).
$(BUILD)/analyzer/input/tests/repeat_dat: $(call objs,analyzer/input/tests/repeat_dat.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ -o $@
TEST_TOOLS	+= $(BUILD)/analyzer/input/tests/repeat_dat

$(foreach t,$(wildcard analyzer/input/tests/test_*.c),\
	$(eval $(call test_prog,$(t),$(INPUT_LIB) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard analyzer/input/tests/*.sh)

# Test helper: a trace.dat with more CPU streams than this machine has CPUs
# (copies of a v6 file's streams), for tests/parallel.sh and the bench.
$(BUILD)/analyzer/input/tests/widen_dat: $(call objs,analyzer/input/tests/widen_dat.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ -o $@
TEST_TOOLS	+= $(BUILD)/analyzer/input/tests/widen_dat
