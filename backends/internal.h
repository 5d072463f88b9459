/* Shared by the backend files only (not part of the public interface). */
#ifndef TL_BACKENDS_INTERNAL_H
#define TL_BACKENDS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"

extern const struct tl_backend tl_backend_barrier_tsc;
extern const struct tl_backend tl_backend_barrier_pmc;
extern const struct tl_backend tl_backend_barrier_cntvct;
extern const struct tl_backend tl_backend_barrier_pmccntr;
extern const struct tl_backend tl_backend_rdtsc;
extern const struct tl_backend tl_backend_papi_real_nsec;
extern const struct tl_backend tl_backend_papi_real_cyc;
extern const struct tl_backend tl_backend_papi_read;
extern const struct tl_backend tl_backend_clock_gettime;
extern const struct tl_backend tl_backend_clock_gettime_raw;
extern const struct tl_backend tl_backend_clock_gettime_realtime;
extern const struct tl_backend tl_backend_perf_read;
extern const struct tl_backend tl_backend_perf_task_clock;
extern const struct tl_backend tl_backend_sim;

/* printf into why (NULL-safe, always terminated). Returns -1 so probes can
 * `return tl_why(...)`. */
int tl_why(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fails with a message unless params is NULL or empty: most backends take
 * no parameters. */
int tl_backend_no_params(const struct tl_backend *b, const char *params, char *why, size_t whylen);

/* Name of the architecture this build runs on ("x86_64", "aarch64", ...). */
const char *tl_backend_arch(void);

/* perf_event helpers (backends/perf.c), shared with barrier-pmc/pmccntr. */
struct perf_event_attr;

/* /proc/sys/kernel/perf_event_paranoid, or -99 when unreadable. */
int tl_perf_paranoid(void);

/* Whether the kernel exposes a CPU PMU under /sys/bus/event_source. */
bool tl_perf_has_cpu_pmu(void);

/* perf_event_open for the calling thread, user space only; returns the fd,
 * or -1 with why saying what to do (no PMU, perf_event_paranoid=N, ...).
 * what names the event in the message. Linux only. */
int tl_perf_open(struct perf_event_attr *attr, const char *what, char *why, size_t whylen);

#endif
