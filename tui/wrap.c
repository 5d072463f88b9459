#include "config.h"

#include <string.h>

#include "tui/wrap.h"

/* Bytes of the first `cols` characters of s (at most len bytes). */
static size_t bytes_for(const char *s, size_t len, int cols)
{
	size_t b = 0;

	for (int c = 0; b < len && c < cols; c++) {
		b++;
		while (b < len && ((unsigned char)s[b] & 0xc0) == 0x80)
			b++;
	}
	return b;
}

static int columns(const char *s, size_t len)
{
	int c = 0;

	for (size_t i = 0; i < len; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

size_t tui_wrap(const char *text, int width, char lines[][TUI_WRAP_LINE], size_t max)
{
	size_t n = 0, len = strlen(text);
	const char *p = text, *end = text + len;

	if (width < 1)
		width = 1;
	while (p < end) {
		size_t rest = (size_t)(end - p), take;

		if (columns(p, rest) <= width) {
			take = rest;
		} else {
			size_t fit = bytes_for(p, rest, width);

			/* the last space that keeps the line within width */
			take = fit;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = fit;
		}
		if (n < max) {
			size_t b = take < TUI_WRAP_LINE - 1 ? take : TUI_WRAP_LINE - 1;

			memcpy(lines[n], p, b);
			lines[n][b] = '\0';
			while (b > 0 && lines[n][b - 1] == ' ')
				lines[n][--b] = '\0';
		}
		n++;
		p += take;
		while (p < end && *p == ' ')
			p++;
	}
	return n;
}
