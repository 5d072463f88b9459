/* The search's tunable parameters as text, one validator for both faces:
 * `ticklab search --eps 0.02` and the TUI's "eps=0.02" go through the same
 * function, so they accept the same values and refuse with the same words. */
#ifndef TL_BENCH_SEARCH_PARAMS_H
#define TL_BENCH_SEARCH_PARAMS_H

#include <stddef.h>

#include "bench/search_cell.h"

/* The names tl_search_plan_param takes, as a user would read them. */
extern const char tl_search_param_names[];

/* Sets parameter name ("eps", "alpha", "n", "p", "q", "method", "tdiff-order", "os-filter",
 * "tmin-step", "tdiff-step", "max-adds", "budget", "repeats", "seed") from
 * text. what is how the user spelled it, for the message ("--eps", "eps").
 * 0, or -1 with why (p unchanged); an unknown name is -1 as well. */
int tl_search_plan_param(struct tl_search_plan *p, const char *name, const char *what,
			 const char *text, char *why, size_t whylen);

/* "eps=0.02 n=5000 method=paper": every pair or none (p unchanged on -1). */
int tl_search_plan_params(struct tl_search_plan *p, const char *text, char *why, size_t whylen);

/* The pairs that give p's parameters back through tl_search_plan_params. */
void tl_search_plan_params_text(const struct tl_search_plan *p, char *buf, size_t len);

/* "fast, eps 0.01, alpha 0.05, n 10000, ..., repeats 3 (interval ...)": the
 * line the table and the search screen print above the results. */
void tl_search_plan_describe(const struct tl_search_plan *p, char *buf, size_t len);

#endif
