/* A run out: the JSON document (tl_run_to_json) and the per-sample CSV. */
#include "config.h"

#include "io/run_json.h"
#include "io/jitter.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/size.h"

int tl_run_commit_raw(struct tl_out *o, const struct tl_run *run, enum tl_os_method m,
		      uint64_t seed, bool interrupted, json_t *host, char *why, size_t whylen)
{
	json_t *doc = tl_run_to_json(run, NULL, m, seed, interrupted, host);
	int rc;

	if (!doc) {
		snprintf(why, whylen, "out of memory building the JSON");
		tl_out_abort(o);
		return -1;
	}
	rc = tl_json_commit(o, doc, why, whylen);
	json_decref(doc);
	return rc;
}

json_t *tl_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* ------------------------------------------------------------------ */
/* Run -> JSON                                                          */
/* ------------------------------------------------------------------ */

static const char *kind_name(enum tl_kernel_kind k)
{
	switch (k) {
	case TL_KERNEL_EMPTY:
		return "empty";
	case TL_KERNEL_ADD:
		return "add";
	case TL_KERNEL_JITTER:
		return "jitter";
	case TL_KERNEL_MUL:
		return "mul";
	case TL_KERNEL_FMA:
		return "fma";
	case TL_KERNEL_LOAD:
		return "load";
	}
	return "?";
}

static json_t *summary_to_json(const struct tl_summary *s)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n",
			 (json_int_t)s->n, "os_removed", (json_int_t)s->os_removed, "min",
			 tl_json_real(s->min), "p1", tl_json_real(s->p1), "p5", tl_json_real(s->p5),
			 "p50", tl_json_real(s->p50), "p95", tl_json_real(s->p95), "p99",
			 tl_json_real(s->p99), "max", tl_json_real(s->max), "mean",
			 tl_json_real(s->mean), "sd", tl_json_real(s->sd), "cv", tl_json_real(s->cv));
}

static json_t *os_to_json(const struct tl_os_result *os)
{
	return json_pack("{s:s, s:b, s:o, s:o, s:I, s:s}", "method",
			 stats_os_method_name(os->method), "active", os->active, "beta",
			 tl_json_real(os->beta), "lowest_score", tl_json_real(os->lowest_score),
			 "removed", (json_int_t)os->removed, "note", os->note);
}

static json_t *drift_to_json(const struct tl_drift *d)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "chunk",
			 (json_int_t)d->chunk, "chunks", (json_int_t)d->nchunks, "median",
			 tl_json_real(d->median), "lo", tl_json_real(d->lo), "hi",
			 tl_json_real(d->hi), "sd", tl_json_real(d->sd), "noise_sd",
			 tl_json_real(d->noise_sd), "rel_sd", tl_json_real(d->rel_sd),
			 "noise_rel_sd", tl_json_real(d->noise_rel_sd), "drifts", d->drifts);
}

static json_t *doubles_to_json(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (json_array_append_new(a, tl_json_real(v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *adds_to_json(const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (json_array_append_new(a, json_integer((json_int_t)v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Sets key to a new value; remembers a NULL value or a failed set. */
static void put(json_t *o, const char *key, json_t *v, bool *failed)
{
	if (!v || json_object_set_new(o, key, v) != 0)
		*failed = true;
}

static json_t *cell_to_json(const struct tl_run *run, size_t i, const struct tl_analysis *an_all,
			    uint64_t seed)
{
	const struct tl_analysis *an = an_all ? &an_all[i] : NULL;
	const struct tl_cell *c = &run->cells[i];
	const struct tl_timer *t = &run->timers[c->timer];
	const struct tl_backend *b = t->backend;
	size_t done = atomic_load(&c->done);
	uint64_t flush = run->flush_bytes[c->flush];
	bool jitter = c->kernel.kind == TL_KERNEL_JITTER;
	bool failed = false;
	char flush_text[32];
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (done > c->n)
		done = c->n;
	tl_size_format(flush, flush_text, sizeof flush_text);
	put(o, "backend", json_string(t->id), &failed);
	put(o, "family", json_string(b->family), &failed);
	put(o, "clock", json_string(b->clock == TL_CLOCK_CYCLES ? "cycles" : "wall"), &failed);
	put(o, "unit", json_string(b->unit), &failed);
	put(o, "ns_per_unit", tl_json_real(t->ns_per_unit), &failed);
	put(o, "simulated", json_boolean(b->simulated), &failed);
	put(o, "kernel", json_string(c->kernel.label), &failed);
	put(o, "kind", json_string(kind_name(c->kernel.kind)), &failed);
	put(o, "k", json_integer((json_int_t)c->kernel.k), &failed);
	if (jitter) {
		put(o, "d", json_integer((json_int_t)c->kernel.d), &failed);
		put(o, "p", tl_json_real(c->kernel.p), &failed);
		if (c->kernel.d_ns > 0) {
			put(o, "d_ns", tl_json_real(c->kernel.d_ns), &failed);
			put(o, "d_ns_per_add", tl_json_real(c->d_ns_per_add), &failed);
		}
	}
	put(o, "flush_bytes", json_integer((json_int_t)flush), &failed);
	put(o, "flush", json_string(flush_text), &failed);
	put(o, "n", json_integer((json_int_t)done), &failed);
	put(o, "n_planned", json_integer((json_int_t)c->n), &failed);
	put(o, "overhead", tl_json_real(c->overhead_ns), &failed);
	/* t_e,std's spread: the filtered sd of the baseline it came from. */
	put(o, "overhead_sd_ns", tl_json_real(an ? an_all[c->baseline].summary.sd : NAN), &failed);
	put(o, "resolution_ns", tl_json_real(c->resolution_ns), &failed);
	if (c->hidden)
		put(o, "baseline", json_true(), &failed);
	put(o, "samples", doubles_to_json(c->raw, done), &failed);
	put(o, "samples_ns", doubles_to_json(c->ns, done), &failed);
	/* Plain add:K cells would repeat K n times: only jitter's vary. */
	if (jitter)
		put(o, "adds", adds_to_json(c->adds, done), &failed);
	if (!an)
		goto done; /* raw samples only (tl_run_commit_raw) */
	if (jitter) {
		struct tl_jitter jit;

		if (tl_jitter_analyse(run, i, seed, &jit) != 0)
			failed = true;
		else
			put(o, "jitter", tl_jitter_to_json(&jit, c->kernel.d), &failed);
	}
	put(o, "summary", summary_to_json(&an->summary), &failed);
	put(o, "os_filter", os_to_json(&an->os), &failed);
	put(o, "drift", drift_to_json(&an->drift), &failed);
done:
	if (failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *seed_to_json(uint64_t seed)
{
	char text[24];

	if (seed <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)seed);
	/* jansson integers are signed 64-bit: larger seeds go as decimal text. */
	snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
	return json_string(text);
}

json_t *tl_run_to_json(const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host)
{
	json_t *doc, *cells, *baselines;

	doc = json_pack("{s:{s:s, s:s}, s:o, s:o, s:I, s:i, s:s, s:b}", "ticklab", "version",
			PACKAGE_VERSION, "command", "run", "host", host ? host : json_object(), "seed",
			seed_to_json(seed), "n", (json_int_t)run->cfg.n, "cpu", run->cpu, "os_filter",
			stats_os_method_name(m), "interrupted", interrupted);
	if (!doc)
		return NULL;
	if (!an && json_object_set_new(doc, "analysed", json_false()) != 0)
		goto fail;
	cells = json_array();
	baselines = json_array();
	json_object_set_new(doc, "cells", cells);
	json_object_set_new(doc, "baselines", baselines);
	if (!cells || !baselines)
		goto fail;
	for (size_t i = 0; i < run->ncells; i++) {
		json_t *c = cell_to_json(run, i, an, seed);

		if (!c || json_array_append_new(run->cells[i].hidden ? baselines : cells, c) != 0)
			goto fail;
	}
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                  */
/* ------------------------------------------------------------------ */

/* RFC 4180 quoting for the fields that can hold commas (sim parameters,
 * jitter kernels). */
int tl_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n"))
		return fputs(s, f) < 0 ? -1 : 0;
	if (fputc('"', f) == EOF)
		return -1;
	for (; *s; s++)
		if ((*s == '"' && fputc('"', f) == EOF) || fputc(*s, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}

static int emit_csv(FILE *f, void *ctx)
{
	const struct tl_run *run = ctx;

	if (fputs("backend,flush_bytes,kernel,k,i,raw,ns\n", f) < 0)
		return -1;
	for (size_t ci = 0; ci < run->ncells; ci++) {
		const struct tl_cell *c = &run->cells[ci];
		size_t done = atomic_load(&c->done);

		if (c->hidden)
			continue;
		if (done > c->n)
			done = c->n;
		for (size_t i = 0; i < done; i++) {
			if (tl_csv_field(f, run->timers[c->timer].id) < 0 ||
			    fprintf(f, ",%llu,", (unsigned long long)run->flush_bytes[c->flush]) < 0 ||
			    tl_csv_field(f, c->kernel.label) < 0 ||
			    fprintf(f, ",%llu,%zu,%.17g,%.17g\n", (unsigned long long)c->adds[i], i,
				    c->raw[i], c->ns[i]) < 0)
				return -1;
		}
	}
	return 0;
}

int tl_run_write_csv(const char *path, const struct tl_run *run, char *why, size_t whylen)
{
	return tl_write_atomic(path, emit_csv, (void *)run, why, whylen);
}

int tl_run_commit_csv(struct tl_out *o, const struct tl_run *run, char *why, size_t whylen)
{
	return tl_out_commit(o, emit_csv, (void *)run, why, whylen);
}
