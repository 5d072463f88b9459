/* An independent pointer chase, sharing no code with ticklab (no project
 * header, no GSL, no hwloc, its own generator and clock), to check the
 * lab's memory ladder against. The method is the lab's, written again:
 * whole 2 MiB pages hinted for huge pages, one 64-byte line per element,
 * the lines visited in a shuffled order (Sattolo over a xorshift64*
 * stream) each pointing at the next, the last at the first; then per
 * measurement REPS empty timings, an untimed warm-up of WARM loads, REPS
 * timings of K dependent loads with clock_gettime(CLOCK_MONOTONIC_RAW);
 * the result is (median chase - median empty) / K ns per load.
 *
 *   chase_ref [-k K] [-r REPS] BYTES...  ->  "BYTES NS_PER_LOAD" lines,
 *                                            warm-up one lap
 *   chase_ref -s                         ->  serves bench_ladder on stdin:
 *     "layout BYTES SEED"  lays a buffer out (freeing the last), answers
 *                          "ok HUGE_KB" (AnonHugePages of this process,
 *                          -1 where unknown)
 *     "measure REPS K WARM"  answers "NS_PER_LOAD"
 * so a buffer is laid out once and measured in rounds between the lab's.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define LINE 64
#define PAGE_2M ((size_t)2 << 20)

static uint64_t rng_state;

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

static void *must(void *p)
{
	if (!p) {
		fprintf(stderr, "chase_ref: out of memory\n");
		exit(1);
	}
	return p;
}

/* The lines in a Sattolo-shuffled visiting order, each pointing at the
 * next one visited: one cycle through all of them. */
static void **layout(size_t lines, uint64_t seed)
{
	size_t bytes = (lines * LINE + PAGE_2M - 1) / PAGE_2M * PAGE_2M;
	size_t *visit = must(malloc(lines * sizeof *visit));
	void *mem = NULL;
	char *buf;

	if (posix_memalign(&mem, PAGE_2M, bytes))
		must(NULL);
	(void)madvise(mem, bytes, MADV_HUGEPAGE);
	buf = mem;
	rng_state = seed ? seed : 0x2545F4914F6CDD1DULL;
	for (size_t i = 0; i < lines; i++)
		visit[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)(next() % i), t = visit[i];
		visit[i] = visit[j];
		visit[j] = t;
	}
	memset(buf, 0, lines * LINE);
	for (size_t i = 0; i < lines; i++)
		*(void **)(buf + visit[i] * LINE) = buf + visit[(i + 1) % lines] * LINE;
	free(visit);
	return mem;
}

static void *chase(void *p, long k)
{
	void **q = p;
	while (k-- > 0)
		q = *q;
	return q;
}

static void *volatile sink;

/* (median of reps chases of k loads - median of reps empty timings) / k,
 * after `warm` untimed loads; *at is where the chase goes on from. */
static double measure(void **at, long reps, long k, long warm)
{
	double *v = must(malloc((size_t)reps * sizeof *v)), empty, full;
	void *p = *at;

	for (long r = 0; r < reps; r++) {
		double t0 = now_ns();
		v[r] = now_ns() - t0;
	}
	empty = median(v, (size_t)reps);
	p = chase(p, warm);
	for (long r = 0; r < reps; r++) {
		double t0 = now_ns();
		p = chase(p, k);
		v[r] = now_ns() - t0;
	}
	full = median(v, (size_t)reps);
	free(v);
	sink = p;
	*at = p;
	return (full - empty) / (double)k;
}

static long huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kb = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static int serve(void)
{
	char cmd[256];
	void **buf = NULL, *at = NULL;
	unsigned long long bytes, seed;
	long reps, k, warm;

	while (fgets(cmd, sizeof cmd, stdin)) {
		if (sscanf(cmd, "layout %llu %llu", &bytes, &seed) == 2 && bytes >= LINE) {
			free(buf);
			buf = NULL; /* the old buffer's huge pages out of the count */
			buf = layout((size_t)(bytes / LINE), seed);
			at = buf;
			printf("ok %ld\n", huge_kb());
		} else if (sscanf(cmd, "measure %ld %ld %ld", &reps, &k, &warm) == 3 && buf &&
			   reps > 0 && k > 0 && warm >= 0) {
			printf("%.4f\n", measure(&at, reps, k, warm));
		} else {
			fprintf(stderr, "chase_ref: bad command: %s", cmd);
			return 2;
		}
		fflush(stdout);
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	long k = 1000, reps = 2000;
	int a = 1;

	if (argc == 2 && !strcmp(argv[1], "-s"))
		return serve();
	for (; a + 1 < argc && argv[a][0] == '-'; a += 2)
		if (!strcmp(argv[a], "-k"))
			k = atol(argv[a + 1]);
		else if (!strcmp(argv[a], "-r"))
			reps = atol(argv[a + 1]);
	if (a >= argc || k <= 0 || reps <= 0) {
		fprintf(stderr, "usage: chase_ref [-k K] [-r REPS] BYTES... | chase_ref -s\n");
		return 2;
	}
	for (; a < argc; a++) {
		size_t lines = (size_t)strtoull(argv[a], NULL, 10) / LINE;
		void **buf, *at;

		if (lines == 0)
			continue;
		buf = layout(lines, 0);
		at = buf;
		printf("%zu %.3f\n", lines * LINE, measure(&at, reps, k, (long)lines));
		fflush(stdout);
		free(buf);
	}
	return 0;
}
