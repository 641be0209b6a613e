# dlb-rtapp: the workload generator (kernel and reference backends).
RTAPP_SRCS	:= $(wildcard rt-app/*.c)

$(BUILD)/bin/dlb-rtapp: $(call objs,$(RTAPP_SRCS)) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-rtapp

TEST_SCRIPTS	+= $(sort $(wildcard rt-app/tests/*.sh))
$(foreach t,$(wildcard rt-app/tests/test_*.c),$(eval $(call test_prog,$(t),\
	$(call objs,rt-app/sched.c rt-app/calib.c rt-app/membind.c) $(LIBDLB))))

# An LD_PRELOAD probe of the real-time path, for rt-app/tests/rtpath.sh.
$(BUILD)/tests/tools/rtpath.so: rt-app/tests/rtpath.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(ALL_CPPFLAGS) $(filter-out $(SAN_FLAGS),$(ALL_CFLAGS)) \
		-fPIC -shared $< -o $@ -ldl
TEST_TOOLS	+= $(BUILD)/tests/tools/rtpath.so
