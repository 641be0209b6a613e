# SPDX-License-Identifier: GPL-2.0
# analyzer/: trace + schedstats -> jobs -> metrics -> report / compare.
# The input half (trace readers, schedstat parsers) describes itself in
# analyzer/input.mk and builds $(INPUT_LIB); dlb-analyze links it when it exists.
-include analyzer/input.mk

ANALYZER_SRCS	:= $(filter-out analyzer/main.c analyzer/schedstat.c,$(wildcard analyzer/*.c))
ANALYZER_LIB	:= $(BUILD)/libdlbanalyze.a

$(ANALYZER_LIB): $(call objs,$(ANALYZER_SRCS))

ifneq ($(INPUT_LIB),)
$(BUILD)/bin/dlb-analyze: $(call objs,analyzer/main.c) $(ANALYZER_LIB) $(INPUT_LIB) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-analyze
TEST_SCRIPTS	+= $(wildcard analyzer/tests/*.sh)
BENCHES		+= analyzer/bench/bench_analyze.sh
endif

$(foreach t,$(wildcard analyzer/tests/test_metrics*.c analyzer/tests/test_stats*.c \
	analyzer/tests/test_report*.c analyzer/tests/test_compare*.c),\
	$(eval $(call test_prog,$(t),$(ANALYZER_LIB) $(INPUT_LIB) $(LIBDLB))))
