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

#endif
