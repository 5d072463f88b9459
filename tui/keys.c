#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/curses.h"
#include "tui/keys.h"

#define S_SETUP TUI_ON(TUI_SETUP)
#define S_LIVE TUI_ON(TUI_LIVE)
#define S_SEARCH TUI_ON(TUI_SEARCH)
#define S_INFO TUI_ON(TUI_INFO)
#define ESC_KEY 27

/* Order matters twice: lookup takes the first binding for a screen, and the
 * help overlay lists bindings in this order. An entry with help == NULL is an
 * alias of the entry before it and is listed on the same help line. */
const struct tui_key tui_keys[] = {
	{KEY_UP, "Up", TUI_ACT_UP, S_SETUP | S_INFO, "move up", 0},
	{'k', "k", TUI_ACT_UP, S_SETUP | S_INFO, NULL, 0},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_SETUP | S_INFO, "move down", 0},
	{'j', "j", TUI_ACT_DOWN, S_SETUP | S_INFO, NULL, 0},
	{KEY_UP, "Up", TUI_ACT_UP, S_LIVE, "previous kernel", 0},
	{'k', "k", TUI_ACT_UP, S_LIVE, NULL, 0},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_LIVE, "next kernel", 0},
	{'j', "j", TUI_ACT_DOWN, S_LIVE, NULL, 0},
	{KEY_LEFT, "Left", TUI_ACT_LEFT, S_SETUP, "previous list", 0},
	{'h', "h", TUI_ACT_LEFT, S_SETUP, NULL, 0},
	{KEY_RIGHT, "Right", TUI_ACT_RIGHT, S_SETUP, "next list", 0},
	{'l', "l", TUI_ACT_RIGHT, S_SETUP, NULL, 0},
	{KEY_LEFT, "Left", TUI_ACT_LEFT, S_LIVE | S_SEARCH, "previous flush size", 1},
	{'h', "h", TUI_ACT_LEFT, S_LIVE | S_SEARCH, NULL, 0},
	{KEY_RIGHT, "Right", TUI_ACT_RIGHT, S_LIVE | S_SEARCH, "next flush size", 1},
	{'l', "l", TUI_ACT_RIGHT, S_LIVE | S_SEARCH, NULL, 0},
	{'\t', "Tab", TUI_ACT_PANE, S_SETUP, "next list", 1},
	{'\t', "Tab", TUI_ACT_PANE, S_LIVE | S_SEARCH, "next page of backends", 0},
	{' ', "Space", TUI_ACT_SELECT, S_SETUP, "select / unselect", 1},
	{'\n', "Enter", TUI_ACT_RUN, S_SETUP, "run the selection live", 1},
	{KEY_ENTER, "Enter", TUI_ACT_RUN, S_SETUP, NULL, 0},
	{'\r', "Enter", TUI_ACT_RUN, S_SETUP, NULL, 0},
	{'/', "/", TUI_ACT_FILTER, S_SETUP, "filter the list (PCRE2 regex)", 1},
	{'a', "a", TUI_ACT_ADD, S_SETUP, "add a custom flush size or kernel", 1},
	{'n', "n", TUI_ACT_SETN, S_SETUP, "set N, samples per cell", 1},
	{'p', "p", TUI_ACT_PAUSE, S_LIVE, "pause / resume sampling", 1},
	{' ', "Space", TUI_ACT_PAUSE, S_LIVE, NULL, 0},
	{'s', "s", TUI_ACT_SEARCH, S_SETUP | S_LIVE, "search t_min and t_diff", 1},
	{'i', "i", TUI_ACT_INFO, S_SETUP | S_LIVE | S_SEARCH, "node info", 1},
	{'e', "e", TUI_ACT_EXPORT, S_LIVE | S_SEARCH, "export JSON (raw samples)", 1},
	{'E', "E", TUI_ACT_EXPORT_CSV, S_LIVE, "export CSV", 0},
	{'t', "t", TUI_ACT_THEME, TUI_ALL, "next theme", 0},
	{'?', "?", TUI_ACT_HELP, TUI_ALL, "help", 1},
	{KEY_F(1), "F1", TUI_ACT_HELP, TUI_ALL, NULL, 0},
	{ESC_KEY, "Esc", TUI_ACT_BACK, S_LIVE | S_SEARCH | S_INFO, "back", 1},
	{'q', "q", TUI_ACT_QUIT, TUI_ALL, "quit (asks while a run is going)", 1},
	{KEY_F(10), "F10", TUI_ACT_QUIT, TUI_ALL, NULL, 0},
};
const size_t tui_nkeys = sizeof tui_keys / sizeof tui_keys[0];

enum tui_action tui_keys_lookup(int key, enum tui_screen s)
{
	for (size_t i = 0; i < tui_nkeys; i++)
		if (tui_keys[i].key == key && (tui_keys[i].screens & TUI_ON(s)))
			return tui_keys[i].action;
	return TUI_ACT_NONE;
}

/* The short verb the status bar shows: the help text up to its first space
 * after the first word, so "select / unselect" reads "select". */
static void short_help(const char *help, char *buf, size_t len)
{
	size_t n = strcspn(help, " (");
	if (strncmp(help, "previous flush", 14) == 0 || strncmp(help, "next flush", 10) == 0)
		n = strlen(help) - strlen(" size");
	if (strncmp(help, "search t_min", 12) == 0)
		n = 6;
	if (strncmp(help, "export JSON", 11) == 0)
		n = 6;
	if (n >= len)
		n = len - 1;
	memcpy(buf, help, n);
	buf[n] = '\0';
}

void tui_keys_status(enum tui_screen s, int width, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < tui_nkeys; i++) {
		const struct tui_key *k = &tui_keys[i];
		char verb[40], item[64];
		if (!k->status || !k->help || !(k->screens & TUI_ON(s)))
			continue;
		short_help(k->help, verb, sizeof verb);
		int n = snprintf(item, sizeof item, "%s%s %s", used ? "  " : "", k->label, verb);
		if (n < 0 || used + (size_t)n >= len || (int)(used + (size_t)n) > width)
			break;
		memcpy(buf + used, item, (size_t)n + 1);
		used += (size_t)n;
	}
}

size_t tui_keys_help(enum tui_screen s, char lines[][96], size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < tui_nkeys && n < max; i++) {
		const struct tui_key *k = &tui_keys[i];
		if (!k->help || !(k->screens & TUI_ON(s)))
			continue;
		char keys[40];
		size_t kl = (size_t)snprintf(keys, sizeof keys, "%s", k->label);
		for (size_t j = i + 1; j < tui_nkeys && !tui_keys[j].help; j++)
			if (kl < sizeof keys)
				kl += (size_t)snprintf(keys + kl, sizeof keys - kl, " %s",
						       tui_keys[j].label);
		snprintf(lines[n++], 96, "  %-12s %s", keys, k->help);
	}
	return n;
}

const char *tui_screen_name(enum tui_screen s)
{
	static const char *const names[TUI_NSCREENS] = {"Setup", "Live", "Search", "Info"};
	return s < TUI_NSCREENS ? names[s] : "?";
}
