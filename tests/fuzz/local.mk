# libFuzzer harnesses: the size, kernel, sim-id, theme and
# results-reader parsers, stats_histogram and the recorded-chase reader. Built and run by `make fuzz`
# in a tree configured with CC=clang --enable-fuzz (the whole library is then
# instrumented with ASan/UBSan and fuzzer coverage); never part of `make test`.
FUZZ_NAMES = size kernel sim_id theme results histogram files fleet ladder
FUZZ_TARGETS = tests/fuzz/fuzz_size tests/fuzz/fuzz_kernel tests/fuzz/fuzz_sim_id \
	tests/fuzz/fuzz_theme tests/fuzz/fuzz_results tests/fuzz/fuzz_histogram tests/fuzz/fuzz_files \
	tests/fuzz/fuzz_fleet tests/fuzz/fuzz_ladder
EXTRA_PROGRAMS = $(FUZZ_TARGETS)
FUZZ_LD = -fsanitize=fuzzer,address,undefined
tests_fuzz_fuzz_size_SOURCES = tests/fuzz/fuzz_size.c
tests_fuzz_fuzz_size_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_size_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_kernel_SOURCES = tests/fuzz/fuzz_kernel.c
tests_fuzz_fuzz_kernel_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_kernel_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_sim_id_SOURCES = tests/fuzz/fuzz_sim_id.c
tests_fuzz_fuzz_sim_id_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_sim_id_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_theme_SOURCES = tests/fuzz/fuzz_theme.c
tests_fuzz_fuzz_theme_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_theme_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_results_SOURCES = tests/fuzz/fuzz_results.c
tests_fuzz_fuzz_results_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_results_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_histogram_SOURCES = tests/fuzz/fuzz_histogram.c
tests_fuzz_fuzz_histogram_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_histogram_LDFLAGS = $(FUZZ_LD)
# the shared reader and the run, search and fingerprint loaders
tests_fuzz_fuzz_files_SOURCES = tests/fuzz/fuzz_files.c
tests_fuzz_fuzz_files_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_files_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_fleet_SOURCES = tests/fuzz/fuzz_fleet.c
tests_fuzz_fuzz_fleet_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_fleet_LDFLAGS = $(FUZZ_LD)
tests_fuzz_fuzz_ladder_SOURCES = tests/fuzz/fuzz_ladder.c
tests_fuzz_fuzz_ladder_LDADD = $(TL_LIBS)
tests_fuzz_fuzz_ladder_LDFLAGS = $(FUZZ_LD)
EXTRA_DIST += tests/fuzz/corpus tests/fuzz/run.sh
CLEANFILES += $(FUZZ_TARGETS)

# FUZZ_SECONDS per target (default 30); fails on any crash, leak, sanitizer
# report or timeout, and prints each target's executions.
FUZZ_SECONDS = 30
fuzz:
if TL_FUZZ
	@$(MAKE) $(AM_MAKEFLAGS) $(FUZZ_TARGETS)
	@$(SHELL) $(top_srcdir)/tests/fuzz/run.sh $(top_srcdir)/tests/fuzz/corpus $(FUZZ_SECONDS) \
		$(FUZZ_NAMES)
else
	@echo "make fuzz needs clang with libFuzzer: ./configure CC=clang --enable-fuzz" >&2; exit 1
endif
.PHONY: fuzz
