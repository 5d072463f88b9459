/* empty: nothing between the reads, so a sample is the timer's own cost
 * (t_e,std, paper §3.1), the reference every other cell's overhead is. */
#include "config.h"

#include <stdio.h>

#include "bench/kernels/kernel_ops.h"

#define empty_SETUP (void)0
#define empty_RUN (void)0
#define empty_AFTER (void)0
#define empty_ATTR
#define empty_SIM_NS(m, k, n) 0.0
TL_KERNEL_TIMED(empty)

/* "empty" alone: it takes no arguments. */
static int empty_parse(const struct tl_kernel_ops *ops, const char *tok, const char *args,
		       size_t alen, const struct tl_topology *topo, struct tl_kernel **out,
		       size_t *n, char *why, size_t whylen)
{
	struct tl_kernel k = { .kind = ops };

	(void)alen;
	(void)topo;
	if (args)
		return tl_kernel_fail(why, whylen, "unknown kernel \"%s\"", tok);
	return tl_kernel_push(out, n, &k, tok, why, whylen);
}

static void empty_describe(struct tl_kernel *k)
{
	snprintf(k->label, sizeof k->label, "empty");
}

const struct tl_kernel_ops tl_kernel_empty = {
	.name = "empty",
	.grammar = "empty",
	.parse = empty_parse,
	.describe = empty_describe,
	.timed = empty_timed,
	.times_nothing = true,
};
