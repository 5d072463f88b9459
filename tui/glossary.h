/* What each number, word and mark on a screen means, one sentence each,
 * from the one table in tui/glossary.def (which ticklab(1)'s GLOSSARY is
 * checked against). The help overlay lists a screen's entries under its
 * keys. */
#ifndef TL_TUI_GLOSSARY_H
#define TL_TUI_GLOSSARY_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/keys.h"

struct tui_gloss {
	const char *term;
	unsigned screens; /* TUI_ON() mask of the screens that show it */
	const char *sentence;
};

extern const struct tui_gloss tui_glossary[];
extern const size_t tui_nglossary;

/* Screen s's entries as help rows of at most width columns: "  term" in a
 * 12-column field, then the sentence wrapped under itself. Returns how many
 * rows; at most max are stored. */
size_t tui_glossary_help(enum tui_screen s, int width, char lines[][96], size_t max);

#endif
