# dlb-ospert: cost of set/find in cpudl, the linear scan and cpupri on the
# reference (the OSPERT 2011 figures); bench/ospert/run.sh sweeps it.
$(BUILD)/bin/dlb-ospert: $(call objs,bench/ospert/dlb-ospert.c) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-ospert
TEST_SCRIPTS	+= bench/ospert/tests/ospert.sh
