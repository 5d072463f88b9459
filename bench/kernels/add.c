/* add:K: K dependent register ADDs, the lab's ruler (paper §3.1): one
 * cycle each on every core the lab has met, so its slope is the clock. */
#include "config.h"

#include "bench/kernels/kernel_ops.h"

#define adds_SETUP struct tl_timed_chain chain_ = tl_timed_chain_prepare(n)
#define adds_RUN (void)tl_timed_chain_run(chain_)
#define adds_AFTER (void)0
#define adds_ATTR
#define adds_SIM_NS(m, k, n) ((m)->ns_per_add * (double)(n))
TL_KERNEL_TIMED(adds)

const struct tl_kernel_ops tl_kernel_add = {
	.name = "add",
	.grammar = "add:K, add:START:END:STEP",
	.note = "K integers 0.." TL_KERNEL_MAX_K_TEXT,
	.op = "ADD",
	.parse = tl_kernel_parse_counted,
	.describe = tl_kernel_describe_counted,
	.timed = adds_timed,
};
