/* Cache flush: one store per 64-byte line over a buffer before every measurement. */
#ifndef TL_BENCH_FLUSH_H
#define TL_BENCH_FLUSH_H

#include <stddef.h>
#include <stdatomic.h>
#include <stdint.h>

struct tl_flush {
	unsigned char *buf;
	uint64_t bytes;
};

/* Allocates and touches once. Refuses sizes beyond half of physical memory. */
int tl_flush_init(struct tl_flush *f, uint64_t bytes, char *why, size_t whylen);
/* The same, giving up the first touch (64 MiB at a time) once *cancel is
 * set (a signal while a run prepares gigabytes): the buffer is there but
 * its pages may fault later, so it must not be measured with. cancel may
 * be NULL. */
int tl_flush_init_until(struct tl_flush *f, uint64_t bytes, const atomic_bool *cancel, char *why,
			size_t whylen);
/* Writes one byte per 64-byte line; a no-op for size 0. */
void tl_flush_touch(const struct tl_flush *f);
void tl_flush_free(struct tl_flush *f);

#endif
