# bench/ files (see Makefile.am)
libticklab_a_SOURCES += \
	bench/kernel.c bench/kernel.h \
	bench/kernels/kernel_ops.h bench/kernels/kernels.def bench/kernels/table.c \
	bench/kernels/empty.c bench/kernels/add.c bench/kernels/mul.c bench/kernels/fma.c \
	bench/kernels/jitter.c bench/kernels/load.c bench/kernels/div.c \
	bench/flush.c bench/flush.h \
	bench/size.c bench/size.h \
	bench/load_sizes.c bench/load_sizes.h \
	bench/topology.c bench/topology.h \
	bench/runner.c bench/runner.h \
	bench/analysis.c bench/analysis.h \
	bench/memory.c bench/memory.h \
	bench/host.c bench/host.h \
	bench/probe.c bench/probe.h \
	bench/clock_probe.c bench/ladder_probe.c bench/levels.c bench/levels.h bench/selection.c bench/selection.h bench/levels_store.c bench/levels_store.h \
	bench/estimate.c bench/estimate.h bench/noise.c bench/noise.h \
	bench/host_words.c bench/host_words.h

# Tests of bench/ (TAP).
check_PROGRAMS += tests/test_kernel tests/test_size tests/test_topology tests/test_flush \
	tests/test_runner tests/test_host_facts tests/node_caps
tests_test_kernel_SOURCES = tests/test_kernel.c
tests_test_kernel_LDADD = $(TL_LIBS)
tests_test_size_SOURCES = tests/test_size.c
tests_test_size_LDADD = $(TL_LIBS)
tests_test_host_facts_SOURCES = tests/test_host_facts.c
tests_test_host_facts_LDADD = $(TL_LIBS)
tests_node_caps_SOURCES = tests/node_caps.c tests/node_caps.h
tests_test_topology_SOURCES = tests/test_topology.c
tests_test_topology_LDADD = $(TL_LIBS)
tests_test_flush_SOURCES = tests/test_flush.c
tests_test_flush_LDADD = $(TL_LIBS)
tests_test_runner_SOURCES = tests/test_runner.c
tests_test_runner_LDADD = $(TL_LIBS)
TESTS += tests/test_div.sh
EXTRA_DIST += tests/test_div.sh
TESTS += tests/test_kernel tests/test_size tests/test_topology tests/test_host_facts tests/test_flush \
	tests/test_runner
EXTRA_DIST += tests/fixtures/sysfs-xeon6248 tests/fixtures/sysfs-epyc7742 \
	tests/fixtures/sysfs-broken tests/fixtures/hwloc-amd-zen5-bhyve-guest.xml \
	tests/fixtures/hwloc-nocache.xml tests/fixtures/hwloc-truncated.xml \
	tests/fixtures/make-topology-fixtures.sh tests/fixtures/fsroot-sysfs-caches
# the searches' measurement callback over a timer + flush
libticklab_a_SOURCES += bench/search_engine.c bench/search_engine.h bench/search_cell.c bench/search_run.c \
	bench/search_cell.h bench/search_summary.c bench/search_params.c bench/search_params.h

# Benchmarks: built by `make`, run by `make bench`; they print numbers only.
noinst_PROGRAMS += bench/bench_barrier bench/bench_flush bench/bench_rate
bench_bench_barrier_SOURCES = bench/bench_barrier.c
bench_bench_barrier_LDADD = $(TL_LIBS)
bench_bench_flush_SOURCES = bench/bench_flush.c
bench_bench_flush_LDADD = $(TL_LIBS)
bench_bench_rate_SOURCES = bench/bench_rate.c
bench_bench_rate_LDADD = $(TL_LIBS)
BENCH_RUN += bench/bench_barrier bench/bench_flush bench/bench_rate
# fast against paper (prints numbers)
noinst_PROGRAMS += bench/bench_search
bench_bench_search_SOURCES = bench/bench_search.c stats/sim_derived.h
bench_bench_search_LDADD = $(TL_LIBS)
BENCH_RUN += bench/bench_search
# stats/ reads no clock, so the benchmark of its functions lives here.
noinst_PROGRAMS += bench/bench_stats
bench_bench_stats_SOURCES = bench/bench_stats.c
bench_bench_stats_LDADD = $(TL_LIBS)
BENCH_RUN += bench/bench_stats
# the memory ladder beside an independent pointer chase
# (bench/chase_ref.c links nothing of the lab's) and the chain slopes
noinst_PROGRAMS += bench/chase_ref bench/bench_ladder
bench_chase_ref_SOURCES = bench/chase_ref.c
bench_bench_ladder_SOURCES = bench/bench_ladder.c
bench_bench_ladder_LDADD = $(TL_LIBS)
BENCH_RUN += bench/bench_ladder.sh
EXTRA_DIST += bench/bench_ladder.sh
# smallest injected D a jitter cell of n samples shows
libticklab_a_SOURCES += bench/detect.c bench/detect.h
# the fingerprint battery
libticklab_a_SOURCES += bench/fingerprint.c bench/fingerprint.h
# Kernel lists and runs of the largest accepted sizes finish (the limits and
# the hashed duplicate check; nothing asserts a speed).
TESTS += tests/test_big_inputs.sh
EXTRA_DIST += tests/test_big_inputs.sh
# Memory per sample, the pre-flight refusal and out of memory in the analysis.
TESTS += tests/test_memory.sh
EXTRA_DIST += tests/test_memory.sh
# the fleet step at 500, 2000 and 10000 nodes
BENCH_RUN += bench/bench_fleet.sh bench/bench_fleet_judge.sh
EXTRA_DIST += bench/bench_fleet.sh bench/bench_fleet_judge.sh
# run --json, report and the TUI export: peak RSS per sample at 4M and 40M
BENCH_RUN += bench/bench_memory.sh
EXTRA_DIST += bench/bench_memory.sh
# report, compare and plot over 1000-8000 distinct backends (linear: 2x a step)
BENCH_RUN += bench/bench_many_backends.sh
EXTRA_DIST += bench/bench_many_backends.sh
