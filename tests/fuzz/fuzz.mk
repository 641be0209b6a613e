# SPDX-License-Identifier: GPL-2.0
# tests/fuzz: libFuzzer harnesses, one per parser (docs/notes/hardening.md).
#
#   make fuzz FUZZ_SECONDS=600    each corpus for N seconds (default 60)
#   make fuzz-smoke               each corpus briefly (FUZZ_SMOKE_SECONDS, 30), for CI,
#                                 with a fixed seed (FUZZ_SMOKE_SEED, 1) so a failure replays
#
# Everything is rebuilt with clang into $(FUZZ_BUILD) by a sub-make, with
# ASan + UBSan and libFuzzer's coverage; the committed corpora under
# tests/fuzz/corpus/<corpus>/ are read, new finds go to $(FUZZ_BUILD)/corpus/.
FUZZ_CC		?= clang-14
FUZZ_BUILD	:= build-fuzz
FUZZ_SECONDS	?= 60
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_SMOKE_SEED	?= 1
FUZZ_HARNESSES	:= workload marker schedstat trace
FUZZ_BINS	:= $(patsubst %,$(FUZZ_BUILD)/fuzz/%,$(FUZZ_HARNESSES))

ifeq ($(BUILD),$(FUZZ_BUILD))
$(FUZZ_BUILD)/fuzz/%: $(FUZZ_BUILD)/tests/fuzz/%.o $(INPUT_LIB) $(LIBDLB)
	@mkdir -p $(@D)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer $^ $(LDLIBS_ALL) -o $@
endif

fuzz-build:
	@$(MAKE) --no-print-directory CC=$(FUZZ_CC) BUILD=$(FUZZ_BUILD) \
		SANITIZE=fuzzer-no-link,address,undefined \
		CFLAGS="-O1 -g -Wno-unknown-warning-option" $(FUZZ_BINS)

fuzz: fuzz-build
	@tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_BUILD)

fuzz-smoke: fuzz-build
	@FUZZ_SEED=$(FUZZ_SMOKE_SEED) tests/fuzz/run.sh $(FUZZ_SMOKE_SECONDS) $(FUZZ_BUILD)

.PHONY: fuzz fuzz-build fuzz-smoke
