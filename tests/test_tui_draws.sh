#!/bin/sh
# Issue 25: "a draw reads state", held by the compiler. A screen's draw is
# its table entry's `draw`, typed to take the app through a const pointer;
# this keeps every helper a draw calls the same: each function named
# draw_* or *_draw in tui/ takes `const struct tui_app *`. The figure
# writers an export calls (their callback type is tui_figure_fn) and
# tui_live_may_draw (the frame's gate, not a draw) are the named exceptions.
# And no screen is chosen by a switch in the shell: tui.c finds it in the
# table of tui/screens.def.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
SRC=${TL_TOP_SRCDIR:-.}

grep -nE '^(static )?[a-z_ ]*\b(tui_[a-z_]*_draw|draw_[a-z_]*|draw)\(' "$SRC"/tui/*.c >"${TMPDIR:-/tmp}/tl_draws.$$"
n=$(grep -c 'const struct tui_app' "${TMPDIR:-/tmp}/tl_draws.$$")
bad=$(grep -v 'const struct tui_app' "${TMPDIR:-/tmp}/tl_draws.$$" |
	grep -vE '\b(draw_run|draw_search|tui_live_may_draw)\(')
rm -f "${TMPDIR:-/tmp}/tl_draws.$$"
[ -z "$bad" ] && [ "$n" -gt 20 ]
ok $? "every draw in tui/ ($n) takes the app through a const pointer"
[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/#   /'

! grep -nE 'switch \(app->screen\)' "$SRC"/tui/*.c
ok $? "no screen is chosen by a switch"
screens=$(grep -c '^TUI_SCREEN(' "$SRC/tui/screens.def")
ops=$(grep -l 'const struct tui_screen_ops tui_[a-z]*_screen = {' "$SRC"/tui/*.c | wc -l)
[ "$screens" -eq "$ops" ]
ok $? "each of the $screens lines of screens.def has its screen's ops in one file ($ops)"
done_testing
