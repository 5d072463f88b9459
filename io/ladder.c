#include "config.h"

#include "io/ladder.h"

#include <math.h>
#include <string.h>

#include "bench/analysis.h"
#include "bench/levels.h"
#include "bench/size.h"

/* A point of a ladder: a chase the run shows (any timer, any flush). */
static bool ladder_cell(const struct tl_cell *c)
{
	return !c->hidden && c->kernel.kind == TL_KERNEL_LOAD && c->kernel.k != 0;
}

size_t tl_ladder_collect(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
			 size_t flush, const double *ends, size_t nends, struct tl_ladder *l)
{
	return tl_ladder_collect_in(run, an, timer, flush, NULL, run->ncells, ends, nends, l);
}

size_t tl_ladder_collect_in(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
			    size_t flush, const size_t *cells, size_t ncells, const double *ends,
			    size_t nends, struct tl_ladder *l)
{
	memset(l, 0, sizeof *l);
	l->timer = timer;
	l->flush = flush;
	for (size_t j = 0; j < ncells; j++) {
		size_t i = cells ? cells[j] : j;
		const struct tl_cell *c = &run->cells[i];
		double b = (double)c->kernel.bytes;
		size_t at = 0;

		if (!ladder_cell(c) || c->timer != timer || c->flush != flush ||
		    l->n == TL_LADDER_MAX_POINTS)
			continue;
		while (at < l->n && l->bytes[at] < b)
			at++;
		if (at < l->n && l->bytes[at] == b)
			continue; /* the same size twice (another K): the first stands */
		memmove(l->bytes + at + 1, l->bytes + at, (l->n - at) * sizeof *l->bytes);
		memmove(l->ns + at + 1, l->ns + at, (l->n - at) * sizeof *l->ns);
		memmove(l->cell + at + 1, l->cell + at, (l->n - at) * sizeof *l->cell);
		l->bytes[at] = b;
		l->ns[at] = an[i].summary.p50 / (double)c->kernel.k;
		l->cell[at] = i;
		l->n++;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!isfinite(l->ns[i]))
			return l->n; /* a cell without samples: nothing to fit */
	l->fitted = l->n > 0 && stats_ladder_fit(l->bytes, l->ns, l->n, ends, nends, &l->fit) == 0;
	return l->n;
}

bool tl_run_has_load_cells(const struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++)
		if (ladder_cell(&run->cells[i]))
			return true;
	return false;
}

bool tl_run_has_ladder(const struct tl_run *run)
{
	struct tl_cell_groups g;
	bool has = false;

	if (!tl_run_has_load_cells(run))
		return false;
	tl_cell_groups_init(run, &g);
	/* a group whose load cells are not all of its first one's size */
	for (size_t k = 0; k < run->ntimers * run->nflush && !has; k++) {
		const struct tl_cell *first = NULL;

		for (size_t j = g.start[k]; j < g.start[k + 1] && !has; j++) {
			const struct tl_cell *c = &run->cells[g.cell[j]];

			if (!ladder_cell(c))
				continue;
			if (!first)
				first = c;
			has = c->kernel.bytes != first->kernel.bytes;
		}
	}
	tl_cell_groups_free(&g);
	return has;
}

static void say_steps(FILE *f, const struct tl_ladder *l, const double *ends, const char **names)
{
	const struct tl_ladder_fit *x = &l->fit;

	for (size_t s = 0; s < x->nsteps; s++) {
		size_t free_at = x->cut[s], topo_at = x->topo_cut[s];
		int below = x->level[topo_at - 1], above = x->level[topo_at];
		char lo[32], hi[32], end[32];

		tl_size_format((uint64_t)ends[below], end, sizeof end);
		if (x->step_ratio[s] < TL_LADDER_MIN_STEP) {
			fprintf(f, "  finding: no step at %s's end %s: %s and %s differ by %.2fx at "
				   "most (a step is >= %.1fx): on a VM that is itself a finding\n",
				names[below], end, names[below], names[above], x->step_ratio[s],
				TL_LADDER_MIN_STEP);
			continue;
		}
		if (free_at == topo_at)
			continue;
		tl_size_format((uint64_t)l->bytes[free_at - 1], lo, sizeof lo);
		tl_size_format((uint64_t)l->bytes[free_at], hi, sizeof hi);
		/* the table's own numbers on either side of the step */
		fprintf(f, "  finding: the latency steps up from %.2f ns at %s to %.2f ns at %s, "
			   "not at %s's end %s: on a VM that is itself a finding\n",
			l->ns[free_at - 1], lo, l->ns[free_at], hi, names[below], end);
	}
}

static void print_checks(FILE *f, const struct tl_ladder *l, const double *ends,
			 const char **names, size_t nends)
{
	const struct tl_ladder_fit *x = &l->fit;

	fprintf(f, "  levels:");
	for (size_t j = 0; j <= nends; j++)
		if (x->count[j])
			fprintf(f, " %s %.3g ns (%zu size%s)", names[j], x->mean_ns[j], x->count[j],
				x->count[j] == 1 ? "" : "s");
	fprintf(f, "\n");
	if (x->nlevels < 2) {
		fprintf(f, "  check: one level only: give sizes on both sides of a cache end "
			   "(load:4KiB..2xL3) to see a step\n");
		return;
	}
	fprintf(f, "  check: within-level flat: a step at each cache end explains %.1f %% of the "
		   "variance of log latency (%s %.0f %%)%s\n",
		100 * x->r2, x->flat ? ">=" : "FAILS, under", 100 * TL_LADDER_MIN_R2,
		x->flat ? ": ok" : ": the levels are not flat where the topology says");
	if (x->monotone)
		fprintf(f, "  check: non-decreasing across levels: ok\n");
	else
		fprintf(f, "  check: non-decreasing across levels FAILS: %s (%.3g ns) is faster "
			   "than the level before it\n",
			names[x->worse_level], x->mean_ns[x->worse_level]);
	say_steps(f, l, ends, names);
}

static void print_ladder(FILE *f, const struct tl_run *run, const struct tl_ladder *l,
			 const double *ends, const char **names, size_t nends)
{
	char flush[32];

	tl_run_flush_label(run, l->flush, flush, sizeof flush);
	fprintf(f, "memory ladder, %s, flush %s: ns per load = p50 / K, each K loads chasing a "
		   "random cycle\n",
		run->timers[l->timer].id, flush);
	fprintf(f, "  %-10s %10s  %s\n", "size", "ns/load", "level");
	for (size_t i = 0; i < l->n; i++) {
		char size[32], end[48] = "";
		int lev = stats_ladder_level(l->bytes[i], ends, nends);

		tl_size_format((uint64_t)l->bytes[i], size, sizeof size);
		if ((size_t)lev < nends) {
			char b[32];
			tl_size_format((uint64_t)ends[lev], b, sizeof b);
			snprintf(end, sizeof end, " (<= %s)", b);
		}
		fprintf(f, "  %-10s %10.2f  %s%s\n", size, l->ns[i], names[lev], end);
	}
	if (l->fitted)
		print_checks(f, l, ends, names, nends);
}

static bool print_all(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		      const struct tl_topology *topo)
{
	double ends[3];
	const char *names[4];
	size_t nends = tl_topology_ends(topo, ends, names);
	bool shown = false;
	struct tl_cell_groups g;

	if (!tl_run_has_load_cells(run))
		return false;
	tl_cell_groups_init(run, &g);
	for (size_t t = 0; t < run->ntimers; t++)
		for (size_t fl = 0; fl < run->nflush; fl++) {
			size_t k = tl_cell_group(run, t, fl);
			struct tl_ladder l;

			if (tl_ladder_collect_in(run, an, t, fl, g.cell + g.start[k],
						 g.start[k + 1] - g.start[k], ends, nends, &l) == 0)
				continue;
			print_ladder(f, run, &l, ends, names, nends);
			shown = true;
		}
	tl_cell_groups_free(&g);
	if (shown && !topo)
		fprintf(f, "(cache sizes unknown: every size is called memory)\n");
	return shown;
}

void tl_ladder_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		     const struct tl_topology *topo)
{
	tl_ladder_print_levels(f, run, an, topo, NULL);
}

void tl_ladder_print_levels(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
			    const struct tl_topology *topo, const struct tl_levels *lv)
{
	struct tl_topology sized;
	char note[512] = "";

	/* the ends the flushes went by: a VM's CPUID may claim an L3 the
	 * guest never gets, and a size past the measured one is memory */
	if (topo && lv && lv->measured) {
		tl_levels_sizing(lv, topo, &sized, note, sizeof note);
		topo = &sized;
	}
	if (print_all(f, run, an, topo) && note[0])
		fprintf(f, "(level ends from the node's measured levels: %s)\n", note);
}
