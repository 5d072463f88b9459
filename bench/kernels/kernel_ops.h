/* What a kernel file (bench/kernels/NAME.c) is made of: the parse
 * helpers the families share, and TL_KERNEL_TIMED, which instantiates the
 * timed-region template (backends/timed.h) with the kernel's body once
 * per reading recipe (backends/reads.h). Only kernel files include it. */
#ifndef TL_BENCH_KERNELS_KERNEL_OPS_H
#define TL_BENCH_KERNELS_KERNEL_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "backends/reads.h"
#include "backends/sim.h"
#include "backends/timed.h"
#include "bench/kernel.h"

/* why = the head (fmt with bad) and the accepted list. Returns -1. */
int tl_kernel_fail(char *why, size_t whylen, const char *fmt, const char *bad);

/* Appends k to *out (its label from k->kind->describe); -1 with why when
 * the list is full. */
int tl_kernel_push(struct tl_kernel **out, size_t *n, struct tl_kernel *k, const char *tok,
		   char *why, size_t whylen);

/* Digits only, at most TL_KERNEL_MAX_K: 0, or -1. */
int tl_kernel_parse_count(const char *s, size_t len, uint64_t *v);

/* Splits s on sep into at most max fields; returns the field count (max + 1: too many). */
size_t tl_kernel_split(const char *s, size_t len, char sep, const char **f, size_t *fl,
		       size_t max);

/* The chains' one grammar, K or START:END:STEP (a range pushes each K),
 * and their label "name:K": add, mul, fma and any other counted chain. */
int tl_kernel_parse_counted(const struct tl_kernel_ops *ops, const char *tok, const char *args,
			    size_t alen, const struct tl_topology *topo, struct tl_kernel **out,
			    size_t *n, char *why, size_t whylen);
void tl_kernel_describe_counted(struct tl_kernel *k);

/* TL_KERNEL_TIMED(K) defines K_timed, the kernel's timed functions, from
 * five macros the kernel file defines first:
 *   K_SETUP       statements before the first read, from k (the kernel),
 *                 n (the sample's count) and cursor;
 *   K_RUN         the body: the only thing between the reads;
 *   K_AFTER       statements after the second read (store what RUN left);
 *   K_ATTR        attributes of each function (TL_TIMED_NO_SAN or empty);
 *   K_SIM_NS(m, k, n)  what the body costs on the sim model m, in ns.
 * Each function is NAME_time_K (barrier_tsc_time_adds, ...), the name
 * tests/test_timed_asm.sh reads the compiled code by. */
#define TL_KERNEL_TIMED_FN_(K, NAME, ROW, T, PREP, READ, DIFF)                     \
	K##_ATTR static double NAME##_time_##K(struct tl_timer *t, const struct tl_kernel *k, \
					       uint64_t n, const void **cursor)     \
		TL_TIMED_BODY(T, PREP, READ, DIFF,                                   \
			      (void)k; (void)n; (void)cursor; K##_SETUP, K##_RUN, K##_AFTER)
#define TL_KERNEL_TIMED_ROW_(K, NAME, ROW, T, PREP, READ, DIFF) [ROW] = NAME##_time_##K,

#define TL_KERNEL_TIMED(K)                                                         \
	TL_READS(TL_KERNEL_TIMED_FN_, K)                                           \
	static double sim_time_##K(struct tl_timer *t, const struct tl_kernel *k, uint64_t n, \
				   const void **cursor)                             \
	{                                                                          \
		(void)k;                                                           \
		(void)n;                                                           \
		(void)cursor;                                                      \
		return tl_sim_time(t, K##_SIM_NS(tl_sim_timer_model(t), k, n));    \
	}                                                                          \
	static const tl_time_fn K##_timed[TL_TIMINGS] = {                         \
		TL_READS(TL_KERNEL_TIMED_ROW_, K)[TL_TIMING_SIM] = sim_time_##K,   \
	};

#endif
