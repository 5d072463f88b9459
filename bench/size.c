#include "config.h"

#include "bench/size.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pcre2.h>

#include "base/suggest.h"
#include "base/xalloc.h"

static const char accepted[] =
	"accepted: 0, bytes (4096), a number with a binary unit (32KiB, 27.5MiB, 4M, 4k, 1GiB; "
	"k/K/KB/KiB = 1024, M = 1024^2, G = 1024^3, T = 1024^4) or a multiple of a cache "
	"level (4xL1, 4xL2, 0.5xL3)";

/* Groups: 1 multiple, 2 cache level | 3 whole part, 4 fraction, 5 unit. */
static const char pattern[] = "^\\s*(?:"
			      "([0-9]+(?:\\.[0-9]{1,6})?)\\s*[xX]\\s*L([123])"
			      "|"
			      "([0-9]+)(?:\\.([0-9]{1,6}))?\\s*([kKmMgGtT](?:i?[bB])?|[bB])?"
			      ")\\s*$";

static pcre2_code *re;
static char re_error[160];
static pthread_once_t re_once = PTHREAD_ONCE_INIT;

static void compile_once(void)
{
	int err;
	PCRE2_SIZE off;
	re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[120];
		pcre2_get_error_message(err, msg, sizeof msg);
		snprintf(re_error, sizeof re_error, "size pattern does not compile at %zu: %s",
			 (size_t)off, (const char *)msg);
	}
}

static int bad(char *why, size_t whylen, const char *text, const char *problem)
{
	snprintf(why, whylen, "bad size \"%s\": %s; %s", text, problem, accepted);
	return -1;
}

/* "4xL9", "4xl2": N x L and what follows the L (its level), or NULL when
 * text is not of that shape. */
static const char *cache_multiple(const char *text, size_t *num_len, size_t *level_len)
{
	const char *p = text + strspn(text, " \t"), *x, *l;

	*num_len = strspn(p, "0123456789.");
	x = p + *num_len + strspn(p + *num_len, " \t");
	if (!*num_len || (*x != 'x' && *x != 'X'))
		return NULL;
	l = x + 1 + strspn(x + 1, " \t");
	if (*l != 'L' && *l != 'l')
		return NULL;
	*level_len = strspn(l + 1, "0123456789");
	if (l[1 + *level_len + strspn(l + 1 + *level_len, " \t")] != '\0')
		return NULL;
	return l + 1;
}

/* A text the pattern refused, read again for the slips it can name: a
 * cache level that does not exist (4xL9) is said as the problem; a level
 * or a unit in the wrong case (4xl2, 32KIB) is offered fixed. */
static int refuse(char *why, size_t whylen, const char *text)
{
	const char *p = text + strspn(text, " \t");
	size_t nl, ll;
	const char *level = cache_multiple(text, &nl, &ll);
	char fix[64], unit[8], canon[8];

	if (level && !(ll == 1 && *level >= '1' && *level <= '3')) {
		char msg[96];

		if (ll)
			snprintf(msg, sizeof msg, "L%.*s is not a cache level (L1, L2 and L3 are)",
				 (int)ll, level);
		else
			snprintf(msg, sizeof msg, "no cache level after the L (L1, L2 or L3)");
		return bad(why, whylen, text, msg);
	}
	bad(why, whylen, text, *text ? "not a size" : "empty");
	if (level && nl < 32) {
		snprintf(fix, sizeof fix, "%.*sxL%c", (int)nl, p, *level);
		tl_suggest_append_fix(why, whylen, fix);
		return -1;
	}
	nl = strspn(p, "0123456789.");
	snprintf(unit, sizeof unit, "%.7s", p + nl);
	unit[strcspn(unit, " \t")] = '\0';
	if (nl && nl < 32 && tl_suggest(unit, "KiB, MiB, GiB, TiB", canon, sizeof canon) &&
	    strcasecmp(unit, canon) == 0) {
		snprintf(fix, sizeof fix, "%.*s%s", (int)nl, p, canon);
		tl_suggest_append_fix(why, whylen, fix);
	}
	return -1;
}

static uint64_t unit_bytes(const char *u, size_t len)
{
	if (len == 0)
		return 1;
	switch (u[0]) {
	case 'k': case 'K': return 1ULL << 10;
	case 'm': case 'M': return 1ULL << 20;
	case 'g': case 'G': return 1ULL << 30;
	case 't': case 'T': return 1ULL << 40;
	default: return 1; /* "B" */
	}
}

/* whole.frac × mult in exact integer arithmetic (27.5MiB is 28835840, not
 * a rounded double), rounded to the nearest byte. */
static int scale(const char *whole, size_t wl, const char *frac, size_t fl, uint64_t mult,
		 uint64_t *out)
{
	uint64_t w = 0, f = 0, pow10 = 1, r;
	if (wl > 19)
		return -1;
	for (size_t i = 0; i < wl; i++) {
		uint64_t d = (uint64_t)(whole[i] - '0');
		if (w > (UINT64_MAX - d) / 10)
			return -1;
		w = w * 10 + d;
	}
	for (size_t i = 0; i < fl; i++) {
		f = f * 10 + (uint64_t)(frac[i] - '0');
		pow10 *= 10;
	}
	if (w > UINT64_MAX / mult)
		return -1;
	r = w * mult;
	/* f < 10^6 and mult <= 2^40, so f*mult < 2^60: no overflow. */
	uint64_t part = (f * mult + pow10 / 2) / pow10;
	if (r > UINT64_MAX - part)
		return -1;
	*out = r + part;
	return 0;
}

static int cache_level(const struct tl_topology *topo, int level, uint64_t *bytes,
		       const char *text, char *why, size_t whylen)
{
	char msg[128];
	if (!topo)
		return bad(why, whylen, text, "cache sizes are unknown (hwloc found no caches for this CPU)");
	*bytes = level == 1 ? topo->l1d : level == 2 ? topo->l2 : topo->l3;
	if (*bytes)
		return 0;
	snprintf(msg, sizeof msg, "this CPU reports no L%d%s cache", level, level == 1 ? " data" : "");
	return bad(why, whylen, text, msg);
}

static int from_match(const char *text, PCRE2_SIZE *ov, int rc, const struct tl_topology *topo,
		      uint64_t *bytes, char *why, size_t whylen)
{
#define G(i) (rc > (i) && ov[2 * (i)] != PCRE2_UNSET)
#define S(i) (text + ov[2 * (i)])
#define L(i) ((size_t)(ov[2 * (i) + 1] - ov[2 * (i)]))
	if (G(2)) {
		uint64_t level_bytes;
		const char *num = S(1), *dot = memchr(num, '.', L(1));
		size_t wl = dot ? (size_t)(dot - num) : L(1);
		if (cache_level(topo, S(2)[0] - '0', &level_bytes, text, why, whylen))
			return -1;
		if (scale(num, wl, dot ? dot + 1 : "", dot ? L(1) - wl - 1 : 0, level_bytes, bytes))
			return bad(why, whylen, text, "too large");
		if (*bytes == 0)
			return bad(why, whylen, text, "the multiple N in NxLk must be positive");
		return 0;
	}
	if (G(4) && !(G(5) && L(5) > 0 && S(5)[0] != 'b' && S(5)[0] != 'B'))
		return bad(why, whylen, text, "a fraction needs a unit (bytes are whole)");
	if (scale(S(3), L(3), G(4) ? S(4) : "", G(4) ? L(4) : 0, G(5) ? unit_bytes(S(5), L(5)) : 1,
		  bytes))
		return bad(why, whylen, text, "too large");
	return 0;
#undef G
#undef S
#undef L
}

uint64_t tl_flush_max_bytes(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
	if (pages <= 0 || page <= 0)
		return UINT64_MAX / 2;
	return (uint64_t)pages * (uint64_t)page / 2;
}

int tl_size_parse(const char *text, const struct tl_topology *topo, uint64_t *bytes, char *why,
		  size_t whylen)
{
	pcre2_match_data *md;
	int rc;
	uint64_t max = tl_flush_max_bytes();

	pthread_once(&re_once, compile_once);
	if (!re) {
		snprintf(why, whylen, "%s", re_error);
		return -1;
	}
	if (!text)
		text = "";
	md = pcre2_match_data_create_from_pattern(re, NULL);
	if (!md)
		tl_fail("out of memory (PCRE2 match data)");
	rc = pcre2_match(re, (PCRE2_SPTR)text, strlen(text), 0, 0, md, NULL);
	if (rc < 0) {
		pcre2_match_data_free(md);
		return refuse(why, whylen, text);
	}
	rc = from_match(text, pcre2_get_ovector_pointer(md), rc, topo, bytes, why, whylen);
	pcre2_match_data_free(md);
	if (rc)
		return -1;
	if (*bytes > max) {
		char b[32], m[32], msg[128];
		tl_size_format(*bytes, b, sizeof b);
		tl_size_format(max > UINT64_MAX / 2 ? UINT64_MAX : 2 * max, m, sizeof m);
		snprintf(msg, sizeof msg, "needs %s; the limit is half of this machine's %s", b, m);
		return bad(why, whylen, text, msg);
	}
	return 0;
}

void tl_size_format(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	size_t u = 0;
	double v = (double)bytes;
	char num[32], *p;

	if (bytes == 0) {
		snprintf(buf, len, "0");
		return;
	}
	while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
		v /= 1024;
		u++;
	}
	/* Two decimals at most, trailing zeros dropped: 27.5MiB, 48KiB, 1.88GiB. */
	snprintf(num, sizeof num, "%.2f", v);
	p = num + strlen(num) - 1;
	while (*p == '0')
		*p-- = '\0';
	if (*p == '.')
		*p = '\0';
	snprintf(buf, len, "%s%s", num, units[u]);
}
