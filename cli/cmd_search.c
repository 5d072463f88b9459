/* `ticklab search`: t_min and t_diff per backend x flush (paper section
 * 5.4, stats/search.h), with each backend's ratio to a reference.
 *
 * Per cell, before searching: t_e,std (median of the empty kernel) and ns
 * per ADD (slope of medians against K) are measured under the same timer
 * and flush, and the timer's resolution is measured; answers are reported
 * in ADDs and in ns = ADDs x that slope.
 *
 * The fast method adapts its measurements per evaluation to the flush:
 * with a flush of s seconds, about 16 evaluations of n_f measurements cost
 * 16 n_f s, so n_f = budget / (16 s) (budget 40 s by default), between 40 and -n;
 * each metric also stops after the budget in seconds. At 4xL3 on this
 * project's VM (1.9 GiB, about 0.2 s per flush) that is n_f = 40 instead
 * of 10000; predictions are still made for -n (see stats/search_fast.c),
 * and the table says which n_f each cell used. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/host.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "io/host_json.h"
#include "io/results.h"
#include "stats/search.h"
#include "stats/stats.h"

#define WHY_LEN 1024
/* evaluations a fast search of both metrics needs, with the caller's own
 * overhead and slope measurements: the unit of the flush budget */
#define FAST_EVALS 16
#define FAST_MIN_N 40
/* K range of the ns-per-ADD fit */
#define FIT_KMAX 20000
#define FIT_POINTS 5

static const char usage_text[] =
	"usage: ticklab search --backend LIST [--flush LIST] [--metric tmin,tdiff]\n"
	"                      [--method fast|paper] [--eps E] [--alpha A] [-n N] [--p P]\n"
	"                      [--q Q] [--tmin-step S] [--tdiff-step S] [--max-adds M]\n"
	"                      [--os-filter iforest|iqr|none] [--reference ID] [--budget SEC]\n"
	"                      [--cpu C] [--seed S] [--json FILE|-] [--quiet]\n"
	"\n"
	"Searches each backend x flush for t_min (precision: the shortest kernel whose\n"
	"filtered CV is below eps) and t_diff (sensitivity: the smallest difference two\n"
	"kernels need so that at most alpha of the longer one's samples fall below the\n"
	"shorter one's maximum), in ADDs and ns, and compares every backend with a\n"
	"reference (paper section 5.4, Algorithms 1 and 2).\n"
	"\n"
	"  -b, --backend LIST   timer backends, comma-separated (see `ticklab info`)\n"
	"  -f, --flush LIST     bytes written before every measurement: 0, 32KiB, 4M,\n"
	"                       4xL1, 4xL2, 4xL3 (default 0)\n"
	"  -m, --metric LIST    tmin, tdiff or both (default tmin,tdiff; t_diff starts at\n"
	"                       t_min, so t_min is always searched)\n"
	"  -M, --method M       fast (model + confirmation, default) or paper (the\n"
	"                       published algorithms: hours at large flushes)\n"
	"      --eps E          CV threshold (default 0.01)\n"
	"      --alpha A        overlap threshold (default 0.05)\n"
	"  -n, --samples N      measurements per candidate (default 10000, the paper's)\n"
	"      --p P            t_min confirmations (default 30)\n"
	"      --q Q            t_diff pairs (default 80)\n"
	"      --tmin-step S    Algorithm 1's first step in ADDs (default 10000)\n"
	"      --tdiff-step S   Algorithm 2's first step in ADDs (default 100)\n"
	"      --max-adds M     give up above M ADDs (default 1e8)\n"
	"      --os-filter F    iforest (the paper's, default), iqr or none\n"
	"      --reference ID   backend the ratios are relative to (default papi-real-nsec\n"
	"                       when listed, else the first backend)\n"
	"      --budget SEC     fast: seconds one cell's flushes may take (default 40): fewer\n"
	"                       measurements per evaluation when a flush is expensive;\n"
	"                       each metric's search also stops after SEC seconds\n"
	"  -c, --cpu C          CPU to measure on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the OS-noise filter (default 1)\n"
	"      --json FILE      results as JSON (- for stdout; the table then goes to stderr)\n"
	"  -q, --quiet          no table or progress\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure, 2 bad input,\n"
	"130 interrupted (what was found so far is printed and written).\n";

enum {
	OPT_EPS = OPT_FIRST_FREE,
	OPT_ALPHA,
	OPT_P,
	OPT_Q,
	OPT_TMIN_STEP,
	OPT_TDIFF_STEP,
	OPT_MAX_ADDS,
	OPT_REF,
	OPT_BUDGET,
};

static const struct option longopts[] = {
	{"backend", required_argument, NULL, 'b'},
	{"flush", required_argument, NULL, 'f'},
	{"metric", required_argument, NULL, 'm'},
	{"method", required_argument, NULL, 'M'},
	{"eps", required_argument, NULL, OPT_EPS},
	{"alpha", required_argument, NULL, OPT_ALPHA},
	{"samples", required_argument, NULL, 'n'},
	{"p", required_argument, NULL, OPT_P},
	{"q", required_argument, NULL, OPT_Q},
	{"tmin-step", required_argument, NULL, OPT_TMIN_STEP},
	{"tdiff-step", required_argument, NULL, OPT_TDIFF_STEP},
	{"max-adds", required_argument, NULL, OPT_MAX_ADDS},
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"reference", required_argument, NULL, OPT_REF},
	{"budget", required_argument, NULL, OPT_BUDGET},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"json", required_argument, NULL, OPT_JSON},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct search_opts {
	const char *backend_text, *flush_text, *reference, *json;
	char **backends;
	size_t nbackends;
	char **flush_names;
	uint64_t *flush;
	size_t nflush;
	bool want_tmin, want_tdiff, quiet;
	double budget;
	int cpu;
	struct tl_search_params sp;
	size_t ref; /* index into backends */
};

/* One backend x flush. */
struct cell {
	size_t b, f;
	bool done_tmin, done_tdiff;
	double overhead_ns, ns_per_add, fit_r2, resolution_ns, flush_s;
	size_t fast_n, setup_measurements;
	struct tl_search_result tmin, tdiff;
	double ratio_tmin, ratio_tdiff;
	char why[TL_WHY_MAX]; /* a setup failure */
};

static atomic_bool stop_flag;

static void on_stop_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_flag, true);
}

/* ------------------------------------------------------------------ */
/* Arguments                                                            */
/* ------------------------------------------------------------------ */

static int parse_metric(struct search_opts *o, const char *text, char *why, size_t whylen)
{
	char **items;
	size_t n;

	if (opts_split_list(text, "--metric", &items, &n, why, whylen) < 0)
		return -1;
	o->want_tmin = o->want_tdiff = false;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(items[i], "tmin") == 0) {
			o->want_tmin = true;
		} else if (strcmp(items[i], "tdiff") == 0) {
			o->want_tdiff = true;
		} else {
			snprintf(why, whylen, "--metric '%s' is unknown (accepted: tmin, tdiff)", items[i]);
			opts_free_list(items, n);
			return -1;
		}
	}
	opts_free_list(items, n);
	return 0;
}

/* A whole number >= 1 of ADDs, also written as 1e8. */
static int parse_adds(const char *text, const char *what, uint64_t *out, char *why, size_t whylen)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(text, &end);
	if (text[0] == '\0' || *end != '\0' || errno || !(v >= 1) || v > 1e15 || v != floor(v)) {
		snprintf(why, whylen, "%s '%s' is not accepted (accepted: a whole number of ADDs from 1 "
				      "to 1e15, e.g. 10000 or 1e8)",
			 what, text);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

static int parse_unsigned(const char *text, const char *what, unsigned *out, char *why,
			  size_t whylen)
{
	size_t v;

	if (opts_parse_count(text, what, &v, why, whylen) < 0)
		return -1;
	if (v > 1000000) {
		snprintf(why, whylen, "%s '%s' is too large (accepted: 1 to 1000000)", what, text);
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int check_backends(struct search_opts *o, char *why, size_t whylen)
{
	return opts_parse_backends(o->backend_text, &o->backends, &o->nbackends, why, whylen);
}

static int check_reference(struct search_opts *o, char *why, size_t whylen)
{
	o->ref = 0;
	if (o->reference) {
		for (size_t i = 0; i < o->nbackends; i++)
			if (strcmp(o->backends[i], o->reference) == 0) {
				o->ref = i;
				return 0;
			}
		snprintf(why, whylen, "--reference '%s' is not one of the --backend list (accepted: %s)",
			 o->reference, o->backend_text);
		return -1;
	}
	for (size_t i = 0; i < o->nbackends; i++)
		if (strcmp(o->backends[i], "papi-real-nsec") == 0)
			o->ref = i;
	return 0;
}

static int check_flush(struct search_opts *o, char *why, size_t whylen)
{
	struct tl_topology topo;
	char topo_why[TL_WHY_MAX];
	bool have_topo = tl_topology_read_live(o->cpu < 0 ? tl_cpu_default() : o->cpu, &topo,
					       topo_why, sizeof topo_why) == 0;

	if (opts_split_list(o->flush_text, "--flush", &o->flush_names, &o->nflush, why, whylen) < 0)
		return -1;
	o->flush = calloc(o->nflush, sizeof *o->flush);
	if (!o->flush) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < o->nflush; i++) {
		if (tl_size_parse(o->flush_names[i], have_topo ? &topo : NULL, &o->flush[i], why,
				  whylen) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (o->flush[j] == o->flush[i]) {
				snprintf(why, whylen, "flush size '%s' is given twice (%llu bytes)",
					 o->flush_names[i], (unsigned long long)o->flush[i]);
				return -1;
			}
	}
	return 0;
}

static int check_output(const char *path, char *why, size_t whylen)
{
	struct stat st;
	const char *slash;
	char *dir;
	int rc = 0;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "--json '%s' is a directory (accepted: a file path or -)", path);
		return -1;
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!dir)
		return -1;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "--json '%s': directory '%s' does not exist", path, dir);
		rc = -1;
	}
	free(dir);
	return rc;
}

static void opts_release(struct search_opts *o)
{
	opts_free_list(o->backends, o->nbackends);
	opts_free_list(o->flush_names, o->nflush);
	free(o->flush);
}

/* One option; 0 ok, -1 bad (why filled). */
static int parse_one(struct search_opts *o, int c, char **argv, char *why, size_t whylen)
{
	struct tl_search_params *sp = &o->sp;
	int m;

	switch (c) {
	case 'b':
		o->backend_text = optarg;
		return 0;
	case 'f':
		o->flush_text = optarg;
		return 0;
	case 'm':
		return parse_metric(o, optarg, why, whylen);
	case 'M':
		m = tl_search_method_parse(optarg);
		if (m < 0) {
			snprintf(why, whylen, "--method '%s' is unknown (accepted: fast, paper)", optarg);
			return -1;
		}
		sp->method = (enum tl_search_method)m;
		return 0;
	case OPT_EPS:
		return opts_parse_double(optarg, "--eps", 1e-6, 0.999, &sp->eps, why, whylen);
	case OPT_ALPHA:
		return opts_parse_double(optarg, "--alpha", 0, 0.999, &sp->alpha, why, whylen);
	case 'n':
		if (opts_parse_count(optarg, "-n", &sp->n, why, whylen) < 0)
			return -1;
		if (sp->n < 10) {
			snprintf(why, whylen, "-n '%s' is too small for a CV or a filter (accepted: 10 "
					      "or more)",
				 optarg);
			return -1;
		}
		return 0;
	case OPT_P:
		return parse_unsigned(optarg, "--p", &sp->p, why, whylen);
	case OPT_Q:
		return parse_unsigned(optarg, "--q", &sp->q, why, whylen);
	case OPT_TMIN_STEP:
		return parse_adds(optarg, "--tmin-step", &sp->tmin_step, why, whylen);
	case OPT_TDIFF_STEP:
		return parse_adds(optarg, "--tdiff-step", &sp->tdiff_step, why, whylen);
	case OPT_MAX_ADDS:
		return parse_adds(optarg, "--max-adds", &sp->max_adds, why, whylen);
	case OPT_OS_FILTER:
		m = stats_os_method_parse(optarg);
		if (m < 0) {
			snprintf(why, whylen, "--os-filter '%s' is unknown (accepted: iforest, iqr, none)",
				 optarg);
			return -1;
		}
		sp->os = (enum tl_os_method)m;
		return 0;
	case OPT_REF:
		o->reference = optarg;
		return 0;
	case OPT_BUDGET:
		return opts_parse_double(optarg, "--budget", 0.1, 86400, &o->budget, why, whylen);
	case 'c':
		return opts_parse_cpu(optarg, &o->cpu, why, whylen);
	case 's':
		return opts_parse_u64(optarg, "--seed", &sp->seed, why, whylen);
	case OPT_JSON:
		o->json = optarg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	default:
		opts_usage_error(c, argv, longopts, why, whylen);
		return -1;
	}
}

/* 0 to run, 1 when --help was printed, -1 with why on bad input. */
static int parse_args(int argc, char **argv, struct search_opts *o, char *why, size_t whylen)
{
	int c;

	memset(o, 0, sizeof *o);
	tl_search_params_default(&o->sp);
	o->flush_text = "0";
	o->want_tmin = o->want_tdiff = true;
	o->budget = 40;
	o->cpu = -1;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:f:m:M:n:c:s:qh", longopts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage_text, stdout);
			return 1;
		}
		if (parse_one(o, c, argv, why, whylen) < 0)
			return -1;
	}
	if (optind < argc) {
		snprintf(why, whylen, "unexpected argument '%s' (lists are comma-separated: "
				      "--backend a,b)",
			 argv[optind]);
		return -1;
	}
	if (check_output(o->json, why, whylen) < 0 || check_backends(o, why, whylen) < 0 ||
	    check_reference(o, why, whylen) < 0 || check_flush(o, why, whylen) < 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Measuring                                                            */
/* ------------------------------------------------------------------ */

struct progress {
	bool show;
	const char *backend, *flush;
};

static void on_point(void *ctx, int kind, uint64_t x, double y)
{
	const struct progress *p = ctx;

	if (p->show)
		fprintf(stderr, "\r%-20.20s %-8.8s %s %-12llu %s %-10.4g", p->backend, p->flush,
			kind == 0 ? "t_min K" : "t_diff d", (unsigned long long)x,
			kind == 0 ? "CV" : "alpha", y);
}

/* t_e,std, ns per ADD and resolution under this timer and flush. */
static int cell_setup(struct cell *c, struct tl_search_engine *e, const struct search_opts *o)
{
	size_t n_over, n_fit;
	struct tl_timer *t = e->timer;

	c->flush_s = tl_search_engine_flush_seconds(e->flush);
	c->fast_n = o->sp.n;
	if (o->sp.method == TL_SEARCH_FAST && c->flush_s > 0) {
		double nf = o->budget / (FAST_EVALS * c->flush_s);

		if (nf < (double)c->fast_n)
			c->fast_n = nf < FAST_MIN_N ? FAST_MIN_N : (size_t)nf;
	}
	/* the caller's own facts: medians, so fewer measurements suffice */
	n_over = c->fast_n < 2001 ? c->fast_n : 2001;
	n_fit = c->fast_n / 4 < 1001 ? c->fast_n / 4 : 1001;
	if (n_fit < 11)
		n_fit = 11;
	c->resolution_ns = tl_timer_resolution(t, 1000) * t->ns_per_unit;
	c->overhead_ns = tl_search_engine_overhead(e, n_over);
	if (isnan(c->overhead_ns))
		return 1;
	if (tl_search_engine_ns_per_add(e, FIT_KMAX, FIT_POINTS, n_fit, &c->ns_per_add,
					&c->fit_r2) != 0) {
		if (atomic_load(&stop_flag))
			return 1;
		snprintf(c->why, sizeof c->why,
			 "time did not grow with K over 0..%d ADDs: cannot convert ADDs to ns",
			 FIT_KMAX);
		return -1;
	}
	c->setup_measurements = e->measurements;
	return 0;
}

/* Runs one cell; 0 done, 1 stopped, -1 failed (c->why). */
static int cell_run(struct cell *c, const struct search_opts *o)
{
	struct tl_timer t;
	struct tl_flush f;
	struct tl_search_engine e;
	struct tl_search_params sp = o->sp;
	struct progress pr = {
		.show = !o->quiet && isatty(STDERR_FILENO),
		.backend = o->backends[c->b],
		.flush = o->flush_names[c->f],
	};
	struct tl_search_io io = {
		.measure = tl_search_engine_measure,
		.measure_ctx = &e,
		.observe = on_point,
		.observe_ctx = &pr,
		.stop = &stop_flag,
	};
	int rc;

	if (tl_timer_open(&t, o->backends[c->b], c->why, sizeof c->why) < 0)
		return -1;
	if (tl_flush_init(&f, o->flush[c->f], c->why, sizeof c->why) < 0) {
		tl_timer_close(&t);
		return -1;
	}
	tl_search_engine_init(&e, &t, &f, &stop_flag);
	rc = cell_setup(c, &e, o);
	if (rc == 0) {
		sp.overhead_ns = c->overhead_ns;
		sp.ns_per_add = c->ns_per_add;
		sp.resolution_ns = c->resolution_ns;
		sp.fast_n = c->fast_n;
		/* each metric may spend about the cell's flush budget, so an
		 * expensive flush cannot run away (sim and cheap flushes never
		 * get near it) */
		sp.time_limit_s = o->budget;
		rc = tl_search_tmin(&sp, &io, &c->tmin);
		c->done_tmin = rc >= 0;
		if (rc == 0 && o->want_tdiff && (c->tmin.converged || c->tmin.best_adds)) {
			/* without a t_min, A0 starts at the steadiest point seen,
			 * and the note says so */
			uint64_t a0 = c->tmin.converged ? c->tmin.adds : c->tmin.best_adds;

			rc = tl_search_tdiff(&sp, &io, a0, &c->tdiff);
			c->done_tdiff = rc >= 0;
			if (!c->tmin.converged) {
				size_t len = strlen(c->tdiff.note);

				snprintf(c->tdiff.note + len, sizeof c->tdiff.note - len,
					 "%sA0 from %llu ADDs (lowest CV seen), no t_min", len ? "; " : "",
					 (unsigned long long)a0);
			}
		} else if (rc == 0 && o->want_tdiff) {
			snprintf(c->tdiff.note, sizeof c->tdiff.note, "not searched: no t_min to start from");
		}
		if (rc < 0)
			snprintf(c->why, sizeof c->why, "%s", c->done_tmin ? c->tdiff.note : c->tmin.note);
	}
	if (pr.show)
		fprintf(stderr, "\r%*s\r", 79, "");
	tl_search_engine_free(&e);
	tl_flush_free(&f);
	tl_timer_close(&t);
	return rc;
}

/* A search that never ran counts as not converged. */
static const struct tl_search_result *answer(const struct tl_search_result *r, bool done)
{
	static const struct tl_search_result none;
	return done ? r : &none;
}

static void compute_ratios(struct cell *cells, size_t ncells, const struct search_opts *o)
{
	for (size_t i = 0; i < ncells; i++) {
		struct cell *c = &cells[i], *ref = NULL;

		for (size_t j = 0; j < ncells; j++)
			if (cells[j].b == o->ref && cells[j].f == c->f)
				ref = &cells[j];
		c->ratio_tmin = c->ratio_tdiff = NAN;
		if (!ref)
			continue;
		c->ratio_tmin = tl_search_ratio(answer(&ref->tmin, ref->done_tmin),
						answer(&c->tmin, c->done_tmin));
		c->ratio_tdiff = tl_search_ratio_tdiff(
			answer(&ref->tmin, ref->done_tmin), answer(&ref->tdiff, ref->done_tdiff),
			answer(&c->tmin, c->done_tmin), answer(&c->tdiff, c->done_tdiff));
	}
}

/* ------------------------------------------------------------------ */
/* Output                                                               */
/* ------------------------------------------------------------------ */

static void print_answer(FILE *out, const struct tl_search_result *r, bool done)
{
	if (!done) {
		fprintf(out, " %9s %9s %7s %8s %6s", "-", "-", "-", "-", "-");
		return;
	}
	if (r->converged)
		fprintf(out, " %9llu %9.1f %7.4f", (unsigned long long)r->adds, r->ns, r->stat);
	else
		fprintf(out, " %9s %9s %7s", r->stopped ? "stopped" : "none", "-", "-");
	fprintf(out, " %8zu %6.1f", r->measurements, r->seconds);
}

static void print_table(FILE *out, const struct cell *cells, size_t ncells,
			const struct search_opts *o)
{
	fprintf(out, "method %s, eps %g, alpha %g, n %zu, p %u, q %u, os-filter %s, reference %s\n",
		tl_search_method_name(o->sp.method), o->sp.eps, o->sp.alpha, o->sp.n, o->sp.p, o->sp.q,
		stats_os_method_name(o->sp.os), o->backends[o->ref]);
	fprintf(out, "%-16s %-8s %6s %6s | %9s %9s %7s %8s %6s | %9s %9s %7s %8s %6s\n", "backend",
		"flush", "n_f", "ns/ADD", "tmin ADD", "tmin ns", "CV", "meas", "s", "tdiff ADD",
		"tdiff ns", "alpha", "meas", "s");
	for (size_t i = 0; i < ncells; i++) {
		const struct cell *c = &cells[i];

		fprintf(out, "%-16.16s %-8.8s %6zu %6.3f |", o->backends[c->b], o->flush_names[c->f],
			c->fast_n, c->ns_per_add);
		print_answer(out, &c->tmin, c->done_tmin);
		fputs(" |", out);
		print_answer(out, &c->tdiff, c->done_tdiff);
		fputc('\n', out);
	}
	for (size_t i = 0; i < ncells; i++) {
		const struct cell *c = &cells[i];
		const char *b = o->backends[c->b], *fl = o->flush_names[c->f];

		if (c->why[0])
			fprintf(out, "%s @ %s: %s\n", b, fl, c->why);
		if (c->tmin.note[0])
			fprintf(out, "%s @ %s: t_min: %s\n", b, fl, c->tmin.note);
		if (c->tdiff.note[0])
			fprintf(out, "%s @ %s: t_diff: %s\n", b, fl, c->tdiff.note);
	}
	for (size_t i = 0; i < ncells; i++) {
		const struct cell *c = &cells[i];

		if (c->b == o->ref || (isnan(c->ratio_tmin) && isnan(c->ratio_tdiff)))
			continue;
		char precise[64], sensitive[64];
		tl_search_ratio_text(precise, sizeof precise, c->ratio_tmin, "precise", "x");
		tl_search_ratio_text(sensitive, sizeof sensitive, c->ratio_tdiff, "sensitive", "x");
		fprintf(out, "%s @ %s: %s%s%s than %s\n", o->backends[c->b], o->flush_names[c->f],
			precise, precise[0] && sensitive[0] ? ", " : "", sensitive,
			o->backends[o->ref]);
	}
}

static json_t *result_json(const struct tl_search_result *r, bool done, const char *stat)
{
	json_t *j;

	if (!done)
		return json_null();
	j = json_object();
	json_object_set_new(j, "adds", r->converged ? json_integer((json_int_t)r->adds) : json_null());
	json_object_set_new(j, "ns", tl_json_real(r->converged ? r->ns : NAN));
	json_object_set_new(j, "method", json_string(tl_search_method_name(r->method)));
	json_object_set_new(j, "measurements", json_integer((json_int_t)r->measurements));
	json_object_set_new(j, "seconds", tl_json_real(r->seconds));
	json_object_set_new(j, "converged", json_boolean(r->converged));
	json_object_set_new(j, "stopped", json_boolean(r->stopped));
	json_object_set_new(j, stat, tl_json_real(r->stat));
	json_object_set_new(j, "on_floor", json_boolean(r->on_floor));
	json_object_set_new(j, "floor_ns", tl_json_real(r->floor_ns));
	json_object_set_new(j, "evaluations", json_integer((json_int_t)r->evaluations));
	json_object_set_new(j, "predicted_adds", tl_json_real(r->predicted_adds));
	if (strcmp(stat, "cv") == 0) {
		json_object_set_new(j, "lowest_cv_adds", json_integer((json_int_t)r->best_adds));
		json_object_set_new(j, "lowest_cv", tl_json_real(r->best_cv));
		json_object_set_new(j, "drift_at_lowest_cv", tl_json_real(r->best_drift));
	}
	json_object_set_new(j, "note", json_string(r->note));
	return j;
}

static json_t *cell_json(const struct cell *c, const struct search_opts *o)
{
	json_t *j = json_object();

	json_object_set_new(j, "backend", json_string(o->backends[c->b]));
	json_object_set_new(j, "flush_bytes", json_integer((json_int_t)o->flush[c->f]));
	json_object_set_new(j, "flush", json_string(o->flush_names[c->f]));
	json_object_set_new(j, "overhead", tl_json_real(c->overhead_ns));
	json_object_set_new(j, "ns_per_add", tl_json_real(c->ns_per_add));
	json_object_set_new(j, "ns_per_add_r2", tl_json_real(c->fit_r2));
	json_object_set_new(j, "resolution_ns", tl_json_real(c->resolution_ns));
	json_object_set_new(j, "flush_seconds", tl_json_real(c->flush_s));
	json_object_set_new(j, "n_per_evaluation", json_integer((json_int_t)c->fast_n));
	json_object_set_new(j, "setup_measurements", json_integer((json_int_t)c->setup_measurements));
	json_object_set_new(j, "tmin", result_json(&c->tmin, c->done_tmin, "cv"));
	json_object_set_new(j, "tdiff", result_json(&c->tdiff, c->done_tdiff, "alpha"));
	json_object_set_new(j, "ratio_tmin", tl_json_real(c->ratio_tmin));
	json_object_set_new(j, "ratio_tdiff", tl_json_real(c->ratio_tdiff));
	if (c->why[0])
		json_object_set_new(j, "error", json_string(c->why));
	return j;
}

static int write_json(const struct search_opts *o, const struct cell *cells, size_t ncells,
		      const struct tl_host *host, bool interrupted)
{
	json_t *doc = json_object(), *meta = json_object(), *params = json_object();
	json_t *results = json_array();
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	json_object_set_new(meta, "version", json_string(PACKAGE_VERSION));
	json_object_set_new(meta, "command", json_string("search"));
	json_object_set_new(doc, "ticklab", meta);
	json_object_set_new(doc, "host", tl_host_to_json(host));
	json_object_set_new(params, "method", json_string(tl_search_method_name(o->sp.method)));
	json_object_set_new(params, "eps", tl_json_real(o->sp.eps));
	json_object_set_new(params, "alpha", tl_json_real(o->sp.alpha));
	json_object_set_new(params, "n", json_integer((json_int_t)o->sp.n));
	json_object_set_new(params, "p", json_integer(o->sp.p));
	json_object_set_new(params, "q", json_integer(o->sp.q));
	json_object_set_new(params, "tmin_step", json_integer((json_int_t)o->sp.tmin_step));
	json_object_set_new(params, "tdiff_step", json_integer((json_int_t)o->sp.tdiff_step));
	json_object_set_new(params, "max_adds", json_integer((json_int_t)o->sp.max_adds));
	json_object_set_new(params, "os_filter", json_string(stats_os_method_name(o->sp.os)));
	json_object_set_new(params, "seed", json_integer((json_int_t)o->sp.seed));
	json_object_set_new(params, "budget_seconds", tl_json_real(o->budget));
	json_object_set_new(doc, "params", params);
	json_object_set_new(doc, "reference", json_string(o->backends[o->ref]));
	json_object_set_new(doc, "interrupted", json_boolean(interrupted));
	for (size_t i = 0; i < ncells; i++)
		json_array_append_new(results, cell_json(&cells[i], o));
	json_object_set_new(doc, "results", results);
	if (tl_json_write(o->json, doc, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab search: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	json_decref(doc);
	return rc;
}

static int search_all(const struct search_opts *o)
{
	size_t ncells = o->nbackends * o->nflush, done = 0;
	struct cell *cells = calloc(ncells, sizeof *cells);
	bool stdout_taken = o->json && strcmp(o->json, "-") == 0;
	struct sigaction sa, old_int, old_term;
	struct tl_host host;
	char why[WHY_LEN];
	int cpu = o->cpu < 0 ? tl_cpu_default() : o->cpu, rc = TL_EXIT_OK, wrc;

	if (!cells) {
		fprintf(stderr, "ticklab search: out of memory\n");
		return TL_EXIT_FAIL;
	}
	if (tl_cpu_pin(cpu, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab search: %s\n", why);
		free(cells);
		return TL_EXIT_FAIL;
	}
	tl_host_read("/", cpu, &host);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	atomic_store(&stop_flag, false);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	/* flush-major order: each flush buffer is allocated once at a time */
	for (size_t f = 0; f < o->nflush; f++)
		for (size_t b = 0; b < o->nbackends; b++) {
			struct cell *c = &cells[f * o->nbackends + b];

			c->b = b;
			c->f = f;
			c->ratio_tmin = c->ratio_tdiff = NAN;
		}
	for (size_t i = 0; i < ncells && !atomic_load(&stop_flag); i++) {
		int r = cell_run(&cells[i], o);

		done++;
		if (r < 0)
			rc = TL_EXIT_FAIL;
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	compute_ratios(cells, ncells, o);
	if (!o->quiet)
		print_table(stdout_taken ? stderr : stdout, cells, ncells, o);
	if (atomic_load(&stop_flag))
		fprintf(stderr, "ticklab search: interrupted after %zu of %zu cells; kept what was "
				"found\n",
			done, ncells);
	fflush(stdout);
	wrc = o->json ? write_json(o, cells, ncells, &host, atomic_load(&stop_flag)) : TL_EXIT_OK;
	free(cells);
	if (wrc != TL_EXIT_OK)
		return wrc;
	return atomic_load(&stop_flag) ? TL_EXIT_INTERRUPTED : rc;
}

int cli_search_main(int argc, char **argv)
{
	struct search_opts o;
	char why[WHY_LEN];
	int rc = parse_args(argc, argv, &o, why, sizeof why);

	if (rc > 0) {
		opts_release(&o);
		return TL_EXIT_OK;
	}
	if (rc < 0) {
		opts_release(&o);
		return opts_fail("search", why);
	}
	rc = search_all(&o);
	opts_release(&o);
	return rc;
}
