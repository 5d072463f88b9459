#include "config.h"

#include "bench/flush.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/size.h"

#define LINE 64
/* Large buffers are aligned to a 2 MiB huge page so the kernel can back
 * them with huge pages: fewer TLB misses in the flush loop itself. */
#define HUGE (2u << 20)

int tl_flush_init(struct tl_flush *f, uint64_t bytes, char *why, size_t whylen)
{
	return tl_flush_init_until(f, bytes, NULL, why, whylen);
}

#define TOUCH_STEP ((size_t)64 << 20)

int tl_flush_init_until(struct tl_flush *f, uint64_t bytes, const atomic_bool *cancel, char *why,
			size_t whylen)
{
	uint64_t max = tl_flush_max_bytes();
	size_t align = bytes >= HUGE ? HUGE : LINE;
	size_t alloc;
	void *p;

	f->buf = NULL;
	f->bytes = 0;
	if (bytes == 0)
		return 0;
	if (bytes > max) {
		char b[32], m[32];
		tl_size_format(bytes, b, sizeof b);
		tl_size_format(max > UINT64_MAX / 2 ? UINT64_MAX : 2 * max, m, sizeof m);
		snprintf(why, whylen,
			 "flush size %s needs %s; the limit is half of this machine's %s: pick a "
			 "smaller size",
			 b, b, m);
		return -1;
	}
	alloc = (size_t)((bytes + align - 1) / align * align);
	errno = posix_memalign(&p, align, alloc);
	if (errno) {
		char b[32];
		tl_size_format(bytes, b, sizeof b);
		snprintf(why, whylen, "cannot allocate a %s flush buffer: %s", b, strerror(errno));
		return -1;
	}
#ifdef MADV_HUGEPAGE
	if (align == HUGE)
		(void)madvise(p, alloc, MADV_HUGEPAGE); /* a hint: fine if refused */
#endif
	/* Touch once so page faults never land inside a measurement's flush. */
	for (size_t at = 0; at < alloc; at += TOUCH_STEP) {
		if (cancel && atomic_load(cancel))
			break;
		memset((char *)p + at, 0, alloc - at < TOUCH_STEP ? alloc - at : TOUCH_STEP);
	}
	f->buf = p;
	f->bytes = bytes;
	return 0;
}

void tl_flush_touch(const struct tl_flush *f)
{
	static _Atomic unsigned char generation;
	unsigned char *p, *end, v;

	if (!f || !f->buf)
		return;
	p = f->buf;
	end = p + f->bytes;
	/* A new value each pass: every store really changes its line. Plain
	 * stores (no read-modify-write) so no load waits on a cache miss. */
	v = (unsigned char)(atomic_fetch_add_explicit(&generation, 1, memory_order_relaxed) + 1);
	/* Eight lines per iteration keeps loop overhead out of the way of the
	 * stores; each store dirties its line, which is all a flush has to do. */
	for (; p + 8 * LINE <= end; p += 8 * LINE) {
		p[0 * LINE] = v;
		p[1 * LINE] = v;
		p[2 * LINE] = v;
		p[3 * LINE] = v;
		p[4 * LINE] = v;
		p[5 * LINE] = v;
		p[6 * LINE] = v;
		p[7 * LINE] = v;
	}
	for (; p < end; p += LINE)
		p[0] = v;
	/* The buffer is never read, so tell the compiler the stores are needed. */
	__asm__ __volatile__("" : : "r"(f->buf) : "memory");
}

void tl_flush_free(struct tl_flush *f)
{
	free(f->buf);
	f->buf = NULL;
	f->bytes = 0;
}
