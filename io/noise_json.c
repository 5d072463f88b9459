#include "config.h"

#include "io/noise_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "io/json_build.h"
#include "io/run_json.h"

#define LONG_RULE "1.5 x the cell's p50 + %g ns (a sample past it with no record gets a " \
		  "window-level cause)"

static json_t *sources_json(const struct tl_noise_info *in)
{
	json_t *o = tl_json_object();

	for (size_t i = 0; i < in->nsrc; i++)
		tl_json_set(o, in->src[i].name,
			    json_pack("{s:b, s:s}", "ok", in->src[i].ok, "how", in->src[i].why));
	return o;
}

static json_t *counts_json(const struct tl_noise_count *v, size_t n)
{
	json_t *o = tl_json_object();
	for (size_t i = 0; i < n; i++)
		tl_json_set(o, v[i].name, json_integer((json_int_t)v[i].n));
	return o;
}

static json_t *windows_json(const struct tl_cell_noise *cn)
{
	json_t *o = tl_json_object();

	tl_json_set(o, "count", json_integer((json_int_t)cn->windows));
	tl_json_set(o, "irq", counts_json(cn->irq, cn->nirq));
	tl_json_set(o, "softirq", counts_json(cn->softirq, cn->nsoftirq));
	tl_json_set(o, "steal_ms", tl_json_real(cn->steal_ms));
	return o;
}

#define TOP_TASKS 5

static int by_cmp(const void *a, const void *b)
{
	const struct tl_noise_count *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* The few tasks that preempted the cell most; a file read back sorts and
 * cuts the same, so report writes what run wrote. */
static json_t *by_json(const struct tl_cell_noise *cn)
{
	struct tl_noise_count *v = tl_xcalloc(cn->nby ? cn->nby : 1, sizeof *v);
	json_t *a = tl_json_array();

	if (cn->nby)
		memcpy(v, cn->by, cn->nby * sizeof *v);
	qsort(v, cn->nby, sizeof *v, by_cmp);
	for (size_t i = 0; i < cn->nby && i < TOP_TASKS; i++)
		tl_json_append(a, json_pack("{s:s, s:I}", "task", v[i].name, "count",
					    (json_int_t)v[i].n));
	free(v);
	return a;
}

void tl_noise_why(const struct tl_noise_agree *ag, char *out, size_t len)
{
	static const char *const shortname[][2] = {
		{ "preempted", "preempt" }, { "voluntary", "sleep" }, { "page_fault", "fault" },
		{ "migration", "migr" },    { "unexplained", "unexpl" },
	};
	const char *name = ag->top;

	if (!ag->removed || !ag->top[0]) {
		snprintf(out, len, "-");
		return;
	}
	/* One word (top cause, then its share), so the table splits on blanks. */
	for (size_t i = 0; i < sizeof shortname / sizeof *shortname; i++)
		if (!strcmp(name, shortname[i][0]))
			name = shortname[i][1];
	if (!strncmp(name, "softirq:", 8)) {
		snprintf(out, len, "sirq:%.6s:%.0f%%", name + 8,
			 100.0 * (double)ag->top_count / (double)ag->removed);
		return;
	}
	snprintf(out, len, "%.10s:%.0f%%", name, 100.0 * (double)ag->top_count / (double)ag->removed);
}

json_t *tl_noise_to_json(const struct tl_run *run, size_t cell, const struct tl_analysis *an,
			 enum tl_os_method m, uint64_t cseed)
{
	const struct tl_cell_noise *cn = &run->cells[cell].noise;
	size_t counts[TL_NOISE_NAMES] = { 0 }, order[TL_NOISE_NAMES], norder = 0;
	json_t *o, *causes, *inferred, *flagged;
	char rule[160], why[40];
	struct tl_noise_agree ag;

	if (!run->noise_measured)
		return NULL;
	o = tl_json_object();
	causes = tl_json_object();
	inferred = tl_json_array();
	flagged = tl_json_array();
	snprintf(rule, sizeof rule, LONG_RULE, run->noise.long_ns);
	tl_json_set(o, "sources", sources_json(&run->noise));
	tl_json_set(o, "bookkeeping_ns", tl_json_real(run->noise.cost_ns));
	tl_json_set(o, "long_rule", json_string(rule));
	/* Causes in the order they first occur, which a file read back keeps. */
	for (size_t i = 0; i < cn->nflag; i++) {
		if (counts[cn->flag[i].cause]++ == 0)
			order[norder++] = cn->flag[i].cause;
		tl_json_append(flagged, json_pack("[I, s]", (json_int_t)cn->flag[i].index,
						  cn->names[cn->flag[i].cause]));
	}
	for (size_t j = 0; j < norder; j++) {
		size_t k = order[j];
		tl_json_set(causes, cn->names[k], json_integer((json_int_t)counts[k]));
		if (!tl_noise_cause_measured(cn->names[k]))
			tl_json_append(inferred, json_string(cn->names[k]));
	}
	tl_json_set(o, "causes", causes);
	tl_json_set(o, "inferred", inferred);
	tl_json_set(o, "flagged", flagged);
	tl_json_set(o, "windows", windows_json(cn));
	if (run->noise.tasks)
		tl_json_set(o, "preempted_by", by_json(cn));
	if (!an || tl_cell_noise_agree_seeded(run, cell, m, cseed, &ag) < 0)
		return o;
	if (ag.skipped) {
		tl_json_set(o, "agreement", json_string("not computed: over 2^20 samples (memory)"));
		return o;
	}
	tl_noise_why(&ag, why, sizeof why);
	tl_json_set(o, "filter", json_string(stats_os_method_name(m)));
	tl_json_set(o, "removed_with_cause", json_integer((json_int_t)ag.removed_with_cause));
	tl_json_set(o, "removed_without_cause", json_integer((json_int_t)ag.removed_without_cause));
	tl_json_set(o, "kept_with_cause", json_integer((json_int_t)ag.kept_with_cause));
	tl_json_set(o, "why", json_string(why));
	return o;
}

/* ---- reading ------------------------------------------------------------- */

static int rd_counts(const json_t *o, struct tl_noise_count **v, size_t *n, const char *key,
		     char *why, size_t whylen)
{
	const char *name;
	json_t *val;

	if (!json_is_object(o)) {
		snprintf(why, whylen, "windows.%s: expected an object of counts", key);
		return -1;
	}
	json_object_foreach ((json_t *)o, name, val) {
		if (!json_is_integer(val) || json_integer_value(val) < 0 ||
		    strlen(name) >= TL_NOISE_NAME || !name[0]) {
			snprintf(why, whylen, "windows.%s: expected names (1-%d characters) with "
					      "whole counts >= 0", key, TL_NOISE_NAME - 1);
			return -1;
		}
		*v = tl_xrealloc(*v, *n + 1, sizeof **v);
		snprintf((*v)[*n].name, TL_NOISE_NAME, "%s", name);
		(*v)[(*n)++].n = (uint64_t)json_integer_value(val);
	}
	return 0;
}

static int rd_windows(const json_t *o, struct tl_cell_noise *cn, char *why, size_t whylen)
{
	json_t *count = json_object_get(o, "count"), *steal = json_object_get(o, "steal_ms");

	if (!json_is_object(o) || !json_is_integer(count) || json_integer_value(count) < 0 ||
	    !(json_is_number(steal) || json_is_null(steal))) {
		snprintf(why, whylen, "windows: expected {\"count\", \"irq\", \"softirq\", "
				      "\"steal_ms\"}");
		return -1;
	}
	cn->windows = (size_t)json_integer_value(count);
	cn->steal_ms = json_is_null(steal) ? NAN : json_number_value(steal);
	if (rd_counts(json_object_get(o, "irq"), &cn->irq, &cn->nirq, "irq", why, whylen) < 0 ||
	    rd_counts(json_object_get(o, "softirq"), &cn->softirq, &cn->nsoftirq, "softirq", why,
		      whylen) < 0)
		return -1;
	return 0;
}

static int rd_flagged(const json_t *a, struct tl_cell *c, char *why, size_t whylen)
{
	size_t i;
	json_t *e;
	long long last = -1;

	if (!json_is_array(a)) {
		snprintf(why, whylen, "flagged: expected an array of [sample index, cause]");
		return -1;
	}
	json_array_foreach (a, i, e) {
		json_t *idx = json_array_get(e, 0), *cause = json_array_get(e, 1);
		const char *name;
		int k;

		if (!json_is_array(e) || json_array_size(e) != 2 || !json_is_integer(idx) ||
		    !json_is_string(cause)) {
			snprintf(why, whylen, "flagged[%zu]: expected [sample index, cause]", i);
			return -1;
		}
		name = json_string_value(cause);
		if (json_integer_value(idx) <= last || json_integer_value(idx) >= (json_int_t)c->n) {
			snprintf(why, whylen, "flagged[%zu]: index %lld is not increasing or not below "
					      "n = %zu", i, (long long)json_integer_value(idx), c->n);
			return -1;
		}
		if (!tl_noise_cause_valid(name)) {
			snprintf(why, whylen, "flagged[%zu]: unknown cause (accepted: preempted, "
					      "voluntary, page_fault, migration, tick, steal, "
					      "unexplained, irq:NAME, softirq:KIND)", i);
			return -1;
		}
		if ((k = tl_noise_intern(&c->noise, name)) < 0) {
			snprintf(why, whylen, "flagged[%zu]: more than %d distinct causes", i,
				 TL_NOISE_NAMES);
			return -1;
		}
		last = json_integer_value(idx);
		tl_noise_flag_add(&c->noise, (size_t)last, k);
	}
	return 0;
}

static int rd_by(const json_t *a, struct tl_run *run, struct tl_cell_noise *cn, char *why,
		 size_t whylen)
{
	size_t i;
	json_t *e;

	if (!a)
		return 0;
	if (!json_is_array(a) || json_array_size(a) > TOP_TASKS) {
		snprintf(why, whylen, "preempted_by: expected an array of at most %d "
				      "{\"task\", \"count\"}", TOP_TASKS);
		return -1;
	}
	json_array_foreach (a, i, e) {
		json_t *task = json_object_get(e, "task"), *n = json_object_get(e, "count");
		if (!json_is_string(task) || !json_string_value(task)[0] ||
		    strlen(json_string_value(task)) >= TL_NOISE_NAME || !json_is_integer(n) ||
		    json_integer_value(n) < 0) {
			snprintf(why, whylen, "preempted_by[%zu]: expected {\"task\": a name of 1-%d "
					      "characters, \"count\": a whole number >= 0}", i,
				 TL_NOISE_NAME - 1);
			return -1;
		}
		cn->by = tl_xrealloc(cn->by, cn->nby + 1, sizeof *cn->by);
		snprintf(cn->by[cn->nby].name, TL_NOISE_NAME, "%s", json_string_value(task));
		cn->by[cn->nby++].n = (uint64_t)json_integer_value(n);
	}
	run->noise.tasks = true;
	return 0;
}

static int rd_sources(const json_t *o, struct tl_noise_info *in, char *why, size_t whylen)
{
	const char *name;
	json_t *v;

	if (!json_is_object(o)) {
		snprintf(why, whylen, "sources: expected an object");
		return -1;
	}
	in->nsrc = 0;
	json_object_foreach ((json_t *)o, name, v) {
		json_t *ok = json_object_get(v, "ok"), *how = json_object_get(v, "how");
		struct tl_noise_source *s;

		if (!json_is_boolean(ok) || !json_is_string(how) || strlen(name) >= TL_NOISE_NAME ||
		    in->nsrc >= TL_NOISE_SOURCES) {
			snprintf(why, whylen, "sources: expected at most %d {\"ok\", \"how\"} entries",
				 TL_NOISE_SOURCES);
			return -1;
		}
		s = &in->src[in->nsrc++];
		snprintf(s->name, sizeof s->name, "%s", name);
		s->ok = json_is_true(ok);
		snprintf(s->why, sizeof s->why, "%s", json_string_value(how));
	}
	return 0;
}

int tl_noise_from_json(const json_t *o, struct tl_run *run, struct tl_cell *c, char *why,
		       size_t whylen)
{
	json_t *cost;

	if (!o)
		return 0;
	cost = json_object_get(o, "bookkeeping_ns");
	if (!json_is_object(o) || !(json_is_number(cost) || json_is_null(cost))) {
		snprintf(why, whylen, "expected an object with \"bookkeeping_ns\"");
		return -1;
	}
	if (rd_sources(json_object_get(o, "sources"), &run->noise, why, whylen) < 0 ||
	    rd_flagged(json_object_get(o, "flagged"), c, why, whylen) < 0 ||
	    rd_windows(json_object_get(o, "windows"), &c->noise, why, whylen) < 0 ||
	    rd_by(json_object_get(o, "preempted_by"), run, &c->noise, why, whylen) < 0)
		return -1;
	run->noise_measured = true;
	run->noise.cost_ns = json_is_null(cost) ? NAN : json_number_value(cost);
	run->noise.long_ns = TL_NOISE_LONG_NS;
	return 0;
}
