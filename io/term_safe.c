#include "config.h"

#include "io/term_safe.h"

#include <stdbool.h>
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

enum dest { TERM, MD, CSV };

/* What the byte at p becomes in Markdown beyond the terminal's escaping,
 * or NULL. A backslash-escaped punctuation character renders as itself, an
 * entity as its character: '|' cannot add a column, a ']' before '(' or
 * '[' cannot close a link's text (or an image's, with '!'), '`' cannot open
 * a code span, '<' '>' '&' cannot make HTML (a tag, an autolink, an
 * entity), and '\\' cannot escape what follows it. Brackets elsewhere
 * ("[lo, hi]") and '*' '_' are left: they make no link, emphasis is
 * harmless, and the cells ticklab makes use both ("**detected**"). */
static const char *md_char(const unsigned char *p)
{
	switch (*p) {
	case '\\': return "\\\\";
	case '|': return "\\|";
	case ']': return p[1] == '(' || p[1] == '[' ? "\\]" : NULL;
	case '`': return "\\`";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '&': return "&amp;";
	default: return NULL;
	}
}

/* The escaped s to f for destination d. In every destination a control
 * character or a byte that is not UTF-8 is shown as the terminal shows it
 * (\n, \x1B, \u202E), so no destination gets a raw newline; Markdown
 * doubles that backslash so it renders, CSV doubles '"' (the caller
 * quotes). */
static int put(const char *s, FILE *f, enum dest d)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		char e[12];
		size_t elen;
		const char *m = d == MD ? md_char(p) : d == CSV && *p == '"' ? "\"\"" : NULL;

		if (m) {
			p++;
			if (fputs(m, f) == EOF)
				return -1;
			continue;
		}
		p += one(p, e, &elen);
		if (d == MD && e[0] == '\\' && fputc('\\', f) == EOF)
			return -1;
		if (fwrite(e, 1, elen, f) != elen)
			return -1;
	}
	return 0;
}

void tl_term_fputs(const char *s, FILE *f)
{
	put(s, f, TERM);
}

int tl_md_fputs(const char *s, FILE *f)
{
	return put(s, f, MD);
}

int tl_csv_fputs(const char *s, FILE *f)
{
	const char *t = s ? s : "";
	size_t n = strlen(t);
	/* A spreadsheet runs a cell that starts with = + - @ (or a tab or CR,
	 * escaped here anyway) as a formula: a leading ' makes it text. */
	bool formula = t[0] && strchr("=+-@", t[0]);
	bool quote = formula || strpbrk(t, ",\"") || (n && (t[0] == ' ' || t[n - 1] == ' '));

	if (quote && fputs(formula ? "\"'" : "\"", f) == EOF)
		return -1;
	if (put(t, f, CSV) < 0)
		return -1;
	return quote && fputc('"', f) == EOF ? -1 : 0;
}

char *tl_draw_safe(const char *s, char *out, size_t len)
{
	return tl_term_safe(s, out, len);
}

int tl_term_fpad(const char *s, int width, FILE *f)
{
	char safe[512];

	return fprintf(f, "%-*s", width, tl_term_safe(s, safe, sizeof safe)) < 0 ? -1 : 0;
}
