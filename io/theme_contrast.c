#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/theme_contrast.h"

size_t tui_theme_pairs(const struct tui_pair **pairs)
{
	static const struct tui_pair all[] = {
		{TUI_ROLE_MAIN_FG, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_TITLE, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_HI, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SELECTED_FG, TUI_ROLE_SELECTED_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_INACTIVE, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_DIV, TUI_ROLE_MAIN_BG, TUI_CONTRAST_LINE},
		{TUI_ROLE_STATUS_FG, TUI_ROLE_STATUS_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_OK, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_WARN, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_ERROR, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 0, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 1, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 2, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 3, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 4, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 5, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 6, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
		{TUI_ROLE_SERIES + 7, TUI_ROLE_MAIN_BG, TUI_CONTRAST_TEXT},
	};
	*pairs = all;
	return sizeof all / sizeof all[0];
}

static double channel(int c)
{
	double v = c / 255.0;
	return v <= 0.03928 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
}

static double luminance(int rgb)
{
	return 0.2126 * channel((rgb >> 16) & 0xff) + 0.7152 * channel((rgb >> 8) & 0xff) +
	       0.0722 * channel(rgb & 0xff);
}

double tui_contrast(int rgb1, int rgb2)
{
	double a = luminance(rgb1), b = luminance(rgb2);
	return a > b ? (a + 0.05) / (b + 0.05) : (b + 0.05) / (a + 0.05);
}

int tui_rgb_is_light(int rgb)
{
	return tui_contrast(rgb, 0x000000) > tui_contrast(rgb, 0xffffff);
}

int tui_palette_rgb(int colours, int idx)
{
	/* xterm's defaults, the reference tui_colour_8 and tui_colour_256 reduce to. */
	static const int ansi[16] = {0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
				     0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
				     0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff};
	static const int cube[6] = {0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff};
	if (idx < 0)
		return -1;
	if (colours <= 8 || idx < 16)
		return ansi[idx & 15];
	if (idx >= 232) {
		int g = 8 + 10 * (idx - 232);
		return g << 16 | g << 8 | g;
	}
	int i = idx - 16;
	return cube[i / 36] << 16 | cube[i / 6 % 6] << 8 | cube[i % 6];
}

static int chroma(int rgb);

/* The nearest palette colour; on 8 colours a grey goes to black or white,
 * never to the yellow or cyan that sit nearer a mid grey. */
static int reduce_one(int colours, int rgb)
{
	if (colours >= 256 || rgb < 0)
		return colours >= 256 ? tui_colour_256(rgb) : tui_colour_8(rgb);
	if (chroma(rgb) < 40)
		return ((rgb >> 16 & 0xff) + (rgb >> 8 & 0xff) + (rgb & 0xff)) / 3 >= 0x60 ? 7 : 0;
	return tui_colour_8(rgb);
}

static long dist2(int a, int b)
{
	long dr = ((a >> 16) & 0xff) - ((b >> 16) & 0xff), dg = ((a >> 8) & 0xff) - ((b >> 8) & 0xff),
	     db = (a & 0xff) - (b & 0xff);
	return dr * dr + dg * dg + db * db;
}

/* The palette colour nearest rgb among those that clear need against bg_rgb;
 * the extremes always exist, so there is one. The 16 system colours of a
 * 256-colour terminal are skipped: terminals redefine them. */
static int chroma(int rgb)
{
	int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b), lo = r < g ? (r < b ? r : b) : (g < b ? g : b);
	return hi - lo;
}

/* A grey stays a grey: dim text turned yellow would read as a warning. */
static int nearest_readable(int colours, int rgb, int bg_rgb, double need)
{
	int first = colours >= 256 ? 16 : 0, last = colours >= 256 ? 255 : 7, best = -1;
	int grey = chroma(rgb) < 40;
	long bestd = 0;
	for (int i = first; i <= last; i++) {
		int c = tui_palette_rgb(colours, i);
		if (tui_contrast(c, bg_rgb) < need || (grey && chroma(c) >= 16))
			continue;
		long d = dist2(c, rgb);
		if (best < 0 || d < bestd) {
			best = i;
			bestd = d;
		}
	}
	if (best < 0) /* nothing clears the bar: the extreme that comes closest */
		best = tui_contrast(tui_palette_rgb(colours, first), bg_rgb) >
				       tui_contrast(tui_palette_rgb(colours, last), bg_rgb)
			       ? first
			       : last;
	return best;
}

int tui_theme_reduce(const struct tui_theme *t, int colours, int assumed_bg, int out[TUI_NROLES])
{
	for (int r = 0; r < TUI_NROLES; r++)
		out[r] = reduce_one(colours, t->rgb[r]);
	const struct tui_pair *p;
	size_t n = tui_theme_pairs(&p);
	int swapped = 0;
	for (size_t i = 0; i < n; i++) {
		if (out[p[i].fg] < 0)
			continue; /* the terminal's own pair: its choice */
		int bg = out[p[i].bg] >= 0 ? tui_palette_rgb(colours, out[p[i].bg]) : assumed_bg;
		if (bg < 0 || tui_contrast(tui_palette_rgb(colours, out[p[i].fg]), bg) >= p[i].need)
			continue;
		out[p[i].fg] = nearest_readable(colours, t->rgb[p[i].fg], bg, p[i].need);
		swapped++;
	}
	return swapped;
}

int tui_bg_from_colorfgbg(const char *v)
{
	if (!v || !*v)
		return -1;
	const char *last = strrchr(v, ';');
	if (!last || !last[1])
		return -1;
	char *end;
	long bg = strtol(last + 1, &end, 10);
	if (*end || bg < 0 || bg > 15)
		return -1;
	return bg == 7 || bg >= 9 ? 1 : 0;
}

static int hex_field(const char *s, size_t len, size_t *used)
{
	/* 1 to 4 hex digits scaled to 8 bits, as XParseColor reads rgb: */
	unsigned v = 0;
	size_t n = 0;
	while (n < len && n < 4) {
		char c = s[n];
		int d = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			break;
		v = v * 16 + (unsigned)d;
		n++;
	}
	if (!n)
		return -1;
	*used = n;
	unsigned max = (1u << (4 * n)) - 1;
	return (int)((v * 255 + max / 2) / max);
}

int tui_bg_from_osc11(const char *reply, size_t len)
{
	const char *key = "\033]11;rgb:";
	size_t kl = strlen(key);
	const char *p = NULL;
	for (size_t i = 0; i + kl <= len; i++)
		if (memcmp(reply + i, key, kl) == 0) {
			p = reply + i + kl;
			break;
		}
	if (!p)
		return -1;
	size_t left = len - (size_t)(p - reply);
	int rgb = 0;
	for (int k = 0; k < 3; k++) {
		size_t used;
		int v = hex_field(p, left, &used);
		if (v < 0)
			return -1;
		rgb = rgb << 8 | v;
		p += used;
		left -= used;
		if (k < 2) {
			if (!left || *p != '/')
				return -1;
			p++;
			left--;
		}
	}
	return rgb;
}
