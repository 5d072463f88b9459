#include "config.h"

#include "cli/stop.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/runner.h"

/* QUIT too: its default (a core dump) would lose what was measured. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NSIGNALS (sizeof stop_signals / sizeof stop_signals[0])

static struct sigaction saved[NSIGNALS];
static bool armed;
static volatile sig_atomic_t caught;
static volatile sig_atomic_t count;
static volatile sig_atomic_t exiting;
static const char *volatile exit_msg;
/* atomic_bool is lock-free on every target we build for, so storing through
 * it is async-signal-safe. */
static _Atomic(atomic_bool *) target;

static void say_and_exit(int sig)
{
	const char *m = exit_msg;

	if (m)
		(void)!write(STDERR_FILENO, m, strlen(m));
	_exit(128 + sig);
}

static void on_signal(int sig)
{
	atomic_bool *flag = atomic_load(&target);

	if (!caught)
		caught = sig;
	count++;
	if (exiting)
		say_and_exit(caught);
	if (flag)
		atomic_store(flag, true);
}

void cli_stop_arm(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaddset(&sa.sa_mask, stop_signals[i]);
	caught = 0;
	count = 0;
	exiting = 0;
	atomic_store(&target, NULL);
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaction(stop_signals[i], &sa, armed ? NULL : &saved[i]);
	armed = true;
}

void cli_stop_disarm(void)
{
	if (!armed)
		return;
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaction(stop_signals[i], &saved[i], NULL);
	armed = false;
	atomic_store(&target, NULL);
}

void cli_stop_target(atomic_bool *flag)
{
	atomic_store(&target, flag);
	if (flag && caught)
		atomic_store(flag, true);
}

void cli_stop_target_later(atomic_bool *flag)
{
	atomic_store(&target, flag);
}

void cli_stop_watch(atomic_bool *flag)
{
	atomic_store(flag, false);
	cli_stop_arm();
	cli_stop_target(flag);
}

void cli_stop_exiting(const char *msg, int since)
{
	exit_msg = msg;
	exiting = 1;
	if (count != since)
		say_and_exit(caught);
}

void cli_stop_stopping(void)
{
	exiting = 0;
}

int cli_stop_count(void)
{
	return count;
}

int cli_stop_status(int rc)
{
	return caught ? 128 + caught : rc;
}

struct progress {
	bool show;
	double last; /* tl_monotonic_s() of the last line */
};

static void on_chunk(void *ctx, struct tl_run *run, size_t cell)
{
	struct progress *p = ctx;
	size_t done = atomic_load(&run->samples_done);
	double now;

	(void)cell;
	/* Redraw a few times a second at most: stderr is slow over SSH. */
	if (!p->show || (now = tl_monotonic_s()) - p->last < 0.2)
		return;
	p->last = now;
	fprintf(stderr, "\rsampling: %3.0f%% (%zu of %zu samples)",
		run->samples_total ? 100.0 * (double)done / (double)run->samples_total : 100.0, done,
		run->samples_total);
}

int cli_run_execute(struct tl_run *run, bool progress, char *why, size_t whylen)
{
	struct progress p = {.show = progress, .last = tl_monotonic_s()};
	int rc;

	/* The handlers stay armed after sampling: the caller still has files
	 * to write. */
	cli_stop_target(&run->stop);
	rc = tl_run_execute(run, on_chunk, &p, why, whylen);
	cli_stop_target(NULL);
	if (progress)
		fprintf(stderr, "\r%*s\r", 60, "");
	return rc;
}
