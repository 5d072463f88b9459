#include "config.h"

#include "io/search_json.h"
#include "io/file_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "io/json_build.h"
#include "io/results.h"
#include "io/search_keys.h"
#include "io/term_safe.h"
#include "stats/stats.h"

/* The file's keys, object by object (io/search_keys.c): what the writer
 * sets and the reader gets goes through them. */
static const struct tl_keys *const result_k = &tl_search_result_keys;
static const struct tl_keys *const metric_k = &tl_search_metric_keys;
static const struct tl_keys *const side_k = &tl_search_side_keys;
static const struct tl_keys *const relaxed_k = &tl_search_relaxed_keys;
static const struct tl_keys *const rep_k = &tl_search_rep_keys;
static const struct tl_keys *const cell_k = &tl_search_cell_keys;
static const struct tl_keys *const params_k = &tl_search_params_keys;
static const struct tl_keys *const doc_k = &tl_search_doc_keys;

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

	tl_keys_num(j, result_k, "adds", r->converged ? (double)r->adds : NAN);
	tl_keys_num(j, result_k, "ns", r->converged ? r->ns : NAN);
	tl_keys_set(j, result_k, "method", json_string(tl_search_method_name(r->method)));
	tl_keys_set(j, result_k, "measurements", count(r->measurements));
	tl_keys_num(j, result_k, "seconds", r->seconds);
	tl_keys_set(j, result_k, "converged", json_boolean(r->converged));
	tl_keys_set(j, result_k, "stopped", json_boolean(r->stopped));
	tl_keys_num(j, result_k, kind == 0 ? "cv" : "alpha", r->stat);
	tl_keys_set(j, result_k, "on_floor", json_boolean(r->on_floor));
	tl_keys_num(j, result_k, "floor_ns", r->floor_ns);
	tl_keys_set(j, result_k, "evaluations", count(r->evaluations));
	tl_keys_num(j, result_k, "predicted_adds", r->predicted_adds);
	if (kind == 0) {
		tl_keys_set(j, result_k, "lowest_cv_adds", json_integer((json_int_t)r->best_adds));
		tl_keys_num(j, result_k, "lowest_cv", r->best_cv);
		tl_keys_num(j, result_k, "drift_at_lowest_cv", r->best_drift);
		tl_keys_num(j, result_k, "cv_within", r->cv_within);
		tl_keys_num(j, result_k, "cv_drift", r->cv_drift);
		tl_keys_num(j, result_k, "steady_adds", r->steady_adds);
		tl_keys_num(j, result_k, "steady_lo", r->steady_lo);
		tl_keys_num(j, result_k, "steady_hi", r->steady_hi);
	} else {
		tl_keys_set(j, result_k, "order", json_string(tl_tdiff_order_name(r->order)));
		tl_keys_num(j, result_k, "a0_sd_ns", r->a0_sd_ns);
		tl_keys_num(j, result_k, "a0_top_sds", r->a0_top_sds);
	}
	tl_keys_set(j, result_k, "bound_adds", json_integer((json_int_t)r->bound_adds));
	tl_keys_set(j, result_k, "out_of_time", json_boolean(r->out_of_time));
	tl_keys_set(j, result_k, "note", json_string(r->note));
	tl_keys_set(j, result_k, "points", points_json(pts));
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

	tl_keys_num(j, metric_k, "adds", s->found ? s->adds : NAN);
	tl_keys_num(j, metric_k, "ns", s->ns);
	tl_keys_set(j, metric_k, "method", json_string(tl_search_method_name(p->sp.method)));
	tl_keys_set(j, metric_k, "measurements", count(s->measurements));
	tl_keys_num(j, metric_k, "seconds", s->seconds);
	tl_keys_set(j, metric_k, "converged", json_boolean(s->ran && 2 * s->found > s->ran));
	tl_keys_set(j, metric_k, "found", count(s->found));
	tl_keys_set(j, metric_k, "ran", count(s->ran));
	/* an interval only where the status allows one (tl_search_stat_status) */
	bool iv = s->status == TL_STATUS_INTERVAL;
	char text[96];

	tl_search_stat_text(text, sizeof text, s);
	tl_keys_set(j, metric_k, "status", json_string(tl_search_status_name(s->status)));
	tl_keys_set(j, metric_k, "status_text", json_string(text));
	tl_keys_set(j, metric_k, "provisional", json_boolean(s->provisional));
	tl_keys_num(j, metric_k, "lo", iv ? s->lo : NAN);
	tl_keys_num(j, metric_k, "hi", iv ? s->hi : NAN);
	tl_keys_num(j, metric_k, "lo_ns", iv ? s->lo_ns : NAN);
	tl_keys_num(j, metric_k, "hi_ns", iv ? s->hi_ns : NAN);
	tl_keys_set(j, metric_k, "interval_method",
		    json_string(iv ? tl_search_interval_method((unsigned)s->found) : "none"));
	tl_keys_set(j, metric_k, "unstable", json_boolean(s->unstable));
	tl_keys_set(j, metric_k, "unstable_why", s->unstable ? json_string(s->why) : json_null());
	if (kind == 0) {
		/* where no t_min exists at eps, how steady it got and where */
		tl_keys_num(j, metric_k, "cv_floor", s->cv_floor);
		tl_keys_num(j, metric_k, "cv_floor_adds", s->cv_floor_adds);
		/* that floor in its parts, and t_min on a steady clock */
		char steady[400];

		tl_search_steady_text(steady, sizeof steady, s);
		tl_keys_num(j, metric_k, "cv_within", s->cv_within);
		tl_keys_num(j, metric_k, "cv_drift", s->cv_drift);
		tl_keys_num(j, metric_k, "steady_adds", s->steady_adds);
		tl_keys_set(j, metric_k, "steady_text", steady[0] ? json_string(steady) : json_null());
	}
	tl_keys_num(j, metric_k, "bound_adds", s->bound_adds);
	tl_keys_num(j, metric_k, "bound_ns", s->bound_ns);
	tl_keys_set(j, metric_k, "note", json_string(first_note(c, p->repeats, kind)));
	for (unsigned r = 0; r < p->repeats; r++) {
		const struct tl_search_rep *rep = &c->rep[r];
		bool done = rep->ran && (kind == 0 ? rep->done_tmin : rep->done_tdiff);

		tl_json_append(reps, done ? result_json(kind == 0 ? &rep->tmin : &rep->tdiff, kind,
							       &rep->points[kind])
						 : json_null());
	}
	tl_keys_set(j, metric_k, "repeats", reps);
	return j;
}

static void ratio_json(json_t *j, const char *key, const struct tl_search_ratio *r)
{
	char k[48];
	const char *rel = r->rel == '=' ? "=" : r->rel == '>' ? ">=" : r->rel == '<' ? "<=" : NULL;

	tl_keys_num(j, cell_k, key, r->rel ? r->value : NAN);
	snprintf(k, sizeof k, "%s_relation", key);
	tl_keys_set(j, cell_k, k, rel ? json_string(rel) : json_null());
	snprintf(k, sizeof k, "%s_lo", key);
	tl_keys_num(j, cell_k, k, r->lo);
	snprintf(k, sizeof k, "%s_hi", key);
	tl_keys_num(j, cell_k, k, r->hi);
	if (!r->rel) {
		snprintf(k, sizeof k, "%s_why", key);
		tl_keys_set(j, cell_k, k, json_string(r->why));
	} else if (r->basis[0]) {
		/* a bound, or medians without an interval: what it rests on */
		snprintf(k, sizeof k, "%s_basis", key);
		tl_keys_set(j, cell_k, k, json_string(r->basis));
	}
}

static json_t *relaxed_side_json(const struct tl_search_relaxed_side *s)
{
	json_t *j = tl_json_object();
	char text[200];

	tl_search_relaxed_side_text(text, sizeof text, s);
	tl_keys_num(j, side_k, "adds", s->adds);
	tl_keys_num(j, side_k, "ns", s->ns);
	tl_keys_set(j, side_k, "found", count(s->found));
	tl_keys_set(j, side_k, "ran", count(s->ran));
	/* the evaluated points around the crossings: a bracket, not a 95 % interval */
	tl_keys_set(j, side_k, "status",
		    json_string(!s->found ? "not_reached"
				: s->lo > 0 ? "curve_bracket"
					    : "upper_bound"));
	tl_keys_num(j, side_k, "lo", s->lo);
	tl_keys_num(j, side_k, "hi", s->hi);
	tl_keys_num(j, side_k, "lo_ns", s->lo_ns);
	tl_keys_num(j, side_k, "hi_ns", s->hi_ns);
	tl_keys_set(j, side_k, "status_text", json_string(text));
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
	tl_keys_num(j, relaxed_k, "eps", x->eps);
	tl_keys_set(j, relaxed_k, "method", json_string("cv_curve_crossing"));
	tl_keys_set(j, relaxed_k, "value", relaxed_side_json(&x->self));
	tl_keys_set(j, relaxed_k, "reference", relaxed_side_json(&x->ref));
	tl_keys_num(j, relaxed_k, "ratio", x->ratio);
	tl_keys_num(j, relaxed_k, "ratio_lo", x->lo);
	tl_keys_num(j, relaxed_k, "ratio_hi", isinf(x->hi) ? NAN : x->hi);
	tl_keys_set(j, relaxed_k, "text", json_string(text));
	return j;
}

static json_t *rep_json(const struct tl_search_rep *rep)
{
	json_t *j;

	if (!rep->ran)
		return json_null();
	j = tl_json_object();
	tl_keys_num(j, rep_k, "overhead", rep->overhead_ns);
	tl_keys_num(j, rep_k, "ns_per_add", rep->ns_per_add);
	tl_keys_num(j, rep_k, "ns_per_add_r2", rep->fit_r2);
	tl_keys_num(j, rep_k, "resolution_ns", rep->resolution_ns);
	tl_keys_num(j, rep_k, "flush_seconds", rep->flush_s);
	tl_keys_set(j, rep_k, "n_per_evaluation", count(rep->fast_n));
	tl_keys_set(j, rep_k, "setup_measurements", count(rep->setup_measurements));
	if (rep->why[0])
		tl_keys_set(j, rep_k, "error", json_string(rep->why));
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

	tl_keys_set(j, cell_k, "backend", json_string(p->backends[c->b]));
	tl_keys_set(j, cell_k, "flush_bytes", json_integer((json_int_t)p->flush[c->f]));
	tl_keys_set(j, cell_k, "flush", json_string(p->flush_names[c->f]));
	tl_keys_num(j, cell_k, "overhead", c->overhead_ns);
	tl_keys_num(j, cell_k, "ns_per_add", c->ns_per_add);
	tl_keys_num(j, cell_k, "ns_per_add_r2", c->fit_r2);
	tl_keys_num(j, cell_k, "resolution_ns", c->resolution_ns);
	tl_keys_num(j, cell_k, "flush_seconds", c->flush_s);
	tl_keys_set(j, cell_k, "n_per_evaluation", count(c->fast_n));
	tl_keys_set(j, cell_k, "setup_measurements", count(c->setup_measurements));
	tl_keys_set(j, cell_k, "state", json_string(state_name(c->state)));
	if (c->why[0])
		tl_keys_set(j, cell_k, "error", json_string(c->why));
	tl_keys_set(j, cell_k, "tmin", metric_json(p, c, 0));
	tl_keys_set(j, cell_k, "tdiff", metric_json(p, c, 1));
	ratio_json(j, "ratio_tmin", &c->ratio_tmin);
	ratio_json(j, "ratio_tdiff", &c->ratio_tdiff);
	tl_keys_set(j, cell_k, "t_min_relaxed", relaxed_json(&c->ratio_tmin.relaxed));
	for (unsigned r = 0; r < p->repeats; r++)
		tl_json_append(reps, rep_json(&c->rep[r]));
	tl_keys_set(j, cell_k, "repeats", reps);
	return j;
}

static json_t *params_json(const struct tl_search_plan *p)
{
	const struct tl_search_params *sp = &p->sp;
	json_t *j = tl_json_object();

	tl_keys_set(j, params_k, "method", json_string(tl_search_method_name(sp->method)));
	tl_keys_set(j, params_k, "tdiff_order", json_string(tl_tdiff_order_name(sp->order)));
	tl_keys_num(j, params_k, "eps", sp->eps);
	tl_keys_num(j, params_k, "alpha", sp->alpha);
	tl_keys_set(j, params_k, "n", count(sp->n));
	tl_keys_set(j, params_k, "p", json_integer(sp->p));
	tl_keys_set(j, params_k, "q", json_integer(sp->q));
	tl_keys_set(j, params_k, "tmin_step", json_integer((json_int_t)sp->tmin_step));
	tl_keys_set(j, params_k, "tdiff_step", json_integer((json_int_t)sp->tdiff_step));
	tl_keys_set(j, params_k, "max_adds", json_integer((json_int_t)sp->max_adds));
	tl_keys_set(j, params_k, "os_filter", json_string(stats_os_method_name(sp->os)));
	tl_keys_set(j, params_k, "seed", json_integer((json_int_t)sp->seed));
	tl_keys_num(j, params_k, "budget_seconds", p->budget_s);
	tl_keys_set(j, params_k, "repeats", json_integer(p->repeats));
	tl_keys_set(j, params_k, "tdiff", json_boolean(p->want_tdiff));
	return j;
}

json_t *tl_search_to_json(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			  json_t *host, bool interrupted)
{
	json_t *doc = tl_json_object(), *meta = tl_json_object(), *results = tl_json_array();

	tl_json_set(meta, "version", json_string(PACKAGE_VERSION));
	tl_json_set(meta, "command", json_string("search"));
	tl_keys_set(doc, doc_k, "ticklab", meta);
	tl_keys_set(doc, doc_k, "host", host ? host : json_null());
	tl_keys_set(doc, doc_k, "params", params_json(p));
	tl_keys_set(doc, doc_k, "reference", json_string(p->backends[p->ref]));
	tl_keys_set(doc, doc_k, "interval_method",
		    json_string(tl_search_interval_method(p->repeats)));
	tl_keys_set(doc, doc_k, "interrupted", json_boolean(interrupted));
	for (size_t i = 0; i < p->nbackends * p->nflush; i++)
		tl_json_append(results, cell_json(p, &cells[i]));
	tl_keys_set(doc, doc_k, "results", results);
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


static const json_t *object(const json_t *o, const struct tl_keys *k, const char *key)
{
	return tl_keys_get(o, k, key, TL_KEYS_AS(TL_KEY_OBJECT));
}

static bool flag(const json_t *o, const struct tl_keys *k, const char *key)
{
	return json_is_true(tl_keys_get(o, k, key, TL_KEYS_AS(TL_KEY_BOOL)));
}

static int read_params(const struct reader *rd, const json_t *doc, struct tl_search_plan *p)
{
	const json_t *j = object(doc, doc_k, "params");
	int m;

	if (!json_is_object(j))
		return bad(rd, "params", "missing (not a search file?)");
	m = tl_search_method_parse(tl_keys_read_text(j, params_k, "method"));
	if (m < 0)
		return bad(rd, "params.method", "not fast or paper");
	p->sp.method = (enum tl_search_method)m;
	/* files from before the interleaved order measured in the paper's */
	m = json_object_get(j, "tdiff_order") ? tl_tdiff_order_parse(tl_keys_read_text(j, params_k, "tdiff_order"))
					      : TL_TDIFF_PAPER;
	if (m < 0)
		return bad(rd, "params.tdiff_order", "not interleaved or paper");
	p->sp.order = (enum tl_tdiff_order)m;
	m = stats_os_method_parse(tl_keys_read_text(j, params_k, "os_filter"));
	if (m < 0)
		return bad(rd, "params.os_filter", "not iforest, iqr or none");
	p->sp.os = (enum tl_os_method)m;
	p->sp.eps = tl_keys_read_num(j, params_k, "eps");
	p->sp.alpha = tl_keys_read_num(j, params_k, "alpha");
	if (!(p->sp.eps > 0 && p->sp.eps < 1) || !(p->sp.alpha >= 0 && p->sp.alpha < 1))
		return bad(rd, "params", "eps or alpha missing or out of range");
	p->sp.n = (size_t)tl_keys_read_whole(j, params_k, "n", p->sp.n);
	p->sp.p = (unsigned)tl_keys_read_whole(j, params_k, "p", p->sp.p);
	p->sp.q = (unsigned)tl_keys_read_whole(j, params_k, "q", p->sp.q);
	p->sp.tmin_step = tl_keys_read_whole(j, params_k, "tmin_step", p->sp.tmin_step);
	p->sp.tdiff_step = tl_keys_read_whole(j, params_k, "tdiff_step", p->sp.tdiff_step);
	p->sp.max_adds = tl_keys_read_whole(j, params_k, "max_adds", p->sp.max_adds);
	p->sp.seed = tl_keys_read_whole(j, params_k, "seed", p->sp.seed);
	if (isfinite(tl_keys_read_num(j, params_k, "budget_seconds")))
		p->budget_s = tl_keys_read_num(j, params_k, "budget_seconds");
	/* files from before the repeats hold one search per metric */
	p->repeats = (unsigned)tl_keys_read_whole(j, params_k, "repeats", 1);
	if (p->repeats < 1 || p->repeats > 256)
		return bad(rd, "params.repeats", "not 1 to 256");
	p->want_tdiff = !json_is_false(tl_keys_get(j, params_k, "tdiff", TL_KEYS_AS(TL_KEY_BOOL)));
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

/* A result's flush name, which keys its cell ("?" where a file has none). */
static const char *flush_name(const json_t *c)
{
	const char *f = tl_keys_read_text(c, cell_k, "flush");

	return f[0] ? f : "?";
}

/* Backends and flushes in the order the results list them, and where each
 * result goes (at[i], a cell index): a flush's name is what keys its cells,
 * so one name with two byte counts, or a backend x flush given twice, is
 * refused rather than left without a cell. */
static int read_lists(const struct reader *rd, const json_t *results, struct tl_search_plan *p,
		      size_t *at)
{
	size_t n = json_array_size(results), nb = 0, nf = 0;
	const char **b = tl_xcalloc(n + 1, sizeof(*b)), **fn = tl_xcalloc(n + 1, sizeof(*fn));
	uint64_t *fb = tl_xcalloc(n + 1, sizeof(*fb));
	size_t *bi = tl_xcalloc(n + 1, sizeof(*bi)), *fi = tl_xcalloc(n + 1, sizeof(*fi)), *first;
	bool *seen = NULL;
	char where[64], what[200], safe[48];
	int rc = -1;

	first = tl_xcalloc(n + 1, sizeof(*first));
	for (size_t i = 0; i < n; i++) {
		const json_t *c = json_array_get(results, i);
		const char *id = tl_keys_read_text(c, cell_k, "backend");
		double bytes = tl_keys_read_num(c, cell_k, "flush_bytes");
		size_t before = nf;

		if (!*id || !(bytes >= 0)) {
			bad(rd, "results[]", "a result without backend or flush_bytes");
			goto out;
		}
		bi[i] = find_or_add(b, &nb, id);
		fi[i] = find_or_add(fn, &nf, flush_name(c));
		if (nf > before) {
			fb[fi[i]] = (uint64_t)bytes;
			first[fi[i]] = i;
		} else if (fb[fi[i]] != (uint64_t)bytes) {
			snprintf(where, sizeof where, "results[%zu].flush_bytes", i);
			snprintf(what, sizeof what,
				 "is %.0f, but flush \"%s\" is %llu bytes in results[%zu] "
				 "(accepted: one byte count per flush name)",
				 bytes, tl_term_safe(fn[fi[i]], safe, sizeof safe),
				 (unsigned long long)fb[fi[i]], first[fi[i]]);
			bad(rd, where, what);
			goto out;
		}
	}
	if (nb * nf != n) {
		bad(rd, "results", "not one result per backend x flush");
		goto out;
	}
	seen = tl_xcalloc(n + 1, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		if (seen[bi[i] * nf + fi[i]]) {
			snprintf(where, sizeof where, "results[%zu]", i);
			bad(rd, where, "the same backend and flush as an earlier result (each cell "
				       "appears once)");
			goto out;
		}
		seen[bi[i] * nf + fi[i]] = true;
	}
	tl_search_plan_set(p, b, nb, fn, fb, nf);
	for (size_t i = 0; i < n; i++)
		at[i] = tl_search_cell_index(p, bi[i], fi[i]);
	rc = 0;
out:
	free(b);
	free(fn);
	free(fb);
	free(bi);
	free(fi);
	free(first);
	free(seen);
	return rc;
}

static void read_result(const json_t *j, int kind, enum tl_search_method m,
			struct tl_search_result *r)
{
	memset(r, 0, sizeof(*r));
	r->method = m;
	r->converged = flag(j, result_k, "converged");
	r->adds = tl_keys_read_whole(j, result_k, "adds", 0);
	r->ns = tl_keys_read_num(j, result_k, "ns");
	r->measurements = (size_t)tl_keys_read_whole(j, result_k, "measurements", 0);
	r->seconds = tl_keys_read_num(j, result_k, "seconds");
	r->stopped = flag(j, result_k, "stopped");
	r->stat = tl_keys_read_num(j, result_k, kind == 0 ? "cv" : "alpha");
	r->on_floor = flag(j, result_k, "on_floor");
	r->floor_ns = tl_keys_read_num(j, result_k, "floor_ns");
	r->evaluations = (size_t)tl_keys_read_whole(j, result_k, "evaluations", 0);
	r->predicted_adds = tl_keys_read_num(j, result_k, "predicted_adds");
	r->best_adds = tl_keys_read_whole(j, result_k, "lowest_cv_adds", 0);
	r->best_cv = tl_keys_read_num(j, result_k, "lowest_cv");
	r->best_drift = tl_keys_read_num(j, result_k, "drift_at_lowest_cv");
	r->cv_within = tl_keys_read_num(j, result_k, "cv_within");
	r->cv_drift = tl_keys_read_num(j, result_k, "cv_drift");
	r->steady_adds = tl_keys_read_num(j, result_k, "steady_adds");
	r->steady_lo = tl_keys_read_num(j, result_k, "steady_lo");
	r->steady_hi = tl_keys_read_num(j, result_k, "steady_hi");
	if (kind == 1) {
		int o = tl_tdiff_order_parse(tl_keys_read_text(j, result_k, "order"));

		r->order = o < 0 ? TL_TDIFF_PAPER : (enum tl_tdiff_order)o;
		r->a0_sd_ns = tl_keys_read_num(j, result_k, "a0_sd_ns");
		r->a0_top_sds = tl_keys_read_num(j, result_k, "a0_top_sds");
	}
	r->bound_adds = tl_keys_read_whole(j, result_k, "bound_adds", 0);
	r->out_of_time = flag(j, result_k, "out_of_time");
	snprintf(r->note, sizeof r->note, "%s", tl_keys_read_text(j, result_k, "note"));
}

/* Repeat r of one metric: its entry in "repeats", or the metric itself in
 * a file from before the repeats. NULL when that repeat did not search it. */
static const json_t *metric_rep(const json_t *metric, unsigned r)
{
	const json_t *reps = tl_keys_get(metric, metric_k, "repeats", TL_KEYS_AS(TL_KEY_LIST));

	if (!json_is_array(reps))
		return r == 0 && json_is_object(metric) ? metric : NULL;
	metric = json_array_get(reps, r);
	return json_is_object(metric) ? metric : NULL;
}

/* "points" of one repeat's search; absent in files from before them. */
static int read_points(const struct reader *rd, const json_t *j, const char *where,
		       struct tl_search_points *pts)
{
	const json_t *a = tl_keys_get(j, result_k, "points", TL_KEYS_AS(TL_KEY_POINTS)), *pt;
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
	const json_t *reps = tl_keys_get(c, cell_k, "repeats", TL_KEYS_AS(TL_KEY_LIST));
	const json_t *j = json_is_array(reps) ? json_array_get(reps, r) : r == 0 ? c : NULL;
	const json_t *t0 = metric_rep(object(c, cell_k, "tmin"), r);
	const json_t *t1 = metric_rep(object(c, cell_k, "tdiff"), r);

	memset(rep, 0, sizeof(*rep));
	if (!json_is_object(j))
		return;
	rep->ran = true;
	rep->overhead_ns = tl_keys_read_num(j, rep_k, "overhead");
	rep->ns_per_add = tl_keys_read_num(j, rep_k, "ns_per_add");
	rep->fit_r2 = tl_keys_read_num(j, rep_k, "ns_per_add_r2");
	rep->resolution_ns = tl_keys_read_num(j, rep_k, "resolution_ns");
	rep->flush_s = tl_keys_read_num(j, rep_k, "flush_seconds");
	rep->fast_n = (size_t)tl_keys_read_whole(j, rep_k, "n_per_evaluation", 0);
	rep->setup_measurements = (size_t)tl_keys_read_whole(j, rep_k, "setup_measurements", 0);
	snprintf(rep->why, sizeof rep->why, "%s", tl_keys_read_text(j, rep_k, "error"));
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

	cell->state = state_parse(tl_keys_read_text(c, cell_k, "state"));
	snprintf(cell->why, sizeof cell->why, "%s", tl_keys_read_text(c, cell_k, "error"));
	for (unsigned r = 0; r < p->repeats; r++) {
		read_rep(c, r, p->sp.method, &cell->rep[r]);
		cell->reps_done += cell->rep[r].ran;
		cell->tmin_done += cell->rep[r].ran;
		for (int k = 0; k < 2; k++) {
			const json_t *j = metric_rep(object(c, cell_k, metric[k]), r);
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
	const json_t *results = tl_keys_get(doc, doc_k, "results", TL_KEYS_AS(TL_KEY_LIST));
	const char *ref = tl_keys_read_text(doc, doc_k, "reference");
	size_t *at;

	tl_search_plan_default(p);
	*cells = NULL;
	if (!tl_search_json_is(doc))
		return bad(&rd, "ticklab.command", "not \"search\"");
	/* Every number and string the file holds, before any is used. */
	if (tl_search_json_check(doc, name, why, whylen) < 0)
		return -1;
	if (!json_is_array(results) || json_array_size(results) == 0)
		return bad(&rd, "results", "missing or empty");
	at = tl_xcalloc(json_array_size(results), sizeof(*at));
	if (read_params(&rd, doc, p) < 0 || read_lists(&rd, results, p, at) < 0) {
		free(at);
		return -1;
	}
	for (size_t b = 0; b < p->nbackends; b++)
		if (strcmp(p->backends[b], ref) == 0)
			p->ref = b;
	*interrupted = flag(doc, doc_k, "interrupted");
	*cells = tl_search_cells_new(p);
	for (size_t i = 0; i < json_array_size(results); i++) {
		if (read_cell(&rd, p, json_array_get(results, i), i, &(*cells)[at[i]]) < 0) {
			tl_search_cells_free(*cells, p->nbackends * p->nflush);
			*cells = NULL;
			free(at);
			return -1;
		}
	}
	free(at);
	tl_search_summarise(p, *cells);
	return 0;
}
