#include "config.h"

#include "io/run_keys.h"

#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/sim.h"

#define KEYS(x) (x), sizeof(x) / sizeof((x)[0])

/* A timer that costs a second to read, or ticks once a second, times
 * nothing ticklab measures: an overhead or a resolution beyond that is a
 * forged or broken file, whatever the samples say. */
#define CELL_TIMER_MAX_NS 1e9

static int time_at_most(const json_t *o, const char *name, const char **key, char *msg,
			size_t msglen)
{
	const json_t *v = json_object_get(o, name);

	if (!json_is_number(v) || json_number_value(v) <= CELL_TIMER_MAX_NS)
		return 0;
	*key = name;
	snprintf(msg, msglen, "is %g ns, beyond what a timer reads (at most %g ns, one second)",
		 json_number_value(v), CELL_TIMER_MAX_NS);
	return -1;
}

/* A simulated backend's parameters pass the parser `run -b` uses: a file
 * cannot claim a model the command line refuses (sd=-5, sd=1e300). */
static int sim_params_ok(const json_t *o, const char **key, char *msg, size_t msglen)
{
	const char *id = json_string_value(json_object_get(o, "backend"));
	const struct tl_backend *b = id ? tl_backend_find(id) : NULL;
	const char *colon = id ? strchr(id, ':') : NULL;
	struct tl_sim_model m;
	char why[160];

	if (!b || !b->simulated || !colon || tl_sim_parse(colon + 1, &m, why, sizeof why) == 0)
		return 0;
	*key = "backend";
	snprintf(msg, msglen, "'%.40s' is not a backend `run -b` accepts: %s", id, why);
	return -1;
}

static int cell_rule(const json_t *o, const char **key, char *msg, size_t msglen)
{
	if (time_at_most(o, "overhead", key, msg, msglen) < 0 ||
	    time_at_most(o, "resolution_ns", key, msg, msglen) < 0)
		return -1;
	return sim_params_ok(o, key, msg, msglen);
}

/* "baseline" is true in a hidden baseline cell and, after `run
 * --baseline`, the verdict against the saved run: its own reader's. */
static const struct tl_key cell[] = {
	{"backend", TL_KEY_TEXT, NULL},      {"family", TL_KEY_TEXT, NULL},
	{"clock", TL_KEY_TEXT, NULL},        {"unit", TL_KEY_TEXT, NULL},
	{"ns_per_unit", TL_KEY_TIME, NULL},  {"simulated", TL_KEY_BOOL, NULL},
	{"kernel", TL_KEY_TEXT, NULL},       {"kind", TL_KEY_TEXT, NULL},
	{"k", TL_KEY_COUNT, NULL},           {"d", TL_KEY_COUNT, NULL},
	{"p", TL_KEY_REAL, NULL},            {"d_ns", TL_KEY_TIME, NULL},
	{"d_ns_per_add", TL_KEY_TIME, NULL}, {"flush_bytes", TL_KEY_COUNT, NULL},
	{"flush", TL_KEY_TEXT, NULL},        {"flush_name", TL_KEY_OWN, NULL},
	{"n", TL_KEY_COUNT, NULL},
	{"n_planned", TL_KEY_COUNT, NULL},   {"overhead", TL_KEY_TIME, NULL},
	{"overhead_sd_ns", TL_KEY_TIME, NULL}, {"resolution_ns", TL_KEY_TIME, NULL},
	{"baseline", TL_KEY_OWN, NULL},      {"samples", TL_KEY_OWN, NULL},
	{"samples_ns", TL_KEY_OWN, NULL},    {"adds", TL_KEY_OWN, NULL},
	{"noise", TL_KEY_OWN, NULL},         {"jitter", TL_KEY_OWN, NULL},
	{"summary", TL_KEY_OWN, NULL},       {"os_filter", TL_KEY_OWN, NULL},
	{"drift", TL_KEY_OWN, NULL},
};
const struct tl_keys tl_run_cell_keys = {"a run cell", KEYS(cell), NULL, cell_rule};

/* "seed" is an integer, or decimal text above what a JSON integer holds;
 * "cpu" is -1 when none was pinned. */
static const struct tl_key doc[] = {
	{"ticklab", TL_KEY_OWN, NULL},      {"host", TL_KEY_OWN, NULL},
	{"seed", TL_KEY_OWN, NULL},         {"n", TL_KEY_COUNT, NULL},
	{"cpu", TL_KEY_SIGNED, NULL},       {"os_filter", TL_KEY_TEXT, NULL},
	{"interrupted", TL_KEY_BOOL, NULL}, {"analysed", TL_KEY_BOOL, NULL},
	{"cells", TL_KEY_OWN, NULL},        {"baselines", TL_KEY_OWN, NULL},
	{"baseline", TL_KEY_OWN, NULL},
};
const struct tl_keys tl_run_doc_keys = {"a run file", KEYS(doc), NULL, NULL};
