#include "config.h"

#include "bench/estimate.h"

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/size.h"

#define PASS_MAX (64ULL << 20)
#define PER_SAMPLE_NS 1000.0 /* timer reads, the loop, the bookkeeping: an upper bound */

/* One pass over (a prefix of) f, the faster of two, scaled to its size. */
static double pass_ns(const struct tl_flush *f)
{
	struct tl_flush part = *f;
	double best = INFINITY;

	if (!f->buf || !f->bytes)
		return 0;
	if (part.bytes > PASS_MAX)
		part.bytes = PASS_MAX;
	for (int i = 0; i < 2; i++) {
		double t0 = tl_monotonic_s();

		tl_flush_touch(&part);
		t0 = tl_monotonic_s() - t0;
		if (t0 < best)
			best = t0;
	}
	return best * 1e9 * ((double)f->bytes / (double)part.bytes);
}

/* A stopped run (or a cancel while it is estimated) needs no estimate:
 * 64 flushes of 64 MiB timed twice are seconds nobody waits for. */
static bool estimate_stopped(const struct tl_run *run)
{
	return atomic_load(&run->stop) ||
	       (run->cfg.cancel && atomic_load(run->cfg.cancel));
}

void tl_run_estimate(const struct tl_run *run, struct tl_run_estimate *e)
{
	double flush_ns[64] = { 0 };
	size_t worst = 0;

	*e = (struct tl_run_estimate){ 0 };
	for (size_t i = 0; i < run->nflush && i < 64; i++) {
		if (estimate_stopped(run))
			break;
		flush_ns[i] = pass_ns(&run->flushes[i]);
		if (run->flush_bytes[i] > run->flush_bytes[worst])
			worst = i;
	}
	for (size_t c = 0; c < run->ncells; c++) {
		const struct tl_cell *cell = &run->cells[c];
		double f = cell->flush < 64 ? flush_ns[cell->flush] : 0;

		e->samples += cell->n;
		e->flush_seconds += (double)cell->n * f / 1e9;
		e->seconds += (double)cell->n * (f + PER_SAMPLE_NS) / 1e9;
	}
	if (run->nflush) {
		e->worst_flush_ns = flush_ns[worst];
		e->write_gb_per_s = flush_ns[worst] > 0
					    ? (double)run->flush_bytes[worst] / flush_ns[worst]
					    : 0;
	}
}

void tl_duration_words(double s, char *buf, size_t len)
{
	if (s < 90)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 90 * 60)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.1f h", s / 3600);
}

void tl_run_estimate_words(const struct tl_run *run, const struct tl_run_estimate *e, char *buf,
			   size_t len)
{
	char total[32], pass[32], size[32];
	uint64_t worst = 0;

	for (size_t i = 0; i < run->nflush; i++)
		if (run->flush_bytes[i] > worst)
			worst = run->flush_bytes[i];
	tl_duration_words(e->seconds, total, sizeof total);
	if (!worst || e->worst_flush_ns <= 0) {
		snprintf(buf, len, "about %s or less: %zu samples, no flush", total, e->samples);
		return;
	}
	tl_size_format(worst, size, sizeof size);
	if (e->worst_flush_ns >= 1e6)
		snprintf(pass, sizeof pass, "%.3g ms", e->worst_flush_ns / 1e6);
	else
		snprintf(pass, sizeof pass, "%.3g us", e->worst_flush_ns / 1e3);
	snprintf(buf, len,
		 "about %s: %zu samples, the largest flush (%s, before each of its samples) "
		 "takes %s at %.3g GB/s measured now",
		 total, e->samples, size, pass, e->write_gb_per_s);
}
