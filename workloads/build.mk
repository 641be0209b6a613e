# workloads/: the shipped workloads and suites, and the tools about workload
# files: dlb-workload (check them, dump what they mean) and dlb-tasksetgen
# (random task sets, randfixedsum and UUniFast-discard, as rt-app JSON).
TSGEN_LIB_SRCS	:= workloads/tsgen.c

$(BUILD)/bin/dlb-workload: $(call objs,workloads/dlb-workload.c) $(LIBDLB)
$(BUILD)/bin/dlb-tasksetgen: $(call objs,workloads/dlb-tasksetgen.c $(TSGEN_LIB_SRCS)) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-workload $(BUILD)/bin/dlb-tasksetgen

TEST_SCRIPTS	+= $(sort $(wildcard workloads/tests/*.sh))
$(foreach t,$(wildcard workloads/tests/test_*.c),$(eval $(call test_prog,$(t),\
	$(call objs,$(TSGEN_LIB_SRCS)) $(LIBDLB))))

# The suites run.sh runs, installed beside it (DATADIR/workloads/suites/).
DATA		+= $(wildcard workloads/suites/*.suite workloads/suites/*.json \
		   workloads/suites/*.thresholds) workloads/suites/README.md
