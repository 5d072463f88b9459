/* The allocation-failure policy: tl_fail runs the hooks newest first, says
 * what failed and exits 1; an overflowing size is refused, never wrapped. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "tests/tap.h"

static int hook_fd;

static void hook_a(void *arg)
{
	(void)arg;
	if (write(hook_fd, "a", 1) < 0)
		_exit(3);
}

static void hook_b(void *arg)
{
	(void)arg;
	if (write(hook_fd, "b", 1) < 0)
		_exit(3);
}

static void read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	while (got < len - 1 && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	buf[got] = '\0';
}

/* Runs body in a child with stderr and the hook pipe captured. */
static int in_child(void (*body)(void), char *err, size_t errlen, char *hooks, size_t hookslen)
{
	int epipe[2], hpipe[2], status = -1;
	if (pipe(epipe) < 0 || pipe(hpipe) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(epipe[1], 2);
		hook_fd = hpipe[1];
		body();
		_exit(0);
	}
	close(epipe[1]);
	close(hpipe[1]);
	read_all(epipe[0], err, errlen);
	read_all(hpipe[0], hooks, hookslen);
	close(epipe[0]);
	close(hpipe[0]);
	waitpid(pid, &status, 0);
	return status;
}

static void overflow_body(void)
{
	tl_fail_hook_add(hook_a, NULL);
	tl_fail_hook_add(hook_b, NULL);
	(void)tl_xrealloc(NULL, SIZE_MAX / 2, 4);
}

static void removed_hook_body(void)
{
	tl_fail_hook_add(hook_a, NULL);
	tl_fail_hook_add(hook_b, NULL);
	tl_fail_hook_remove(hook_b, NULL);
	tl_fail("cannot go on: %d", 42);
}

int main(void)
{
	char err[512], hooks[16];

	int st = in_child(overflow_body, err, sizeof err, hooks, sizeof hooks);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "an overflowing tl_xrealloc exits 1 (status %#x)", st);
	ok(strstr(err, "ticklab: out of memory (") != NULL, "and says out of memory: %s", err);
	ok(strcmp(hooks, "ba") == 0, "hooks ran newest first before the message (%s)", hooks);

	st = in_child(removed_hook_body, err, sizeof err, hooks, sizeof hooks);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "tl_fail exits 1");
	ok(strcmp(err, "ticklab: cannot go on: 42\n") == 0, "tl_fail's message is whole: %s", err);
	ok(strcmp(hooks, "a") == 0, "a removed hook does not run (%s)", hooks);

	char *s = tl_xstrdup("timer");
	ok(strcmp(s, "timer") == 0, "tl_xstrdup copies");
	free(s);
	int *z = tl_xcalloc(0, sizeof *z);
	ok(z != NULL, "a zero-sized tl_xcalloc is still a pointer to free");
	free(z);
	return tap_done();
}
