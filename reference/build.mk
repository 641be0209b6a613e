# The reference scheduler: library (libdlbref.a), simulator, dlb-sim CLI.
REF_LIB_SRCS	:= reference/rbtree.c reference/cpudl.c reference/cpupri.c reference/opstat.c \
		   reference/sched_dl.c reference/sched_core.c reference/invariants.c \
		   reference/sim.c
LIBDLBREF	:= $(BUILD)/libdlbref.a

$(LIBDLBREF): $(call objs,$(REF_LIB_SRCS))

$(BUILD)/bin/dlb-sim: $(call objs,reference/dlb-sim.c) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-sim

$(foreach t,$(wildcard reference/tests/test_*.c),$(eval $(call test_prog,$(t),$(LIBDLBREF) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard reference/tests/*.sh)
