#include "config.h"

#include "tui/noise_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/analysis.h"
#include "stats/stats.h"
#include "tui/app.h"
#include "tui/canvas.h"
#include "tui/layout.h"

struct caused {
	double v;
	uint8_t slot;
};

static int cmp_caused(const void *a, const void *b)
{
	double x = ((const struct caused *)a)->v, y = ((const struct caused *)b)->v;

	return (x > y) - (x < y);
}

/* The TUI_NOISE_TOP commonest causes get slots 0.., every other slot
 * TUI_NOISE_TOP ("other"); slot_of maps a cause index of cn to its slot. */
static void pick_slots(struct tui_noise_view *nv, const struct tl_cell_noise *cn,
		       const size_t *per, uint8_t *slot_of)
{
	bool taken[TL_NOISE_NAMES] = {false};
	size_t other = 0;

	nv->ncause = 0;
	for (size_t k = 0; k < TUI_NOISE_TOP; k++) {
		size_t best = SIZE_MAX;

		for (size_t i = 0; i < cn->nnames; i++)
			if (!taken[i] && per[i] && (best == SIZE_MAX || per[i] > per[best]))
				best = i;
		if (best == SIZE_MAX)
			break;
		taken[best] = true;
		slot_of[best] = (uint8_t)k;
		snprintf(nv->name[k], sizeof nv->name[k], "%s", cn->names[best]);
		nv->count[k] = per[best];
		nv->ncause++;
	}
	for (size_t i = 0; i < cn->nnames; i++)
		if (!taken[i]) {
			slot_of[i] = TUI_NOISE_TOP;
			other += per[i];
		}
	if (other) {
		snprintf(nv->name[nv->ncause], sizeof nv->name[0], "other");
		nv->count[nv->ncause] = other;
		for (size_t i = 0; i < cn->nnames; i++)
			if (!taken[i])
				slot_of[i] = (uint8_t)nv->ncause;
		nv->ncause++;
	}
}

void tui_noise_view_update(struct tui_noise_view *nv, const struct tl_run *run, size_t cell)
{
	const struct tl_cell *c = &run->cells[cell];
	const struct tl_cell_noise *cn = &c->noise;
	const struct tl_timer *t = &run->timers[c->timer];
	size_t done = tl_cell_done(run, cell), per[TL_NOISE_NAMES] = {0};
	uint8_t slot_of[TL_NOISE_NAMES];
	double overhead = isnan(c->overhead_ns) ? 0.0 : c->overhead_ns;
	struct caused *tmp;

	nv->ready = false;
	nv->total = nv->n = nv->ncause = 0;
	if (!run->noise_measured || (t->backend && t->backend->simulated))
		return;
	for (size_t i = 0; i < cn->nflag; i++)
		if (cn->flag[i].index < done && cn->flag[i].cause < cn->nnames) {
			per[cn->flag[i].cause]++;
			nv->total++;
		}
	pick_slots(nv, cn, per, slot_of);
	nv->ready = true;
	if (nv->total > nv->cap) {
		nv->cap = nv->total;
		nv->value = tl_xrealloc(nv->value, nv->cap, sizeof *nv->value);
		nv->slot = tl_xrealloc(nv->slot, nv->cap, sizeof *nv->slot);
	}
	tmp = tl_xmalloc((nv->total ? nv->total : 1) * sizeof *tmp);
	for (size_t i = 0; i < cn->nflag; i++)
		if (cn->flag[i].index < done && cn->flag[i].cause < cn->nnames)
			tmp[nv->n++] = (struct caused){c->ns[cn->flag[i].index] - overhead,
						       slot_of[cn->flag[i].cause]};
	qsort(tmp, nv->n, sizeof *tmp, cmp_caused);
	for (size_t i = 0; i < nv->n; i++) {
		nv->value[i] = tmp[i].v;
		nv->slot[i] = tmp[i].slot;
	}
	free(tmp);
}

void tui_noise_view_free(struct tui_noise_view *nv)
{
	free(nv->value);
	free(nv->slot);
	memset(nv, 0, sizeof *nv);
}

size_t tui_noise_view_in(const struct tui_noise_view *nv, double lo, double hi, int *slot)
{
	size_t a, b, by[TUI_NOISE_TOP + 1] = {0}, best = 0;

	*slot = -1;
	if (!nv->ready || !nv->n)
		return 0;
	a = stats_first_at_least(nv->value, nv->n, lo);
	b = stats_first_at_least(nv->value, nv->n, hi);
	for (size_t i = a; i < b; i++)
		by[nv->slot[i]]++;
	for (size_t k = 1; k <= TUI_NOISE_TOP; k++)
		if (by[k] > by[best])
			best = k;
	if (b > a)
		*slot = (int)best;
	return b - a;
}

size_t tui_noise_view_past(const struct tui_noise_view *nv, const struct tl_histogram *h)
{
	if (!nv->ready || !nv->n || !h || !h->nbins)
		return 0;
	return nv->n - stats_first_at_least(nv->value, nv->n, h->lo + h->width * (double)h->nbins);
}

void tui_noise_view_line(const struct tui_noise_view *nv, char *buf, size_t len)
{
	size_t used;

	buf[0] = '\0';
	if (!nv->ready)
		return;
	if (!nv->total) {
		snprintf(buf, len, "causes: none measured");
		return;
	}
	used = (size_t)snprintf(buf, len, "causes:");
	for (size_t k = 0; k < nv->ncause && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s %s %zu", k ? "," : "",
					 nv->name[k], nv->count[k]);
}

/* ---- drawing ---------------------------------------------------------- */

static int slot_attr(const struct tui_app *app, int slot)
{
	static const enum tui_role role[TUI_NOISE_TOP + 1] = {TUI_ROLE_ERROR, TUI_ROLE_WARN,
							      TUI_ROLE_HI, TUI_ROLE_INACTIVE};

	return tui_attr(app, role[slot < 0 || slot > TUI_NOISE_TOP ? TUI_NOISE_TOP : slot]);
}

/* The caused samples past the histogram's right edge (a cell's caused
 * samples mostly are: an interrupt costs microseconds) as one stacked
 * column at the right, each cause's share of its rows, the commonest at
 * the bottom. */
static void draw_tail(const struct tui_app *app, const struct tui_rect *r, int rows,
		      const struct tl_histogram *h, const struct tui_noise_view *nv)
{
	size_t past = tui_noise_view_past(nv, h), a = nv->n - past;
	size_t by[TUI_NOISE_TOP + 1] = {0};
	int row = 0;

	if (!past || r->w < 2)
		return;
	for (size_t i = a; i < nv->n; i++)
		by[nv->slot[i]]++;
	for (size_t k = 0; k < nv->ncause && row < rows; k++) {
		long cells = lround((double)by[k] / (double)past * rows);

		if (by[k] && cells == 0)
			cells = 1;
		for (long j = 0; j < cells && row < rows; j++, row++)
			tui_put(r->y + rows - row, r->x + r->w - 1, 1, slot_attr(app, (int)k),
				tui_bar_glyph(app->tier, 8, 0));
	}
}

void tui_noise_view_draw_marks(const struct tui_app *app, const struct tui_rect *r, int rows,
			       double peak, const struct tl_histogram *h,
			       const struct tui_noise_view *nv)
{
	if (!nv->ready || !nv->n || !h || !h->nbins || !(peak > 0) || rows <= 0)
		return;
	draw_tail(app, r, rows, h, nv);
	for (int col = 0; col < r->w; col++) {
		size_t b = (size_t)col * h->nbins / (size_t)r->w;
		double lo = h->lo + h->width * (double)b;
		int slot;
		size_t n = tui_noise_view_in(nv, lo, lo + h->width, &slot);
		long bar = (long)(h->counts[b] / peak * rows * 8 + 0.5), e;

		if (!n)
			continue;
		if (h->counts[b] > 0 && bar == 0)
			bar = 1;
		e = (long)((double)n / peak * rows * 8 + 0.5);
		e = e < 1 ? 1 : e > bar ? bar : e;
		if (bar == 0)
			bar = e = 1; /* removed by the filters: still said */
		for (int row = 0; row < rows; row++) {
			const char *g = tui_bar_glyph(app->tier, bar, row);

			if (strcmp(g, " ") && (long)row * 8 + 8 > bar - e)
				tui_put(r->y + rows - row, r->x + col, 1, slot_attr(app, slot), g);
		}
	}
}

int tui_noise_view_draw_line(const struct tui_app *app, int y, int x, int w,
			     const struct tui_noise_view *nv)
{
	int c;

	if (!nv->ready || w <= 0)
		return 0;
	if (!nv->total) {
		tui_put(y, x, w, tui_attr(app, TUI_ROLE_INACTIVE), "causes: none measured");
		return 1;
	}
	c = tui_put(y, x, w, tui_attr(app, TUI_ROLE_INACTIVE), "causes:");
	for (size_t k = 0; k < nv->ncause && c < w; k++)
		c += tui_putf(y, x + c, w - c, slot_attr(app, (int)k), "%s %s %zu", k ? "," : "",
			      nv->name[k], nv->count[k]);
	return 1;
}
