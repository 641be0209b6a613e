# dlb-rtapp: the workload generator (kernel and reference backends).
RTAPP_SRCS	:= $(wildcard rt-app/*.c)

$(BUILD)/bin/dlb-rtapp: $(call objs,$(RTAPP_SRCS)) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-rtapp

TEST_SCRIPTS	+= $(sort $(wildcard rt-app/tests/*.sh))
$(foreach t,$(wildcard rt-app/tests/test_*.c),$(eval $(call test_prog,$(t),\
	$(call objs,rt-app/sched.c rt-app/calib.c rt-app/membind.c) $(LIBDLB))))
