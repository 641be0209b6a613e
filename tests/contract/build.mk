# tests/contract: tests that join two components through the contract between
# them (one's output read by the other's reader, one's tool run by the
# other's test).  A component's own tests/ use only that component and lib/.
$(eval $(call test_prog,tests/contract/test_roundtrip.c,$(LIBDLBREF) $(INPUT_LIB) $(LIBDLB)))
TEST_SCRIPTS	+= $(sort $(wildcard tests/contract/*.sh))
