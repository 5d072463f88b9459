/* Notes of clauses (base/note.h): the clause that must stay is kept whole,
 * and the room it needs is made by dropping whole clauses, else words;
 * never a word or a UTF-8 sequence cut in two. Expected strings by hand. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/note.h"
#include "tests/tap.h"

static void keep(const char *before, size_t len, const char *text, const char *want)
{
	char note[128];

	snprintf(note, sizeof note, "%s", before);
	tl_note_append_keep(note, len, text);
	ok(strcmp(note, want) == 0 && strlen(note) < len, "'%s' + '%s' in %zu: '%s' (want '%s')", before,
	   text, len, note, want);
}

int main(void)
{
	char note[16] = "";

	tl_note_append(note, sizeof note, "one");
	tl_note_append(note, sizeof note, "two");
	ok(strcmp(note, "one; two") == 0, "clauses join by '; ': '%s'", note);
	tl_note_append(note, sizeof note, "three four");
	ok(strcmp(note, "one; two; three") == 0, "what does not fit is cut: '%s'", note);

	keep("", 20, "A0 = 181", "A0 = 181");
	keep("short", 40, "A0 = 181", "short; A0 = 181");
	/* 48 bytes: "A0 = 181" needs 10 with its "; " and "..." 3, so 34 of
	 * the note stay at most, the clauses that end 2 before that (31) */
	keep("alpha beta; gamma delta epsilon; zeta eta theta iota", 48, "A0 = 181",
	     "alpha beta; gamma delta epsilon; ...; A0 = 181");
	/* one clause only: cut before a word */
	keep("alpha beta gamma delta epsilon zeta eta theta iota", 40, "A0 = 181",
	     "alpha beta gamma delta...; A0 = 181");
	/* one long word: cut inside it, never inside a UTF-8 sequence (18
	 * e-acutes of 2 bytes; the limit 41 - 1 - 10 - 3 = 27 falls in the
	 * 14th, so 13 stay) */
	{
		char word[64] = "", want[64] = "";

		for (int i = 0; i < 18; i++)
			strcat(word, "\xc3\xa9");
		memcpy(want, word, 26);
		strcat(want, "...; A0 = 181");
		keep(word, 41, "A0 = 181", want);
	}
	/* a text that cannot fit is cut as by tl_note_append */
	keep("alpha", 12, "A0 = 181 ADDs from t_min", "alpha; A0 =");
	return tap_done();
}
