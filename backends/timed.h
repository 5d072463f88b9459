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
 * Between the two reads there is only the ADD chain below: no allocation, no
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
 * ADD latency each, 1 cycle on every core we know of). The adds % 256 ADDs
 * that do not fill a block are run by jumping into the unrolled block at the
 * right depth, then whole blocks loop: for a fixed count every branch is
 * predictable and there is one taken branch per 256 ADDs. */
TL_TIMED_INLINE void tl_timed_add_chain(uint64_t adds)
{
#if defined(__x86_64__)
	uint64_t acc = 0, inc = 1, blocks, rem, target;
	/* Register-register ADDs: Golden Cove and later fold `add $imm` chains
	 * in the renamer (measured here: 20000 dependent `add $1` in ~5800
	 * core cycles instead of 20000), register ADDs they cannot fold. Each
	 * `add %reg64, %reg64` is 3 bytes (REX.W 01 /r); the .if after the
	 * block stops the build if an assembler ever picks another encoding,
	 * since the computed jump depends on it. */
	__asm__ volatile("mov %[n], %[blk]\n\t"
			 "shr $8, %[blk]\n\t"
			 "mov %[n], %[rem]\n\t"
			 "and $255, %[rem]\n\t"
			 "lea (%[rem],%[rem],2), %[rem]\n\t"
			 "lea 2f(%%rip), %[tgt]\n\t"
			 "sub %[rem], %[tgt]\n\t"
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
			 : [acc] "+r"(acc), [blk] "=&r"(blocks), [rem] "=&r"(rem),
			   [tgt] "=&r"(target)
			 : [n] "r"(adds), [inc] "r"(inc)
			 : "cc", "memory");
#elif defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
	uint64_t acc = 0, inc = 1, blocks, rem, target;
	__asm__ volatile("lsr %[blk], %[n], #8\n\t"
			 "and %[rem], %[n], #255\n\t"
			 "adr %[tgt], 2f\n\t"
			 "sub %[tgt], %[tgt], %[rem], lsl #2\n\t"
			 "br %[tgt]\n\t"
			 ".p2align 6\n"
			 "1:\n\t"
			 ".rept 256\n\t"
			 "add %[acc], %[acc], %[inc]\n\t"
			 ".endr\n"
			 "2:\n\t"
			 "subs %[blk], %[blk], #1\n\t"
			 "b.hs 1b\n"
			 : [acc] "+r"(acc), [blk] "=&r"(blocks), [rem] "=&r"(rem),
			   [tgt] "=&r"(target)
			 : [n] "r"(adds), [inc] "r"(inc)
			 : "cc", "memory");
#elif defined(__aarch64__)
	/* With BTI every indirect branch must land on a BTI pad, so the
	 * remainder runs as a short counted loop instead of a computed jump. */
	uint64_t acc = 0, inc = 1, blocks, rem;
	__asm__ volatile("lsr %[blk], %[n], #8\n\t"
			 "and %[rem], %[n], #255\n\t"
			 "cbz %[rem], 2f\n"
			 "3:\n\t"
			 "add %[acc], %[acc], %[inc]\n\t"
			 "subs %[rem], %[rem], #1\n\t"
			 "b.ne 3b\n\t"
			 "b 2f\n\t"
			 ".p2align 6\n"
			 "1:\n\t"
			 ".rept 256\n\t"
			 "add %[acc], %[acc], %[inc]\n\t"
			 ".endr\n"
			 "2:\n\t"
			 "subs %[blk], %[blk], #1\n\t"
			 "b.hs 1b\n"
			 : [acc] "+r"(acc), [blk] "=&r"(blocks), [rem] "=&r"(rem)
			 : [n] "r"(adds), [inc] "r"(inc)
			 : "cc", "memory");
#else
	/* Other architectures: the empty asm makes each ADD opaque, so the
	 * compiler can neither fold the chain nor vectorize it. */
	uint64_t acc = 0;
	for (uint64_t i = 0; i < adds; i++) {
		acc += 1;
		__asm__ volatile("" : "+r"(acc) : : "memory");
	}
#endif
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
		T start_, end_;                                             \
		READ(start_);                                               \
		tl_timed_add_chain(adds);                                   \
		READ(end_);                                                 \
		return DIFF(t, end_, start_);                               \
	}

#endif
