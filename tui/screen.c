/* The table of screens: one entry per line of tui/screens.def, as
 * cli/command.c registers the subcommands. The event loop (tui.c) finds a
 * screen's draw, poll, keys and name here, never by a switch. */
#include "config.h"

#include "tui/app.h"

#define TUI_SCREEN(id, ops) extern const struct tui_screen_ops ops;
#include "tui/screens.def"
#undef TUI_SCREEN

static const struct tui_screen_ops *const screens[TUI_NSCREENS] = {
#define TUI_SCREEN(id, ops) [id] = &ops,
#include "tui/screens.def"
#undef TUI_SCREEN
};

const struct tui_screen_ops *tui_screen_get(enum tui_screen s)
{
	return s < TUI_NSCREENS ? screens[s] : screens[TUI_SETUP];
}

const char *tui_screen_name(enum tui_screen s)
{
	return s < TUI_NSCREENS ? screens[s]->name : "?";
}
