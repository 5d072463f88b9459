/* Word wrapping for the message line and the message log: a pure function
 * of the text and a width in columns, so no word of a message is lost. */
#ifndef TL_TUI_WRAP_H
#define TL_TUI_WRAP_H

#include <stddef.h>

#define TUI_WRAP_LINE 512

/* Splits text into lines of at most width columns (UTF-8 aware: one column
 * per character), breaking at spaces; a word longer than width is cut.
 * Returns how many lines the whole text needs; at most max are stored. */
size_t tui_wrap(const char *text, int width, char lines[][TUI_WRAP_LINE], size_t max);

#endif
