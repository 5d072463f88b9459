/* perf_event counters read with the read() system call: the path PAPI
 * takes when it cannot use rdpmc, so its cost is a syscall.
 *
 *   perf-read        hardware CPU cycles of this thread (needs a PMU)
 *   perf-task-clock  software task clock of this thread, ns (always there)
 *
 * Events count one thread (pid 0, any CPU). A timer may be opened on one
 * thread and used on another (the runner samples on a pinned thread): the
 * first timing on a new thread reopens the event there, before its first
 * read, so the counts are always those of the thread being timed. The errno of perf_event_open is turned into a
 * reason a user can act on (no PMU, perf_event_paranoid, ...). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "backends/internal.h"
#include "backends/reads.h"

#if defined(HAVE_LINUX_PERF_EVENT_H)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#endif

int tl_perf_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -99;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -99;
		fclose(f);
	}
	return v;
}

bool tl_perf_has_cpu_pmu(void)
{
	struct stat st;
	return stat("/sys/bus/event_source/devices/cpu", &st) == 0 ||
	       stat("/sys/bus/event_source/devices/cpu_core", &st) == 0 ||
	       stat("/sys/bus/event_source/devices/armv8_pmuv3_0", &st) == 0 ||
	       stat("/sys/bus/event_source/devices/armv8_pmuv3", &st) == 0;
}

#if defined(HAVE_LINUX_PERF_EVENT_H) && defined(__linux__)

/* Maps a perf_event_open errno to a reason; hardware says whether the event
 * needs a PMU, so ENOENT can be read as "no PMU" rather than "no event". */
static int perf_reason(int err, bool hardware, const char *what, char *why, size_t whylen)
{
	int paranoid = tl_perf_paranoid();

	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		if (hardware && !tl_perf_has_cpu_pmu())
			return tl_why(why, whylen,
				      "no PMU: perf_event_open(%s) failed with %s and "
				      "/sys/bus/event_source/devices/cpu is missing (a VM without "
				      "vPMU?)",
				      what, strerror(err));
		return tl_why(why, whylen,
			      "perf_event_open(%s): %s: this PMU has no such event",
			      what, strerror(err));
	case EACCES:
	case EPERM:
		return tl_why(why, whylen,
			      "perf_event_open(%s) refused (%s): "
			      "perf_event_paranoid=%d; lower it (sysctl kernel.perf_event_paranoid=1) "
			      "or grant CAP_PERFMON",
			      what, strerror(err), paranoid);
	case ENOSYS:
		return tl_why(why, whylen,
			      "the kernel has no perf_event support (CONFIG_PERF_EVENTS) "
			      "or seccomp blocks perf_event_open");
	case ENODEV:
		return tl_why(why, whylen, "perf_event_open(%s): no such PMU device",
			      what);
	case EBUSY:
		return tl_why(why, whylen,
			      "perf_event_open(%s): PMU busy (held exclusively by "
			      "another user, e.g. the NMI watchdog or a profiler)",
			      what);
	case EMFILE:
	case ENFILE:
		return tl_why(why, whylen, "perf_event_open(%s): out of file descriptors",
			      what);
	default:
		return tl_why(why, whylen, "perf_event_open(%s) failed: %s", what,
			      strerror(err));
	}
}

int tl_perf_open(struct perf_event_attr *attr, const char *what, char *why, size_t whylen)
{
	long fd;

	attr->size = sizeof *attr;
	/* User-space counting only: allowed at perf_event_paranoid <= 2. */
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return perf_reason(errno, attr->type == PERF_TYPE_HARDWARE, what, why, whylen);
	return (int)fd;
}

/* Outside any timed region. */
int tl_perf_rebind(struct tl_perf_state *s)
{
	char why[TL_WHY_MAX];
	struct perf_event_attr attr = s->attr;
	int fd = tl_perf_open(&attr, "rebind", why, sizeof why);

	if (fd < 0)
		return -1;
	close(s->fd);
	s->fd = fd;
	s->owner = pthread_self();
	return 0;
}

static int perf_open_event(struct tl_timer *t, uint32_t type, uint64_t config, const char *what,
			   const char *params, char *why, size_t whylen)
{
	struct perf_event_attr attr;
	struct tl_perf_state *s;
	uint64_t probe;
	int fd;

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	memset(&attr, 0, sizeof attr);
	attr.type = type;
	attr.config = config;
	fd = tl_perf_open(&attr, what, why, whylen);
	if (fd < 0)
		return -1;
	if (read(fd, &probe, sizeof probe) != (ssize_t)sizeof probe) {
		close(fd);
		return tl_why(why, whylen, "read() on the %s event failed", what);
	}
	s = tl_xmalloc(sizeof *s);
	s->fd = fd;
	s->owner = pthread_self();
	s->attr = attr;
	t->state = s;
	return 0;
}

static int perf_read_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	double ghz = tl_tsc_ghz();

	if (perf_open_event(t, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cpu-cycles", params,
			    why, whylen) < 0)
		return -1;
	/* Cycles shown in ns at the nominal (TSC) rate, as backend.h says. */
	t->ns_per_unit = ghz > 0.0 ? 1.0 / ghz : 1.0;
	return 0;
}

static int perf_task_clock_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (perf_open_event(t, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", params,
			    why, whylen) < 0)
		return -1;
	t->ns_per_unit = 1.0;
	return 0;
}

static void perf_close(struct tl_timer *t)
{
	struct tl_perf_state *s = t->state;

	if (s) {
		close(s->fd);
		free(s);
	}
	t->state = NULL;
}

#else /* no perf_event */

static int perf_unavailable(char *why, size_t whylen)
{
	return tl_why(why, whylen,
		      "built without linux/perf_event.h (perf_event is Linux-only)");
}

static int perf_read_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)t;
	(void)params;
	return perf_unavailable(why, whylen);
}

static int perf_task_clock_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)t;
	(void)params;
	return perf_unavailable(why, whylen);
}

#define perf_close NULL

#endif

const struct tl_backend tl_backend_perf_read = {
	.id = "perf-read",
	.family = "perf",
	.clock = TL_CLOCK_CYCLES,
	.unit = "cycles",
	.how = "read() on a perf_event cpu-cycles fd (syscall, user-space cycles)",
	.simulated = false,
	.open = perf_read_open,
	.close = perf_close,
	.timing = TL_TIMING_PERF,
};

const struct tl_backend tl_backend_perf_task_clock = {
	.id = "perf-task-clock",
	.family = "perf",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "read() on a perf_event software task-clock fd (syscall, thread CPU time in ns)",
	.simulated = false,
	.open = perf_task_clock_open,
	.close = perf_close,
	.timing = TL_TIMING_PERF,
};
