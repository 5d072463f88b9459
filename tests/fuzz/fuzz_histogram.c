/* libFuzzer: stats_histogram over arbitrary doubles (NaN, infinities,
 * +-1e308 included); the first 16 bytes choose resolution and bin count. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	double res, *x;
	uint64_t bins;
	size_t n;
	struct tl_histogram h;

	if (size < 16)
		return 0;
	stats_init();
	memcpy(&res, data, 8);
	memcpy(&bins, data + 8, 8);
	n = (size - 16) / sizeof(double);
	x = malloc((n ? n : 1) * sizeof *x);
	if (!x)
		return 0;
	memcpy(x, data + 16, n * sizeof *x);
	if (stats_histogram(x, n, res, (size_t)(bins % 4096), 0, 0, &h) == 0)
		stats_histogram_free(&h);
	if (n && stats_histogram(x, n, res, (size_t)(bins % 4096), x[0], x[n - 1], &h) == 0)
		stats_histogram_free(&h);
	free(x);
	return 0;
}
