# dlb-tasksetgen: random task sets (randfixedsum, UUniFast-discard) as rt-app JSON.
TSGEN_LIB_SRCS	:= workloads/tsgen.c

$(BUILD)/bin/dlb-tasksetgen: $(call objs,workloads/dlb-tasksetgen.c $(TSGEN_LIB_SRCS)) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-tasksetgen

TEST_SCRIPTS	+= $(sort $(wildcard workloads/tests/*.sh))
$(foreach t,$(wildcard workloads/tests/test_*.c),$(eval $(call test_prog,$(t),\
	$(call objs,$(TSGEN_LIB_SRCS)) $(LIBDLB))))
