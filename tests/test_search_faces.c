/* The CLI and the TUI run one search: the same sim search (same seed)
 * through `ticklab search --json` (the search command) and through the TUI's
 * search screen (tui_search_start on Setup selections, then the export the
 * e key writes) gives the same results and params, key for key. Only the
 * wall-clock keys (seconds, flush_seconds) may differ. Also: the search
 * file reads back (report and replay use tl_search_from_json) into the
 * same document. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/command.h"
#include "bench/search_params.h"
#include "io/search_json.h"
#include "tests/tap.h"
#include "tui/app.h"

#define SIM_A "sim:sd=5,quantum=0,spike_rate=0"
#define SIM_B "sim:sd=10,quantum=10,spike_rate=0.01,seed=7"

/* edited: the parameters changed, by flags here and by the TUI's o there */
static int cli_path(const char *out, bool edited)
{
	char *argv[] = {"search", "--backend", SIM_A "," SIM_B, "-n", "400", "--seed", "5",
			"--json", (char *)out, "--quiet", "--eps", "0.02", "--alpha", "0.1",
			"--repeats", "2", NULL};

	return cli_command_main(cli_command_find("search"), edited ? 16 : 10, argv);
}

static void add_item(struct tui_list *l, const char *label, uint64_t bytes)
{
	struct tui_item *it = &l->items[l->n++];

	memset(it, 0, sizeof(*it));
	snprintf(it->label, sizeof it->label, "%s", label);
	it->selected = it->available = true;
	it->bytes = bytes;
}

/* The TUI's own path: Setup selections, s, wait, e. */
static int tui_path(const char *out, bool edited)
{
	static struct tui_app app;
	static struct tui_item backends[2], flushes[1];
	char why[512];
	struct timespec nap = {0, 10000000};

	app.lists[0].items = backends;
	app.lists[1].items = flushes;
	app.lists[0].n = app.lists[1].n = 0;
	add_item(&app.lists[0], SIM_A, 0);
	add_item(&app.lists[0], SIM_B, 0);
	add_item(&app.lists[1], "0", 0);
	app.opts.n = 400;
	app.opts.seed = 5;
	app.opts.cpu = -1;
	app.shell.wake[0] = app.shell.wake[1] = -1;
	if (edited) {
		tui_search_params_done(&app, "eps=0.02 alpha=0.1 repeats=2");
		if (app.msg.error) {
			printf("# %s\n", app.msg.text);
			return -1;
		}
	}
	if (tui_search_start(&app, why, sizeof why) < 0) {
		printf("# tui_search_start: %s\n", why);
		return -1;
	}
	/* the event loop's turns: poll joins the worker once it is done */
	while (tui_search_running(&app)) {
		tui_search_poll(&app, false);
		nanosleep(&nap, NULL);
	}
	int rc = tui_search_export(&app, out, why, sizeof why);
	if (rc < 0)
		printf("# tui_search_export: %s\n", why);
	/* the screens' state goes, so the next path starts as a new lab */
	tui_screen_get(TUI_SEARCH)->free(&app);
	tui_screen_get(TUI_LIVE)->free(&app);
	return rc;
}

/* Drops the keys that measure wall time, everywhere in v. */
static void drop_clock(json_t *v)
{
	size_t i;
	json_t *x;
	const char *k;
	void *tmp;

	if (json_is_array(v))
		json_array_foreach(v, i, x) drop_clock(x);
	if (!json_is_object(v))
		return;
	json_object_del(v, "seconds");
	json_object_del(v, "flush_seconds");
	json_object_foreach_safe(v, tmp, k, x) drop_clock(x);
}

/* Names the first key where a and b differ (path in buf). */
static bool same(const json_t *a, const json_t *b, char *path, size_t len)
{
	const char *k;
	json_t *x;
	size_t at = strlen(path), i;

	if (json_is_object(a) && json_is_object(b)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach((json_t *)a, k, x) {
			snprintf(path + at, len - at, ".%s", k);
			if (!same(x, json_object_get(b, k), path, len))
				return false;
			path[at] = '\0';
		}
		return true;
	}
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		json_array_foreach((json_t *)a, i, x) {
			snprintf(path + at, len - at, "[%zu]", i);
			if (!same(x, json_array_get(b, i), path, len))
				return false;
			path[at] = '\0';
		}
		return true;
	}
	return json_equal((json_t *)a, (json_t *)b);
}

static json_t *load(const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);

	if (doc)
		drop_clock(doc);
	return doc;
}

static void check_same(const json_t *a, const json_t *b, const char *key, const char *what)
{
	char path[512];

	snprintf(path, sizeof path, "%s", key);
	bool eq = same(json_object_get(a, key), json_object_get(b, key), path, sizeof path);

	ok(eq, "%s: %s the same key for key", what, key);
	if (!eq)
		printf("# first difference at %s\n", path);
}

/* The TUI's o takes name=value pairs through the CLI's validator. */
static void params_text(void)
{
	struct tl_search_plan p, q;
	char text[512], why[256];

	tl_search_plan_default(&p);
	ok(tl_search_plan_params(&p, "method=paper eps=0.02 n=5000 repeats=5 max-adds=1e6", why,
				 sizeof why) == 0,
	   "pairs accepted");
	ok(p.sp.method == TL_SEARCH_PAPER && p.sp.eps == 0.02 && p.sp.n == 5000 && p.repeats == 5 &&
		   p.sp.max_adds == 1000000,
	   "and set");
	tl_search_plan_params_text(&p, text, sizeof text);
	tl_search_plan_default(&q);
	ok(tl_search_plan_params(&q, text, why, sizeof why) == 0 && memcmp(&p.sp, &q.sp, sizeof p.sp) == 0 &&
		   p.repeats == q.repeats && p.budget_s == q.budget_s,
	   "the text of a plan gives the plan back ('%s')", text);
	q = p;
	ok(tl_search_plan_params(&q, "eps=0.05 n=5", why, sizeof why) < 0 &&
		   strstr(why, "n '5' is not accepted (accepted: a whole number from 10") &&
		   q.sp.eps == p.sp.eps,
	   "a bad pair refuses all of them, named with what is accepted ('%s')", why);
	ok(tl_search_plan_params(&q, "colour=red", why, sizeof why) < 0 &&
		   strstr(why, "'colour' is not a search parameter (accepted: method, eps"),
	   "an unknown name lists the names ('%s')", why);
	ok(tl_search_plan_params(&q, "eps", why, sizeof why) < 0 && strstr(why, "not name=value"),
	   "a word without = says so ('%s')", why);
}

int main(void)
{
	char cli[64], tui[64];
	json_t *a, *b;

	snprintf(cli, sizeof cli, "faces-cli.%d.json", (int)getpid());
	snprintf(tui, sizeof tui, "faces-tui.%d.json", (int)getpid());
	params_text();
	for (int edited = 1; edited >= 0; edited--) {
		const char *what = edited ? "edited CLI and TUI" : "CLI and TUI";

		ok(cli_path(cli, edited) == 0, "the CLI searched two sim backends%s",
		   edited ? " (--eps 0.02 --alpha 0.1 --repeats 2)" : " (3 repeats)");
		ok(tui_path(tui, edited) == 0, "the TUI searched the same%s and exported",
		   edited ? " after o 'eps=0.02 alpha=0.1 repeats=2'" : "");
		a = load(cli);
		b = load(tui);
		ok(a && b, "both files are JSON");
		if (a && b) {
			check_same(a, b, "results", what);
			check_same(a, b, "params", what);
			check_same(a, b, "reference", what);
			check_same(a, b, "interval_method", what);
			ok(json_integer_value(json_object_get(json_object_get(b, "params"), "repeats")) ==
				   (edited ? 2 : 3),
			   "the TUI export has params, with %s repeats", edited ? "the edited 2" : "the default 3");
		}
		if (edited) {
			json_decref(a);
			json_decref(b);
		}
	}
	/* read back (report, replay) and written again: the same document */
	{
		struct tl_search_plan p;
		struct tl_search_cell *cells = NULL;
		bool intr;
		char why[512];
		json_t *raw = json_load_file(cli, 0, NULL);
		int rc = raw ? tl_search_from_json(raw, cli, &p, &cells, &intr, why, sizeof why) : -1;

		ok(rc == 0, "the search file reads back%s%s", rc ? ": " : "", rc ? why : "");
		if (rc == 0) {
			json_t *again = tl_search_to_json(&p, cells, NULL, intr);

			drop_clock(again);
			check_same(a, again, "results", "read back and written again");
			json_decref(again);
			tl_search_cells_free(cells, p.nbackends * p.nflush);
		}
		tl_search_plan_free(&p);
		json_decref(raw);
	}
	json_decref(a);
	json_decref(b);
	unlink(cli);
	unlink(tui);
	return tap_done();
}
