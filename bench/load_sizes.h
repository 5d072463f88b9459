/* The buffer sizes of a load kernel: one size, a list (16KiB+1MiB+64MiB)
 * or a range across the cache levels (16KiB..1GiB, 4KiB..2xL3). */
#ifndef TL_BENCH_LOAD_SIZES_H
#define TL_BENCH_LOAD_SIZES_H

#include <stddef.h>
#include <stdint.h>

#include "bench/topology.h"

/* Sizes of one load spec at most (a ladder is plotted and fitted whole). */
#define TL_LOAD_MAX_SIZES 64
#define TL_LOAD_MAX_SIZES_TEXT "64"

/* The points of a range LO..HI: LO, HI, every power of two between them
 * and each cache end (L1d, L2, L3) inside, so every level gets a few
 * sizes and its last one; where a level still holds fewer than two sizes
 * strictly inside the range, the geometric middle of its part is added.
 * Sizes are rounded down to whole 64-byte lines; ascending and distinct.
 * topo may be NULL. Returns the count (<= max). */
size_t tl_load_range(uint64_t lo, uint64_t hi, const struct tl_topology *topo, uint64_t *out,
		     size_t max);

/* Parses SIZE, SIZE+SIZE+... or LO..HI (each SIZE as the flush parser takes
 * it, at least one 64-byte line) into out[0..*n), ascending for a range, in
 * the given order for a list. -1 with why naming what was wrong and the
 * accepted forms. */
int tl_load_sizes_parse(const char *text, const struct tl_topology *topo, uint64_t *out,
			size_t *n, char *why, size_t whylen);

#endif
