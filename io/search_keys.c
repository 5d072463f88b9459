#include "config.h"

#include "io/search_keys.h"

#include <stdio.h>

#define KEYS(x) (x), sizeof(x) / sizeof((x)[0])

/* The repeats that found a value are some of those that ran. */
static int found_of_ran(const json_t *o, const char **key, char *msg, size_t msglen)
{
	const json_t *found = json_object_get(o, "found"), *ran = json_object_get(o, "ran");

	if (!json_is_integer(found) || !json_is_integer(ran) ||
	    json_integer_value(found) <= json_integer_value(ran))
		return 0;
	*key = "found";
	snprintf(msg, msglen, "is %lld, more than ran = %lld", (long long)json_integer_value(found),
		 (long long)json_integer_value(ran));
	return -1;
}

static const struct tl_key params[] = {
	{"method", TL_KEY_TEXT, NULL},        {"eps", TL_KEY_REAL, NULL},
	{"alpha", TL_KEY_REAL, NULL},         {"n", TL_KEY_COUNT, NULL},
	{"p", TL_KEY_COUNT, NULL},            {"q", TL_KEY_COUNT, NULL},
	{"tmin_step", TL_KEY_COUNT, NULL},    {"tdiff_step", TL_KEY_COUNT, NULL},
	{"max_adds", TL_KEY_COUNT, NULL},     {"os_filter", TL_KEY_TEXT, NULL},
	{"seed", TL_KEY_COUNT, NULL},         {"budget_seconds", TL_KEY_TIME, NULL},
	{"repeats", TL_KEY_COUNT, NULL},      {"tdiff", TL_KEY_BOOL, NULL},
	{"tdiff_order", TL_KEY_TEXT, NULL},
};
const struct tl_keys tl_search_params_keys = {"a search's params", KEYS(params), NULL, NULL};

/* One search of one repeat: its answer and the points it evaluated.
 * "adds" is the ADD count of a kernel it ran, "bound_adds" the largest
 * one it ran without an answer; "predicted_adds" comes from a model, so
 * need not be whole. */
static const struct tl_key result[] = {
	{"adds", TL_KEY_COUNT, NULL},          {"ns", TL_KEY_TIME, NULL},
	{"method", TL_KEY_TEXT, NULL},         {"measurements", TL_KEY_COUNT, NULL},
	{"seconds", TL_KEY_TIME, NULL},        {"converged", TL_KEY_BOOL, NULL},
	{"stopped", TL_KEY_BOOL, NULL},        {"cv", TL_KEY_REAL, NULL},
	{"alpha", TL_KEY_REAL, NULL},          {"on_floor", TL_KEY_BOOL, NULL},
	{"floor_ns", TL_KEY_TIME, NULL},       {"evaluations", TL_KEY_COUNT, NULL},
	{"predicted_adds", TL_KEY_REAL, NULL}, {"lowest_cv_adds", TL_KEY_COUNT, NULL},
	{"lowest_cv", TL_KEY_REAL, NULL},      {"drift_at_lowest_cv", TL_KEY_SIGNED, NULL},
	{"bound_adds", TL_KEY_COUNT, NULL},    {"out_of_time", TL_KEY_BOOL, NULL},
	{"note", TL_KEY_TEXT, NULL},           {"points", TL_KEY_POINTS, NULL},
	{"cv_within", TL_KEY_REAL, NULL},      {"cv_drift", TL_KEY_REAL, NULL},
	{"steady_adds", TL_KEY_REAL, NULL},    {"steady_lo", TL_KEY_REAL, NULL},
	{"steady_hi", TL_KEY_REAL, NULL},      {"order", TL_KEY_TEXT, NULL},
	{"a0_sd_ns", TL_KEY_TIME, NULL},       {"a0_top_sds", TL_KEY_REAL, NULL},
};
const struct tl_keys tl_search_result_keys = {"one search of a metric", KEYS(result), NULL, NULL};

/* The repeats' summary. "adds" is their median, written rounded to the
 * kernel a user would run; the interval's ends and the CV floor's place
 * are interpolated, so real. Files from before the repeats kept one
 * search's keys here. */
static const struct tl_key metric[] = {
	{"adds", TL_KEY_COUNT, NULL},         {"ns", TL_KEY_TIME, NULL},
	{"method", TL_KEY_TEXT, NULL},        {"measurements", TL_KEY_COUNT, NULL},
	{"seconds", TL_KEY_TIME, NULL},       {"converged", TL_KEY_BOOL, NULL},
	{"found", TL_KEY_COUNT, NULL},        {"ran", TL_KEY_COUNT, NULL},
	{"status", TL_KEY_TEXT, NULL},        {"status_text", TL_KEY_TEXT, NULL},
	{"provisional", TL_KEY_BOOL, NULL},   {"lo", TL_KEY_REAL, NULL},
	{"hi", TL_KEY_REAL, NULL},            {"lo_ns", TL_KEY_TIME, NULL},
	{"hi_ns", TL_KEY_TIME, NULL},         {"interval_method", TL_KEY_TEXT, NULL},
	{"unstable", TL_KEY_BOOL, NULL},      {"unstable_why", TL_KEY_TEXT, NULL},
	{"cv_floor", TL_KEY_REAL, NULL},      {"cv_floor_adds", TL_KEY_REAL, NULL},
	{"bound_adds", TL_KEY_REAL, NULL},    {"bound_ns", TL_KEY_TIME, NULL},
	{"note", TL_KEY_TEXT, NULL},          {"repeats", TL_KEY_LIST, &tl_search_result_keys},
	{"cv_within", TL_KEY_REAL, NULL},     {"cv_drift", TL_KEY_REAL, NULL},
	{"steady_adds", TL_KEY_REAL, NULL},   {"steady_text", TL_KEY_TEXT, NULL},
};
const struct tl_keys tl_search_metric_keys = {"a cell's metric", KEYS(metric),
					      &tl_search_result_keys, found_of_ran};

/* One side of t_min at a relaxed eps: "adds" is where the CV curve
 * crosses eps, interpolated between the kernels the search ran (and the
 * median of the repeats' crossings), so a real number; its "ns" is
 * adds x ns_per_add of that unrounded value. */
static const struct tl_key side[] = {
	{"adds", TL_KEY_REAL, NULL},   {"ns", TL_KEY_TIME, NULL},
	{"found", TL_KEY_COUNT, NULL}, {"ran", TL_KEY_COUNT, NULL},
	{"status", TL_KEY_TEXT, NULL}, {"lo", TL_KEY_REAL, NULL},
	{"hi", TL_KEY_REAL, NULL},     {"lo_ns", TL_KEY_TIME, NULL},
	{"hi_ns", TL_KEY_TIME, NULL},  {"status_text", TL_KEY_TEXT, NULL},
};
const struct tl_keys tl_search_side_keys = {"a side of a relaxed t_min", KEYS(side), NULL,
					    found_of_ran};

static const struct tl_key relaxed[] = {
	{"eps", TL_KEY_REAL, NULL},
	{"method", TL_KEY_TEXT, NULL},
	{"value", TL_KEY_OBJECT, &tl_search_side_keys},
	{"reference", TL_KEY_OBJECT, &tl_search_side_keys},
	{"ratio", TL_KEY_REAL, NULL},
	{"ratio_lo", TL_KEY_REAL, NULL},
	{"ratio_hi", TL_KEY_REAL, NULL},
	{"text", TL_KEY_TEXT, NULL},
};
const struct tl_keys tl_search_relaxed_keys = {"a relaxed t_min", KEYS(relaxed), NULL, NULL};

/* What one repeat of a cell set up before it searched. */
static const struct tl_key rep[] = {
	{"overhead", TL_KEY_TIME, NULL},        {"ns_per_add", TL_KEY_TIME, NULL},
	{"ns_per_add_r2", TL_KEY_SIGNED, NULL}, {"resolution_ns", TL_KEY_TIME, NULL},
	{"flush_seconds", TL_KEY_TIME, NULL},   {"n_per_evaluation", TL_KEY_COUNT, NULL},
	{"setup_measurements", TL_KEY_COUNT, NULL}, {"error", TL_KEY_TEXT, NULL},
};
const struct tl_keys tl_search_rep_keys = {"a cell's repeat", KEYS(rep), NULL, NULL};

#define RATIO(m)                                                                              \
	{"ratio_" m, TL_KEY_REAL, NULL}, {"ratio_" m "_relation", TL_KEY_TEXT, NULL},          \
		{"ratio_" m "_lo", TL_KEY_REAL, NULL}, {"ratio_" m "_hi", TL_KEY_REAL, NULL},  \
		{"ratio_" m "_why", TL_KEY_TEXT, NULL}, {"ratio_" m "_basis", TL_KEY_TEXT, NULL}

/* A file from before the repeats kept one repeat's keys in the cell
 * itself; they are among the cell's own. */
static const struct tl_key cell[] = {
	{"backend", TL_KEY_TEXT, NULL},
	{"flush_bytes", TL_KEY_COUNT, NULL},
	{"flush", TL_KEY_TEXT, NULL},
	{"overhead", TL_KEY_TIME, NULL},
	{"ns_per_add", TL_KEY_TIME, NULL},
	{"ns_per_add_r2", TL_KEY_SIGNED, NULL},
	{"resolution_ns", TL_KEY_TIME, NULL},
	{"flush_seconds", TL_KEY_TIME, NULL},
	{"n_per_evaluation", TL_KEY_COUNT, NULL},
	{"setup_measurements", TL_KEY_COUNT, NULL},
	{"state", TL_KEY_TEXT, NULL},
	{"error", TL_KEY_TEXT, NULL},
	{"tmin", TL_KEY_OBJECT, &tl_search_metric_keys},
	{"tdiff", TL_KEY_OBJECT, &tl_search_metric_keys},
	RATIO("tmin"),
	RATIO("tdiff"),
	{"t_min_relaxed", TL_KEY_OBJECT, &tl_search_relaxed_keys},
	{"repeats", TL_KEY_LIST, &tl_search_rep_keys},
};
const struct tl_keys tl_search_cell_keys = {"a search cell", KEYS(cell), NULL, NULL};

static const struct tl_key doc[] = {
	{"ticklab", TL_KEY_OWN, NULL},
	{"host", TL_KEY_OWN, NULL},
	{"params", TL_KEY_OBJECT, &tl_search_params_keys},
	{"reference", TL_KEY_TEXT, NULL},
	{"interval_method", TL_KEY_TEXT, NULL},
	{"interrupted", TL_KEY_BOOL, NULL},
	{"results", TL_KEY_LIST, &tl_search_cell_keys},
};
const struct tl_keys tl_search_doc_keys = {"a search file", KEYS(doc), NULL, NULL};
