/* Strings that came from a file, made safe for where they go. A saved
 * file travels between nodes and people: a node name or a CPU model in it
 * can hold escape sequences (retitle or clear the terminal,
 * move the cursor), a newline that forges a line in output a health check
 * parses, HTML that a wiki renders from pasted Markdown, or a formula a
 * spreadsheet runs from a CSV. One function per destination, and every
 * writer of such a string goes through the one for its destination:
 *   terminal   tl_term_safe, tl_term_fputs, tl_term_fpad
 *   Markdown   tl_md_fputs
 *   CSV        tl_csv_fputs
 *   figures    tl_draw_safe (SVG, PDF, PNG through cairo)
 *   JSON       jansson's own escaping */
#ifndef TL_IO_TERM_SAFE_H
#define TL_IO_TERM_SAFE_H

#include <stddef.h>
#include <stdio.h>

/* out (len bytes, always terminated) gets s with every control character
 * escaped: \n \r \t as such, other C0 bytes and DEL as \xNN, the C1
 * controls and the bidirectional overrides as \uNNNN, and bytes that are
 * not UTF-8 as \xNN. Nothing is kept that moves the cursor or ends the
 * line. A result longer than len is cut at a character with "...".
 * Returns out; s NULL gives "". */
char *tl_term_safe(const char *s, char *out, size_t len);

/* Whether s needs no escaping (printable UTF-8 only). */
int tl_term_is_safe(const char *s);

/* fputs of the escaped s, of any length. */
void tl_term_fputs(const char *s, FILE *f);

/* s as Markdown text, in a table cell or a line: escaped as for the
 * terminal (the backslash doubled so it shows), '|' '`' '\\' and a ']' that
 * would close a link's text backslash-escaped, '<' '>' '&' as entities, so
 * a string from a file can add no column, link, image, code span or HTML. 0, or -1 on a write
 * error. */
int tl_md_fputs(const char *s, FILE *f);

/* s as one CSV field (RFC 4180): escaped as for the terminal (no raw
 * newline), quoted when it holds ',' or '"' ('"' doubled) or starts or
 * ends with a space, and a leading = + - @ made text by a ' inside the
 * quotes, so a spreadsheet runs no formula. 0, or -1 on a write error. */
int tl_csv_fputs(const char *s, FILE *f);

/* s as text to draw in a figure: valid UTF-8 without control characters
 * (cairo refuses the one and shows boxes for the other), escaped as for
 * the terminal. Returns out. */
char *tl_draw_safe(const char *s, char *out, size_t len);

/* The escaped s (cut at 511 bytes) padded to width columns, for a table. */
int tl_term_fpad(const char *s, int width, FILE *f);

#endif
