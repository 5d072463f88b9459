/* The one place that knows which curses header this system has (wide ncurses).
 * Define TUI_TERMINFO first for the low-level terminfo calls (term.c only:
 * term.h defines macros that clash with ordinary names). */
#ifndef TL_TUI_CURSES_H
#define TL_TUI_CURSES_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#if defined(__has_include)
#if __has_include(<ncursesw/curses.h>)
#include <ncursesw/curses.h>
#ifdef TUI_TERMINFO
#include <ncursesw/term.h>
#endif
#else
#include <curses.h>
#ifdef TUI_TERMINFO
#include <term.h>
#endif
#endif
#else
#include <curses.h>
#ifdef TUI_TERMINFO
#include <term.h>
#endif
#endif

#endif
