#include "config.h"

#include "io/search_json.h"
#include "io/file_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "io/json_build.h"
#include "io/results.h"
#include "stats/stats.h"

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static json_t *count(size_t v)
{
	return json_integer((json_int_t)v);
}

/* The evaluated points as [[x, y], ...]: x the K or delta (whole ADDs),
 * y the CV or overlap (null when it was not a number). */
static json_t *points_json(const struct tl_search_points *pts)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; a && i < pts->n; i++)
		tl_json_append(a, json_pack("[I, o]", (json_int_t)llround(pts->xy[i][0]),
						   tl_json_real(pts->xy[i][1])));
	return a;
}

/* One search of one repeat (the keys `search --json` always had, and the
 * points it evaluated, for the figures). */
static json_t *result_json(const struct tl_search_result *r, int kind,
			   const struct tl_search_points *pts)
{
	json_t *j = tl_json_object();

	tl_json_set(j, "adds", r->converged ? json_integer((json_int_t)r->adds) : json_null());
	tl_json_set(j, "ns", tl_json_real(r->converged ? r->ns : NAN));
	tl_json_set(j, "method", json_string(tl_search_method_name(r->method)));
	tl_json_set(j, "measurements", count(r->measurements));
	tl_json_set(j, "seconds", tl_json_real(r->seconds));
	tl_json_set(j, "converged", json_boolean(r->converged));
	tl_json_set(j, "stopped", json_boolean(r->stopped));
	tl_json_set(j, kind == 0 ? "cv" : "alpha", tl_json_real(r->stat));
	tl_json_set(j, "on_floor", json_boolean(r->on_floor));
	tl_json_set(j, "floor_ns", tl_json_real(r->floor_ns));
	tl_json_set(j, "evaluations", count(r->evaluations));
	tl_json_set(j, "predicted_adds", tl_json_real(r->predicted_adds));
	if (kind == 0) {
		tl_json_set(j, "lowest_cv_adds", json_integer((json_int_t)r->best_adds));
		tl_json_set(j, "lowest_cv", tl_json_real(r->best_cv));
		tl_json_set(j, "drift_at_lowest_cv", tl_json_real(r->best_drift));
		tl_json_set(j, "cv_within", tl_json_real(r->cv_within));
		tl_json_set(j, "cv_drift", tl_json_real(r->cv_drift));
		tl_json_set(j, "steady_adds", tl_json_real(r->steady_adds));
		tl_json_set(j, "steady_lo", tl_json_real(r->steady_lo));
		tl_json_set(j, "steady_hi", tl_json_real(r->steady_hi));
	} else {
		tl_json_set(j, "order", json_string(tl_tdiff_order_name(r->order)));
	}
	tl_json_set(j, "bound_adds", json_integer((json_int_t)r->bound_adds));
	tl_json_set(j, "out_of_time", json_boolean(r->out_of_time));
	tl_json_set(j, "note", json_string(r->note));
	tl_json_set(j, "points", points_json(pts));
	return j;
}

/* The first repeat's note that says something (they usually agree). */
static const char *first_note(const struct tl_search_cell *c, unsigned nrep, int kind)
{
	for (unsigned r = 0; r < nrep; r++) {
		const struct tl_search_result *res = kind == 0 ? &c->rep[r].tmin : &c->rep[r].tdiff;

		if (c->rep[r].ran && res->note[0])
			return res->note;
	}
	return "";
}

static json_t *metric_json(const struct tl_search_plan *p, const struct tl_search_cell *c, int kind)
{
	const struct tl_search_stat *s = kind == 0 ? &c->tmin : &c->tdiff;
	json_t *j = tl_json_object(), *reps = tl_json_array();

	tl_json_set(j, "adds", s->found ? json_integer((json_int_t)llround(s->adds)) : json_null());
	tl_json_set(j, "ns", tl_json_real(s->ns));
	tl_json_set(j, "method", json_string(tl_search_method_name(p->sp.method)));
	tl_json_set(j, "measurements", count(s->measurements));
	tl_json_set(j, "seconds", tl_json_real(s->seconds));
	tl_json_set(j, "converged", json_boolean(s->ran && 2 * s->found > s->ran));
	tl_json_set(j, "found", count(s->found));
	tl_json_set(j, "ran", count(s->ran));
	/* an interval only where the status allows one (tl_search_stat_status) */
	bool iv = s->status == TL_STATUS_INTERVAL;
	char text[96];

	tl_search_stat_text(text, sizeof text, s);
	tl_json_set(j, "status", json_string(tl_search_status_name(s->status)));
	tl_json_set(j, "status_text", json_string(text));
	tl_json_set(j, "provisional", json_boolean(s->provisional));
	tl_json_set(j, "lo", tl_json_real(iv ? s->lo : NAN));
	tl_json_set(j, "hi", tl_json_real(iv ? s->hi : NAN));
	tl_json_set(j, "lo_ns", tl_json_real(iv ? s->lo_ns : NAN));
	tl_json_set(j, "hi_ns", tl_json_real(iv ? s->hi_ns : NAN));
	tl_json_set(j, "interval_method",
		    json_string(iv ? tl_search_interval_method((unsigned)s->found) : "none"));
	tl_json_set(j, "unstable", json_boolean(s->unstable));
	tl_json_set(j, "unstable_why", s->unstable ? json_string(s->why) : json_null());
	if (kind == 0) {
		/* where no t_min exists at eps, how steady it got and where */
		tl_json_set(j, "cv_floor", tl_json_real(s->cv_floor));
		tl_json_set(j, "cv_floor_adds", tl_json_real(s->cv_floor_adds));
		/* that floor in its parts, and t_min on a steady clock */
		char steady[400];

		tl_search_steady_text(steady, sizeof steady, s);
		tl_json_set(j, "cv_within", tl_json_real(s->cv_within));
		tl_json_set(j, "cv_drift", tl_json_real(s->cv_drift));
		tl_json_set(j, "steady_adds", tl_json_real(s->steady_adds));
		tl_json_set(j, "steady_text", steady[0] ? json_string(steady) : json_null());
	}
	tl_json_set(j, "bound_adds", tl_json_real(s->bound_adds));
	tl_json_set(j, "bound_ns", tl_json_real(s->bound_ns));
	tl_json_set(j, "note", json_string(first_note(c, p->repeats, kind)));
	for (unsigned r = 0; r < p->repeats; r++) {
		const struct tl_search_rep *rep = &c->rep[r];
		bool done = rep->ran && (kind == 0 ? rep->done_tmin : rep->done_tdiff);

		tl_json_append(reps, done ? result_json(kind == 0 ? &rep->tmin : &rep->tdiff, kind,
							       &rep->points[kind])
						 : json_null());
	}
	tl_json_set(j, "repeats", reps);
	return j;
}

static void ratio_json(json_t *j, const char *key, const struct tl_search_ratio *r)
{
	char k[48];
	const char *rel = r->rel == '=' ? "=" : r->rel == '>' ? ">=" : r->rel == '<' ? "<=" : NULL;

	tl_json_set(j, key, tl_json_real(r->rel ? r->value : NAN));
	snprintf(k, sizeof k, "%s_relation", key);
	tl_json_set(j, k, rel ? json_string(rel) : json_null());
	snprintf(k, sizeof k, "%s_lo", key);
	tl_json_set(j, k, tl_json_real(r->lo));
	snprintf(k, sizeof k, "%s_hi", key);
	tl_json_set(j, k, tl_json_real(r->hi));
	if (!r->rel) {
		snprintf(k, sizeof k, "%s_why", key);
		tl_json_set(j, k, json_string(r->why));
	} else if (r->basis[0]) {
		/* a bound, or medians without an interval: what it rests on */
		snprintf(k, sizeof k, "%s_basis", key);
		tl_json_set(j, k, json_string(r->basis));
	}
}

static json_t *relaxed_side_json(const struct tl_search_relaxed_side *s)
{
	json_t *j = tl_json_object();
	char text[200];

	tl_search_relaxed_side_text(text, sizeof text, s);
	tl_json_set(j, "adds", tl_json_real(s->adds));
	tl_json_set(j, "ns", tl_json_real(s->ns));
	tl_json_set(j, "found", count(s->found));
	tl_json_set(j, "ran", count(s->ran));
	/* the evaluated points around the crossings: a bracket, not a 95 % interval */
	tl_json_set(j, "status", json_string(!s->found ? "not_reached" : s->lo > 0 ? "curve_bracket"
									      : "upper_bound"));
	tl_json_set(j, "lo", tl_json_real(s->lo));
	tl_json_set(j, "hi", tl_json_real(s->hi));
	tl_json_set(j, "lo_ns", tl_json_real(s->lo_ns));
	tl_json_set(j, "hi_ns", tl_json_real(s->hi_ns));
	tl_json_set(j, "status_text", json_string(text));
	return j;
}

/* t_min at the smallest eps both sides' CV floors reach, where a side has
 * none at eps (null otherwise) */
static json_t *relaxed_json(const struct tl_search_relaxed *x)
{
	json_t *j;
	char text[600];

	if (!(x->eps > 0) || !isfinite(x->eps))
		return json_null();
	j = tl_json_object();
	tl_search_relaxed_text(text, sizeof text, x, "x");
	tl_json_set(j, "eps", tl_json_real(x->eps));
	tl_json_set(j, "method", json_string("cv_curve_crossing"));
	tl_json_set(j, "value", relaxed_side_json(&x->self));
	tl_json_set(j, "reference", relaxed_side_json(&x->ref));
	tl_json_set(j, "ratio", tl_json_real(x->ratio));
	tl_json_set(j, "ratio_lo", tl_json_real(x->lo));
	tl_json_set(j, "ratio_hi", tl_json_real(isinf(x->hi) ? NAN : x->hi));
	tl_json_set(j, "text", json_string(text));
	return j;
}

static json_t *rep_json(const struct tl_search_rep *rep)
{
	json_t *j;

	if (!rep->ran)
		return json_null();
	j = tl_json_object();
	tl_json_set(j, "overhead", tl_json_real(rep->overhead_ns));
	tl_json_set(j, "ns_per_add", tl_json_real(rep->ns_per_add));
	tl_json_set(j, "ns_per_add_r2", tl_json_real(rep->fit_r2));
	tl_json_set(j, "resolution_ns", tl_json_real(rep->resolution_ns));
	tl_json_set(j, "flush_seconds", tl_json_real(rep->flush_s));
	tl_json_set(j, "n_per_evaluation", count(rep->fast_n));
	tl_json_set(j, "setup_measurements", count(rep->setup_measurements));
	if (rep->why[0])
		tl_json_set(j, "error", json_string(rep->why));
	return j;
}

static const char *state_name(enum tl_search_state s)
{
	static const char *const names[] = {"waiting", "running", "done", "failed"};

	return names[s];
}

static json_t *cell_json(const struct tl_search_plan *p, const struct tl_search_cell *c)
{
	json_t *j = tl_json_object(), *reps = tl_json_array();

	tl_json_set(j, "backend", json_string(p->backends[c->b]));
	tl_json_set(j, "flush_bytes", json_integer((json_int_t)p->flush[c->f]));
	tl_json_set(j, "flush", json_string(p->flush_names[c->f]));
	tl_json_set(j, "overhead", tl_json_real(c->overhead_ns));
	tl_json_set(j, "ns_per_add", tl_json_real(c->ns_per_add));
	tl_json_set(j, "ns_per_add_r2", tl_json_real(c->fit_r2));
	tl_json_set(j, "resolution_ns", tl_json_real(c->resolution_ns));
	tl_json_set(j, "flush_seconds", tl_json_real(c->flush_s));
	tl_json_set(j, "n_per_evaluation", count(c->fast_n));
	tl_json_set(j, "setup_measurements", count(c->setup_measurements));
	tl_json_set(j, "state", json_string(state_name(c->state)));
	if (c->why[0])
		tl_json_set(j, "error", json_string(c->why));
	tl_json_set(j, "tmin", metric_json(p, c, 0));
	tl_json_set(j, "tdiff", metric_json(p, c, 1));
	ratio_json(j, "ratio_tmin", &c->ratio_tmin);
	ratio_json(j, "ratio_tdiff", &c->ratio_tdiff);
	tl_json_set(j, "t_min_relaxed", relaxed_json(&c->ratio_tmin.relaxed));
	for (unsigned r = 0; r < p->repeats; r++)
		tl_json_append(reps, rep_json(&c->rep[r]));
	tl_json_set(j, "repeats", reps);
	return j;
}

static json_t *params_json(const struct tl_search_plan *p)
{
	const struct tl_search_params *sp = &p->sp;
	json_t *j = tl_json_object();

	tl_json_set(j, "method", json_string(tl_search_method_name(sp->method)));
	tl_json_set(j, "tdiff_order", json_string(tl_tdiff_order_name(sp->order)));
	tl_json_set(j, "eps", tl_json_real(sp->eps));
	tl_json_set(j, "alpha", tl_json_real(sp->alpha));
	tl_json_set(j, "n", count(sp->n));
	tl_json_set(j, "p", json_integer(sp->p));
	tl_json_set(j, "q", json_integer(sp->q));
	tl_json_set(j, "tmin_step", json_integer((json_int_t)sp->tmin_step));
	tl_json_set(j, "tdiff_step", json_integer((json_int_t)sp->tdiff_step));
	tl_json_set(j, "max_adds", json_integer((json_int_t)sp->max_adds));
	tl_json_set(j, "os_filter", json_string(stats_os_method_name(sp->os)));
	tl_json_set(j, "seed", json_integer((json_int_t)sp->seed));
	tl_json_set(j, "budget_seconds", tl_json_real(p->budget_s));
	tl_json_set(j, "repeats", json_integer(p->repeats));
	tl_json_set(j, "tdiff", json_boolean(p->want_tdiff));
	return j;
}

json_t *tl_search_to_json(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			  json_t *host, bool interrupted)
{
	json_t *doc = tl_json_object(), *meta = tl_json_object(), *results = tl_json_array();

	tl_json_set(meta, "version", json_string(PACKAGE_VERSION));
	tl_json_set(meta, "command", json_string("search"));
	tl_json_set(doc, "ticklab", meta);
	tl_json_set(doc, "host", host ? host : json_null());
	tl_json_set(doc, "params", params_json(p));
	tl_json_set(doc, "reference", json_string(p->backends[p->ref]));
	tl_json_set(doc, "interval_method", json_string(tl_search_interval_method(p->repeats)));
	tl_json_set(doc, "interrupted", json_boolean(interrupted));
	for (size_t i = 0; i < p->nbackends * p->nflush; i++)
		tl_json_append(results, cell_json(p, &cells[i]));
	tl_json_set(doc, "results", results);
	return doc;
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

bool tl_search_json_is(const json_t *doc)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(doc, "ticklab"), "command"));

	return cmd && strcmp(cmd, "search") == 0;
}

struct reader {
	const char *name;
	char *why;
	size_t whylen;
};

static int bad(const struct reader *rd, const char *where, const char *what)
{
	snprintf(rd->why, rd->whylen, "%s: %s: %s", rd->name, where, what);
	return -1;
}

/* A number, or NaN for null or absent. */
static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static uint64_t whole(const json_t *o, const char *key, uint64_t dflt)
{
	double v = num(o, key);

	return v >= 0 ? (uint64_t)v : dflt;
}

static const char *text(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static int read_params(const struct reader *rd, const json_t *doc, struct tl_search_plan *p)
{
	const json_t *j = json_object_get(doc, "params");
	int m;

	if (!json_is_object(j))
		return bad(rd, "params", "missing (not a search file?)");
	m = tl_search_method_parse(text(j, "method"));
	if (m < 0)
		return bad(rd, "params.method", "not fast or paper");
	p->sp.method = (enum tl_search_method)m;
	/* files from before the interleaved order measured in the paper's */
	m = json_object_get(j, "tdiff_order") ? tl_tdiff_order_parse(text(j, "tdiff_order"))
					      : TL_TDIFF_PAPER;
	if (m < 0)
		return bad(rd, "params.tdiff_order", "not interleaved or paper");
	p->sp.order = (enum tl_tdiff_order)m;
	m = stats_os_method_parse(text(j, "os_filter"));
	if (m < 0)
		return bad(rd, "params.os_filter", "not iforest, iqr or none");
	p->sp.os = (enum tl_os_method)m;
	p->sp.eps = num(j, "eps");
	p->sp.alpha = num(j, "alpha");
	if (!(p->sp.eps > 0 && p->sp.eps < 1) || !(p->sp.alpha >= 0 && p->sp.alpha < 1))
		return bad(rd, "params", "eps or alpha missing or out of range");
	p->sp.n = (size_t)whole(j, "n", p->sp.n);
	p->sp.p = (unsigned)whole(j, "p", p->sp.p);
	p->sp.q = (unsigned)whole(j, "q", p->sp.q);
	p->sp.tmin_step = whole(j, "tmin_step", p->sp.tmin_step);
	p->sp.tdiff_step = whole(j, "tdiff_step", p->sp.tdiff_step);
	p->sp.max_adds = whole(j, "max_adds", p->sp.max_adds);
	p->sp.seed = whole(j, "seed", p->sp.seed);
	if (isfinite(num(j, "budget_seconds")))
		p->budget_s = num(j, "budget_seconds");
	/* files from before the repeats hold one search per metric */
	p->repeats = (unsigned)whole(j, "repeats", 1);
	if (p->repeats < 1 || p->repeats > 256)
		return bad(rd, "params.repeats", "not 1 to 256");
	p->want_tdiff = !json_is_false(json_object_get(j, "tdiff"));
	return 0;
}

static size_t find_or_add(const char **names, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	names[*n] = name;
	return (*n)++;
}

/* Backends and flushes in the order the results list them. */
static int read_lists(const struct reader *rd, const json_t *results, struct tl_search_plan *p)
{
	size_t n = json_array_size(results), nb = 0, nf = 0;
	const char **b = tl_xcalloc(n + 1, sizeof(*b)), **fn = tl_xcalloc(n + 1, sizeof(*fn));
	uint64_t *fb = tl_xcalloc(n + 1, sizeof(*fb));
	int rc = -1;

	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(results, i);
		const char *id = json_string_value(json_object_get(c, "backend"));
		double bytes = num(c, "flush_bytes");
		size_t before = nf;

		if (!id || !(bytes >= 0)) {
			bad(rd, "results[]", "a result without backend or flush_bytes");
			goto out;
		}
		find_or_add(b, &nb, id);
		size_t f = find_or_add(fn, &nf, text(c, "flush")[0] ? text(c, "flush") : "?");
		if (nf > before)
			fb[f] = (uint64_t)bytes;
	}
	if (nb * nf != n) {
		bad(rd, "results", "not one result per backend x flush");
		goto out;
	}
	tl_search_plan_set(p, b, nb, fn, fb, nf);
	rc = 0;
out:
	free(b);
	free(fn);
	free(fb);
	return rc;
}

static void read_result(const json_t *j, int kind, enum tl_search_method m,
			struct tl_search_result *r)
{
	memset(r, 0, sizeof(*r));
	r->method = m;
	r->converged = json_is_true(json_object_get(j, "converged"));
	r->adds = whole(j, "adds", 0);
	r->ns = num(j, "ns");
	r->measurements = (size_t)whole(j, "measurements", 0);
	r->seconds = num(j, "seconds");
	r->stopped = json_is_true(json_object_get(j, "stopped"));
	r->stat = num(j, kind == 0 ? "cv" : "alpha");
	r->on_floor = json_is_true(json_object_get(j, "on_floor"));
	r->floor_ns = num(j, "floor_ns");
	r->evaluations = (size_t)whole(j, "evaluations", 0);
	r->predicted_adds = num(j, "predicted_adds");
	r->best_adds = whole(j, "lowest_cv_adds", 0);
	r->best_cv = num(j, "lowest_cv");
	r->best_drift = num(j, "drift_at_lowest_cv");
	r->cv_within = num(j, "cv_within");
	r->cv_drift = num(j, "cv_drift");
	r->steady_adds = num(j, "steady_adds");
	r->steady_lo = num(j, "steady_lo");
	r->steady_hi = num(j, "steady_hi");
	if (kind == 1) {
		int o = tl_tdiff_order_parse(text(j, "order"));

		r->order = o < 0 ? TL_TDIFF_PAPER : (enum tl_tdiff_order)o;
	}
	r->bound_adds = whole(j, "bound_adds", 0);
	r->out_of_time = json_is_true(json_object_get(j, "out_of_time"));
	snprintf(r->note, sizeof r->note, "%s", text(j, "note"));
}

/* Repeat r of one metric: its entry in "repeats", or the metric itself in
 * a file from before the repeats. NULL when that repeat did not search it. */
static const json_t *metric_rep(const json_t *metric, unsigned r)
{
	const json_t *reps = json_object_get(metric, "repeats");

	if (!json_is_array(reps))
		return r == 0 && json_is_object(metric) ? metric : NULL;
	metric = json_array_get(reps, r);
	return json_is_object(metric) ? metric : NULL;
}

/* "points" of one repeat's search; absent in files from before them. */
static int read_points(const struct reader *rd, const json_t *j, const char *where,
		       struct tl_search_points *pts)
{
	const json_t *a = json_object_get(j, "points"), *pt;
	size_t i;

	if (!a)
		return 0;
	if (!json_is_array(a))
		return bad(rd, where, "\"points\" is not a list of [x, y] pairs");
	json_array_foreach(a, i, pt) {
		const json_t *x = json_array_get(pt, 0), *y = json_array_get(pt, 1);

		if (!json_is_array(pt) || json_array_size(pt) != 2 || !json_is_number(x) ||
		    !(json_is_number(y) || json_is_null(y)) || json_number_value(x) < 0) {
			char at[128];

			snprintf(at, sizeof at, "%s.points[%zu]", where, i);
			return bad(rd, at, "not an [x, y] pair (x >= 0 ADDs, y a number or null)");
		}
		tl_search_points_add(pts, json_number_value(x),
				     json_is_null(y) ? NAN : json_number_value(y));
	}
	return 0;
}

static void read_rep(const json_t *c, unsigned r, enum tl_search_method m, struct tl_search_rep *rep)
{
	const json_t *reps = json_object_get(c, "repeats");
	const json_t *j = json_is_array(reps) ? json_array_get(reps, r) : r == 0 ? c : NULL;
	const json_t *t0 = metric_rep(json_object_get(c, "tmin"), r);
	const json_t *t1 = metric_rep(json_object_get(c, "tdiff"), r);

	memset(rep, 0, sizeof(*rep));
	if (!json_is_object(j))
		return;
	rep->ran = true;
	rep->overhead_ns = num(j, "overhead");
	rep->ns_per_add = num(j, "ns_per_add");
	rep->fit_r2 = num(j, "ns_per_add_r2");
	rep->resolution_ns = num(j, "resolution_ns");
	rep->flush_s = num(j, "flush_seconds");
	rep->fast_n = (size_t)whole(j, "n_per_evaluation", 0);
	rep->setup_measurements = (size_t)whole(j, "setup_measurements", 0);
	snprintf(rep->why, sizeof rep->why, "%s", text(j, "error"));
	rep->done_tmin = t0 != NULL;
	rep->done_tdiff = t1 != NULL;
	if (t0)
		read_result(t0, 0, m, &rep->tmin);
	if (t1)
		read_result(t1, 1, m, &rep->tdiff);
}

static enum tl_search_state state_parse(const char *s)
{
	return strcmp(s, "failed") == 0 ? TL_CELL_FAILED
	       : strcmp(s, "waiting") == 0 ? TL_CELL_WAITING
	       : strcmp(s, "running") == 0 ? TL_CELL_RUNNING
					   : TL_CELL_DONE;
}

static int read_cell(const struct reader *rd, const struct tl_search_plan *p, const json_t *c,
		     size_t i, struct tl_search_cell *cell)
{
	static const char *const metric[2] = {"tmin", "tdiff"};

	cell->state = state_parse(text(c, "state"));
	snprintf(cell->why, sizeof cell->why, "%s", text(c, "error"));
	for (unsigned r = 0; r < p->repeats; r++) {
		read_rep(c, r, p->sp.method, &cell->rep[r]);
		cell->reps_done += cell->rep[r].ran;
		for (int k = 0; k < 2; k++) {
			const json_t *j = metric_rep(json_object_get(c, metric[k]), r);
			char where[96];

			snprintf(where, sizeof where, "results[%zu].%s.repeats[%u]", i, metric[k], r);
			if (j && read_points(rd, j, where, &cell->rep[r].points[k]) < 0)
				return -1;
		}
	}
	return 0;
}

int tl_search_from_json(const json_t *doc, const char *name, struct tl_search_plan *p,
			struct tl_search_cell **cells, bool *interrupted, char *why, size_t whylen)
{
	struct reader rd = {name, why, whylen};
	const json_t *results = json_object_get(doc, "results");
	const char *ref = text(doc, "reference");

	tl_search_plan_default(p);
	*cells = NULL;
	if (!tl_search_json_is(doc))
		return bad(&rd, "ticklab.command", "not \"search\"");
	/* Every number and string the file holds, before any is used. */
	if (tl_search_json_check(doc, name, why, whylen) < 0)
		return -1;
	if (!json_is_array(results) || json_array_size(results) == 0)
		return bad(&rd, "results", "missing or empty");
	if (read_params(&rd, doc, p) < 0 || read_lists(&rd, results, p) < 0)
		return -1;
	for (size_t b = 0; b < p->nbackends; b++)
		if (strcmp(p->backends[b], ref) == 0)
			p->ref = b;
	*interrupted = json_is_true(json_object_get(doc, "interrupted"));
	*cells = tl_search_cells_new(p);
	for (size_t i = 0; i < json_array_size(results); i++) {
		const json_t *c = json_array_get(results, i);
		size_t b = 0, f = 0;

		while (strcmp(p->backends[b], text(c, "backend")) != 0)
			b++;
		while (p->flush[f] != whole(c, "flush_bytes", 0))
			f++;
		if (read_cell(&rd, p, c, i, &(*cells)[tl_search_cell_index(p, b, f)]) < 0) {
			tl_search_cells_free(*cells, p->nbackends * p->nflush);
			*cells = NULL;
			return -1;
		}
	}
	tl_search_summarise(p, *cells);
	return 0;
}
