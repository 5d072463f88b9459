#include "config.h"

#include "io/keys.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/xalloc.h"
#include "io/json_build.h"
#include "io/run_json.h"
#include "io/run_load.h"
#include "io/term_safe.h"

const struct tl_key *tl_keys_find(const struct tl_keys *k, const char *key)
{
	for (; k; k = k->also)
		for (size_t i = 0; i < k->n; i++)
			if (strcmp(k->key[i].name, key) == 0)
				return &k->key[i];
	return NULL;
}

static const struct tl_key *described(const struct tl_keys *k, const char *key)
{
	const struct tl_key *d = tl_keys_find(k, key);

	if (!d)
		tl_fail("internal error: \"%s\" is not among the keys of %s", key, k->what);
	return d;
}

const json_t *tl_keys_get(const json_t *o, const struct tl_keys *k, const char *key,
			  unsigned kinds)
{
	if (!(TL_KEYS_AS(described(k, key)->type) & kinds))
		tl_fail("internal error: %s's \"%s\" read as another kind than its description",
			k->what, key);
	return json_object_get(o, key);
}

void tl_keys_num(json_t *o, const struct tl_keys *k, const char *key, double v)
{
	const struct tl_key *d = described(k, key);

	if (d->type == TL_KEY_COUNT)
		tl_json_set(o, key,
			    isfinite(v) ? json_integer((json_int_t)llround(v)) : json_null());
	else
		tl_keys_set(o, k, key, tl_json_real(v));
}

static bool fits(enum tl_key_type t, const json_t *v)
{
	switch (t) {
	case TL_KEY_COUNT:
		return json_is_integer(v);
	case TL_KEY_TIME:
	case TL_KEY_REAL:
	case TL_KEY_SIGNED:
		return json_is_number(v);
	case TL_KEY_TEXT:
		return json_is_string(v);
	case TL_KEY_BOOL:
		return json_is_boolean(v);
	case TL_KEY_OBJECT:
		return json_is_object(v);
	case TL_KEY_LIST:
	case TL_KEY_POINTS:
		return json_is_array(v);
	case TL_KEY_OWN:
		return true;
	}
	return false;
}

void tl_keys_set(json_t *o, const struct tl_keys *k, const char *key, json_t *value)
{
	const struct tl_key *d = described(k, key);

	if (value && !json_is_null(value) && !fits(d->type, value))
		tl_fail("internal error: %s's \"%s\" written as another kind than its description",
			k->what, key);
	tl_json_set(o, key, value);
}

/* ------------------------------------------------------------------ */
/* Checking a file                                                      */
/* ------------------------------------------------------------------ */

struct walk {
	const char *name;
	char *why;
	size_t whylen;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(const struct walk *w, const char *where, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(w->why, w->whylen, "%s: %s: %s", w->name, where, msg);
	return -1;
}

static const char *type_name(const json_t *v)
{
	return json_is_string(v)    ? "a string"
	       : json_is_object(v)  ? "an object"
	       : json_is_array(v)   ? "an array"
	       : json_is_boolean(v) ? "a boolean"
				    : "a number";
}

static int check_number(const struct walk *w, const char *path, enum tl_key_type t,
			const json_t *v)
{
	double x;

	if (!json_is_number(v))
		return fail(w, path, "expected a number, got %s", type_name(v));
	x = json_number_value(v);
	if (!isfinite(x) || (t != TL_KEY_SIGNED && x < 0))
		return fail(w, path, "is %g, expected a number >= 0", x);
	if (fabs(x) > TL_RESULTS_MAX_ABS)
		return fail(w, path, "is %g, beyond any physical value (at most %g)", x,
			    TL_RESULTS_MAX_ABS);
	if (t == TL_KEY_COUNT && x != floor(x))
		return fail(w, path, "is %g, expected a whole number", x);
	return 0;
}

static int check(const struct walk *w, const json_t *o, const struct tl_keys *k, const char *path);

/* [[x, y], ...]: x ADDs, y a CV or an overlap. */
static int check_points(const struct walk *w, const char *path, const json_t *a)
{
	size_t i;
	const json_t *pt;

	json_array_foreach(a, i, pt) {
		const json_t *y = json_array_get(pt, 1);
		char at[224];

		snprintf(at, sizeof at, "%.200s[%zu]", path, i);
		if (!json_is_array(pt) || json_array_size(pt) != 2)
			return fail(w, at, "expected an [x, y] pair");
		if (check_number(w, at, TL_KEY_COUNT, json_array_get(pt, 0)) < 0 ||
		    (!json_is_null(y) && check_number(w, at, TL_KEY_REAL, y) < 0))
			return -1;
	}
	return 0;
}

static int check_value(const struct walk *w, const char *path, const struct tl_key *d,
		       const json_t *v)
{
	size_t i;
	const json_t *e;

	if (json_is_null(v) || d->type == TL_KEY_OWN)
		return 0;
	switch (d->type) {
	case TL_KEY_TEXT:
		if (!json_is_string(v))
			return fail(w, path, "expected a string, got %s", type_name(v));
		if (!tl_term_is_safe(json_string_value(v)))
			return fail(w, path,
				    "holds control characters or bytes that are not UTF-8 (ticklab "
				    "writes none)");
		return 0;
	case TL_KEY_BOOL:
		return json_is_boolean(v) ? 0
					  : fail(w, path, "expected true or false, got %s",
						 type_name(v));
	case TL_KEY_OBJECT:
		if (!json_is_object(v))
			return fail(w, path, "expected an object, got %s", type_name(v));
		return check(w, v, d->sub, path);
	case TL_KEY_LIST:
	case TL_KEY_POINTS:
		if (!json_is_array(v))
			return fail(w, path, "expected a list, got %s", type_name(v));
		if (d->type == TL_KEY_POINTS)
			return check_points(w, path, v);
		json_array_foreach(v, i, e) {
			char at[224];

			snprintf(at, sizeof at, "%.200s[%zu]", path, i);
			if (json_is_null(e))
				continue;
			if (!json_is_object(e))
				return fail(w, at, "expected an object or null, got %s",
					    type_name(e));
			if (check(w, e, d->sub, at) < 0)
				return -1;
		}
		return 0;
	default:
		return check_number(w, path, d->type, v);
	}
}

static int check(const struct walk *w, const json_t *o, const struct tl_keys *k, const char *path)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		const struct tl_key *d = tl_keys_find(k, key);
		char at[224];

		if (!d)
			continue;
		snprintf(at, sizeof at, "%.140s%s%.60s", path, *path ? "." : "", key);
		if (check_value(w, at, d, v) < 0)
			return -1;
	}
	if (k->rule) {
		const char *bad = "";
		char msg[200], at[224];

		if (k->rule(o, &bad, msg, sizeof msg) < 0) {
			snprintf(at, sizeof at, "%.140s%s%.60s", path, *path ? "." : "", bad);
			return fail(w, at, "%s", msg);
		}
	}
	return 0;
}

int tl_keys_check(const json_t *o, const struct tl_keys *k, const char *path, const char *name,
		  char *why, size_t whylen)
{
	const struct walk w = {name, why, whylen};

	return check(&w, o, k, path);
}

double tl_keys_read_num(const json_t *o, const struct tl_keys *k, const char *key)
{
	const json_t *v = tl_keys_get(o, k, key, TL_KEYS_NUMBER);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

uint64_t tl_keys_read_whole(const json_t *o, const struct tl_keys *k, const char *key,
			    uint64_t dflt)
{
	const json_t *j = tl_keys_get(o, k, key, TL_KEYS_AS(TL_KEY_COUNT));
	double v = json_is_number(j) ? json_number_value(j) : NAN;

	return v >= 0 ? (uint64_t)v : dflt;
}

const char *tl_keys_read_text(const json_t *o, const struct tl_keys *k, const char *key)
{
	const char *s = json_string_value(tl_keys_get(o, k, key, TL_KEYS_AS(TL_KEY_TEXT)));

	return s ? s : "";
}
