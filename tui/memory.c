/* The last setup comes back: what was selected when the TUI last ran a
 * selection or ended is restored at start, unless the command line says
 * otherwise (-n, --theme win). A file this version cannot read is left
 * alone and named in a message; the defaults stay. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/app.h"

static const char *const list_name[3] = {"backend", "flush size", "kernel"};

void tui_memory_load(struct tui_app *app)
{
	char why[1024];
	app->mem.n_default = app->opts.n;
	app->mem.theme_default = app->opts.theme;
	if (tl_setup_memory_path(app->mem.path, sizeof app->mem.path, why, sizeof why) < 0) {
		app->mem.path[0] = '\0';
		return;
	}
	int rc = tl_setup_memory_load(app->mem.path, &app->mem.saved, why, sizeof why);
	if (rc < 0)
		tui_message(app, true, "the remembered setup is ignored (defaults used): %s", why);
	app->mem.loaded = rc == 0;
	if (!app->mem.loaded)
		return;
	if (!app->opts.n_given)
		app->opts.n = app->mem.saved.n;
	if (!app->opts.theme)
		app->opts.theme = app->mem.saved.theme;
}

/* One list back as it was; the labels this node cannot have are named. */
static void apply_list(struct tui_app *app, int which, const char (*labels)[TL_MEMORY_TEXT],
		       size_t n, char *missed, size_t len)
{
	tui_setup_unselect_all(app, which);
	for (size_t i = 0; i < n; i++) {
		if (tui_setup_pick(app, which, labels[i]))
			continue;
		size_t used = strlen(missed);
		snprintf(missed + used, len - used, "%s%s %s", used ? ", " : "", list_name[which],
			 labels[i]);
	}
}

void tui_memory_apply(struct tui_app *app)
{
	char missed[600] = "";
	if (!app->mem.loaded)
		return;
	const struct tl_setup_memory *m = &app->mem.saved;
	apply_list(app, 0, m->backends, m->nbackends, missed, sizeof missed);
	apply_list(app, 1, m->flushes, m->nflushes, missed, sizeof missed);
	apply_list(app, 2, m->kernels, m->nkernels, missed, sizeof missed);
	if (app->res.replay || app->priv[TUI_FLEET])
		return; /* the lists are restored; the message is the file's */
	if (missed[0])
		tui_message(app, true, "last setup restored (R resets) but not here: %s", missed);
	else
		tui_message(app, false, "last setup restored from %s (R resets to the defaults)",
			    app->mem.path);
}

/* The values were read by run's parsers (cli/cmd_tui.c), so each can be had
 * here; a backend id with parameters (sim:sd=5) becomes a row of its own. */
void tui_memory_preselect(struct tui_app *app)
{
	const struct tui_opts *o = &app->opts;
	char *const *lists[3] = {o->backends, o->flushes, o->kernels};
	size_t n[3] = {o->nbackends, o->nflushes, o->nkernels};
	char missed[600] = "";

	for (int w = 0; w < 3; w++) {
		if (!lists[w])
			continue;
		tui_setup_unselect_all(app, w);
		for (size_t i = 0; i < n[w]; i++) {
			size_t used = strlen(missed);
			if (!tui_setup_pick(app, w, lists[w][i]))
				snprintf(missed + used, sizeof missed - used, "%s%s %s",
					 used ? ", " : "", list_name[w], lists[w][i]);
		}
	}
	if (missed[0])
		tui_message(app, true, "not selected (this screen cannot have it): %s", missed);
	else if (lists[0] || lists[1] || lists[2])
		tui_message(app, false, "selected from the command line: Enter runs it");
}

static void gather(const struct tui_list *l, char (*out)[TL_MEMORY_TEXT], size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < l->n && *n < TL_MEMORY_ITEMS; i++)
		if (l->items[i].selected)
			snprintf(out[(*n)++], TL_MEMORY_TEXT, "%s", l->items[i].label);
}

int tui_memory_save(struct tui_app *app, char *why, size_t whylen)
{
	struct tl_setup_memory *m = &app->mem.saved;
	if (!app->mem.path[0] || app->opts.replay)
		return 0; /* a replay shows a file: its setup is not the user's */
	gather(&app->lists[0], m->backends, &m->nbackends);
	gather(&app->lists[1], m->flushes, &m->nflushes);
	gather(&app->lists[2], m->kernels, &m->nkernels);
	m->n = app->opts.n;
	snprintf(m->theme, sizeof m->theme, "%s", app->theme.name);
	return tl_setup_memory_save(app->mem.path, m, why, whylen);
}

void tui_memory_reset(struct tui_app *app)
{
	char why[1024];
	if (app->mem.path[0] &&
	    tl_setup_memory_forget(app->mem.path, why, sizeof why) < 0) {
		tui_message(app, true, "cannot reset: %s", why);
		return;
	}
	app->mem.loaded = false;
	tui_setup_free(app);
	tui_setup_init(app);
	app->opts.n = app->mem.n_default;
	app->opts.theme = app->mem.theme_default;
	const char *name = app->mem.theme_default ? app->mem.theme_default : "default";
	if (tui_theme_load_named(app->opts.themes_dir, name, &app->theme, why, sizeof why) == 0)
		for (size_t i = 0; i < app->themes.n; i++)
			if (strcmp(app->themes.names[i], app->theme.name) == 0)
				app->themes.idx = i;
	tui_term_apply_theme(app);
	app->focus = 0;
	tui_message(app, false, "setup reset to the defaults (N=%zu, theme %s); the remembered "
				"one is forgotten",
		    app->opts.n, app->theme.name);
}
