#include "config.h"

#include "bench/kernel.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <gsl/gsl_rng.h>

#include "backends/backend.h"
#include "backends/timed.h"
#include "base/suggest.h"
#include "base/xalloc.h"
#include "bench/load_sizes.h"
#include "bench/size.h"

/* The table's warning names the ADDs the kernel deals into overlapping pieces. */
_Static_assert(TL_JITTER_OVERLAP_ADDS == TL_JITTER_PIECES * TL_JITTER_PIECE,
	       "TL_JITTER_OVERLAP_ADDS is the jitter kernel's pieces x their ADDs");

static const char accepted[] =
	"accepted: empty, add:K, add:START:END:STEP, mul:K, mul:START:END:STEP, fma:K, "
	"fma:START:END:STEP, jitter:K,D,P, load:SIZE[,K], load:SIZE+SIZE+...[,K], "
	"load:LO..HI[,K] (K integers 0.." TL_KERNEL_MAX_K_TEXT ", jitter's D 0.."
	TL_JITTER_MAX_D_TEXT " ADDs, or D in ns as 5ns (0.."
	TL_KERNEL_MAX_D_NS_TEXT "), 0 <= P <= 1, SIZE a flush size >= 64 bytes such as 32KiB "
	"or 4xL2)";

static int fail(char *why, size_t whylen, const char *fmt, const char *bad)
{
	char head[640];
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

/* A decimal number of ns (digits, one point): no sign, no exponent. */
static int parse_ns(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (len == 0 || len >= sizeof buf || strspn(s, "0123456789.") < len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	if (errno || *end || !isfinite(*v) || *v < 0 || *v > TL_KERNEL_MAX_D_NS)
		return -1;
	return 0;
}

/* Appends to a list that only push grows, from NULL: its capacity is then
 * 16 or the next power of two, so growing doubles it (one realloc per item
 * made add:0:9999:1 quadratic, 63 s under ASan). */
static int push(struct tl_kernel **out, size_t *n, const struct tl_kernel *k)
{
	if (*n >= TL_KERNEL_MAX_LIST)
		return -1;
	if (*n == 0 || (*n >= 16 && (*n & (*n - 1)) == 0))
		*out = tl_xrealloc(*out, *n ? 2 * *n : 16, sizeof **out);
	(*out)[*n] = *k;
	(*n)++;
	return 0;
}

/* push fails only on a full list. */
static int push_fail(const char *tok, char *why, size_t whylen)
{
	return fail(why, whylen, "too many kernels at \"%s\": a list takes at most "
		    TL_KERNEL_MAX_LIST_TEXT, tok);
}

static void label(struct tl_kernel *k)
{
	char buf15[32];

	snprintf(buf15, sizeof buf15, "%.15g", k->d_ns);
	switch (k->kind) {
	case TL_KERNEL_EMPTY:
		snprintf(k->label, sizeof k->label, "empty");
		break;
	case TL_KERNEL_ADD:
		snprintf(k->label, sizeof k->label, "add:%llu", (unsigned long long)k->k);
		break;
	case TL_KERNEL_JITTER:
		/* The shortest ns text that reads back to the same double: the
		 * label is read back through the parser. */
		if (k->d_ns > 0)
			snprintf(k->label, sizeof k->label, "jitter:%llu,%.*gns,%g",
				 (unsigned long long)k->k, strtod(buf15, NULL) == k->d_ns ? 15 : 17,
				 k->d_ns, k->p);
		else
			snprintf(k->label, sizeof k->label, "jitter:%llu,%llu,%g",
				 (unsigned long long)k->k, (unsigned long long)k->d, k->p);
		break;
	case TL_KERNEL_MUL:
		snprintf(k->label, sizeof k->label, "mul:%llu", (unsigned long long)k->k);
		break;
	case TL_KERNEL_FMA:
		snprintf(k->label, sizeof k->label, "fma:%llu", (unsigned long long)k->k);
		break;
	case TL_KERNEL_LOAD: {
		/* Exact, so the label parses back to the same buffer (results
		 * files are read back through the parser). */
		unsigned long long b = (unsigned long long)k->bytes;
		if (b % (1ULL << 20) == 0)
			snprintf(k->label, sizeof k->label, "load:%lluMiB,%llu", b >> 20,
				 (unsigned long long)k->k);
		else if (b % 1024 == 0)
			snprintf(k->label, sizeof k->label, "load:%lluKiB,%llu", b >> 10,
				 (unsigned long long)k->k);
		else
			snprintf(k->label, sizeof k->label, "load:%llu,%llu", b,
				 (unsigned long long)k->k);
		break;
	}
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

/* add:, mul: and fma: share one grammar: K or START:END:STEP. */
static int parse_chain(enum tl_kernel_kind kind, const char *tok, const char *args, size_t alen,
		       struct tl_kernel **out, size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf = split(args, alen, ':', f, fl, 3);
	uint64_t v[3];
	struct tl_kernel k = { .kind = kind };
	char head[160];

	if (nf != 1 && nf != 3)
		return fail(why, whylen, "bad kernel \"%s\": it takes K or START:END:STEP", tok);
	for (size_t i = 0; i < nf; i++)
		if (parse_count(f[i], fl[i], &v[i])) {
			snprintf(head, sizeof head, "bad kernel \"%%s\": %s counts must be whole "
				 "numbers 0.." TL_KERNEL_MAX_K_TEXT, tl_kernel_op(kind));
			return fail(why, whylen, head, tok);
		}
	if (nf == 1) {
		k.k = v[0];
		label(&k);
		return push(out, n, &k) ? push_fail(tok, why, whylen) : 0;
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
			return push_fail(tok, why, whylen);
		if (v[1] - x < v[2])
			break; /* the next step would pass END (or wrap) */
	}
	return 0;
}

static int parse_load(const char *tok, const char *args, size_t alen,
		      const struct tl_topology *topo, struct tl_kernel **out, size_t *n, char *why,
		      size_t whylen);

static int parse_jitter(const char *tok, const char *args, size_t alen, struct tl_kernel **out,
			size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf = split(args, alen, ',', f, fl, 3);
	struct tl_kernel k = { .kind = TL_KERNEL_JITTER };

	if (nf != 3)
		return fail(why, whylen, "bad kernel \"%s\": jitter takes K,D,P", tok);
	if (parse_count(f[0], fl[0], &k.k))
		return fail(why, whylen,
			    "bad kernel \"%s\": K must be a whole number 0.." TL_KERNEL_MAX_K_TEXT, tok);
	if (fl[1] > 2 && !strncmp(f[1] + fl[1] - 2, "ns", 2) ? parse_ns(f[1], fl[1] - 2, &k.d_ns)
							     : parse_count(f[1], fl[1], &k.d))
		return fail(why, whylen,
			    "bad kernel \"%s\": D must be a whole number of ADDs 0.."
			    TL_KERNEL_MAX_K_TEXT " or a time in ns 0.." TL_KERNEL_MAX_D_NS_TEXT
			    " such as 5ns or 2.5ns", tok);
	/* Beyond the pieces the kernel overlaps with K, a plain sample would
	 * pay for part of D too and the shift would fall short of D: refused
	 * here rather than delivered in part. */
	if (k.d > TL_JITTER_OVERLAP_ADDS)
		return fail(why, whylen,
			    "bad kernel \"%s\": D above " TL_JITTER_MAX_D_TEXT " ADDs: the injection "
			    "delivers the whole of D only up to " TL_JITTER_MAX_D_TEXT " ADDs (16 "
			    "pieces of 16 beside the K chain)", tok);
	if (parse_share(f[2], fl[2], &k.p))
		return fail(why, whylen, "bad kernel \"%s\": P must be a number in [0, 1]", tok);
	label(&k);
	return push(out, n, &k) ? push_fail(tok, why, whylen) : 0;
}

static int parse_load(const char *tok, const char *args, size_t alen,
		      const struct tl_topology *topo, struct tl_kernel **out, size_t *n, char *why,
		      size_t whylen)
{
	const char *f[2];
	size_t fl[2], nf = split(args, alen, ',', f, fl, 2), nsizes;
	struct tl_kernel k = { .kind = TL_KERNEL_LOAD, .k = TL_KERNEL_LOAD_DEFAULT_K };
	uint64_t sizes[TL_LOAD_MAX_SIZES];
	char size[96], swhy[512];

	if (nf != 1 && nf != 2)
		return fail(why, whylen, "bad kernel \"%s\": load takes SIZE or SIZE,K", tok);
	if (fl[0] >= sizeof size)
		return fail(why, whylen, "bad kernel \"%s\": SIZE too long", tok);
	snprintf(size, sizeof size, "%.*s", (int)fl[0], f[0]);
	if (tl_load_sizes_parse(size, topo, sizes, &nsizes, swhy, sizeof swhy) < 0) {
		snprintf(why, whylen, "bad kernel \"%s\": %s", tok, swhy);
		return -1;
	}
	if (nf == 2 && parse_count(f[1], fl[1], &k.k))
		return fail(why, whylen,
			    "bad kernel \"%s\": K (loads) must be a whole number 0.."
			    TL_KERNEL_MAX_K_TEXT, tok);
	for (size_t i = 0; i < nsizes; i++) {
		k.bytes = sizes[i];
		label(&k);
		if (push(out, n, &k))
			return push_fail(tok, why, whylen);
	}
	return 0;
}

static int parse_one(const char *s, size_t len, const struct tl_topology *topo,
		     struct tl_kernel **out, size_t *n, char *why, size_t whylen)
{
	char tok[256];
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
		return push(out, n, &k) ? push_fail(tok, why, whylen) : 0;
	}
	if (!strncmp(tok, "add:", 4))
		return parse_chain(TL_KERNEL_ADD, tok, tok + 4, len - 4, out, n, why, whylen);
	if (!strncmp(tok, "mul:", 4))
		return parse_chain(TL_KERNEL_MUL, tok, tok + 4, len - 4, out, n, why, whylen);
	if (!strncmp(tok, "fma:", 4))
		return parse_chain(TL_KERNEL_FMA, tok, tok + 4, len - 4, out, n, why, whylen);
	if (!strncmp(tok, "load:", 5))
		return parse_load(tok, tok + 5, len - 5, topo, out, n, why, whylen);
	if (!strncmp(tok, "jitter:", 7))
		return parse_jitter(tok, tok + 7, len - 7, out, n, why, whylen);
	fail(why, whylen, "unknown kernel \"%s\"", tok);
	tl_suggest_append_head(why, whylen, tok, ':', "empty, add, mul, fma, jitter, load");
	return -1;
}

/* The end of the list item starting at s: the next ',' — except that a
 * jitter spec owns the two commas of its K,D,P, and a load spec the comma
 * of its K when digits alone follow it ("load:32KiB,500,add:5"). */
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
	if (*p == ',' && !strncmp(s + strspn(s, " \t"), "load:", 5)) {
		size_t digits = strspn(p + 1, "0123456789");
		const char *after = p + 1 + digits + strspn(p + 1 + digits, " \t");
		if (digits && (!*after || *after == ','))
			return after;
	}
	return p;
}

int tl_kernel_parse_list(const char *text, struct tl_kernel **out, size_t *n, char *why,
			 size_t whylen)
{
	return tl_kernel_parse_list_topo(text, NULL, out, n, why, whylen);
}

int tl_kernel_parse_list_topo(const char *text, const struct tl_topology *topo,
			      struct tl_kernel **out, size_t *n, char *why, size_t whylen)
{
	const char *s = text;
	struct tl_kernel *list = NULL;
	size_t count = 0;

	if (!text || !*text)
		return fail(why, whylen, "no kernel given%s", "");
	/* Parsed into a list of our own (push's capacity rule needs that),
	 * then appended to the caller's in one step. */
	for (;;) {
		const char *e = item_end(s);
		if (count >= TL_KERNEL_MAX_LIST) {
			free(list);
			return fail(why, whylen, "more than " TL_KERNEL_MAX_LIST_TEXT
				    " kernels in \"%.40s...\"", text);
		}
		if (parse_one(s, (size_t)(e - s), topo, &list, &count, why, whylen)) {
			free(list);
			return -1;
		}
		if (!*e)
			break;
		s = e + 1;
	}
	*out = tl_xrealloc(*out, *n + count, sizeof **out);
	memcpy(*out + *n, list, count * sizeof *list);
	free(list);
	*n += count;
	return 0;
}

/* Exactly round(p*m) of the m positions idx[0..m) get the dependent path,
 * chosen by a partial Fisher-Yates: the injected share is then known, not
 * itself a random quantity. */
static void plan_arm(const struct tl_kernel *kern, enum tl_jitter_arm arm, gsl_rng *r, size_t *idx,
		     size_t m, uint64_t *adds)
{
	double p = arm == TL_JITTER_SWAPPED ? 1.0 - kern->p : kern->p;
	uint64_t d = tl_jitter_arm_d(kern, arm), tag = (uint64_t)arm << TL_JITTER_ARM_SHIFT;
	size_t extra = (size_t)llround(p * (double)m);

	for (size_t i = 0; i < m; i++)
		adds[idx[i]] = kern->k | tag;
	for (size_t i = 0; i < extra; i++) {
		size_t j = i + (size_t)gsl_rng_uniform_int(r, (unsigned long)(m - i));
		size_t t = idx[i];
		idx[i] = idx[j];
		idx[j] = t;
		adds[idx[i]] = (kern->k + d) | TL_JITTER_DEP | tag;
	}
}

/* arms 3: the three interleaved arms; 1: one main arm over all n. */
static void plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n,
		 unsigned arms)
{
	gsl_rng *r;
	size_t *idx;

	for (size_t i = 0; i < n; i++)
		adds[i] = kern->kind == TL_KERNEL_EMPTY ? 0 : kern->k;
	if (kern->kind != TL_KERNEL_JITTER || n == 0)
		return;
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		tl_fail("out of memory (a random number generator)");
	gsl_rng_set(r, (unsigned long)(seed ^ (seed >> 32)) + 1);
	idx = tl_xcalloc(n / arms + 1, sizeof *idx);
	for (unsigned a = 0; a < arms; a++) {
		size_t m = 0;

		for (size_t i = a; i < n; i += arms)
			idx[m++] = i;
		plan_arm(kern, (enum tl_jitter_arm)a, r, idx, m, adds);
	}
	free(idx);
	gsl_rng_free(r);
}

void tl_kernel_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n)
{
	plan(kern, seed, adds, n, TL_JITTER_ARMS);
}

void tl_kernel_plan_main_only(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds,
			      size_t n)
{
	plan(kern, seed, adds, n, 1);
}

const char *tl_kernel_op(enum tl_kernel_kind kind)
{
	switch (kind) {
	case TL_KERNEL_ADD:
	case TL_KERNEL_JITTER:
		return "ADD";
	case TL_KERNEL_MUL:
		return "MUL";
	case TL_KERNEL_FMA:
		return "FMA";
	case TL_KERNEL_LOAD:
		return "load";
	case TL_KERNEL_EMPTY:
		break;
	}
	return NULL;
}

int tl_kernel_runnable(const struct tl_kernel *k, char *why, size_t whylen)
{
	if (k->kind == TL_KERNEL_FMA && !tl_fma_supported(why, whylen))
		return -1;
	return 0;
}

#define CHASE_HUGE ((size_t)2 << 20)

static size_t chase_mapped_bytes(uint64_t bytes)
{
	size_t used = (size_t)(bytes / 64 * 64);

	return (used + CHASE_HUGE - 1) / CHASE_HUGE * CHASE_HUGE;
}

/* Whole 2 MiB pages with the huge-page hint, at every size: with 4 KiB
 * pages a chase past a few MiB also misses the TLB on almost every load
 * (and under a hypervisor each miss walks two page tables), so the ladder
 * would step where the TLB's reach ends, not where a cache does. A fresh
 * mapping of its own, never malloc: once a chase of 32 MiB is freed,
 * glibc's mmap threshold follows it and serves every smaller buffer from
 * its heap, whose pages were faulted in at 4 KiB before any hint, so from
 * the levels' second pass on a 2-8 MiB chase read TLB misses as memory.
 * The hint comes before the first touch, when huge pages are given. */
static void *chase_alloc(size_t alloc)
{
	size_t span = alloc + CHASE_HUGE;
	char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start;
	size_t head;

	if (raw == MAP_FAILED)
		return NULL;
	start = ((uintptr_t)raw + CHASE_HUGE - 1) / CHASE_HUGE * CHASE_HUGE;
	head = (size_t)(start - (uintptr_t)raw);
	if (head)
		(void)munmap(raw, head);
	(void)munmap((char *)start + alloc, span - head - alloc);
#ifdef MADV_HUGEPAGE
	(void)madvise((void *)start, alloc, MADV_HUGEPAGE);
#endif
	return (void *)start;
}

void tl_kernel_chase_free(void *buf, uint64_t bytes)
{
	if (buf)
		(void)munmap(buf, chase_mapped_bytes(bytes));
}

void *tl_kernel_chase_layout(uint64_t bytes, uint64_t seed)
{
	size_t lines = (size_t)(bytes / 64), words = 64 / sizeof(void *);
	void **buf;
	size_t *order;
	gsl_rng *r;

	if (lines == 0 || (buf = chase_alloc(chase_mapped_bytes(bytes))) == NULL)
		return NULL;
	/* order grows with the user's SIZE as buf does: checked the same way. */
	order = malloc(lines * sizeof *order);
	if (!order) {
		tl_kernel_chase_free(buf, bytes);
		return NULL;
	}
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		tl_fail("out of memory (a random number generator)");
	gsl_rng_set(r, (unsigned long)(seed ^ (seed >> 32)) + 1);
	/* Sattolo's shuffle yields a single cycle through every line, so a
	 * chase of any length never settles into a short loop that caches. */
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines; i > 1; i--) {
		size_t j = (size_t)gsl_rng_uniform_int(r, (unsigned long)(i - 1));
		size_t t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	/* Writing every line also faults the pages in before sampling. */
	for (size_t i = 0; i < lines; i++) {
		void **line = buf + order[i] * words;
		line[0] = buf + order[(i + 1) % lines] * words;
		for (size_t w = 1; w < words; w++)
			line[w] = NULL;
	}
	free(order);
	gsl_rng_free(r);
	return buf;
}
