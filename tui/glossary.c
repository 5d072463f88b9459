#include "config.h"

#include "tui/glossary.h"

#include <stdio.h>

#include "tui/wrap.h"

#define G_SETUP TUI_ON(TUI_SETUP)
#define G_LIVE TUI_ON(TUI_LIVE)
#define G_SEARCH TUI_ON(TUI_SEARCH)
#define G_INFO TUI_ON(TUI_INFO)
#define G_FLEET TUI_ON(TUI_FLEET)

const struct tui_gloss tui_glossary[] = {
#define TUI_GLOSS(term, screens, sentence) {term, screens, sentence},
#include "tui/glossary.def"
#undef TUI_GLOSS
};
const size_t tui_nglossary = sizeof tui_glossary / sizeof tui_glossary[0];

#define TERM_COLS 15 /* "  ", the term's 12 columns and a space: as the keys' rows */

size_t tui_glossary_help(enum tui_screen s, int width, char lines[][96], size_t max)
{
	char wrapped[8][TUI_WRAP_LINE];
	size_t n = 0;

	if (width < TERM_COLS + 16)
		width = TERM_COLS + 16;
	if (width > 95)
		width = 95;
	for (size_t i = 0; i < tui_nglossary && n < max; i++) {
		if (!(tui_glossary[i].screens & TUI_ON(s)))
			continue;
		size_t k = tui_wrap(tui_glossary[i].sentence, width - TERM_COLS, wrapped, 8);

		for (size_t j = 0; j < k && j < 8 && n < max; j++)
			/* the precisions bound the line to its 96 bytes: a term is at
			 * most 12 columns and a wrapped line at most 95 - TERM_COLS */
			snprintf(lines[n++], 96, "  %-12.12s %.80s", j ? "" : tui_glossary[i].term,
				 wrapped[j]);
	}
	return n;
}
