# SPDX-License-Identifier: GPL-2.0
# analyzer/input: trace files -> the normalized event stream (trace_input.h),
# plus the schedstat parsers.  Included from analyzer/build.mk.
INPUT_SRCS	:= $(wildcard analyzer/input/*.c) analyzer/schedstat.c
INPUT_LIB	:= $(BUILD)/libdlbinput.a

$(INPUT_LIB): $(call objs,$(INPUT_SRCS))

# Test helper: prints per-type event counts and the quality record of a trace.
$(BUILD)/analyzer/input/tests/tracestat: $(call objs,analyzer/input/tests/tracestat.c) \
	$(INPUT_LIB) $(LIBDLB)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

# Bench helper: the bare libtracecmd iteration the reader is compared with.
$(BUILD)/analyzer/input/tests/bare_iter: $(call objs,analyzer/input/tests/bare_iter.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

# Bench yardstick: fgets + sscanf, the naive text parser.
$(BUILD)/analyzer/input/bench/sscanf_lines: $(call objs,analyzer/input/bench/sscanf_lines.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ -o $@

INPUT_HELPERS	:= $(BUILD)/analyzer/input/tests/tracestat $(BUILD)/analyzer/input/tests/bare_iter \
		   $(BUILD)/analyzer/input/bench/sscanf_lines
check: $(INPUT_HELPERS)
bench: $(INPUT_HELPERS)

$(foreach t,$(wildcard analyzer/input/tests/test_*.c),\
	$(eval $(call test_prog,$(t),$(INPUT_LIB) $(LIBDLB))))
$(foreach t,$(wildcard analyzer/tests/test_schedstat*.c),\
	$(eval $(call test_prog,$(t),$(INPUT_LIB) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard analyzer/input/tests/*.sh)
BENCHES		+= analyzer/input/bench/bench_input.sh
