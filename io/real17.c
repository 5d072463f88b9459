/* Doubles as text, fast, for the bulk of a run file. */
#include "config.h"

#include "io/real17.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* %.17g of a value with a fraction, 1 <= |v| < 1e15 (a time in ns, the
 * bulk of a run file), in integer arithmetic: v = I + m / 2^s exactly, and
 * the 17 - digits(I) decimals of m / 2^s are rounded half to even from the
 * exact product, as glibc rounds the exact binary value. snprintf's
 * multi-precision path took 1.7 s of the 2.3 s an interrupted 6.5 M-sample
 * run spent writing; this is the same bytes in a fraction of it
 * (tests/test_real17.c compares them on random values). */
int tl_real17_fraction(char *buf, double v)
{
#ifdef __SIZEOF_INT128__
	static const uint64_t pow10[] = {1,	  10,	    100,       1000,	   10000,     100000,
					 1000000, 10000000, 100000000, 1000000000, 10000000000ULL,
					 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
					 100000000000000ULL, 1000000000000000ULL,
					 10000000000000000ULL};
	double a = fabs(v), ip = trunc(a);
	uint64_t whole = (uint64_t)ip, frac_digits, q;
	unsigned __int128 prod, rem, half;
	int exp2, s, digits = 1, len = 0;
	double mant;
	char *p;

	if (!(a >= 1.0 && a < 1e15) || ip == a)
		return 0;
	for (uint64_t w = whole; w >= 10; w /= 10)
		digits++;
	/* a - ip is exact (both share a's exponent); as m / 2^s, m < 2^53 */
	mant = frexp(a - ip, &exp2);
	s = 53 - exp2;
	if (s > 120)
		return 0;
	frac_digits = (uint64_t)(17 - digits);
	prod = (unsigned __int128)(uint64_t)ldexp(mant, 53) * pow10[frac_digits];
	q = (uint64_t)(prod >> s);
	rem = prod & (((unsigned __int128)1 << s) - 1);
	half = (unsigned __int128)1 << (s - 1);
	if (rem > half || (rem == half && (q & 1)))
		q++;
	if (q == pow10[frac_digits]) { /* the fraction rounded up to 1 */
		whole++;
		q = 0;
	}
	p = buf;
	if (v < 0)
		*p++ = '-';
	len = sprintf(p, "%" PRIu64, whole);
	p += len;
	/* a carry into a new digit (9.99.. -> 10) leaves one digit too many
	 * only when q is 0, which prints no fraction below */
	while (frac_digits > 0 && q % 10 == 0) {
		q /= 10;
		frac_digits--;
	}
	*p++ = '.';
	if (frac_digits == 0) {
		*p++ = '0';
	} else {
		for (uint64_t i = frac_digits; i > 0; i--) {
			p[i - 1] = (char)('0' + q % 10);
			q /= 10;
		}
		p += frac_digits;
	}
	*p = '\0';
	return (int)(p - buf);
#else
	(void)buf;
	(void)v;
	return 0;
#endif
}

