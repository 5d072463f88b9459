#include "config.h"

#include "io/file_check.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/run_load.h"
#include "io/term_safe.h"

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static int fail(char *why, size_t whylen, const char *name, const char *where, const char *fmt,
		...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(why, whylen, "%s: %s: %s", name, where, msg);
	return -1;
}

/* "X.Y.Z" (anything after Z, such as "-rc1", ignored) into v; false if not. */
static bool version_parse(const char *s, unsigned long v[3])
{
	for (int i = 0; i < 3; i++) {
		char *end;

		if (!isdigit((unsigned char)*s))
			return false;
		v[i] = strtoul(s, &end, 10);
		s = end;
		if (i < 2 && *s++ != '.')
			return false;
	}
	return true;
}

int tl_file_marker_check(const json_t *doc, const char *name, const char *command, char *why,
			 size_t whylen)
{
	const json_t *t = json_object_get(doc, "ticklab");
	const char *cmd = json_string_value(json_object_get(t, "command"));
	const char *ver = json_string_value(json_object_get(t, "version"));
	unsigned long fv[3], mine[3];
	char safe[64];

	if (!json_is_object(t))
		return fail(why, whylen, name, "ticklab",
			    "missing: not a file ticklab wrote (accepted: what `ticklab %s --json` "
			    "writes, which holds \"ticklab\": {\"version\": ..., \"command\": \"%s\"})",
			    command, command);
	if (!cmd || strcmp(cmd, command) != 0)
		return fail(why, whylen, name, "ticklab.command", "is %s%s%s, expected \"%s\"",
			    cmd ? "\"" : "", cmd ? tl_term_safe(cmd, safe, sizeof safe) : "missing",
			    cmd ? "\"" : "", command);
	if (!ver || !version_parse(ver, fv))
		return fail(why, whylen, name, "ticklab.version", "is %s%s%s, expected X.Y.Z",
			    ver ? "'" : "", ver ? tl_term_safe(ver, safe, sizeof safe) : "missing",
			    ver ? "'" : "");
	version_parse(PACKAGE_VERSION, mine);
	for (int i = 0; i < 3; i++) {
		if (fv[i] < mine[i])
			break;
		if (fv[i] > mine[i])
			return fail(why, whylen, name, "ticklab.version",
				    "made by ticklab %s, newer than this ticklab %s (accepted: files "
				    "from ticklab %s or older; a newer file may mean what this one "
				    "cannot read)",
				    tl_term_safe(ver, safe, sizeof safe), PACKAGE_VERSION,
				    PACKAGE_VERSION);
	}
	return 0;
}

bool tl_file_hostname_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 63 || !isalnum((unsigned char)s[0]))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("-_.", s[i]))
			return false;
	return true;
}

/* ------------------------------------------------------------------ */
/* A search file, key by key                                           */
/* ------------------------------------------------------------------ */

enum kind { K_NONE, K_TIME, K_COUNT, K_RATIO, K_TEXT };

/* The keys a search file holds, by what their values must be. */
static enum kind key_kind(const char *key)
{
	static const char *const times[] = {"ns", "floor_ns", "overhead", "resolution_ns",
					     "ns_per_add", "lo_ns", "hi_ns", "bound_ns", "seconds",
					     "flush_seconds", "budget_seconds", NULL};
	static const char *const counts[] = {
		"adds", "measurements", "evaluations", "lowest_cv_adds", "n_per_evaluation",
		"setup_measurements", "found", "ran", "n", "p", "q", "tmin_step", "tdiff_step",
		"max_adds", "repeats", "flush_bytes", NULL};
	/* >= 0, not necessarily whole: ADD intervals and predictions too */
	static const char *const ratios[] = {"cv", "lowest_cv", "alpha", "eps", "lo", "hi",
					     "bound_adds", "predicted_adds", NULL};
	static const char *const texts[] = {"backend", "flush", "note", "error", "reference",
					    "state", "method", "interval_method", "unstable_why",
					    "os_filter", NULL};
	static const char *const *const lists[] = {times, counts, ratios, texts};
	static const enum kind kinds[] = {K_TIME, K_COUNT, K_RATIO, K_TEXT};

	for (size_t l = 0; l < 4; l++)
		for (size_t i = 0; lists[l][i]; i++)
			if (strcmp(key, lists[l][i]) == 0)
				return kinds[l];
	return K_NONE;
}

static const char *type_name(const json_t *v)
{
	return json_is_string(v)    ? "a string"
	       : json_is_object(v)  ? "an object"
	       : json_is_array(v)   ? "an array"
	       : json_is_boolean(v) ? "a boolean"
				    : "a number";
}

struct walk {
	const char *name;
	char *why;
	size_t whylen;
};

static int check_value(const struct walk *w, const char *path, enum kind k, const json_t *v)
{
	double x;

	if (k == K_NONE || json_is_null(v))
		return 0;
	if (k == K_TEXT) {
		if (!json_is_string(v))
			return fail(w->why, w->whylen, w->name, path, "expected a string, got %s",
				    type_name(v));
		if (!tl_term_is_safe(json_string_value(v)))
			return fail(w->why, w->whylen, w->name, path,
				    "holds control characters or bytes that are not UTF-8 (ticklab "
				    "writes none)");
		return 0;
	}
	if (!json_is_number(v))
		return fail(w->why, w->whylen, w->name, path, "expected a number, got %s",
			    type_name(v));
	x = json_number_value(v);
	if (!isfinite(x) || x < 0)
		return fail(w->why, w->whylen, w->name, path, "is %g, expected a number >= 0", x);
	if (x > TL_RESULTS_MAX_ABS)
		return fail(w->why, w->whylen, w->name, path,
			    "is %g, beyond any physical value (at most %g)", x, TL_RESULTS_MAX_ABS);
	if (k == K_COUNT && x != floor(x))
		return fail(w->why, w->whylen, w->name, path, "is %g, expected a whole number", x);
	return 0;
}

/* [[x, y], ...]: x ADDs, y a CV or an overlap, finite. */
static int check_points(const struct walk *w, const char *path, const json_t *a)
{
	size_t i;
	const json_t *pt;

	json_array_foreach(a, i, pt) {
		const json_t *y = json_array_get(pt, 1);
		char at[192];

		snprintf(at, sizeof at, "%.160s[%zu]", path, i);
		if (check_value(w, at, K_COUNT, json_array_get(pt, 0)) < 0 ||
		    (y && !json_is_null(y) && check_value(w, at, K_RATIO, y) < 0))
			return -1;
	}
	return 0;
}

static int walk(const struct walk *w, const char *path, const json_t *v, int depth)
{
	char at[192];

	if (depth > 8)
		return 0;
	if (json_is_array(v)) {
		size_t i;
		const json_t *e;

		json_array_foreach(v, i, e) {
			snprintf(at, sizeof at, "%.160s[%zu]", path, i);
			if (walk(w, at, e, depth + 1) < 0)
				return -1;
		}
		return 0;
	}
	if (json_is_object(v)) {
		const char *key;
		json_t *e;
		const json_t *found = json_object_get(v, "found"), *ran = json_object_get(v, "ran");

		/* a count agrees with what it counts: the repeats that found a
		 * value are some of those that ran */
		if (json_is_integer(found) && json_is_integer(ran) &&
		    json_integer_value(found) > json_integer_value(ran)) {
			snprintf(at, sizeof at, "%.160s.found", path);
			return fail(w->why, w->whylen, w->name, at, "is %lld, more than ran = %lld",
				    (long long)json_integer_value(found),
				    (long long)json_integer_value(ran));
		}

		json_object_foreach((json_t *)v, key, e) {
			enum kind k = key_kind(key);

			snprintf(at, sizeof at, "%.120s%s%.60s", path, *path ? "." : "", key);
			if (strcmp(key, "points") == 0 && json_is_array(e)) {
				if (check_points(w, at, e) < 0)
					return -1;
				continue;
			}
			/* "repeats" is a count in params, a list in a result */
			if (json_is_array(e) || json_is_object(e)) {
				if (walk(w, at, e, depth + 1) < 0)
					return -1;
			} else if (check_value(w, at, k, e) < 0) {
				return -1;
			}
		}
	}
	return 0;
}

int tl_search_json_check(const json_t *doc, const char *name, char *why, size_t whylen)
{
	const struct walk w = {name, why, whylen};
	const json_t *results = json_object_get(doc, "results");
	size_t n = json_array_size(results);

	if (tl_file_marker_check(doc, name, "search", why, whylen) < 0 ||
	    walk(&w, "params", json_object_get(doc, "params"), 0) < 0 ||
	    walk(&w, "results", results, 0) < 0 ||
	    check_value(&w, "reference", K_TEXT, json_object_get(doc, "reference")) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const json_t *a = json_array_get(results, i);

		for (size_t j = 0; j < i; j++) {
			const json_t *b = json_array_get(results, j);

			if (json_equal(json_object_get(a, "backend"), json_object_get(b, "backend")) &&
			    json_equal(json_object_get(a, "flush_bytes"),
				       json_object_get(b, "flush_bytes"))) {
				char at[48];

				snprintf(at, sizeof at, "results[%zu]", i);
				return fail(why, whylen, name, at,
					    "the same backend and flush as results[%zu] (each cell "
					    "appears once)",
					    j);
			}
		}
	}
	return 0;
}
