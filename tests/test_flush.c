/* Cache flush buffers: size 0 is a no-op, every line is stored to, sizes
 * beyond half of physical memory are refused. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "bench/flush.h"
#include "bench/size.h"
#include "tests/tap.h"

/* Every 64-byte line's first byte holds the pass's value; nothing else moved. */
static int lines_touched(const struct tl_flush *f, unsigned char *value)
{
	unsigned char v = f->buf[0];
	if (v == 0)
		return 0;
	for (uint64_t i = 0; i < f->bytes; i++)
		if (f->buf[i] != (i % 64 == 0 ? v : 0))
			return 0;
	*value = v;
	return 1;
}

int main(void)
{
	struct tl_flush f;
	char why[256] = "";
	unsigned char v1 = 0, v2 = 0;

	ok(tl_flush_init(&f, 0, why, sizeof why) == 0 && f.buf == NULL && f.bytes == 0,
	   "size 0: no buffer");
	tl_flush_touch(&f);
	tl_flush_touch(NULL);
	ok(1, "size 0 and NULL: touch is a no-op");
	tl_flush_free(&f);

	ok(tl_flush_init(&f, 32768, why, sizeof why) == 0 && f.buf && f.bytes == 32768,
	   "32KiB buffer");
	ok(((uintptr_t)f.buf & 63) == 0, "aligned to a cache line");
	ok(f.buf[0] == 0 && f.buf[32767] == 0, "touched once at allocation (zeroed)");
	tl_flush_touch(&f);
	ok(lines_touched(&f, &v1), "one store per 64-byte line, nothing else");
	tl_flush_touch(&f);
	ok(lines_touched(&f, &v2) && v2 != v1, "each pass stores a new value");
	tl_flush_free(&f);
	ok(f.buf == NULL && f.bytes == 0, "freed");

	/* 8 lines + 1 line + a partial line: the unrolled loop and its tail. */
	ok(tl_flush_init(&f, 9 * 64 + 10, why, sizeof why) == 0, "odd size");
	tl_flush_touch(&f);
	ok(lines_touched(&f, &v1) && f.buf[9 * 64] == v1, "odd size: tail lines stored too");
	tl_flush_free(&f);

	ok(tl_flush_init(&f, 4u << 20, why, sizeof why) == 0 && ((uintptr_t)f.buf & ((2u << 20) - 1)) == 0,
	   "4MiB buffer is 2MiB-aligned (huge-page friendly)");
	tl_flush_touch(&f);
	ok(lines_touched(&f, &v1), "4MiB: every line stored");
	tl_flush_free(&f);

	uint64_t max = tl_flush_max_bytes();
	ok(max > 0 && max < UINT64_MAX / 2, "half of physical memory: %" PRIu64 " bytes", max);
	ok(tl_flush_init(&f, max + 1, why, sizeof why) == -1 &&
		   strstr(why, "the limit is half of this machine") && f.buf == NULL,
	   "one byte over half of this machine's memory is refused: %s", why);
	return tap_done();
}
