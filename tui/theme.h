/* The theme parser is pure (no curses) and shared with the figures of
 * `ticklab plot`, so it lives in io/theme.h; the TUI includes it from here. */
#ifndef TL_TUI_THEME_H
#define TL_TUI_THEME_H

#include "io/theme.h"

#endif
