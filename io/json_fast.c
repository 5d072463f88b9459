#include "config.h"

#include "io/json_fast.h"

#include "io/json_read.h"

#include <errno.h>
#include <langinfo.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Deeper than any file ticklab writes and far below jansson's own limit,
 * so jansson is the one that says when a text nests too deep. */
#define DEPTH_MAX 256

struct fj {
	const unsigned char *p, *end;
	unsigned depth;
	bool dot_ok; /* strtod reads '.' (the locale's radix), so it may read what is not exact here */
	char *tmp;   /* a string with escapes, unescaped */
	size_t tmpcap;
};

static bool is_digit(unsigned c)
{
	return c - '0' < 10u;
}

static void ws(struct fj *f)
{
	while (f->p < f->end && (*f->p == ' ' || *f->p == '\n' || *f->p == '\r' || *f->p == '\t'))
		f->p++;
}

/* One UTF-8 sequence that jansson accepts (not overlong, no surrogate, at
 * most U+10FFFF) at p, its length in *n. */
static bool utf8_seq(const unsigned char *p, const unsigned char *end, size_t *n)
{
	unsigned c = p[0], need, v;

	if (c < 0xC2 || c > 0xF4)
		return false;
	need = c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
	if ((size_t)(end - p) <= need)
		return false;
	v = c & (0x3Fu >> need);
	for (unsigned i = 1; i <= need; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return false;
		v = v << 6 | (p[i] & 0x3F);
	}
	if (need == 2 && (v < 0x800 || (v >= 0xD800 && v <= 0xDFFF)))
		return false;
	if (need == 3 && (v < 0x10000 || v > 0x10FFFF))
		return false;
	*n = need + 1;
	return true;
}

/* The guard in io/json_read.c refuses a long string with its own words:
 * one that long is left to that path (a margin for its closing quote). */
static bool too_long(size_t n)
{
	return n + 2 >= TL_READ_STRING_MAX;
}

static bool tmp_room(struct fj *f, size_t n)
{
	char *t;

	if (n <= f->tmpcap)
		return true;
	t = realloc(f->tmp, n * 2);
	if (!t)
		return false;
	f->tmp = t;
	f->tmpcap = n * 2;
	return true;
}

static int unescape(unsigned c)
{
	switch (c) {
	case '"': return '"';
	case '\\': return '\\';
	case '/': return '/';
	case 'b': return '\b';
	case 'f': return '\f';
	case 'n': return '\n';
	case 'r': return '\r';
	case 't': return '\t';
	default: return -1; /* \u (left to jansson) or not an escape */
	}
}

/* A string with escapes, from start (after its opening quote): unescaped
 * into f->tmp. */
static bool string_escaped(struct fj *f, const unsigned char *start, const char **s, size_t *n)
{
	const unsigned char *p = start;
	size_t out = 0;

	while (p < f->end && *p != '"') {
		size_t k = 1;
		int c = *p;

		if (too_long((size_t)(p - start)) || !tmp_room(f, out + 4))
			return false;
		if (c == '\\') {
			if (p + 1 >= f->end || (c = unescape(p[1])) < 0)
				return false;
			k = 2;
		} else if (c < 0x20) {
			return false;
		} else if (c >= 0x80) {
			if (!utf8_seq(p, f->end, &k))
				return false;
			memcpy(f->tmp + out, p, k);
			out += k;
			p += k;
			continue;
		}
		f->tmp[out++] = (char)c;
		p += k;
	}
	if (p == f->end)
		return false;
	*s = f->tmp;
	*n = out;
	f->p = p + 1;
	return true;
}

/* The string at f->p (its opening quote); its bytes in *s and *n, in the
 * text itself unless it had escapes (*esc; then in f->tmp). */
static bool string(struct fj *f, const char **s, size_t *n, bool *esc)
{
	const unsigned char *p = f->p + 1, *start = p;

	*esc = false;
	for (;;) {
		unsigned c;
		size_t k;

		if (p == f->end)
			return false;
		c = *p;
		if (c == '"')
			break;
		if (c == '\\') {
			*esc = true;
			return string_escaped(f, start, s, n);
		}
		if (c < 0x20)
			return false;
		if (c < 0x80) {
			p++;
			continue;
		}
		if (!utf8_seq(p, f->end, &k))
			return false;
		p += k;
	}
	if (too_long((size_t)(p - start)))
		return false;
	*s = (const char *)start;
	*n = (size_t)(p - start);
	f->p = p + 1;
	return true;
}

static const double pow10_exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const uint64_t pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL,
	10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL};

/* m / P against b * 2^k (k < 0, -k <= 64): -1, 0 or 1, in 128-bit
 * integers (m < 2^64 shifted by at most 64; b < 2^56 times P < 2^64). */
static int cmp_frac(uint64_t m, uint64_t pw, uint64_t b, int k)
{
	u128 l = (u128)m << (unsigned)-k, r = (u128)b * pw;

	return (l > r) - (l < r);
}

/* m / 10^p (m < 10^19, p <= 19) correctly rounded, as strtod would: a
 * candidate within an ulp or two, kept when the value lies strictly
 * between the midpoints to its neighbours (a tie, or a value outside
 * about [2^-10, 2^54], is strtod's to decide). The printed reals of
 * %.17g are mostly this case: 17 digits do not fit Clinger's 53 bits. */
static bool real_exact(uint64_t m, unsigned p, double *out)
{
	uint64_t pw = pow10_u64[p];
	double d = (double)m / (double)pw;

	for (int tries = 0; tries < 3 && d > 0; tries++) {
		int e, k;
		uint64_t mant, lo, hi;
		int cl, ch;

		mant = (uint64_t)ldexp(frexp(d, &e), 53);
		k = e - 53 - 2; /* the midpoints are (4 mant -+ 1 or 2) * 2^k */
		if (k >= 0 || k < -64)
			return false;
		lo = mant == (UINT64_C(1) << 52) ? 4 * mant - 1 : 4 * mant - 2;
		hi = 4 * mant + 2;
		cl = cmp_frac(m, pw, lo, k);
		ch = cmp_frac(m, pw, hi, k);
		if (cl > 0 && ch < 0) {
			*out = d;
			return true;
		}
		if (cl == 0 || ch == 0)
			return false;
		d = nextafter(d, cl < 0 ? 0.0 : INFINITY);
	}
	return false;
}
#else
static bool real_exact(uint64_t m, unsigned p, double *out)
{
	(void)m;
	(void)p;
	(void)out;
	return false;
}
#endif

/* What strtod makes of the number's text; false where jansson would
 * rather decide (out of range, a radix strtod does not read here). */
static bool real_by_strtod(const struct fj *f, const unsigned char *s, size_t len, double *v)
{
	char buf[128], *end;

	if (!f->dot_ok || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return end == buf + len && errno != ERANGE;
}

/* A JSON number: an integer (no fraction, no exponent) as jansson makes
 * it, else a real. A real whose significant digits (at most 19) fit in 53
 * bits and whose decimal exponent is within 22 is one exact product or
 * quotient of two doubles, so correctly rounded, as strtod's (Clinger's
 * fast path); the others go through strtod. */
static json_t *number(struct fj *f)
{
	const unsigned char *s = f->p, *p = f->p;
	bool neg = false, real = false;
	uint64_t m = 0;
	int sig = 0;
	long scale = 0, ex = 0;
	double v;

	if (*p == '-') {
		neg = true;
		p++;
	}
	if (p == f->end || !is_digit(*p))
		return NULL;
	if (*p == '0')
		p++;
	else
		for (; p < f->end && is_digit(*p); p++) {
			if (++sig <= 19)
				m = m * 10 + (*p - '0');
			else
				scale++;
		}
	if (p < f->end && *p == '.') {
		real = true;
		if (++p == f->end || !is_digit(*p))
			return NULL;
		for (; p < f->end && is_digit(*p); p++) {
			if (m == 0 && *p == '0') {
				scale--;
			} else if (++sig <= 19) {
				m = m * 10 + (*p - '0');
				scale--;
			}
		}
	}
	if (p < f->end && (*p == 'e' || *p == 'E')) {
		bool eneg = false;

		real = true;
		if (++p < f->end && (*p == '+' || *p == '-'))
			eneg = *p++ == '-';
		if (p == f->end || !is_digit(*p))
			return NULL;
		for (; p < f->end && is_digit(*p); p++)
			if (ex < 100000)
				ex = ex * 10 + (*p - '0');
		if (eneg)
			ex = -ex;
	}
	f->p = p;
	if (!real) /* jansson's strtoll reads 18 digits whatever they are; more: its turn */
		return sig <= 18 ? json_integer(neg ? -(json_int_t)m : (json_int_t)m) : NULL;
	scale += ex;
	if (sig <= 19 && m <= (UINT64_C(1) << 53) && scale >= -22 && scale <= 22) {
		v = scale >= 0 ? (double)m * pow10_exact[scale] : (double)m / pow10_exact[-scale];
		if (neg)
			v = -v;
	} else if (sig <= 19 && scale < 0 && scale >= -19 && real_exact(m, (unsigned)-scale, &v)) {
		if (neg)
			v = -v;
	} else if (!real_by_strtod(f, s, (size_t)(p - s), &v)) {
		return NULL;
	}
	return json_real(v);
}

static json_t *value(struct fj *f);

/* After an object's member or an array's element: 1 past the closing
 * bracket, 0 past a comma (at the next item), -1 for anything else. */
static int after_item(struct fj *f, char close)
{
	ws(f);
	if (f->p == f->end)
		return -1;
	if (*f->p == close) {
		f->p++;
		return 1;
	}
	if (*f->p != ',')
		return -1;
	f->p++;
	ws(f);
	return 0;
}

static json_t *object(struct fj *f)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	f->p++;
	ws(f);
	if (f->p < f->end && *f->p == '}') {
		f->p++;
		return o;
	}
	for (;;) {
		const char *k;
		size_t kn;
		bool esc;
		json_t *v;

		/* an escaped key would live in f->tmp, which the value reuses */
		if (f->p == f->end || *f->p != '"' || !string(f, &k, &kn, &esc) || esc)
			break;
		ws(f);
		if (f->p == f->end || *f->p != ':')
			break;
		f->p++;
		ws(f);
		if (json_object_getn(o, k, kn) || !(v = value(f)) ||
		    json_object_setn_new_nocheck(o, k, kn, v))
			break;
		int next = after_item(f, '}');

		if (next < 0)
			break;
		if (next > 0)
			return o;
	}
	json_decref(o);
	return NULL;
}

static json_t *array(struct fj *f)
{
	json_t *a = json_array();

	if (!a)
		return NULL;
	f->p++;
	ws(f);
	if (f->p < f->end && *f->p == ']') {
		f->p++;
		return a;
	}
	for (;;) {
		json_t *v = value(f);

		if (!v || json_array_append_new(a, v))
			break;
		int next = after_item(f, ']');

		if (next < 0)
			break;
		if (next > 0)
			return a;
	}
	json_decref(a);
	return NULL;
}

static json_t *literal(struct fj *f, const char *word, json_t *v)
{
	size_t n = strlen(word);

	if ((size_t)(f->end - f->p) < n || memcmp(f->p, word, n) != 0)
		return NULL;
	f->p += n;
	return v;
}

static json_t *value(struct fj *f)
{
	json_t *v = NULL;

	if (f->p == f->end)
		return NULL;
	switch (*f->p) {
	case '{':
	case '[':
		if (++f->depth > DEPTH_MAX)
			return NULL;
		v = *f->p == '{' ? object(f) : array(f);
		f->depth--;
		return v;
	case '"': {
		const char *s;
		size_t n;
		bool esc;

		return string(f, &s, &n, &esc) ? json_stringn_nocheck(s, n) : NULL;
	}
	case 't': return literal(f, "true", json_true());
	case 'f': return literal(f, "false", json_false());
	case 'n': return literal(f, "null", json_null());
	default: return *f->p == '-' || is_digit(*f->p) ? number(f) : NULL;
	}
}

json_t *tl_json_fast(const char *text, size_t len)
{
	const char *radix = nl_langinfo(RADIXCHAR);
	struct fj f = {.p = (const unsigned char *)text, .end = (const unsigned char *)text + len,
		       .dot_ok = radix && strcmp(radix, ".") == 0};
	json_t *doc = NULL;

	ws(&f);
	/* jansson (without JSON_DECODE_ANY) reads only an object or an array */
	if (f.p < f.end && (*f.p == '{' || *f.p == '['))
		doc = value(&f);
	if (doc) {
		ws(&f);
		if (f.p != f.end) {
			json_decref(doc);
			doc = NULL;
		}
	}
	free(f.tmp);
	return doc;
}
