/* The TUI's work off the UI thread: one job shape (start, progress as a
 * done/total pair, cancel, result through the wake pipe) for sampling, the
 * search, the node's facts and (forked) the baseline comparison; and the
 * CPUs they and the UI thread run on: a worker pins itself to the
 * sampling CPU, the UI moves off it while the worker samples and gets its
 * CPUs back afterwards. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xalloc.h"
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

/* Jobs that sample (started by worker_start, not yet joined): the UI
 * thread is their only reader and writer. */
static int sampling;

/* Every signal blocked (they belong to the event loop). */
static int spawn(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* A sampling worker starts with the original CPU mask, so it can pin itself. */
static int worker_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	tui_affinity_restore();
	int rc = spawn(thread, fn, arg);
	sampling += rc == 0;
	return rc;
}

/* Waits for a sampling worker that ended or was told to stop; the UI
 * gets its CPUs back. */
static void worker_join(pthread_t thread, bool *live)
{
	pthread_join(thread, NULL);
	*live = false;
	sampling--;
	tui_affinity_restore();
}

bool tui_busy(void)
{
	return sampling > 0;
}

static void *job_main(void *arg)
{
	struct tui_job *job = arg;
	job->fn(job);
	atomic_store(&job->done, true);
	tui_job_wake(job);
	return NULL;
}

void tui_job_wake(struct tui_job *job)
{
	tui_wake(job->app);
}

/* The lock is made before the first start, while the UI thread is the
 * only one; until then there is no worker to exclude. */
static void lock_ready(struct tui_job *job)
{
	if (!job->mu_ready)
		job->mu_ready = pthread_mutex_init(&job->mu, NULL) == 0;
}

void tui_job_lock(struct tui_job *job)
{
	if (job->mu_ready)
		pthread_mutex_lock(&job->mu);
}

void tui_job_unlock(struct tui_job *job)
{
	if (job->mu_ready)
		pthread_mutex_unlock(&job->mu);
}

void tui_job_publish(struct tui_job *job)
{
	job->gen++;
}

bool tui_job_take(struct tui_job *job, unsigned long *seen, void (*take)(void *ctx), void *ctx)
{
	bool fresh;

	tui_job_lock(job);
	fresh = job->gen != *seen;
	if (fresh) {
		take(ctx);
		*seen = job->gen;
	}
	tui_job_unlock(job);
	return fresh;
}

void tui_job_release(struct tui_job *job)
{
	if (job->mu_ready)
		pthread_mutex_destroy(&job->mu);
	job->mu_ready = false;
}

int tui_job_start(struct tui_job *job, struct tui_app *app, void (*fn)(struct tui_job *job),
		  void *arg, bool samples)
{
	job->app = app;
	job->fn = fn;
	job->arg = arg;
	job->samples = samples;
	job->pid = 0;
	job->rc = 0;
	job->why[0] = '\0';
	lock_ready(job);
	atomic_store(&job->done, false);
	atomic_store(&job->stop, false);
	int rc = samples ? worker_start(&job->thread, job_main, job)
			 : spawn(&job->thread, job_main, job);
	job->live = rc == 0;
	return rc;
}

/* Reaps a forked job's child; its pipe is closed. */
static void child_join(struct tui_job *job)
{
	int st = 0;

	while (waitpid(job->pid, &st, 0) < 0 && errno == EINTR)
		;
	job->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	job->pid = 0;
	close(job->fd);
	job->fd = -1;
	job->live = false;
}

/* Waits for the thread; the UI gets its CPUs back when it sampled. */
static void job_join(struct tui_job *job)
{
	if (job->pid > 0) {
		child_join(job);
		return;
	}
	if (job->samples) {
		worker_join(job->thread, &job->live);
		return;
	}
	pthread_join(job->thread, NULL);
	job->live = false;
}

bool tui_job_finished(struct tui_job *job)
{
	if (!job->live || !atomic_load(&job->done))
		return false;
	job_join(job);
	return true;
}

void tui_job_wait(struct tui_job *job)
{
	if (job->live)
		job_join(job);
}

void tui_job_cancel(struct tui_job *job)
{
	atomic_store(&job->stop, true);
	if (job->live && job->pid > 0)
		kill(job->pid, SIGKILL); /* a child has no stop flag to read */
	tui_job_wait(job);
}

/* A job in a child process, for work whose failure must not take the UI
 * with it (base/xalloc ends the process when memory runs out) and that
 * must stop at once when cancelled (SIGKILL, not a flag checked between
 * steps); the child also works on a copy of the app, so the owner may
 * free or replace what it reads. Results come through a pipe, which the
 * owner's poll drains (non-blocking) when fn wakes it (tui_wake). */
int tui_job_fork(struct tui_job *job, struct tui_app *app, void (*fn)(struct tui_job *job), void *arg)
{
	int fds[2];

	job->app = app;
	job->fn = fn;
	job->arg = arg;
	job->samples = false;
	job->status = 0;
	atomic_store(&job->done, false);
	atomic_store(&job->stop, false);
	if (pipe(fds) < 0)
		return -1;
	job->pid = fork();
	if (job->pid == 0) {
		close(fds[0]);
		tl_fail_hooks_clear(); /* the terminal is the parent's */
		tui_term_forget();
		job->fd = fds[1];
		fn(job);
		_exit(0);
	}
	close(fds[1]);
	if (job->pid < 0) {
		int e = errno;
		close(fds[0]);
		job->pid = 0;
		errno = e;
		return -1;
	}
	job->fd = fds[0];
	fcntl(job->fd, F_SETFL, fcntl(job->fd, F_GETFL) | O_NONBLOCK);
	fcntl(job->fd, F_SETFD, FD_CLOEXEC);
	job->live = true;
	return 0;
}

void tui_job_progress_set(struct tui_job *job, size_t done, size_t total)
{
	/* total first, and tui_job_progress reads done first: a pair read
	 * between the stores has the old done against the new total, so while
	 * totals never shrink, done is never seen beyond total */
	atomic_store(&job->prog_total, total);
	atomic_store(&job->prog_done, done);
}

void tui_job_progress(const struct tui_job *job, size_t *done, size_t *total)
{
	*done = atomic_load(&job->prog_done);
	*total = atomic_load(&job->prog_total);
}

/* Moves the UI thread off the sampling CPU (workers are created before
 * this, with the whole mask, so they can pin themselves). */
void tui_affinity_ui(struct tui_app *app, int sampling_cpu)
{
	char why[256];
	int ui_cpu = other_cpu(sampling_cpu);

	if (ui_cpu < 0 || tl_cpu_pin(ui_cpu, why, sizeof why) < 0)
		tui_message(app, true, "warning: the UI shares CPU %d with sampling (one CPU allowed)",
			    sampling_cpu);
	else
		tui_message(app, false, "sampling on CPU %d, drawing on CPU %d", sampling_cpu,
			    ui_cpu);
}
