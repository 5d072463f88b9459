/* The fast %.17g of io/real17.c against snprintf itself, byte for byte, on
 * the values a run file holds (times in ns with a fraction) and on the
 * edges: ties at the 17th digit, fractions that round up into the next
 * whole (9.99...), the ends of the range and the values it leaves to
 * snprintf. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "io/real17.h"
#include "tests/tap.h"

/* What put_real writes: %.17g, ".0" added when it has no '.' or 'e'. */
static void reference(char *out, double v)
{
	int len = snprintf(out, 48, "%.17g", v);

	if (!strchr(out, '.') && !strchr(out, 'e'))
		memcpy(out + len, ".0", 3);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* counts values that differ from snprintf; handled counts those it took */
static size_t check(double v, size_t *handled, char *first_bad, size_t badlen)
{
	char got[48] = "", want[48];
	int len = tl_real17_fraction(got, v);

	if (len == 0)
		return 0;
	(*handled)++;
	reference(want, v);
	if ((size_t)len == strlen(want) && strcmp(got, want) == 0)
		return 0;
	if (!*first_bad)
		snprintf(first_bad, badlen, "%a: got %s, want %s", v, got, want);
	return 1;
}

int main(void)
{
	static const double edge[] = {1.5, 2.5, 1.0000000000000002, 9.9999999999999982,
				      99.999999999999986, 999999999999999.88, 1.25, 1412.6868067515672,
				      123456789012345.67, -1412.6868067515672, -1.5, 0.5, 1e15, -0.25,
				      1e-300, 1.0, 42.0};
	size_t bad = 0, handled = 0, random_n = 2000000;
	char first_bad[200] = "";
	char buf[48];

	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		bad += check(edge[i], &handled, first_bad, sizeof first_bad);
	/* uniform in log between 1 and 1e15, either sign, all mantissa bits */
	for (size_t i = 0; i < random_n; i++) {
		double mag = pow(10.0, (double)(next() % 15000) / 1000.0);
		double v = mag * (1.0 + (double)(next() >> 11) * 0x1p-53);

		bad += check(next() & 1 ? -v : v, &handled, first_bad, sizeof first_bad);
	}
	/* ticks times a TSC period: the shape of samples_ns */
	for (size_t i = 0; i < random_n / 4; i++)
		bad += check((double)(next() % 100000000) * (1.0 / 2.096006), &handled, first_bad,
			     sizeof first_bad);
	/* exact ties at the 17th digit: a whole of d digits plus odd / 2^(18-d)
	 * has 18 - d decimals, the last a 5, one past what %.17g keeps */
	for (int d = 1; d <= 15; d++)
		for (uint64_t k = 0; k < 20000; k++) {
			double whole = floor(pow(10.0, d - 1) * (1.0 + 8.99 * (double)(next() % 1000000) / 1e6));
			double odd = (double)((next() % 1000) * 2 + 1);

			bad += check(whole + ldexp(fmod(odd, ldexp(1.0, 18 - d)), -(18 - d)), &handled,
				     first_bad, sizeof first_bad);
		}
	ok(bad == 0, "the fast %%.17g equals snprintf's on %zu values (%zu differ%s%s)", handled,
	   bad, *first_bad ? "; first: " : "", first_bad);
	ok(handled > random_n, "and it handled most of them itself (%zu)", handled);
	ok(tl_real17_fraction(buf, 1e15) == 0 && tl_real17_fraction(buf, 0.5) == 0 &&
		   tl_real17_fraction(buf, 3.0) == 0 && tl_real17_fraction(buf, NAN) == 0 &&
		   tl_real17_fraction(buf, INFINITY) == 0 && tl_real17_fraction(buf, -0.0) == 0,
	   "whole, below 1, at 1e15 and non-finite values are left to snprintf");
	return tap_done();
}
