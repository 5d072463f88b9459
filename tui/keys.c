#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/curses.h"
#include "tui/keys.h"

#define S_SETUP TUI_ON(TUI_SETUP)
#define S_LIVE TUI_ON(TUI_LIVE)
#define S_SEARCH TUI_ON(TUI_SEARCH)
#define S_INFO TUI_ON(TUI_INFO)
#define S_FLEET TUI_ON(TUI_FLEET)
#define ESC_KEY 27

/* Order matters twice: lookup takes the first binding for a screen, and the
 * help overlay lists bindings in this order. An entry with help == NULL is an
 * alias of the entry before it and is listed on the same help line. */
const struct tui_key tui_keys[] = {
	{KEY_UP, "Up", TUI_ACT_UP, S_SETUP | S_INFO, "move up", NULL},
	{'k', "k", TUI_ACT_UP, S_SETUP | S_INFO, NULL, NULL},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_SETUP | S_INFO, "move down", NULL},
	{'j', "j", TUI_ACT_DOWN, S_SETUP | S_INFO, NULL, NULL},
	{KEY_UP, "Up", TUI_ACT_UP, S_LIVE, "previous kernel", NULL},
	{'k', "k", TUI_ACT_UP, S_LIVE, NULL, NULL},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_LIVE, "next kernel", NULL},
	{'j', "j", TUI_ACT_DOWN, S_LIVE, NULL, NULL},
	{KEY_LEFT, "Left", TUI_ACT_LEFT, S_SETUP, "previous list", NULL},
	{'h', "h", TUI_ACT_LEFT, S_SETUP, NULL, NULL},
	{KEY_RIGHT, "Right", TUI_ACT_RIGHT, S_SETUP, "next list", NULL},
	{'l', "l", TUI_ACT_RIGHT, S_SETUP, NULL, NULL},
	{KEY_LEFT, "Left", TUI_ACT_LEFT, S_LIVE | S_SEARCH, "previous flush size", "flush"},
	{'h', "h", TUI_ACT_LEFT, S_LIVE | S_SEARCH, NULL, NULL},
	{KEY_RIGHT, "Right", TUI_ACT_RIGHT, S_LIVE | S_SEARCH, "next flush size", NULL},
	{'l', "l", TUI_ACT_RIGHT, S_LIVE | S_SEARCH, NULL, NULL},
	{'\t', "Tab", TUI_ACT_PANE, S_SETUP, "next list", "next"},
	{'\t', "Tab", TUI_ACT_PANE, S_LIVE, "next page of backends", NULL},
	{KEY_UP, "Up", TUI_ACT_UP, S_SEARCH, "previous row (the table scrolls)", "row"},
	{'k', "k", TUI_ACT_UP, S_SEARCH, NULL, NULL},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_SEARCH, "next row; its reasons show below", NULL},
	{'j', "j", TUI_ACT_DOWN, S_SEARCH, NULL, NULL},
	{KEY_HOME, "Home", TUI_ACT_FIRST, S_SEARCH, "first / last row", NULL},
	{KEY_END, "End", TUI_ACT_LAST, S_SEARCH, NULL, NULL},
	{'g', "g", TUI_ACT_FIRST, S_SEARCH, NULL, NULL},
	{'G', "G", TUI_ACT_LAST, S_SEARCH, NULL, NULL},
	{KEY_PPAGE, "PgUp", TUI_ACT_PAGE_UP, S_SEARCH, "scroll the selected row's reasons", NULL},
	{KEY_NPAGE, "PgDn", TUI_ACT_PAGE_DOWN, S_SEARCH, NULL, NULL},
	{KEY_UP, "Up", TUI_ACT_UP, S_FLEET, "previous node", "node"},
	{'k', "k", TUI_ACT_UP, S_FLEET, NULL, NULL},
	{KEY_DOWN, "Down", TUI_ACT_DOWN, S_FLEET, "next node", NULL},
	{'j', "j", TUI_ACT_DOWN, S_FLEET, NULL, NULL},
	{'\t', "Tab", TUI_ACT_PANE, S_FLEET, "next group (nodes of other hardware)", "group"},
	{' ', "Space", TUI_ACT_SELECT, S_SETUP, "select / unselect", "select"},
	{'\n', "Enter", TUI_ACT_RUN, S_SETUP, "run the selection live", "run"},
	{KEY_ENTER, "Enter", TUI_ACT_RUN, S_SETUP, NULL, NULL},
	{'\r', "Enter", TUI_ACT_RUN, S_SETUP, NULL, NULL},
	{'/', "/", TUI_ACT_FILTER, S_SETUP, "filter the list (PCRE2 regex)", "filter"},
	{'a', "a", TUI_ACT_ADD, S_SETUP, "add a custom flush size or kernel", "add"},
	{'n', "n", TUI_ACT_SETN, S_SETUP, "set N, samples per cell", "N"},
	{'R', "R", TUI_ACT_RESET, S_SETUP, "reset: forget the remembered setup", NULL},
	{'p', "p", TUI_ACT_PAUSE, S_LIVE, "pause / resume sampling", "pause"},
	{' ', "Space", TUI_ACT_PAUSE, S_LIVE, NULL, NULL},
	{'x', "x", TUI_ACT_AXIS, S_LIVE, "histograms on one shared x-axis / their own", "axis"},
	/* one help line for the four: they act on the selected backend */
	{'b', "b", TUI_ACT_SEL_NEXT, S_LIVE, "next backend; hide it / it alone / show all", NULL},
	{'v', "v", TUI_ACT_HIDE, S_LIVE, NULL, NULL},
	{'o', "o", TUI_ACT_SOLO, S_LIVE, NULL, NULL},
	{'a', "a", TUI_ACT_SHOW_ALL, S_LIVE, NULL, NULL},
	{'r', "r", TUI_ACT_REF, S_SEARCH, "next reference backend for the ratios", "ref"},
	{'m', "m", TUI_ACT_LADDER, S_SETUP, "memory ladder preset (load sizes, flush 0)", NULL},
	{'m', "m", TUI_ACT_LADDER, S_LIVE, "memory ladder / histograms", NULL},
	{'o', "o", TUI_ACT_PARAMS, S_SETUP | S_SEARCH, "search parameters (eps, n, repeats, ...)", NULL},
	{'s', "s", TUI_ACT_SEARCH, S_SETUP | S_LIVE, "search t_min and t_diff", "search"},
	{'i', "i", TUI_ACT_INFO, S_SETUP | S_SEARCH, "node info", "info"},
	/* Live's status bar has no room for it at 80 columns: its tab says it */
	{'i', "i", TUI_ACT_INFO, S_LIVE, "node info", NULL},
	{'e', "e", TUI_ACT_EXPORT, S_LIVE | S_SEARCH, "export JSON and its figures", "export"},
	{'E', "E", TUI_ACT_EXPORT_CSV, S_LIVE, "export CSV", NULL},
	{'t', "t", TUI_ACT_THEME, TUI_ALL, "next theme", NULL},
	{'w', "w", TUI_ACT_SNAPSHOT, TUI_ALL, "save this screen as text and SVG (slides)", NULL},
	{'?', "?", TUI_ACT_HELP, TUI_ALL, "help", "help"},
	{KEY_F(1), "F1", TUI_ACT_HELP, TUI_ALL, NULL, NULL},
	/* one help line for the eight: aliases with the same label add nothing */
	{'1', "1-4", TUI_ACT_GO_SETUP, TUI_ALL, "Setup, Live, Search, Info screen", NULL},
	{'2', "1-4", TUI_ACT_GO_LIVE, TUI_ALL, NULL, NULL},
	{'3', "1-4", TUI_ACT_GO_SEARCH, TUI_ALL, NULL, NULL},
	{'4', "1-4", TUI_ACT_GO_INFO, TUI_ALL, NULL, NULL},
	{KEY_F(2), "F2-F5", TUI_ACT_GO_SETUP, TUI_ALL, NULL, NULL},
	{KEY_F(3), "F2-F5", TUI_ACT_GO_LIVE, TUI_ALL, NULL, NULL},
	{KEY_F(4), "F2-F5", TUI_ACT_GO_SEARCH, TUI_ALL, NULL, NULL},
	{KEY_F(5), "F2-F5", TUI_ACT_GO_INFO, TUI_ALL, NULL, NULL},
	/* listed on Fleet's help only: Setup's overlay is full at 80x24 */
	{'5', "5 F6", TUI_ACT_GO_FLEET, S_FLEET, "Fleet screen (tui --fleet DIR)", NULL},
	{'5', "5 F6", TUI_ACT_GO_FLEET, TUI_ALL, NULL, NULL},
	{KEY_F(6), "5 F6", TUI_ACT_GO_FLEET, TUI_ALL, NULL, NULL},
	{'L', "L", TUI_ACT_LOG, TUI_ALL, "messages of this session (the log)", NULL},
	{'M', "M", TUI_ACT_REMEASURE, S_INFO, "measure the memory levels again (the node's record)",
	 NULL},
	{ESC_KEY, "Esc", TUI_ACT_BACK, S_LIVE | S_SEARCH | S_INFO, "back", "back"},
	{'q', "q", TUI_ACT_QUIT, TUI_ALL, "quit (asks while a run is going)", "quit"},
	{KEY_F(10), "F10", TUI_ACT_QUIT, TUI_ALL, NULL, NULL},
};
const size_t tui_nkeys = sizeof tui_keys / sizeof tui_keys[0];

enum tui_action tui_keys_lookup(int key, enum tui_screen s)
{
	for (size_t i = 0; i < tui_nkeys; i++)
		if (tui_keys[i].key == key && (tui_keys[i].screens & TUI_ON(s)))
			return tui_keys[i].action;
	if (key >= '1' && key < '1' + TUI_NSCREENS && key <= '9')
		return (enum tui_action)(TUI_ACT_GO + (key - '1'));
	return TUI_ACT_NONE;
}

/* The keys that get a user out of any screen: the bar keeps room for them
 * and drops others first, so "? help  q quit" shows at every width. */
static bool key_kept(const struct tui_key *k)
{
	return k->action == TUI_ACT_HELP || k->action == TUI_ACT_QUIT;
}

/* "Left/Right": a bar entry names the key that goes the other way too when
 * the table's next help line is that key on the same screens ("Left flush"
 * read as if Right did nothing). */
static void bar_label(size_t i, char *buf, size_t len)
{
	const struct tui_key *k = &tui_keys[i];
	size_t j = i + 1;

	while (j < tui_nkeys && !tui_keys[j].help)
		j++;
	if (j < tui_nkeys && (tui_keys[j].screens & k->screens) == k->screens &&
	    ((k->action == TUI_ACT_LEFT && tui_keys[j].action == TUI_ACT_RIGHT) ||
	     (k->action == TUI_ACT_UP && tui_keys[j].action == TUI_ACT_DOWN)))
		snprintf(buf, len, "%s/%s", k->label, tui_keys[j].label);
	else
		snprintf(buf, len, "%s", k->label);
}

void tui_keys_status(enum tui_screen s, bool replay, int width, char *buf, size_t len)
{
	size_t used = 0;
	int kept = 0;
	bool full = false;
	buf[0] = '\0';
	for (size_t i = 0; i < tui_nkeys; i++)
		if (tui_keys[i].verb && (tui_keys[i].screens & TUI_ON(s)) && key_kept(&tui_keys[i]))
			kept += 2 + (int)strlen(tui_keys[i].label) + 1 + (int)strlen(tui_keys[i].verb);
	for (size_t i = 0; i < tui_nkeys; i++) {
		const struct tui_key *k = &tui_keys[i];
		char item[64], label[24];
		/* a replay samples nothing: pause is not offered */
		if (!k->verb || !(k->screens & TUI_ON(s)) || (replay && k->action == TUI_ACT_PAUSE))
			continue;
		bar_label(i, label, sizeof label);
		int n = snprintf(item, sizeof item, "%s%s %s", used ? "  " : "", label, k->verb);
		int room = width - (key_kept(k) ? 0 : kept);
		if (full && !key_kept(k))
			continue;
		if (n < 0 || used + (size_t)n >= len || (int)(used + (size_t)n) > room) {
			full = true; /* the keys after it keep their order: none jumps ahead */
			continue;
		}
		if (key_kept(k))
			kept -= 2 + (int)strlen(k->label) + 1 + (int)strlen(k->verb);
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
			if (kl < sizeof keys && strcmp(tui_keys[j].label, tui_keys[j - 1].label) != 0 &&
			    strcmp(tui_keys[j].label, k->label) != 0)
				kl += (size_t)snprintf(keys + kl, sizeof keys - kl, " %s",
						       tui_keys[j].label);
		snprintf(lines[n++], 96, "  %-12s %s", keys, k->help);
	}
	return n;
}
