# backends/ files (see Makefile.am)
libticklab_a_SOURCES += backends/backend.h backends/internal.h backends/timed.h backends/reads.h \
	backends/registry.c backends/util.c backends/probe.c backends/x86.c backends/barrier.c backends/posix.c \
	backends/papi.c backends/perf.c backends/sim.c backends/sim.h

check_PROGRAMS += tests/test_backend tests/test_sim
tests_test_backend_SOURCES = tests/test_backend.c tests/node_caps.h
tests_test_backend_LDADD = $(TL_LIBS)
tests_test_sim_SOURCES = tests/test_sim.c
tests_test_sim_LDADD = $(TL_LIBS)
TESTS += tests/test_backend tests/test_sim tests/test_timed_asm.sh
EXTRA_DIST += tests/test_timed_asm.sh
