/* The one key table: key -> action -> help text. The help overlay and the
 * status bar are generated from it, so they cannot disagree with the code. */
#ifndef TL_TUI_KEYS_H
#define TL_TUI_KEYS_H

#include <stddef.h>

/* one value per line of tui/screens.def, in its order */
enum tui_screen {
#define TUI_SCREEN(id, ops) id,
#include "tui/screens.def"
#undef TUI_SCREEN
	TUI_NSCREENS,
};

#define TUI_ON(s) (1u << (s))
#define TUI_ALL ((1u << TUI_NSCREENS) - 1u)

enum tui_action {
	TUI_ACT_NONE,
	TUI_ACT_UP,
	TUI_ACT_DOWN,
	TUI_ACT_LEFT,
	TUI_ACT_RIGHT,
	TUI_ACT_PANE,
	TUI_ACT_SELECT,
	TUI_ACT_RUN,
	TUI_ACT_FILTER,
	TUI_ACT_ADD,
	TUI_ACT_SETN,
	TUI_ACT_PAUSE,
	TUI_ACT_REF,
	TUI_ACT_SEARCH,
	TUI_ACT_INFO,
	TUI_ACT_EXPORT,
	TUI_ACT_EXPORT_CSV,
	TUI_ACT_THEME,
	TUI_ACT_HELP,
	TUI_ACT_QUIT,
	TUI_ACT_BACK,
	TUI_ACT_PARAMS,
	TUI_ACT_LOG,
	TUI_ACT_GO, /* straight to a screen: TUI_ACT_GO + enum tui_screen */
	TUI_ACT_GO_END = TUI_ACT_GO + TUI_NSCREENS - 1,
	TUI_ACT_LADDER,
	TUI_ACT_RESET,
	TUI_ACT_AXIS,
	TUI_ACT_SEL_NEXT,
	TUI_ACT_HIDE,
	TUI_ACT_SOLO,
	TUI_ACT_SHOW_ALL,
	TUI_ACT_PAGE_UP,
	TUI_ACT_PAGE_DOWN,
	TUI_ACT_FIRST,
	TUI_ACT_LAST,
	TUI_ACT_SNAPSHOT,
	TUI_ACT_REMEASURE,
};

#define TUI_ACT_GO_SETUP ((enum tui_action)(TUI_ACT_GO + TUI_SETUP))
#define TUI_ACT_GO_LIVE ((enum tui_action)(TUI_ACT_GO + TUI_LIVE))
#define TUI_ACT_GO_SEARCH ((enum tui_action)(TUI_ACT_GO + TUI_SEARCH))
#define TUI_ACT_GO_INFO ((enum tui_action)(TUI_ACT_GO + TUI_INFO))
#define TUI_ACT_GO_FLEET ((enum tui_action)(TUI_ACT_GO + TUI_FLEET))

struct tui_key {
	int key;              /* curses key code or character */
	const char *label;    /* how the key is written: "q", "F10", "Tab" */
	enum tui_action action;
	unsigned screens;     /* TUI_ON() mask where the binding applies */
	const char *help;     /* the help line; NULL for an alias shown with the previous key */
	const char *verb;     /* the status bar's word for it; NULL: not in the status bar */
};

extern const struct tui_key tui_keys[];
extern const size_t tui_nkeys;

/* The action bound to key on screen s (TUI_ACT_NONE when unbound); a
 * digit the table leaves unbound goes to the screen of its place in
 * tui/screens.def. */
enum tui_action tui_keys_lookup(int key, enum tui_screen s);

/* The status bar text for screen s: "key action  key action ...", cut
 * at whole entries to fit width (buf gets at most len-1 bytes). */
void tui_keys_status(enum tui_screen s, bool replay, int width, char *buf, size_t len);

/* Help lines for screen s: "  keys      help". Returns the number of lines;
 * lines[i] points at static rows of at most 80 characters. */
size_t tui_keys_help(enum tui_screen s, char lines[][96], size_t max);

/* The screen's name, from its entry in the screen table (tui/screen.c). */
const char *tui_screen_name(enum tui_screen s);

#endif
