/* Capabilities are measured, not read off a flag: CPUID and hypervisors
 * lie (this node's CPUID hides RDTSCP, which executes).
 *
 * An instruction that may fault (rdtscp where CPUID hides it, Armv8 mrs of
 * a system register) is first executed in a throwaway child: a SIGILL or
 * SIGSEGV there costs a child, never the lab. The child also times the
 * instruction, so a hypervisor that traps and emulates it shows up as its
 * cost. The decisions built on a trial are pure functions of the facts, so
 * tests can feed them every kind of node. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/internal.h"

/* The child may crash half way through a write: only a whole record counts. */
static int insn_read_record(int fd, struct tl_insn_trial *trial)
{
	struct tl_insn_trial got;
	size_t done = 0;

	while (done < sizeof got) {
		ssize_t r = read(fd, (char *)&got + done, sizeof got - done);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += (size_t)r;
	}
	trial->ns_per_exec = got.ns_per_exec;
	trial->value = got.value;
	return 0;
}

static int insn_wait(pid_t pid, int *status)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

void tl_insn_try(void (*body)(struct tl_insn_trial *out), struct tl_insn_trial *trial)
{
	int fds[2], status = 0, got;
	pid_t pid;

	memset(trial, 0, sizeof *trial);
	trial->outcome = TL_INSN_UNTRIED;
	if (pipe(fds) < 0) {
		snprintf(trial->error, sizeof trial->error, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(trial->error, sizeof trial->error, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (pid == 0) {
		struct tl_insn_trial out;

		close(fds[0]);
		memset(&out, 0, sizeof out);
		body(&out);
		_exit(write(fds[1], &out, sizeof out) == (ssize_t)sizeof out ? 0 : 1);
	}
	close(fds[1]);
	got = insn_read_record(fds[0], trial);
	close(fds[0]);
	if (insn_wait(pid, &status) < 0) {
		snprintf(trial->error, sizeof trial->error, "waitpid: %s", strerror(errno));
		return;
	}
	if (WIFSIGNALED(status)) {
		trial->outcome = TL_INSN_FAULTS;
		trial->signal = WTERMSIG(status);
	} else if (got == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		trial->outcome = TL_INSN_RUNS;
	} else {
		snprintf(trial->error, sizeof trial->error, "the test child exited with status %d",
			 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
}

int tl_rdtscp_decide(bool cpuid_rdtscp, const struct tl_insn_trial *trial, char *how,
		     size_t howlen)
{
	if (cpuid_rdtscp) {
		tl_why(how, howlen, "CPUID 8000_0001h EDX[27] advertises RDTSCP");
		return 1;
	}
	switch (trial->outcome) {
	case TL_INSN_RUNS:
		if (trial->ns_per_exec >= TL_INSN_TRAPPED_NS)
			tl_why(how, howlen,
			       "CPUID hides RDTSCP; it executes here, but at %.0f ns a read "
			       "the hypervisor traps and emulates it (barrier-rdtsc is cheaper)",
			       trial->ns_per_exec);
		else
			tl_why(how, howlen,
			       "CPUID hides RDTSCP, but it executes here (%.0f ns a read, TSC_AUX %llu)",
			       trial->ns_per_exec, (unsigned long long)trial->value);
		return 1;
	case TL_INSN_FAULTS:
		tl_why(how, howlen,
		       "CPUID hides RDTSCP and it faults here (a test child died of %s): "
		       "use barrier-rdtsc, rdtsc or clock-gettime",
		       strsignal(trial->signal));
		return 0;
	case TL_INSN_UNTRIED:
	default:
		tl_why(how, howlen,
		       "CPUID hides RDTSCP and it could not be tried (%s): "
		       "use barrier-rdtsc, rdtsc or clock-gettime",
		       trial->error[0] ? trial->error : "no test child");
		return 0;
	}
}
