/* Whether the terminal's background is light: what COLORFGBG says, else
 * the terminal's answer to OSC 11, asked with a short wait. */
#ifndef TL_TUI_TERM_BG_H
#define TL_TUI_TERM_BG_H

/* 1 light, 0 dark, -1 not said. The question is asked on the terminal
 * (stdin and stdout) with a device-attributes query behind it, which every
 * terminal answers, so a terminal that ignores OSC 11 costs one round
 * trip, not the timeout. */
int tui_term_background(int timeout_ms);

#endif
