/* fast against paper: wall time and timed measurements of both searches on
 * barrier-tsc at flush 0 and 4xL2. Prints numbers, never pass/fail.
 *
 * The paper run is bounded so `make bench` ends: n = 1000, p = 5, q = 10
 * (instead of 10000, 30, 80), max_adds 1e6 and a 60 s cap per metric
 * (SIGALRM sets the stop flag; the result then says "stopped"). Both
 * methods get the same parameters; fast measures n per evaluation too. */
#include "config.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "stats/search.h"

#define CAP_S 60

static atomic_bool stop_flag;

static void on_alarm(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, true);
}

static void print_result(const char *method, const char *metric, const struct tl_search_result *r)
{
	printf("  %-5s %-6s %10llu ADDs %10.1f ns %9zu meas %7.2f s %s%s%s\n", method, metric,
	       (unsigned long long)(r->converged ? r->adds : 0), r->converged ? r->ns : 0.0,
	       r->measurements, r->seconds, r->converged ? "" : "(not converged) ",
	       r->stopped ? "(stopped by the cap) " : "", r->note);
}

static void run_method(struct tl_search_params *p, struct tl_search_io *io, const char *name)
{
	struct tl_search_result a, b;

	atomic_store(&stop_flag, false);
	alarm(CAP_S);
	tl_search_tmin(p, io, &a);
	alarm(0);
	print_result(name, "t_min", &a);
	if (!a.converged && !a.best_adds)
		return;
	atomic_store(&stop_flag, false);
	alarm(CAP_S);
	tl_search_tdiff(p, io, a.converged ? a.adds : a.best_adds, &b);
	alarm(0);
	print_result(name, "t_diff", &b);
}

static void bench_cell(const char *backend, const char *flush_text, uint64_t bytes)
{
	struct tl_timer t;
	struct tl_flush f;
	struct tl_search_engine e;
	struct tl_search_params p;
	struct tl_search_io io = { .measure = tl_search_engine_measure, .measure_ctx = &e,
				   .stop = &stop_flag };
	char why[TL_WHY_MAX];

	if (tl_timer_open(&t, backend, why, sizeof why) < 0) {
		printf("%s: unavailable: %s\n", backend, why);
		return;
	}
	if (tl_flush_init(&f, bytes, why, sizeof why) < 0) {
		printf("flush %s: %s\n", flush_text, why);
		tl_timer_close(&t);
		return;
	}
	tl_search_engine_init(&e, &t, &f, &stop_flag);
	tl_search_params_default(&p);
	p.n = 1000;
	p.p = 5;
	p.q = 10;
	p.max_adds = 1000000;
	p.overhead_ns = tl_search_engine_overhead(&e, 1001);
	tl_search_engine_ns_per_add(&e, 20000, 5, 501, &p.ns_per_add, NULL);
	p.resolution_ns = tl_timer_resolution(&t, 1000) * t.ns_per_unit;
	printf("%s, flush %s (%llu bytes): t_e,std %.1f ns, %.4f ns/ADD, resolution %.2f ns\n",
	       backend, flush_text, (unsigned long long)bytes, p.overhead_ns, p.ns_per_add,
	       p.resolution_ns);
	printf("  n %zu, p %u, q %u, max_adds 1e6, os-filter %s, cap %d s per metric\n", p.n, p.p,
	       p.q, stats_os_method_name(p.os), CAP_S);
	p.method = TL_SEARCH_FAST;
	run_method(&p, &io, "fast");
	p.method = TL_SEARCH_PAPER;
	run_method(&p, &io, "paper");
	tl_search_engine_free(&e);
	tl_flush_free(&f);
	tl_timer_close(&t);
}

int main(void)
{
	struct tl_topology topo;
	struct sigaction sa;
	char why[TL_WHY_MAX];
	uint64_t l2x4 = 0;
	int cpu = tl_cpu_default();

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (tl_cpu_pin(cpu, why, sizeof why) < 0)
		printf("not pinned: %s\n", why);
	char said[2 * TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	if (!barrier) {
		printf("%s\n", said);
		return 0;
	}
	bench_cell(barrier, "0", 0);
	if (tl_topology_read_live(cpu, &topo, why, sizeof why) == 0 &&
	    tl_size_parse("4xL2", &topo, &l2x4, why, sizeof why) == 0)
		bench_cell(barrier, "4xL2", l2x4);
	else
		printf("4xL2: %s\n", why);
	return 0;
}
