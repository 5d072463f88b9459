/* Every shipped theme reads: each foreground against the background it is
 * drawn on clears WCAG 2's contrast bar (4.5:1 for text, 3:1 for the divider
 * line) as a 256-colour terminal shows the theme's own colours, and as an
 * 8-colour one (TERM=xterm) shows the TUI's reduction of them. The table
 * printed is the check's evidence. Reference ratios are from the WCAG 2
 * formula worked by hand (and by WebAIM's checker): white on black 21,
 * #767676 on white 4.54. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/theme_contrast.h"
#include "tests/tap.h"

static char themes_dir[1024];

static void test_formula(void)
{
	is_near(tui_contrast(0xffffff, 0x000000), 21.0, 1e-9, "white on black is 21:1");
	is_near(tui_contrast(0x000000, 0xffffff), 21.0, 1e-9, "the ratio does not care about order");
	is_near(tui_contrast(0x767676, 0xffffff), 4.54, 0.01, "#767676 on white is 4.54:1");
	is_near(tui_contrast(0x777777, 0x777777), 1.0, 1e-12, "a colour on itself is 1:1");
	ok(tui_rgb_is_light(0xfafafa) && !tui_rgb_is_light(0x1c1c1c), "light and dark told apart");
	is_near(tui_palette_rgb(256, 244), 0x808080, 0, "256: ramp 244 is #808080");
	is_near(tui_palette_rgb(256, 67), 0x5f87af, 0, "256: cube 67 is #5f87af");
	is_near(tui_palette_rgb(8, 4), 0x0000ee, 0, "8: blue is xterm's #0000ee");
}

static void test_terminal_words(void)
{
	ok(tui_bg_from_colorfgbg("0;15") == 1, "COLORFGBG 0;15: light");
	ok(tui_bg_from_colorfgbg("15;0") == 0, "COLORFGBG 15;0: dark");
	ok(tui_bg_from_colorfgbg("15;default;0") == 0, "COLORFGBG fg;x;bg: the last is the bg");
	ok(tui_bg_from_colorfgbg("0;7") == 1 && tui_bg_from_colorfgbg("7;8") == 0,
	   "7 is light grey, 8 a dark grey");
	ok(tui_bg_from_colorfgbg("") < 0 && tui_bg_from_colorfgbg(NULL) < 0 &&
		   tui_bg_from_colorfgbg("0;default") < 0 && tui_bg_from_colorfgbg("0;99") < 0,
	   "COLORFGBG missing or not a colour: not said");
	const char r1[] = "\033]11;rgb:ffff/ffff/ffff\a";
	const char r2[] = "\033]11;rgb:1c1c/2020/2424\033\\";
	const char r3[] = "\033]11;rgb:f/8/0\a";
	ok(tui_bg_from_osc11(r1, sizeof r1 - 1) == 0xffffff, "OSC 11 white (BEL)");
	ok(tui_bg_from_osc11(r2, sizeof r2 - 1) == 0x1c2024, "OSC 11 dark grey (ST), 16-bit fields");
	ok(tui_bg_from_osc11(r3, sizeof r3 - 1) == 0xff8800, "OSC 11 one-digit fields scale to 8 bits");
	ok(tui_bg_from_osc11("\033[?1;2c", 7) < 0, "a reply that is not OSC 11: -1");
	ok(tui_bg_from_osc11("\033]11;rgb:ff/ff", 14) < 0, "a cut reply: -1");
}

/* One theme on one terminal: the table's rows and the check. */
static void check_theme(const char *name, int colours, int assumed_bg)
{
	struct tui_theme t;
	char why[512];
	if (tui_theme_load_named(themes_dir, name, &t, why, sizeof why) < 0) {
		ok(0, "%s loads: %s", name, why);
		return;
	}
	int idx[TUI_NROLES];
	const char *mode = colours == 8	    ? "8 colours (TERM=xterm)"
			   : colours == 256 ? "256 colours"
					    : "its own colours (plot, true colour)";
	int swapped = 0;
	if (colours == 8)
		swapped = tui_theme_reduce(&t, 8, assumed_bg, idx);
	else if (colours == 256) /* the theme's own colours on a 256 palette: no rescue */
		for (int r = 0; r < TUI_NROLES; r++)
			idx[r] = tui_colour_256(t.rgb[r]);
	else /* the file's colours as given: `plot` and a true-colour terminal */
		memcpy(idx, t.rgb, sizeof idx);
	const struct tui_pair *p;
	size_t n = tui_theme_pairs(&p);
	double worst = 99;
	const char *worst_role = "-";
	printf("# theme %s, %s%s (%d swapped for the nearest that reads)\n", name, mode,
	       t.rgb[TUI_ROLE_MAIN_BG] < 0 ? ", the terminal's background" : "", swapped);
	printf("#   %-12s %-8s %-8s %6s %5s\n", "role", "fg", "bg", "ratio", "bar");
	int checked = 0;
	for (size_t i = 0; i < n; i++) {
		if (idx[p[i].fg] < 0)
			continue;
		int fg = colours ? tui_palette_rgb(colours, idx[p[i].fg]) : idx[p[i].fg];
		int bg = idx[p[i].bg] < 0		? assumed_bg
			 : colours ? tui_palette_rgb(colours, idx[p[i].bg])
				   : idx[p[i].bg];
		double c = tui_contrast(fg, bg);
		printf("#   %-12s #%06x  #%06x  %6.2f %5.1f%s\n", tui_role_name(p[i].fg), fg, bg, c,
		       p[i].need, c < p[i].need ? "  BELOW" : "");
		checked++;
		if (c / p[i].need < worst) {
			worst = c / p[i].need;
			worst_role = tui_role_name(p[i].fg);
		}
	}
	if (!checked) {
		ok(1, "%s, %s: the terminal's own colours throughout, nothing to check", name, mode);
		return;
	}
	ok(worst >= 1, "%s, %s: every pair clears its bar (tightest %s, %.2fx its bar)", name,
	   mode, worst_role, worst);
}

int main(void)
{
	const char *src = getenv("TL_TOP_SRCDIR");
	snprintf(themes_dir, sizeof themes_dir, "%s/themes", src ? src : ".");
	test_formula();
	test_terminal_words();
	static const char *const names[] = {"default", "light", "high-contrast", "mono"};
	for (size_t i = 0; i < 4; i++) {
		check_theme(names[i], 0, 0x000000);
		check_theme(names[i], 256, 0x000000);
		check_theme(names[i], 8, 0x000000);
	}
	return tap_done();
}
