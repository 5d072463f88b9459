/* POSIX clocks read with clock_gettime(), which glibc serves from the
 * vDSO without a system call for MONOTONIC, MONOTONIC_RAW and REALTIME
 * when the clocksource allows it (tsc does). The call is part of the
 * cost being measured: it is what most programs use. */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/internal.h"
#include "backends/timed.h"

#define POSIX_DIFF(t, e, s)                                                        \
	((double)((int64_t)((e).tv_sec - (s).tv_sec) * 1000000000 +                \
		  (int64_t)((e).tv_nsec - (s).tv_nsec)))

#define POSIX_READ_MONO(v) clock_gettime(CLOCK_MONOTONIC, &(v))
#define POSIX_READ_RAW(v) clock_gettime(CLOCK_MONOTONIC_RAW, &(v))
#define POSIX_READ_REAL(v) clock_gettime(CLOCK_REALTIME, &(v))

TL_TIMED_DEFINE(posix_mono, struct timespec, TL_TIMED_NO_PREP, POSIX_READ_MONO, POSIX_DIFF)
TL_TIMED_DEFINE(posix_raw, struct timespec, TL_TIMED_NO_PREP, POSIX_READ_RAW, POSIX_DIFF)
TL_TIMED_DEFINE(posix_real, struct timespec, TL_TIMED_NO_PREP, POSIX_READ_REAL, POSIX_DIFF)

static int posix_open_clock(struct tl_timer *t, clockid_t clk, const char *name,
			    const char *params, char *why, size_t whylen)
{
	struct timespec ts;

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	if (clock_getres(clk, &ts) != 0 || clock_gettime(clk, &ts) != 0)
		return tl_why(why, whylen, "clock_gettime(%s) failed: %s", name,
			      strerror(errno));
	t->ns_per_unit = 1.0;
	return 0;
}

static int posix_mono_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	return posix_open_clock(t, CLOCK_MONOTONIC, "CLOCK_MONOTONIC", params, why, whylen);
}

static int posix_raw_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	return posix_open_clock(t, CLOCK_MONOTONIC_RAW, "CLOCK_MONOTONIC_RAW", params, why,
				whylen);
}

static int posix_real_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	return posix_open_clock(t, CLOCK_REALTIME, "CLOCK_REALTIME", params, why, whylen);
}

const struct tl_backend tl_backend_clock_gettime = {
	.id = "clock-gettime",
	.family = "posix",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "clock_gettime(CLOCK_MONOTONIC) (vDSO call)",
	.simulated = false,
	.open = posix_mono_open,
	.close = NULL,
	.time_empty = posix_mono_time_empty,
	.time_adds = posix_mono_time_adds,
	.time_muls = posix_mono_time_muls,
	.time_fmas = posix_mono_time_fmas,
	.time_loads = posix_mono_time_loads,
	.time_jitter = posix_mono_time_jitter,
};

const struct tl_backend tl_backend_clock_gettime_raw = {
	.id = "clock-gettime-raw",
	.family = "posix",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "clock_gettime(CLOCK_MONOTONIC_RAW) (vDSO call, not slewed by NTP)",
	.simulated = false,
	.open = posix_raw_open,
	.close = NULL,
	.time_empty = posix_raw_time_empty,
	.time_adds = posix_raw_time_adds,
	.time_muls = posix_raw_time_muls,
	.time_fmas = posix_raw_time_fmas,
	.time_loads = posix_raw_time_loads,
	.time_jitter = posix_raw_time_jitter,
};

const struct tl_backend tl_backend_clock_gettime_realtime = {
	.id = "clock-gettime-realtime",
	.family = "posix",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "clock_gettime(CLOCK_REALTIME) (vDSO call, can step with settimeofday/NTP)",
	.simulated = false,
	.open = posix_real_open,
	.close = NULL,
	.time_empty = posix_real_time_empty,
	.time_adds = posix_real_time_adds,
	.time_muls = posix_real_time_muls,
	.time_fmas = posix_real_time_fmas,
	.time_loads = posix_real_time_loads,
	.time_jitter = posix_real_time_jitter,
};
