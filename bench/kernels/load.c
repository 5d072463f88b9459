/* load:SIZE[,K]: K dependent loads chasing a random cycle through a
 * SIZE buffer (tl_kernel_chase_layout), so each load waits for the last:
 * the latency of the level SIZE fits in. The cursor carries on from where
 * the last timing stopped, so a timing does not re-read the lines the one
 * before it just cached. */
#include "config.h"

#include <stdio.h>

#include "bench/kernels/kernel_ops.h"
#include "bench/load_sizes.h"

#define loads_SETUP                                                                \
	struct tl_timed_chain chain_ = tl_timed_load_prepare(*cursor, n);          \
	const void *at_
#define loads_RUN at_ = tl_timed_load_run(chain_)
#define loads_AFTER *cursor = at_
#define loads_ATTR
/* The sim reads no memory: the cursor stays where it is. */
#define loads_SIM_NS(m, k, n) ((m)->ns_per_load * (double)(n))
TL_KERNEL_TIMED(loads)

static int load_parse(const struct tl_kernel_ops *ops, const char *tok, const char *args,
		      size_t alen, const struct tl_topology *topo, struct tl_kernel **out,
		      size_t *n, char *why, size_t whylen)
{
	const char *f[2];
	size_t fl[2], nf, nsizes;
	struct tl_kernel k = { .kind = ops, .k = TL_KERNEL_LOAD_DEFAULT_K };
	uint64_t sizes[TL_LOAD_MAX_SIZES];
	char size[96], swhy[512];

	if (!args)
		return tl_kernel_fail(why, whylen, "unknown kernel \"%s\"", tok);
	nf = tl_kernel_split(args, alen, ',', f, fl, 2);
	if (nf != 1 && nf != 2)
		return tl_kernel_fail(why, whylen, "bad kernel \"%s\": load takes SIZE or SIZE,K", tok);
	if (fl[0] >= sizeof size)
		return tl_kernel_fail(why, whylen, "bad kernel \"%s\": SIZE too long", tok);
	snprintf(size, sizeof size, "%.*s", (int)fl[0], f[0]);
	if (tl_load_sizes_parse(size, topo, sizes, &nsizes, swhy, sizeof swhy) < 0) {
		snprintf(why, whylen, "bad kernel \"%s\": %s", tok, swhy);
		return -1;
	}
	if (nf == 2 && tl_kernel_parse_count(f[1], fl[1], &k.k))
		return tl_kernel_fail(why, whylen,
				      "bad kernel \"%s\": K (loads) must be a whole number 0.."
				      TL_KERNEL_MAX_K_TEXT, tok);
	for (size_t i = 0; i < nsizes; i++) {
		k.bytes = sizes[i];
		if (tl_kernel_push(out, n, &k, tok, why, whylen))
			return -1;
	}
	return 0;
}

/* Exact, so the label parses back to the same buffer (results files are
 * read back through the parser). */
static void load_describe(struct tl_kernel *k)
{
	unsigned long long b = (unsigned long long)k->bytes;

	if (b % (1ULL << 20) == 0)
		snprintf(k->label, sizeof k->label, "load:%lluMiB,%llu", b >> 20,
			 (unsigned long long)k->k);
	else if (b % 1024 == 0)
		snprintf(k->label, sizeof k->label, "load:%lluKiB,%llu", b >> 10,
			 (unsigned long long)k->k);
	else
		snprintf(k->label, sizeof k->label, "load:%llu,%llu", b, (unsigned long long)k->k);
}

const struct tl_kernel_ops tl_kernel_load = {
	.name = "load",
	.grammar = "load:SIZE[,K], load:SIZE+SIZE+...[,K], load:LO..HI[,K]",
	.note = "SIZE a flush size >= 64 bytes such as 32KiB or 4xL2",
	.op = "load",
	.trailing_count = true,
	.parse = load_parse,
	.describe = load_describe,
	.timed = loads_timed,
	.chases = true,
};
