# The shared contracts: exit codes, errors, time, parameter validator,
# marker grammar, workload loader.  Everything links libdlbench.a.
# Libraries only: the tools built on them live with the component they serve.
LIB_SRCS	:= $(wildcard lib/*.c)
LIBDLB		:= $(BUILD)/libdlbench.a

$(LIBDLB): $(call objs,$(LIB_SRCS))

$(foreach t,$(wildcard lib/tests/test_*.c),$(eval $(call test_prog,$(t),$(LIBDLB))))
TEST_SCRIPTS	+= lib/tests/readme_exitcodes.sh
