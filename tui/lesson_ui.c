#include "config.h"

#include <pthread.h>
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
	if (atomic_load(&app->run.samples_done) > TUI_LESSON_MAX_SAMPLES)
		return;
	/* once, when the run ends: the table's analysis, as `ticklab run` makes it */
	struct tl_analysis *an = tl_run_analyse(&app->run, app->os, app->run_seed);
	if (!an)
		return;
	tl_lesson_run(&app->run, an, app->run_seed, times(app), buf, len);
	free(an);
}

void tui_lesson_search(struct tui_app *app, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!app->search_cells)
		return;
	pthread_mutex_lock(&app->search_mu);
	tl_lesson_search(&app->search_plan, app->search_cells, app->nrows_s, times(app), buf, len);
	pthread_mutex_unlock(&app->search_mu);
}
