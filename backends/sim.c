/* sim: a simulated timer with a stated τ_e distribution. It
 * times nothing; it returns what a timer with this model would read, so
 * tests and teaching get known answers. Always labelled simulated.
 *
 * Id: sim[:key=value,...], every key optional:
 *
 * (every time is capped, times at 1e12 ns and costs per operation at 1e5 ns,
 * so a reading stays inside what a saved file may hold)
 *   sd=5           standard deviation of the normal τ_e, ns (>= 0)
 *   quantum=10     clock step, ns (>= 0; 0 = continuous clock)
 *   spike_rate=0.01 share of reads hit by an OS-noise spike (0..1)
 *   spike_ns=2000  size of a spike, ns (>= 0)
 *   ns_per_add=0.3 true cost of one ADD, ns (>= 0)
 *   ns_per_mul=0.9 true cost of one MUL (mul:K), ns (>= 0)
 *   ns_per_fma=1.2 true cost of one FMA (fma:K), ns (>= 0)
 *   ns_per_load=1.2 true cost of one load (load:SIZE,K), ns (>= 0): the
 *                  sim has no caches, so the latency ladder is flat
 *   overhead=20    true timer cost t_e,std, ns (>= 0)
 *   seed=1         generator seed (integer 0..2^32-1), gsl mt19937
 *   drift=0        relative sd of the level (0..0.5): a clock that wanders
 *   drift_every=1000 readings from one level knot to the next (>= 1)
 *   burst_rate=0   chance a reading starts a host burst (0..1)
 *   burst_len=200  readings a burst lasts (>= 1)
 *   burst_ns=20    scale of a burst's extra time, ns (>= 0)
 *
 * One reading for K ADDs: d = overhead + ns_per_add*K + N(0, sd) (the
 * other kernels with their own cost per operation), plus
 * spike_ns with probability spike_rate. With quantum q > 0 the result is
 * q*floor((phase + d)/q), phase ~ U[0, q) drawn per reading: a clock of
 * step q read at a random phase, which is unbiased (its mean is d) and has
 * the extra variance of a real coarse clock. Each reading draws, in this
 * order, the normal, the spike uniform and the phase uniform, so the same
 * id gives the same sequence after every open.
 *
 * With drift r > 0 every reading's d (overhead and kernel, not the noise)
 * is scaled by a level L: independent knots 1 + r N(0,1) (within 0.5..1.5)
 * every drift_every readings, L linear between them, so the level wanders
 * smoothly as a VM's core clock does. The knots come from a generator of
 * their own (seeded from seed), so the readings' draws stay the sequence
 * above and drift 0 changes nothing. On a steady clock (within a few
 * readings) the answers are drift 0's; over a set of n readings the CV
 * grows by the level's spread (see tests/test_search_drift.c).
 *
 * With burst_rate b > 0 a reading starts, with probability b, a burst of
 * burst_len readings, each slowed by burst_ns |N(0,1)|: a loaded VM's host
 * or neighbour slowing the vCPU for a stretch, as seen on a KVM guest. Its
 * draws come from a third generator, so the readings' own sequence is
 * still burst 0's, and outside the bursts the answers are burst 0's. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "backends/backend.h"
#include "base/suggest.h"
#include "base/xalloc.h"
#include "backends/internal.h"
#include "backends/sim.h"

struct sim_state {
	struct tl_sim_model m;
	gsl_rng *rng;
	gsl_rng *knots;      /* drift > 0 only */
	double knot0, knot1; /* the level at the last and the next knot */
	double since;        /* readings since the last knot */
	gsl_rng *bursts;     /* burst_rate > 0 only */
	double burst_left;   /* readings left in the burst under way */
};

static const char sim_keys[] = "sd, quantum, spike_rate, spike_ns, ns_per_add, ns_per_mul, "
				"ns_per_fma, ns_per_load, overhead, seed, drift, drift_every, burst_rate, "
				"burst_len, burst_ns";

/* The defaults, written once: the model's values and the two texts that
 * state them (tl_sim_describe and the backend's how) come from here. */
#define SIM_SD 5
#define SIM_QUANTUM 10
#define SIM_SPIKE_RATE 0.01
#define SIM_SPIKE_NS 2000
#define SIM_NS_PER_ADD 0.3
#define SIM_NS_PER_MUL 0.9
#define SIM_NS_PER_FMA 1.2
#define SIM_NS_PER_LOAD 1.2
#define SIM_OVERHEAD 20
#define SIM_SEED 1
#define SIM_DRIFT 0
#define SIM_DRIFT_EVERY 1000
#define SIM_BURST_RATE 0
#define SIM_BURST_LEN 200
#define SIM_BURST_NS 20
#define SIM_TEXT(v) SIM_TEXT_(v)
#define SIM_TEXT_(v) #v

void tl_sim_defaults(struct tl_sim_model *m)
{
	m->sd = SIM_SD;
	m->quantum = SIM_QUANTUM;
	m->spike_rate = SIM_SPIKE_RATE;
	m->spike_ns = SIM_SPIKE_NS;
	m->ns_per_add = SIM_NS_PER_ADD;
	m->ns_per_mul = SIM_NS_PER_MUL;
	m->ns_per_fma = SIM_NS_PER_FMA;
	m->ns_per_load = SIM_NS_PER_LOAD;
	m->overhead = SIM_OVERHEAD;
	m->seed = SIM_SEED;
	m->drift = SIM_DRIFT;
	m->drift_every = SIM_DRIFT_EVERY;
	m->burst_rate = SIM_BURST_RATE;
	m->burst_len = SIM_BURST_LEN;
	m->burst_ns = SIM_BURST_NS;
}

const char *tl_sim_describe(void)
{
	return "simulated: overhead + ns_per_add*K + N(0,sd) [+ spike_ns w.p. spike_rate], "
	       "quantized to quantum at a random phase; keys (defaults) sd (" SIM_TEXT(SIM_SD)
	       "), quantum (" SIM_TEXT(SIM_QUANTUM) "), spike_rate (" SIM_TEXT(SIM_SPIKE_RATE)
	       "), spike_ns (" SIM_TEXT(SIM_SPIKE_NS) "), ns_per_add (" SIM_TEXT(SIM_NS_PER_ADD)
	       "), ns_per_mul (" SIM_TEXT(SIM_NS_PER_MUL) "), ns_per_fma ("
	       SIM_TEXT(SIM_NS_PER_FMA) "), ns_per_load (" SIM_TEXT(SIM_NS_PER_LOAD)
	       "), overhead (" SIM_TEXT(SIM_OVERHEAD) "), seed (" SIM_TEXT(SIM_SEED)
	       "), drift (" SIM_TEXT(SIM_DRIFT) "), drift_every (" SIM_TEXT(SIM_DRIFT_EVERY)
	       "), burst_rate (" SIM_TEXT(SIM_BURST_RATE) "), burst_len (" SIM_TEXT(SIM_BURST_LEN)
	       "), burst_ns (" SIM_TEXT(SIM_BURST_NS) ")";
}

static int sim_number(const char *key, const char *val, double lo, double hi, double *out,
		      char *why, size_t whylen)
{
	char *end;
	double x;

	errno = 0;
	x = strtod(val, &end);
	if (end == val || *end || errno || !isfinite(x) || x < lo || x > hi) {
		if (isinf(hi))
			return tl_why(why, whylen, "sim: bad value '%s' for %s: want a number >= %g",
				      val, key, lo);
		return tl_why(why, whylen, "sim: bad value '%s' for %s: want a number in [%g, %g]",
			      val, key, lo, hi);
	}
	*out = x;
	return 0;
}

static int sim_seed(const char *val, unsigned long *out, char *why, size_t whylen)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(val, &end, 10);
	if (end == val || *end || errno || val[0] == '-' || x > 0xffffffffULL)
		return tl_why(why, whylen,
			      "sim: bad value '%s' for seed: want an integer in [0, 4294967295]", val);
	*out = (unsigned long)x;
	return 0;
}

/* Caps on the model, so no reading can leave the +-1e15 ns a saved file
 * may hold (io/results.h): 1e5 ns per operation times at most 1e9
 * operations is 1e14 ns, and the other times are at most 1e12 ns each. */
#define SIM_MAX_NS 1e12
#define SIM_MAX_NS_PER_OP 1e5

static int sim_set(struct tl_sim_model *m, const char *key, const char *val, char *why,
		   size_t whylen)
{
	if (strcmp(key, "sd") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS, &m->sd, why, whylen);
	if (strcmp(key, "quantum") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS, &m->quantum, why, whylen);
	if (strcmp(key, "spike_rate") == 0)
		return sim_number(key, val, 0.0, 1.0, &m->spike_rate, why, whylen);
	if (strcmp(key, "spike_ns") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS, &m->spike_ns, why, whylen);
	if (strcmp(key, "ns_per_add") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS_PER_OP, &m->ns_per_add, why, whylen);
	if (strcmp(key, "ns_per_mul") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS_PER_OP, &m->ns_per_mul, why, whylen);
	if (strcmp(key, "ns_per_fma") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS_PER_OP, &m->ns_per_fma, why, whylen);
	if (strcmp(key, "ns_per_load") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS_PER_OP, &m->ns_per_load, why, whylen);
	if (strcmp(key, "overhead") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS, &m->overhead, why, whylen);
	if (strcmp(key, "seed") == 0)
		return sim_seed(val, &m->seed, why, whylen);
	if (strcmp(key, "drift") == 0)
		return sim_number(key, val, 0.0, 0.5, &m->drift, why, whylen);
	if (strcmp(key, "drift_every") == 0)
		return sim_number(key, val, 1.0, SIM_MAX_NS, &m->drift_every, why, whylen);
	if (strcmp(key, "burst_rate") == 0)
		return sim_number(key, val, 0.0, 1.0, &m->burst_rate, why, whylen);
	if (strcmp(key, "burst_len") == 0)
		return sim_number(key, val, 1.0, SIM_MAX_NS, &m->burst_len, why, whylen);
	if (strcmp(key, "burst_ns") == 0)
		return sim_number(key, val, 0.0, SIM_MAX_NS, &m->burst_ns, why, whylen);
	tl_why(why, whylen, "sim: unknown key '%s': accepted keys are %s", key, sim_keys);
	tl_suggest_append(why, whylen, key, sim_keys);
	return -1;
}

int tl_sim_parse(const char *params, struct tl_sim_model *m, char *why, size_t whylen)
{
	char buf[TL_ID_MAX];
	char *save = NULL;

	tl_sim_defaults(m);
	if (!params || !*params)
		return 0;
	if (strlen(params) >= sizeof buf)
		return tl_why(why, whylen, "sim: parameters too long (at most %zu characters)",
			      sizeof buf - 1);
	strcpy(buf, params);
	for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq)
			return tl_why(why, whylen,
				      "sim: '%s' is not key=value: accepted keys are %s", item,
				      sim_keys);
		*eq = '\0';
		if (sim_set(m, item, eq + 1, why, whylen) < 0)
			return -1;
	}
	return 0;
}

double tl_sim_draw(const struct tl_sim_model *m, gsl_rng *rng, uint64_t adds)
{
	return tl_sim_draw_work(m, rng, m->ns_per_add * (double)adds);
}

double tl_sim_draw_work(const struct tl_sim_model *m, gsl_rng *rng, double work_ns)
{
	return tl_sim_draw_level(m, rng, work_ns, 1.0);
}

double tl_sim_knot(const struct tl_sim_model *m, double z)
{
	return fmin(fmax(1.0 + m->drift * z, 0.5), 1.5);
}

double tl_sim_draw_level(const struct tl_sim_model *m, gsl_rng *rng, double work_ns, double level)
{
	double d = (m->overhead + work_ns) * level;
	double spike_u, phase_u;

	/* Always draw all three so the sequence does not depend on the model. */
	d += gsl_ran_gaussian_ziggurat(rng, 1.0) * m->sd;
	spike_u = gsl_rng_uniform(rng);
	phase_u = gsl_rng_uniform(rng);
	if (spike_u < m->spike_rate)
		d += m->spike_ns;
	if (m->quantum > 0.0)
		d = m->quantum * floor((phase_u * m->quantum + d) / m->quantum);
	return d;
}

static int sim_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	struct sim_state *s = tl_xcalloc(1, sizeof *s);

	if (tl_sim_parse(params, &s->m, why, whylen) < 0) {
		free(s);
		return -1;
	}
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!s->rng)
		tl_fail("out of memory (the simulator's random number generator)");
	gsl_rng_set(s->rng, s->m.seed);
	if (s->m.drift > 0) {
		s->knots = gsl_rng_alloc(gsl_rng_mt19937);
		if (!s->knots)
			tl_fail("out of memory (the simulator's random number generator)");
		/* its own stream: the readings' sequence is drift 0's */
		gsl_rng_set(s->knots, (s->m.seed ^ 0x5bd1e995UL) & 0xffffffffUL);
		s->knot0 = tl_sim_knot(&s->m, gsl_ran_gaussian_ziggurat(s->knots, 1.0));
		s->knot1 = tl_sim_knot(&s->m, gsl_ran_gaussian_ziggurat(s->knots, 1.0));
	}
	if (s->m.burst_rate > 0) {
		s->bursts = gsl_rng_alloc(gsl_rng_mt19937);
		if (!s->bursts)
			tl_fail("out of memory (the simulator's random number generator)");
		gsl_rng_set(s->bursts, (s->m.seed ^ 0x9e3779b9UL) & 0xffffffffUL);
	}
	t->state = s;
	t->ns_per_unit = 1.0;
	return 0;
}

static void sim_close(struct tl_timer *t)
{
	struct sim_state *s = t->state;

	if (s) {
		gsl_rng_free(s->rng);
		if (s->knots)
			gsl_rng_free(s->knots);
		if (s->bursts)
			gsl_rng_free(s->bursts);
		free(s);
	}
	t->state = NULL;
}

/* The level for this reading, then one step along the wander. */
static double sim_level(struct sim_state *s)
{
	double l;

	if (!s->knots)
		return 1.0;
	l = s->knot0 + (s->knot1 - s->knot0) * s->since / s->m.drift_every;
	if (++s->since >= s->m.drift_every) {
		s->since = 0;
		s->knot0 = s->knot1;
		s->knot1 = tl_sim_knot(&s->m, gsl_ran_gaussian_ziggurat(s->knots, 1.0));
	}
	return l;
}

/* This reading's extra time from a host burst (0 outside one). */
static double sim_burst(struct sim_state *s)
{
	if (!s->bursts)
		return 0;
	if (s->burst_left <= 0 && gsl_rng_uniform(s->bursts) < s->m.burst_rate)
		s->burst_left = s->m.burst_len;
	if (s->burst_left <= 0)
		return 0;
	s->burst_left--;
	return s->m.burst_ns * fabs(gsl_ran_gaussian_ziggurat(s->bursts, 1.0));
}

double tl_sim_time(struct tl_timer *t, double work_ns)
{
	struct sim_state *s = t->state;
	double level = sim_level(s);

	/* the burst's time is not scaled by the level: it is the host's */
	return tl_sim_draw_level(&s->m, s->rng, work_ns + sim_burst(s) / level, level);
}

const struct tl_sim_model *tl_sim_timer_model(const struct tl_timer *t)
{
	const struct sim_state *s = t->state;
	return &s->m;
}

const struct tl_backend tl_backend_sim = {
	.id = "sim",
	.family = "sim",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "simulated: overhead + ns_per_add*K + N(0,sd) [+ spike_ns w.p. spike_rate], "
	       "quantized at a random phase (defaults sd=" SIM_TEXT(SIM_SD) ",quantum="
	       SIM_TEXT(SIM_QUANTUM) ",spike_rate=" SIM_TEXT(SIM_SPIKE_RATE) ",spike_ns="
	       SIM_TEXT(SIM_SPIKE_NS) ",ns_per_add=" SIM_TEXT(SIM_NS_PER_ADD) ",overhead="
	       SIM_TEXT(SIM_OVERHEAD) ",seed=" SIM_TEXT(SIM_SEED) ")",
	.simulated = true,
	.open = sim_open,
	.close = sim_close,
	.timing = TL_TIMING_SIM,
};
