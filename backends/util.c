/* Small helpers every backend file uses; no library beyond libc, so the
 * Armv8 probe in .ci/cross-aarch64.sh can link the barrier family alone. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/internal.h"

int tl_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int tl_backend_no_params(const struct tl_backend *b, const char *params, char *why, size_t whylen)
{
	if (!params || !*params)
		return 0;
	return tl_why(why, whylen, "%s takes no parameters (got '%s:%s'); only sim has parameters",
		      b->id, b->id, params);
}

const char *tl_backend_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv)
	return "riscv";
#elif defined(__powerpc64__)
	return "ppc64";
#else
	return "an unknown architecture";
#endif
}

double tl_monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
