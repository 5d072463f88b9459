#ifndef TL_BASE_NOTE_H
#define TL_BASE_NOTE_H

/* A result's note: clauses joined by "; " in a fixed buffer, as every
 * face prints it ("confirmed 1 step(s) above the model's 13 ADDs; 4 of
 * 626 blocks measured again; A0 = median of 3 repeats' t_min, 181 ADDs"). */

#include <stddef.h>

/* Appends text as the next clause; what does not fit is cut (snprintf). */
void tl_note_append(char *note, size_t len, const char *text);

/* Appends text whole, where the note and text do not both fit making room
 * by dropping the note's last clauses for "...", or, when its first
 * clause alone is too long, its last words: never inside a word or a
 * UTF-8 sequence. Used for the clause that makes notes comparable (where
 * t_diff started). A text that cannot fit at all is cut as by
 * tl_note_append. */
void tl_note_append_keep(char *note, size_t len, const char *text);

#endif
