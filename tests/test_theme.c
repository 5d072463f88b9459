/* Themes: every shipped file parses, bad files are named with file:line and
 * the problem, missing roles fall back, and colours reduce like tmux's
 * colour_find_rgb (reference values worked out by hand from its algorithm:
 * cube levels 00 5f 87 af d7 ff, grey ramp 8 + 10k). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/tap.h"
#include "tui/theme.h"

static const char *srcdir(void)
{
	const char *s = getenv("TL_TOP_SRCDIR");
	return s ? s : ".";
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_shipped(void)
{
	static const char *const names[] = {"default", "light", "high-contrast", "mono"};
	char path[1024], why[512];
	for (size_t i = 0; i < 4; i++) {
		struct tui_theme t;
		snprintf(path, sizeof path, "%s/themes/%s.theme", srcdir(), names[i]);
		int rc = tui_theme_load(path, &t, why, sizeof why);
		ok(rc == 0 && strcmp(t.name, names[i]) == 0, "themes/%s.theme loads (%s)", names[i],
		   rc ? why : "ok");
	}
	struct tui_theme def, file;
	tui_theme_builtin(&def);
	snprintf(path, sizeof path, "%s/themes/default.theme", srcdir());
	tui_theme_load(path, &file, why, sizeof why);
	ok(memcmp(def.rgb, file.rgb, sizeof def.rgb) == 0,
	   "default.theme is the built-in theme written out");
	snprintf(path, sizeof path, "%s/themes/mono.theme", srcdir());
	tui_theme_load(path, &file, why, sizeof why);
	int all_default = 1;
	for (int r = 0; r < TUI_NROLES; r++)
		all_default &= file.rgb[r] == TUI_RGB_DEFAULT;
	ok(all_default, "mono.theme uses only the terminal's colours");

	char dirs[3][512];
	snprintf(path, sizeof path, "%s/themes", srcdir());
	size_t nd = tui_theme_dirs(path, dirs, 3);
	ok(nd == 3 && strcmp(dirs[0], path) == 0 && strstr(dirs[2], "/themes"),
	   "search order: --themes-dir, XDG, data dir");
	char list[16][64];
	size_t n = tui_theme_list(path, list, 16);
	ok(n >= 4 && strcmp(list[0], "default") == 0, "theme list starts with default (%zu themes)",
	   n);
	char found[1024];
	ok(tui_theme_find(path, "light", found, sizeof found) == 0 && strstr(found, "light.theme"),
	   "light is found in --themes-dir");
	ok(tui_theme_find(path, "no-such-theme", found, sizeof found) < 0,
	   "a missing theme is not found");
}

static void test_bad(void)
{
	char dir[] = "/tmp/tl_theme_XXXXXX", path[256], why[512];
	struct tui_theme t, def;
	tui_theme_builtin(&def);
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/bad.theme", dir);

	write_file(path, "# fine\ntheme[main_fg]=\"#ffffff\"\ntheme[main_fg]=\"#12345\"\n");
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "bad.theme:3:") &&
		   strstr(why, "#12345") && strstr(why, "#RRGGBB"),
	   "a short colour is refused with file:line: %s", why);
	ok(memcmp(t.rgb, def.rgb, sizeof def.rgb) == 0, "and the default theme is used");

	write_file(path, "theme[mian_fg]=\"#ffffff\"\n");
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "bad.theme:1:") &&
		   strstr(why, "unknown role 'mian_fg'"),
	   "an unknown role is named: %s", why);

	write_file(path, "\n\ncolour = red\n");
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "bad.theme:3:") &&
		   strstr(why, "expected theme[role]"),
	   "a line of another shape is named: %s", why);

	write_file(path, "theme[title]=\"#010203\"  # comment\n");
	ok(tui_theme_load(path, &t, why, sizeof why) == 0 && t.rgb[TUI_ROLE_TITLE] == 0x010203 &&
		   t.rgb[TUI_ROLE_SERIES] == def.rgb[TUI_ROLE_SERIES],
	   "a partial theme keeps the built-in colours for missing roles");

	ok(tui_theme_load("/nonexistent/x.theme", &t, why, sizeof why) < 0 &&
		   strstr(why, "/nonexistent/x.theme"),
	   "a missing file is named: %s", why);
	unlink(path);
	rmdir(dir);
}

/* The shipped themes are compiled in: with no theme file anywhere along the
 * search path (an empty XDG_CONFIG_HOME, a missing --themes-dir, nothing
 * installed) each still loads, with the colours of its file in themes/. */
static void test_builtin(void)
{
	static const char *const names[] = {"default", "light", "high-contrast", "mono"};
	char path[1024], why[512], empty[] = "/tmp/tl_theme_xdg.XXXXXX";

	if (!mkdtemp(empty)) {
		ok(0, "mkdtemp");
		return;
	}
	setenv("XDG_CONFIG_HOME", empty, 1);
	for (size_t i = 0; i < 4; i++) {
		struct tui_theme built, file;
		int rc = tui_theme_load_named("/nonexistent", names[i], &built, why, sizeof why);

		snprintf(path, sizeof path, "%s/themes/%s.theme", srcdir(), names[i]);
		tui_theme_load(path, &file, why + 256, sizeof why - 256);
		ok(rc == 0 && strcmp(built.name, names[i]) == 0 &&
			   memcmp(built.rgb, file.rgb, sizeof file.rgb) == 0,
		   "%s is built in, with its file's colours (%s)", names[i], rc ? why : "ok");
	}
	char list[16][64];
	size_t n = tui_theme_list("/nonexistent", list, 16);
	ok(n == 4 && strcmp(list[0], "default") == 0,
	   "the list has the 4 built-in themes, default first (%zu)", n);
	ok(tui_theme_find("/nonexistent", "light", path, sizeof path) == 1,
	   "find says light is only built in here");
	struct tui_theme t;
	ok(tui_theme_load_named("/nonexistent", "nope", &t, why, sizeof why) < 0 &&
		   strstr(why, "'nope' not found") && strstr(why, "light"),
	   "an unknown theme names the built-in ones: %s", why);
	rmdir(empty);
}

static void test_colours(void)
{
	is_int(tui_colour_256(0x000000), 16, "black -> 16");
	is_int(tui_colour_256(0xffffff), 231, "white -> 231 (cube corner)");
	is_int(tui_colour_256(0xff0000), 196, "red -> 196");
	is_int(tui_colour_256(0x5f87af), 67, "an exact cube colour -> 67");
	is_int(tui_colour_256(0x808080), 244, "grey 128 -> ramp 244");
	is_int(tui_colour_256(0xe69f00), 178, "Okabe-Ito orange -> 178 (230 rounds to cube level d7)");
	is_int(tui_colour_256(0x0072b2), 25, "Okabe-Ito blue -> 25");
	is_int(tui_colour_256(TUI_RGB_DEFAULT), -1, "default stays default");
	is_int(tui_colour_8(0x000000), 0, "black -> 0");
	is_int(tui_colour_8(0xd55e00), 1, "vermillion -> red");
	is_int(tui_colour_8(0x56b4e9), 6, "sky blue -> cyan");
	is_int(tui_colour_8(0xffffff), 7, "white -> 7");
	is_int(tui_colour_8(TUI_RGB_DEFAULT), -1, "default stays default (8)");
}

/* A symlink to /dev/zero once made the loader spin forever
 * (every 1023-byte read of NULs looked blank), a FIFO blocked its open,
 * and a line over 1023 bytes was split, so the error named the wrong
 * line. Now: non-regular files and big ones are refused, long lines and
 * NUL bytes are named with their own line number. */
static void test_hostile(void)
{
	char dir[] = "/tmp/tl_theme_XXXXXX", path[256], zero[256], fifo[256], why[512];
	struct tui_theme t;
	char *big;
	FILE *f;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/h.theme", dir);
	snprintf(zero, sizeof zero, "%s/z.theme", dir);
	snprintf(fifo, sizeof fifo, "%s/f.theme", dir);

	ok(symlink("/dev/zero", zero) == 0 && tui_theme_load(zero, &t, why, sizeof why) < 0 &&
		   strstr(why, "not a regular file"),
	   "a symlink to /dev/zero is refused at once: %s", why);
	ok(mkfifo(fifo, 0600) == 0 && tui_theme_load(fifo, &t, why, sizeof why) < 0 &&
		   strstr(why, "not a regular file"),
	   "a FIFO is refused without blocking: %s", why);
	ok(tui_theme_find(dir, "f", path, sizeof path) == 0, "finding a FIFO theme does not block");
	ok(tui_theme_load(dir, &t, why, sizeof why) < 0 && strstr(why, "not a regular file"),
	   "a directory is refused: %s", why);

	snprintf(path, sizeof path, "%s/h.theme", dir);
	big = malloc(2000);
	memset(big, 'x', 1999);
	big[1999] = '\0';
	f = fopen(path, "w");
	fprintf(f, "# one\n# two\n# %s\ntheme[title]=\"#12345\"\n", big);
	fclose(f);
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "h.theme:3:") &&
		   strstr(why, "more than 1023"),
	   "a 2001-byte line is named as line 3: %s", why);
	f = fopen(path, "w");
	fputs("# fine\n", f);
	fputc('\0', f);
	fputs("theme[title]=\"#010203\"\n", f);
	fclose(f);
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "h.theme:2:") &&
		   strstr(why, "NUL"),
	   "a NUL byte is named with its line: %s", why);
	f = fopen(path, "w");
	for (int i = 0; i < 100; i++)
		fprintf(f, "# %s\n", big);
	fclose(f);
	ok(tui_theme_load(path, &t, why, sizeof why) < 0 && strstr(why, "more than a theme's"),
	   "a 200 KB file is refused: %s", why);
	free(big);
	unlink(path);
	unlink(zero);
	unlink(fifo);
	rmdir(dir);
}

int main(void)
{
	test_shipped();
	test_bad();
	test_builtin();
	test_hostile();
	test_colours();
	return tap_done();
}
