/* One probe of one backend, the same for `info`, the TUI's setup screen and
 * anyone else who asks "does this timer work here, and what does it cost?".
 * It measures on the calling thread: pin it where a run would sample. */
#ifndef TL_BENCH_PROBE_H
#define TL_BENCH_PROBE_H

#include <stdbool.h>
#include <stddef.h>

#include "backends/backend.h"

/* Enough empty timings for a stable median and a lattice step, few enough
 * that probing every backend stays well under a second. */
#define TL_PROBE_SAMPLES 2000

struct tl_probe {
	const struct tl_backend *backend;
	bool available;
	char reason[TL_WHY_MAX];  /* unavailable: why; available: how it was decided */
	double resolution_ns;     /* lattice step, NaN when it cannot be measured */
	double overhead_ns;       /* t_e,std: median of empty timings */
	double overhead_sd_ns;    /* their sd once Tukey's fences dropped interrupts */
	bool syscall_per_read;    /* costs what a system call costs here */
};

/* The clock's step in raw units, measured (never assumed): the lattice
 * step (stats_lattice_step) of `tries` timings, half empty, half with
 * 0..127 ADDs so durations vary. NaN when it cannot be measured (the
 * readings never changed, or tries is 0). */
double tl_timer_resolution(struct tl_timer *t, unsigned tries);

/* The cost of reading CLOCK_MONOTONIC through libc (the vDSO where it
 * serves) and through a bare system call, measured now: medians in ns. */
struct tl_syscall_cost {
	double vdso_ns, syscall_ns;
};
void tl_syscall_cost_measure(struct tl_syscall_cost *c);

/* 1 when libc's clock_gettime is clearly cheaper than the system call (a
 * vDSO read), 0 when it costs about as much (it is the system call), -1
 * when not measured. Pure. */
int tl_vdso_verdict(const struct tl_syscall_cost *c);

/* Whether a read costing overhead_ns is a system call, given the costs
 * above: only said when a system call is clearly dearer than a vDSO read
 * here and the read costs at least half a system call. Pure. */
bool tl_probe_is_syscall(double overhead_ns, const struct tl_syscall_cost *c);

/* Opens id, measures, closes. cost may be NULL (then syscall_per_read is
 * never set). Never fatal. */
void tl_backend_probe(const char *id, const struct tl_syscall_cost *cost, struct tl_probe *p);

/* One line for people: "a syscall per read: 1.1 us here" or "". */
void tl_probe_cost_words(const struct tl_probe *p, const struct tl_syscall_cost *c, char *buf,
			 size_t len);

#endif
