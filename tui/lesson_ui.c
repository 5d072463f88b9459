#include "config.h"

#include <stdlib.h>

#include "bench/analysis.h"
#include "judge/lesson.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"

static const char *times(const struct tui_app *app)
{
	return app->tier == TUI_TIER_UTF8 ? "\u00d7" : "x";
}

void tui_lesson_run(const struct tui_app *app, char *buf, size_t len)
{
	buf[0] = '\0';
	if (atomic_load(&app->res.run.samples_done) > TUI_LESSON_MAX_SAMPLES)
		return;
	/* once, when the run ends: the table's analysis, as `ticklab run` makes
	 * it; a signal cuts it short (on this thread it holds up the exit) */
	struct tl_analysis *an = tl_run_analyse_until(&app->res.run, app->res.os, app->res.seed,
						      tui_term_quit_flag());
	if (!an)
		return;
	tl_lesson_run(&app->res.run, an, app->res.seed, times(app), buf, len);
	free(an);
}

void tui_lesson_search(const struct tui_app *app, const struct tl_search_plan *p,
		       const struct tl_search_cell *cells, size_t n, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!cells)
		return;
	tl_lesson_search(p, cells, n, times(app), buf, len);
}
