/* Notes of clauses: see note.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/note.h"

void tl_note_append(char *note, size_t len, const char *text)
{
	size_t at = strlen(note);

	if (at + 1 < len)
		snprintf(note + at, len - at, "%s%s", at ? "; " : "", text);
}

/* The longest prefix of note[0..limit] that ends before a clause's "; "
 * (*clause) or, failing that, before a word's " "; 0 when neither is. */
static size_t cut_point(const char *note, size_t limit, int *clause)
{
	*clause = 1;
	for (size_t i = limit; i >= 2; i--)
		if (note[i - 2] == ';' && note[i - 1] == ' ')
			return i - 2;
	*clause = 0;
	for (size_t i = limit; i >= 1; i--)
		if (note[i - 1] == ' ')
			return i - 1;
	return 0;
}

void tl_note_append_keep(char *note, size_t len, const char *text)
{
	size_t at = strlen(note), need = strlen(text) + (at ? 2 : 0);

	if (at && at + need >= len && need + 4 < len) {
		/* room for the kept part, "..." and the text */
		int clause;
		size_t limit = len - 1 - need - 3, cut = cut_point(note, limit, &clause);

		if (!cut) {
			clause = 0;
			cut = limit;
			/* not inside a UTF-8 sequence */
			while (cut > 0 && ((unsigned char)note[cut] & 0xC0) == 0x80)
				cut--;
		}
		/* a clause's cut lies 2 below the limit, the room "; " takes */
		snprintf(note + cut, len - cut, clause ? "; ..." : "...");
	}
	tl_note_append(note, len, text);
}
