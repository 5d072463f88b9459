#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/theme.h"

#include "base/suggest.h"

static const char *const role_names[TUI_NROLES] = {
	"main_fg",     "main_bg", "title",    "hi_fg",     "selected_fg", "selected_bg",
	"inactive_fg", "div_line", "status_fg", "status_bg", "ok",         "warn",
	"error",       "series1", "series2",  "series3",   "series4",     "series5",
	"series6",     "series7", "series8",
};

const char *tui_role_name(enum tui_role r)
{
	return (unsigned)r < TUI_NROLES ? role_names[r] : "?";
}

void tui_theme_builtin(struct tui_theme *t)
{
	/* Series: the Okabe-Ito palette, distinguishable with the common colour
	 * vision deficiencies; grey instead of its black and a lighter blue, so each
	 * reads on the black background the theme paints. */
	static const int dark[TUI_NROLES] = {
		0xd0d0d0,        0x000000,        0x56b4e9, 0xffffff, 0x000000, 0x56b4e9,
		0x808080,        0x5f5f5f,        0x000000, 0xb0b0b0, 0x009e73, 0xf0e442,
		0xd55e00,        0xe69f00,        0x56b4e9, 0x009e73, 0xf0e442, 0x0087ff,
		0xd55e00,        0xcc79a7,        0xb0b0b0,
	};
	memset(t, 0, sizeof *t);
	snprintf(t->name, sizeof t->name, "default");
	memcpy(t->rgb, dark, sizeof dark);
}

static pcre2_code *compile_once(pcre2_code **slot, const char *pattern)
{
	if (!*slot) {
		int err;
		PCRE2_SIZE off;
		*slot = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &err, &off,
				      NULL);
	}
	return *slot;
}

static pcre2_code *re_line, *re_blank, *re_colour;

static int parse_colour(const char *text, int *rgb)
{
	pcre2_code *re = compile_once(&re_colour, "^(?:#([0-9A-Fa-f]{6})|)$");
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int rc = pcre2_match(re, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);
	if (rc < 0) {
		pcre2_match_data_free(md);
		return -1;
	}
	*rgb = rc >= 2 ? (int)strtol(text + 1, NULL, 16) : TUI_RGB_DEFAULT;
	pcre2_match_data_free(md);
	return 0;
}

static int find_role(const char *name)
{
	for (int i = 0; i < TUI_NROLES; i++)
		if (strcmp(role_names[i], name) == 0)
			return i;
	return -1;
}

/* One line: 0 applied or blank, -1 with why (without the file:line prefix). */
static int parse_line(const char *line, struct tui_theme *t, char *why, size_t whylen)
{
	pcre2_code *blank = compile_once(&re_blank, "^\\s*(?:#.*)?$");
	pcre2_code *re = compile_once(&re_line,
				      "^\\s*theme\\[([^\\]]*)\\]\\s*=\\s*\"([^\"]*)\"\\s*(?:#.*)?$");
	if (!blank || !re) {
		snprintf(why, whylen, "internal error: theme patterns do not compile");
		return -1;
	}
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	int rc = pcre2_match(blank, (PCRE2_SPTR)line, strlen(line), 0, 0, md, NULL);
	if (rc >= 0) {
		pcre2_match_data_free(md);
		return 0;
	}
	rc = pcre2_match(re, (PCRE2_SPTR)line, strlen(line), 0, 0, md, NULL);
	if (rc < 0) {
		pcre2_match_data_free(md);
		snprintf(why, whylen, "expected theme[role]=\"#RRGGBB\", got '%.60s'", line);
		return -1;
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	char role[64], value[64];
	snprintf(role, sizeof role, "%.*s", (int)(ov[3] - ov[2]), line + ov[2]);
	snprintf(value, sizeof value, "%.*s", (int)(ov[5] - ov[4]), line + ov[4]);
	pcre2_match_data_free(md);

	int r = find_role(role);
	if (r < 0) {
		snprintf(why, whylen,
			 "unknown role '%s' (known: main_fg main_bg title hi_fg selected_fg "
			 "selected_bg inactive_fg div_line status_fg status_bg ok warn error "
			 "series1..series8)",
			 role);
		return -1;
	}
	if (parse_colour(value, &t->rgb[r]) < 0) {
		snprintf(why, whylen, "bad colour \"%s\" for %s (want \"#RRGGBB\" or \"\")", value,
			 role);
		return -1;
	}
	return 0;
}

/* A theme is a few dozen short lines: anything bigger is not one. */
#define THEME_MAX_BYTES (64 * 1024)
#define THEME_MAX_LINE 1023

/* Reads lines from f over the built-in theme; label names f in messages.
 * Lines are read whole, so a long one is named with its own number. */
static int load_stream(FILE *f, const char *label, struct tui_theme *t, char *why, size_t whylen)
{
	char *line = NULL, msg[400];
	size_t cap = 0;
	ssize_t got;
	unsigned lineno = 0;
	int rc = 0;

	while ((got = getline(&line, &cap, f)) > 0) {
		size_t len = (size_t)got;

		lineno++;
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > THEME_MAX_LINE) {
			snprintf(why, whylen, "%s:%u: line of %zu bytes, more than %d", label, lineno, len,
				 THEME_MAX_LINE);
			rc = -1;
			break;
		}
		if (memchr(line, '\0', len)) {
			snprintf(why, whylen, "%s:%u: a NUL byte (a theme is a text file)", label, lineno);
			rc = -1;
			break;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (parse_line(line, t, msg, sizeof msg) < 0) {
			snprintf(why, whylen, "%s:%u: %s", label, lineno, msg);
			rc = -1;
			break;
		}
	}
	free(line);
	if (rc < 0)
		tui_theme_builtin(t);
	return rc;
}

/* Opens path for reading only when it is a regular file of at most
 * THEME_MAX_BYTES: /dev/zero, a FIFO (whose open would block) or a
 * directory are refused with why. */
static FILE *open_theme(const char *path, char *why, size_t whylen)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	FILE *f;

	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size > THEME_MAX_BYTES) {
		if (!S_ISREG(st.st_mode))
			snprintf(why, whylen, "%s: not a regular file (a theme is a text file)", path);
		else
			snprintf(why, whylen, "%s: %lld bytes, more than a theme's %d", path,
				 (long long)st.st_size, THEME_MAX_BYTES);
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int tui_theme_load(const char *path, struct tui_theme *t, char *why, size_t whylen)
{
	tui_theme_builtin(t);
	FILE *f = open_theme(path, why, whylen);
	if (!f)
		return -1;
	int rc = load_stream(f, path, t, why, whylen);
	fclose(f);
	if (rc < 0)
		return -1;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	snprintf(t->name, sizeof t->name, "%.*s", (int)strcspn(base, "."), base);
	snprintf(t->path, sizeof t->path, "%s", path);
	return 0;
}

static const struct tui_theme_text *builtin_named(const char *name)
{
	for (size_t i = 0; i < tui_theme_nbuiltins; i++)
		if (strcmp(tui_theme_builtins[i].name, name) == 0)
			return &tui_theme_builtins[i];
	return NULL;
}

static int load_builtin(const struct tui_theme_text *b, struct tui_theme *t, char *why,
			size_t whylen)
{
	char label[96];
	FILE *f = fmemopen((void *)b->text, strlen(b->text), "r");

	tui_theme_builtin(t);
	if (!f) {
		snprintf(why, whylen, "built-in theme %s: %s", b->name, strerror(errno));
		return -1;
	}
	snprintf(label, sizeof label, "built-in %s.theme", b->name);
	int rc = load_stream(f, label, t, why, whylen);
	fclose(f);
	if (rc == 0)
		snprintf(t->name, sizeof t->name, "%s", b->name);
	return rc;
}

int tui_theme_load_named(const char *dir, const char *name, struct tui_theme *t, char *why,
			 size_t whylen)
{
	char path[1024], dirs[3][512], known[512] = "";
	int found = tui_theme_find(dir, name, path, sizeof path);

	if (found == 0)
		return tui_theme_load(path, t, why, whylen);
	if (found == 1)
		return load_builtin(builtin_named(name), t, why, whylen);
	tui_theme_builtin(t);
	for (size_t i = 0; i < tui_theme_nbuiltins; i++)
		snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
			 tui_theme_builtins[i].name);
	size_t nd = tui_theme_dirs(dir, dirs, 3);
	snprintf(why, whylen, "theme '%s' not found: no %s.theme in %s%s%s%s%s and none built in "
			      "(built in: %s)",
		 name, name, dirs[0], nd > 1 ? ", " : "", nd > 1 ? dirs[1] : "", nd > 2 ? ", " : "",
		 nd > 2 ? dirs[2] : "", known);
	tl_suggest_append(why, whylen, name, known);
	return -1;
}

size_t tui_theme_dirs(const char *dir, char out[][512], size_t max)
{
	size_t n = 0;
	if (dir && *dir && n < max)
		snprintf(out[n++], 512, "%s", dir);
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg && n < max)
		snprintf(out[n++], 512, "%s/ticklab/themes", xdg);
	else if (home && *home && n < max)
		snprintf(out[n++], 512, "%s/.config/ticklab/themes", home);
	if (n < max)
		snprintf(out[n++], 512, "%s/themes", TL_DATADIR);
	return n;
}

int tui_theme_find(const char *dir, const char *name, char *path, size_t len)
{
	char dirs[3][512];
	size_t nd = tui_theme_dirs(dir, dirs, 3);
	for (size_t i = 0; i < nd; i++) {
		snprintf(path, len, "%s/%s.theme", dirs[i], name);
		/* stat, not fopen: opening a FIFO would block; the loader says
		 * what is wrong with what it finds */
		struct stat st;
		if (stat(path, &st) == 0)
			return 0;
	}
	if (builtin_named(name)) {
		snprintf(path, len, "built-in");
		return 1;
	}
	return -1;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

size_t tui_theme_list(const char *dir, char names[][64], size_t max)
{
	char dirs[3][512];
	size_t nd = tui_theme_dirs(dir, dirs, 3), n = 0;
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;
		if (!d)
			continue;
		while ((e = readdir(d)) && n < max) {
			size_t l = strlen(e->d_name);
			if (l <= 6 || l - 6 >= 64 || strcmp(e->d_name + l - 6, ".theme") != 0)
				continue;
			char name[64];
			snprintf(name, sizeof name, "%.*s", (int)(l - 6), e->d_name);
			size_t j;
			for (j = 0; j < n && strcmp(names[j], name) != 0; j++)
				;
			if (j == n)
				memcpy(names[n++], name, sizeof name);
		}
		closedir(d);
	}
	for (size_t i = 0; i < tui_theme_nbuiltins && n < max; i++) {
		size_t j;
		for (j = 0; j < n && strcmp(names[j], tui_theme_builtins[i].name) != 0; j++)
			;
		if (j == n)
			snprintf(names[n++], 64, "%s", tui_theme_builtins[i].name);
	}
	qsort(names, n, 64, name_cmp);
	for (size_t j = 0; j < n; j++)
		if (strcmp(names[j], "default") == 0 && j > 0) {
			char tmp[64];
			memcpy(tmp, names[j], 64);
			memmove(names[1], names[0], j * 64);
			memcpy(names[0], tmp, 64);
		}
	return n;
}

/* The xterm 6x6x6 cube levels and the index of the nearest level. */
static const int cube[6] = {0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff};

static int to_cube(int v)
{
	if (v < 48)
		return 0;
	if (v < 114)
		return 1;
	return (v - 35) / 40;
}

static int dist2(int r1, int g1, int b1, int r2, int g2, int b2)
{
	return (r1 - r2) * (r1 - r2) + (g1 - g2) * (g1 - g2) + (b1 - b2) * (b1 - b2);
}

int tui_colour_256(int rgb)
{
	if (rgb < 0)
		return -1;
	int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
	int qr = to_cube(r), qg = to_cube(g), qb = to_cube(b);
	int cr = cube[qr], cg = cube[qg], cb = cube[qb];
	if (cr == r && cg == g && cb == b)
		return 16 + 36 * qr + 6 * qg + qb;
	int avg = (r + g + b) / 3, gi = avg > 238 ? 23 : (avg - 3) / 10;
	if (gi < 0)
		gi = 0;
	int grey = 8 + 10 * gi;
	if (dist2(grey, grey, grey, r, g, b) < dist2(cr, cg, cb, r, g, b))
		return 232 + gi;
	return 16 + 36 * qr + 6 * qg + qb;
}

int tui_colour_8(int rgb)
{
	/* xterm's defaults for the eight ANSI colours. */
	static const int ansi[8][3] = {{0, 0, 0},     {205, 0, 0},   {0, 205, 0},
				       {205, 205, 0}, {0, 0, 238},   {205, 0, 205},
				       {0, 205, 205}, {229, 229, 229}};
	if (rgb < 0)
		return -1;
	int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff, best = 0;
	for (int i = 1; i < 8; i++)
		if (dist2(ansi[i][0], ansi[i][1], ansi[i][2], r, g, b) <
		    dist2(ansi[best][0], ansi[best][1], ansi[best][2], r, g, b))
			best = i;
	return best;
}
