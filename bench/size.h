/* Flush sizes: "0", "32KiB", "27.5MiB", "110MiB", "4M", "4xL1", "4xL2", "4xL3" (PCRE2). */
#ifndef TL_BENCH_SIZE_H
#define TL_BENCH_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "bench/topology.h"

/* Returns 0 with *bytes set, or -1 with why naming the bad text and the
 * accepted forms. topo may be NULL (then NxLk is refused with a reason).
 * Sizes beyond half of physical memory are refused here. */
int tl_size_parse(const char *text, const struct tl_topology *topo, uint64_t *bytes, char *why,
		  size_t whylen);

/* The largest flush accepted: half of physical memory (sysconf). */
uint64_t tl_flush_max_bytes(void);

/* Human form: "0", "48KiB", "27.5MiB", "1.9GiB". */
void tl_size_format(uint64_t bytes, char *buf, size_t len);

#endif
