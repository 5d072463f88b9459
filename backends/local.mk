# backends/ files (see Makefile.am)
libticklab_a_SOURCES += backends/backend.h backends/internal.h backends/timed.h \
	backends/registry.c backends/x86.c backends/barrier.c backends/posix.c \
	backends/papi.c backends/perf.c backends/sim.c backends/sim.h
