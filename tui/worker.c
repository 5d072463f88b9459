/* The TUI's worker threads (sampling, search) and the CPUs they and the UI
 * thread run on: a worker pins itself to the sampling CPU, the UI moves
 * off it while the worker samples and gets its CPUs back afterwards. */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>

#include "bench/runner.h"
#include "tui/app.h"

/* Another CPU than the sampling one for the UI thread, or -1. */
static int other_cpu(int sampling)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set) && c != sampling)
			return c;
	return -1;
}

static cpu_set_t orig_mask;
static bool have_orig;

void tui_affinity_save(void)
{
	have_orig = sched_getaffinity(0, sizeof orig_mask, &orig_mask) == 0;
}

void tui_affinity_restore(void)
{
	if (have_orig)
		sched_setaffinity(0, sizeof orig_mask, &orig_mask);
}

int tui_worker_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	tui_affinity_restore();
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

void tui_worker_join(pthread_t thread, bool *live)
{
	pthread_join(thread, NULL);
	*live = false;
	tui_affinity_restore();
}

/* Moves the UI thread off the sampling CPU (workers are created before
 * this, with the whole mask, so they can pin themselves). */
void tui_affinity_ui(struct tui_app *app, int sampling_cpu)
{
	char why[256];
	app->ui_cpu = other_cpu(sampling_cpu);
	if (app->ui_cpu < 0 || tl_cpu_pin(app->ui_cpu, why, sizeof why) < 0)
		tui_message(app, true, "warning: the UI shares CPU %d with sampling (one CPU allowed)",
			    sampling_cpu);
	else
		tui_message(app, false, "sampling on CPU %d, drawing on CPU %d", sampling_cpu,
			    app->ui_cpu);
}
