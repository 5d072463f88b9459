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
	.timing = TL_TIMING_POSIX_MONO,
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
	.timing = TL_TIMING_POSIX_RAW,
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
	.timing = TL_TIMING_POSIX_REAL,
};
