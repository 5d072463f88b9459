/* Analytic t_min and t_diff of the searches on a sim timer (derivations in
 * tests/test_search.c's header), shared by the search tests, the
 * interval coverage test and bench/bench_search's coverage table so all
 * check against the same closed forms. Not used by any search: the sim's
 * answers by hand, kept here only because bench/ may not include tests/.
 * n: measurements per set, p: t_min confirmations, q: t_diff pairs,
 * c: ns per ADD; eps 0.01 and alpha 0.05 (the defaults). */
#ifndef TL_STATS_SIM_DERIVED_H
#define TL_STATS_SIM_DERIVED_H

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <math.h>

/* Y = sigma Z + q U, U ~ U[0,1): a reading before the clock's floor. Its
 * cdf is (sigma/q)[G(y/sigma) - G((y-q)/sigma)], G(x) = x Phi(x) + phi(x). */
static inline double sim_cdf_y(double y, double sigma, double q)
{
	if (q <= 0)
		return gsl_cdf_gaussian_P(y, sigma);
	double a = y / sigma, b = (y - q) / sigma;
	double ga = a * gsl_cdf_ugaussian_P(a) + gsl_ran_ugaussian_pdf(a);
	double gb = b * gsl_cdf_ugaussian_P(b) + gsl_ran_ugaussian_pdf(b);

	return sigma / q * (ga - gb);
}

static inline double sim_quantile_y(double pr, double sigma, double q)
{
	double lo = -20 * sigma, hi = 20 * sigma + q;

	for (int i = 0; i < 200; i++) {
		double mid = 0.5 * (lo + hi);

		if (sim_cdf_y(mid, sigma, q) < pr)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* With a quantum q the sim reads q floor(Y/q) (Y as above, plus the true
 * time), so A1 lies below max(A0) exactly when its Y is below
 * q floor(max Y0 / q), which is max Y0 minus q/2 on average. Hence
 * delta = (F_Y^-1(0.5^(1/(qN))) - q/2 - F_Y^-1(alpha)) / c. */
static inline double sim_tdiff_derived(double sigma, double quantum, double n, double pairs,
				       double c)
{
	double top = sim_quantile_y(pow(0.5, 1.0 / (pairs * n)), sigma, quantum);

	return (top - quantum / 2 - sim_quantile_y(0.05, sigma, quantum)) / c;
}

static inline double sim_tmin_derived(double sd, double n, double p, double c)
{
	double z = gsl_cdf_ugaussian_Pinv(pow(0.5, 1.0 / (p + 1.0)));

	return sd / (0.01 * c) * (1.0 + z / sqrt(2.0 * n));
}

#endif
