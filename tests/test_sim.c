/* The sim backend: deterministic per id, the stated moments, bad
 * parameters refused with a message naming the key.
 *
 * Expected moments, derived from the model in backends/sim.c: a reading is
 * d = overhead + ns_per_add*K + N(0, sd) [+ spike_ns w.p. rate], then
 * q*floor((U*q + d)/q) with U ~ U[0,1). For a fractional part f of d/q
 * the rounding error is -f*q w.p. 1-f and (1-f)*q w.p. f: mean 0, variance
 * q^2 f(1-f); with f ~ U[0,1) (sd >> 0 spreads d over many steps) that is
 * q^2/6. So mean = overhead + ns_per_add*K + rate*spike_ns and
 * variance = sd^2 + q^2/6 + spike_ns^2 rate(1-rate). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "backends/backend.h"
#include "backends/sim.h"
#include "bench/kernel.h"
#include "tests/tap.h"

#define N 100000

static double *draw(const char *id, uint64_t k, size_t n)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";
	double *v;

	if (tl_timer_open(&t, id, why, sizeof why) < 0) {
		tap_diag("%s: %s", id, why);
		return NULL;
	}
	v = malloc(n * sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = k ? tl_time_adds(&t, k) : tl_time_empty(&t);
	tl_timer_close(&t);
	return v;
}

static void test_determinism(void)
{
	const char *id = "sim:sd=5,quantum=10,spike_rate=0.01,spike_ns=2000,ns_per_add=0.3,"
			 "overhead=20,seed=1";
	double *a = draw(id, 500, 1000), *b = draw(id, 500, 1000);
	double *c = draw("sim:sd=5,quantum=10,spike_rate=0.01,spike_ns=2000,ns_per_add=0.3,"
			 "overhead=20,seed=2",
			 500, 1000);
	double *d = draw("sim", 500, 1000);

	ok(a && b && memcmp(a, b, 1000 * sizeof *a) == 0, "same id: identical sequence");
	ok(a && c && memcmp(a, c, 1000 * sizeof *a) != 0, "different seed: different sequence");
	ok(a && d && memcmp(a, d, 1000 * sizeof *a) == 0, "bare 'sim' is the documented defaults");
	free(a);
	free(b);
	free(c);
	free(d);
}

static void test_moments_quantized(void)
{
	const double sd = 5, q = 10, rate = 0.01, spike = 2000, npa = 0.3, over = 20;
	const uint64_t k = 1000;
	double *v = draw("sim:sd=5,quantum=10,spike_rate=0.01,spike_ns=2000,ns_per_add=0.3,"
			 "overhead=20,seed=7",
			 k, N);
	double mean, s, want, base = over + npa * (double)k, var;
	size_t spikes = 0, offgrid = 0;

	if (!ok(v != NULL, "sim opens"))
		return;
	for (size_t i = 0; i < N; i++) {
		if (fmod(v[i], q) != 0.0)
			offgrid++;
		if (v[i] > base + spike / 2)
			spikes++;
	}
	ok(offgrid == 0, "every reading is a multiple of quantum 10 (%zu are not)", offgrid);
	mean = gsl_stats_mean(v, 1, N);
	s = gsl_stats_sd_m(v, 1, N, mean);
	want = base + rate * spike;
	var = sd * sd + q * q / 6 + spike * spike * rate * (1 - rate);
	is_near(mean, want, 4 * sqrt(var / N), "mean %.3f = overhead + ns_per_add*K + rate*spike_ns",
		mean);
	is_near(s, sqrt(var), 0.05 * sqrt(var), "sd %.2f matches the model", s);
	is_near((double)spikes / N, rate, 4 * sqrt(rate * (1 - rate) / N), "spike share %.4f",
		(double)spikes / N);
	free(v);
}

static void test_moments_plain(void)
{
	/* No spikes: the mean is exactly overhead + ns_per_add*K in expectation
	 * and the sd shows the q^2/6 of a randomly phased coarse clock. */
	const double sd = 5, q = 10;
	double *v = draw("sim:spike_rate=0,seed=3", 2000, N);
	double *w = draw("sim:spike_rate=0,quantum=0,seed=3", 2000, N);
	double m, s;

	if (!ok(v && w, "sim opens without spikes"))
		return;
	m = gsl_stats_mean(v, 1, N);
	s = gsl_stats_sd_m(v, 1, N, m);
	is_near(m, 20 + 0.3 * 2000, 4 * sqrt((sd * sd + q * q / 6) / N),
		"quantized, no spikes: mean %.3f = 620", m);
	is_near(s, sqrt(sd * sd + q * q / 6), 0.03 * sqrt(sd * sd + q * q / 6),
		"quantized: sd %.3f = sqrt(sd^2 + q^2/6)", s);
	m = gsl_stats_mean(w, 1, N);
	s = gsl_stats_sd_m(w, 1, N, m);
	is_near(m, 620, 4 * sd / sqrt(N), "continuous: mean %.3f = 620", m);
	is_near(s, sd, 0.03 * sd, "continuous: sd %.3f = 5", s);
	free(v);
	free(w);
}

static void bad(const char *id, const char *must)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";

	ok(tl_timer_open(&t, id, why, sizeof why) < 0 && strstr(why, must),
	   "%s refused, naming '%s': %s", id, must, why);
}

static void test_bad_params(void)
{
	bad("sim:foo=1", "foo");
	bad("sim:foo=1", "accepted keys are sd, quantum");
	bad("sim:sd=-1", "sd");
	bad("sim:sd=abc", "want a number in [0, 1e+12]");
	/* Values no saved file may hold (|ns| <= 1e15), refused at the id. */
	bad("sim:overhead=1e308", "bad value '1e308' for overhead: want a number in [0, 1e+12]");
	bad("sim:ns_per_add=1e308", "for ns_per_add: want a number in [0, 100000]");
	bad("sim:ns_per_load=1e6", "ns_per_load");
	bad("sim:quantum=nan", "quantum");
	bad("sim:spike_rate=1.5", "[0, 1]");
	bad("sim:spike_ns=1e400", "spike_ns");
	bad("sim:ns_per_add=", "ns_per_add");
	bad("sim:overhead=-3", "overhead");
	bad("sim:seed=-1", "seed");
	bad("sim:seed=4294967296", "seed");
	bad("sim:sd", "not key=value");
}

static void test_parse(void)
{
	struct tl_sim_model m;
	char why[TL_WHY_MAX] = "";

	ok(tl_sim_parse(NULL, &m, why, sizeof why) == 0 && m.sd == 5 && m.quantum == 10 &&
		   m.spike_rate == 0.01 && m.spike_ns == 2000 && m.ns_per_add == 0.3 &&
		   m.overhead == 20 && m.seed == 1,
	   "defaults: sd=5, quantum=10, spike_rate=0.01, spike_ns=2000, ns_per_add=0.3, "
	   "overhead=20, seed=1");
	ok(tl_sim_parse("overhead=7.5,seed=42", &m, why, sizeof why) == 0 && m.overhead == 7.5 &&
		   m.seed == 42 && m.sd == 5,
	   "given keys override, others keep defaults");
	ok(strstr(tl_sim_describe(), "spike_rate") && strstr(tl_sim_describe(), "ns_per_add"),
	   "describe names the keys");
}

static void test_reopen(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX];
	double a, b;

	tl_timer_open(&t, "sim:seed=9", why, sizeof why);
	a = tl_time_adds(&t, 10);
	tl_timer_close(&t);
	tl_timer_open(&t, "sim:seed=9", why, sizeof why);
	b = tl_time_adds(&t, 10);
	ok(a == b && strcmp(t.id, "sim:seed=9") == 0 && strcmp(t.backend->unit, "ns") == 0 &&
		   t.backend->clock == TL_CLOCK_WALL,
	   "reopen restarts the sequence; id, unit ns, wall clock");
	tl_timer_close(&t);
}

int main(void)
{
	test_determinism();
	test_moments_quantized();
	test_moments_plain();
	test_bad_params();
	test_parse();
	test_reopen();
	return tap_done();
}
