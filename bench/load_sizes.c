#include "config.h"

#include "bench/load_sizes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"

static const char accepted[] =
	"accepted: SIZE, SIZE+SIZE+... (up to " TL_LOAD_MAX_SIZES_TEXT " sizes) or LO..HI, "
	"each a flush size of at least 64 bytes (16KiB, 1MiB, 4xL2)";

static void add(uint64_t *out, size_t *n, size_t max, uint64_t v)
{
	v -= v % 64;
	if (v < 64 || *n == max)
		return;
	for (size_t i = 0; i < *n; i++)
		if (out[i] == v)
			return;
	out[(*n)++] = v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* How many sizes lie strictly between a and b. */
static size_t inside(const uint64_t *v, size_t n, uint64_t a, uint64_t b)
{
	size_t c = 0;
	for (size_t i = 0; i < n; i++)
		c += v[i] > a && v[i] < b;
	return c;
}

size_t tl_load_range(uint64_t lo, uint64_t hi, const struct tl_topology *topo, uint64_t *out,
		     size_t max)
{
	uint64_t ends[5];
	size_t n = 0, ne = 0;

	add(out, &n, max, lo);
	add(out, &n, max, hi);
	for (uint64_t p = 64; p && p < hi; p <<= 1)
		if (p > lo)
			add(out, &n, max, p);
	ends[ne++] = lo;
	for (int l = 0; topo && l < 3; l++) {
		uint64_t b = l == 0 ? topo->l1d : l == 1 ? topo->l2 : topo->l3;
		if (b > lo && b < hi) {
			add(out, &n, max, b);
			ends[ne++] = b;
		}
	}
	ends[ne++] = hi;
	qsort(ends, ne, sizeof *ends, cmp_u64);
	for (size_t j = 0; j + 1 < ne; j++)
		if (ends[j + 1] > ends[j] && inside(out, n, ends[j], ends[j + 1]) < 2)
		{
			/* Whole KiB from 1 KiB on: the label reads 27KiB, not 28377. */
			uint64_t mid = (uint64_t)sqrt((double)ends[j] * (double)ends[j + 1]);
			add(out, &n, max, mid >= 1024 ? mid - mid % 1024 : mid);
		}
	qsort(out, n, sizeof *out, cmp_u64);
	return n;
}

static int one(const char *text, size_t len, const struct tl_topology *topo, uint64_t *v,
	       char *why, size_t whylen)
{
	char size[64], swhy[512];

	if (len == 0 || len >= sizeof size) {
		snprintf(why, whylen, "%s size in \"%.*s\"; %s", len ? "too long a" : "an empty",
			 (int)(len > 40 ? 40 : len), text, accepted);
		return -1;
	}
	snprintf(size, sizeof size, "%.*s", (int)len, text);
	if (tl_size_parse(size, topo, v, swhy, sizeof swhy) < 0) {
		snprintf(why, whylen, "%s", swhy);
		return -1;
	}
	if (*v < 64) {
		snprintf(why, whylen, "size %s must hold at least one 64-byte line; %s", size,
			 accepted);
		return -1;
	}
	return 0;
}

int tl_load_sizes_parse(const char *text, const struct tl_topology *topo, uint64_t *out,
			size_t *n, char *why, size_t whylen)
{
	const char *dots = strstr(text, "..");
	uint64_t lo, hi;

	*n = 0;
	if (dots) {
		if (one(text, (size_t)(dots - text), topo, &lo, why, whylen) ||
		    one(dots + 2, strlen(dots + 2), topo, &hi, why, whylen))
			return -1;
		if (hi <= lo) {
			snprintf(why, whylen, "range %s: HI must be larger than LO; %s", text,
				 accepted);
			return -1;
		}
		*n = tl_load_range(lo, hi, topo, out, TL_LOAD_MAX_SIZES);
		return 0;
	}
	for (const char *s = text;;) {
		size_t len = strcspn(s, "+");

		if (*n == TL_LOAD_MAX_SIZES) {
			snprintf(why, whylen, "more than " TL_LOAD_MAX_SIZES_TEXT " sizes; %s",
				 accepted);
			return -1;
		}
		if (one(s, len, topo, &out[*n], why, whylen))
			return -1;
		for (size_t j = 0; j < *n; j++)
			if (out[j] == out[*n]) {
				snprintf(why, whylen, "size %.*s is given twice; %s", (int)len, s,
					 accepted);
				return -1;
			}
		(*n)++;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}
