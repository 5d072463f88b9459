/* mul:K: K dependent integer multiplies, a longer latency than an ADD on
 * the same register chain (the acc times an odd constant never reaches 0). */
#include "config.h"

#include "bench/kernels/kernel_ops.h"

#define muls_SETUP struct tl_timed_chain chain_ = tl_timed_mul_prepare(n)
#define muls_RUN (void)tl_timed_mul_run(chain_)
#define muls_AFTER (void)0
#define muls_ATTR
#define muls_SIM_NS(m, k, n) ((m)->ns_per_mul * (double)(n))
TL_KERNEL_TIMED(muls)

const struct tl_kernel_ops tl_kernel_mul = {
	.name = "mul",
	.grammar = "mul:K, mul:START:END:STEP",
	.op = "MUL",
	.parse = tl_kernel_parse_counted,
	.describe = tl_kernel_describe_counted,
	.timed = muls_timed,
};
