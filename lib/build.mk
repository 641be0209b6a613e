# The shared contracts: exit codes, errors, time, parameter validator,
# marker grammar, workload loader.  Everything links libdlbench.a.
LIB_SRCS	:= $(wildcard lib/*.c)
LIBDLB		:= $(BUILD)/libdlbench.a

$(LIBDLB): $(call objs,$(LIB_SRCS))

$(foreach t,$(wildcard lib/tests/test_*.c),$(eval $(call test_prog,$(t),$(LIBDLB))))
TEST_SCRIPTS	+= lib/tests/readme_exitcodes.sh lib/tests/workload_cli.sh

# dlb-workload: check workload files, dump what they mean.
$(BUILD)/bin/dlb-workload: $(call objs,lib/tools/dlb-workload.c) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-workload

# Loading time against the number of tasks (bench/loader.sh).
BENCHES		+= bench/loader.sh
