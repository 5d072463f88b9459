# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
# Independent numpy/scikit-learn re-analysis of a run's JSON.
TESTS += tests/test_reference_run.sh
EXTRA_DIST += tests/test_reference_run.sh tests/reference/check_run.py
# The OS-noise filter over six seeds on a real timer.
TESTS += tests/test_filter_seeds.sh
EXTRA_DIST += tests/test_filter_seeds.sh
# The injected shift on a real timer: D x the node's ns per ADD, either P.
TESTS += tests/test_jitter_tsc.sh
EXTRA_DIST += tests/test_jitter_tsc.sh
TESTS += tests/test_jitter_cover.sh
EXTRA_DIST += tests/test_jitter_cover.sh
# What the output writer replaces and when it fails.
TESTS += tests/test_output_targets.sh tests/test_layers.sh
EXTRA_DIST += tests/test_output_targets.sh tests/test_layers.sh
TESTS += tests/test_output_failures.sh
# what interrupted each sample (perf records, /proc deltas)
TESTS += tests/test_noise.sh
EXTRA_DIST += tests/test_noise.sh
# the same at perf_event_paranoid 3 (and perf refused by seccomp), unprivileged and as root
TESTS += tests/test_noise_paranoid.sh
EXTRA_DIST += tests/test_noise_paranoid.sh
EXTRA_DIST += tests/test_output_failures.sh
# fingerprint and fleet on the command line; a private
# three-node Slurm cluster with a real noisy neighbour on one node
TESTS += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
EXTRA_DIST += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
# the fleet flags samples by effect beyond the nodes' own noise, no node's count weighing on the others
TESTS += tests/test_fleet_effect.sh
EXTRA_DIST += tests/test_fleet_effect.sh
# a fingerprint's noise rates; the fleet naming a noisy fixture node's cause
TESTS += tests/test_fleet_noise.sh
EXTRA_DIST += tests/test_fleet_noise.sh tests/fixtures/fleet-noise/make-noise-fixtures.sh \
	tests/fixtures/fleet-noise/q1.json.xz tests/fixtures/fleet-noise/q2.json.xz \
	tests/fixtures/fleet-noise/q3.json.xz tests/fixtures/fleet-noise/q4.json.xz \
	tests/fixtures/fleet-noise/q5.json.xz tests/fixtures/fleet-noise/n7.json.xz
EXTRA_DIST += contrib/fleet.sbatch contrib/check_ticklab_fleet contrib/fleet-array.sbatch \
	contrib/fleet-at-scale.md
include tests/fuzz/local.mk
# the shift on a lattice clock (sim pair 2 ns apart over
# seeds, p-values against scipy) and one clock on one node compared in ticks
TESTS += tests/test_compare_lattice.sh
EXTRA_DIST += tests/test_compare_lattice.sh
# a search whose reference found t_min in 1 of 3 repeats, replayed
TESTS += tests/test_tui_search.sh
EXTRA_DIST += tests/test_tui_search.sh tests/fixtures/search-tmin-1of3.json tests/fixtures/search-8rows.json \
	tests/golden/search-1of3-80x24.txt tests/golden/search-1of3-200x50.txt \
	tests/golden/search-8rows-last-80x24.txt tests/golden/search-8rows-last-120x35.txt \
	tests/golden/search-8rows-last-200x50.txt
check_PROGRAMS += tests/test_search_status
tests_test_search_status_SOURCES = tests/test_search_status.c tests/tap.h
tests_test_search_status_LDADD = $(TL_LIBS)
TESTS += tests/test_search_status

check_PROGRAMS += tests/test_search_relaxed
tests_test_search_relaxed_SOURCES = tests/test_search_relaxed.c tests/tap.h
tests_test_search_relaxed_LDADD = $(TL_LIBS)
TESTS += tests/test_search_relaxed
# the ETA a search shows, on a simulated session; and the plan both faces build
check_PROGRAMS += tests/test_search_eta
tests_test_search_eta_SOURCES = tests/test_search_eta.c tests/tap.h
tests_test_search_eta_LDADD = $(TL_LIBS)
TESTS += tests/test_search_eta
# --budget is the whole search's wall time, on this node's real timer
TESTS += tests/test_search_budget.sh
EXTRA_DIST += tests/test_search_budget.sh
# The memory levels a chase sees: the step finder and the naming
# beside the reported sizes, on the chases recorded on the nodes the lab met.
check_PROGRAMS += tests/test_levels
tests_test_levels_SOURCES = tests/test_levels.c tests/tap.h
tests_test_levels_LDADD = $(TL_LIBS)
TESTS += tests/test_levels
check_PROGRAMS += tests/test_selection
tests_test_selection_SOURCES = tests/test_selection.c tests/tap.h
tests_test_selection_LDADD = $(TL_LIBS)
TESTS += tests/test_selection
EXTRA_DIST += tests/fixtures/hwloc-amd-zen3-kvm-guest.xml tests/fixtures/chase/amd-zen3-kvm-guest.txt \
	tests/fixtures/chase/amd-zen5-bhyve-guest.txt tests/fixtures/chase/amd-zen5-bhyve-guest-busy.txt \
	tests/fixtures/hwloc-intel-xeon-kvm-guest.xml tests/fixtures/chase/intel-xeon-kvm-guest.txt
# The node's levels record: one chase, the same 4xL3 in every run after it.
TESTS += tests/test_levels_store.sh
EXTRA_DIST += tests/test_levels_store.sh
# In the TUI: NxLk sized by the measured levels, the long-run ask.
TESTS += tests/test_tui_levels.sh
TESTS += tests/test_tui_room.sh
EXTRA_DIST += tests/test_tui_room.sh tests/screen_contrast.py
EXTRA_DIST += tests/test_tui_levels.sh tests/golden/long-run-80x24.txt
# One reader per file kind, the same refusals in report, plot and the TUI.
TESTS += tests/test_file_kinds.sh
EXTRA_DIST += tests/test_file_kinds.sh
# every kind of file, written from this node's real timers and sim, read
# back by every reader that takes it with the numbers written
TESTS += tests/test_roundtrip.sh
EXTRA_DIST += tests/test_roundtrip.sh
# every screen at 80x24, 120x35 and 200x50 with no message cut mid-word
TESTS += tests/test_screen_walk.sh
EXTRA_DIST += tests/test_screen_walk.sh tests/screen_walk.py tests/screen_catalogue.py
# README, ticklab(1), each --help and a real run agree
TESTS += tests/test_doc_consistency.sh
EXTRA_DIST += tests/test_doc_consistency.sh
# keys answered during a long-flush run; the TUI's selection flags and --start
TESTS += tests/test_tui_answers.sh
EXTRA_DIST += tests/test_tui_answers.sh
TESTS += tests/test_tui_start.sh
EXTRA_DIST += tests/test_tui_start.sh
# escaping by destination: terminal, Markdown, CSV, drawn text
check_PROGRAMS += tests/test_escape
tests_test_escape_SOURCES = tests/test_escape.c tests/tap.h
tests_test_escape_LDADD = $(TL_LIBS)
TESTS += tests/test_escape
TESTS += tests/test_escape_outputs.sh
EXTRA_DIST += tests/test_escape_outputs.sh
# A dropped SSH connection in every phase (a real sshd on loopback).
TESTS += tests/test_hangup_ssh.sh
EXTRA_DIST += tests/test_hangup_ssh.sh tests/hangup_ssh.py tests/taplib.py
# Every reader against mutated files of every kind, and the corpus of found cases.
# A run of 4000 distinct backends reported and compared whole.
TESTS += tests/test_many_backends.sh
EXTRA_DIST += tests/test_many_backends.sh
TESTS += tests/test_mutate.sh
EXTRA_DIST += tests/test_mutate.sh tests/mutate.py tests/mutants
# The whole sweep, every plain field of every file and a fingerprint taken
# here: several times the check's spread, so not part of it.
check-mutate-all: all
	TL_MUTATE_ALL=1 TL_MUTATE_FP=1 $(TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/test_mutate.sh
.PHONY: check-mutate-all
