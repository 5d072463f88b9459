#include "config.h"

#include "io/file_check.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/search_keys.h"
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

int tl_file_host_check(const json_t *doc, const char *name, char *why, size_t whylen)
{
	const json_t *host = json_object_get(doc, "host");
	const json_t *v = json_object_get(host, "tsc_ghz");
	double ghz = json_number_value(v);

	if (!host || json_is_null(host))
		return 0;
	if (!json_is_object(host))
		return fail(why, whylen, name, "host", "expected an object or null");
	if (v && !json_is_null(v) && !json_is_number(v))
		return fail(why, whylen, name, "host.tsc_ghz", "expected a number or null");
	if (json_is_number(v) && !(ghz >= TL_TSC_GHZ_MIN && ghz <= TL_TSC_GHZ_MAX))
		return fail(why, whylen, name, "host.tsc_ghz",
			    "is %g, outside the plausible %g to %g GHz (null when unknown)", ghz,
			    TL_TSC_GHZ_MIN, TL_TSC_GHZ_MAX);
	return 0;
}

/* ------------------------------------------------------------------ */
/* A search file, key by key                                           */
/* ------------------------------------------------------------------ */

int tl_search_json_check(const json_t *doc, const char *name, char *why, size_t whylen)
{
	const json_t *results = json_object_get(doc, "results");
	size_t n = json_array_size(results);

	if (tl_file_marker_check(doc, name, "search", why, whylen) < 0 ||
	    tl_keys_check(doc, &tl_search_doc_keys, "", name, why, whylen) < 0 ||
	    tl_file_host_check(doc, name, why, whylen) < 0)
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
