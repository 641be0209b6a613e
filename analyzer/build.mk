# SPDX-License-Identifier: GPL-2.0
# analyzer/: trace + schedstats -> jobs -> metrics -> report / compare.
# The input half (trace readers, schedstat parsers) is analyzer/input/build.mk,
# included before this file: it builds $(INPUT_LIB).
ANALYZER_SRCS	:= $(filter-out analyzer/main.c,$(wildcard analyzer/*.c))
ANALYZER_LIB	:= $(BUILD)/libdlbanalyze.a

$(ANALYZER_LIB): $(call objs,$(ANALYZER_SRCS))

$(BUILD)/bin/dlb-analyze: $(call objs,analyzer/main.c) $(ANALYZER_LIB) $(INPUT_LIB) $(LIBDLBREF) $(LIBDLB)
PROGS		+= $(BUILD)/bin/dlb-analyze

$(foreach t,$(wildcard analyzer/tests/test_*.c),\
	$(eval $(call test_prog,$(t),$(ANALYZER_LIB) $(INPUT_LIB) $(LIBDLBREF) $(LIBDLB))))
TEST_SCRIPTS	+= $(wildcard analyzer/tests/*.sh)
