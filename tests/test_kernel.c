/* Kernel specs: parsing, ranges, rejections, the jitter plan, the chase layout. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/detect.h"
#include "bench/kernel.h"
#include "bench/load_sizes.h"
#include "bench/topology.h"
#include "stats/compare.h"
#include "tests/tap.h"

static size_t parse(const char *text, struct tl_kernel **k, char *why, size_t whylen)
{
	size_t n = 0;
	*k = NULL;
	why[0] = '\0';
	if (tl_kernel_parse_list(text, k, &n, why, whylen))
		return (size_t)-1;
	return n;
}

static void test_single(void)
{
	struct tl_kernel *k;
	char why[512];

	is_int(parse("empty", &k, why, sizeof why), 1, "empty parses");
	ok(k[0].kind == TL_KERNEL_EMPTY && k[0].k == 0 && !strcmp(k[0].label, "empty"),
	   "empty: kind, k = 0, label");
	free(k);

	is_int(parse("add:500", &k, why, sizeof why), 1, "add:500 parses");
	ok(k[0].kind == TL_KERNEL_ADD && k[0].k == 500 && !strcmp(k[0].label, "add:500"),
	   "add:500: kind, k, label");
	free(k);

	is_int(parse("add:0", &k, why, sizeof why), 1, "add:0 parses (zero ADDs is not empty)");
	ok(k[0].kind == TL_KERNEL_ADD && k[0].k == 0, "add:0 is an add kernel with K = 0");
	free(k);

	is_int(parse("add:1000000000", &k, why, sizeof why), 1, "add at the bound parses");
	free(k);

	is_int(parse("jitter:500,5,0.1", &k, why, sizeof why), 1, "jitter:500,5,0.1 is one kernel");
	ok(k[0].kind == TL_KERNEL_JITTER && k[0].k == 500 && k[0].d == 5 && k[0].p == 0.1 &&
		   !strcmp(k[0].label, "jitter:500,5,0.1"),
	   "jitter fields and label");
	free(k);

	/* D in ns waits for the runner's ns per ADD: d stays 0 until then. */
	is_int(parse("jitter:500,5ns,0.5", &k, why, sizeof why), 1, "jitter:500,5ns,0.5 parses");
	ok(k[0].kind == TL_KERNEL_JITTER && k[0].d == 0 && k[0].d_ns == 5 && k[0].p == 0.5 &&
		   !strcmp(k[0].label, "jitter:500,5ns,0.5"),
	   "D in ns: d_ns 5, d 0 until the run converts it, label keeps the ns");
	free(k);
	is_int(parse("jitter:500,2.5ns,0.1,add:3", &k, why, sizeof why), 2,
	       "a jitter with D in ns binds its commas in a list");
	ok(k[0].d_ns == 2.5 && !strcmp(k[0].label, "jitter:500,2.5ns,0.1"), "2.5ns label: %s",
	   k[0].label);
	free(k);
	is_int(parse("jitter:1,0.1ns,0.1", &k, why, sizeof why), 1, "0.1ns parses");
	ok(!strcmp(k[0].label, "jitter:1,0.1ns,0.1"), "0.1 ns prints shortest: %s", k[0].label);
	free(k);

	is_int(parse("jitter:0,0,0", &k, why, sizeof why), 1, "jitter:0,0,0 parses");
	free(k);
	is_int(parse("jitter:10,3,1", &k, why, sizeof why), 1, "jitter with P = 1 parses");
	free(k);
	is_int(parse("jitter:500,256,0.5", &k, why, sizeof why), 1,
	       "jitter D = 256 ADDs, the most delivered whole, parses");
	free(k);
}

static void test_lists(void)
{
	struct tl_kernel *k;
	char why[512];

	is_int(parse("empty,add:500,jitter:500,5,0.25,add:7", &k, why, sizeof why), 4,
	       "list with jitter's commas bound to it: 4 kernels");
	ok(!strcmp(k[0].label, "empty") && !strcmp(k[1].label, "add:500") &&
		   !strcmp(k[2].label, "jitter:500,5,0.25") && !strcmp(k[3].label, "add:7"),
	   "list labels in order");
	free(k);

	is_int(parse(" empty , add:3 ", &k, why, sizeof why), 2, "spaces around items are ignored");
	free(k);

	is_int(parse("add:0:20000:2000", &k, why, sizeof why), 11, "add:0:20000:2000 is 11 kernels");
	ok(k[0].k == 0 && k[5].k == 10000 && k[10].k == 20000, "range is inclusive, in steps");
	ok(!strcmp(k[10].label, "add:20000"), "range members are labelled add:K");
	free(k);

	is_int(parse("add:5:12:4", &k, why, sizeof why), 2, "range stops before passing END");
	ok(k[0].k == 5 && k[1].k == 9, "add:5:12:4 is 5, 9");
	free(k);

	is_int(parse("add:7:7:1", &k, why, sizeof why), 1, "one-element range");
	free(k);

	is_int(parse("add:0:9999:1", &k, why, sizeof why), 10000, "10000 kernels is the limit");
	free(k);

	is_int(parse("empty,add:1:3:1,jitter:4,1,0.5", &k, why, sizeof why), 5,
	       "range inside a list");
	free(k);
}

static void reject(const char *text, const char *needle)
{
	struct tl_kernel *k = NULL;
	char why[512];
	size_t n = 0;
	int rc = tl_kernel_parse_list(text, &k, &n, why, sizeof why);
	ok(rc == -1 && n == 0, "\"%s\" is refused", text);
	ok(strstr(why, needle) != NULL && strstr(why, "accepted:") != NULL,
	   "message for \"%s\" names \"%s\" and the accepted forms", text, needle);
	if (!strstr(why, needle))
		tap_diag("why: %s", why);
	free(k);
}

static void test_rejections(void)
{
	reject("", "no kernel");
	reject("add:-5", "add:-5");
	reject("add:", "add:");
	reject("add", "\"add\"");
	reject("add:5x", "add:5x");
	reject("add:0x10", "add:0x10");
	reject("add:+5", "add:+5");
	reject("add:1000000001", "whole numbers 0..1000000000");
	reject("add:99999999999999999999999", "add:9999");
	reject("add:1:2", "START:END:STEP");
	reject("add:1:2:3:4", "START:END:STEP");
	reject("add:10:0:1", "END must be >= START");
	reject("add:0:10:0", "STEP must be > 0");
	reject("add:0:10000:1", "more than 10000");
	reject("jitter:500,5", "K,D,P");
	reject("jitter:500,5,1.5", "P must be");
	reject("jitter:500,5,-0.1", "P must be");
	reject("jitter:500,5,nan", "P must be");
	reject("jitter:500,-5,0.1", "D must be a whole number of ADDs");
	reject("jitter:500,-5ns,0.1", "or a time in ns 0..1000000");
	reject("jitter:500,ns,0.1", "D must be");
	reject("jitter:500,1e3ns,0.1", "D must be");
	reject("jitter:500,1000001ns,0.1", "D must be");
	reject("jitter:500,5 ns,0.1", "D must be");
	reject("jitter:500,257,0.5", "D above 256 ADDs");
	reject("jitter:x,5,0.1", "K must be");
	reject("jitter:500,5,0.1x", "P must be");
	reject("nop", "unknown kernel \"nop\"");
	reject("empty,,add:5", "empty kernel name");
	reject("empty,", "empty kernel name");
	reject("EMPTY", "unknown kernel");
}

/* Counts of one arm's samples: all, dependent, and with chain + DEP. */
static void arm_counts(const uint64_t *a, size_t n, uint64_t k, enum tl_jitter_arm arm,
		       size_t *all, size_t *dep, size_t *bad, uint64_t dep_chain)
{
	*all = *dep = *bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (tl_jitter_code_arm(a[i]) != arm)
			continue;
		(*all)++;
		*bad += i % TL_JITTER_ARMS != (size_t)arm;
		if (tl_jitter_code_dep(a[i], k)) {
			(*dep)++;
			*bad += tl_jitter_code_chain(a[i]) != dep_chain || !(a[i] & TL_JITTER_DEP);
		} else {
			*bad += tl_jitter_code_chain(a[i]) != k;
		}
	}
}

static void test_plan(void)
{
	struct tl_kernel k = { .kind = TL_KERNEL_JITTER, .k = 500, .d = 50, .p = 0.1 };
	enum { N = 10000 };
	uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
	size_t extra = 0, diff = 0, all, dep, bad;

	tl_kernel_plan(&k, 42, a, N);
	/* Arms by position: 3334, 3333, 3333 samples. */
	arm_counts(a, N, 500, TL_JITTER_MAIN, &all, &dep, &bad, 550);
	ok(all == 3334 && dep == 333 && bad == 0,
	   "main arm: samples 0, 3, 6...; exactly round(0.1 x 3334) = 333 run K+D (%zu of %zu, %zu bad)",
	   dep, all, bad);
	arm_counts(a, N, 500, TL_JITTER_AA, &all, &dep, &bad, 500);
	ok(all == 3333 && dep == 333 && bad == 0,
	   "A/A arm: samples 1, 4...; 333 take the dependent path with D = 0 (%zu of %zu, %zu bad)",
	   dep, all, bad);
	arm_counts(a, N, 500, TL_JITTER_SWAPPED, &all, &dep, &bad, 550);
	ok(all == 3333 && dep == 3000 && bad == 0,
	   "P-swapped arm: samples 2, 5...; round(0.9 x 3333) = 3000 run K+D (%zu of %zu, %zu bad)",
	   dep, all, bad);

	tl_kernel_plan(&k, 42, b, N);
	ok(!memcmp(a, b, N * sizeof *a), "same seed, same plan");
	tl_kernel_plan(&k, 43, b, N);
	for (size_t i = 0; i < N; i++)
		diff += a[i] != b[i];
	ok(diff > 0, "another seed, another plan (%zu positions differ)", diff);

	/* The jittered positions are spread, not bunched at the start. */
	size_t first_half = 0;
	for (size_t i = 0; i < N / 2; i++)
		first_half += tl_jitter_code_arm(a[i]) == TL_JITTER_MAIN &&
			      tl_jitter_code_dep(a[i], 500);
	ok(first_half > 130 && first_half < 200, "jittered share is even over the run (%zu/333 "
						 "in the first half)", first_half);

	/* The plan from before the arms, kept to re-split old files. */
	tl_kernel_plan_main_only(&k, 42, a, N);
	extra = 0;
	for (size_t i = 0; i < N; i++)
		extra += tl_jitter_code_arm(a[i]) == TL_JITTER_MAIN && tl_jitter_code_chain(a[i]) == 550;
	is_int(extra, 1000, "main-only plan: exactly round(p*n) = 1000 of 10000 get K+D");
	/* A code without marks (an old file's K or K+D) reads as main arm. */
	ok(tl_jitter_code_arm(550) == TL_JITTER_MAIN && tl_jitter_code_dep(550, 500) &&
		   !tl_jitter_code_dep(500, 500) && !tl_jitter_codes_tagged(a, 0),
	   "an unmarked K+D is a main-arm injected sample, K a plain one");

	k.p = 0.333;
	tl_kernel_plan_main_only(&k, 7, a, 3);
	extra = (a[0] != 500) + (a[1] != 500) + (a[2] != 500);
	is_int(extra, 1, "p = 0.333 over 3 measurements: one jittered");

	k.p = 1;
	tl_kernel_plan(&k, 7, a, 99);
	arm_counts(a, 99, 500, TL_JITTER_MAIN, &all, &dep, &bad, 550);
	ok(all == 33 && dep == 33 && bad == 0, "p = 1: the whole main arm jittered");
	arm_counts(a, 99, 500, TL_JITTER_SWAPPED, &all, &dep, &bad, 550);
	ok(all == 33 && dep == 0 && bad == 0, "p = 1: none of the P-swapped arm");

	struct tl_kernel add = { .kind = TL_KERNEL_ADD, .k = 123 };
	tl_kernel_plan(&add, 1, a, 100);
	ok(a[0] == 123 && a[99] == 123, "add plan: K everywhere");
	struct tl_kernel empty = { .kind = TL_KERNEL_EMPTY };
	tl_kernel_plan(&empty, 1, a, 100);
	ok(a[0] == 0 && a[99] == 0, "empty plan: zeros");
	free(a);
	free(b);
}

/* mul/fma share add's grammar; load takes a flush size and an optional K,
 * and its label parses back to the same buffer. */
static void test_chains_and_loads(void)
{
	struct tl_kernel *k;
	char why[512];

	is_int(parse("mul:0:20000:2000", &k, why, sizeof why), 11, "mul:0:20000:2000: 11 kernels");
	ok(k[10].kind == TL_KERNEL_MUL && k[10].k == 20000 && !strcmp(k[10].label, "mul:20000"),
	   "mul range: kind, K, label (%s)", k[10].label);
	free(k);
	is_int(parse("fma:300", &k, why, sizeof why), 1, "fma:300 parses");
	ok(k[0].kind == TL_KERNEL_FMA && k[0].k == 300 && !strcmp(k[0].label, "fma:300"),
	   "fma:300: kind, K, label");
	free(k);

	is_int(parse("load:16KiB", &k, why, sizeof why), 1, "load:16KiB parses");
	ok(k[0].kind == TL_KERNEL_LOAD && k[0].bytes == 16384 &&
		   k[0].k == TL_KERNEL_LOAD_DEFAULT_K && !strcmp(k[0].label, "load:16KiB,1000"),
	   "load:16KiB: 16384 bytes, default K, label %s", k[0].label);
	free(k);
	is_int(parse("load:64MiB,500,add:5,load:4096", &k, why, sizeof why), 3,
	   "a load's K comma binds to it in a list");
	ok(k[0].bytes == 64u << 20 && k[0].k == 500 && k[1].kind == TL_KERNEL_ADD &&
		   k[1].k == 5 && k[2].bytes == 4096 && !strcmp(k[0].label, "load:64MiB,500"),
	   "load:64MiB,500 then add:5 then load:4096 (%s, %s, %s)", k[0].label, k[1].label,
	   k[2].label);
	free(k);
	is_int(parse("load:1000,7", &k, why, sizeof why), 1, "load of a non-KiB size");
	ok(!strcmp(k[0].label, "load:1000,7"), "its label is exact: %s", k[0].label);
	free(k);

	ok(parse("load:32", &k, why, sizeof why) == (size_t)-1 && strstr(why, "64-byte line"),
	   "load smaller than a line refused: %s", why);
	ok(parse("load:4xL1", &k, why, sizeof why) == (size_t)-1 && strstr(why, "load:4xL1"),
	   "load:4xL1 without a topology refused with a reason: %s", why);
	ok(parse("mul:x", &k, why, sizeof why) == (size_t)-1 && strstr(why, "MUL counts"),
	   "mul:x refused: %s", why);
}

/* The ladder's points, derived by hand for a Zen 5 guest's caches (L1d
 * 48KiB, L2 1MiB, L3 508MiB): powers of two, the ends and the cache ends,
 * plus a geometric middle where a level holds fewer than two sizes. */
static void test_load_ranges(void)
{
	struct tl_topology topo = { .l1d = 48 << 10, .l2 = 1 << 20, .l3 = 508ULL << 20 };
	uint64_t v[TL_LOAD_MAX_SIZES];
	size_t n = tl_load_range(16 << 10, 1ULL << 30, &topo, v, TL_LOAD_MAX_SIZES);
	struct tl_kernel *k;
	char why[512];
	/* 16K..48K holds only 32K: + sqrt(16K x 48K) = 28377.6 -> 27KiB;
	 * 508M..1G holds only 512M: + sqrt(508M x 1G) = 756278488 -> 756278272 (whole KiB). */
	static const uint64_t want[] = {
		16 << 10, 27 << 10, 32 << 10, 48 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10,
		1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20, 128 << 20,
		256 << 20, 508ULL << 20, 512ULL << 20, 756278272ULL, 1ULL << 30,
	};
	size_t nw = sizeof want / sizeof want[0], same = 0;

	is_int(n, nw, "16KiB..1GiB on L1d 48KiB/L2 1MiB/L3 508MiB: %zu sizes", nw);
	for (size_t i = 0; i < n && i < nw; i++) {
		same += v[i] == want[i];
		if (v[i] != want[i])
			tap_diag("size %zu: %llu, want %llu", i, (unsigned long long)v[i],
				 (unsigned long long)want[i]);
	}
	is_int(same, nw, "each size as derived by hand");

	n = tl_load_range(4 << 10, 64 << 10, NULL, v, TL_LOAD_MAX_SIZES);
	ok(n == 5 && v[0] == 4096 && v[4] == 65536, "4KiB..64KiB without caches: 4K 8K 16K 32K 64K");

	is_int(parse("load:16KiB..64KiB,300", &k, why, sizeof why), 3, "load:16KiB..64KiB,300: 3 kernels");
	ok(k[0].k == 300 && k[2].k == 300 && !strcmp(k[1].label, "load:32KiB,300"),
	   "each gets K and its own label (%s)", k[1].label);
	free(k);
	is_int(parse("load:1MiB+16KiB+64MiB,add:5", &k, why, sizeof why), 4,
	   "a list of sizes, then another kernel");
	ok(k[0].bytes == 1 << 20 && k[1].bytes == 16 << 10 && k[2].bytes == 64 << 20 &&
		   k[2].k == TL_KERNEL_LOAD_DEFAULT_K && k[3].kind == TL_KERNEL_ADD,
	   "the list keeps its order and the default K");
	free(k);
	ok(parse("load:1MiB..16KiB", &k, why, sizeof why) == (size_t)-1 &&
		   strstr(why, "HI must be larger") && strstr(why, "LO..HI"),
	   "a falling range refused, naming the forms: %s", why);
	ok(parse("load:16KiB+16KiB", &k, why, sizeof why) == (size_t)-1 && strstr(why, "twice"),
	   "a size twice in a list refused: %s", why);
	ok(parse("load:16KiB..", &k, why, sizeof why) == (size_t)-1 && strstr(why, "empty size"),
	   "a range without HI refused: %s", why);
	ok(parse("load:16KiB..2xL3", &k, why, sizeof why) == (size_t)-1 && strstr(why, "L3"),
	   "a range to 2xL3 without a topology refused with a reason: %s", why);
}

/* Walks the chase from the start: the steps until it first comes back,
 * or 0 when a pointer leaves the buffer's lines. */
static size_t cycle_length(void *buf, size_t lines)
{
	char *base = buf, *at = buf;
	size_t steps = 0;

	do {
		char *to = *(char **)at;
		if (to < base || to >= base + lines * 64 || (size_t)(to - base) % 64)
			return 0;
		at = to;
		steps++;
	} while (at != base && steps <= lines);
	return steps;
}

/* Lines of two layouts whose pointer goes to the same line offset. */
static size_t same_links(void *a, void *b, size_t lines)
{
	size_t same = 0;

	for (size_t l = 0; l < lines; l++)
		same += (char *)((void **)a)[l * 8] - (char *)a ==
			(char *)((void **)b)[l * 8] - (char *)b;
	return same;
}

/* AnonHugePages of this process in KiB, -1 where the kernel does not say. */
static long huge_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "AnonHugePages:", 14) == 0)
			kib = strtol(line + 14, NULL, 10);
	fclose(f);
	return kib;
}

static long huge_kib_of_layout(uint64_t bytes)
{
	long before = huge_kib();
	void *p = tl_kernel_chase_layout(bytes, 3);
	long after = huge_kib();

	tl_kernel_chase_free(p, bytes);
	return before < 0 || after < 0 ? -1 : after - before;
}

/* A chase laid out after a larger one was freed gets the huge pages a
 * fresh one gets: malloc would hand back heap pages faulted at 4 KiB. The
 * expectation is this node's own first layout, whatever its THP mode. */
static void test_chase_huge_pages_hold(void)
{
	long first = huge_kib_of_layout(4u << 20);

	(void)huge_kib_of_layout(32u << 20);
	long again = huge_kib_of_layout(4u << 20);

	if (first <= 0) {
		tap_diag("this node gave a fresh 4 MiB chase no huge pages (%ld KiB): nothing to "
			 "hold",
			 first);
		return;
	}
	ok(again >= first, "4 MiB chase after a 32 MiB one: %ld KiB huge, as the first (%ld KiB)",
	   again, first);
}

static void test_chase_layout(void)
{
	static const size_t sizes[] = { 64, 128, 4096, 48 * 1024, 3u << 20 };

	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		size_t lines = sizes[i] / 64;
		void *a = tl_kernel_chase_layout(sizes[i], 7), *b = tl_kernel_chase_layout(sizes[i], 7);

		ok(a && cycle_length(a, lines) == lines,
		   "%zu bytes: one cycle through all %zu lines, each pointer on a line start",
		   sizes[i], lines);
		ok(a && (uintptr_t)a % (2u << 20) == 0, "%zu bytes: on a 2 MiB page boundary",
		   sizes[i]);
		ok(a && b && same_links(a, b, lines) == lines, "%zu bytes: same seed, same cycle",
		   sizes[i]);
		tl_kernel_chase_free(a, sizes[i]);
		tl_kernel_chase_free(b, sizes[i]);
	}
	void *a = tl_kernel_chase_layout(1 << 20, 1), *b = tl_kernel_chase_layout(1 << 20, 2);
	size_t same = a && b ? same_links(a, b, (1 << 20) / 64) : 0;
	ok(a && b && same < 100, "another seed, another cycle (%zu of 16384 links alike)", same);
	tl_kernel_chase_free(a, 1 << 20);
	tl_kernel_chase_free(b, 1 << 20);
	ok(tl_kernel_chase_layout(63, 1) == NULL, "less than a line: no buffer");
}

/* A detection must be sized: Mann-Whitney's p alone can flag a change of
 * shape whose shift interval straddles 0 (PAPI here: p = 0.0003 with
 * -0.00 ns [-0.38, 0.38]); such a result is not "sees D ns". */
static void test_unsized_detection(void)
{
	struct tl_comparison c = {.mwu_p = 0.0003, .shift = -0.001, .lo = -0.38, .hi = 0.38};
	char why[256] = "";

	ok(tl_jitter_shift_unsized(&c, 0.05, why, sizeof why) == 1 && strstr(why, "not sized"),
	   "p = 0.0003 with [-0.38, 0.38]: not sized (%s)", why);
	c.lo = -0.9, c.hi = -0.1;
	ok(tl_jitter_shift_unsized(&c, 0.05, why, sizeof why) == 1,
	   "an interval below 0 for D > 0: not sized");
	c.lo = 0.02, c.hi = 0.42;
	ok(tl_jitter_shift_unsized(&c, 0.05, why, sizeof why) == 0,
	   "[0.02, 0.42] with p = 0.0003: a sized detection");
	c.mwu_p = 0.2, c.lo = -0.38;
	ok(tl_jitter_shift_unsized(&c, 0.05, why, sizeof why) == 0,
	   "p = 0.2: not a detection, so nothing to size");
}

/* div:K, the kernel added through the table alone: it parses and reads
 * back like the other chains, the table finds it, the accepted list and
 * the did-you-mean name it, and each backend's recipe can time it. */
static void test_div(void)
{
	const struct tl_kernel_ops *div = tl_kernel_find("div");
	struct tl_kernel *k = NULL, *back = NULL;
	size_t nk = 0;
	char why[1024];

	ok(div && !strcmp(div->name, "div") && !strcmp(div->op, "DIV"), "the table has div (op DIV)");
	is_int(parse("div:0:1000:250", &k, why, sizeof why), 5, "div:0:1000:250: 5 kernels");
	ok(k[4].kind == div && k[4].k == 1000 && !strcmp(k[4].label, "div:1000"),
	   "div range: kind, K, label (%s)", k[4].label);
	ok(tl_kernel_parse_list(k[4].label, &back, &nk, why, sizeof why) == 0 && nk == 1 &&
		   back[0].kind == div && back[0].k == 1000,
	   "its label parses back to the same kernel");
	free(back);
	free(k);
	ok(parse("div", &k, why, sizeof why) == (size_t)-1, "bare div is refused");
	ok(strstr(why, "unknown kernel \"div\"") != NULL, "  ... as an unknown kernel: %s", why);
	ok(parse("div:-3", &k, why, sizeof why) == (size_t)-1, "div:-3 is refused");
	ok(strstr(why, "DIV counts must be whole numbers") && strstr(why, "div:K, div:START:END:STEP"),
	   "  ... naming DIV counts and the accepted div forms");
	ok(parse("dvi:5", &k, why, sizeof why) == (size_t)-1, "dvi:5 is refused");
	ok(strstr(why, "did you mean 'div:5'") != NULL, "  ... with did-you-mean from the table: %s",
	   why);
	for (size_t i = 0; i < TL_TIMINGS; i++)
		if (i == TL_TIMING_SIM || i == TL_TIMING_POSIX_MONO)
			ok(div->timed[i] != NULL, "div has a timed function for recipe %zu", i);
}

int main(void)
{
	test_chase_layout();
	test_chase_huge_pages_hold();
	test_load_ranges();
	test_chains_and_loads();
	test_single();
	test_lists();
	test_rejections();
	test_plan();
	test_div();
	test_unsized_detection();
	return tap_done();
}
