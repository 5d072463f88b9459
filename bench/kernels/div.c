/* div:K: K dependent unsigned 64-bit divides, the slowest integer
 * operation and the one whose latency has changed most between cores
 * (tens of cycles on older ones, about 15 on current ones): beside add:K
 * and mul:K, it shows a lecture that one instruction can cost ten ADDs.
 *
 * Each divide takes the last quotient as its dividend and 1 as divisor,
 * so the quotient is the dividend and the chain is one long dependence
 * that never faults (x86: RDX, the dividend's high half, stays 0). The
 * dividend is a full 64-bit value: where the latency depends on the
 * operand's width, this is the wide case. x86's DIV takes its dividend in
 * RAX:RDX, which the TSC reads write, so moving it there (two register
 * moves) falls between the reads. */
#include "config.h"

#include "bench/kernels/kernel_ops.h"

#define DIV_DIVIDEND TL_TIMED_MUL_FACTOR
/* The sim's divide: 14 ADDs' worth, a current core's latency. */
#define DIV_SIM_ADDS 14.0

#if defined(__x86_64__)
#define DIV_BYTES 3 /* div %r64: REX.W F7 /6 */
#elif defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
#define DIV_BYTES 4
#else
#define DIV_BYTES 1
#endif

TL_TIMED_INLINE uint64_t div_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	uint64_t tgt_, hi_ = 0;

	__asm__ volatile(TL_TIMED_CHAIN_TEXT("div %[inc]", "768")
			 : [acc] "+a"(c.acc), [hi] "+d"(hi_), [blk] "+r"(c.blocks),
			   [skip] "+r"(c.skip), [tgt] "=&r"(tgt_)
			 : [inc] "r"(c.inc)
			 : "cc", "memory");
	(void)tgt_;
#elif defined(__aarch64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "udiv %[acc], %[acc], %[inc]", "1024", "", "cc", "memory");
#else
	for (uint64_t i = 0; i < c.blocks * TL_TIMED_UNROLL + c.skip; i++) {
		c.acc /= c.inc;
		__asm__ volatile("" : "+r"(c.acc) : : "memory");
	}
#endif
	return c.acc;
}

#define divs_SETUP                                                                 \
	struct tl_timed_chain chain_ = tl_timed_chain_prepare_op(n, DIV_DIVIDEND, 1, DIV_BYTES)
#define divs_RUN (void)div_run(chain_)
#define divs_AFTER (void)0
#define divs_ATTR
#define divs_SIM_NS(m, k, n) ((m)->ns_per_add * DIV_SIM_ADDS * (double)(n))
TL_KERNEL_TIMED(divs)

const struct tl_kernel_ops tl_kernel_div = {
	.name = "div",
	.grammar = "div:K, div:START:END:STEP",
	.op = "DIV",
	.parse = tl_kernel_parse_counted,
	.describe = tl_kernel_describe_counted,
	.timed = divs_timed,
};
