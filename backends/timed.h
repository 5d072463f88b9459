/* The timed-region template every backend instantiates (SPEC §2, paper §3.1).
 *
 *   TL_TIMED_DEFINE(X, T, PREP, READ, DIFF)
 *
 * produces
 *
 *   static double X_time_empty(struct tl_timer *t);            read; read
 *   static double X_time_adds(struct tl_timer *t, uint64_t n); read; n ADDs; read
 *
 * where
 *   T            type of one raw reading (an integer, or a struct when
 *                combining the halves of a reading would add work between
 *                the two reads);
 *   PREP(t)      statements run before the first read: load whatever the
 *                read needs (a counter index, an fd) into locals, so that
 *                nothing is loaded from memory between the reads; use
 *                TL_TIMED_NO_PREP when there is nothing to load;
 *   READ(v)      statement storing one reading into v (T), inline asm or
 *                one library call, using only locals PREP declared;
 *   DIFF(t,e,s)  end - start as a double in raw units (after the second
 *                read, so its cost is never timed).
 *
 * Between the two reads there is only the ADD chain below (its set-up runs
 * before the first read): no allocation, no
 * logging, no branch on user options, no function pointer. Both reads and the
 * chain are volatile asm (or opaque calls) with a "memory" clobber, so the
 * compiler keeps them in program order and cannot fold the chain. */
#ifndef TL_BACKENDS_TIMED_H
#define TL_BACKENDS_TIMED_H

#include <stdint.h>

#include "backends/backend.h"

#define TL_TIMED_INLINE static inline __attribute__((always_inline))

/* ADDs in one unrolled block: branches are one per 256 ADDs (paper §3.1). */
#define TL_TIMED_UNROLL 256

/* GNU as can check the size of the unrolled block; clang's integrated
 * assembler cannot evaluate label differences in .if, and emits the same
 * 3-byte encoding anyway. */
#if defined(__clang__)
#define TL_TIMED_CHECK_X86_BLOCK
#else
#define TL_TIMED_CHECK_X86_BLOCK                                                   \
	".if (2b - 1b) - 768\n\t"                                                  \
	".error \"ticklab: ADD encoding is not 3 bytes\"\n\t"                     \
	".endif\n\t"
#endif

/* A chain of `adds` data-dependent register ADDs on one accumulator (one
 * ADD latency each, 1 cycle on every core we know of), in two steps:
 *
 *   prepare (before the first read): split adds into whole 256-ADD blocks
 *     and the byte offset, from the end of the unrolled block, at which the
 *     remaining adds % 256 ADDs start; put the accumulator and increment in
 *     registers. An empty volatile asm pins this work before the read.
 *   run (between the reads): jump into the unrolled block at that depth,
 *     then loop over whole blocks. For a fixed count every branch is
 *     predictable and there is one taken branch per 256 ADDs.
 *
 * The ADDs are register-register: Golden Cove and later fold chains of
 * `add $imm` in the renamer (measured on this project's VM: 20000
 * dependent `add $1` in ~5800 core cycles), which register ADDs defeat. */
struct tl_timed_chain {
	uint64_t acc;    /* accumulator, 0 */
	uint64_t inc;    /* increment, 1 (a register, never an immediate) */
	uint64_t blocks; /* whole unrolled blocks */
	uint64_t skip;   /* x86/Armv8: bytes of ADDs before the block end; else ADDs */
};

#if defined(__x86_64__)
#define TL_TIMED_ADD_BYTES 3 /* add %reg64, %reg64: REX.W 01 /r */
#elif defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
#define TL_TIMED_ADD_BYTES 4
#else
#define TL_TIMED_ADD_BYTES 1 /* skip counts ADDs, not bytes */
#endif

TL_TIMED_INLINE struct tl_timed_chain tl_timed_chain_prepare(uint64_t adds)
{
	struct tl_timed_chain c = { 0, 1, adds / TL_TIMED_UNROLL,
				    (adds % TL_TIMED_UNROLL) * TL_TIMED_ADD_BYTES };
	__asm__ volatile("" : "+r"(c.acc), "+r"(c.inc), "+r"(c.blocks), "+r"(c.skip));
	return c;
}

#if defined(__aarch64__)
/* The Armv8 unrolled block and its loop over whole blocks, the same text
 * in both entry schemes below (computed jump, or BTI's counted remainder). */
#define TL_TIMED_ARM64_BLOCK                                                       \
	".p2align 6\n"                                                             \
	"1:\n\t"                                                                   \
	".rept 256\n\t"                                                            \
	"add %[acc], %[acc], %[inc]\n\t"                                           \
	".endr\n"                                                                  \
	"2:\n\t"                                                                   \
	"subs %[blk], %[blk], #1\n\t"                                              \
	"b.hs 1b\n"
#endif

/* Returns the accumulator (= adds) so tests can check the count. */
TL_TIMED_INLINE uint64_t tl_timed_chain_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	uint64_t target;
	/* The .if after the block (GNU as) stops the build if an assembler
	 * ever picks another ADD encoding, since the jump depends on it. */
	__asm__ volatile("lea 2f(%%rip), %[tgt]\n\t"
			 "sub %[skip], %[tgt]\n\t"
			 "jmp *%[tgt]\n\t"
			 ".p2align 6\n"
			 "1:\n\t"
			 ".rept 256\n\t"
			 "add %[inc], %[acc]\n\t"
			 ".endr\n"
			 "2:\n\t"
			 TL_TIMED_CHECK_X86_BLOCK
			 "sub $1, %[blk]\n\t"
			 "jnc 1b\n"
			 : [acc] "+r"(c.acc), [blk] "+r"(c.blocks), [tgt] "=&r"(target)
			 : [skip] "r"(c.skip), [inc] "r"(c.inc)
			 : "cc", "memory");
#elif defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
	uint64_t target;
	__asm__ volatile("adr %[tgt], 2f\n\t"
			 "sub %[tgt], %[tgt], %[skip]\n\t"
			 "br %[tgt]\n\t"
			 TL_TIMED_ARM64_BLOCK
			 : [acc] "+r"(c.acc), [blk] "+r"(c.blocks), [tgt] "=&r"(target)
			 : [skip] "r"(c.skip), [inc] "r"(c.inc)
			 : "cc", "memory");
#elif defined(__aarch64__)
	/* With BTI every indirect branch must land on a BTI pad, so the
	 * remainder runs as a short counted loop instead of a computed jump. */
	__asm__ volatile("cbz %[skip], 2f\n"
			 "3:\n\t"
			 "add %[acc], %[acc], %[inc]\n\t"
			 "subs %[skip], %[skip], #1\n\t"
			 "b.ne 3b\n\t"
			 "b 2f\n\t"
			 TL_TIMED_ARM64_BLOCK
			 : [acc] "+r"(c.acc), [blk] "+r"(c.blocks), [skip] "+r"(c.skip)
			 : [inc] "r"(c.inc)
			 : "cc", "memory");
#else
	/* Other architectures: the empty asm makes each ADD opaque, so the
	 * compiler can neither fold the chain nor vectorize it. */
	for (uint64_t i = 0; i < c.blocks * TL_TIMED_UNROLL + c.skip; i++) {
		c.acc += c.inc;
		__asm__ volatile("" : "+r"(c.acc) : : "memory");
	}
#endif
	return c.acc;
}

TL_TIMED_INLINE uint64_t tl_timed_add_chain(uint64_t adds)
{
	return tl_timed_chain_run(tl_timed_chain_prepare(adds));
}

#define TL_TIMED_NO_PREP(t) (void)(t)

/* Raw difference of two integer readings, signed: an unfenced read may
 * come back earlier than the one before it (τ_e < 0, SPEC §1). */
#define TL_TIMED_DIFF_INT(t, e, s) ((double)(int64_t)((uint64_t)(e) - (uint64_t)(s)))

#define TL_TIMED_DEFINE(X, T, PREP, READ, DIFF)                             \
	static double X##_time_empty(struct tl_timer *t)                    \
	{                                                                   \
		PREP(t);                                                    \
		T start_, end_;                                             \
		READ(start_);                                               \
		READ(end_);                                                 \
		return DIFF(t, end_, start_);                               \
	}                                                                   \
	static double X##_time_adds(struct tl_timer *t, uint64_t adds)      \
	{                                                                   \
		PREP(t);                                                    \
		struct tl_timed_chain chain_ = tl_timed_chain_prepare(adds); \
		T start_, end_;                                             \
		READ(start_);                                               \
		(void)tl_timed_chain_run(chain_);                           \
		READ(end_);                                                 \
		return DIFF(t, end_, start_);                               \
	}

#endif
