/* The sim backend's model, exposed so tests and teaching code can state
 * what a sim id means (see backends/sim.c for the distribution). */
#ifndef TL_BACKENDS_SIM_H
#define TL_BACKENDS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

struct tl_sim_model {
	double sd;          /* normal τ_e, ns */
	double quantum;     /* clock step, ns (0: continuous) */
	double spike_rate;  /* share of readings with a spike */
	double spike_ns;    /* spike size, ns */
	double ns_per_add;  /* true ADD cost, ns */
	double ns_per_mul;  /* true MUL cost, ns */
	double ns_per_fma;  /* true FMA cost, ns */
	double ns_per_load; /* true cost of one dependent load, ns (no caches) */
	double overhead;    /* true t_e,std, ns */
	unsigned long seed; /* mt19937 seed */
	/* The level every reading is scaled by: 1 + drift N(0,1) at a knot
	 * every drift_every readings, linear between knots (a core clock that
	 * wanders); drift 0 is a steady clock. */
	double drift;       /* relative sd of the level at each knot (0..0.5) */
	double drift_every; /* readings from one knot to the next (>= 1) */
	/* Host bursts: a reading starts one with probability burst_rate; for
	 * burst_len readings each is slowed by burst_ns |N(0,1)|. */
	double burst_rate;
	double burst_len;
	double burst_ns;
};

void tl_sim_defaults(struct tl_sim_model *m);

/* Parses "key=value,..." (NULL or "" = defaults). Returns 0, or -1 with why
 * naming the bad key or value and what is accepted. */
int tl_sim_parse(const char *params, struct tl_sim_model *m, char *why, size_t whylen);

/* One simulated reading for `adds` ADDs, in ns. */
double tl_sim_draw(const struct tl_sim_model *m, gsl_rng *rng, uint64_t adds);

/* One simulated reading whose kernel costs work_ns, in ns. */
double tl_sim_draw_work(const struct tl_sim_model *m, gsl_rng *rng, double work_ns);

/* One reading whose whole time (overhead and kernel) runs at `level`
 * times its steady length, the noise and quantum as they are. */
double tl_sim_draw_level(const struct tl_sim_model *m, gsl_rng *rng, double work_ns, double level);

/* The level at a knot: 1 + drift z for a standard normal z, kept within
 * [0.5, 1.5] so a large drift never reads a negative time. */
double tl_sim_knot(const struct tl_sim_model *m, double z);

/* An opened sim timer's reading for a kernel whose work costs work_ns
 * (overhead, noise, quantum and drift added as the model says): the sim
 * has no clock to read, so each kernel states its cost (bench/kernels/). */
struct tl_timer;
double tl_sim_time(struct tl_timer *t, double work_ns);

/* The model an opened sim timer runs. */
const struct tl_sim_model *tl_sim_timer_model(const struct tl_timer *t);

/* One line: the model and its keys with defaults. */
const char *tl_sim_describe(void);

#endif
