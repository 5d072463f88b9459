/* The lab's memory ladder against bench/chase_ref, an independent pointer
 * chase, measured so that only the code differs:
 *  - the same method in both: buffers of whole 2 MiB pages hinted for huge
 *    pages, one line per element, a Sattolo-shuffled visiting order, K
 *    loads a timing, the median of REPS timings less the median of REPS
 *    empty ones, and before each measurement the same untimed warm-up: a
 *    full lap for a buffer that fits the largest cache (the other arms
 *    evicted it), else one measurement's worth of loads, which refills the
 *    TLB; no data cache holds anything of such a buffer in the steady
 *    state, as each line's next visit is a lap away (a full lap there
 *    would cost seconds a round and change nothing);
 *  - laid out once per size and measured in rounds, the arms' order
 *    rotating (lab, ref[, ref2]), all on one CPU (the reference processes
 *    inherit this one's pinning and wait on a pipe while it measures), so
 *    the shared host's drift hits every arm alike;
 *  - compared by the median over rounds of each round's ratio.
 * With -c a second reference process (its own buffer and permutation) is
 * the control: ref2/ref is the noise floor lab/ref cannot beat.
 * The lab's arm is its own code: tl_kernel_chase_layout, the timer's
 * time_loads/time_empty, as `ticklab run -k load:SIZE` samples them.
 * Numbers only: nothing passes or fails here.
 *
 *   bench_ladder [-b TIMER] [-n REPS] [-r ROUNDS] [-c] CHASE_REF LOAD-RANGE
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/kernel.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "stats/kernels.h"
#include "stats/stats.h"

#define MAX_ROUNDS 99
#define HUGE_PAGE (2ull << 20)

struct ref {
	pid_t pid;
	FILE *to, *from;
};

struct opts {
	const char *timer, *ref, *range;
	long reps, rounds;
	int arms; /* 2: lab, ref; 3: and the control ref2 */
};

static void die(const char *what)
{
	fprintf(stderr, "bench_ladder: %s\n", what);
	exit(1);
}

static void ref_start(struct ref *r, const char *path)
{
	int in[2], out[2];

	/* Close-on-exec: a later reference must not inherit this one's pipe
	 * ends, or closing ours would never reach it as end of input. */
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		die(strerror(errno));
	r->pid = fork();
	if (r->pid < 0)
		die(strerror(errno));
	if (r->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]), close(in[1]), close(out[0]), close(out[1]);
		execl(path, "chase_ref", "-s", (char *)NULL);
		fprintf(stderr, "bench_ladder: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->to = fdopen(in[1], "w");
	r->from = fdopen(out[0], "r");
	if (!r->to || !r->from)
		die(strerror(errno));
}

static double ref_ask(struct ref *r, const char *fmt, unsigned long long a, unsigned long long b,
		      unsigned long long c)
{
	char line[128];
	double v;

	fprintf(r->to, fmt, a, b, c);
	fflush(r->to);
	if (!fgets(line, sizeof line, r->from))
		die("chase_ref stopped answering");
	if (sscanf(line, "ok %lf", &v) == 1 || sscanf(line, "%lf", &v) == 1)
		return v;
	die("chase_ref answered nonsense");
	return NAN;
}

static void ref_stop(struct ref *r)
{
	fclose(r->to);
	fclose(r->from);
	waitpid(r->pid, NULL, 0);
}

/* AnonHugePages of this process: the lab buffer is its only large one. */
static double huge_kb(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	double kb = -1;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "AnonHugePages: %lf kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* The lab's arm, the same steps as chase_ref's measure. */
static double lab_measure(struct tl_timer *t, const void **cursor, long reps, uint64_t k,
			  uint64_t warm)
{
	double *e = calloc((size_t)reps, sizeof *e), *s = calloc((size_t)reps, sizeof *s), ns;

	if (!e || !s)
		die("out of memory");
	for (long i = 0; i < reps; i++)
		e[i] = tl_time_empty(t);
	(void)tl_time_loads(t, cursor, warm);
	for (long i = 0; i < reps; i++)
		s[i] = tl_time_loads(t, cursor, k);
	ns = (stats_median(s, (size_t)reps) - stats_median(e, (size_t)reps)) * t->ns_per_unit;
	free(e);
	free(s);
	return ns / (double)k;
}

static double pct_huge(double kb, uint64_t bytes)
{
	uint64_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	return kb < 0 ? NAN : 100.0 * kb * 1024.0 / (double)whole;
}

static double extreme(const double *x, size_t n, int sign)
{
	double m = x[0];
	for (size_t i = 1; i < n; i++)
		if (sign * (x[i] - m) > 0)
			m = x[i];
	return m;
}

static int within(double q)
{
	return q <= 1.1 && q >= 1 / 1.1;
}

struct tally {
	int ok, cok, n;
};

static void one_size(const struct opts *o, struct tl_timer *t, struct ref *refs, uint64_t bytes,
		     uint64_t warm, uint64_t seed, const char *level, struct tally *y)
{
	double v[3][MAX_ROUNDS], q[MAX_ROUNDS], c[MAX_ROUNDS], hk[3];
	const void *cursor;
	void *buf = tl_kernel_chase_layout(bytes, seed);
	char size[32], ctl[40] = "";

	if (!buf)
		die("out of memory laying out the lab's buffer");
	cursor = buf;
	hk[0] = huge_kb();
	for (int a = 1; a < o->arms; a++)
		hk[a] = ref_ask(&refs[a - 1], "layout %llu %llu\n", bytes, seed * 2 + (uint64_t)a,
				0);
	for (long r = 0; r < o->rounds; r++)
		for (int i = 0; i < o->arms; i++) {
			int a = (int)((r + i) % o->arms);
			v[a][r] = a == 0 ? lab_measure(t, &cursor, o->reps, TL_KERNEL_LOAD_DEFAULT_K,
						       warm)
					 : ref_ask(&refs[a - 1], "measure %llu %llu %llu\n",
						   (unsigned long long)o->reps,
						   TL_KERNEL_LOAD_DEFAULT_K, warm);
		}
	tl_kernel_chase_free(buf, bytes);
	for (long r = 0; r < o->rounds; r++) {
		q[r] = v[0][r] / v[1][r];
		c[r] = o->arms > 2 ? v[2][r] / v[1][r] : NAN;
	}
	size_t n = (size_t)o->rounds;
	double lo = extreme(q, n, -1), hi = extreme(q, n, 1), mq = stats_median(q, n);
	tl_size_format(bytes, size, sizeof size);
	if (o->arms > 2) {
		double mc = stats_median(c, n);
		snprintf(ctl, sizeof ctl, "%6.3f %s", mc, within(mc) ? "yes" : "NO ");
		y->cok += within(mc);
	}
	printf("  %-8s %-6s %9.2f %9.2f  %6.3f %s  %5.2f-%-5.2f  %3.0f/%-3.0f  %s\n", size, level,
	       stats_median(v[0], n), stats_median(v[1], n), mq, within(mq) ? "yes" : "NO ", lo, hi,
	       pct_huge(hk[0], bytes), pct_huge(hk[1], bytes), ctl);
	fflush(stdout);
	y->ok += within(mq);
	y->n++;
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_ladder [-b TIMER] [-n REPS] [-r ROUNDS 1..%d] [-c] CHASE_REF "
			"LOAD-RANGE (load:4KiB..2xL3)\n",
		MAX_ROUNDS);
	exit(2);
}

static void parse(int argc, char **argv, struct opts *o)
{
	int ch;

	*o = (struct opts){ .timer = "clock-gettime", .reps = 201, .rounds = 7, .arms = 2 };
	while ((ch = getopt(argc, argv, "b:n:r:c")) != -1)
		if (ch == 'b')
			o->timer = optarg;
		else if (ch == 'n')
			o->reps = atol(optarg);
		else if (ch == 'r')
			o->rounds = atol(optarg);
		else if (ch == 'c')
			o->arms = 3;
		else
			usage();
	if (argc - optind != 2 || o->reps < 1 || o->rounds < 1 || o->rounds > MAX_ROUNDS)
		usage();
	o->ref = argv[optind];
	o->range = argv[optind + 1];
}

int main(int argc, char **argv)
{
	struct opts o;
	struct tl_topology topo;
	struct tl_kernel *k = NULL;
	struct tl_timer t;
	struct ref refs[2];
	struct tally y = { 0, 0, 0 };
	double ends[3];
	const char *names[4];
	char why[1024];
	size_t nk = 0, nends;
	int cpu = tl_cpu_default();
	bool have;
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	parse(argc, argv, &o);
	have = tl_topology_read_live(cpu, &topo, why, sizeof why) == 0;
	nends = tl_topology_ends(have ? &topo : NULL, ends, names);
	if (tl_kernel_parse_list_topo(o.range, have ? &topo : NULL, &k, &nk, why, sizeof why) < 0 ||
	    tl_cpu_pin(cpu, why, sizeof why) < 0 || tl_timer_open(&t, o.timer, why, sizeof why) < 0)
		die(why);
	signal(SIGPIPE, SIG_IGN);
	for (int a = 1; a < o.arms; a++)
		ref_start(&refs[a - 1], o.ref); /* after pinning: they inherit the CPU */
	printf("memory ladder, lab (%s) vs bench/chase_ref (clock_gettime, own code), CPU %d,\n"
	       "  %ld rounds a size, arms rotating; each a median of %ld timings of %d loads;\n"
	       "  lab/ref = median over rounds of the round's ratio (its range beside it);\n"
	       "  huge = %% of each buffer in huge pages (lab/ref)%s\n",
	       o.timer, cpu, o.rounds, o.reps, TL_KERNEL_LOAD_DEFAULT_K,
	       o.arms > 2 ? "; ref2/ref: a second reference, the noise floor" : "");
	printf("  %-8s %-6s %9s %9s  %6s %-3s  %-11s  %-7s  %s\n", "size", "level", "lab ns",
	       "ref ns", "lab/ref", "10%", "rounds", "huge", o.arms > 2 ? "ref2/ref 10%" : "");
	for (size_t i = 0; i < nk; i++) {
		uint64_t lines = k[i].bytes / 64, once = (uint64_t)o.reps * TL_KERNEL_LOAD_DEFAULT_K;
		int lev = stats_ladder_level((double)k[i].bytes, ends, nends);
		bool fits = nends == 0 || (double)k[i].bytes <= ends[nends - 1];

		if (!k[i].kind->chases)
			continue;
		one_size(&o, &t, refs, k[i].bytes, fits || lines < once ? lines : once,
			 tl_seed_derive(1, i), names[lev], &y);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("  %d of %d sizes agree within 10 %% (lab/ref); %.0f s\n", y.ok, y.n,
	       (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
	if (o.arms > 2)
		printf("  the reference against itself: %d of %d within 10 %% (the host's noise "
		       "floor)\n",
		       y.cok, y.n);
	fflush(stdout);
	for (int a = 1; a < o.arms; a++)
		ref_stop(&refs[a - 1]);
	tl_timer_close(&t);
	free(k);
	return 0;
}
