/* jitter:K,D,P: K ADDs, and in a seeded share P of the samples D more on
 * the dependent chain (D in ADDs, or in ns as 5ns, converted with the ns
 * per ADD the runner measures first). Plain and injected samples run one
 * instruction stream (backends/timed.h); the variant is data. Its samples
 * are three interleaved arms: the cell, an A/A control and a P-swapped one
 * (bench/kernel.h), which its analysis reads. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "base/xalloc.h"
#include "bench/kernels/kernel_ops.h"

/* The table's warning names the ADDs the kernel deals into overlapping pieces. */
_Static_assert(TL_JITTER_OVERLAP_ADDS == TL_JITTER_PIECES * TL_JITTER_PIECE,
	       "TL_JITTER_OVERLAP_ADDS is the jitter kernel's pieces x their ADDs");

/* tl_jitter_arm_d and tl_jitter_code_dep in arithmetic: the variant must
 * take no branch of its own, even before the first read (the predictors
 * would then tell the variants apart). */
static inline uint64_t jitter_arm_d(const struct tl_kernel *k, uint64_t code)
{
	uint64_t aa = (code >> TL_JITTER_ARM_SHIFT) == TL_JITTER_AA, d = k->d;

	/* D is loaded whatever the arm: clang would skip the load for the
	 * A/A arm, a branch on the arm. */
	__asm__("" : "+r"(d));
	return d & (aa - 1);
}

static inline unsigned jitter_dep(const struct tl_kernel *k, uint64_t code)
{
	return (unsigned)((code & TL_JITTER_DEP) != 0) |
	       (unsigned)(tl_jitter_code_chain(code) != k->k);
}

/* The variant and the arm's D are worked out from the sample's code before
 * the first read. Its slot lives on the stack and is picked by pointer
 * arithmetic: ASan's redzone checks and UBSan's overflow checks would land
 * between the reads, so it is never instrumented. Up to TL_JITTER_WARM
 * untimed runs come first, so the timed run starts trained by its own
 * variant. */
#define jitter_SETUP                                                               \
	uint64_t slot_[TL_JITTER_SLOTS];                                           \
	const uint64_t jk_ = k->k, jd_ = jitter_arm_d(k, n);                      \
	const unsigned jdep_ = jitter_dep(k, n);                                   \
	struct tl_timed_jitter jit_ = tl_timed_jitter_prepare(slot_, jk_, jd_, jdep_); \
	uint64_t warm_ = tl_timed_jitter_warm(jk_, jd_);                           \
	do {                                                                       \
		(void)tl_timed_jitter_run(jit_);                                   \
		jit_ = tl_timed_jitter_prepare(slot_, jk_, jd_, jdep_);            \
	} while (--warm_)
#define jitter_RUN (void)tl_timed_jitter_run(jit_)
#define jitter_AFTER (void)0
#define jitter_ATTR TL_TIMED_NO_SAN
/* The sim has no dependences to switch: an injected sample costs K + D
 * ADDs, a plain one K. */
#define jitter_SIM_NS(m, k, n)                                                     \
	((m)->ns_per_add * (double)(tl_jitter_code_dep(n, (k)->k)                  \
					    ? (k)->k + tl_jitter_arm_d(k, tl_jitter_code_arm(n)) \
					    : (k)->k))
TL_KERNEL_TIMED(jitter)

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

static int jitter_parse(const struct tl_kernel_ops *ops, const char *tok, const char *args,
			size_t alen, const struct tl_topology *topo, struct tl_kernel **out,
			size_t *n, char *why, size_t whylen)
{
	const char *f[3];
	size_t fl[3], nf;
	struct tl_kernel k = { .kind = ops };

	(void)topo;
	if (!args)
		return tl_kernel_fail(why, whylen, "unknown kernel \"%s\"", tok);
	nf = tl_kernel_split(args, alen, ',', f, fl, 3);
	if (nf != 3)
		return tl_kernel_fail(why, whylen, "bad kernel \"%s\": jitter takes K,D,P", tok);
	if (tl_kernel_parse_count(f[0], fl[0], &k.k))
		return tl_kernel_fail(why, whylen,
				      "bad kernel \"%s\": K must be a whole number 0.."
				      TL_KERNEL_MAX_K_TEXT, tok);
	if (fl[1] > 2 && !strncmp(f[1] + fl[1] - 2, "ns", 2)
		    ? parse_ns(f[1], fl[1] - 2, &k.d_ns)
		    : tl_kernel_parse_count(f[1], fl[1], &k.d))
		return tl_kernel_fail(why, whylen,
				      "bad kernel \"%s\": D must be a whole number of ADDs 0.."
				      TL_KERNEL_MAX_K_TEXT " or a time in ns 0.."
				      TL_KERNEL_MAX_D_NS_TEXT " such as 5ns or 2.5ns", tok);
	/* Beyond the pieces the kernel overlaps with K, a plain sample would
	 * pay for part of D too and the shift would fall short of D: refused
	 * here rather than delivered in part. */
	if (k.d > TL_JITTER_OVERLAP_ADDS)
		return tl_kernel_fail(why, whylen,
				      "bad kernel \"%s\": D above " TL_JITTER_MAX_D_TEXT " ADDs: the "
				      "injection delivers the whole of D only up to "
				      TL_JITTER_MAX_D_TEXT " ADDs (16 pieces of 16 beside the K chain)",
				      tok);
	if (parse_share(f[2], fl[2], &k.p))
		return tl_kernel_fail(why, whylen, "bad kernel \"%s\": P must be a number in [0, 1]",
				      tok);
	return tl_kernel_push(out, n, &k, tok, why, whylen);
}

static void jitter_describe(struct tl_kernel *k)
{
	char buf15[32];

	/* The shortest ns text that reads back to the same double: the label
	 * is read back through the parser. */
	snprintf(buf15, sizeof buf15, "%.15g", k->d_ns);
	if (k->d_ns > 0)
		snprintf(k->label, sizeof k->label, "jitter:%llu,%.*gns,%g", (unsigned long long)k->k,
			 strtod(buf15, NULL) == k->d_ns ? 15 : 17, k->d_ns, k->p);
	else
		snprintf(k->label, sizeof k->label, "jitter:%llu,%llu,%g", (unsigned long long)k->k,
			 (unsigned long long)k->d, k->p);
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
static void jitter_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n,
			unsigned arms)
{
	gsl_rng *r;
	size_t *idx;

	if (n == 0)
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

const struct tl_kernel_ops tl_kernel_jitter = {
	.name = "jitter",
	.grammar = "jitter:K,D,P",
	.note = "jitter's D 0.." TL_JITTER_MAX_D_TEXT " ADDs, or D in ns as 5ns (0.."
		TL_KERNEL_MAX_D_NS_TEXT "), 0 <= P <= 1",
	.op = "ADD",
	.commas = 2,
	.parse = jitter_parse,
	.describe = jitter_describe,
	.plan = jitter_plan,
	.timed = jitter_timed,
};
