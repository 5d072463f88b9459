/* libFuzzer: sim's key=value parameters, and a few draws from what parses. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "backends/sim.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[512];
	struct tl_sim_model m;

	if (!text)
		return 0;
	stats_init();
	memcpy(text, data, size);
	text[size] = '\0';
	if (tl_sim_parse(text, &m, why, sizeof why) == 0) {
		gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

		if (r) {
			gsl_rng_set(r, m.seed);
			for (int i = 0; i < 4; i++)
				(void)tl_sim_draw(&m, r, (uint64_t)i * 1000000000u);
			gsl_rng_free(r);
		}
	}
	free(text);
	return 0;
}
