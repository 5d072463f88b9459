#include "config.h"

#include "io/detect_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "io/file_check.h"
#include "io/json_build.h"
#include "io/keys.h"

#define KEYS(x) (x), sizeof(x) / sizeof((x)[0])

/* The controls at D; shifts and their interval ends may be either sign. */
static const struct tl_key controls[] = {
	{"draws", TL_KEY_COUNT, NULL},
	{"aa_alarms", TL_KEY_COUNT, NULL},
	{"unreliable_draws", TL_KEY_COUNT, NULL},
	{"last_unreliable", TL_KEY_TEXT, NULL},
	{"aa_mwu_p", TL_KEY_REAL, NULL},
	{"ci_lo_ns", TL_KEY_SIGNED, NULL},
	{"ci_hi_ns", TL_KEY_SIGNED, NULL},
	{"swapped_shift_ns", TL_KEY_SIGNED, NULL},
	{"swapped_ci_lo_ns", TL_KEY_SIGNED, NULL},
	{"swapped_ci_hi_ns", TL_KEY_SIGNED, NULL},
};
static const struct tl_keys controls_k = {"a detect result's controls", KEYS(controls), NULL,
					  NULL};

static const struct tl_key row[] = {
	{"backend", TL_KEY_TEXT, NULL},     {"flush_bytes", TL_KEY_COUNT, NULL},
	{"flush", TL_KEY_TEXT, NULL},       {"found", TL_KEY_BOOL, NULL},
	{"d_adds", TL_KEY_COUNT, NULL},     {"d_ns", TL_KEY_TIME, NULL},
	{"ns_per_add", TL_KEY_TIME, NULL},  {"mwu_p", TL_KEY_REAL, NULL},
	{"shift_ns", TL_KEY_SIGNED, NULL},  {"below_adds", TL_KEY_COUNT, NULL},
	{"evaluations", TL_KEY_COUNT, NULL}, {"note", TL_KEY_TEXT, NULL},
	{"controls", TL_KEY_OBJECT, &controls_k},
};
static const struct tl_keys row_k = {"a detect result", KEYS(row), NULL, NULL};

static const struct tl_key doc[] = {
	{"ticklab", TL_KEY_OWN, NULL},    {"k", TL_KEY_COUNT, NULL},
	{"n", TL_KEY_COUNT, NULL},        {"alpha", TL_KEY_REAL, NULL},
	{"seed", TL_KEY_COUNT, NULL},     {"max_d", TL_KEY_COUNT, NULL},
	{"results", TL_KEY_LIST, &row_k},
};
static const struct tl_keys doc_k = {"a detect file", KEYS(doc), NULL, NULL};

/* ------------------------------------------------------------------ */
/* Writing                                                              */
/* ------------------------------------------------------------------ */

static json_t *controls_json(const struct tl_detect_result *r)
{
	const struct tl_keys *k = &controls_k;
	json_t *o = tl_json_object();

	tl_keys_num(o, k, "draws", r->controls_run);
	tl_keys_num(o, k, "aa_alarms", r->aa_alarms);
	tl_keys_num(o, k, "unreliable_draws", r->unreliable);
	tl_keys_set(o, k, "last_unreliable", r->unreliable ? json_string(r->control_why)
							   : json_null());
	tl_keys_num(o, k, "aa_mwu_p", r->found ? r->found_aa_p : NAN);
	tl_keys_num(o, k, "ci_lo_ns", r->found ? r->found_lo : NAN);
	tl_keys_num(o, k, "ci_hi_ns", r->found ? r->found_hi : NAN);
	tl_keys_num(o, k, "swapped_shift_ns", r->found ? r->found_sw_shift : NAN);
	tl_keys_num(o, k, "swapped_ci_lo_ns", r->found ? r->found_sw_lo : NAN);
	tl_keys_num(o, k, "swapped_ci_hi_ns", r->found ? r->found_sw_hi : NAN);
	return o;
}

json_t *tl_detect_row_json(const char *backend, uint64_t flush_bytes, const char *flush,
			   const struct tl_detect_result *r)
{
	json_t *o = tl_json_object();

	tl_keys_set(o, &row_k, "backend", json_string(backend));
	tl_keys_set(o, &row_k, "flush_bytes", json_integer((json_int_t)flush_bytes));
	tl_keys_set(o, &row_k, "flush", json_string(flush));
	tl_keys_set(o, &row_k, "found", json_boolean(r->found));
	tl_keys_set(o, &row_k, "d_adds", r->found ? json_integer((json_int_t)r->d) : json_null());
	tl_keys_num(o, &row_k, "d_ns", r->found ? r->d_ns : NAN);
	tl_keys_num(o, &row_k, "ns_per_add", r->ns_per_add);
	tl_keys_num(o, &row_k, "mwu_p", r->found ? r->p : NAN);
	tl_keys_num(o, &row_k, "shift_ns", r->found ? r->shift_ns : NAN);
	tl_keys_set(o, &row_k, "below_adds", json_integer((json_int_t)r->below));
	tl_keys_num(o, &row_k, "evaluations", r->evaluations);
	tl_keys_set(o, &row_k, "note", json_string(r->why));
	tl_keys_set(o, &row_k, "controls", controls_json(r));
	return o;
}

json_t *tl_detect_to_json(const struct tl_detect_params *p, json_t *rows)
{
	json_t *d = tl_json_object(), *meta = tl_json_object();

	tl_json_set(meta, "version", json_string(PACKAGE_VERSION));
	tl_json_set(meta, "command", json_string("detect"));
	tl_keys_set(d, &doc_k, "ticklab", meta);
	tl_keys_set(d, &doc_k, "k", json_integer((json_int_t)p->k));
	tl_keys_set(d, &doc_k, "n", json_integer((json_int_t)p->n));
	tl_keys_num(d, &doc_k, "alpha", p->alpha);
	tl_keys_set(d, &doc_k, "seed", json_integer((json_int_t)p->seed));
	tl_keys_set(d, &doc_k, "max_d", json_integer((json_int_t)p->max_d));
	tl_keys_set(d, &doc_k, "results", rows);
	return d;
}

json_t *tl_detect_file_to_json(const struct tl_detect_file *f)
{
	json_t *rows = tl_json_array();

	for (size_t i = 0; i < f->n; i++)
		tl_json_append(rows, tl_detect_row_json(f->rows[i].backend, f->rows[i].flush_bytes,
							f->rows[i].flush, &f->rows[i].r));
	return tl_detect_to_json(&f->p, rows);
}

/* ------------------------------------------------------------------ */
/* Reading                                                              */
/* ------------------------------------------------------------------ */

bool tl_detect_json_is(const json_t *d)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(d, "ticklab"),
							    "command"));

	return cmd && strcmp(cmd, "detect") == 0;
}


static void read_row(const json_t *j, struct tl_detect_row *w)
{
	const json_t *c = tl_keys_get(j, &row_k, "controls", TL_KEYS_AS(TL_KEY_OBJECT));
	struct tl_detect_result *r = &w->r;

	memset(w, 0, sizeof *w);
	snprintf(w->backend, sizeof w->backend, "%s", tl_keys_read_text(j, &row_k, "backend"));
	w->flush_bytes = tl_keys_read_whole(j, &row_k, "flush_bytes", 0);
	if (*tl_keys_read_text(j, &row_k, "flush"))
		snprintf(w->flush, sizeof w->flush, "%s", tl_keys_read_text(j, &row_k, "flush"));
	else
		tl_size_format(w->flush_bytes, w->flush, sizeof w->flush);
	r->found = json_is_true(tl_keys_get(j, &row_k, "found", TL_KEYS_AS(TL_KEY_BOOL)));
	r->d = tl_keys_read_whole(j, &row_k, "d_adds", 0);
	r->d_ns = tl_keys_read_num(j, &row_k, "d_ns");
	r->ns_per_add = tl_keys_read_num(j, &row_k, "ns_per_add");
	r->p = tl_keys_read_num(j, &row_k, "mwu_p");
	r->shift_ns = tl_keys_read_num(j, &row_k, "shift_ns");
	r->below = tl_keys_read_whole(j, &row_k, "below_adds", 0);
	r->evaluations = (unsigned)tl_keys_read_whole(j, &row_k, "evaluations", 0);
	snprintf(r->why, sizeof r->why, "%s", tl_keys_read_text(j, &row_k, "note"));
	r->controls_run = (unsigned)tl_keys_read_whole(c, &controls_k, "draws", 0);
	r->aa_alarms = (unsigned)tl_keys_read_whole(c, &controls_k, "aa_alarms", 0);
	r->unreliable = (unsigned)tl_keys_read_whole(c, &controls_k, "unreliable_draws", 0);
	snprintf(r->control_why, sizeof r->control_why, "%s",
		 tl_keys_read_text(c, &controls_k, "last_unreliable"));
	r->found_aa_p = tl_keys_read_num(c, &controls_k, "aa_mwu_p");
	r->found_lo = tl_keys_read_num(c, &controls_k, "ci_lo_ns");
	r->found_hi = tl_keys_read_num(c, &controls_k, "ci_hi_ns");
	r->found_sw_shift = tl_keys_read_num(c, &controls_k, "swapped_shift_ns");
	r->found_sw_lo = tl_keys_read_num(c, &controls_k, "swapped_ci_lo_ns");
	r->found_sw_hi = tl_keys_read_num(c, &controls_k, "swapped_ci_hi_ns");
}

int tl_detect_from_json(const json_t *d, const char *name, struct tl_detect_file *f, char *why,
			size_t whylen)
{
	const json_t *rows = tl_keys_get(d, &doc_k, "results", TL_KEYS_AS(TL_KEY_LIST));
	size_t n = json_array_size(rows);

	memset(f, 0, sizeof *f);
	tl_detect_defaults(&f->p);
	if (tl_file_marker_check(d, name, "detect", why, whylen) < 0 ||
	    tl_keys_check(d, &doc_k, "", name, why, whylen) < 0)
		return -1;
	if (!json_is_array(rows)) {
		snprintf(why, whylen,
			 "%s: results: missing (accepted: what `ticklab detect --json` writes)",
			 name);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!json_is_object(json_array_get(rows, i))) {
			snprintf(why, whylen, "%s: results[%zu]: expected a result, got null", name,
				 i);
			return -1;
		}
	f->p.k = tl_keys_read_whole(d, &doc_k, "k", f->p.k);
	f->p.n = (size_t)tl_keys_read_whole(d, &doc_k, "n", f->p.n);
	if (isfinite(tl_keys_read_num(d, &doc_k, "alpha")))
		f->p.alpha = tl_keys_read_num(d, &doc_k, "alpha");
	f->p.seed = tl_keys_read_whole(d, &doc_k, "seed", f->p.seed);
	f->p.max_d = tl_keys_read_whole(d, &doc_k, "max_d", f->p.max_d);
	f->rows = tl_xcalloc(n ? n : 1, sizeof *f->rows);
	f->n = n;
	for (size_t i = 0; i < n; i++)
		read_row(json_array_get(rows, i), &f->rows[i]);
	return 0;
}

void tl_detect_file_free(struct tl_detect_file *f)
{
	free(f->rows);
	f->rows = NULL;
	f->n = 0;
}

/* ------------------------------------------------------------------ */
/* The table                                                            */
/* ------------------------------------------------------------------ */

void tl_detect_head_print(FILE *out, const struct tl_detect_params *p)
{
	fprintf(out, "smallest D detected by jitter:%llu,D,0.5 with %zu samples (Mann-Whitney p < %g)\n",
		(unsigned long long)p->k, p->n, p->alpha);
	fprintf(out, "%-24s %-8s %7s %16s %9s %5s  %s\n", "backend", "flush", "ns/ADD",
		"D ADDs (> miss)", "D ns", "evals", "at D");
}

void tl_detect_row_print(FILE *out, const char *backend, const char *flush,
			 const struct tl_detect_result *r)
{
	char d[48] = "-", dns[32] = "-", detail[200];

	if (r->found) {
		snprintf(d, sizeof d, "%llu (> %llu)", (unsigned long long)r->d,
			 (unsigned long long)r->below);
		snprintf(dns, sizeof dns, "%.2f", r->d_ns);
		snprintf(detail, sizeof detail, "p = %.2g, shift %.2f ns [%.2f, %.2f]", r->p,
			 r->shift_ns, r->found_lo, r->found_hi);
	} else {
		snprintf(detail, sizeof detail, "%s", r->why);
	}
	fprintf(out, "%-24s %-8s %7.4f %16s %9s %5u  %s\n", backend, flush, r->ns_per_add, d, dns,
		r->evaluations, detail);
	if (r->found)
		fprintf(out, "  controls at D: A/A p = %.2g; P-swapped %.2f ns [%.2f, %.2f]\n",
			r->found_aa_p, r->found_sw_shift, r->found_sw_lo, r->found_sw_hi);
	fprintf(out, "  controls: %u draws, A/A shift in %u, %u detected draws overruled as "
		     "unreliable%s%s%s\n",
		r->controls_run, r->aa_alarms, r->unreliable, r->unreliable ? " (last: " : "",
		r->unreliable ? r->control_why : "", r->unreliable ? ")" : "");
}
