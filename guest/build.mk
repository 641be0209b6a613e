# Guest runs under qemu (guest/run-guest.sh, docs/guest.md): the binaries the
# initramfs carries, static and without sanitizers, one build folder per
# guest architecture.  Cross builds need tools/cross-deps.sh first.
GUEST_ARCHES	:= x86_64 aarch64
GUEST_BINS	:= dlb-rtapp dlb-record
HOST_ARCH	:= $(shell uname -m)

# $(call guest_cross,ARCH): the CROSS_COMPILE prefix for ARCH on this host
guest_cross = $(if $(filter $(1),$(HOST_ARCH)),,$(1)-linux-gnu-)

$(addprefix guest-,$(GUEST_ARCHES)): guest-%:
	$(Q)$(MAKE) --no-print-directory STATIC=1 SANITIZE= BUILD=build-guest-$* \
		CROSS_COMPILE=$(call guest_cross,$*) $(addprefix build-guest-$*/bin/,$(GUEST_BINS))

.PHONY: $(addprefix guest-,$(GUEST_ARCHES))

TEST_SCRIPTS	+= guest/tests/bad_input.sh guest/tests/boot.sh guest/tests/validate.sh guest/tests/ospert.sh \
		  guest/tests/cpuset.sh guest/tests/taskgroup.sh guest/tests/refusal.sh \
		  guest/tests/conform_sets.sh
