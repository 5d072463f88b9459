/* GSL's gsl_rng_mt19937, with gsl_rng_set, gsl_rng_uniform and
 * gsl_rng_uniform_int, inlined: the forest's trees draw a few hundred
 * numbers each, and through GSL's function pointers the draws were a
 * tenth of reading a raw fingerprint. The same numbers for the same seed
 * (GSL's seeding: 0 is 4357, Knuth's multiplier; test_stats_iforest holds
 * them against GSL's). */
#ifndef TL_STATS_MT19937_H
#define TL_STATS_MT19937_H

#include <stdint.h>

#define TL_MT_N 624
#define TL_MT_M 397

struct tl_mt {
	uint32_t mt[TL_MT_N];
	int mti;
};

static inline void tl_mt_set(struct tl_mt *s, unsigned long seed)
{
	if (seed == 0)
		seed = 4357;
	s->mt[0] = (uint32_t)(seed & 0xffffffffUL);
	for (int i = 1; i < TL_MT_N; i++)
		s->mt[i] = (uint32_t)(1812433253UL * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (unsigned)i);
	s->mti = TL_MT_N;
}

static inline uint32_t tl_mt_twist(uint32_t a, uint32_t b, uint32_t m)
{
	uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);

	return m ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

static inline uint32_t tl_mt_get(struct tl_mt *s)
{
	uint32_t k;

	if (s->mti >= TL_MT_N) {
		int kk;

		for (kk = 0; kk < TL_MT_N - TL_MT_M; kk++)
			s->mt[kk] = tl_mt_twist(s->mt[kk], s->mt[kk + 1], s->mt[kk + TL_MT_M]);
		for (; kk < TL_MT_N - 1; kk++)
			s->mt[kk] = tl_mt_twist(s->mt[kk], s->mt[kk + 1], s->mt[kk + TL_MT_M - TL_MT_N]);
		s->mt[TL_MT_N - 1] = tl_mt_twist(s->mt[TL_MT_N - 1], s->mt[0], s->mt[TL_MT_M - 1]);
		s->mti = 0;
	}
	k = s->mt[s->mti++];
	k ^= k >> 11;
	k ^= (k << 7) & 0x9d2c5680u;
	k ^= (k << 15) & 0xefc60000u;
	k ^= k >> 18;
	return k;
}

/* gsl_rng_uniform: [0, 1) */
static inline double tl_mt_uniform(struct tl_mt *s)
{
	return tl_mt_get(s) / 4294967296.0;
}

/* gsl_rng_uniform_int: [0, n), 0 < n <= 2^32 - 1, by GSL's rejection */
static inline unsigned long tl_mt_uniform_int(struct tl_mt *s, unsigned long n)
{
	unsigned long scale = 0xffffffffUL / n, k;

	do
		k = tl_mt_get(s) / scale;
	while (k >= n);
	return k;
}

#endif
