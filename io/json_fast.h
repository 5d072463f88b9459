/* A JSON reader for the files ticklab writes, several times jansson's own
 * speed: the text is held whole in memory and read by a plain recursive
 * descent, numbers without strtod where that is exact. It builds the same
 * jansson document json_loadb(JSON_REJECT_DUPLICATES) would, and it is
 * deliberately narrow: anything it does not read itself (an error of any
 * kind, a \u escape, an integer of 19 digits or more, a number strtod
 * would call out of range, a string longer than TL_READ_STRING_MAX, deep
 * nesting) makes it give up, and the caller has jansson read the text, so
 * every refusal and its message stay jansson's. It never accepts a text
 * jansson refuses, and what it accepts it reads to the same values, bit for
 * bit, in the same key order (tests/test_json_fast checks both). */
#ifndef TL_IO_JSON_FAST_H
#define TL_IO_JSON_FAST_H

#include <jansson.h>
#include <stddef.h>

/* The document, or NULL: not read here (or out of memory); jansson's turn. */
json_t *tl_json_fast(const char *text, size_t len);

#endif
