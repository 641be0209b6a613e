# The reference scheduler: library (libdlbref.a), simulator, dlb-sim CLI.
REF_LIB_SRCS	:= reference/rbtree.c reference/cpudl.c reference/cpupri.c reference/opstat.c \
		   reference/sched_dl.c reference/sched_dl_mainline.c reference/sched_core.c \
		   reference/invariants.c reference/sim.c reference/sim_thread.c reference/sim_report.c \
		   reference/sim_unavail.c
LIBDLBREF	:= $(BUILD)/libdlbref.a

$(LIBDLBREF): $(call objs,$(REF_LIB_SRCS))

$(BUILD)/bin/dlb-sim: $(call objs,reference/dlb-sim.c) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-sim

$(foreach t,$(filter-out %/test_oom.c,$(wildcard reference/tests/test_*.c)),\
	$(eval $(call test_prog,$(t),$(LIBDLBREF) $(LIBDLB))))
# Out of memory: the library's allocations failed one by one (tests/fault/failalloc.h).
$(eval $(call test_prog,reference/tests/test_oom.c,$(call objs,tests/fault/failalloc.c) $(LIBDLBREF) $(LIBDLB)))
$(BUILD)/reference/tests/test_oom: ALL_LDFLAGS += $(FAILALLOC_LDFLAGS)
TEST_SCRIPTS	+= $(wildcard reference/tests/*.sh)
