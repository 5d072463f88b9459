#include "config.h"

#include "judge/fleet.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

void tl_fleet_progress_say(const struct tl_fleet_progress *p, const char *what, size_t done,
			   size_t total)
{
	if (p && p->fn)
		p->fn(p->ctx, what, done, total);
}

/* ------------------------------------------------------------------ */
/* Judging                                                              */
/* ------------------------------------------------------------------ */

/* The numbers are judge/fleet.h's; a test holds them equal. */
const char tl_fleet_rule[] =
	"a figure stands out at |robust z| > 5 in its bad direction; add:2000 samples when "
	"told apart from the others' (KS D > 0.25, p < 0.001; each node weighing at most the "
	"median node's sample count) and their median lies further from the other nodes' "
	"median than the largest of 2 %, the node's own drift, its own CV and 5 robust sd of "
	"the other nodes' medians (with 4 others or more)";

/* Same hardware: one CPU model and TSC rates within 0.5 % (a calibrated
 * rate wobbles in its last digits between twins). */
static bool same_hardware(const struct tl_fleet_group *g, const struct tl_fp_figures *f)
{
	if (strcmp(g->model, f->model) != 0)
		return false;
	if (!isfinite(g->tsc_ghz) || !isfinite(f->tsc_ghz))
		return isfinite(g->tsc_ghz) == isfinite(f->tsc_ghz);
	return fabs(g->tsc_ghz - f->tsc_ghz) <= 0.005 * g->tsc_ghz;
}

static void group_nodes(struct tl_fleet *fl)
{
	free(fl->groups);
	fl->ngroups = 0;
	fl->groups = tl_xcalloc(fl->n ? fl->n : 1, sizeof *fl->groups);
	for (size_t i = 0; i < fl->n; i++) {
		struct tl_fleet_node *nd = &fl->nodes[i];
		size_t g = 0;

		/* the group of the node before is the likeliest */
		if (i > 0 && same_hardware(&fl->groups[fl->nodes[i - 1].group], &nd->fig))
			g = fl->nodes[i - 1].group;
		else
			while (g < fl->ngroups && !same_hardware(&fl->groups[g], &nd->fig))
				g++;
		if (g == fl->ngroups) {
			snprintf(fl->groups[g].model, sizeof fl->groups[g].model, "%s", nd->fig.model);
			fl->groups[g].tsc_ghz = nd->fig.tsc_ghz;
			fl->ngroups++;
		}
		nd->group = g;
		fl->groups[g].nnodes++;
	}
	for (size_t g = 0; g < fl->ngroups; g++)
		if (fl->groups[g].nnodes < TL_FLEET_MIN_NODES)
			snprintf(fl->groups[g].note, sizeof fl->groups[g].note,
				 "%zu node(s) of this hardware: too few to compare (%d needed)",
				 fl->groups[g].nnodes, TL_FLEET_MIN_NODES);
}

static void reason_add(struct tl_fleet_node *nd, const char *text)
{
	size_t used = strlen(nd->reason);

	snprintf(nd->reason + used, sizeof nd->reason - used, "%s%s", used ? "; " : "", text);
}

static void noise_text(const struct tl_fleet_node *nd, const struct tl_fig_info *info,
		       const char *v, const char *med, const char *lo, const char *hi, char *text,
		       size_t len);

/* nd's score of figure k is in: odd or not, and why in words. */
static void mark_figure(struct tl_fleet_node *nd, enum tl_fig k)
{
	const struct tl_fig_info *info = &tl_fig_info[k];
	const struct tl_fleet_score *s = &nd->score[k];
	char v[32], med[32], lo[32], hi[32], text[256];

	if (info->bad == 2 || !isfinite(s->z) || s->n + 1 < TL_FLEET_MIN_NODES)
		return;
	nd->odd[k] = (info->bad >= 0 && s->z > TL_FLEET_Z) || (info->bad <= 0 && s->z < -TL_FLEET_Z);
	if (!nd->odd[k])
		return;
	tl_fig_format(k, nd->fig.v[k], v, sizeof v);
	tl_fig_format(k, s->median, med, sizeof med);
	tl_fig_format(k, s->lo, lo, sizeof lo);
	tl_fig_format(k, s->hi, hi, sizeof hi);
	if (info->noun)
		noise_text(nd, info, v, med, lo, hi, text, sizeof text);
	else
		snprintf(text, sizeof text, "%s %s%s vs fleet %s%s [%s, %s]", info->label, v,
			 info->unit, med, info->unit, lo, hi);
	reason_add(nd, text);
}

/* A noise rate as a multiple of the fleet's (the median of the others),
 * the way one says it of a noisy node; beside a median of zero, the rate. */
static void noise_text(const struct tl_fleet_node *nd, const struct tl_fig_info *info,
		       const char *v, const char *med, const char *lo, const char *hi, char *text,
		       size_t len)
{
	double x = nd->fig.v[info - tl_fig_info], m = nd->score[info - tl_fig_info].median;

	if (m > 0)
		snprintf(text, len, "%.*fx the fleet's %s (%s%s vs %s%s [%s, %s])", x / m < 10 ? 1 : 0,
			 x / m, info->noun, v, info->unit, med, info->unit, lo, hi);
	else
		snprintf(text, len, "%s %s%s where the fleet has %s%s [%s, %s]", info->noun, v,
			 info->unit, med, info->unit, lo, hi);
}

/* After its odd noise rates, a node's busiest interrupt sources: what the
 * excess is likely made of. */
static void mark_noise_top(struct tl_fleet_node *nd)
{
	char text[200];

	if (!nd->fig.noise_top[0])
		return;
	for (size_t k = TL_FIG_NZ_FIRST; k < TL_FIG_COUNT; k++)
		if (nd->odd[k]) {
			snprintf(text, sizeof text, "top: %s", nd->fig.noise_top);
			reason_add(nd, text);
			return;
		}
}

/* The nodes of every group, in load order, one group after another:
 * group g's are idx[first[g] .. first[g + 1]). */
static void group_members(const struct tl_fleet *fl, size_t *idx, size_t *first)
{
	size_t *at;

	memset(first, 0, (fl->ngroups + 1) * sizeof *first);
	for (size_t i = 0; i < fl->n; i++)
		first[fl->nodes[i].group + 1]++;
	for (size_t g = 0; g < fl->ngroups; g++)
		first[g + 1] += first[g];
	at = tl_xmalloc((fl->ngroups + 1) * sizeof *at);
	memcpy(at, first, (fl->ngroups + 1) * sizeof *at);
	for (size_t i = 0; i < fl->n; i++)
		idx[at[fl->nodes[i].group]++] = i;
	free(at);
}

static void score_group(struct tl_fleet *fl, const size_t *idx, size_t m, double *vals,
			struct tl_fleet_score *sc)
{
	for (size_t k = 0; k < TL_FIG_COUNT; k++) {
		const struct tl_fig_info *info = &tl_fig_info[k];

		for (size_t j = 0; j < m; j++)
			vals[j] = fl->nodes[idx[j]].fig.v[k];
		stats_fleet_score_all(vals, m, info->floor_abs, info->floor_rel, sc);
		for (size_t j = 0; j < m; j++) {
			fl->nodes[idx[j]].score[k] = sc[j];
			mark_figure(&fl->nodes[idx[j]], (enum tl_fig)k);
		}
	}
	for (size_t j = 0; j < m; j++)
		mark_noise_top(&fl->nodes[idx[j]]);
}

/* The largest of the noises a node's median may move by on its own: the
 * floor, its own drift and CV, and the spread of the other nodes' medians
 * (ms: the node's median scored against theirs). */
static void samples_allowed(struct tl_fleet_node *nd, const struct tl_fleet_score *ms)
{
	double drift = nd->fig.v[TL_FIG_DRIFT] / 100, cv = nd->fig.v[TL_FIG_CV] / 100;

	nd->allowed = TL_FLEET_SHIFT_REL;
	nd->allowed_by = "floor";
	if (drift > nd->allowed) {
		nd->allowed = drift;
		nd->allowed_by = "own_drift";
	}
	if (cv > nd->allowed) {
		nd->allowed = cv;
		nd->allowed_by = "own_cv";
	}
	/* fewer others say nothing of their spread (as for the figures) */
	if (ms->n >= TL_FLEET_FEW && ms->median > 0 &&
	    TL_FLEET_Z * TL_MAD_NORMAL * ms->mad / ms->median > nd->allowed) {
		nd->allowed = TL_FLEET_Z * TL_MAD_NORMAL * ms->mad / ms->median;
		nd->allowed_by = "group_spread";
	}
}

/* "its own 4.9 % drift": the noise that set nd->allowed, in words. */
static void allowed_words(const struct tl_fleet_node *nd, char *buf, size_t len)
{
	double a = 100 * nd->allowed;

	if (strcmp(nd->allowed_by, "own_drift") == 0)
		snprintf(buf, len, "its own %.1f %% drift", a);
	else if (strcmp(nd->allowed_by, "own_cv") == 0)
		snprintf(buf, len, "its own %.1f %% CV", a);
	else if (strcmp(nd->allowed_by, "group_spread") == 0)
		snprintf(buf, len, "the nodes' %.1f %% spread (%.0f robust sd of their medians)", a,
			 TL_FLEET_Z);
	else
		snprintf(buf, len, "the %.0f %% floor", a);
}

/* The test's outcome in words: a reason when odd, a note when told apart
 * but within the noise. */
static void samples_say(struct tl_fleet_node *nd)
{
	char noise[96], test[64], text[384];
	double e = 100 * nd->effect;

	nd->note[0] = '\0';
	if (!nd->told_apart || !isfinite(nd->effect))
		return;
	allowed_words(nd, noise, sizeof noise);
	/* a p below the smallest double is said as such, not as 0 */
	snprintf(test, sizeof test, nd->ks_p > 0 ? "KS D %.2f, p %.2g" : "KS D %.2f, p < 1e-300",
		 nd->ks_d, nd->ks_p);
	if (fabs(e) < 0.05)
		snprintf(text, sizeof text, "add:%d samples differ from the others' in shape (%s), "
					    "their median the other nodes' (%.1f ns): not flagged",
			 TL_FP_ADDS, test, nd->median_ns);
	else
		snprintf(text, sizeof text,
			 "add:%d samples %.1f %% %s than the other nodes' (median %.1f vs %.1f ns; %s), "
			 "%s %s%s",
			 TL_FP_ADDS, fabs(e), e >= 0 ? "slower" : "faster", nd->median_ns,
			 nd->others_mom_ns, test, nd->odd_samples ? "beyond" : "within", noise,
			 nd->odd_samples ? "" : ": not flagged");
	if (nd->odd_samples)
		reason_add(nd, text);
	else
		snprintf(nd->note, sizeof nd->note, "%s", text);
}

/* Every node's median scored against the other nodes' (one value a node,
 * whatever its sample count); sc has m places. */
static void group_medians(struct tl_fleet *fl, const size_t *idx, size_t m, double *vals,
			  struct tl_fleet_score *sc)
{
	for (size_t j = 0; j < m; j++) {
		struct tl_fleet_node *nd = &fl->nodes[idx[j]];

		nd->median_ns = stats_hist_median_grouped(&nd->fig.hist);
		vals[j] = nd->median_ns;
	}
	stats_fleet_score_all(vals, m, 0, 0, sc);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The sample count of the group's median node (of those with samples). */
static uint64_t median_count(const struct tl_fleet *fl, const size_t *idx, size_t m)
{
	uint64_t *n = tl_xmalloc((m ? m : 1) * sizeof *n), cap;
	size_t k = 0;

	for (size_t j = 0; j < m; j++)
		if (fl->nodes[idx[j]].fig.hist.total)
			n[k++] = fl->nodes[idx[j]].fig.hist.total;
	qsort(n, k, sizeof *n, cmp_u64);
	cap = k ? n[(k - 1) / 2] : 0;
	free(n);
	return cap;
}

/* Each node's kept add:K samples against the pooled histogram of the rest
 * of its group (KS, Mann-Whitney, Hodges-Lehmann), each node thinned to
 * the median node's count first so that none weighs on the others by its
 * sample count; then its median against the other nodes' medians, and the
 * flag (io/fleet.h). */
static void test_group(struct tl_fleet *fl, const size_t *idx, size_t m, double *vals,
		       struct tl_fleet_score *sc, const struct tl_fleet_progress *progress,
		       size_t *done)
{
	const struct tl_hist **parts = tl_xmalloc((m ? m : 1) * sizeof *parts);
	struct tl_hist *thin = tl_xcalloc(m ? m : 1, sizeof *thin);
	struct tl_hist pool;
	uint64_t cap = median_count(fl, idx, m);
	size_t np = 0;
	double ties;

	group_medians(fl, idx, m, vals, sc);
	for (size_t j = 0; j < m; j++)
		if (fl->nodes[idx[j]].fig.hist.total) {
			stats_hist_thin(&fl->nodes[idx[j]].fig.hist, cap, &thin[np]);
			parts[np] = &thin[np];
			np++;
		}
	stats_hist_merge(parts, np, &pool);
	/* made again one at a time below: a group's nodes never hold two
	 * histograms each */
	for (size_t j = 0; j < np; j++)
		stats_hist_free(&thin[j]);
	free(thin);
	free(parts);
	stats_hist_index(&pool);
	ties = stats_hist_ties(&pool);
	for (size_t j = 0; j < m; j++) {
		struct tl_fleet_node *nd = &fl->nodes[idx[j]];
		struct tl_hist h;
		struct tl_hist_test t;

		tl_fleet_progress_say(progress, "judged", ++*done, fl->n);
		if (!nd->fig.hist.total)
			continue;
		stats_hist_thin(&nd->fig.hist, cap, &h);
		stats_hist_index(&h);
		if (stats_hist_test(&h, &pool, ties, &t) == 0) {
			nd->ks_d = t.ks_d;
			nd->ks_p = t.ks_p;
			nd->mwu_p = t.mwu_p;
			nd->hl_ns = t.hl;
			nd->others_median = t.others_median;
			nd->n_others = (size_t)t.n_others;
			nd->tested = true;
			nd->others_mom_ns = sc[j].median;
			nd->effect = nd->median_ns / sc[j].median - 1;
			samples_allowed(nd, &sc[j]);
			nd->told_apart = nd->ks_d > TL_FLEET_KS_D && nd->ks_p < TL_FLEET_KS_P;
			nd->odd_samples = nd->told_apart && fabs(nd->effect) > nd->allowed;
			samples_say(nd);
		}
		stats_hist_free(&h);
	}
	stats_hist_free(&pool);
}

void tl_fleet_judge(struct tl_fleet *fl, const struct tl_fleet_progress *progress)
{
	size_t *idx = tl_xmalloc((fl->n ? fl->n : 1) * sizeof *idx), *first, done = 0;
	double *vals = tl_xmalloc((fl->n ? fl->n : 1) * sizeof *vals);
	struct tl_fleet_score *sc = tl_xmalloc((fl->n ? fl->n : 1) * sizeof *sc);

	group_nodes(fl);
	first = tl_xmalloc((fl->ngroups + 1) * sizeof *first);
	group_members(fl, idx, first);
	fl->nflagged = 0;
	for (size_t i = 0; i < fl->n; i++) {
		fl->nodes[i].reason[0] = fl->nodes[i].note[0] = '\0';
		fl->nodes[i].tested = fl->nodes[i].odd_samples = fl->nodes[i].told_apart = false;
		fl->nodes[i].median_ns = fl->nodes[i].others_mom_ns = fl->nodes[i].effect = NAN;
		fl->nodes[i].allowed = NAN;
		fl->nodes[i].allowed_by = "";
		memset(fl->nodes[i].odd, 0, sizeof fl->nodes[i].odd);
	}
	for (size_t g = 0; g < fl->ngroups; g++) {
		size_t m = first[g + 1] - first[g];

		score_group(fl, idx + first[g], m, vals, sc);
		if (m >= TL_FLEET_MIN_NODES)
			test_group(fl, idx + first[g], m, vals, sc, progress, &done);
		else
			tl_fleet_progress_say(progress, "judged", done += m, fl->n);
	}
	for (size_t i = 0; i < fl->n; i++) {
		fl->nodes[i].flagged = fl->nodes[i].reason[0] != '\0';
		fl->nflagged += fl->nodes[i].flagged;
	}
	free(idx);
	free(first);
	free(vals);
	free(sc);
}
