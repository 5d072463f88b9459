/* A run out: the JSON document (tl_run_to_json) and the per-sample CSV. */
#include "config.h"

#include "io/run_json.h"
#include "io/real17.h"
#include "io/jitter_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/size.h"
#include "io/json_build.h"
#include "io/noise_json.h"
#include "io/run_compare.h"
#include "io/term_safe.h"
#include "io/run_keys.h"

/* ------------------------------------------------------------------ */
/* Run -> JSON                                                          */
/* ------------------------------------------------------------------ */

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
	return json_pack("{s:s, s:b, s:o, s:o, s:I, s:s, s:I, s:s}", "method",
			 stats_os_method_name(os->method), "active", os->active, "beta",
			 tl_json_real(os->beta), "lowest_score", tl_json_real(os->lowest_score),
			 "removed", (json_int_t)os->removed, "ran", os->ran, "levels_kept",
			 (json_int_t)os->levels_kept, "note", os->note);
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
	json_t *a = tl_json_array();

	for (size_t i = 0; i < n; i++)
		tl_json_append(a, tl_json_real(v[i]));
	return a;
}

static json_t *adds_to_json(const uint64_t *v, size_t n)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; i < n; i++)
		tl_json_append(a, json_integer((json_int_t)v[i]));
	return a;
}

/* The sample arrays of a document written by tl_run_doc_commit: in the tree
 * each is an empty array standing in for the run's own array, which the
 * writer prints in its place. A run of 10^7 samples would otherwise be a
 * tree of 10^7 json_t reals (about 60 B each) before a byte is written. */
enum mark_kind { MARK_DOUBLES, MARK_ADDS };

struct mark {
	const json_t *at; /* the stand-in */
	enum mark_kind kind;
	const void *v;
	size_t n;
};

struct marks {
	struct mark *m;
	size_t n, cap;
};

struct tl_run_doc {
	json_t *doc;
	struct marks mk;
};

/* The values as a JSON array, or (mk given) a stand-in for them. */
static json_t *samples_json(struct marks *mk, enum mark_kind kind, const void *v, size_t n)
{
	json_t *a;

	if (!mk)
		return kind == MARK_DOUBLES ? doubles_to_json(v, n) : adds_to_json(v, n);
	a = tl_json_array();
	if (mk->n == mk->cap) {
		mk->cap = mk->cap ? 2 * mk->cap : 16;
		mk->m = tl_xrealloc(mk->m, mk->cap, sizeof *mk->m);
	}
	mk->m[mk->n++] = (struct mark){ a, kind, v, n };
	return a;
}

/* A cell's and the file's own keys go through their description
 * (io/run_keys.c), which the run loader reads them by. */
static const struct tl_keys *const cell_k = &tl_run_cell_keys;
static const struct tl_keys *const doc_k = &tl_run_doc_keys;

/* cseed: the cell's filter seed (tl_run_cell_seeds'). */
static json_t *cell_to_json(const struct tl_run *run, size_t i, const struct tl_analysis *an_all,
			    enum tl_os_method m, uint64_t cseed, struct marks *mk)
{
	const struct tl_analysis *an = an_all ? &an_all[i] : NULL;
	const struct tl_cell *c = &run->cells[i];
	const struct tl_timer *t = &run->timers[c->timer];
	const struct tl_backend *b = t->backend;
	size_t done = atomic_load(&c->done);
	uint64_t flush = run->flush_bytes[c->flush];
	bool jitter = c->kernel.kind == TL_KERNEL_JITTER;
	char flush_text[32];
	json_t *o = tl_json_object(), *noise;

	if (done > c->n)
		done = c->n;
	tl_size_format(flush, flush_text, sizeof flush_text);
	tl_keys_set(o, cell_k, "backend", json_string(t->id));
	tl_keys_set(o, cell_k, "family", json_string(b->family));
	tl_keys_set(o, cell_k, "clock",
		    json_string(b->clock == TL_CLOCK_CYCLES ? "cycles" : "wall"));
	tl_keys_set(o, cell_k, "unit", json_string(b->unit));
	tl_keys_set(o, cell_k, "ns_per_unit", tl_json_real(t->ns_per_unit));
	tl_keys_set(o, cell_k, "simulated", json_boolean(b->simulated));
	tl_keys_set(o, cell_k, "kernel", json_string(c->kernel.label));
	tl_keys_set(o, cell_k, "kind", json_string(c->kernel.kind->name));
	tl_keys_set(o, cell_k, "k", json_integer((json_int_t)c->kernel.k));
	if (jitter) {
		tl_keys_set(o, cell_k, "d", json_integer((json_int_t)c->kernel.d));
		tl_keys_set(o, cell_k, "p", tl_json_real(c->kernel.p));
		if (c->kernel.d_ns > 0)
			tl_keys_set(o, cell_k, "d_ns", tl_json_real(c->kernel.d_ns));
		if (c->kernel.d_ns > 0 || isfinite(c->d_ns_per_add))
			tl_keys_set(o, cell_k, "d_ns_per_add", tl_json_real(c->d_ns_per_add));
	}
	tl_keys_set(o, cell_k, "flush_bytes", json_integer((json_int_t)flush));
	tl_keys_set(o, cell_k, "flush", json_string(flush_text));
	if (tl_run_flush_name(run, c->flush))
		tl_keys_set(o, cell_k, "flush_name", json_string(tl_run_flush_name(run, c->flush)));
	tl_keys_set(o, cell_k, "n", json_integer((json_int_t)done));
	tl_keys_set(o, cell_k, "n_planned", json_integer((json_int_t)c->n));
	tl_keys_set(o, cell_k, "overhead", tl_json_real(c->overhead_ns));
	/* t_e,std's spread: the filtered sd of the baseline it came from. */
	tl_keys_num(o, cell_k, "overhead_sd_ns", an ? an_all[c->baseline].summary.sd : NAN);
	tl_keys_set(o, cell_k, "resolution_ns", tl_json_real(c->resolution_ns));
	if (c->hidden)
		tl_keys_set(o, cell_k, "baseline", json_true());
	tl_keys_set(o, cell_k, "samples", samples_json(mk, MARK_DOUBLES, c->raw, done));
	tl_keys_set(o, cell_k, "samples_ns", samples_json(mk, MARK_DOUBLES, c->ns, done));
	/* Plain add:K cells would repeat K n times: only jitter's vary. */
	if (jitter)
		tl_keys_set(o, cell_k, "adds", samples_json(mk, MARK_ADDS, c->adds, done));
	noise = tl_noise_to_json(run, i, an, m, cseed);
	if (noise)
		tl_keys_set(o, cell_k, "noise", noise);
	if (!an)
		goto done; /* raw samples only (tl_run_commit_raw) */
	if (jitter) {
		struct tl_jitter jit;

		tl_jitter_analyse_seeded(run, i, cseed, &jit);
		tl_keys_set(o, cell_k, "jitter", tl_jitter_to_json(&jit, c->kernel.d, c->kernel.p));
	}
	tl_keys_set(o, cell_k, "summary", summary_to_json(&an->summary));
	tl_keys_set(o, cell_k, "os_filter", os_to_json(&an->os));
	tl_keys_set(o, cell_k, "drift", drift_to_json(&an->drift));
done:
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

static json_t *run_to_json(const struct tl_run *run, const struct tl_analysis *an,
			   enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host,
			   struct marks *mk)
{
	json_t *doc = tl_json_object(), *cells = tl_json_array(), *baselines = tl_json_array();
	uint64_t *seeds = tl_run_cell_seeds(run, seed);

	tl_keys_set(doc, doc_k, "ticklab",
		    json_pack("{s:s, s:s}", "version", PACKAGE_VERSION, "command", "run"));
	tl_keys_set(doc, doc_k, "host", host ? host : tl_json_object());
	tl_keys_set(doc, doc_k, "seed", seed_to_json(seed));
	tl_keys_set(doc, doc_k, "n", json_integer((json_int_t)run->cfg.n));
	tl_keys_set(doc, doc_k, "cpu", json_integer(run->cpu));
	tl_keys_set(doc, doc_k, "os_filter", json_string(stats_os_method_name(m)));
	tl_keys_set(doc, doc_k, "interrupted", json_boolean(interrupted));
	if (!an)
		tl_keys_set(doc, doc_k, "analysed", json_false());
	/* Set before they fill: the key order is the file's. */
	tl_keys_set(doc, doc_k, "cells", cells);
	tl_keys_set(doc, doc_k, "baselines", baselines);
	for (size_t i = 0; i < run->ncells; i++)
		tl_json_append(run->cells[i].hidden ? baselines : cells,
			       cell_to_json(run, i, an, m, seeds[i], mk));
	free(seeds);
	return doc;
}

json_t *tl_run_to_json(const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host)
{
	return run_to_json(run, an, m, seed, interrupted, host, NULL);
}

struct tl_run_doc *tl_run_doc_new(const struct tl_run *run, const struct tl_analysis *an,
				  enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host)
{
	struct tl_run_doc *d = tl_xcalloc(1, sizeof *d);

	d->doc = run_to_json(run, an, m, seed, interrupted, host, &d->mk);
	return d;
}

json_t *tl_run_doc_json(struct tl_run_doc *d)
{
	return d->doc;
}

void tl_run_doc_free(struct tl_run_doc *d)
{
	if (!d)
		return;
	json_decref(d->doc);
	free(d->mk.m);
	free(d);
}

/* ---- the streaming writer ---------------------------------------------- */

#define DUMP_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17) | JSON_ENCODE_ANY)

static int mark_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct mark *)a)->at;
	uintptr_t y = (uintptr_t)((const struct mark *)b)->at;

	return (x > y) - (x < y);
}

static const struct mark *mark_find(const struct marks *mk, const json_t *v)
{
	struct mark key = { .at = v };

	return mk->n ? bsearch(&key, mk->m, mk->n, sizeof *mk->m, mark_cmp) : NULL;
}

/* A double as jansson prints it with JSON_REAL_PRECISION(17) (its
 * jsonp_dtostr): %.17g, ".0" added when it would read back as an integer,
 * the exponent without '+' or leading zeros; null when not finite, as
 * tl_json_real writes. tests/test_json_io.c checks the bytes against
 * json_dumpf of the same tree. Numbers use '.': ticklab keeps LC_NUMERIC
 * at "C" (the TUI sets it back after setlocale). */
static int put_whole(FILE *f, long long w)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long long u = w < 0 ? 0ULL - (unsigned long long)w : (unsigned long long)w;

	*--p = '0';
	*--p = '.';
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (w < 0)
		*--p = '-';
	return fwrite(p, 1, (size_t)(buf + sizeof buf - p), f) == (size_t)(buf + sizeof buf - p)
		       ? 0
		       : -1;
}

static int put_real(FILE *f, double v)
{
	char buf[40];
	int len;
	char *e;

	if (!isfinite(v))
		return fputs("null", f) < 0 ? -1 : 0;
	/* Whole values (a tick count, most raw samples) below 1e15 print as
	 * their digits and ".0" under %.17g; formatted by hand they cost a
	 * tenth of snprintf, which is most of the time an interrupted run
	 * spends writing what it kept. */
	if (v == trunc(v) && fabs(v) < 1e15 && !(v == 0 && signbit(v)))
		return put_whole(f, (long long)v);
	len = tl_real17_fraction(buf, v);
	if (len > 0)
		return fwrite(buf, 1, (size_t)len, f) == (size_t)len ? 0 : -1;
	len = snprintf(buf, sizeof buf - 2, "%.17g", v);
	if (len < 0 || (size_t)len >= sizeof buf - 2)
		return -1;
	if (!strchr(buf, '.') && !strchr(buf, 'e'))
		memcpy(buf + len, ".0", 3);
	e = strchr(buf, 'e');
	if (e) {
		char *start = e + 1, *end = start + 1;

		if (*start == '-')
			start++;
		while (*end == '0')
			end++;
		if (end != start)
			memmove(start, end, strlen(end) + 1);
	}
	return fputs(buf, f) < 0 ? -1 : 0;
}

static int put_mark(FILE *f, const struct mark *k)
{
	if (fputc('[', f) == EOF)
		return -1;
	for (size_t i = 0; i < k->n; i++) {
		if (i && fputc(',', f) == EOF)
			return -1;
		if (k->kind == MARK_DOUBLES ? put_real(f, ((const double *)k->v)[i]) < 0
					    : fprintf(f, "%" PRIu64, ((const uint64_t *)k->v)[i]) < 0)
			return -1;
	}
	return fputc(']', f) == EOF ? -1 : 0;
}

/* The tree as json_dumpf(JSON_COMPACT) prints it (keys in insertion order,
 * no spaces), each stand-in replaced by its array; leaves are printed by
 * jansson itself. */
static int put_node(FILE *f, const json_t *v, const struct marks *mk)
{
	const struct mark *k = mark_find(mk, v);
	const char *key;
	json_t *item;
	size_t i;
	bool first = true;

	if (k)
		return put_mark(f, k);
	if (json_is_object(v)) {
		if (fputc('{', f) == EOF)
			return -1;
		json_object_foreach ((json_t *)v, key, item) {
			json_t *name = json_string(key);
			int rc = name && (first || fputc(',', f) != EOF) &&
					 json_dumpf(name, f, DUMP_FLAGS) == 0 && fputc(':', f) != EOF
				 ? put_node(f, item, mk)
				 : -1;

			json_decref(name);
			if (rc < 0)
				return -1;
			first = false;
		}
		return fputc('}', f) == EOF ? -1 : 0;
	}
	if (json_is_array(v)) {
		if (fputc('[', f) == EOF)
			return -1;
		json_array_foreach (v, i, item)
			if ((i && fputc(',', f) == EOF) || put_node(f, item, mk) < 0)
				return -1;
		return fputc(']', f) == EOF ? -1 : 0;
	}
	return json_dumpf(v, f, DUMP_FLAGS) == 0 ? 0 : -1;
}

static int emit_run_doc(FILE *f, void *ctx)
{
	struct tl_run_doc *d = ctx;

	qsort(d->mk.m, d->mk.n, sizeof *d->mk.m, mark_cmp);
	if (put_node(f, d->doc, &d->mk) < 0)
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

int tl_run_doc_commit(struct tl_out *o, struct tl_run_doc *d, char *why, size_t whylen)
{
	return tl_out_commit(o, emit_run_doc, d, why, whylen);
}

int tl_run_doc_write(FILE *f, struct tl_run_doc *d)
{
	return emit_run_doc(f, d);
}

int tl_run_json_commit(struct tl_out *o, const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host,
		       const struct tl_run_json_baseline *bl, char *why, size_t whylen)
{
	struct tl_run_doc *d = tl_run_doc_new(run, an, m, seed, interrupted, host);
	int rc;

	if (bl && bl->cmp)
		tl_run_compare_attach(d->doc, run, bl->base, bl->cmp, bl->path);
	rc = tl_run_doc_commit(o, d, why, whylen);
	tl_run_doc_free(d);
	return rc;
}

int tl_run_commit_raw(struct tl_out *o, const struct tl_run *run, enum tl_os_method m,
		      uint64_t seed, bool interrupted, json_t *host, char *why, size_t whylen)
{
	struct tl_run_doc *d = tl_run_doc_new(run, NULL, m, seed, interrupted, host);
	int rc = tl_run_doc_commit(o, d, why, whylen);
	tl_run_doc_free(d);
	return rc;
}

void tl_run_drop_constant_adds(struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_cell *c = &run->cells[i];

		if (c->kernel.kind == TL_KERNEL_JITTER)
			continue;
		free(c->adds);
		c->adds = NULL;
	}
}

uint64_t tl_cell_adds(const struct tl_cell *c, size_t i)
{
	if (c->adds)
		return c->adds[i];
	/* as tl_kernel_plan fills a plain cell */
	return c->kernel.kind == TL_KERNEL_EMPTY ? 0 : c->kernel.k;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                  */
/* ------------------------------------------------------------------ */

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
			if (tl_csv_fputs(run->timers[c->timer].id, f) < 0 ||
			    fprintf(f, ",%llu,", (unsigned long long)run->flush_bytes[c->flush]) < 0 ||
			    tl_csv_fputs(c->kernel.label, f) < 0 ||
			    fprintf(f, ",%llu,%zu,%.17g,%.17g\n", (unsigned long long)tl_cell_adds(c, i), i,
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
