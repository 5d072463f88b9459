/* Figures of saved runs and searches for slides and papers (`ticklab plot`),
 * drawn with cairo into SVG, PNG or PDF and written atomically. Series take
 * the theme's series colours and, so a figure reads in greyscale, each its
 * own dash pattern and marker glyph.
 *
 * A run gives histograms (one panel per cell, on a shared or each on its
 * own x axis) or the CDFs of every cell overlaid, of the samples the filters
 * kept (tl_cell_analyse_kept: after filter_cost and the OS filter). A search
 * gives t_min and t_diff per backend and flush with their intervals (kind
 * search), or the points each repeat evaluated on the way: CV against K
 * (kind cv) and overlap against delta (kind overlap), with the threshold. */
#ifndef TL_IO_PLOT_H
#define TL_IO_PLOT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/runner.h"
#include "bench/search_cell.h"
#include "io/theme.h"
#include "stats/stats.h"

enum tl_plot_kind { TL_PLOT_HIST, TL_PLOT_CDF, TL_PLOT_SEARCH, TL_PLOT_CV, TL_PLOT_OVERLAP,
		     TL_PLOT_LADDER, TL_PLOT_NOISE };
enum tl_plot_format { TL_PLOT_SVG, TL_PLOT_PNG, TL_PLOT_PDF };

#define TL_PLOT_DEFAULT_W 800
#define TL_PLOT_DEFAULT_H 600
#define TL_PLOT_MIN_SIDE 200
#define TL_PLOT_MAX_SIDE 8000

struct tl_plot_opts {
	enum tl_plot_kind kind;
	bool own_axis;      /* histograms: each panel its own x range */
	int width, height;  /* pixels (PNG) or points (SVG, PDF) */
	struct tui_theme theme;
	const char *title;  /* the figure's title line */
	/* A run's x axis shows each series from its p(1-clip) to its p(clip)
	 * (clip 1: everything; 0: TL_PLOT_DEFAULT_CLIP, so a zeroed struct
	 * gets the default); the share left outside is stated on the figure. */
	double clip;
	bool log_x;         /* a run's x axis in decades (values <= 0 fall outside) */
	/* When not NULL, filled by the figure: one line saying what the axes
	 * leave out, for the command to print ("" when nothing). */
	char *note;
	size_t notelen;
	/* A run's figure gives up (-1, why "interrupted") soon after *stop is
	 * set, inside the analysis of its cells; NULL: never. */
	const atomic_bool *stop;
};

#define TL_PLOT_DEFAULT_CLIP 0.995

/* The format a file name asks for (.svg, .png, .pdf, any case): 0, or -1
 * with why naming the accepted endings. */
/* The body text size of a w x h page: 14 at the default 800x600, growing
 * with the page so a 1920x1080 slide reads from the back of a room. */
double tl_plot_font(double w, double h);

int tl_plot_format_of(const char *path, enum tl_plot_format *f, char *why, size_t whylen);

/* Is this build able to draw (configured with cairo)? */
bool tl_plot_available(void);

/* A run's figure (kind TL_PLOT_HIST or TL_PLOT_CDF) into path, the visible
 * cells analysed with method m and seed as `report` does. 0, or -1 with why
 * (nothing is left at path). */
int tl_plot_run(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		const struct tl_plot_opts *o, const char *path, char *why, size_t whylen);

/* A level the ladder figure marks: a step a chase measured (the band from
 * lo, the last size at the level's latency, to hi, the next size chased),
 * or a size CPUID/hwloc reports (lo == hi), drawn apart. */
struct tl_plot_mark {
	char name[16];
	double lo, hi;
	bool measured;
};

/* A run's memory ladder (kind TL_PLOT_LADDER): ns per load (p50 / K) of
 * its load cells against buffer size, both axes log, one line per timer
 * and flush, with marks[0..nmarks). -1 with why when the run has no load
 * cells. */
int tl_plot_ladder(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		   const struct tl_plot_mark *marks, size_t nmarks, const struct tl_plot_opts *o,
		   const char *path, char *why, size_t whylen);

/* How the run's OS filter (method m, seed) and its measured causes agree
 * (kind TL_PLOT_NOISE): per visible cell, the removed samples with and
 * without a cause and the kept ones with a cause. -1 with why when the run
 * recorded no causes. */
int tl_plot_noise(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		  const struct tl_plot_opts *o, const char *path, char *why, size_t whylen);

/* A search's figure (kind TL_PLOT_SEARCH, TL_PLOT_CV or TL_PLOT_OVERLAP) into path. */
int tl_plot_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		   const struct tl_plot_opts *o, const char *path, char *why, size_t whylen);

#endif
