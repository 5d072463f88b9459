#include "config.h"

#include "io/chains.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "bench/analysis.h"
#include "bench/size.h"

/* The fit over cells[0..n) (NULL: every cell, n = run->ncells). */
static int collect(const struct tl_run *run, const struct tl_analysis *an, const size_t *cells,
		   size_t n, size_t timer, size_t flush, const struct tl_kernel_ops *kind,
		   double ns_per_add, struct tl_chain_fit *fit)
{
	double *k = tl_xcalloc(n ? n : 1, sizeof *k);
	double *ns = tl_xcalloc(n ? n : 1, sizeof *ns);
	size_t m = 0;
	int rc;

	for (size_t j = 0; j < n; j++) {
		size_t i = cells ? cells[j] : j;
		const struct tl_cell *c = &run->cells[i];

		if (c->hidden || c->timer != timer || c->flush != flush ||
		    c->kernel.kind != kind || !isfinite(an[i].summary.p50))
			continue;
		k[m] = (double)c->kernel.k;
		ns[m++] = an[i].summary.p50;
	}
	rc = m ? stats_chain_fit(k, ns, m, ns_per_add, fit) : -1;
	free(k);
	free(ns);
	return rc;
}

int tl_chain_collect(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
		     size_t flush, const struct tl_kernel_ops *kind, double ns_per_add,
		     struct tl_chain_fit *fit)
{
	return collect(run, an, NULL, run->ncells, timer, flush, kind, ns_per_add, fit);
}

static void fmt_or_dash(char *buf, size_t len, const char *fmt, double v)
{
	if (isfinite(v))
		snprintf(buf, len, fmt, v);
	else
		snprintf(buf, len, "-");
}

static void print_row(FILE *f, const char *op, const struct tl_chain_fit *x, const char *cycles)
{
	char r2[32];

	fmt_or_dash(r2, sizeof r2, "%.6f", x->r2);
	fprintf(f, "  %-4s %6zu %8.3f %7s %9s\n", op, x->n, x->ns_per_op, cycles, r2);
}

static void print_check(FILE *f, const char *op, const struct tl_chain_fit *x)
{
	if (!isnan(x->r2))
		fprintf(f, "  check: %s linear in K: R^2 %.6f %s %.3f%s\n", op, x->r2,
			x->linear ? ">=" : "FAILS, under", TL_CHAIN_MIN_R2,
			x->linear ? ": ok" : ": the medians do not grow by a fixed cost per op");
	if (!isnan(x->cycles))
		fprintf(f, "  check: %s %.2f cycles at the ADD clock %s %.0f..%.0f%s\n", op, x->cycles,
			x->plausible ? "in" : "FAILS, outside", TL_CHAIN_MIN_CYCLES,
			TL_CHAIN_MAX_CYCLES,
			x->plausible ? ": ok"
				     : ": current cores take 3-5; the ADD chain or the clock moved");
}

/* One timer and flush: its cells are cells[0..n). */
static void print_block(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
			size_t t, size_t fl, const size_t *cells, size_t n)
{
	static const struct tl_kernel_ops *const kinds[] = { TL_KERNEL_MUL, TL_KERNEL_FMA };
	struct tl_chain_fit add, x;
	bool have_add = collect(run, an, cells, n, t, fl, TL_KERNEL_ADD, NAN, &add) == 0;
	double per_add = have_add ? add.ns_per_op : NAN;
	char flush[32], cyc[32];

	tl_run_flush_label(run, fl, flush, sizeof flush);
	fprintf(f, "chains, %s, flush %s: ns per op = slope of p50 in K (p50 / K for one K); "
		   "cycles = ns per op / ns per ADD\n",
		run->timers[t].id, flush);
	fprintf(f, "  %-4s %6s %8s %7s %9s\n", "op", "points", "ns/op", "cycles", "R^2");
	if (have_add) {
		print_row(f, "ADD", &add, "1");
	} else {
		fprintf(f, "  ADD  (none in this run: add add:0:20000:2000 for cycles)\n");
	}
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (collect(run, an, cells, n, t, fl, kinds[i], per_add, &x) < 0)
			continue;
		fmt_or_dash(cyc, sizeof cyc, "%.2f", x.cycles);
		print_row(f, tl_kernel_op(kinds[i]), &x, cyc);
	}
	if (have_add && per_add > 0)
		fprintf(f, "  (an ADD a cycle: the core runs at %.2f GHz)\n", 1 / per_add);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (collect(run, an, cells, n, t, fl, kinds[i], per_add, &x) == 0)
			print_check(f, tl_kernel_op(kinds[i]), &x);
}

void tl_chains_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an)
{
	struct tl_cell_groups g;

	tl_cell_groups_init(run, &g);
	for (size_t t = 0; t < run->ntimers; t++)
		for (size_t fl = 0; fl < run->nflush; fl++) {
			size_t k = tl_cell_group(run, t, fl), n = g.start[k + 1] - g.start[k];
			const size_t *cells = g.cell + g.start[k];
			bool any = false;

			for (size_t j = 0; j < n && !any; j++) {
				const struct tl_cell *c = &run->cells[cells[j]];
				any = !c->hidden &&
				      (c->kernel.kind == TL_KERNEL_MUL || c->kernel.kind == TL_KERNEL_FMA);
			}
			if (any)
				print_block(f, run, an, t, fl, cells, n);
		}
	tl_cell_groups_free(&g);
}
