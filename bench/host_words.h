/* The node's measured facts in words, for every face that shows them
 * (`ticklab info`, the TUI's Info screen): one wording, so the two agree
 * by construction. Each figure carries its name and unit where it is said;
 * CPU lists are said as lists, never as a bare number that reads as a
 * count. */
#ifndef TL_BENCH_HOST_WORDS_H
#define TL_BENCH_HOST_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/host.h"
#include "bench/levels.h"
#include "bench/noise.h"

#define TL_WORDS_LINE 320

/* The sampling CPU's SMT siblings: "no SMT sibling (its core's CPU list:
 * 1)", "SMT sibling CPUs: 67 (its core's CPU list: 3,67)", or "SMT
 * siblings unknown". */
void tl_host_smt_words(const struct tl_host *h, char *buf, size_t len);

/* The sibling CPUs alone, as a list ("67", "1,3"); "" when none. */
void tl_host_smt_others(const struct tl_host *h, char *buf, size_t len);

/* Whether a spoiler's finding is that nothing could be found ("unknown
 * ...", "not measured"): neither fine nor bad, and not to be shown as
 * either. */
bool tl_spoiler_unknown(const char *seen);

/* What the chase saw beside the reported sizes: a line per level, then the
 * disagreement and the caveat that the steps moved between chases (each
 * starting "! "), then what measured it. The count of lines. */
size_t tl_levels_lines(const struct tl_levels *lv, char lines[][TL_WORDS_LINE], size_t max);

/* The noise probe (bench/noise.h): what interrupted a clock loop on the
 * sampling CPU, and which tasks preempted it, this run's own threads told
 * apart from other processes. rc and why as tl_noise_probe_run returned
 * them. The count of lines. */
size_t tl_noise_probe_lines(const struct tl_noise_probe *pr, int rc, const char *why,
			    char lines[][TL_WORDS_LINE], size_t max);

#endif
