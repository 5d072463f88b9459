#include "config.h"

#include "io/run_keys.h"

#define KEYS(x) (x), sizeof(x) / sizeof((x)[0])

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
const struct tl_keys tl_run_cell_keys = {"a run cell", KEYS(cell), NULL, NULL};

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
