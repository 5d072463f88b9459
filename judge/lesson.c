#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/analysis.h"
#include "judge/jitter.h"
#include "judge/lesson.h"

/* "0.8", "33", "620", "12.4 us" style: as few digits as a room reads. */
static void ns_words(double ns, char *buf, size_t len)
{
	double a = fabs(ns);
	if (a < 10)
		snprintf(buf, len, "%.1f ns", ns);
	else if (a < 10000)
		snprintf(buf, len, "%.0f ns", ns);
	else if (a < 1e7)
		snprintf(buf, len, "%.3g us", ns / 1e3);
	else
		snprintf(buf, len, "%.3g ms", ns / 1e6);
}

static void ratio_words(double r, const char *times, char *buf, size_t len)
{
	snprintf(buf, len, r < 10 ? "%.1f%s" : "%.0f%s", r, times);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Whether a cell's sd speaks for its timer: a compute cell (ADD, MUL, FMA)
 * with samples. Loads spread with the memory they reach, not with the
 * timer: a ladder says its levels instead. */
static bool speaks_for_timer(const struct tl_cell *c, const struct tl_analysis *a)
{
	return !c->hidden && c->kernel.kind != TL_KERNEL_JITTER &&
	       c->kernel.kind != TL_KERNEL_EMPTY && c->kernel.kind != TL_KERNEL_LOAD &&
	       a->summary.n && isfinite(a->summary.sd);
}

/* The median of each timer's sd over its compute cells (NaN when none) into
 * sd[t], how many into k[t]: the cells bucketed by timer in one pass, each
 * bucket sorted once. */
static void timer_sds(const struct tl_run *run, const struct tl_analysis *an, double *sd,
		      size_t *k)
{
	size_t *at = tl_xcalloc(run->ntimers + 1, sizeof *at);
	double *v = tl_xcalloc(run->ncells ? run->ncells : 1, sizeof *v);

	for (size_t i = 0; i < run->ncells; i++)
		if (speaks_for_timer(&run->cells[i], &an[i]))
			at[run->cells[i].timer + 1]++;
	for (size_t t = 0; t < run->ntimers; t++) {
		k[t] = at[t + 1];
		at[t + 1] += at[t];
	}
	for (size_t i = 0; i < run->ncells; i++)
		if (speaks_for_timer(&run->cells[i], &an[i]))
			v[at[run->cells[i].timer]++] = an[i].summary.sd;
	for (size_t t = 0; t < run->ntimers; t++) {
		double *w = v + at[t] - k[t];
		size_t n = k[t];

		sd[t] = NAN;
		if (n) {
			qsort(w, n, sizeof *w, cmp_double);
			sd[t] = n % 2 ? w[n / 2] : (w[n / 2 - 1] + w[n / 2]) / 2;
		}
	}
	free(at);
	free(v);
}

static bool spread_lesson(const struct tl_run *run, const struct tl_analysis *an, const char *times,
			  char *buf, size_t len)
{
	size_t best = SIZE_MAX, worst = SIZE_MAX, kb = 0, kw = 0;
	double sb = NAN, sw = NAN;
	double *sds = tl_xcalloc(run->ntimers ? run->ntimers : 1, sizeof *sds);
	size_t *ks = tl_xcalloc(run->ntimers ? run->ntimers : 1, sizeof *ks);

	timer_sds(run, an, sds, ks);
	for (size_t t = 0; t < run->ntimers; t++) {
		size_t k = ks[t];
		double sd = sds[t];
		if (!k)
			continue;
		if (best == SIZE_MAX || sd < sb) {
			best = t, sb = sd, kb = k;
		}
		if (worst == SIZE_MAX || sd > sw) {
			worst = t, sw = sd, kw = k;
		}
	}
	free(sds);
	free(ks);
	if (best == SIZE_MAX)
		return false;
	char a[32], b[32], r[32];
	ns_words(sb, a, sizeof a);
	if (best == worst || !(sb > 0)) {
		snprintf(buf, len, "%s's readings spread %s here (sd of the kept samples, median of %zu "
				   "cell%s)", run->timers[best].id, a, kb, kb == 1 ? "" : "s");
		return true;
	}
	ns_words(sw, b, sizeof b);
	ratio_words(sw / sb, times, r, sizeof r);
	snprintf(buf, len, "%s's readings spread %s here; %s's %s, %s wider (sd of the kept "
			   "samples, median of %zu and %zu cells)",
		 run->timers[best].id, a, run->timers[worst].id, b, r, kb, kw);
	return true;
}

/* "a, b, c" -> "a, b and c" */
static void and_last(char *list, size_t n)
{
	char *comma = n > 1 ? strrchr(list, ',') : NULL;
	if (!comma || strlen(list) + 4 >= 256)
		return;
	memmove(comma + 4, comma + 1, strlen(comma + 1) + 1);
	memcpy(comma, " and", 4);
}

/* The jitter cells that share the kernel with the smallest injected shift,
 * under the first flush that has one: who sees it and who cannot. */
static bool jitter_lesson(const struct tl_run *run, uint64_t seed, char *buf, size_t len)
{
	size_t first = SIZE_MAX;
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];
		if (c->hidden || c->kernel.kind != TL_KERNEL_JITTER || !c->n)
			continue;
		if (first == SIZE_MAX || c->kernel.d < run->cells[first].kernel.d ||
		    (c->kernel.d == run->cells[first].kernel.d && c->flush < run->cells[first].flush))
			first = i;
	}
	if (first == SIZE_MAX)
		return false;
	const struct tl_cell *f = &run->cells[first];
	char sees[256] = "", cannot[256] = "", unrel[256] = "", shift[32] = "", flush[32];
	size_t nsee = 0, ncan = 0, nun = 0;
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];
		if (c->hidden || c->flush != f->flush || strcmp(c->kernel.label, f->kernel.label) != 0)
			continue;
		struct tl_jitter j;
		tl_jitter_analyse_seeded(run, i, seeds[i], &j);
		if (!j.ok)
			continue;
		const char *id = run->timers[c->timer].id;
		char *list = j.unreliable ? unrel : j.detected ? sees : cannot;
		size_t *cnt = j.unreliable ? &nun : j.detected ? &nsee : &ncan;
		size_t l = strlen(list);
		snprintf(list + l, sizeof sees - l, "%s%s", *cnt ? ", " : "", id);
		(*cnt)++;
		if (!shift[0] && isfinite(j.true_shift_ns))
			ns_words(j.true_shift_ns, shift, sizeof shift);
	}
	free(seeds);
	if (!nsee && !ncan && !nun)
		return false;
	and_last(sees, nsee);
	and_last(cannot, ncan);
	and_last(unrel, nun);
	tl_run_flush_label(run, f->flush, flush, sizeof flush);
	char what[96];
	if (shift[0])
		snprintf(what, sizeof what, "the %llu injected ADDs (%s)", (unsigned long long)f->kernel.d,
			 shift);
	else
		snprintf(what, sizeof what, "the %llu injected ADDs", (unsigned long long)f->kernel.d);
	size_t o = 0;
	buf[0] = '\0';
	if (nsee)
		o += (size_t)snprintf(buf + o, len - o, "%s %s %s here", sees, nsee == 1 ? "sees" : "see",
				      what);
	if (ncan && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s cannot%s%s", o ? "; " : "", cannot,
				      o ? "" : " tell ", o ? "" : what);
	if (nun && o < len)
		o += (size_t)snprintf(buf + o, len - o, "%s%s: unreliable here (a control failed)",
				      o ? "; " : "", unrel);
	if (o < len)
		snprintf(buf + o, len - o, " (%s, flush %s, 95 %% interval of the shift)",
			 f->kernel.label, flush);
	return true;
}

void tl_lesson_run(const struct tl_run *run, const struct tl_analysis *an, uint64_t seed,
		   const char *times, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (jitter_lesson(run, seed, buf, len))
		return;
	if (an)
		spread_lesson(run, an, times, buf, len);
}

static bool found(const struct tl_search_stat *s)
{
	return s->found > 0 && isfinite(s->ns) && s->ns > 0;
}

/* One metric under one flush: best and worst of the cells that found it. */
static bool metric_lesson(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			  size_t ncells, size_t f, bool tdiff, const char *times, char *buf,
			  size_t len)
{
	const struct tl_search_cell *best = NULL, *worst = NULL, *none = NULL;
	for (size_t i = 0; i < ncells; i++) {
		const struct tl_search_cell *c = &cells[i];
		const struct tl_search_stat *s = tdiff ? &c->tdiff : &c->tmin;
		if (c->f != f || c->state != TL_CELL_DONE)
			continue;
		if (!found(s)) {
			if (s->ran && (!none || s->bound_ns > (tdiff ? none->tdiff : none->tmin).bound_ns))
				none = c;
			continue;
		}
		const struct tl_search_stat *bs = best ? (tdiff ? &best->tdiff : &best->tmin) : NULL;
		const struct tl_search_stat *ws = worst ? (tdiff ? &worst->tdiff : &worst->tmin) : NULL;
		if (!bs || s->ns < bs->ns)
			best = c;
		if (!ws || s->ns > ws->ns)
			worst = c;
	}
	if (!best)
		return false;
	const struct tl_search_stat *bs = tdiff ? &best->tdiff : &best->tmin;
	const struct tl_search_stat *ws = tdiff ? &worst->tdiff : &worst->tmin;
	const char *name = tdiff ? "t_diff" : "t_min";
	const char *see = tdiff ? "sees" : "measures";
	const char *less = tdiff ? "less sensitive" : "less precise";
	char a[32], b[32], r[32], reps[80], where[80] = "";
	ns_words(bs->ns, a, sizeof a);
	if (p->nflush > 1)
		snprintf(where, sizeof where, ", flush %s", p->flush_names[f]);
	if (worst == best || ws->found == bs->found) {
		snprintf(reps, sizeof reps, "%zu of %zu repeats", bs->found, bs->planned ? bs->planned : bs->ran);
	} else {
		snprintf(reps, sizeof reps, "%zu and %zu of %zu repeats", bs->found, ws->found,
			 bs->planned ? bs->planned : bs->ran);
	}
	const char *wobble = bs->unstable || (worst != best && ws->unstable) ? "; unstable" : "";
	size_t o;
	if (worst != best) {
		ns_words(ws->ns, b, sizeof b);
		ratio_words(ws->ns / bs->ns, times, r, sizeof r);
		o = (size_t)snprintf(buf, len, "%s %s %s here; %s needs %s, %s %s (%s, %s%s%s)",
				     p->backends[best->b], see, a, p->backends[worst->b], b, r, less,
				     name, reps, wobble, where);
	} else {
		o = (size_t)snprintf(buf, len, "%s %s %s here (%s, %s%s%s)", p->backends[best->b], see,
				     a, name, reps, wobble, where);
	}
	if (none && o < len) {
		const struct tl_search_stat *ns = tdiff ? &none->tdiff : &none->tmin;
		if (isfinite(ns->bound_ns) && ns->bound_ns > 0) {
			ns_words(ns->bound_ns, b, sizeof b);
			snprintf(buf + o, len - o, "; %s found none up to %s", p->backends[none->b], b);
		} else {
			snprintf(buf + o, len - o, "; %s found none", p->backends[none->b]);
		}
	}
	return true;
}

void tl_lesson_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		      size_t ncells, const char *times, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	for (int tdiff = 1; tdiff >= 0; tdiff--)
		for (size_t f = 0; f < p->nflush; f++)
			if (metric_lesson(p, cells, ncells, f, tdiff, times, buf, len))
				return;
}

/* The first clause of a reason ("; "-separated), at most 80 bytes. */
static void first_clause(const char *reason, char *out, size_t len)
{
	size_t n = strcspn(reason, ";");
	if (n > 80)
		n = 80;
	snprintf(out, len, "%.*s", (int)n, reason);
}

void tl_lesson_fleet(const struct tl_fleet *fl, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!fl->n)
		return;
	size_t compared = 0;
	for (size_t g = 0; g < fl->ngroups; g++)
		compared += fl->groups[g].note[0] ? 0 : fl->groups[g].nnodes;
	if (!fl->nflagged) {
		snprintf(buf, len, "all %zu nodes agree within their hardware (%zu compared in %zu "
				   "group%s; no figure past |robust z| %.0f)",
			 fl->n, compared, fl->ngroups, fl->ngroups == 1 ? "" : "s", TL_FLEET_Z);
		return;
	}
	size_t o = (size_t)snprintf(buf, len, "%zu of %zu nodes %s out: ", fl->nflagged, fl->n,
				    fl->nflagged == 1 ? "stands" : "stand");
	size_t said = 0;
	for (size_t i = 0; i < fl->n && said < 2 && o < len; i++) {
		const struct tl_fleet_node *nd = &fl->nodes[i];
		char why[96];
		if (!nd->flagged)
			continue;
		first_clause(nd->reason, why, sizeof why);
		o += (size_t)snprintf(buf + o, len - o, "%s%s (%s)", said ? ", " : "", nd->fig.node.name,
				      why);
		said++;
	}
	if (fl->nflagged > said && o < len)
		snprintf(buf + o, len - o, " and %zu more", fl->nflagged - said);
}
