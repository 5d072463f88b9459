/* A run in: the JSON reader behind report, compare, plot and tui --replay.
 * Every key is checked and a problem is named with its cell and key. */
#include "config.h"

#include "io/run_load.h"
#include "io/run_bulk.h"
#include "io/file_check.h"
#include "io/term_safe.h"

#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/size.h"
#include "io/noise_json.h"
#include "io/run_keys.h"

/* Strings to indices in linear time, so a file of many backends or cells
 * reads in time linear in its size (a scan per cell made 4 000 backends
 * take 9 times as long as 1 000). */
struct keyset {
	char **keys;
	size_t *vals;
	size_t cap, n;
};

static uint64_t ks_hash(const char *k)
{
	uint64_t h = 1469598103934665603ULL;

	while (*k)
		h = (h ^ (unsigned char)*k++) * 1099511628211ULL;
	return h;
}

static size_t ks_slot(const struct keyset *ks, const char *k)
{
	size_t i = (size_t)ks_hash(k) & (ks->cap - 1);

	while (ks->keys[i] && strcmp(ks->keys[i], k) != 0)
		i = (i + 1) & (ks->cap - 1);
	return i;
}

static size_t ks_find(const struct keyset *ks, const char *k)
{
	size_t i;

	if (!ks->cap)
		return SIZE_MAX;
	i = ks_slot(ks, k);
	return ks->keys[i] ? ks->vals[i] : SIZE_MAX;
}

static void ks_free(struct keyset *ks)
{
	for (size_t i = 0; i < ks->cap; i++)
		free(ks->keys[i]);
	free(ks->keys);
	free(ks->vals);
	memset(ks, 0, sizeof *ks);
}

/* Adds k -> v (k not there yet); the table stays at most half full. */
static void ks_add(struct keyset *ks, const char *k, size_t v)
{
	size_t i;

	if (2 * (ks->n + 1) > ks->cap) {
		struct keyset big = {0};

		big.cap = ks->cap ? 2 * ks->cap : 64;
		big.keys = tl_xcalloc(big.cap, sizeof *big.keys);
		big.vals = tl_xcalloc(big.cap, sizeof *big.vals);
		for (size_t j = 0; j < ks->cap; j++)
			if (ks->keys[j]) {
				size_t at = ks_slot(&big, ks->keys[j]);

				big.keys[at] = ks->keys[j];
				big.vals[at] = ks->vals[j];
				big.n++;
			}
		free(ks->keys);
		free(ks->vals);
		*ks = big;
	}
	i = ks_slot(ks, k);
	ks->keys[i] = tl_xstrdup(k);
	ks->vals[i] = v;
	ks->n++;
}

struct reader {
	const char *name;
	char *why;
	size_t whylen;
	char where[64]; /* "cells[3]" */
	struct tl_bulk *bulk; /* the sample arrays taken out of the tree, or NULL */
	const struct tl_keys *keys; /* of the object being read (io/run_keys.h) */
	struct keyset timers;   /* backend id -> timer */
	size_t timers_cap;      /* run->timers' room */
	struct keyset cells;    /* hidden|timer|flush|kernel -> cell */
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int rd_fail(struct reader *r, const char *key, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!*r->where && !key)
		snprintf(r->why, r->whylen, "%s: %s", r->name, msg);
	else
		snprintf(r->why, r->whylen, "%s: %s%s%s: %s", r->name, r->where,
			 *r->where && key ? "." : "", key ? key : "", msg);
	return -1;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "something else";
}

/* Looks up key in o, read as kinds (TL_KEYS_AS bits) as the object's
 * description says; missing is an error unless optional (then *v = NULL). */
static int rd_get(struct reader *r, const json_t *o, const char *key, bool optional,
		  unsigned kinds, json_t **v)
{
	*v = (json_t *)tl_keys_get(o, r->keys, key, kinds);
	if (!*v && !optional)
		return rd_fail(r, key, "missing");
	return 0;
}

static int rd_string(struct reader *r, const json_t *o, const char *key, const char **out)
{
	json_t *v;

	if (rd_get(r, o, key, false, TL_KEYS_AS(TL_KEY_TEXT), &v) < 0)
		return -1;
	if (!json_is_string(v))
		return rd_fail(r, key, "expected a string, got %s", type_name(v));
	*out = json_string_value(v);
	return 0;
}

static int rd_uint(struct reader *r, const json_t *o, const char *key, bool optional,
		   uint64_t *out)
{
	json_t *v;

	if (rd_get(r, o, key, optional, TL_KEYS_AS(TL_KEY_COUNT), &v) < 0)
		return -1;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return rd_fail(r, key, "expected a whole number, got %s", type_name(v));
	if (json_integer_value(v) < 0)
		return rd_fail(r, key, "must be >= 0, got %lld", (long long)json_integer_value(v));
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* A number, or null read as NaN when nullable. */
static int rd_number(struct reader *r, const json_t *o, const char *key, bool nullable,
		     double *out)
{
	json_t *v;

	if (rd_get(r, o, key, false, TL_KEYS_NUMBER, &v) < 0)
		return -1;
	if (json_is_null(v) && nullable) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return rd_fail(r, key, "expected a number%s, got %s", nullable ? " or null" : "",
			       type_name(v));
	if (fabs(json_number_value(v)) > TL_RESULTS_MAX_ABS)
		return rd_fail(r, key, "is %g, outside the plausible +-%g", json_number_value(v),
			       TL_RESULTS_MAX_ABS);
	*out = json_number_value(v);
	return 0;
}

/* The length of a sample array, in the tree or taken out of it. */
static bool rd_array(struct reader *r, const json_t *a, size_t *len)
{
	struct tl_bulk_array *ba = tl_bulk_find(r->bulk, a);

	if (ba)
		*len = ba->n;
	else if (json_is_array(a))
		*len = json_array_size(a);
	else
		return false;
	return true;
}

/* *out: a new array of the n values (free()). */
static int rd_doubles(struct reader *r, const json_t *o, const char *key, size_t n, double **out)
{
	json_t *a;
	struct tl_bulk_array *ba;

	if (rd_get(r, o, key, false, TL_KEYS_AS(TL_KEY_OWN), &a) < 0)
		return -1;
	ba = tl_bulk_find(r->bulk, a);
	if (ba) {
		if (ba->bad != SIZE_MAX)
			return rd_fail(r, key, "value %zu is %g, outside the plausible +-%g", ba->bad,
				       ba->bad_value, TL_RESULTS_MAX_ABS);
		*out = tl_bulk_take(ba);
		return *out ? 0 : rd_fail(r, NULL, "out of memory");
	}
	*out = malloc((n ? n : 1) * sizeof **out);
	if (!*out)
		return rd_fail(r, NULL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return rd_fail(r, key, "value %zu is %s, expected a finite number", i,
				       type_name(v));
		if (fabs(json_number_value(v)) > TL_RESULTS_MAX_ABS)
			return rd_fail(r, key, "value %zu is %g, outside the plausible +-%g", i,
				       json_number_value(v), TL_RESULTS_MAX_ABS);
		(*out)[i] = json_number_value(v);
	}
	return 0;
}

static int rd_adds(struct reader *r, const json_t *o, const struct tl_kernel *k, size_t n,
		   uint64_t **out)
{
	json_t *a;
	struct tl_bulk_array *ba;
	size_t len;

	if (rd_get(r, o, "adds", true, TL_KEYS_AS(TL_KEY_OWN), &a) < 0)
		return -1;
	if (a && !rd_array(r, a, &len))
		return rd_fail(r, "adds", "expected an array of whole numbers, got %s", type_name(a));
	if (a && len != n)
		return rd_fail(r, "adds", "has %zu values but n is %zu", len, n);
	ba = tl_bulk_find(r->bulk, a);
	if (ba && ba->counts) {
		if (ba->bad != SIZE_MAX)
			return rd_fail(r, "adds", "value %zu is %s, expected a whole number >= 0",
				       ba->bad, ba->bad_type);
		*out = tl_bulk_take(ba);
		return *out ? 0 : rd_fail(r, NULL, "out of memory");
	}
	/* A plain cell's counts are all its kernel's: none kept (tl_cell_adds). */
	if (!a && k->kind != TL_KERNEL_JITTER) {
		*out = NULL;
		return 0;
	}
	*out = malloc((n ? n : 1) * sizeof **out);
	if (!*out)
		return rd_fail(r, NULL, "out of memory");
	if (!a) {
		for (size_t i = 0; i < n; i++)
			(*out)[i] = k->k;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return rd_fail(r, "adds", "value %zu is %s, expected a whole number >= 0", i,
				       type_name(v));
		(*out)[i] = (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* Appends a distinct value to a growing array; returns its index or -1. */
static long find_or_add_timer(struct reader *r, struct tl_run *run, const struct tl_backend *b,
			      const char *id, double ns_per_unit)
{
	size_t at = ks_find(&r->timers, id);

	if (at != SIZE_MAX)
		return (long)at;
	if (run->ntimers == r->timers_cap) {
		size_t cap = r->timers_cap ? 2 * r->timers_cap : 8;
		struct tl_timer *grown = realloc(run->timers, cap * sizeof *grown);

		if (!grown)
			return -1;
		run->timers = grown;
		r->timers_cap = cap;
	}
	memset(&run->timers[run->ntimers], 0, sizeof *run->timers);
	run->timers[run->ntimers].backend = b;
	snprintf(run->timers[run->ntimers].id, sizeof run->timers[run->ntimers].id, "%s", id);
	run->timers[run->ntimers].ns_per_unit = ns_per_unit;
	ks_add(&r->timers, id, run->ntimers);
	return (long)run->ntimers++;
}

/* A flush by its bytes; the name it was given comes with the first cell
 * that names it (every cell of one flush carries the same). */
static long find_or_add_flush(struct tl_run *run, uint64_t bytes, const char *name)
{
	uint64_t *grown;
	char **names;

	for (size_t i = 0; i < run->nflush; i++)
		if (run->flush_bytes[i] == bytes)
			return (long)i;
	grown = realloc(run->flush_bytes, (run->nflush + 1) * sizeof *grown);
	if (!grown)
		return -1;
	run->flush_bytes = grown;
	names = realloc(run->flush_names, (run->nflush + 1) * sizeof *names);
	if (!names)
		return -1;
	run->flush_names = names;
	grown[run->nflush] = bytes;
	names[run->nflush] = name ? tl_xstrdup(name) : NULL;
	return (long)run->nflush++;
}

/* "flush_name": the flush as the user gave it ("4xL3"), optional (files
 * before it was kept have none). A name is a size's text: short and
 * printable. */
static int rd_flush_name(struct reader *r, const json_t *o, const char **name)
{
	const json_t *v = json_object_get(o, "flush_name");

	*name = NULL;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return rd_fail(r, "flush_name", "expected a string, got %s", type_name(v));
	*name = json_string_value(v);
	if (!**name || strlen(*name) >= 64)
		return rd_fail(r, "flush_name", "must be 1 to 63 characters (a size such as 4xL3)");
	for (const char *p = *name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".x*+-_", *p))
			return rd_fail(r, "flush_name",
				       "'%.63s' is not a flush size's text (accepted: letters, digits, "
				       "'.', 'x')",
				       *name);
	return 0;
}

static int rd_kernel(struct reader *r, const json_t *o, struct tl_kernel *out)
{
	const char *label;
	struct tl_kernel *ks = NULL;
	const json_t *kind;
	size_t nk = 0;
	uint64_t k = 0;
	char why[TL_WHY_MAX];

	if (rd_string(r, o, "kernel", &label) < 0 || rd_uint(r, o, "k", true, &k) < 0)
		return -1;
	if (tl_kernel_parse_list(label, &ks, &nk, why, sizeof why) < 0) {
		free(ks);
		return rd_fail(r, "kernel", "%s", why);
	}
	if (nk != 1) {
		free(ks);
		return rd_fail(r, "kernel", "'%s' is a list or range, expected one kernel", label);
	}
	*out = ks[0];
	free(ks);
	if (tl_keys_get(o, r->keys, "k", TL_KEYS_AS(TL_KEY_COUNT)) && k != out->k)
		return rd_fail(r, "k", "is %llu but kernel '%s' has K = %llu", (unsigned long long)k,
			       label, (unsigned long long)out->k);
	kind = json_object_get(o, "kind");
	if (kind && (!json_is_string(kind) || strcmp(json_string_value(kind), out->kind->name)))
		return rd_fail(r, "kind", "is '%s' but kernel '%s' is of kind '%s'",
			       json_is_string(kind) ? json_string_value(kind) : "not a string", label,
			       out->kind->name);
	return 0;
}

/* A time is end - start of a clock that does not go back: a negative one
 * (or a negative overhead, which shifts every figure) is a forged or broken
 * file. Only CLOCK_REALTIME can step back (settimeofday, NTP), and the
 * simulated timer's noise can draw below zero. */
static int rd_times_ok(struct reader *r, const struct tl_backend *b, const struct tl_cell *c,
		       double ns_per_unit)
{
	bool may_step = b->simulated || strcmp(b->id, "clock-gettime-realtime") == 0;

	if (c->overhead_ns < 0)
		return rd_fail(r, "overhead", "is %g, expected a time >= 0", c->overhead_ns);
	if (c->resolution_ns < 0)
		return rd_fail(r, "resolution_ns", "is %g, expected a time >= 0", c->resolution_ns);
	for (size_t i = 0; i < c->n && !may_step; i++) {
		if (c->raw[i] < 0)
			return rd_fail(r, "samples", "value %zu is %g, expected a time >= 0 (backend "
					  "'%s' does not go back)", i, c->raw[i], b->id);
		if (c->ns[i] < 0)
			return rd_fail(r, "samples_ns", "value %zu is %g, expected a time >= 0 (backend "
					  "'%s' does not go back)", i, c->ns[i], b->id);
	}
	/* The runner stores each sample's ns as its raw count times the
	 * timer's ns per unit, and both are written exactly: two arrays that
	 * disagree are one of them edited (the margin is for a writer that
	 * rounded ns_per_unit). */
	for (size_t i = 0; i < c->n; i++) {
		double want = c->raw[i] * ns_per_unit;

		if (fabs(c->ns[i] - want) > 1e-6 * fabs(want) + 1e-9)
			return rd_fail(r, "samples_ns", "value %zu is %g, but samples[%zu] = %g "
					  "times ns_per_unit = %g is %g (samples_ns = samples x "
					  "ns_per_unit)", i, c->ns[i], i, c->raw[i], ns_per_unit, want);
	}
	return 0;
}

/* The rule between the object's values its key table states, which the
 * loaders of every kind share (io/keys.h). */
static int rd_rule(struct reader *r, const json_t *o)
{
	const char *key = NULL;
	char msg[200];

	if (!r->keys->rule || r->keys->rule(o, &key, msg, sizeof msg) == 0)
		return 0;
	return rd_fail(r, key, "%s", msg);
}

static int rd_cell(struct reader *r, const json_t *o, bool hidden, struct tl_run *run,
		   struct tl_cell *c)
{
	const char *id;
	const struct tl_backend *b;
	double ns_per_unit;
	uint64_t flush, n, planned;
	const char *flush_name;
	long ti, fi;
	char noise_why[200];

	if (!json_is_object(o))
		return rd_fail(r, NULL, "expected an object, got %s", type_name(o));
	if (rd_string(r, o, "backend", &id) < 0 || rd_number(r, o, "ns_per_unit", false,
							    &ns_per_unit) < 0)
		return -1;
	b = tl_backend_find(id);
	if (!b)
		return rd_fail(r, "backend", "unknown backend '%s' (this ticklab knows: %s)", id,
			       tl_backend_ids());
	if (strlen(id) >= TL_ID_MAX)
		return rd_fail(r, "backend", "id is longer than %d characters", TL_ID_MAX - 1);
	if (!tl_term_is_safe(id))
		return rd_fail(r, "backend", "holds control characters or bytes that are not UTF-8");
	if (!(ns_per_unit > 0) || !isfinite(ns_per_unit))
		return rd_fail(r, "ns_per_unit", "must be a positive number, got %g", ns_per_unit);
	if (rd_kernel(r, o, &c->kernel) < 0 || rd_uint(r, o, "flush_bytes", false, &flush) < 0 ||
	    rd_flush_name(r, o, &flush_name) < 0 || rd_uint(r, o, "n", false, &n) < 0)
		return -1;
	planned = n;
	if (rd_uint(r, o, "n_planned", true, &planned) < 0)
		return -1;
	if (planned < n)
		return rd_fail(r, "n_planned", "is %llu, less than n = %llu",
			       (unsigned long long)planned, (unsigned long long)n);
	if (n > ((uint64_t)1 << 32))
		return rd_fail(r, "n", "%llu samples is more than ticklab records",
			       (unsigned long long)n);
	if (rd_number(r, o, "overhead", true, &c->overhead_ns) < 0 ||
	    rd_number(r, o, "resolution_ns", true, &c->resolution_ns) < 0)
		return -1;
	c->d_ns_per_add = NAN;
	/* D in ns: the label keeps what was asked, "d" the ADDs it became, and
	 * its ns per ADD must be there. A real timer's jitter cell has one
	 * whatever D was given in. */
	if (c->kernel.kind == TL_KERNEL_JITTER && c->kernel.d_ns > 0 &&
	    rd_uint(r, o, "d", false, &c->kernel.d) < 0)
		return -1;
	if (c->kernel.kind == TL_KERNEL_JITTER &&
	    (c->kernel.d_ns > 0 || tl_keys_get(o, r->keys, "d_ns_per_add", TL_KEYS_NUMBER)) &&
	    rd_number(r, o, "d_ns_per_add", true, &c->d_ns_per_add) < 0)
		return -1;
	/* Lengths are checked before anything of size n is allocated, so a
	 * file claiming billions of samples costs nothing. */
	for (size_t i = 0; i < 2; i++) {
		const char *key = i ? "samples_ns" : "samples";
		const json_t *a = tl_keys_get(o, r->keys, key, TL_KEYS_AS(TL_KEY_OWN));
		size_t len;

		if (!a)
			return rd_fail(r, key, "missing");
		if (!rd_array(r, a, &len) || (tl_bulk_find(r->bulk, a) && tl_bulk_find(r->bulk, a)->counts))
			return rd_fail(r, key, "expected an array of numbers, got %s", type_name(a));
		if (len != n)
			return rd_fail(r, key, "has %zu values but n is %llu", len,
				       (unsigned long long)n);
	}
	ti = find_or_add_timer(r, run, b, id, ns_per_unit);
	fi = find_or_add_flush(run, flush, flush_name);
	/* A saved file has exactly the samples that were taken: n = done. */
	c->n = (size_t)n;
	if (ti < 0 || fi < 0)
		return rd_fail(r, NULL, "out of memory");
	if (run->timers[ti].ns_per_unit != ns_per_unit)
		return rd_fail(r, "ns_per_unit", "differs from an earlier cell of backend '%s'", id);
	c->timer = (size_t)ti;
	c->flush = (size_t)fi;
	c->hidden = hidden;
	if (rd_doubles(r, o, "samples", c->n, &c->raw) < 0 ||
	    rd_doubles(r, o, "samples_ns", c->n, &c->ns) < 0 ||
	    rd_adds(r, o, &c->kernel, c->n, &c->adds) < 0)
		return -1;
	if (rd_times_ok(r, b, c, ns_per_unit) < 0 || rd_rule(r, o) < 0)
		return -1;
	if (tl_noise_from_json(tl_keys_get(o, r->keys, "noise", TL_KEYS_AS(TL_KEY_OWN)), run, c,
			       noise_why, sizeof noise_why) < 0)
		return rd_fail(r, "noise", "%s", noise_why);
	atomic_store(&c->done, c->n);
	return 0;
}

/* Each backend x flush x kernel once: a repeated cell would be analysed,
 * shown and compared twice. */
static int rd_once(struct reader *r, const struct tl_run *run, const struct tl_cell *c)
{
	char key[64 + sizeof c->kernel.label];

	snprintf(key, sizeof key, "%d|%zu|%zu|%s", c->hidden, c->timer, c->flush, c->kernel.label);
	if (ks_find(&r->cells, key) != SIZE_MAX)
		return rd_fail(r, NULL, "the same backend, flush and kernel as an earlier "
					"cell (each cell appears once)");
	ks_add(&r->cells, key, (size_t)(c - run->cells));
	return 0;
}

static int rd_cells(struct reader *r, const json_t *doc, const char *key, bool hidden,
		    struct tl_run *run)
{
	json_t *a;
	size_t n;
	struct tl_cell *grown;

	if (rd_get(r, doc, key, hidden, TL_KEYS_AS(TL_KEY_OWN), &a) < 0)
		return -1;
	if (!a)
		return 0;
	if (!json_is_array(a))
		return rd_fail(r, key, "expected an array of cells, got %s", type_name(a));
	n = json_array_size(a);
	if (!hidden && n == 0)
		return rd_fail(r, key, "no cells: nothing to report");
	grown = realloc(run->cells, (run->ncells + n) * sizeof *grown);
	if (!grown)
		return rd_fail(r, key, "out of memory");
	run->cells = grown;
	for (size_t i = 0; i < n; i++) {
		struct tl_cell *c = &run->cells[run->ncells];

		memset(c, 0, sizeof *c);
		run->ncells++; /* counted first so a failure frees what was allocated */
		snprintf(r->where, sizeof r->where, "%s[%zu]", key, i);
		r->keys = &tl_run_cell_keys;
		if (rd_cell(r, json_array_get(a, i), hidden, run, c) < 0 || rd_once(r, run, c) < 0)
			return -1;
		r->keys = &tl_run_doc_keys;
		run->samples_total += c->n;
	}
	r->where[0] = '\0';
	return 0;
}

/* Every cell needs the empty cell of its timer and flush: it is where
 * t_e,std came from. */
static int link_baselines(struct reader *r, struct tl_run *run)
{
	struct keyset empty = {0}; /* timer|flush -> its first empty cell */
	char key[64];

	for (size_t j = 0; j < run->ncells; j++) {
		const struct tl_cell *e = &run->cells[j];

		snprintf(key, sizeof key, "%zu|%zu", e->timer, e->flush);
		if (e->kernel.kind == TL_KERNEL_EMPTY && ks_find(&empty, key) == SIZE_MAX)
			ks_add(&empty, key, j);
	}
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_cell *c = &run->cells[i];
		size_t best;

		snprintf(key, sizeof key, "%zu|%zu", c->timer, c->flush);
		best = ks_find(&empty, key);
		if (best == SIZE_MAX) {
			char flush[32];

			ks_free(&empty);
			tl_size_format(run->flush_bytes[c->flush], flush, sizeof flush);
			r->where[0] = '\0';
			return rd_fail(r, NULL,
				       "no empty baseline cell for backend '%s' at flush %s (every "
				       "backend and flush needs one: it measured t_e,std)",
				       run->timers[c->timer].id, flush);
		}
		c->baseline = best;
	}
	ks_free(&empty);
	return 0;
}

/* Fills cfg from the cells so code that looks at the configuration of a
 * live run sees the same shape; the run owns a copy, as a prepared one does. */
static void fill_config(struct tl_run *run, size_t n, int cpu, uint64_t seed)
{
	const char **ids = tl_xcalloc(run->ntimers, sizeof *ids);
	struct tl_kernel *ks = tl_xcalloc(run->ncells, sizeof *ks);
	size_t nk = 0;

	for (size_t i = 0; i < run->ntimers; i++)
		ids[i] = run->timers[i].id;
	for (size_t i = 0; i < run->ncells; i++) {
		size_t j;

		if (run->cells[i].hidden)
			continue;
		for (j = 0; j < nk && strcmp(ks[j].label, run->cells[i].kernel.label) != 0; j++)
			;
		if (j == nk)
			ks[nk++] = run->cells[i].kernel;
	}
	tl_run_own_config(run, &(struct tl_run_config){
		.backends = ids, .nbackends = run->ntimers, .flush_bytes = run->flush_bytes,
		.flush_names = (const char *const *)run->flush_names, .nflush = run->nflush, .kernels = ks, .nkernels = nk, .n = n, .cpu = cpu,
		.seed = seed});
	free(ids);
	free(ks);
	run->cpu = cpu;
	atomic_store(&run->samples_done, run->samples_total);
}

static int rd_seed(struct reader *r, const json_t *doc, uint64_t *seed)
{
	json_t *v;
	char *end;

	if (rd_get(r, doc, "seed", false, TL_KEYS_AS(TL_KEY_OWN), &v) < 0)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*seed = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && json_string_value(v)[0] >= '0' && json_string_value(v)[0] <= '9') {
		errno = 0;
		*seed = strtoull(json_string_value(v), &end, 10);
		if (*end == '\0' && errno == 0)
			return 0;
	}
	return rd_fail(r, "seed", "expected a whole number >= 0, got %s", type_name(v));
}

static int rd_header(struct reader *r, const json_t *doc, struct tl_results_meta *meta,
		     uint64_t *n, int *cpu)
{
	json_t *v;
	int m;

	if (rd_seed(r, doc, &meta->seed) < 0 || rd_uint(r, doc, "n", true, n) < 0)
		return -1;
	if (rd_get(r, doc, "cpu", true, TL_KEYS_AS(TL_KEY_SIGNED), &v) < 0)
		return -1;
	if (v && !(json_is_integer(v) && json_integer_value(v) >= -1 &&
		   json_integer_value(v) < 1 << 20))
		return rd_fail(r, "cpu", "expected a CPU number (or -1), got %s", type_name(v));
	if (v)
		*cpu = (int)json_integer_value(v);
	if (rd_get(r, doc, "os_filter", true, TL_KEYS_AS(TL_KEY_TEXT), &v) < 0)
		return -1;
	if (v) {
		if (!json_is_string(v))
			return rd_fail(r, "os_filter", "expected a string, got %s", type_name(v));
		m = stats_os_method_parse(json_string_value(v));
		if (m < 0)
			return rd_fail(r, "os_filter", "'%s' is not a filter (accepted: iforest, iqr, none, cause)",
				       json_string_value(v));
		meta->os = (enum tl_os_method)m;
	}
	if (rd_get(r, doc, "interrupted", true, TL_KEYS_AS(TL_KEY_BOOL), &v) < 0)
		return -1;
	if (v && !json_is_boolean(v))
		return rd_fail(r, "interrupted", "expected true or false, got %s", type_name(v));
	meta->interrupted = v && json_is_true(v);
	if (rd_get(r, doc, "host", true, TL_KEYS_AS(TL_KEY_OWN), &v) < 0)
		return -1;
	if (v && !json_is_object(v))
		return rd_fail(r, "host", "expected an object, got %s", type_name(v));
	meta->host = v ? json_incref(v) : NULL;
	return 0;
}

/* Backends whose unit is a TSC tick, converted at the calibrated rate
 * (backends/barrier.c: ns_per_unit = 1 / tl_tsc_ghz()). */
static bool reads_tsc(const char *id)
{
	return strcmp(id, "barrier-tsc") == 0 || strcmp(id, "barrier-rdtsc") == 0 ||
	       strcmp(id, "rdtsc") == 0;
}

/* The TSC rate the host records, as a fingerprint's (null when unknown,
 * else a plausible 0.1 to 10 GHz), and a TSC backend's ns per tick that
 * agrees with it: both come from the one calibration of the process that
 * wrote the file, so they differ only by rounding (the 1 % margin is for
 * a writer that rounded one of them). */
static int rd_tsc_rate(struct reader *r, const struct tl_run *run, const json_t *host)
{
	const json_t *v = host ? json_object_get(host, "tsc_ghz") : NULL;
	double ghz = v && json_is_number(v) ? json_number_value(v) : 0;

	r->where[0] = '\0';
	if (v && !json_is_null(v) && !json_is_number(v))
		return rd_fail(r, "host.tsc_ghz", "expected a number or null, got %s", type_name(v));
	if (v && json_is_number(v) && !(ghz >= TL_TSC_GHZ_MIN && ghz <= TL_TSC_GHZ_MAX))
		return rd_fail(r, "host.tsc_ghz", "is %g, outside the plausible 0.1 to 10 GHz (null "
					   "when unknown)", ghz);
	for (size_t t = 0; t < run->ntimers; t++) {
		const struct tl_timer *tm = &run->timers[t];
		double file_ghz = 1 / tm->ns_per_unit;

		if (!tm->backend || !reads_tsc(tm->backend->id))
			continue;
		if (!(file_ghz >= TL_TSC_GHZ_MIN && file_ghz <= TL_TSC_GHZ_MAX))
			return rd_fail(r, "ns_per_unit", "of backend '%s' is %g ns, a TSC of %g GHz "
						 "(plausible: 0.1 to 10 GHz)", tm->id, tm->ns_per_unit, file_ghz);
		if (ghz > 0 && fabs(file_ghz - ghz) > 0.01 * ghz)
			return rd_fail(r, "ns_per_unit", "of backend '%s' is %g ns, a TSC of %g GHz, but "
						 "host.tsc_ghz is %g (ns per tick = 1 / the TSC rate)",
				       tm->id, tm->ns_per_unit, file_ghz, ghz);
	}
	return 0;
}

int tl_run_from_json(const json_t *doc, const char *name, struct tl_run *run,
		     struct tl_results_meta *meta, char *why, size_t whylen)
{
	return tl_run_from_json_bulk(doc, NULL, name, run, meta, why, whylen);
}

int tl_run_from_json_bulk(const json_t *doc, struct tl_bulk *bulk, const char *name,
			  struct tl_run *run, struct tl_results_meta *meta, char *why, size_t whylen)
{
	struct reader r = {
		.name = name, .why = why, .whylen = whylen, .bulk = bulk, .keys = &tl_run_doc_keys};
	uint64_t n = 0;
	int cpu = -1;

	memset(run, 0, sizeof *run);
	memset(meta, 0, sizeof *meta);
	meta->os = TL_OS_IFOREST;
	if (!json_is_object(doc)) {
		rd_fail(&r, NULL, "expected a ticklab run (a JSON object), got %s", type_name(doc));
		return -1;
	}
	if (!json_object_get(doc, "cells") && json_object_get(doc, "results")) {
		const char *cmd = json_string_value(
			json_object_get(json_object_get(doc, "ticklab"), "command"));

		/* the kinds with "results" are named by their marker */
		rd_fail(&r, NULL, "this is a `ticklab %s` result, not a run: this reads the files "
				  "`ticklab run --json` writes",
			cmd && strcmp(cmd, "detect") == 0 ? "detect" : "search");
		return -1;
	}
	if (tl_file_marker_check(doc, name, "run", why, whylen) < 0) {
		tl_run_unload(run, meta);
		return -1;
	}
	if (rd_header(&r, doc, meta, &n, &cpu) < 0 || rd_cells(&r, doc, "cells", false, run) < 0 ||
	    rd_cells(&r, doc, "baselines", true, run) < 0 || link_baselines(&r, run) < 0 ||
	    rd_tsc_rate(&r, run, meta->host) < 0) {
		ks_free(&r.timers);
		ks_free(&r.cells);
		tl_run_unload(run, meta);
		return -1;
	}
	ks_free(&r.timers);
	ks_free(&r.cells);
	fill_config(run, n ? (size_t)n : run->cells[0].n, cpu, meta->seed);
	return 0;
}

int tl_run_load(const char *path, struct tl_run *run, struct tl_results_meta *meta, char *why,
		size_t whylen)
{
	struct tl_bulk *bulk;
	json_t *doc;
	int rc;

	memset(run, 0, sizeof *run);
	memset(meta, 0, sizeof *meta);
	doc = tl_json_load_bulk(path, &bulk, why, whylen);
	if (!doc)
		return -1;
	rc = tl_run_from_json_bulk(doc, bulk, strcmp(path, "-") == 0 ? "standard input" : path, run,
				   meta, why, whylen);
	json_decref(doc);
	tl_bulk_free(bulk);
	return rc;
}

void tl_run_unload(struct tl_run *run, struct tl_results_meta *meta)
{
	tl_run_free(run);
	if (meta) {
		json_decref(meta->host);
		meta->host = NULL;
	}
}
