/* The one place that knows which curses header this system has (wide ncurses). */
#ifndef TL_TUI_CURSES_H
#define TL_TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#if defined(__has_include)
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#else
#include <curses.h>
#endif
#else
#include <curses.h>
#endif

#endif
