/* The lesson sentence (judge/lesson.h) for the TUI's finished run or search,
 * the same words the CLI and the Markdown print. */
#ifndef TL_TUI_LESSON_UI_H
#define TL_TUI_LESSON_UI_H

#include <stddef.h>

struct tui_app;
struct tl_search_plan;
struct tl_search_cell;

/* Runs over this many samples are not re-analysed at their end just for
 * the sentence: the screen would stop for seconds. */
#define TUI_LESSON_MAX_SAMPLES ((size_t)2000000)

/* "" when there is nothing to say (or the run is too big to analyse now). */
void tui_lesson_run(const struct tui_app *app, char *buf, size_t len);
/* The search's sentence, from the plan and cells its worker wrote (once
 * the worker has ended: nothing else writes them then). */
void tui_lesson_search(const struct tui_app *app, const struct tl_search_plan *p,
		       const struct tl_search_cell *cells, size_t n, char *buf, size_t len);

#endif
