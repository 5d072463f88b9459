/* The TUI's job interface (tui/worker.c): a thread job reports progress
 * the owner reads, ends by itself or when cancelled, and is finished
 * exactly once; a forked job's results come through its pipe, its exit
 * status is kept, and cancel ends it even when it never checks stop. */
#include "config.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/tap.h"
#include "tui/app.h"

static struct tui_app app;

static void nap_ms(long ms)
{
	struct timespec t = {0, ms * 1000000L};
	nanosleep(&t, NULL);
}

/* Counts to total unless told to stop first. */
static void counting(struct tui_job *job)
{
	size_t total = *(size_t *)job->arg;

	for (size_t i = 1; i <= total && !atomic_load(&job->stop); i++) {
		tui_job_progress_set(job, i, total);
		nap_ms(1);
	}
}

static void thread_jobs(void)
{
	struct tui_job job;
	size_t total = 100000, done = 0, tot = 0;

	memset(&job, 0, sizeof job);
	tui_job_progress_set(&job, 0, total);
	ok(tui_job_start(&job, &app, counting, &total, false) == 0 && job.live, "a thread job starts");
	for (int i = 0; i < 5000 && done < 3; i++) {
		tui_job_progress(&job, &done, &tot);
		nap_ms(1);
	}
	ok(done >= 3 && done < total && tot == total, "its progress is read while it runs (%zu of %zu)", done, tot);
	ok(!tui_job_finished(&job), "a running job is not finished");
	tui_job_cancel(&job);
	tui_job_progress(&job, &done, &tot);
	ok(!job.live && done < total, "cancel stops it early (%zu of %zu) and joins it", done, tot);

	total = 7;
	tui_job_progress_set(&job, 0, total);
	ok(tui_job_start(&job, &app, counting, &total, false) == 0, "a short job starts");
	bool fin = false;
	for (int i = 0; i < 10000 && !fin; i++) {
		fin = tui_job_finished(&job);
		if (!fin)
			nap_ms(1);
	}
	tui_job_progress(&job, &done, &tot);
	ok(fin && !job.live && done == 7 && tot == 7, "it is finished once it ends, its progress whole");
	ok(!tui_job_finished(&job), "and finished only once");
}

static void writes_abc(struct tui_job *job)
{
	if (write(job->fd, "abc", 3) != 3)
		_exit(1);
}

static void exits_3(struct tui_job *job)
{
	(void)job;
	_exit(3);
}

static void never_ends(struct tui_job *job)
{
	(void)job;
	for (;;)
		pause();
}

/* Reads the pipe to its end (the owner's poll, in a loop). */
static size_t drain(struct tui_job *job, char *buf, size_t len)
{
	size_t have = 0;

	for (int i = 0; i < 10000; i++) {
		ssize_t n = read(job->fd, buf + have, len - have);
		if (n == 0)
			break;
		if (n > 0)
			have += (size_t)n;
		else if (errno == EAGAIN)
			nap_ms(1);
	}
	return have;
}

static void forked_jobs(void)
{
	struct tui_job job;
	char buf[16];

	memset(&job, 0, sizeof job);
	ok(tui_job_fork(&job, &app, writes_abc, NULL) == 0 && job.live && job.pid > 0,
	   "a forked job starts");
	size_t n = drain(&job, buf, sizeof buf);
	ok(n == 3 && !memcmp(buf, "abc", 3), "its results come through the pipe");
	tui_job_wait(&job);
	ok(!job.live && job.status == 0 && job.fd == -1 && job.pid == 0,
	   "waiting reaps it: fn returned, status 0, pipe closed");

	ok(tui_job_fork(&job, &app, exits_3, NULL) == 0, "a failing forked job starts");
	drain(&job, buf, sizeof buf);
	tui_job_wait(&job);
	ok(job.status == 3, "its exit status is kept (%d)", job.status);

	ok(tui_job_fork(&job, &app, never_ends, NULL) == 0, "a forked job that never ends starts");
	tui_job_cancel(&job);
	ok(!job.live && job.status == -1, "cancel kills and reaps it (status %d)", job.status);
	tui_job_cancel(&job);
	ok(!job.live, "cancelling an ended job is harmless");
}

int main(void)
{
	app.shell.wake[0] = app.shell.wake[1] = -1;
	thread_jobs();
	forked_jobs();
	return tap_done();
}
