/* An in-place sort of doubles for the analysis' hot paths: a quicksort
 * with three-way partitions, so a lattice timer's samples (a million
 * values on a few hundred steps) cost n log(steps), not n log n, and with
 * the comparisons inlined. gsl_sort (a heapsort through a comparison
 * function) took a fifth of reading a raw fingerprint. The result is the
 * same ascending order; only equal values (0 and -0) may sit otherwise. */
#include "config.h"

#include <math.h>
#include <stdbool.h>

#include <gsl/gsl_sort.h>

#include "stats/stats.h"

#define SMALL 16

static void insertion(double *a, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		double v = a[i];
		size_t j = i;

		for (; j > 0 && a[j - 1] > v; j--)
			a[j] = a[j - 1];
		a[j] = v;
	}
}

static double median3(double a, double b, double c)
{
	if (a < b)
		return b < c ? b : a < c ? c : a;
	return a < c ? a : b < c ? c : b;
}

static void swap(double *a, size_t i, size_t j)
{
	double t = a[i];

	a[i] = a[j];
	a[j] = t;
}

/* budget: partitions left before a heapsort takes over (no quadratic case) */
static void quick3(double *a, size_t n, int budget)
{
	while (n > SMALL) {
		double p;
		size_t lt = 0, i = 0, gt = n;

		if (budget-- <= 0) {
			gsl_sort(a, 1, n);
			return;
		}
		p = median3(a[0], a[n / 2], a[n - 1]);
		while (i < gt) {
			if (a[i] < p)
				swap(a, lt++, i++);
			else if (a[i] > p)
				swap(a, i, --gt);
			else
				i++;
		}
		/* the smaller side by recursion, the larger by the loop */
		if (lt < n - gt) {
			quick3(a, lt, budget);
			a += gt;
			n -= gt;
		} else {
			quick3(a + gt, n - gt, budget);
			n = lt;
		}
	}
	insertion(a, n);
}

void stats_sort(double *x, size_t n)
{
	int budget = 0;

	for (size_t i = 0; i < n; i++)
		if (isnan(x[i])) {
			/* NaN orders nothing: gsl_sort's placing of it is kept */
			gsl_sort(x, 1, n);
			return;
		}
	for (size_t m = n; m > 1; m >>= 1)
		budget += 2;
	quick3(x, n, budget);
}
