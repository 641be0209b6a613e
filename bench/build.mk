# bench/: every benchmark (make bench), one folder per component measured,
# plus the OSPERT 2011 reproduction (bench/ospert/build.mk) and the soak run
# (bench/soak.sh, by hand: docs/notes/soak.md).  Reported, never timed tests.
include bench/ospert/build.mk

# dlb-sim-bench: what the reference costs (events/s, wall time per simulation).
$(BUILD)/bin/dlb-sim-bench: $(call objs,bench/reference/dlb-sim-bench.c) $(LIBDLBREF) $(LIBDLB)

# The input bench's yardsticks: the bare libtracecmd iteration the reader is
# compared with; fgets + strstr, the floor under a text reader, and fgets +
# sscanf, the naive text parser.
$(BUILD)/bench/input/bare_iter: $(call objs,bench/input/bare_iter.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@
$(BUILD)/bench/input/sscanf_lines: $(call objs,bench/input/sscanf_lines.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ -o $@
$(BUILD)/bench/input/strstr_lines: $(call objs,bench/input/strstr_lines.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ -o $@

# The loader bench's yardstick: json-c alone on the same file.
$(BUILD)/bench/lib/json_floor: $(call objs,bench/lib/json_floor.c)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

# Built by make check too, so that a change that breaks them is seen.
BENCH_TOOLS	:= $(BUILD)/bin/dlb-sim-bench $(BUILD)/bench/input/bare_iter \
		   $(BUILD)/bench/input/sscanf_lines $(BUILD)/bench/input/strstr_lines \
		   $(BUILD)/bench/lib/json_floor
TEST_TOOLS	+= $(BENCH_TOOLS)
bench: $(BENCH_TOOLS) $(BUILD)/analyzer/input/tests/tracestat $(BUILD)/analyzer/input/tests/widen_dat

# In this order: bench_input.sh records the trace.dat bench_analyze.sh reads.
BENCHES		+= $(BUILD)/bin/dlb-sim-bench bench/input/bench_input.sh \
		   bench/analyzer/bench_analyze.sh bench/analyzer/bench_conform.sh bench/accuracy.sh \
		   bench/lib/loader.sh bench/reference/bench_trace_write.sh

# the side-by-side timing every bench uses
TEST_SCRIPTS	+= bench/lib/tests/alternate.sh
