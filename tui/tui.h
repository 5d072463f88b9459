/* The TUI's entry point (everything else in tui/ is private to it). */
#ifndef TL_TUI_TUI_H
#define TL_TUI_TUI_H

/* `ticklab` on a terminal (argc == 1) or `ticklab tui [--replay FILE] ...`.
 * Returns the exit status. Falls back to the plain-text comparison on
 * TERM=dumb or an unknown TERM. */
int tui_main(int argc, char **argv);

#endif
