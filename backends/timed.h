/* The timed-region template every backend instantiates (paper §3.1), so
 * every timer brackets the same instructions and only its reads differ.
 *
 *   TL_TIMED_BODY(T, PREP, READ, DIFF, SETUP, RUN, AFTER)
 *
 * with a backend's reading recipe (T, PREP, READ, DIFF: backends/reads.h)
 * and a kernel's body (SETUP, RUN, AFTER: bench/kernels/), and the chains
 * the kernels run.
 *
 * Between the two reads there is only one chain below (its set-up runs
 * before the first read): no allocation, no
 * logging, no branch on user options, no function pointer. Both reads and the
 * chain are volatile asm (or opaque calls) with a "memory" clobber, so the
 * compiler keeps them in program order and cannot fold the chain. */
#ifndef TL_BACKENDS_TIMED_H
#define TL_BACKENDS_TIMED_H

#include <stdint.h>

#include "backends/backend.h"

#define TL_TIMED_INLINE static inline __attribute__((always_inline))
#define TL_TIMED_NO_SAN __attribute__((no_sanitize_address, no_sanitize("undefined")))

/* Operations in one unrolled block: one branch per 256 (paper §3.1). */
#define TL_TIMED_UNROLL 256

/* GNU as can check the size of the unrolled block (the computed entry
 * depends on every operation having one encoding size); clang's integrated
 * assembler cannot evaluate label differences in .if, and emits the same
 * fixed-size encodings anyway (TL_TIMED_CHECK_BLOCK_AT below). */

/* A chain of n data-dependent operations on one accumulator, in two steps:
 *
 *   prepare (before the first read): split n into whole 256-operation
 *     blocks and the byte offset, from the end of the unrolled block, at
 *     which the remaining n % 256 start; put the accumulator and operand in
 *     registers. An empty volatile asm pins this work before the read.
 *   run (between the reads): jump into the unrolled block at that depth,
 *     then loop over whole blocks. For a fixed count every branch is
 *     predictable and there is one taken branch per 256 operations.
 *
 * Operands are registers, never immediates: Golden Cove and later fold
 * chains of `add $imm` in the renamer (measured on this project's VM: 20000
 * dependent `add $1` in ~5800 core cycles), which register ADDs defeat.
 * The kernels: ADD (acc += inc), MUL (acc *= inc, an odd constant so the
 * product never collapses to 0), FMA (acc = inc*inc + acc on doubles, the
 * bits carried in integer registers so a library-call read cannot make the
 * compiler spill them: SysV has no callee-saved vector register) and LOAD
 * (acc = *acc, a pointer chase). */
struct tl_timed_chain {
	uint64_t acc;    /* accumulator (or the FMA's double bits, or a pointer) */
	uint64_t inc;    /* the other operand (a register, never an immediate) */
	uint64_t blocks; /* whole unrolled blocks */
	uint64_t skip;   /* x86/Armv8: bytes of operations before the block end; else operations */
};

#define TL_TIMED_MUL_FACTOR 0x9e3779b97f4a7c15ULL /* odd: its powers never reach 0 */

#if defined(__x86_64__)
/* Encoding sizes the computed entry relies on (and the GNU as check verifies). */
#define TL_TIMED_ADD_BYTES 3  /* add %r64, %r64: REX.W 01 /r */
#define TL_TIMED_MUL_BYTES 4  /* imul %r64, %r64: REX.W 0F AF /r */
#define TL_TIMED_FMA_BYTES 5  /* vfmadd231sd: 3-byte VEX, B9 /r */
#define TL_TIMED_LOAD_BYTES 3 /* mov (%r64), %r64 with a/b/c/d ("Q"): REX.W 8B /r */
#elif defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
#define TL_TIMED_ADD_BYTES 4
#define TL_TIMED_MUL_BYTES 4
#define TL_TIMED_FMA_BYTES 4
#define TL_TIMED_LOAD_BYTES 4
#else /* skip counts operations, not bytes */
#define TL_TIMED_ADD_BYTES 1
#define TL_TIMED_MUL_BYTES 1
#define TL_TIMED_FMA_BYTES 1
#define TL_TIMED_LOAD_BYTES 1
#endif

TL_TIMED_INLINE struct tl_timed_chain tl_timed_chain_prepare_op(uint64_t n, uint64_t acc,
								   uint64_t inc, unsigned bytes)
{
	struct tl_timed_chain c = { acc, inc, n / TL_TIMED_UNROLL, (n % TL_TIMED_UNROLL) * bytes };
	__asm__ volatile("" : "+r"(c.acc), "+r"(c.inc), "+r"(c.blocks), "+r"(c.skip));
	return c;
}

TL_TIMED_INLINE struct tl_timed_chain tl_timed_chain_prepare(uint64_t adds)
{
	return tl_timed_chain_prepare_op(adds, 0, 1, TL_TIMED_ADD_BYTES);
}

TL_TIMED_INLINE struct tl_timed_chain tl_timed_mul_prepare(uint64_t muls)
{
	return tl_timed_chain_prepare_op(muls, 1, TL_TIMED_MUL_FACTOR, TL_TIMED_MUL_BYTES);
}

TL_TIMED_INLINE struct tl_timed_chain tl_timed_fma_prepare(uint64_t fmas)
{
	/* 0.0 and 1.0 as IEEE-754 binary64 bits: acc counts the FMAs exactly
	 * up to 2^53, so tests can check the count. */
	return tl_timed_chain_prepare_op(fmas, 0, 0x3ff0000000000000ULL, TL_TIMED_FMA_BYTES);
}

TL_TIMED_INLINE struct tl_timed_chain tl_timed_load_prepare(const void *start, uint64_t loads)
{
	return tl_timed_chain_prepare_op(loads, (uint64_t)(uintptr_t)start, 0, TL_TIMED_LOAD_BYTES);
}

/* The unrolled block of INSN (SIZE: its byte length as text, for the
 * check) and its entry, one text per architecture. Operands: acc, inc, blk,
 * skip, tgt (unused where the entry is counted). */
/* TL_TIMED_BLOCK_TEXT takes the local labels (A: block start, B: block
 * end, C: BTI's remainder loop) and the operand names of the block count
 * and entry offset, so one asm statement can hold two chains. */
#if defined(__x86_64__)
#if defined(__clang__)
#define TL_TIMED_CHECK_BLOCK_AT(A, B, SIZE)
#else
#define TL_TIMED_CHECK_BLOCK_AT(A, B, SIZE)                                         \
	".if (" B "b - " A "b) - " SIZE "\n\t"                                      \
	".error \"ticklab: a chain instruction changed encoding size\"\n\t"        \
	".endif\n\t"
#endif
#define TL_TIMED_BLOCK_TEXT(INSN, SIZE, A, B, C, BLK, SKIP)                        \
	"lea " B "f(%%rip), %[tgt]\n\t"                                              \
	"sub %[" SKIP "], %[tgt]\n\t"                                               \
	"jmp *%[tgt]\n\t"                                                           \
	".p2align 6\n"                                                              \
	A ":\n\t"                                                                    \
	".rept 256\n\t" INSN "\n\t"                                                 \
	".endr\n" B ":\n\t" TL_TIMED_CHECK_BLOCK_AT(A, B, SIZE)                      \
	"sub $1, %[" BLK "]\n\t"                                                    \
	"jnc " A "b\n"
#elif defined(__aarch64__)
#define TL_TIMED_ARM64_BLOCK(INSN, A, B, BLK)                                       \
	".p2align 6\n"                                                              \
	A ":\n\t"                                                                    \
	".rept 256\n\t" INSN "\n\t"                                                 \
	".endr\n" B ":\n\t"                                                          \
	"subs %[" BLK "], %[" BLK "], #1\n\t"                                         \
	"b.hs " A "b\n"
#if !defined(__ARM_FEATURE_BTI_DEFAULT)
#define TL_TIMED_BLOCK_TEXT(INSN, SIZE, A, B, C, BLK, SKIP)                        \
	"adr %[tgt], " B "f\n\t"                                                     \
	"sub %[tgt], %[tgt], %[" SKIP "]\n\t"                                        \
	"br %[tgt]\n\t" TL_TIMED_ARM64_BLOCK(INSN, A, B, BLK)
#else
/* With BTI every indirect branch must land on a BTI pad, so the remainder
 * runs as a short counted loop instead of a computed jump. */
#define TL_TIMED_BLOCK_TEXT(INSN, SIZE, A, B, C, BLK, SKIP)                        \
	"cbz %[" SKIP "], " B "f\n" C ":\n\t" INSN "\n\t"                             \
	"subs %[" SKIP "], %[" SKIP "], #1\n\t"                                       \
	"b.ne " C "b\n\t"                                                            \
	"b " B "f\n\t" TL_TIMED_ARM64_BLOCK(INSN, A, B, BLK)
#endif
#endif
#if defined(TL_TIMED_BLOCK_TEXT)
#define TL_TIMED_CHAIN_TEXT(INSN, SIZE) TL_TIMED_BLOCK_TEXT(INSN, SIZE, "1", "2", "3", "blk", "skip")
#endif

#if defined(TL_TIMED_CHAIN_TEXT)
/* One asm statement per kernel: PRE and POST move values between the
 * integer registers and the unit the chain runs on; the varargs are the
 * clobbers. */
#define TL_TIMED_CHAIN_ASM(c, ACC, PRE, INSN, SIZE, POST, ...)                     \
	do {                                                                        \
		uint64_t tgt_;                                                      \
		__asm__ volatile(PRE TL_TIMED_CHAIN_TEXT(INSN, SIZE) POST           \
				 : [acc] ACC((c).acc), [blk] "+r"((c).blocks),      \
				   [skip] "+r"((c).skip), [tgt] "=&r"(tgt_)         \
				 : [inc] "r"((c).inc)                               \
				 : __VA_ARGS__);                                    \
		(void)tgt_;                                                         \
	} while (0)
#else
/* Other architectures: the empty asm makes each step opaque, so the
 * compiler can neither fold the chain nor vectorize it. */
TL_TIMED_INLINE uint64_t tl_timed_chain_generic(struct tl_timed_chain c, char op)
{
	double d;
	__builtin_memcpy(&d, &c.acc, sizeof d);
	for (uint64_t i = 0; i < c.blocks * TL_TIMED_UNROLL + c.skip; i++) {
		if (op == '+')
			c.acc += c.inc;
		else if (op == '*')
			c.acc *= c.inc;
		else if (op == 'l')
			c.acc = *(const volatile uint64_t *)(uintptr_t)c.acc;
		else
			d += 1.0;
		__asm__ volatile("" : "+r"(c.acc), "+m"(d) : : "memory");
	}
	if (op == 'f')
		__builtin_memcpy(&c.acc, &d, sizeof d);
	return c.acc;
}
#endif

/* Returns the accumulator (= adds) so tests can check the count. */
TL_TIMED_INLINE uint64_t tl_timed_chain_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "add %[inc], %[acc]", "768", "", "cc", "memory");
#elif defined(__aarch64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "add %[acc], %[acc], %[inc]", "1024", "", "cc", "memory");
#else
	c.acc = tl_timed_chain_generic(c, '+');
#endif
	return c.acc;
}

/* Returns TL_TIMED_MUL_FACTOR^muls mod 2^64. */
TL_TIMED_INLINE uint64_t tl_timed_mul_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "imul %[inc], %[acc]", "1024", "", "cc", "memory");
#elif defined(__aarch64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "mul %[acc], %[acc], %[inc]", "1024", "", "cc", "memory");
#else
	c.acc = tl_timed_chain_generic(c, '*');
#endif
	return c.acc;
}

/* Returns the FMA count as a double's bits. x86: call only where the CPU
 * has FMA (tl_timed_fma_supported), or it faults. */
TL_TIMED_INLINE uint64_t tl_timed_fma_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "vmovq %[acc], %%xmm0\n\tvmovq %[inc], %%xmm1\n\t",
			   "vfmadd231sd %%xmm1, %%xmm1, %%xmm0", "1280", "vmovq %%xmm0, %[acc]\n",
			   "cc", "memory", "xmm0", "xmm1");
#elif defined(__aarch64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "fmov d0, %[acc]\n\tfmov d1, %[inc]\n\t", "fmadd d0, d1, d1, d0",
			   "1024", "fmov %[acc], d0\n", "cc", "memory", "v0", "v1");
#else
	c.acc = tl_timed_chain_generic(c, 'f');
#endif
	return c.acc;
}

/* Returns where the chase ended (the next start). On x86 the pointer lives
 * in a/b/c/d ("Q") so that `mov (%r), %r` has one 3-byte encoding. */
TL_TIMED_INLINE const void *tl_timed_load_run(struct tl_timed_chain c)
{
#if defined(__x86_64__)
	TL_TIMED_CHAIN_ASM(c, "+Q", "", "mov (%[acc]), %[acc]", "768", "", "cc", "memory");
#elif defined(__aarch64__)
	TL_TIMED_CHAIN_ASM(c, "+r", "", "ldr %[acc], [%[acc]]", "1024", "", "cc", "memory");
#else
	c.acc = tl_timed_chain_generic(c, 'l');
#endif
	return (const void *)(uintptr_t)c.acc;
}

TL_TIMED_INLINE uint64_t tl_timed_add_chain(uint64_t adds)
{
	return tl_timed_chain_run(tl_timed_chain_prepare(adds));
}

/* The jitter kernel: K ADDs and D more, where the D either extend the K's
 * dependent chain (dep = 1, an injected sample) or run beside it (dep = 0,
 * a plain one). Both variants execute the same instructions at the same
 * addresses with the same branch outcomes; they differ only in which
 * memory word each piece of D starts from, an index chosen before the
 * first read. Register dependences are fixed by the instruction bytes, so
 * only a memory word can switch one by data.
 *
 * A plain sample's D ADDs overlap the chain only once the scheduler has
 * taken them in, and it takes them in program order behind the chain's
 * waiting ADDs: D run after the whole of K overlapped only about a
 * scheduler's worth (on the Zen 5 guest, 256 ADDs = 72 ns read as 9 to
 * 20 ns). So D is dealt into TL_JITTER_PIECES short pieces with a stretch
 * of K before each, which each piece runs beside in a plain sample:
 *
 *   head of K; switch; first piece of D (the rest of D); merge
 *   TL_JITTER_PIECES - 1 times, unrolled:
 *     stretch of K; switch; piece of D; merge
 *
 *   switch:  store acc to slot[1]; acc = slot[i]; v = slot[i + 1]
 *   merge:   acc += v
 *            dep: i = 1, the piece starts from the chain and adds 0;
 *            plain: i = 0, it starts from 0 and adds the chain
 *            (slot[0] = slot[2] = 0), so acc grows by the piece either way
 *
 * Every switch forwards the chain once on the critical path in both
 * variants, and every D, 0 included, takes the same switches: plain costs
 * K plus the switches whatever D is, dep D more. The switches' loads carry
 * the memory-dependence predictor's training from one sample to the next
 * (a sample after one of the other variant took ~6-10 ns more, either
 * way), so the caller runs the kernel up to TL_JITTER_WARM times untimed
 * before the first read (bench/kernels/jitter.c) and each timed run starts trained by
 * its own variant: on the Zen 5 guest one run left ~6 ns at P = 0.1 or
 * 0.9, four left up to 1.5 ns (the P-swapped control failed in 6 cells of
 * 6 on one run, none on another), sixteen none in 6.
 * The pieces are unrolled, which frees the loop counter's register for
 * the timer's readings. D beyond TL_JITTER_PIECES x TL_JITTER_PIECE goes
 * to the first piece, which no longer overlaps whole (bench/kernel.h). */
#define TL_JITTER_PIECES 16
#define TL_JITTER_PIECE 16 /* ADDs in each later piece, at most */
#define TL_JITTER_KPIECE 64 /* ADDs of K in each later stretch, at most */
#define TL_JITTER_SLOTS 5   /* words the caller provides at slot */
#define TL_JITTER_WARM 16   /* untimed runs before each timed one, at most */
#define TL_JITTER_STR_(x) #x
#define TL_JITTER_STR(x) TL_JITTER_STR_(x)

struct tl_timed_jitter {
	struct tl_timed_chain k; /* the head of K */
	struct tl_timed_chain d; /* the first piece of D */
	uint64_t kpiece, dpiece; /* bytes (or ADDs, see TL_TIMED_ADD_BYTES) of each later stretch, piece */
	uint64_t *slot;          /* TL_JITTER_SLOTS words */
	uint64_t i;              /* x86: the switch's index into slot */
	uint64_t *b, *c;         /* elsewhere: slot + i, slot + i + 1 */
};

TL_TIMED_INLINE struct tl_timed_jitter tl_timed_jitter_prepare(uint64_t *slot, uint64_t k,
								 uint64_t d, unsigned dep)
{
	uintptr_t sel = dep & 1u, base = (uintptr_t)slot;
	uint64_t kq = k / TL_JITTER_PIECES, dq = d / TL_JITTER_PIECES;

	kq = kq < TL_JITTER_KPIECE ? kq : TL_JITTER_KPIECE;
	dq = dq < TL_JITTER_PIECE ? dq : TL_JITTER_PIECE;
	k -= (TL_JITTER_PIECES - 1) * kq;
	d -= (TL_JITTER_PIECES - 1) * dq;
	/* The words are picked in integer arithmetic: pointer arithmetic
	 * would get UBSan's overflow check (a branch) in a sanitized build,
	 * and this function is inlined into one that must have none. */
	struct tl_timed_jitter j = {
		{ 0, 1, k / TL_TIMED_UNROLL, (k % TL_TIMED_UNROLL) * TL_TIMED_ADD_BYTES },
		{ 0, 1, d / TL_TIMED_UNROLL, (d % TL_TIMED_UNROLL) * TL_TIMED_ADD_BYTES },
		kq * TL_TIMED_ADD_BYTES, dq * TL_TIMED_ADD_BYTES,
		slot, sel, (uint64_t *)(base + sel * sizeof *slot),
		(uint64_t *)(base + (sel + 1) * sizeof *slot),
	};

	/* Written here, before the first read, so the word the plain variant
	 * starts a piece from is as near (forwarded or in L1) as the one dep
	 * loads. */
	*(volatile uint64_t *)base = 0;
	*(volatile uint64_t *)(base + 2 * sizeof *slot) = 0;
	/* x86 reads the sizes from here (TL_JITTER_SIZES). */
	*(volatile uint64_t *)(base + 3 * sizeof *slot) = j.kpiece;
	*(volatile uint64_t *)(base + 4 * sizeof *slot) = j.dpiece;
	__asm__ volatile("" : "+r"(j.k.acc), "+r"(j.k.blocks), "+r"(j.k.skip), "+r"(j.d.blocks),
			 "+r"(j.d.skip), "+r"(j.kpiece), "+r"(j.dpiece), "+r"(j.slot), "+r"(j.i),
			 "+r"(j.b), "+r"(j.c));
	return j;
}

/* How many untimed runs train the predictors before a timed one:
 * TL_JITTER_WARM up to 2048 ADDs, then half as many per doubling of K + D
 * down to one (a few ns of training matter less there, and sixteen runs
 * would cost seconds a sample). A shift, not a division: clang turns a
 * division by K + D into a branch. */
TL_TIMED_INLINE TL_TIMED_NO_SAN uint64_t tl_timed_jitter_warm(uint64_t k, uint64_t d)
{
	unsigned lg = 63u - (unsigned)__builtin_clzll((k + d) | 1), s = lg > 11u ? lg - 11u : 0u;

	return TL_JITTER_WARM >> (s < 4u ? s : 4u);
}

/* The architecture's text: a piece of up to N ADDs on acc entered SKIP
 * before its end (labels A, B), the switch, the merge, and the operands
 * the switch addresses with. The switch's two loads sit side by side:
 * with the merge's load after the piece instead, D = 0 read 0.15 ns
 * faster dependent than plain (the forwarded load came first in one
 * variant, after the piece in the other). */
#if defined(__x86_64__)
#define TL_JITTER_PIECE_AT(A, B, SKIP, N)                                           \
	"lea " B "f(%%rip), %[tgt]\n\t"                                              \
	"sub " SKIP ", %[tgt]\n\t"                                                 \
	"jmp *%[tgt]\n\t"                                                           \
	".p2align 6\n" A ":\n\t"                                                     \
	".rept " N "\n\tadd %[inc], %[acc]\n\t.endr\n" B ":\n\t"                      \
	TL_TIMED_CHECK_BLOCK_AT(A, B, "(3 * " N ")")
#define TL_JITTER_SWITCH                                                            \
	"mov %[acc], 8(%[slot])\n\t"                                                 \
	"mov (%[slot],%[i],8), %[acc]\n\t"                                           \
	"mov 8(%[slot],%[i],8), %[v]\n\t"
#define TL_JITTER_MERGE                                                             \
	"add %[v], %[acc]\n\t"
#define TL_JITTER_ADD "add %[inc], %[acc]"
#define TL_JITTER_ADD_SIZE "768"
/* The store is addressed off a plain base register: off the stack
 * pointer or the thread pointer, the A/A control (D = 0) read up to
 * +-1.8 ns by P on the Zen 5 guest (the predictor treats those words
 * apart). */
#define TL_JITTER_WHERE(j) [slot] "r"((j).slot), [i] "r"((j).i)
/* The stretch's and piece's sizes come from slot[3] and slot[4]: two
 * registers fewer leave both readings of a barrier timer in registers
 * where a sanitized build keeps a frame pointer (in registers, a reading
 * went to the stack between the reads). */
#define TL_JITTER_KSIZE "24(%[slot])"
#define TL_JITTER_DSIZE "32(%[slot])"
#define TL_JITTER_SIZES(j)
#elif defined(__aarch64__)
#if !defined(__ARM_FEATURE_BTI_DEFAULT)
#define TL_JITTER_PIECE_AT(A, B, SKIP, N)                                           \
	"adr %[tgt], " B "f\n\t"                                                     \
	"sub %[tgt], %[tgt], " SKIP "\n\t"                                          \
	"br %[tgt]\n\t"                                                              \
	".p2align 6\n" A ":\n\t"                                                     \
	".rept " N "\n\tadd %[acc], %[acc], %[inc]\n\t.endr\n" B ":\n\t"
#else
/* BTI: a counted loop on a copy of SKIP (which counts ADDs here). */
#define TL_JITTER_PIECE_AT(A, B, SKIP, N)                                           \
	"mov %[tgt], " SKIP "\n\t"                                                  \
	"cbz %[tgt], " B "f\n" A ":\n\t"                                             \
	"add %[acc], %[acc], %[inc]\n\t"                                             \
	"subs %[tgt], %[tgt], #1\n\t"                                                \
	"b.ne " A "b\n" B ":\n\t"
#endif
#define TL_JITTER_SWITCH                                                            \
	"str %[acc], [%[slot], #8]\n\t"                                              \
	"ldr %[acc], [%[b]]\n\t"                                                     \
	"ldr %[v], [%[c]]\n\t"
#define TL_JITTER_MERGE "add %[acc], %[acc], %[v]\n\t"
#define TL_JITTER_ADD "add %[acc], %[acc], %[inc]"
#define TL_JITTER_ADD_SIZE "1024"
#define TL_JITTER_WHERE(j) [slot] "r"((j).slot), [b] "r"((j).b), [c] "r"((j).c)
#define TL_JITTER_KSIZE "%[kpiece]"
#define TL_JITTER_DSIZE "%[dpiece]"
#define TL_JITTER_SIZES(j) , [kpiece] "r"((j).kpiece), [dpiece] "r"((j).dpiece)
#endif

/* Returns K + D (whichever variant), so tests can check both counts ran. */
TL_TIMED_INLINE uint64_t tl_timed_jitter_run(struct tl_timed_jitter j)
{
#if defined(TL_JITTER_SWITCH)
	uint64_t tgt_, v_;
	__asm__ volatile(TL_TIMED_BLOCK_TEXT(TL_JITTER_ADD, TL_JITTER_ADD_SIZE, "1", "2", "3", "blk",
					     "skip")
			 TL_JITTER_SWITCH
			 TL_TIMED_BLOCK_TEXT(TL_JITTER_ADD, TL_JITTER_ADD_SIZE, "4", "5", "6", "dblk",
					     "dskip")
			 TL_JITTER_MERGE "\n"
			 ".rept " TL_JITTER_STR(TL_JITTER_PIECES) " - 1\n\t"
			 TL_JITTER_PIECE_AT("8", "9", TL_JITTER_KSIZE, TL_JITTER_STR(TL_JITTER_KPIECE))
			 TL_JITTER_SWITCH
			 TL_JITTER_PIECE_AT("10", "11", TL_JITTER_DSIZE, TL_JITTER_STR(TL_JITTER_PIECE))
			 TL_JITTER_MERGE
			 ".endr\n\t"
			 : [acc] "+r"(j.k.acc), [blk] "+r"(j.k.blocks), [skip] "+r"(j.k.skip),
			   [dblk] "+r"(j.d.blocks), [dskip] "+r"(j.d.skip), [tgt] "=&r"(tgt_),
			   [v] "=&r"(v_)
			 : [inc] "r"(j.k.inc), TL_JITTER_WHERE(j) TL_JITTER_SIZES(j)
			 : "cc", "memory");
	(void)tgt_;
	(void)v_;
	return j.k.acc;
#else
	uint64_t acc = tl_timed_chain_generic(j.k, '+');

	for (unsigned p = 0; p < TL_JITTER_PIECES; p++) {
		struct tl_timed_chain kq = { acc, 1, 0, p ? j.kpiece : 0 };
		struct tl_timed_chain dq = p ? (struct tl_timed_chain){ 0, 1, 0, j.dpiece } : j.d;

		acc = tl_timed_chain_generic(kq, '+');
		((volatile uint64_t *)j.slot)[1] = acc;
		dq.acc = *(volatile uint64_t *)j.b;
		acc = tl_timed_chain_generic(dq, '+') + *(volatile uint64_t *)j.c;
	}
	return acc;
#endif
}

#define TL_TIMED_NO_PREP(t) (void)(t)

/* Raw difference of two integer readings, signed: an unfenced read may
 * come back earlier than the one before it (τ_e < 0), and that is
 * a reading to keep, not an underflow. */
#define TL_TIMED_DIFF_INT(t, e, s) ((double)(int64_t)((uint64_t)(e) - (uint64_t)(s)))

/* The timed region, the one template every timed function is: the
 * recipe's PREP, the kernel's SETUP (its operands into registers, any
 * untimed runs), the first READ, the kernel's RUN alone, the second READ,
 * the kernel's AFTER (storing what RUN left), DIFF. The kernels
 * (bench/kernels/) instantiate it once per recipe (backends/reads.h). */
#define TL_TIMED_BODY(T, PREP, READ, DIFF, SETUP, RUN, AFTER)              \
	{                                                                   \
		PREP(t);                                                    \
		SETUP;                                                      \
		T start_, end_;                                             \
		READ(start_);                                               \
		RUN;                                                        \
		READ(end_);                                                 \
		AFTER;                                                      \
		return DIFF(t, end_, start_);                               \
	}

#endif
