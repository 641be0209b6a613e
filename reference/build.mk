# The reference scheduler: library (libdlbref.a), simulator, dlb-sim CLI.
REF_LIB_SRCS	:= reference/rbtree.c reference/cpudl.c reference/cpupri.c reference/opstat.c \
		   reference/sched_dl.c reference/sched_core.c reference/invariants.c \
		   reference/sim.c reference/sim_thread.c reference/sim_report.c
LIBDLBREF	:= $(BUILD)/libdlbref.a

$(LIBDLBREF): $(call objs,$(REF_LIB_SRCS))

# dlb-sim needs the workload loader (lib/, wl_load_file): built once it is there.
ifneq ($(shell grep -l '^int wl_load_file' lib/*.c 2>/dev/null),)
$(BUILD)/bin/dlb-sim: $(call objs,reference/dlb-sim.c) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-sim
TEST_SCRIPTS	+= $(wildcard reference/tests/*.sh)
endif

$(BUILD)/bin/dlb-sim-bench: $(call objs,reference/bench.c) $(LIBDLBREF) $(LIBDLB)
BENCHES		+= $(BUILD)/bin/dlb-sim-bench
bench: $(BUILD)/bin/dlb-sim-bench

$(foreach t,$(filter-out %/test_roundtrip.c,$(wildcard reference/tests/test_*.c)),\
	$(eval $(call test_prog,$(t),$(LIBDLBREF) $(LIBDLB))))
# The contract with the analyzer: our text and schedstats through its readers.
ifneq ($(wildcard analyzer/input/text.c),)
$(eval $(call test_prog,reference/tests/test_roundtrip.c,$(LIBDLBREF) $(BUILD)/libdlbinput.a $(LIBDLB)))
endif
