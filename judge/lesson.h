/* The lesson of a run or a search as one sentence a room can follow, e.g.
 * "barrier-tsc sees 0.8 ns here; papi-real-nsec needs 620 ns - 46x less
 * sensitive (t_diff, 3 of 3 repeats)". Computed once here, beside the
 * verdicts it is made of, so the CLI, the Markdown and the TUI say the
 * same words. Pure: no I/O. */
#ifndef TL_JUDGE_LESSON_H
#define TL_JUDGE_LESSON_H

#include <stddef.h>
#include <stdint.h>

#include "bench/runner.h"
#include "bench/search_cell.h"
#include "judge/fleet.h"
#include "stats/stats.h"

/* times: "x" for plain ASCII, "\u00d7" where UTF-8 is sure (Markdown). */

/* A run: with jitter cells, who sees the smallest injected shift and who
 * cannot (jitter verdicts, seeded as the table's); else whose readings
 * spread least and most (the sd of the kept samples, median over each
 * timer's ADD, MUL and FMA cells; loads, which spread with the memory,
 * are left to the ladder). an[i] is cell i's analysis. "" when nothing was kept. */
void tl_lesson_run(const struct tl_run *run, const struct tl_analysis *an, uint64_t seed,
		   const char *times, char *buf, size_t len);

/* A search: t_diff's best and worst timer (t_min's when no t_diff was
 * found), with how many repeats found each. "" when none found either. */
void tl_lesson_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		      size_t ncells, const char *times, char *buf, size_t len);

/* A fleet: how many nodes stand out and the first two with the start of
 * their reason, or that all agree within their hardware groups. */
void tl_lesson_fleet(const struct tl_fleet *fl, char *buf, size_t len);

#endif
