#include "config.h"

#include "bench/kernel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <gsl/gsl_rng.h>

#include "backends/backend.h"
#include "base/suggest.h"
#include "base/xalloc.h"
#include "bench/kernels/kernel_ops.h"

/* "accepted: " and each family's forms, then what their numbers may be. */
static void accepted(char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "accepted:");
	const char *sep = " (";

	for (size_t i = 0; tl_kernel_table[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s", i ? "," : "",
					 tl_kernel_table[i]->grammar);
	for (size_t i = 0; tl_kernel_table[i] && used < len; i++)
		if (tl_kernel_table[i]->note) {
			used += (size_t)snprintf(buf + used, len - used, "%s%s", sep,
						 tl_kernel_table[i]->note);
			sep = ", ";
		}
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

int tl_kernel_fail(char *why, size_t whylen, const char *fmt, const char *bad)
{
	char head[640], list[1024];

	snprintf(head, sizeof head, fmt, bad);
	accepted(list, sizeof list);
	snprintf(why, whylen, "%s; %s", head, list);
	return -1;
}

/* Digits only: no sign, no spaces, no hex, nothing after. Bounded so a
 * single measurement stays well under a second. */
int tl_kernel_parse_count(const char *s, size_t len, uint64_t *v)
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

int tl_kernel_push(struct tl_kernel **out, size_t *n, struct tl_kernel *k, const char *tok,
		   char *why, size_t whylen)
{
	k->kind->describe(k);
	if (push(out, n, k) == 0)
		return 0;
	return tl_kernel_fail(why, whylen, "too many kernels at \"%s\": a list takes at most "
			      TL_KERNEL_MAX_LIST_TEXT, tok);
}

/* Splits "a:b:c" on ':' into at most max fields; returns the field count. */
size_t tl_kernel_split(const char *s, size_t len, char sep, const char **f, size_t *fl,
		       size_t max)
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

/* add:, mul:, fma: and the other counted chains share one grammar: K or
 * START:END:STEP. */
int tl_kernel_parse_counted(const struct tl_kernel_ops *ops, const char *tok, const char *args,
			    size_t alen, const struct tl_topology *topo, struct tl_kernel **out,
			    size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf;
	uint64_t v[3];
	struct tl_kernel k = { .kind = ops };
	char head[160];

	(void)topo;
	if (!args)
		return tl_kernel_fail(why, whylen, "unknown kernel \"%s\"", tok);
	nf = tl_kernel_split(args, alen, ':', f, fl, 3);

	if (nf != 1 && nf != 3)
		return tl_kernel_fail(why, whylen, "bad kernel \"%s\": it takes K or START:END:STEP", tok);
	for (size_t i = 0; i < nf; i++)
		if (tl_kernel_parse_count(f[i], fl[i], &v[i])) {
			snprintf(head, sizeof head, "bad kernel \"%%s\": %s counts must be whole "
				 "numbers 0.." TL_KERNEL_MAX_K_TEXT, ops->op);
			return tl_kernel_fail(why, whylen, head, tok);
		}
	if (nf == 1) {
		k.k = v[0];
		return tl_kernel_push(out, n, &k, tok, why, whylen);
	}
	if (v[2] == 0)
		return tl_kernel_fail(why, whylen, "bad kernel range \"%s\": STEP must be > 0", tok);
	if (v[1] < v[0])
		return tl_kernel_fail(why, whylen, "bad kernel range \"%s\": END must be >= START", tok);
	if ((v[1] - v[0]) / v[2] + 1 > TL_KERNEL_MAX_RANGE)
		return tl_kernel_fail(why, whylen,
			    "bad kernel range \"%s\": more than " TL_KERNEL_MAX_RANGE_TEXT
			    " kernels",
			    tok);
	for (uint64_t x = v[0]; x <= v[1]; x += v[2]) {
		k.k = x;
		if (tl_kernel_push(out, n, &k, tok, why, whylen))
			return -1;
		if (v[1] - x < v[2])
			break; /* the next step would pass END (or wrap) */
	}
	return 0;
}

void tl_kernel_describe_counted(struct tl_kernel *k)
{
	snprintf(k->label, sizeof k->label, "%s:%llu", k->kind->name, (unsigned long long)k->k);
}

/* The family whose spec starts s: its name and a ':' (or its bare name,
 * when it takes no arguments, ending the text at len). */
static const struct tl_kernel_ops *family_at(const char *s, size_t len)
{
	for (size_t i = 0; tl_kernel_table[i]; i++) {
		const struct tl_kernel_ops *ops = tl_kernel_table[i];
		size_t nl = strlen(ops->name);
		bool args = strchr(ops->grammar, ':') != NULL;

		if (nl <= len && !strncmp(s, ops->name, nl) &&
		    (args ? nl < len && s[nl] == ':' : nl == len))
			return ops;
	}
	return NULL;
}

static int parse_one(const char *s, size_t len, const struct tl_topology *topo,
		     struct tl_kernel **out, size_t *n, char *why, size_t whylen)
{
	char tok[256], names[256];
	const struct tl_kernel_ops *ops;
	size_t used = 0;

	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len == 0)
		return tl_kernel_fail(why, whylen, "empty kernel name in the list%s", "");
	snprintf(tok, sizeof tok, "%.*s", (int)len, s);
	if (len >= sizeof tok)
		return tl_kernel_fail(why, whylen, "kernel spec too long: \"%s...\"", tok);

	ops = family_at(tok, len);
	if (ops) {
		size_t nl = strlen(ops->name);
		return ops->parse(ops, tok, nl < len ? tok + nl + 1 : NULL, nl < len ? len - nl - 1 : 0,
				  topo, out, n, why, whylen);
	}
	tl_kernel_fail(why, whylen, "unknown kernel \"%s\"", tok);
	for (size_t i = 0; tl_kernel_table[i] && used < sizeof names; i++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
					 tl_kernel_table[i]->name);
	tl_suggest_append_head(why, whylen, tok, ':', names);
	return -1;
}

/* The end of the list item starting at s: the next ',' -- except that a
 * family may own commas of its own (jitter's K,D,P), and a load spec the
 * comma of its K when digits alone follow it ("load:32KiB,500,add:5"). */
static const char *item_end(const char *s)
{
	const char *p = s + strspn(s, " \t\n\v\f\r");
	const struct tl_kernel_ops *ops = family_at(p, strcspn(p, ",:") + (p[strcspn(p, ",:")] == ':'));
	unsigned commas = ops ? ops->commas : 0;

	for (; *p; p++)
		if (*p == ',' && commas-- == 0)
			break;
	if (*p == ',' && ops && ops->trailing_count) {
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
		return tl_kernel_fail(why, whylen, "no kernel given%s", "");
	/* Parsed into a list of our own (push's capacity rule needs that),
	 * then appended to the caller's in one step. */
	for (;;) {
		const char *e = item_end(s);
		if (count >= TL_KERNEL_MAX_LIST) {
			free(list);
			return tl_kernel_fail(why, whylen, "more than " TL_KERNEL_MAX_LIST_TEXT
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

void tl_kernel_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		adds[i] = kern->k;
	if (kern->kind->plan)
		kern->kind->plan(kern, seed, adds, n, TL_JITTER_ARMS);
}

void tl_kernel_plan_main_only(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds,
			      size_t n)
{
	for (size_t i = 0; i < n; i++)
		adds[i] = kern->k;
	if (kern->kind->plan)
		kern->kind->plan(kern, seed, adds, n, 1);
}

const char *tl_kernel_op(const struct tl_kernel_ops *kind)
{
	return kind ? kind->op : NULL;
}

int tl_kernel_runnable(const struct tl_kernel *k, char *why, size_t whylen)
{
	return k->kind->runnable ? k->kind->runnable(k, why, whylen) : 0;
}

tl_time_fn tl_kernel_timed(const struct tl_kernel *k, const struct tl_timer *t)
{
	return k->kind->timed[t->backend->timing];
}

double tl_time_kernel(struct tl_timer *t, const struct tl_kernel *k, uint64_t n,
		      const void **cursor)
{
	return tl_kernel_timed(k, t)(t, k, n, cursor);
}

double tl_time_empty(struct tl_timer *t)
{
	static const struct tl_kernel empty = { .kind = TL_KERNEL_EMPTY, .label = "empty" };

	return tl_time_kernel(t, &empty, 0, NULL);
}

double tl_time_adds(struct tl_timer *t, uint64_t adds)
{
	static const struct tl_kernel add = { .kind = TL_KERNEL_ADD };

	return tl_time_kernel(t, &add, adds, NULL);
}

double tl_time_loads(struct tl_timer *t, const void **cursor, uint64_t loads)
{
	static const struct tl_kernel load = { .kind = TL_KERNEL_LOAD };

	return tl_time_kernel(t, &load, loads, cursor);
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
