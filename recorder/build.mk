# dlb-record: the recorder (a private tracefs instance around one run).
REC_SRCS	:= recorder/recorder.c recorder/readers.c
LIBREC		:= $(BUILD)/librecorder.a

$(LIBREC): $(call objs,$(REC_SRCS))

$(BUILD)/bin/dlb-record: $(call objs,recorder/record.c) $(LIBREC) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-record

$(foreach t,$(wildcard recorder/tests/test_*.c),$(eval $(call test_prog,$(t),$(LIBREC) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard recorder/tests/*.sh)
