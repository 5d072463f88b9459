/* Strings that came from a file, made safe to print (issue 27). A saved
 * file travels between nodes and people: a node name or a CPU model in it
 * can hold escape sequences (retitle or clear the terminal, move the
 * cursor) or a newline that forges a line in output a health check
 * parses. Every printer of such a string goes through here. */
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

/* The same for a Markdown table cell: '|' also escaped, so a string from
 * a file cannot add a column. 0, or -1 on a write error. */
int tl_term_fputs_md(const char *s, FILE *f);

/* The escaped s (cut at 511 bytes) padded to width columns, for a table. */
int tl_term_fpad(const char *s, int width, FILE *f);

#endif
