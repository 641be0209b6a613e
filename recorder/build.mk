# dlb-record: the recorder (a private tracefs instance around one run).
REC_SRCS	:= recorder/recorder.c recorder/readers.c
LIBREC		:= $(BUILD)/librecorder.a

$(LIBREC): $(call objs,$(REC_SRCS))

$(BUILD)/bin/dlb-record: $(call objs,recorder/record.c) $(LIBREC) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-record

$(foreach t,$(wildcard recorder/tests/test_*.c),$(eval $(call test_prog,$(t),$(LIBREC) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard recorder/tests/*.sh)

# What run.sh needs beside it when installed (make install: DATADIR/run.sh).
DATA		+= $(wildcard workloads/suites/*.suite workloads/suites/*.json workloads/suites/*.thresholds) \
		   workloads/suites/README.md plots/plot.sh plots/figures.gp tools/csv.awk tools/csv.sh farm/lava-nightly.yaml
