/* What this node can execute, found independently of the lab's own probes
 * so tests can take their expectations from the node they run on: each
 * instruction that may fault runs in a forked child. */
#ifndef TL_TESTS_NODE_CAPS_H
#define TL_TESTS_NODE_CAPS_H

#include <stdbool.h>
#include <sys/wait.h>
#include <unistd.h>

static inline bool node_child_survives(void (*body)(void))
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0) {
		body();
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

#if defined(__x86_64__)
static inline void node_rdtscp_body(void)
{
	unsigned lo, hi, aux;
	__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
	(void)lo;
	(void)hi;
	(void)aux;
}

static inline void node_rdtsc_body(void)
{
	unsigned lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	(void)lo;
	(void)hi;
}
#endif

/* RDTSCP executes here (whatever CPUID says). */
static inline bool node_rdtscp_runs(void)
{
#if defined(__x86_64__)
	return node_child_survives(node_rdtscp_body);
#else
	return false;
#endif
}

/* RDTSC executes here. */
static inline bool node_rdtsc_runs(void)
{
#if defined(__x86_64__)
	return node_child_survives(node_rdtsc_body);
#else
	return false;
#endif
}

#endif
