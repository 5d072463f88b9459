#include "config.h"

#include "io/term_safe.h"

#include <stdint.h>
#include <string.h>

/* The length of the UTF-8 character at s (1 to 4), its code point in *cp;
 * 0 when the bytes are not one (overlong, surrogate, cut short). */
static size_t utf8_char(const unsigned char *s, uint32_t *cp)
{
	size_t n;
	uint32_t c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2, c = s[0] & 0x1F, min = 0x80;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3, c = s[0] & 0x0F, min = 0x800;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

/* Code points a terminal acts on rather than shows. */
static int is_control(uint32_t c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || (c >= 0x202A && c <= 0x202E) ||
	       (c >= 0x2066 && c <= 0x2069) || c == 0x200E || c == 0x200F || c == 0x061C;
}

/* The printable form of the character at s into e (at least 12 bytes);
 * returns the bytes of s it stands for. */
static size_t one(const unsigned char *s, char *e, size_t *elen)
{
	uint32_t c;
	size_t n = utf8_char(s, &c);

	if (n == 0) {
		*elen = (size_t)snprintf(e, 12, "\\x%02X", s[0]);
		return 1;
	}
	if (!is_control(c)) {
		memcpy(e, s, n);
		*elen = n;
		return n;
	}
	if (c == '\n' || c == '\r' || c == '\t')
		*elen = (size_t)snprintf(e, 12, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
	else if (c < 0x80)
		*elen = (size_t)snprintf(e, 12, "\\x%02X", (unsigned)c);
	else
		*elen = (size_t)snprintf(e, 12, "\\u%04X", (unsigned)c);
	return n;
}

char *tl_term_safe(const char *s, char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;

	if (!len)
		return out;
	while (*p) {
		char e[12];
		size_t elen, used = one(p, e, &elen);

		if (o + elen + 1 > len) {
			/* Cut at a whole character, with room for "...". */
			while (o > 0 && o + 4 > len)
				do
					o--;
				while (o > 0 && ((unsigned char)out[o] & 0xC0) == 0x80);
			if (o + 4 <= len)
				memcpy(out + o, "...", 3), o += 3;
			break;
		}
		memcpy(out + o, e, elen);
		o += elen;
		p += used;
	}
	out[o] = '\0';
	return out;
}

int tl_term_is_safe(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		uint32_t c;
		size_t n = utf8_char(p, &c);

		if (n == 0 || is_control(c))
			return 0;
		p += n;
	}
	return 1;
}

/* The escaped s to f; md also escapes '|' so a Markdown cell stays one. */
static int put(const char *s, FILE *f, int md)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		char e[12];
		size_t elen;

		if (md && *p == '|') {
			p++;
			if (fputs("\\|", f) == EOF)
				return -1;
			continue;
		}
		p += one(p, e, &elen);
		if (fwrite(e, 1, elen, f) != elen)
			return -1;
	}
	return 0;
}

void tl_term_fputs(const char *s, FILE *f)
{
	put(s, f, 0);
}

int tl_term_fputs_md(const char *s, FILE *f)
{
	return put(s, f, 1);
}

int tl_term_fpad(const char *s, int width, FILE *f)
{
	char safe[512];

	return fprintf(f, "%-*s", width, tl_term_safe(s, safe, sizeof safe)) < 0 ? -1 : 0;
}
