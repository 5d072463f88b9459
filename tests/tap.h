/* Minimal TAP producer for C tests: every check is one counted result. */
#ifndef TL_TESTS_TAP_H
#define TL_TESTS_TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_count;
static int tap_failed;

static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	tap_count++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return pass;
}

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* Absolute-or-relative closeness: |got-want| <= tol, or both NaN. */
#define is_near(got, want, tol, ...)                                                       \
	do {                                                                               \
		double g_ = (got), w_ = (want);                                            \
		int p_ = (isnan(g_) && isnan(w_)) || fabs(g_ - w_) <= (tol);               \
		if (!tap_ok(p_, __FILE__, __LINE__, __VA_ARGS__))                          \
			printf("#   got %.17g, want %.17g (tol %g)\n", g_, w_, (double)(tol)); \
	} while (0)

#define is_int(got, want, ...)                                                       \
	do {                                                                         \
		long long g_ = (long long)(got), w_ = (long long)(want);             \
		if (!tap_ok(g_ == w_, __FILE__, __LINE__, __VA_ARGS__))              \
			printf("#   got %lld, want %lld\n", g_, w_);                     \
	} while (0)

static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;
	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static inline int tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	return EXIT_SUCCESS;
}

#endif
