# End-to-end tests of run.sh and the tools together (TAP via tests/lib.sh).
TEST_SCRIPTS	+= tests/build_loud.sh tests/shellcheck.sh tests/e2e_reference.sh tests/e2e_compare.sh tests/e2e_nightly.sh tests/e2e_validate.sh tests/e2e_kernel.sh tests/conform_kernel.sh tests/conform_kernel_sets.sh tests/conform_fair_kernel.sh tests/suites.sh tests/run_usage.sh tests/run_lib.sh tests/run_driver.sh tests/plot.sh

# Helpers the shell tests call (not tests themselves).
$(BUILD)/tests/tools/json-status: $(call objs,tests/tools/json-status.c)
	@mkdir -p $(@D)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@
TEST_TOOLS	+= $(BUILD)/tests/tools/json-status
$(BUILD)/tests/tools/json-get: $(call objs,tests/tools/json-get.c)
	@mkdir -p $(@D)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@
TEST_TOOLS	+= $(BUILD)/tests/tools/json-get
