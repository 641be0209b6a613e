# SPDX-License-Identifier: GPL-2.0
#
# dlbench: one non-recursive Makefile.  Each component describes itself in
# its own build.mk (COMPONENTS below); docs/design-notes.md has the map.
#
#   make                      build everything (warnings are errors)
#   make check                build and run every test; tests per component, then the last
#                             line "N passed, N failed, N skipped"
#   make bench                run the benchmarks, reported not timed (DLB_BENCH_QUICK=1: quick)
#   make install              PREFIX=/usr/local DESTDIR=
#   make CROSS_COMPILE=aarch64-linux-gnu-      (or arm-linux-gnueabihf-; see docs/cross.md)
#   make SANITIZE=address,undefined check
#   make check-all            what CI runs: check, the sanitizer check, fuzz-smoke (tests/check-all.sh)
#   make guest-x86_64 guest-aarch64   static guest binaries for qemu runs (docs/guest.md)
#   make V=1                  show the commands

CROSS_COMPILE	?=
CC		:= $(CROSS_COMPILE)gcc
AR		:= $(CROSS_COMPILE)ar
PKG_CONFIG	?= pkg-config
PREFIX		?= /usr/local
DESTDIR		?=
BINDIR		:= $(PREFIX)/bin
DATADIR		:= $(PREFIX)/share/dlbench
VERSION		:= $(shell cat VERSION 2>/dev/null || echo 0)

ifneq ($(CROSS_COMPILE),)
TRIPLET		:= $(patsubst %-,%,$(CROSS_COMPILE))
BUILD		?= build-$(TRIPLET)
SYSROOT		?= $(CURDIR)/build-sysroot/$(TRIPLET)
# Target .pc files: Debian multiarch -dev packages, plus libtracecmd
# unpacked into $(SYSROOT) by tools/cross-deps.sh (it is not Multi-Arch).
export PKG_CONFIG_LIBDIR := $(SYSROOT)/usr/lib/$(TRIPLET)/pkgconfig:/usr/lib/$(TRIPLET)/pkgconfig:/usr/share/pkgconfig
export PKG_CONFIG_SYSROOT_DIR :=
CROSS_CPPFLAGS	:= -I$(SYSROOT)/usr/include -I$(SYSROOT)/usr/include/$(TRIPLET)
CROSS_LDFLAGS	:= -L$(SYSROOT)/usr/lib/$(TRIPLET) -Wl,-rpath-link,$(SYSROOT)/usr/lib/$(TRIPLET) \
		   -Wl,-rpath-link,/usr/lib/$(TRIPLET)
else
BUILD		?= build
endif

# STATIC=1: the guest binaries (guest/build.mk: make guest-x86_64, guest-aarch64),
# static and without libtracecmd, which Debian ships without a static library:
# the guest records text from tracefs.
STATIC		?=
ifeq ($(STATIC),1)
PKGS		:= libtraceevent libtracefs json-c
PKG_STATIC	:= --static
STATIC_LDFLAGS	:= -static
ifneq ($(SANITIZE),)
$(error STATIC=1 builds the guest binaries, without sanitizers: drop SANITIZE)
endif
else
PKGS		:= libtracecmd libtraceevent libtracefs json-c
endif
PKG_CFLAGS	:= $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS	:= $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs $(PKGS) 2>/dev/null)
ifeq ($(filter deps clean distclean help,$(MAKECMDGOALS)),)
ifeq ($(PKG_LIBS),)
$(error pkg-config cannot find $(PKGS): run tools/deps.sh (as root it installs them))
endif
endif

SANITIZE	?=
ifneq ($(SANITIZE),)
SAN_FLAGS	:= -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
ifeq ($(BUILD),build)
BUILD		:= build-san
endif
# Tests run clean or not at all: first report stops the program, leaks
# count (except the libraries' own, tests/lsan.supp).
export ASAN_OPTIONS ?= halt_on_error=1:detect_leaks=1:abort_on_error=0:fast_unwind_on_malloc=0
export UBSAN_OPTIONS ?= halt_on_error=1:print_stacktrace=1
export LSAN_OPTIONS ?= suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
endif

OPT		?= -O2
WARNINGS	:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
		   -Wformat=2 -Wno-format-nonliteral -Wno-format-truncation -Wpointer-arith -Wvla -Wundef
CFLAGS		?= $(OPT) -g
ALL_CFLAGS	:= -std=gnu11 $(WARNINGS) $(CFLAGS) $(SAN_FLAGS) -fno-strict-aliasing
ALL_CPPFLAGS	:= -Iinclude -D_GNU_SOURCE -DDLB_VERSION='"$(VERSION)"' $(CROSS_CPPFLAGS) \
		   $(PKG_CFLAGS) $(CPPFLAGS)
ALL_LDFLAGS	:= $(SAN_FLAGS) $(STATIC_LDFLAGS) $(CROSS_LDFLAGS) -Wl,--as-needed $(LDFLAGS)
LDLIBS_ALL	:= $(PKG_LIBS) -lpthread -lm $(LDLIBS)
TEST_LIBS	:= $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
# A test linked with these allocates through tests/fault/failalloc.c (fault injection).
FAILALLOC_LDFLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup

ifneq ($(V),1)
Q		:= @
quiet		= @printf '  %-7s %s\n' $(1) $(2);
endif

# Filled in by the build.mk fragments.
PROGS		:=	# installed to BINDIR
TEST_PROGS	:=	# cmocka test binaries, run by make check
TEST_SCRIPTS	:=	# shell tests printing TAP, run by make check
TEST_TOOLS	:=	# helpers built for make check, not tests themselves
BENCHES		:=	# commands run by make bench
DATA		:=	# files installed under DATADIR, with their path

# The components, each a folder with a build.mk, in include order (a
# fragment may use what an earlier one defines: $(LIBDLB), $(INPUT_LIB)).
# make check fails if one of them runs no test: a rename cannot quietly
# drop a component's tests.
COMPONENTS	:= lib reference analyzer/input analyzer rt-app workloads recorder \
		   bench tests tests/contract tests/fault guest

all:

# $(call objs,SOURCES): object paths in $(BUILD) mirroring the sources.
objs = $(patsubst %.c,$(BUILD)/%.o,$(1))

# $(call test_prog,SOURCE.c,LIBS): a cmocka test binary from one file.
define test_prog
$(BUILD)/$(basename $(1)): $(call objs,$(1)) $(2)
	$$(call quiet,LINK,$$@)$$(CC) $$(ALL_LDFLAGS) $$^ $$(TEST_LIBS) $$(LDLIBS_ALL) -o $$@
TEST_PROGS += $(BUILD)/$(basename $(1))
endef

include $(addsuffix /build.mk,$(COMPONENTS))
include tests/fuzz/fuzz.mk

# The driver, run.sh, is at the top; installed, it finds beside it
# (DATADIR) the exit codes it reads and the scripts it runs.
DATA		+= plots/plot.sh plots/figures.gp tools/csv.awk tools/csv.sh farm/lava-nightly.yaml

all: $(PROGS)

# Test sources (under a tests/ folder) also see tests/dlb_test.h.
$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(call quiet,CC,$@)$(CC) $(ALL_CPPFLAGS) $(if $(findstring /tests/,/$<),-Itests) \
		$(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.a:
	@mkdir -p $(@D)
	$(call quiet,AR,$@)rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/bin/%:
	@mkdir -p $(@D)
	$(call quiet,LINK,$@)$(CC) $(ALL_LDFLAGS) $^ $(LDLIBS_ALL) -o $@

check: all $(TEST_PROGS) $(TEST_TOOLS)
	@DLB_BUILD=$(CURDIR)/$(BUILD) DLB_SRC=$(CURDIR) DLB_COMPONENTS="$(COMPONENTS)" \
		tests/harness.sh $(TEST_PROGS) $(TEST_SCRIPTS)

check-all:
	@tests/check-all.sh

# Unit tests (cmocka) of a cross build, run under qemu-user: each binary gets
# a wrapper script the harness runs.  Kernel tests are shell tests: not run.
ifneq ($(CROSS_COMPILE),)
QEMU_ARCH	:= $(if $(filter aarch64-%,$(TRIPLET)),aarch64,arm)
QEMU		?= qemu-$(QEMU_ARCH)-static -L /usr/$(TRIPLET) \
		   -E LD_LIBRARY_PATH=$(SYSROOT)/usr/lib/$(TRIPLET)
check-cross: all $(TEST_PROGS)
	@rm -rf $(BUILD)/qemu && mkdir -p $(BUILD)/qemu && for t in $(TEST_PROGS); do \
		w=$(BUILD)/qemu/$$(basename $$t).sh; \
		printf 'exec %s %s "$$@"\n' '$(QEMU)' $(CURDIR)/$$t > $$w; done
	@DLB_TEST_TIMEOUT=120 DLB_BUILD=$(CURDIR)/$(BUILD) DLB_SRC=$(CURDIR) tests/harness.sh $(BUILD)/qemu/*.sh
else
check-cross:
	@echo "check-cross: give CROSS_COMPILE=aarch64-linux-gnu- or arm-linux-gnueabihf-" >&2; exit 2
endif

bench: all
	@set -e; for b in $(BENCHES); do DLB_BUILD=$(CURDIR)/$(BUILD) DLB_SRC=$(CURDIR) $$b; done

deps:
	tools/deps.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)
	install -m 755 $(PROGS) $(DESTDIR)$(BINDIR)
	install -m 755 run.sh $(DESTDIR)$(DATADIR)/run.sh
	install -m 644 include/dlbench/exitcode.h $(DESTDIR)$(DATADIR)/exitcode.h
	$(if $(DATA),tar cf - $(DATA) | tar xf - -C $(DESTDIR)$(DATADIR))

clean:
	rm -rf $(BUILD)

distclean:
	rm -rf build build-* 

help:
	@sed -n '3,14p' Makefile

.PHONY: all check check-all check-cross bench deps install clean distclean help
.DELETE_ON_ERROR:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
