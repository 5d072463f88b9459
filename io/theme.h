/* Themes: colour roles read from btop-style text files
 * (theme[role]="#RRGGBB"), parsed with PCRE2. The TUI reduces them to what
 * the terminal can show; `ticklab plot` draws figures with them. Nothing
 * here touches curses. The shipped themes are also compiled in
 * (io/theme_builtin.c, generated from the files in themes/), so they work from a
 * build tree; a file of the same name along the search path wins. */
#ifndef TL_IO_THEME_H
#define TL_IO_THEME_H

#include <stddef.h>

enum tui_role {
	TUI_ROLE_MAIN_FG,
	TUI_ROLE_MAIN_BG,
	TUI_ROLE_TITLE,
	TUI_ROLE_HI,
	TUI_ROLE_SELECTED_FG,
	TUI_ROLE_SELECTED_BG,
	TUI_ROLE_INACTIVE,
	TUI_ROLE_DIV,
	TUI_ROLE_STATUS_FG,
	TUI_ROLE_STATUS_BG,
	TUI_ROLE_OK,
	TUI_ROLE_WARN,
	TUI_ROLE_ERROR,
	TUI_ROLE_SERIES, /* TUI_NSERIES roles follow: series1..series8 */
	TUI_NROLES = TUI_ROLE_SERIES + 8,
};
#define TUI_NSERIES 8

#define TUI_RGB_DEFAULT (-1) /* the terminal's own colour (use_default_colors) */

struct tui_theme {
	char name[64];
	char path[512];      /* file it came from; "" for the built-in one */
	int rgb[TUI_NROLES]; /* 0xRRGGBB or TUI_RGB_DEFAULT */
};

/* A role's name as theme files spell it ("main_fg"). */
const char *tui_role_name(enum tui_role r);

/* The built-in dark theme: what every missing role falls back to. */
void tui_theme_builtin(struct tui_theme *t);

/* Loads path over the built-in theme. Returns 0, or -1 with why set to
 * "path:line: problem" and *t left as the built-in theme. */
int tui_theme_load(const char *path, struct tui_theme *t, char *why, size_t whylen);

/* Directories searched, in order: dir (may be NULL), $XDG_CONFIG_HOME/ticklab/themes
 * (or ~/.config/...), TL_DATADIR/themes. Returns how many were filled. */
size_t tui_theme_dirs(const char *dir, char out[][512], size_t max);

/* A compiled-in theme: its name and the text of its file. */
struct tui_theme_text {
	const char *name, *text;
};
extern const struct tui_theme_text tui_theme_builtins[];
extern const size_t tui_theme_nbuiltins;

/* Finds NAME.theme along the search path. Returns 0 with path set, 1 when
 * only the compiled-in theme has that name (path "built-in"), or -1. */
int tui_theme_find(const char *dir, const char *name, char *path, size_t len);

/* tui_theme_find then load: the file, else the compiled-in theme. -1 with
 * why naming the theme and where it was looked for, or the file's problem;
 * *t is then the built-in default. */
int tui_theme_load_named(const char *dir, const char *name, struct tui_theme *t, char *why,
			 size_t whylen);

/* Theme names along the search path and the compiled-in ones, first
 * occurrence wins, "default" first. Returns the count. */
size_t tui_theme_list(const char *dir, char names[][64], size_t max);

/* Nearest xterm-256 colour (6x6x6 cube or grey ramp), like tmux's colour_find_rgb. */
int tui_colour_256(int rgb);
/* Nearest of the 8 ANSI colours. */
int tui_colour_8(int rgb);

#endif
