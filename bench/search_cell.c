#include "config.h"

#include "bench/search_cell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/flush.h"
#include "bench/probe.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "stats/stats.h"

void tl_search_plan_default(struct tl_search_plan *p)
{
	memset(p, 0, sizeof(*p));
	tl_search_params_default(&p->sp);
	p->budget_s = TL_SEARCH_BUDGET_S;
	p->repeats = TL_SEARCH_REPEATS;
	p->want_tdiff = true;
	p->cpu = -1;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void tl_search_plan_free(struct tl_search_plan *p)
{
	free_list(p->backends, p->nbackends);
	free_list(p->flush_names, p->nflush);
	free(p->flush);
	p->backends = p->flush_names = NULL;
	p->flush = NULL;
	p->nbackends = p->nflush = 0;
}

static char **copy_list(const char *const *v, size_t n)
{
	char **out = tl_xcalloc(n, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = tl_xstrdup(v[i]);
	return out;
}

void tl_search_plan_set(struct tl_search_plan *p, const char *const *backends, size_t nb,
		       const char *const *flush_names, const uint64_t *flush, size_t nf)
{
	tl_search_plan_free(p);
	p->backends = copy_list(backends, nb);
	p->flush_names = copy_list(flush_names, nf);
	p->flush = tl_xcalloc(nf, sizeof(*p->flush));
	memcpy(p->flush, flush, nf * sizeof(*flush));
	p->nbackends = nb;
	p->nflush = nf;
	if (p->ref >= nb)
		p->ref = 0;
}

size_t tl_search_default_reference(const char *const *backends, size_t n)
{
	static const char *const prefer[] = {"papi-real-nsec", "papi-", "clock-gettime"};

	for (size_t k = 0; k < sizeof(prefer) / sizeof(prefer[0]); k++)
		for (size_t i = 0; i < n; i++)
			if (strncmp(backends[i], prefer[k], strlen(prefer[k])) == 0)
				return i;
	return 0;
}

size_t tl_search_cell_index(const struct tl_search_plan *p, size_t b, size_t f)
{
	return f * p->nbackends + b;
}

void tl_search_cells_free(struct tl_search_cell *cells, size_t ncells)
{
	for (size_t i = 0; cells && i < ncells; i++) {
		for (unsigned r = 0; cells[i].rep && r < cells[i].nrep; r++)
			for (int k = 0; k < 2; k++)
				tl_search_points_free(&cells[i].rep[r].points[k]);
		free(cells[i].rep);
	}
	free(cells);
}

void tl_search_points_add(struct tl_search_points *pts, double x, double y)
{
	if (pts->n == pts->cap) {
		pts->cap = pts->cap ? 2 * pts->cap : 64;
		pts->xy = tl_xrealloc(pts->xy, pts->cap, sizeof *pts->xy);
	}
	pts->xy[pts->n][0] = x;
	pts->xy[pts->n][1] = y;
	pts->n++;
}

size_t tl_search_points_total(const struct tl_search_cell *cells, size_t ncells,
			      enum tl_search_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < ncells; i++)
		for (unsigned r = 0; r < cells[i].nrep; r++)
			n += cells[i].rep[r].points[kind].n;
	return n;
}

void tl_search_points_free(struct tl_search_points *pts)
{
	free(pts->xy);
	pts->xy = NULL;
	pts->n = pts->cap = 0;
}

/* ------------------------------------------------------------------ */
/* Order                                                                */
/* ------------------------------------------------------------------ */

void tl_search_order(uint64_t seed, unsigned r, size_t *order, size_t n)
{
	uint64_t s = seed * 0x100000001b3ULL + r, draw = 0;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(tl_seed_derive(s, draw++) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}
