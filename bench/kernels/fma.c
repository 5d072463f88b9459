/* fma:K: K dependent floating-point FMAs. It faults on an x86 CPU without
 * FMA, so it is refused there before any timing (runnable). */
#include "config.h"

#include "bench/kernels/kernel_ops.h"

#define fmas_SETUP struct tl_timed_chain chain_ = tl_timed_fma_prepare(n)
#define fmas_RUN (void)tl_timed_fma_run(chain_)
#define fmas_AFTER (void)0
#define fmas_ATTR
#define fmas_SIM_NS(m, k, n) ((m)->ns_per_fma * (double)(n))
TL_KERNEL_TIMED(fmas)

static int fma_runnable(const struct tl_kernel *k, char *why, size_t whylen)
{
	(void)k;
	return tl_fma_supported(why, whylen) ? 0 : -1;
}

const struct tl_kernel_ops tl_kernel_fma = {
	.name = "fma",
	.grammar = "fma:K, fma:START:END:STEP",
	.op = "FMA",
	.parse = tl_kernel_parse_counted,
	.describe = tl_kernel_describe_counted,
	.runnable = fma_runnable,
	.timed = fmas_timed,
};
