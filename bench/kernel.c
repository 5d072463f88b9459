#include "config.h"

#include "bench/kernel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

static const char accepted[] =
	"accepted: empty, add:K, add:START:END:STEP, jitter:K,D,P "
	"(K, D integers 0.." TL_KERNEL_MAX_K_TEXT ", 0 <= P <= 1)";

static int fail(char *why, size_t whylen, const char *fmt, const char *bad)
{
	char head[320];
	snprintf(head, sizeof head, fmt, bad);
	snprintf(why, whylen, "%s; %s", head, accepted);
	return -1;
}

/* Digits only: no sign, no spaces, no hex, nothing after. Bounded so a
 * single measurement stays well under a second. */
static int parse_count(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
		if (x > TL_KERNEL_MAX_K)
			return -1;
	}
	*v = x;
	return 0;
}

static int parse_share(const char *s, size_t len, double *p)
{
	char buf[64], *end;
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!isdigit((unsigned char)buf[0]) && buf[0] != '.')
		return -1;
	errno = 0;
	*p = strtod(buf, &end);
	if (errno || *end || !isfinite(*p) || *p < 0 || *p > 1)
		return -1;
	return 0;
}

static int push(struct tl_kernel **out, size_t *n, const struct tl_kernel *k)
{
	struct tl_kernel *grown = realloc(*out, (*n + 1) * sizeof **out);
	if (!grown)
		return -1;
	grown[*n] = *k;
	*out = grown;
	(*n)++;
	return 0;
}

static void label(struct tl_kernel *k)
{
	switch (k->kind) {
	case TL_KERNEL_EMPTY:
		snprintf(k->label, sizeof k->label, "empty");
		break;
	case TL_KERNEL_ADD:
		snprintf(k->label, sizeof k->label, "add:%llu", (unsigned long long)k->k);
		break;
	case TL_KERNEL_JITTER:
		snprintf(k->label, sizeof k->label, "jitter:%llu,%llu,%g", (unsigned long long)k->k,
			 (unsigned long long)k->d, k->p);
		break;
	}
}

/* Splits "a:b:c" on ':' into at most max fields; returns the field count. */
static size_t split(const char *s, size_t len, char sep, const char **f, size_t *fl, size_t max)
{
	size_t nf = 0;
	const char *start = s;
	for (size_t i = 0; i <= len; i++) {
		if (i == len || s[i] == sep) {
			if (nf == max)
				return max + 1;
			f[nf] = start;
			fl[nf] = (size_t)(s + i - start);
			nf++;
			start = s + i + 1;
		}
	}
	return nf;
}

static int parse_add(const char *tok, const char *args, size_t alen, struct tl_kernel **out,
		     size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf = split(args, alen, ':', f, fl, 3);
	uint64_t v[3];
	struct tl_kernel k = { .kind = TL_KERNEL_ADD };

	if (nf != 1 && nf != 3)
		return fail(why, whylen, "bad kernel \"%s\": add takes K or START:END:STEP", tok);
	for (size_t i = 0; i < nf; i++)
		if (parse_count(f[i], fl[i], &v[i]))
			return fail(why, whylen,
				    "bad kernel \"%s\": ADD counts must be whole numbers 0.."
				    TL_KERNEL_MAX_K_TEXT, tok);
	if (nf == 1) {
		k.k = v[0];
		label(&k);
		return push(out, n, &k) ? fail(why, whylen, "out of memory at \"%s\"", tok) : 0;
	}
	if (v[2] == 0)
		return fail(why, whylen, "bad kernel range \"%s\": STEP must be > 0", tok);
	if (v[1] < v[0])
		return fail(why, whylen, "bad kernel range \"%s\": END must be >= START", tok);
	if ((v[1] - v[0]) / v[2] + 1 > TL_KERNEL_MAX_RANGE)
		return fail(why, whylen,
			    "bad kernel range \"%s\": more than " TL_KERNEL_MAX_RANGE_TEXT
			    " kernels",
			    tok);
	for (uint64_t x = v[0]; x <= v[1]; x += v[2]) {
		k.k = x;
		label(&k);
		if (push(out, n, &k))
			return fail(why, whylen, "out of memory at \"%s\"", tok);
		if (v[1] - x < v[2])
			break; /* the next step would pass END (or wrap) */
	}
	return 0;
}

static int parse_jitter(const char *tok, const char *args, size_t alen, struct tl_kernel **out,
			size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf = split(args, alen, ',', f, fl, 3);
	struct tl_kernel k = { .kind = TL_KERNEL_JITTER };

	if (nf != 3)
		return fail(why, whylen, "bad kernel \"%s\": jitter takes K,D,P", tok);
	if (parse_count(f[0], fl[0], &k.k) || parse_count(f[1], fl[1], &k.d))
		return fail(why, whylen,
			    "bad kernel \"%s\": K and D must be whole numbers 0.."
			    TL_KERNEL_MAX_K_TEXT, tok);
	if (parse_share(f[2], fl[2], &k.p))
		return fail(why, whylen, "bad kernel \"%s\": P must be a number in [0, 1]", tok);
	label(&k);
	return push(out, n, &k) ? fail(why, whylen, "out of memory at \"%s\"", tok) : 0;
}

static int parse_one(const char *s, size_t len, struct tl_kernel **out, size_t *n, char *why,
		     size_t whylen)
{
	char tok[128];
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return fail(why, whylen, "empty kernel name in the list%s", "");
	snprintf(tok, sizeof tok, "%.*s", (int)len, s);
	if (len >= sizeof tok)
		return fail(why, whylen, "kernel spec too long: \"%s...\"", tok);

	if (!strcmp(tok, "empty")) {
		struct tl_kernel k = { .kind = TL_KERNEL_EMPTY };
		label(&k);
		return push(out, n, &k) ? fail(why, whylen, "out of memory at \"%s\"", tok) : 0;
	}
	if (!strncmp(tok, "add:", 4))
		return parse_add(tok, tok + 4, len - 4, out, n, why, whylen);
	if (!strncmp(tok, "jitter:", 7))
		return parse_jitter(tok, tok + 7, len - 7, out, n, why, whylen);
	return fail(why, whylen, "unknown kernel \"%s\"", tok);
}

/* The end of the list item starting at s: the next ',' — except that a
 * jitter spec owns the two commas of its K,D,P. */
static const char *item_end(const char *s)
{
	const char *p = s;
	int commas = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "jitter:", 7))
		commas = 2;
	for (; *p; p++)
		if (*p == ',' && commas-- == 0)
			break;
	return p;
}

int tl_kernel_parse_list(const char *text, struct tl_kernel **out, size_t *n, char *why,
			 size_t whylen)
{
	const char *s = text;
	size_t before = *n;

	if (!text || !*text)
		return fail(why, whylen, "no kernel given%s", "");
	for (;;) {
		const char *e = item_end(s);
		if (parse_one(s, (size_t)(e - s), out, n, why, whylen)) {
			*n = before;
			return -1;
		}
		if (!*e)
			return 0;
		s = e + 1;
	}
}

void tl_kernel_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n)
{
	size_t extra;
	gsl_rng *r;

	for (size_t i = 0; i < n; i++)
		adds[i] = kern->kind == TL_KERNEL_EMPTY ? 0 : kern->k;
	if (kern->kind != TL_KERNEL_JITTER || kern->d == 0 || n == 0)
		return;

	/* Exactly round(p*n) jittered measurements at seeded positions (a partial
	 * Fisher-Yates over an index list): the injected share is then known,
	 * not itself a random quantity. */
	extra = (size_t)llround(kern->p * (double)n);
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		abort();
	gsl_rng_set(r, (unsigned long)(seed ^ (seed >> 32)) + 1);
	size_t *idx = malloc(n * sizeof *idx);
	if (!idx)
		abort();
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t i = 0; i < extra; i++) {
		size_t j = i + (size_t)gsl_rng_uniform_int(r, (unsigned long)(n - i));
		size_t t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		adds[idx[i]] = kern->k + kern->d;
	}
	free(idx);
	gsl_rng_free(r);
}
