/* An independent pointer chase, sharing no code with ticklab (no project
 * header, no GSL, no hwloc, its own generator and clock), to check the
 * lab's memory ladder against: for each size given, a random single cycle
 * through one 64-byte line per element (Sattolo over a xorshift64*
 * stream), one warm lap, then REPS timings of K dependent loads with
 * clock_gettime(CLOCK_MONOTONIC_RAW); prints the median ns per load, the
 * cost of an empty timing taken off.
 *
 *   chase_ref [-k K] [-r REPS] BYTES...   ->  "BYTES NS_PER_LOAD" lines
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;

static uint64_t next(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Links line i to line perm[i] with perm one cycle (Sattolo). */
static void **layout(size_t lines)
{
	void **buf = aligned_alloc(64, lines * 64);
	size_t *perm = malloc(lines * sizeof *perm);

	if (!buf || !perm) {
		fprintf(stderr, "chase_ref: out of memory\n");
		exit(1);
	}
	for (size_t i = 0; i < lines; i++)
		perm[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(next() % i), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	memset(buf, 0, lines * 64);
	for (size_t i = 0; i < lines; i++)
		buf[i * 8] = &buf[perm[i] * 8];
	free(perm);
	return buf;
}

static void *chase(void *p, long k)
{
	void **q = p;
	while (k--)
		q = *q;
	return q;
}

int main(int argc, char **argv)
{
	long k = 1000, reps = 2000;
	int a = 1;
	double *v, empty;
	void *volatile sink;

	for (; a + 1 < argc && argv[a][0] == '-'; a += 2)
		if (!strcmp(argv[a], "-k"))
			k = atol(argv[a + 1]);
		else if (!strcmp(argv[a], "-r"))
			reps = atol(argv[a + 1]);
	if (a >= argc || k <= 0 || reps <= 0) {
		fprintf(stderr, "usage: chase_ref [-k K] [-r REPS] BYTES...\n");
		return 2;
	}
	v = malloc((size_t)reps * sizeof *v);
	for (long r = 0; r < reps; r++) {
		double t0 = now_ns();
		v[r] = now_ns() - t0;
	}
	empty = median(v, (size_t)reps);
	for (; a < argc; a++) {
		size_t lines = (size_t)strtoull(argv[a], NULL, 10) / 64;
		void **buf;
		void *p;

		if (lines == 0)
			continue;
		buf = layout(lines);
		p = chase(buf, (long)lines); /* one warm lap */
		for (long r = 0; r < reps; r++) {
			double t0 = now_ns();
			p = chase(p, k);
			v[r] = now_ns() - t0;
		}
		sink = p;
		(void)sink;
		printf("%zu %.3f\n", lines * 64, (median(v, (size_t)reps) - empty) / (double)k);
		fflush(stdout);
		free(buf);
	}
	free(v);
	return 0;
}
