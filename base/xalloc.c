#include "config.h"

#include "base/xalloc.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HOOKS 8

static struct {
	tl_fail_hook fn;
	void *arg;
} hooks[MAX_HOOKS];
static size_t nhooks;
static pthread_mutex_t hooks_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t failing = PTHREAD_MUTEX_INITIALIZER;

int tl_fail_hook_add(tl_fail_hook fn, void *arg)
{
	int rc = -1;

	pthread_mutex_lock(&hooks_lock);
	if (nhooks < MAX_HOOKS) {
		hooks[nhooks].fn = fn;
		hooks[nhooks].arg = arg;
		nhooks++;
		rc = 0;
	}
	pthread_mutex_unlock(&hooks_lock);
	return rc;
}

void tl_fail_hook_remove(tl_fail_hook fn, void *arg)
{
	pthread_mutex_lock(&hooks_lock);
	for (size_t i = 0; i < nhooks; i++) {
		if (hooks[i].fn == fn && hooks[i].arg == arg) {
			memmove(&hooks[i], &hooks[i + 1], (nhooks - i - 1) * sizeof hooks[0]);
			nhooks--;
			break;
		}
	}
	pthread_mutex_unlock(&hooks_lock);
}

void tl_fail_hooks_clear(void)
{
	pthread_mutex_lock(&hooks_lock);
	nhooks = 0;
	pthread_mutex_unlock(&hooks_lock);
}

void tl_fail(const char *fmt, ...)
{
	va_list ap;
	char msg[512];

	/* A second thread failing meanwhile must not interleave its message or
	 * run the hooks twice; it blocks here until the first one exits. */
	pthread_mutex_lock(&failing);
	for (size_t i = nhooks; i-- > 0;)
		hooks[i].fn(hooks[i].arg);
	/* One write, so the line is not interleaved with another thread's. */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "ticklab: %s\n", msg);
	fflush(stderr);
	/* _Exit, not exit: atexit handlers would run over half-built state. */
	_Exit(1);
}

static void out_of_memory(size_t n, size_t size)
{
	if (n == 1)
		tl_fail("out of memory (%zu bytes)", size);
	tl_fail("out of memory (%zu x %zu bytes)", n, size);
}

void *tl_xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (!p)
		out_of_memory(1, size);
	return p;
}

void *tl_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n, size);
	return p;
}

void *tl_xrealloc(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		out_of_memory(n, size);
	size_t bytes = n * size;
	void *q = realloc(p, bytes ? bytes : 1);
	if (!q)
		out_of_memory(n, size);
	return q;
}

char *tl_xstrdup(const char *s)
{
	size_t len = strlen(s) + 1;
	char *d = tl_xmalloc(len);
	memcpy(d, s, len);
	return d;
}
