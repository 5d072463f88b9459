#include "config.h"

#include "io/fingerprint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/file_check.h"
#include "io/host_json.h"
#include "io/json_build.h"
#include "io/results.h"
#include "io/run_load.h"
#include "io/search_json.h"
#include "io/term_safe.h"

/* ------------------------------------------------------------------ */
/* Node names and paths                                                 */
/* ------------------------------------------------------------------ */

static void env_copy(const char *var, char *out, size_t len)
{
	const char *v = getenv(var);

	snprintf(out, len, "%s", v ? v : "");
}

void tl_fp_node_read(struct tl_fp_node *n)
{
	char *dot;

	memset(n, 0, sizeof *n);
	if (gethostname(n->hostname, sizeof n->hostname - 1) < 0)
		snprintf(n->hostname, sizeof n->hostname, "unknown");
	dot = strchr(n->hostname, '.');
	if (dot)
		*dot = '\0';
	env_copy("SLURMD_NODENAME", n->slurm_node, sizeof n->slurm_node);
	env_copy("SLURM_JOB_ID", n->slurm_job, sizeof n->slurm_job);
	snprintf(n->name, sizeof n->name, "%s", n->slurm_node[0] ? n->slurm_node : n->hostname);
}

int tl_fp_expand_path(const char *pattern, const struct tl_fp_node *n, char *out, size_t len,
		      char *why, size_t whylen)
{
	size_t used = 0;

	for (const char *p = pattern; *p; p++) {
		const char *add = NULL;
		char one[2] = {*p, '\0'};

		if (*p != '%') {
			add = one;
		} else {
			switch (*++p) {
			case 'h':
				add = n->hostname;
				break;
			case 'n':
				add = n->slurm_node;
				if (!add[0]) {
					snprintf(why, whylen, "--json '%s': %%n needs $SLURMD_NODENAME, "
							      "which only a Slurm job step sets "
							      "(outside Slurm use %%h)",
						 pattern);
					return -1;
				}
				break;
			case 'j':
				add = n->slurm_job;
				if (!add[0]) {
					snprintf(why, whylen, "--json '%s': %%j needs $SLURM_JOB_ID, which "
							      "only a Slurm job sets",
						 pattern);
					return -1;
				}
				break;
			case '%':
				add = "%";
				break;
			default:
				snprintf(why, whylen, "--json '%s': '%%%.1s' is not a field (accepted: %%h "
						      "short hostname, %%n Slurm node name, %%j Slurm "
						      "job id, %%%% a percent sign)",
					 pattern, p);
				return -1;
			}
		}
		if (used + strlen(add) >= len) {
			snprintf(why, whylen, "--json '%s': the expanded path is too long", pattern);
			return -1;
		}
		memcpy(out + used, add, strlen(add));
		used += strlen(add);
	}
	out[used] = '\0';
	return 0;
}

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static json_t *run_json(const struct tl_fp *fp)
{
	enum tl_os_method m = TL_OS_IFOREST;
	struct tl_analysis *an;
	json_t *doc;

	if (!fp->have_run)
		return json_null();
	an = tl_run_analyse(&fp->run, m, fp->cfg.seed);
	if (!an)
		return NULL;
	doc = tl_run_to_json(&fp->run, an, m, fp->cfg.seed, false, NULL);
	free(an);
	return doc;
}

static json_t *drift_json(const struct tl_host *h)
{
	if (!h->clock_probed || !h->clock_timer[0])
		return json_null();
	return json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:b}", "timer", h->clock_timer, "adds",
			 (json_int_t)h->clock_adds, "seconds", tl_json_real(h->clock_seconds), "lo_ns",
			 tl_json_real(h->clock_lo_ns), "hi_ns", tl_json_real(h->clock_hi_ns), "rel_sd",
			 tl_json_real(h->clock_drift), "drifts", h->clock_drifts);
}

static json_t *noise_json(const struct tl_fp *fp)
{
	const struct tl_noise_probe *p = &fp->noise;
	json_t *top = tl_json_array(), *src = tl_json_array();

	if (!fp->have_noise)
		return json_null();
	for (size_t i = 0; i < p->ntop; i++)
		tl_json_append(top, json_pack("{s:s, s:I}", "name", p->top[i].name, "n",
					      (json_int_t)p->top[i].n));
	for (size_t i = 0; i < p->info.nsrc; i++)
		tl_json_append(src, json_pack("{s:s, s:b, s:s}", "name", p->info.src[i].name, "ok",
					      p->info.src[i].ok, "why", p->info.src[i].why));
	return json_pack("{s:o, s:i, s:o, s:I, s:{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:o, "
			 "s:o}",
			 "seconds", tl_json_real(p->seconds), "cpu", p->cpu, "gap_ns",
			 tl_json_real(p->gap_ns), "gaps", (json_int_t)p->gaps, "counts", "preempted",
			 (json_int_t)p->preempt, "voluntary", (json_int_t)p->voluntary, "page_faults",
			 (json_int_t)p->faults, "migrations", (json_int_t)p->migrations, "ticks",
			 (json_int_t)p->ticks, "irqs", (json_int_t)p->irqs, "softirqs",
			 (json_int_t)p->softirqs, "unexplained", (json_int_t)p->unexplained, "top",
			 top, "sources", src);
}

json_t *tl_fp_to_json(const struct tl_fp *fp, const struct tl_fp_node *node)
{
	json_t *run = run_json(fp), *doc;

	if (!run)
		return NULL;
	doc = tl_json_object();
	tl_json_set(doc, "ticklab",
		    json_pack("{s:s, s:s}", "version", PACKAGE_VERSION, "command", "fingerprint"));
	tl_json_set(doc, "node",
		    json_pack("{s:s, s:s, s:s, s:s}", "name", node->name, "hostname",
			      node->hostname, "slurm_node", node->slurm_node, "slurm_job",
			      node->slurm_job));
	tl_json_set(doc, "host", tl_host_to_json(&fp->host));
	tl_json_set(doc, "budget_seconds", tl_json_real(fp->cfg.budget_s));
	tl_json_set(doc, "seconds", tl_json_real(fp->seconds));
	tl_json_set(doc, "adds", json_integer(TL_FP_ADDS));
	tl_json_set(doc, "barrier", json_string(fp->barrier));
	tl_json_set(doc, "barrier_why", json_string(fp->barrier_said));
	tl_json_set(doc, "skipped", json_string(fp->skipped));
	tl_json_set(doc, "cpu", json_integer(fp->cfg.cpu));
	tl_json_set(doc, "drift", drift_json(&fp->host));
	tl_json_set(doc, "sched",
		    json_pack("{s:o, s:o, s:I}", "seconds", tl_json_real(fp->sched.seconds),
			      "cpu_seconds", tl_json_real(fp->sched.cpu_seconds), "involuntary",
			      (json_int_t)fp->sched.involuntary));
	tl_json_set(doc, "noise", noise_json(fp));
	if (!fp->have_noise)
		tl_json_set(doc, "noise_why", json_string(fp->noise_why[0] ? fp->noise_why
									   : "not run (stopped)"));
	tl_json_set(doc, "run", run);
	tl_json_set(doc, "search",
		    fp->cells ? tl_search_to_json(&fp->plan, fp->cells, NULL, fp->search_cut)
			      : json_null());
	return doc;
}

/* ------------------------------------------------------------------ */
/* Reading: the figures                                                 */
/* ------------------------------------------------------------------ */

bool tl_fp_json_is(const json_t *doc)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(doc, "ticklab"),
							    "command"));

	return cmd && strcmp(cmd, "fingerprint") == 0;
}

static int fail(char *why, size_t whylen, const char *name, const char *what)
{
	snprintf(why, whylen, "%s: %s", name, what);
	return -1;
}

static const char *str_at(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static double num_at(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static double num_at_index(const json_t *a, size_t i)
{
	const json_t *v = json_array_get(a, i);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The visible cell of timer id, flush zero or not, kernel label; -1 none. */
static long find_cell(const struct tl_run *run, const char *id, bool flushed, const char *label)
{
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];

		if (!c->hidden && strcmp(run->timers[c->timer].id, id) == 0 &&
		    (run->flush_bytes[c->flush] != 0) == flushed && strcmp(c->kernel.label, label) == 0)
			return (long)i;
	}
	return -1;
}

/* fmt has two %s: ids are cut to fit the column rather than the line. */
static void from(struct tl_fp_figures *f, enum tl_fig i, const char *fmt, const char *a,
		 const char *b)
{
	char sa[40], sb[40];

	snprintf(sa, sizeof sa, "%.39s", a);
	snprintf(sb, sizeof sb, "%.39s", b);
	snprintf(f->from[i], sizeof f->from[i], fmt, sa, sb);
}

/* The p50 of cell c (NaN when c < 0): the summary alone, no drift. */
static int cell_p50(const struct tl_run *run, const struct tl_results_meta *meta, long c,
		    double *p50)
{
	struct tl_analysis a;

	*p50 = NAN;
	if (c < 0)
		return 0;
	if (tl_cell_summarise_kept(run, (size_t)c, meta->os, meta->seed, &a, NULL, 0, NULL) < 0)
		return -1;
	*p50 = a.summary.p50;
	return 0;
}

/* The figures read from the run: only the four cells they come from are
 * analysed, and without the drift (its bootstrap cost more than reading
 * the file), so a raw fingerprint reads in about the time of its JSON. */
static int run_figures(const json_t *rdoc, const char *name, struct tl_fp_figures *f,
		       const char *label, char *why, size_t whylen)
{
	struct tl_run run;
	struct tl_results_meta meta;
	struct tl_analysis a;
	long c0, c1, cp, cg;
	size_t cap, nkept = 0;
	double *kept = NULL;
	int rc = 0;

	if (tl_run_from_json(rdoc, name, &run, &meta, why, whylen) < 0)
		return -1;
	c0 = find_cell(&run, f->barrier, false, label);
	if (c0 < 0) {
		rc = fail(why, whylen, name, "run: no add cell of the barrier timer at flush 0");
		goto out;
	}
	/* the samples behind c0's summary, by the same call with kept given */
	cap = tl_cell_done(&run, (size_t)c0);
	kept = malloc((cap ? cap : 1) * sizeof *kept);
	if (!kept || tl_cell_summarise_kept(&run, (size_t)c0, meta.os, meta.seed, &a, kept, cap,
					    &nkept) < 0) {
		rc = fail(why, whylen, name, "out of memory");
		goto out;
	}
	{
		const struct tl_summary *s = &a.summary;
		double adds = (double)run.cells[c0].kernel.k;

		f->v[TL_FIG_NS_PER_ADD] = s->p50 / adds;
		f->v[TL_FIG_CV] = tl_cell_shows_cv(&run.cells[c0], &a) ? 100 * s->cv : NAN;
		f->v[TL_FIG_OS] = s->n + s->os_removed ? 100.0 * (double)s->os_removed /
								 (double)(s->n + s->os_removed)
						       : NAN;
		f->v[TL_FIG_TAIL] = 100 * (s->p99 - s->p50) / s->p50;
		f->v[TL_FIG_OVERHEAD] = run.cells[c0].overhead_ns;
		from(f, TL_FIG_NS_PER_ADD, "%s p50 / K, %s, flush 0", label, f->barrier);
		from(f, TL_FIG_CV, "%s, %s, flush 0", label, f->barrier);
		from(f, TL_FIG_OS, "%s samples removed as OS noise, %s", label, f->barrier);
		from(f, TL_FIG_TAIL, "(p99 - p50) / p50 of %s, %s", label, f->barrier);
		from(f, TL_FIG_OVERHEAD, "t_e,std of %s %s, flush 0", "add cell,", f->barrier);
	}
	c1 = find_cell(&run, f->barrier, true, label);
	cp = find_cell(&run, "papi-real-nsec", false, label);
	cg = find_cell(&run, "clock-gettime", false, label);
	if (cell_p50(&run, &meta, c1, &f->v[TL_FIG_FLUSH]) < 0 ||
	    cell_p50(&run, &meta, cp, &f->v[TL_FIG_PAPI]) < 0 ||
	    cell_p50(&run, &meta, cg, &f->v[TL_FIG_CGT]) < 0) {
		rc = fail(why, whylen, name, "out of memory");
		goto out;
	}
	{
		char size[32] = "?";

		if (c1 >= 0)
			tl_size_format(run.flush_bytes[run.cells[c1].flush], size, sizeof size);
		snprintf(f->from[TL_FIG_FLUSH], sizeof f->from[TL_FIG_FLUSH],
			 "%.39s p50, %.39s, flush 4xL2 = %s", label, f->barrier, size);
	}
	from(f, TL_FIG_PAPI, "%s p50, %s, flush 0", label, "papi-real-nsec");
	from(f, TL_FIG_CGT, "%s p50, %s, flush 0", label, "clock-gettime");
	stats_hist_from_samples(kept, nkept, &f->hist);
	f->hist_exact = f->hist.n <= TL_FP_EXACT_MAX;
	if (!f->hist_exact)
		stats_hist_loglinear(&f->hist);
	f->nsamples = (size_t)f->hist.total;
out:
	free(kept);
	tl_run_unload(&run, &meta);
	return rc;
}

static int search_figures(const json_t *sdoc, const char *name, struct tl_fp_figures *f,
			  char *why, size_t whylen)
{
	struct tl_search_plan plan;
	struct tl_search_cell *cells = NULL;
	bool interrupted;
	const struct tl_search_stat *st[2];

	if (!sdoc || json_is_null(sdoc))
		return 0;
	memset(&plan, 0, sizeof plan);
	if (tl_search_from_json(sdoc, name, &plan, &cells, &interrupted, why, whylen) < 0) {
		tl_search_plan_free(&plan);
		return -1;
	}
	st[0] = &cells[0].tmin;
	st[1] = &cells[0].tdiff;
	for (int k = 0; k < 2; k++) {
		enum tl_fig i = k ? TL_FIG_TDIFF : TL_FIG_TMIN;

		f->v[i] = st[k]->ns;
		f->lo[i] = st[k]->lo_ns;
		f->hi[i] = st[k]->hi_ns;
		snprintf(f->from[i], sizeof f->from[i], "fast search, %s, flush 0, %zu of %zu found%s%s",
			 plan.backends[0], st[k]->found, st[k]->ran, st[k]->unstable ? ", UNSTABLE" : "",
			 interrupted ? ", cut at the deadline" : "");
	}
	tl_search_cells_free(cells, plan.nbackends * plan.nflush);
	tl_search_plan_free(&plan);
	return 0;
}

/* A string from the file, cut to its field, made safe to print. */
static void safe_in_place(char *s, size_t len)
{
	char t[512];

	snprintf(t, sizeof t, "%s", s);
	tl_term_safe(t, s, len);
}

/* The probe's counts over its seconds. A count that is not a whole
 * number >= 0 gives no rate (NaN), as does a file older than the probe. */
static void noise_facts(const json_t *doc, struct tl_fp_figures *f)
{
	static const char *const keys[] = {
		[TL_FIG_NZ_PREEMPT - TL_FIG_NZ_FIRST] = "preempted",
		[TL_FIG_NZ_FAULTS - TL_FIG_NZ_FIRST] = "page_faults",
		[TL_FIG_NZ_MIGRATIONS - TL_FIG_NZ_FIRST] = "migrations",
		[TL_FIG_NZ_TICKS - TL_FIG_NZ_FIRST] = "ticks",
		[TL_FIG_NZ_IRQS - TL_FIG_NZ_FIRST] = "irqs",
		[TL_FIG_NZ_SOFTIRQS - TL_FIG_NZ_FIRST] = "softirqs",
		[TL_FIG_NZ_UNEXPLAINED - TL_FIG_NZ_FIRST] = "unexplained",
	};
	const json_t *nz = json_object_get(doc, "noise"), *counts = json_object_get(nz, "counts");
	const json_t *top = json_object_get(nz, "top"), *t;
	double secs = num_at(nz, "seconds");
	size_t i;

	/* a probe runs for a fraction of a second at least: a shorter one, or
	 * a rate beyond any physical one, is a file that is not a probe's */
	if (!json_is_object(nz) || !(secs >= 0.01 && secs < 1e6))
		return;
	f->noise_top[0] = '\0'; /* a summary's, read before, is this one */
	for (size_t k = TL_FIG_NZ_FIRST; k < TL_FIG_COUNT; k++) {
		const json_t *c = json_object_get(counts, keys[k - TL_FIG_NZ_FIRST]);

		if (json_is_integer(c) && json_integer_value(c) >= 0 &&
		    (double)json_integer_value(c) / secs <= TL_RESULTS_MAX_ABS)
			f->v[k] = (double)json_integer_value(c) / secs;
		snprintf(f->from[k], sizeof f->from[k], "noise probe: %s per s, %.1f s loop on CPU %d",
			 keys[k - TL_FIG_NZ_FIRST], secs, (int)json_integer_value(json_object_get(nz, "cpu")));
	}
	json_array_foreach(top, i, t) {
		const json_t *n = json_object_get(t, "n");
		size_t used = strlen(f->noise_top);

		if (!json_is_string(json_object_get(t, "name")) || !json_is_integer(n) ||
		    json_integer_value(n) < 0 ||
		    (double)json_integer_value(n) / secs > TL_RESULTS_MAX_ABS)
			continue;
		snprintf(f->noise_top + used, sizeof f->noise_top - used, "%s%.40s %.0f/s",
			 used ? ", " : "", str_at(t, "name"), (double)json_integer_value(n) / secs);
	}
	safe_in_place(f->noise_top, sizeof f->noise_top);
}

static void node_facts(const json_t *doc, struct tl_fp_figures *f)
{
	const json_t *node = json_object_get(doc, "node"), *host = json_object_get(doc, "host");
	const json_t *sp = json_object_get(host, "spoilers"), *drift = json_object_get(doc, "drift");
	const json_t *sched = json_object_get(doc, "sched");
	size_t i;
	json_t *s;
	double secs = num_at(sched, "seconds");

	snprintf(f->node.name, sizeof f->node.name, "%s", str_at(node, "name"));
	snprintf(f->node.hostname, sizeof f->node.hostname, "%s", str_at(node, "hostname"));
	snprintf(f->node.slurm_node, sizeof f->node.slurm_node, "%s", str_at(node, "slurm_node"));
	snprintf(f->node.slurm_job, sizeof f->node.slurm_job, "%s", str_at(node, "slurm_job"));
	snprintf(f->version, sizeof f->version, "%s",
		 str_at(json_object_get(doc, "ticklab"), "version"));
	snprintf(f->model, sizeof f->model, "%s", str_at(host, "model"));
	snprintf(f->barrier, sizeof f->barrier, "%s", str_at(doc, "barrier"));
	f->tsc_ghz = num_at(host, "tsc_ghz");
	f->cpu = (int)json_integer_value(json_object_get(doc, "cpu"));
	f->seconds = num_at(doc, "seconds");
	json_array_foreach(sp, i, s)
		if (json_is_true(json_object_get(s, "bad"))) {
			size_t used = strlen(f->spoiled);

			snprintf(f->spoiled + used, sizeof f->spoiled - used, "%s%s (%s)",
				 used ? ", " : "", str_at(s, "what"), str_at(s, "seen"));
		}
	f->v[TL_FIG_DRIFT] = 100 * num_at(drift, "rel_sd");
	snprintf(f->from[TL_FIG_DRIFT], sizeof f->from[TL_FIG_DRIFT],
		 "clock probe: sd of chunk medians, %s", str_at(drift, "timer"));
	f->v[TL_FIG_CPU] = secs > 0 ? 100 * num_at(sched, "cpu_seconds") / secs : NAN;
	f->v[TL_FIG_PREEMPT] = secs > 0 ? num_at(sched, "involuntary") / secs : NAN;
	snprintf(f->from[TL_FIG_CPU], sizeof f->from[TL_FIG_CPU],
		 "sampling thread's CPU time / wall time, CPU %d", f->cpu);
	snprintf(f->from[TL_FIG_PREEMPT], sizeof f->from[TL_FIG_PREEMPT],
		 "its involuntary context switches per second");
	safe_in_place(f->node.slurm_job, sizeof f->node.slurm_job);
	safe_in_place(f->version, sizeof f->version);
	safe_in_place(f->model, sizeof f->model);
	safe_in_place(f->barrier, sizeof f->barrier);
	safe_in_place(f->spoiled, sizeof f->spoiled);
	safe_in_place(f->from[TL_FIG_DRIFT], sizeof f->from[TL_FIG_DRIFT]);
	noise_facts(doc, f);
}

/* The names fleet prints one per line and matches nodes by: host names
 * (what Slurm accepts), so no name can carry an escape sequence or a
 * newline that forges a line of `fleet -q`. */
static int names_ok_in(const json_t *node, const char *where, const char *name, char *why,
		       size_t whylen)
{
	static const char *const keys[] = {"name", "hostname", "slurm_node"};

	for (size_t i = 0; i < 3; i++) {
		const json_t *v = json_object_get(node, keys[i]);
		char safe[96], what[256];

		if (!v || (i > 0 && json_is_string(v) && !json_string_value(v)[0]))
			continue;
		if (json_is_string(v) && tl_file_hostname_ok(json_string_value(v)))
			continue;
		snprintf(what, sizeof what, "%s.%s %s%s%s is not a host name (accepted: 1 to 63 "
					    "letters, digits, '-', '_' and '.', as Slurm node names)",
			 where, keys[i], json_is_string(v) ? "'" : "",
			 json_is_string(v) ? tl_term_safe(json_string_value(v), safe, sizeof safe)
					   : "(not a string)",
			 json_is_string(v) ? "'" : "");
		return fail(why, whylen, name, what);
	}
	return 0;
}

static int node_names_ok(const json_t *doc, const char *name, char *why, size_t whylen)
{
	return names_ok_in(json_object_get(doc, "node"), "node", name, why, whylen);
}

/* ------------------------------------------------------------------ */
/* The rules every fingerprint's figures keep, raw or summarised        */
/* ------------------------------------------------------------------ */

/* A TSC outside 0.1..10 GHz is no processor's; t_min or t_diff of a
 * second is no timer's; the sampling thread cannot run longer than the
 * wall time around it (thread CPU time is read inside the wall clock's
 * two readings, so a real file is at most 100 %; the margin is their
 * rounding). */
#define FP_TIME_MAX_NS 1e9
#define FP_CPU_SHARE_MAX 100.5

static int fig_rule_fail(char *why, size_t whylen, const char *name, const char *key, double v,
			 const char *rule)
{
	char what[256];

	snprintf(what, sizeof what, "%s is %g, %s", key, v, rule);
	return fail(why, whylen, name, what);
}

static int figures_ok(const struct tl_fp_figures *f, const char *name, char *why, size_t whylen)
{
	static const enum tl_fig shares[] = {TL_FIG_OS, TL_FIG_TAIL};
	static const enum tl_fig times[] = {TL_FIG_TMIN, TL_FIG_TDIFF};

	if (!isnan(f->tsc_ghz) && !(f->tsc_ghz >= TL_TSC_GHZ_MIN && f->tsc_ghz <= TL_TSC_GHZ_MAX))
		return fig_rule_fail(why, whylen, name, "tsc_ghz", f->tsc_ghz,
				     "outside the plausible 0.1 to 10 GHz (null when unknown)");
	for (size_t i = 0; i < sizeof shares / sizeof shares[0]; i++)
		for (size_t j = 0; j < 3; j++) {
			double v = j == 0 ? f->v[shares[i]] : j == 1 ? f->lo[shares[i]]
							       : f->hi[shares[i]];

			if (!isnan(v) && !(v >= 0 && v <= 100))
				return fig_rule_fail(why, whylen, name, tl_fig_info[shares[i]].key,
						     v, "a share must be 0 to 100 %");
		}
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++)
		if (f->v[times[i]] >= FP_TIME_MAX_NS)
			return fig_rule_fail(why, whylen, name, tl_fig_info[times[i]].key,
					     f->v[times[i]], "a timer's step must be below 1e9 ns");
	if (f->v[TL_FIG_CPU] > FP_CPU_SHARE_MAX)
		return fig_rule_fail(why, whylen, name, "sched.cpu_seconds / sched.seconds (%)",
				     f->v[TL_FIG_CPU], "a thread's CPU time cannot exceed its wall time");
	return 0;
}

/* The clock probe's drift: its low end at most its high end. */
static int drift_ok(const json_t *doc, const char *name, char *why, size_t whylen)
{
	const json_t *d = json_object_get(doc, "drift");
	double lo = num_at(d, "lo_ns"), hi = num_at(d, "hi_ns");
	char what[256];

	if (!(lo > hi))
		return 0;
	snprintf(what, sizeof what, "drift.lo_ns is %g, above drift.hi_ns = %g (low <= high)", lo,
		 hi);
	return fail(why, whylen, name, what);
}

int tl_fp_figures_from_json(const json_t *doc, const char *name, struct tl_fp_figures *f,
			    char *why, size_t whylen)
{
	char label[64];
	const json_t *adds = json_object_get(doc, "adds"), *sum = json_object_get(doc, "summary");

	memset(f, 0, sizeof *f);
	for (size_t i = 0; i < TL_FIG_COUNT; i++)
		f->v[i] = f->lo[i] = f->hi[i] = NAN;
	if (!tl_fp_json_is(doc))
		return fail(why, whylen, name, "not a fingerprint (`ticklab fingerprint --json` writes "
					       "them: \"ticklab\": {\"command\": \"fingerprint\"})");
	if (tl_file_marker_check(doc, name, "fingerprint", why, whylen) < 0 ||
	    node_names_ok(doc, name, why, whylen) < 0)
		return -1;
	if (sum && !json_is_null(sum)) {
		/* A small fingerprint: the run's figures as they were read from
		 * it, the node's own facts (and the figures they give) from the
		 * document as for a raw one. */
		if (tl_fp_summary_from_json(sum, name, f, why, whylen) < 0)
			return -1;
		f->spoiled[0] = '\0'; /* node_facts appends */
		node_facts(doc, f);
		if (!f->node.name[0] || !f->version[0] || !f->barrier[0]) {
			tl_fp_figures_free(f);
			return fail(why, whylen, name, "a fingerprint without its node name, version "
						       "or barrier timer");
		}
		if (figures_ok(f, name, why, whylen) < 0 || drift_ok(doc, name, why, whylen) < 0) {
			tl_fp_figures_free(f);
			return -1;
		}
		return 0;
	}
	node_facts(doc, f);
	if (!f->node.name[0] || !f->version[0] || !f->barrier[0] || !json_is_integer(adds) ||
	    !json_is_object(json_object_get(doc, "run")))
		return fail(why, whylen, name, "a fingerprint without its node name, version, "
					       "barrier timer, adds or run");
	snprintf(label, sizeof label, "add:%lld", (long long)json_integer_value(adds));
	if (run_figures(json_object_get(doc, "run"), name, f, label, why, whylen) < 0 ||
	    search_figures(json_object_get(doc, "search"), name, f, why, whylen) < 0 ||
	    figures_ok(f, name, why, whylen) < 0 || drift_ok(doc, name, why, whylen) < 0) {
		tl_fp_figures_free(f);
		return -1;
	}
	return 0;
}

void tl_fp_figures_free(struct tl_fp_figures *f)
{
	stats_hist_free(&f->hist);
	f->nsamples = 0;
}

/* ------------------------------------------------------------------ */
/* The summary: what the fleet needs of a node                          */
/* ------------------------------------------------------------------ */

static json_t *hist_json(const struct tl_fp_figures *f)
{
	json_t *v = tl_json_array(), *c = tl_json_array();

	for (size_t i = 0; i < f->hist.n; i++) {
		tl_json_append(v, tl_json_real(f->hist.v[i]));
		tl_json_append(c, json_integer((json_int_t)f->hist.c[i]));
	}
	return json_pack("{s:s, s:I, s:o, s:o, s:o}", "kind", f->hist_exact ? "exact" : "loglinear",
			 "n", (json_int_t)f->hist.total, "rel_error",
			 tl_json_real(f->hist_exact ? 0 : TL_HIST_REL_ERR), "values", v, "counts", c);
}

json_t *tl_fp_summary_to_json(const struct tl_fp_figures *f)
{
	json_t *figs = tl_json_object(), *iv = tl_json_object(), *from = tl_json_object();

	for (size_t k = 0; k < TL_FIG_COUNT; k++) {
		const char *key = tl_fig_info[k].key;

		tl_json_set(figs, key, tl_json_real(f->v[k]));
		if (isfinite(f->lo[k]) || isfinite(f->hi[k]))
			tl_json_set(iv, key, json_pack("[o, o]", tl_json_real(f->lo[k]),
						       tl_json_real(f->hi[k])));
		tl_json_set(from, key, json_string(f->from[k]));
	}
	json_t *sum;

	sum = json_pack("{s:{s:s, s:s, s:s, s:s, s:s, s:s, s:o, s:s, s:i, s:o, s:s}, s:o, s:o, "
			 "s:o, s:o}",
			 "facts", "name", f->node.name, "hostname", f->node.hostname, "slurm_node",
			 f->node.slurm_node, "slurm_job", f->node.slurm_job, "version", f->version,
			 "model", f->model, "tsc_ghz", tl_json_real(f->tsc_ghz), "barrier",
			 f->barrier, "cpu", f->cpu, "seconds", tl_json_real(f->seconds), "spoiled",
			 f->spoiled, "figures", figs, "intervals", iv, "from", from, "samples",
			 hist_json(f));
	if (f->noise_top[0])
		tl_json_set(json_object_get(sum, "facts"), "noise_top", json_string(f->noise_top));
	return sum;
}

static void copy_str(char *out, size_t len, const json_t *o, const char *key)
{
	snprintf(out, len, "%s", str_at(o, key));
}

/* The histogram's stated n is what its counts sum to, and its error bound
 * is one a histogram can have: a file that disagrees with itself is not
 * read as if one half were true. */
static int hist_totals_ok(const json_t *h, const char *name, struct tl_fp_figures *f, char *why,
			  size_t whylen)
{
	const json_t *n = json_object_get(h, "n"), *rel = json_object_get(h, "rel_error");
	char what[200];

	if (n && (!json_is_integer(n) || (uint64_t)json_integer_value(n) != f->hist.total ||
		  json_integer_value(n) < 0)) {
		char stated[32] = "not a whole number";

		if (json_is_integer(n))
			snprintf(stated, sizeof stated, "%lld", (long long)json_integer_value(n));
		snprintf(what, sizeof what, "summary.samples.n: is %s, but the counts sum to %llu",
			 stated, (unsigned long long)f->hist.total);
		return fail(why, whylen, name, what);
	}
	if (rel && !json_is_null(rel) &&
	    (!json_is_number(rel) || !(json_number_value(rel) >= 0 && json_number_value(rel) < 1))) {
		snprintf(what, sizeof what, "summary.samples.rel_error: is %s, expected a number in [0, 1)",
			 json_is_number(rel) ? "out of range" : "not a number");
		return fail(why, whylen, name, what);
	}
	f->nsamples = (size_t)f->hist.total;
	return 0;
}

static int hist_from_json(const json_t *h, const char *name, struct tl_fp_figures *f, char *why,
			  size_t whylen)
{
	const json_t *v = json_object_get(h, "values"), *c = json_object_get(h, "counts");
	const char *kind = str_at(h, "kind");
	size_t n = json_array_size(v);

	if (!json_is_array(v) || !json_is_array(c) || json_array_size(c) != n ||
	    (strcmp(kind, "exact") != 0 && strcmp(kind, "loglinear") != 0))
		return fail(why, whylen, name, "summary.samples: needs kind \"exact\" or "
					       "\"loglinear\" and arrays values and counts of one length");
	f->hist_exact = strcmp(kind, "exact") == 0;
	f->hist.v = tl_xmalloc((n ? n : 1) * sizeof *f->hist.v);
	f->hist.c = tl_xmalloc((n ? n : 1) * sizeof *f->hist.c);
	for (size_t i = 0; i < n; i++) {
		const json_t *vi = json_array_get(v, i), *ci = json_array_get(c, i);
		double x = json_number_value(vi);

		if (!json_is_number(vi) || !isfinite(x) || x < 0 || !json_is_integer(ci) ||
		    json_integer_value(ci) <= 0 || (i > 0 && !(x > f->hist.v[i - 1])))
			return fail(why, whylen, name, "summary.samples: values must be finite, "
						       ">= 0 and ascending, counts whole and positive");
		if ((uint64_t)json_integer_value(ci) > TL_FP_SAMPLES_MAX - f->hist.total)
			return fail(why, whylen, name, "summary.samples: more than 2^32 samples");
		if (x > TL_RESULTS_MAX_ABS) {
			char what[160];

			snprintf(what, sizeof what, "summary.samples.values[%zu]: is %g, beyond any "
						    "physical value (at most %g)", i, x, TL_RESULTS_MAX_ABS);
			return fail(why, whylen, name, what);
		}
		f->hist.v[i] = x;
		f->hist.c[i] = (uint64_t)json_integer_value(ci);
		f->hist.total += f->hist.c[i];
		f->hist.n = i + 1;
	}
	return hist_totals_ok(h, name, f, why, whylen);
}

/* A number of a summary at path: absent or null (a figure not measured)
 * passes; else finite, >= 0 and at most max, or -1 naming the key. */
static int summary_num_ok(const json_t *v, const char *path, double max, const char *name,
			  char *why, size_t whylen)
{
	char what[256];
	double x;

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v)) {
		snprintf(what, sizeof what, "%s: expected a number, got %s", path,
			 json_is_string(v) ? "a string" : json_is_array(v) ? "an array"
							: json_is_object(v) ? "an object" : "a boolean");
		return fail(why, whylen, name, what);
	}
	x = json_number_value(v);
	if (isfinite(x) && x >= 0 && x <= max)
		return 0;
	if (isfinite(x) && x > max)
		snprintf(what, sizeof what, "%s: is %g, beyond any physical value (at most %g)", path,
			 x, max);
	else
		snprintf(what, sizeof what, "%s: is %g, expected a number >= 0", path, x);
	return fail(why, whylen, name, what);
}

/* Times, shares and rates a node could have measured: none negative or
 * beyond TL_RESULTS_MAX_ABS (a 1e300 ns t_min is no result), each
 * interval [lo, hi] of such numbers with lo <= hi. */
static int summary_numbers_ok(const json_t *sum, const char *name, char *why, size_t whylen)
{
	const json_t *facts = json_object_get(sum, "facts"), *figs = json_object_get(sum, "figures");
	const json_t *iv = json_object_get(sum, "intervals");
	char path[128], what[256];

	if (summary_num_ok(json_object_get(facts, "tsc_ghz"), "summary.facts.tsc_ghz", 1e3, name,
			   why, whylen) < 0 ||
	    summary_num_ok(json_object_get(facts, "seconds"), "summary.facts.seconds",
			   TL_RESULTS_MAX_ABS, name, why, whylen) < 0)
		return -1;
	for (size_t k = 0; k < TL_FIG_COUNT; k++) {
		const char *key = tl_fig_info[k].key;
		const json_t *pair = json_object_get(iv, key);

		snprintf(path, sizeof path, "summary.figures.%s", key);
		if (summary_num_ok(json_object_get(figs, key), path, TL_RESULTS_MAX_ABS, name, why,
				   whylen) < 0)
			return -1;
		if (!pair || json_is_null(pair))
			continue;
		snprintf(path, sizeof path, "summary.intervals.%s", key);
		if (!json_is_array(pair) || json_array_size(pair) != 2) {
			snprintf(what, sizeof what, "%s: expected [lo, hi]", path);
			return fail(why, whylen, name, what);
		}
		for (size_t i = 0; i < 2; i++) {
			snprintf(path, sizeof path, "summary.intervals.%s[%zu]", key, i);
			if (summary_num_ok(json_array_get(pair, i), path, TL_RESULTS_MAX_ABS, name, why,
					   whylen) < 0)
				return -1;
		}
		if (num_at_index(pair, 0) > num_at_index(pair, 1)) {
			snprintf(what, sizeof what, "summary.intervals.%s: [%g, %g] ends below its start",
				 key, num_at_index(pair, 0), num_at_index(pair, 1));
			return fail(why, whylen, name, what);
		}
	}
	return 0;
}

int tl_fp_summary_from_json(const json_t *sum, const char *name, struct tl_fp_figures *f,
			    char *why, size_t whylen)
{
	const json_t *facts = json_object_get(sum, "facts"), *figs = json_object_get(sum, "figures");
	const json_t *iv = json_object_get(sum, "intervals"), *from = json_object_get(sum, "from");

	memset(f, 0, sizeof *f);
	if (!json_is_object(facts) || !json_is_object(figs) || !json_is_object(iv) ||
	    !json_is_object(from) || !json_is_object(json_object_get(sum, "samples")))
		return fail(why, whylen, name, "a summary needs objects facts, figures, intervals, "
					       "from and samples");
	if (names_ok_in(facts, "summary.facts", name, why, whylen) < 0 ||
	    summary_numbers_ok(sum, name, why, whylen) < 0)
		return -1;
	copy_str(f->node.name, sizeof f->node.name, facts, "name");
	copy_str(f->node.hostname, sizeof f->node.hostname, facts, "hostname");
	copy_str(f->node.slurm_node, sizeof f->node.slurm_node, facts, "slurm_node");
	copy_str(f->node.slurm_job, sizeof f->node.slurm_job, facts, "slurm_job");
	copy_str(f->version, sizeof f->version, facts, "version");
	copy_str(f->model, sizeof f->model, facts, "model");
	copy_str(f->barrier, sizeof f->barrier, facts, "barrier");
	copy_str(f->spoiled, sizeof f->spoiled, facts, "spoiled");
	copy_str(f->noise_top, sizeof f->noise_top, facts, "noise_top");
	f->tsc_ghz = num_at(facts, "tsc_ghz");
	f->cpu = (int)json_integer_value(json_object_get(facts, "cpu"));
	f->seconds = num_at(facts, "seconds");
	for (size_t k = 0; k < TL_FIG_COUNT; k++) {
		const char *key = tl_fig_info[k].key;
		const json_t *pair = json_object_get(iv, key);

		f->v[k] = num_at(figs, key);
		f->lo[k] = json_is_array(pair) ? num_at_index(pair, 0) : NAN;
		f->hi[k] = json_is_array(pair) ? num_at_index(pair, 1) : NAN;
		copy_str(f->from[k], sizeof f->from[k], from, key);
		safe_in_place(f->from[k], sizeof f->from[k]);
	}
	/* a partial's strings never passed node_facts' escaping */
	safe_in_place(f->node.slurm_job, sizeof f->node.slurm_job);
	safe_in_place(f->version, sizeof f->version);
	safe_in_place(f->model, sizeof f->model);
	safe_in_place(f->barrier, sizeof f->barrier);
	safe_in_place(f->spoiled, sizeof f->spoiled);
	safe_in_place(f->noise_top, sizeof f->noise_top);
	if (hist_from_json(json_object_get(sum, "samples"), name, f, why, whylen) < 0 ||
	    figures_ok(f, name, why, whylen) < 0) {
		tl_fp_figures_free(f);
		return -1;
	}
	return 0;
}

json_t *tl_fp_compact(const json_t *doc, const char *name, char *why, size_t whylen)
{
	struct tl_fp_figures f;
	json_t *out;

	if (tl_fp_figures_from_json(doc, name, &f, why, whylen) < 0)
		return NULL;
	out = json_copy((json_t *)doc);
	if (!out) {
		tl_fp_figures_free(&f);
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	json_object_del(out, "run");
	tl_json_set(out, "summary", tl_fp_summary_to_json(&f));
	tl_fp_figures_free(&f);
	return out;
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

/* s escaped into one of a few rotating buffers: the loaders check and
 * escape these strings already; printing escapes them again, so a loader
 * that forgets cannot reach the terminal (idempotent on escaped text). */
static const char *safe_str(const char *s)
{
	static char buf[8][512];
	static unsigned next;

	return tl_term_safe(s, buf[next++ % 8], sizeof buf[0]);
}

void tl_fp_table_print(FILE *out, const struct tl_fp_figures *f)
{
	fprintf(out, "fingerprint of %s (host %s%s%s%s%s), ticklab %s, %.1f s\n",
		safe_str(f->node.name), safe_str(f->node.hostname),
		f->node.slurm_node[0] ? ", Slurm node " : "", safe_str(f->node.slurm_node),
		f->node.slurm_job[0] ? ", job " : "", safe_str(f->node.slurm_job), safe_str(f->version),
		f->seconds);
	fprintf(out, "%s, TSC %.4g GHz, sampling CPU %d, barrier %s\n",
		f->model[0] ? safe_str(f->model) : "?", f->tsc_ghz, f->cpu, safe_str(f->barrier));
	fprintf(out, "spoilers: %s\n\n", f->spoiled[0] ? safe_str(f->spoiled) : "none");
	fprintf(out, "%-10s %12s  %s\n", "figure", "value", "from");
	for (size_t i = 0; i < TL_FIG_COUNT; i++) {
		char v[32], lo[32], hi[32], iv[80] = "";

		tl_fig_format((enum tl_fig)i, f->v[i], v, sizeof v);
		if (isfinite(f->lo[i]) && isfinite(f->hi[i])) {
			tl_fig_format((enum tl_fig)i, f->lo[i], lo, sizeof lo);
			tl_fig_format((enum tl_fig)i, f->hi[i], hi, sizeof hi);
			snprintf(iv, sizeof iv, " [%s, %s]", lo, hi);
		}
		fprintf(out, "%-10s %12s  %s%s\n", tl_fig_info[i].label, v, safe_str(f->from[i]), iv);
	}
	if (f->noise_top[0])
		fprintf(out, "noise: busiest interrupt sources but the tick: %s\n",
			safe_str(f->noise_top));
}
