#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/json_build.h"
#include "io/results.h"
#include "io/setup_memory.h"

#define FORMAT 1
#define N_MAX 100000000ULL

int tl_setup_memory_path(char *buf, size_t len, char *why, size_t whylen)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;
	if (xdg && *xdg == '/')
		n = snprintf(buf, len, "%s/ticklab/setup.json", xdg);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.config/ticklab/setup.json", home);
	else {
		snprintf(why, whylen, "neither XDG_CONFIG_HOME nor HOME is set");
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		snprintf(why, whylen, "the configuration path is too long");
		return -1;
	}
	return 0;
}

/* Printable text without control bytes: labels go back into list rows and
 * parsers, so a hand-edited file cannot smuggle escapes onto the screen. */
static bool clean_text(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (!n || n >= max)
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 32 || *p == 127)
			return false;
	return true;
}

static int read_list(const json_t *doc, const char *key, char (*out)[TL_MEMORY_TEXT], size_t *n,
		     char *why, size_t whylen)
{
	const json_t *a = json_object_get(doc, key);
	size_t i;
	json_t *v;
	*n = 0;
	if (!json_is_array(a)) {
		snprintf(why, whylen, "\"%s\" must be a list of labels", key);
		return -1;
	}
	if (json_array_size(a) > TL_MEMORY_ITEMS) {
		snprintf(why, whylen, "\"%s\" has %zu labels; at most %d are kept", key,
			 json_array_size(a), TL_MEMORY_ITEMS);
		return -1;
	}
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		if (!s || !clean_text(s, TL_MEMORY_TEXT)) {
			snprintf(why, whylen, "\"%s\"[%zu] must be a label of 1 to %d printable characters",
				 key, i, TL_MEMORY_TEXT - 1);
			return -1;
		}
		snprintf(out[(*n)++], TL_MEMORY_TEXT, "%s", s);
	}
	return 0;
}

static int from_json(const json_t *doc, struct tl_setup_memory *m, char *why, size_t whylen)
{
	const json_t *fmt = json_object_get(doc, "ticklab_setup");
	if (!json_is_object(doc) || !json_is_integer(fmt) || json_integer_value(fmt) != FORMAT) {
		snprintf(why, whylen, "not a ticklab setup (\"ticklab_setup\": %d missing)", FORMAT);
		return -1;
	}
	if (read_list(doc, "backends", m->backends, &m->nbackends, why, whylen) < 0 ||
	    read_list(doc, "flushes", m->flushes, &m->nflushes, why, whylen) < 0 ||
	    read_list(doc, "kernels", m->kernels, &m->nkernels, why, whylen) < 0)
		return -1;
	const json_t *n = json_object_get(doc, "n");
	if (!json_is_integer(n) || json_integer_value(n) < 2 ||
	    (unsigned long long)json_integer_value(n) > N_MAX) {
		snprintf(why, whylen, "\"n\" must be a whole number from 2 to %llu", N_MAX);
		return -1;
	}
	m->n = (size_t)json_integer_value(n);
	const char *theme = json_string_value(json_object_get(doc, "theme"));
	if (!theme || !clean_text(theme, sizeof m->theme) || strchr(theme, '/')) {
		snprintf(why, whylen, "\"theme\" must be a theme name (no '/')");
		return -1;
	}
	snprintf(m->theme, sizeof m->theme, "%s", theme);
	return 0;
}

int tl_setup_memory_load(const char *path, struct tl_setup_memory *m, char *why, size_t whylen)
{
	char what[512];
	memset(m, 0, sizeof *m);
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 1;
	json_t *doc = tl_json_load(path, what, sizeof what);
	if (!doc) {
		snprintf(why, whylen, "%s", what);
		return -1;
	}
	int rc = from_json(doc, m, what, sizeof what);
	json_decref(doc);
	if (rc < 0) {
		memset(m, 0, sizeof *m);
		snprintf(why, whylen, "%s: %s", path, what);
	}
	return rc;
}

static json_t *list_json(const char (*items)[TL_MEMORY_TEXT], size_t n)
{
	json_t *a = tl_json_array();
	for (size_t i = 0; i < n; i++)
		tl_json_append(a, json_string(items[i]));
	return a;
}

/* mkdir -p of path's directory (the part before the last '/'). */
static int make_parent(const char *path, char *why, size_t whylen)
{
	char dir[1024];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1;; p++) {
		bool end = *p == '\0';
		if (*p == '/' || end) {
			*p = '\0';
			if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
				snprintf(why, whylen, "cannot create %s: %s", dir, strerror(errno));
				return -1;
			}
			if (end)
				return 0;
			*p = '/';
		}
	}
}

int tl_setup_memory_save(const char *path, const struct tl_setup_memory *m, char *why,
			 size_t whylen)
{
	json_t *doc = tl_json_object();
	tl_json_set(doc, "ticklab_setup", json_integer(FORMAT));
	tl_json_set(doc, "backends", list_json(m->backends, m->nbackends));
	tl_json_set(doc, "flushes", list_json(m->flushes, m->nflushes));
	tl_json_set(doc, "kernels", list_json(m->kernels, m->nkernels));
	tl_json_set(doc, "n", json_integer((json_int_t)m->n));
	tl_json_set(doc, "theme", json_string(m->theme));
	int rc = make_parent(path, why, whylen);
	if (rc == 0)
		rc = tl_json_write(path, doc, why, whylen);
	json_decref(doc);
	return rc;
}

int tl_setup_memory_forget(const char *path, char *why, size_t whylen)
{
	if (unlink(path) < 0 && errno != ENOENT) {
		snprintf(why, whylen, "cannot remove %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
