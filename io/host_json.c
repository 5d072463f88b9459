#include "config.h"

#include "io/host_json.h"

#include <math.h>
#include <string.h>

#include "io/json_build.h"
#include "io/results.h"

/* [{"level", "bytes", "ns_per_load" (null where not measured), "note"}] */
static json_t *ladder_to_json(const struct tl_host *h)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; a && i < h->nladder; i++) {
		const struct tl_level_latency *l = &h->ladder[i];

		tl_json_append(a, json_pack("{s:s, s:I, s:o, s:s}", "level", l->level, "bytes",
						   (json_int_t)l->bytes, "ns_per_load",
						   tl_json_real(l->ns), "note", l->note));
	}
	return a;
}

static json_t *bytes_or_null(uint64_t b)
{
	return b ? json_integer((json_int_t)b) : json_null();
}

/* [{name, cpuid_bytes, boundary_bytes, boundary_hi_bytes, latency_ns, seen,
 *   cpuid_agrees}]: the levels a chase sees beside the reported sizes. */
static json_t *levels_to_json(const struct tl_levels *lv)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; i < lv->nlevels; i++) {
		const struct tl_memory_level *l = &lv->level[i];

		json_t *range = l->range_hi_bytes
					? json_pack("[I, I]", (json_int_t)l->range_lo_bytes,
						    (json_int_t)l->range_hi_bytes)
					: json_null();

		tl_json_append(a, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:b, s:b}", "name", l->name,
					    "cpuid_bytes", bytes_or_null(l->cpuid_bytes),
					    "boundary_bytes", bytes_or_null(l->boundary_bytes),
					    "boundary_hi_bytes", bytes_or_null(l->boundary_hi_bytes),
					    "boundary_range_bytes", range,
					    "latency_ns", tl_json_real(l->latency_ns), "seen", l->seen,
					    "cpuid_agrees", l->cpuid_agrees));
	}
	return a;
}

static json_t *ladder_points_to_json(const struct tl_levels *lv)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; i < lv->npoints; i++)
		tl_json_append(a, json_pack("{s:I, s:o}", "bytes", (json_int_t)lv->bytes[i],
					    "ns_per_load", tl_json_real(lv->ns[i])));
	return a;
}

static void levels_set(json_t *o, const struct tl_levels *lv, const struct tl_topology *topo)
{
	char words[1024], sizing[512];
	struct tl_topology sized;

	tl_levels_disagreement(lv, words, sizeof words);
	tl_levels_sizing(lv, topo, &sized, sizing, sizeof sizing);
	tl_json_set(o, "memory_levels", levels_to_json(lv));
	tl_json_set(o, "memory_levels_measured", json_boolean(lv->measured));
	tl_json_set(o, "memory_levels_source",
		    json_string(lv->measured ? lv->source : lv->why));
	tl_json_set(o, "memory_levels_disagree", words[0] ? json_string(words) : json_null());
	tl_json_set(o, "memory_levels_chase", ladder_points_to_json(lv));
	tl_json_set(o, "memory_levels_unstable",
		    lv->unstable[0] ? json_string(lv->unstable) : json_null());
	tl_json_set(o, "memory_levels_passes",
		    lv->passes ? json_integer((json_int_t)lv->passes) : json_null());
	tl_json_set(o, "memory_levels_settled", lv->passes ? json_boolean(lv->settled) : json_null());
	/* where the node keeps them, so every run on it sizes NxLk alike */
	tl_json_set(o, "memory_levels_kept", lv->kept[0] ? json_string(lv->kept) : json_null());
	/* what NxLk flushes went by: the reported sizes, or these measured ones */
	tl_json_set(o, "cache_multiples_sized_by",
		    json_string(sizing[0] ? sizing : "the reported cache sizes"));
	tl_json_set(o, "write_bytes_per_ns", lv->write_bytes_per_ns > 0
						     ? tl_json_real(lv->write_bytes_per_ns)
						     : json_null());
}

static json_t *caches_to_json(const struct tl_topology *t)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; a && i < t->ncaches; i++) {
		const struct tl_cache *c = &t->caches[i];

		tl_json_append(a, json_pack("{s:i, s:s, s:I, s:i, s:s}", "level", c->level,
						   "type", c->type, "bytes", (json_int_t)c->bytes,
						   "line", (int)c->line, "shared_cpus",
						   c->shared_cpus));
	}
	return a;
}

/* tl_papi_describe gives one component per line: keep them as a list. */
static json_t *lines_to_json(const char *text)
{
	json_t *a = tl_json_array();

	while (a && *text) {
		size_t len = strcspn(text, "\n");

		if (len)
			tl_json_append(a, json_stringn(text, len));
		text += len + (text[len] == '\n');
	}
	return a;
}

static json_t *spoilers_to_json(const struct tl_host *h)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; a && i < TL_SPOILER_COUNT; i++) {
		const struct tl_spoiler *s = &h->spoilers[i];

		if (!s->what)
			continue;
		tl_json_append(a, json_pack("{s:s, s:b, s:s, s:s}", "what", s->what, "bad",
						   s->bad, "seen", s->seen, "why", s->why));
	}
	return a;
}

static json_t *tristate(int v)
{
	return v < 0 ? json_null() : json_boolean(v);
}

json_t *tl_host_to_json(const struct tl_host *h)
{
	json_t *o = tl_json_object();

	tl_json_set(o, "cpu", json_integer(h->cpu));
	tl_json_set(o, "model", json_string(h->model));
	tl_json_set(o, "vendor", json_string(h->vendor));
	tl_json_set(o, "kernel", json_string(h->kernel));
	tl_json_set(o, "mem_bytes",
			    h->mem_bytes ? json_integer((json_int_t)h->mem_bytes) : json_null());
	tl_json_set(o, "caches", caches_to_json(&h->topo));
	tl_json_set(o, "l1d_bytes", json_integer((json_int_t)h->topo.l1d));
	tl_json_set(o, "l2_bytes", json_integer((json_int_t)h->topo.l2));
	tl_json_set(o, "l3_bytes", json_integer((json_int_t)h->topo.l3));
	tl_json_set(o, "caches_source",
			    h->have_topology ? json_string(h->topo.source) : json_null());
	if (!h->have_topology)
		tl_json_set(o, "topology_note", json_string(h->topo_why));
	tl_json_set(o, "tsc_ghz", h->tsc_ghz > 0 ? tl_json_real(h->tsc_ghz) : json_null());
	tl_json_set(o, "tsc_resolution_ns", h->tsc_resolution_ns > 0
							   ? tl_json_real(h->tsc_resolution_ns)
							   : json_null());
	tl_json_set(o, "tsc_resolution_ticks", h->tsc_resolution_ticks > 0
							      ? tl_json_real(h->tsc_resolution_ticks)
							      : json_null());
	tl_json_set(o, "tsc_reader",
			    h->tsc_reader[0] ? json_string(h->tsc_reader) : json_null());
	if (h->nladder)
		tl_json_set(o, "load_latency", ladder_to_json(h));
	if (h->ladder_probed || h->levels.measured)
		levels_set(o, &h->levels, &h->topo);
	tl_json_set(o, "clocksource", json_string(h->clocksource));
	tl_json_set(o, "clock_gettime_ns",
			    h->cost.vdso_ns > 0 ? tl_json_real(h->cost.vdso_ns) : json_null());
	tl_json_set(o, "clock_gettime_syscall_ns",
			    h->cost.syscall_ns > 0 ? tl_json_real(h->cost.syscall_ns) : json_null());
	tl_json_set(o, "vdso", tristate(tl_vdso_verdict(&h->cost)));
	tl_json_set(o, "syscall_readers", json_string(h->syscall_readers));
	tl_json_set(o, "hypervisor", json_string(h->hypervisor));
	tl_json_set(o, "vm", json_boolean(h->vm));
	tl_json_set(o, "governor", json_string(h->governor));
	tl_json_set(o, "turbo", json_string(h->turbo));
	tl_json_set(o, "turbo_on", tristate(h->turbo_on));
	tl_json_set(o, "perf_event_paranoid",
			    h->paranoid == -100 ? json_null() : json_integer(h->paranoid));
	tl_json_set(o, "rdpmc", json_string(h->rdpmc));
	tl_json_set(o, "pmu", json_boolean(h->pmu));
	tl_json_set(o, "smt_siblings", json_string(h->smt_siblings));
	tl_json_set(o, "nsiblings", json_integer(h->nsiblings));
	tl_json_set(o, "sibling_busy",
			    h->sibling_busy < 0 ? json_null() : tl_json_real(h->sibling_busy));
	tl_json_set(o, "lfence_serializing", tristate(h->lfence));
	tl_json_set(o, "lfence_how", json_string(h->lfence_how));
	tl_json_set(o, "papi", lines_to_json(h->papi));
	tl_json_set(o, "spoilers", spoilers_to_json(h));
	return o;
}

bool tl_host_json_topology(const json_t *host, struct tl_topology *topo)
{
	memset(topo, 0, sizeof *topo);
	if (!host)
		return false;
	topo->l1d = (uint64_t)json_integer_value(json_object_get(host, "l1d_bytes"));
	topo->l2 = (uint64_t)json_integer_value(json_object_get(host, "l2_bytes"));
	topo->l3 = (uint64_t)json_integer_value(json_object_get(host, "l3_bytes"));
	return topo->l1d || topo->l2 || topo->l3;
}

static uint64_t bytes_at(const json_t *o, const char *key)
{
	json_int_t b = json_integer_value(json_object_get(o, key));

	return b > 0 ? (uint64_t)b : 0;
}

static void range_at(const json_t *l, struct tl_memory_level *m)
{
	const json_t *r = json_object_get(l, "boundary_range_bytes");
	json_int_t lo = json_integer_value(json_array_get(r, 0));
	json_int_t hi = json_integer_value(json_array_get(r, 1));

	if (json_array_size(r) == 2 && lo > 0 && hi >= lo) {
		m->range_lo_bytes = (uint64_t)lo;
		m->range_hi_bytes = (uint64_t)hi;
	}
}

/* The chase's ladder: what sizing reads past a level that is not one of
 * its own (tl_levels_sizing), so a report labels sizes as the run did. */
static void chase_points_at(const json_t *host, struct tl_levels *lv)
{
	const json_t *pts = json_object_get(host, "memory_levels_chase"), *pt;
	size_t i;

	lv->npoints = 0;
	json_array_foreach(pts, i, pt) {
		double b = json_number_value(json_object_get(pt, "bytes"));
		double ns = json_number_value(json_object_get(pt, "ns_per_load"));

		if (lv->npoints == STATS_LEVELS_MAX_POINTS || !(b > 0) || !(ns > 0) ||
		    (lv->npoints && b <= lv->bytes[lv->npoints - 1]))
			break;
		lv->bytes[lv->npoints] = b;
		lv->ns[lv->npoints++] = ns;
	}
}

bool tl_host_json_levels(const json_t *host, struct tl_levels *lv)
{
	const json_t *levels = json_object_get(host, "memory_levels"), *l;
	size_t i;

	memset(lv, 0, sizeof *lv);
	json_array_foreach(levels, i, l) {
		const char *name = json_string_value(json_object_get(l, "name"));
		struct tl_memory_level *m;

		if (!name || lv->nlevels == TL_MEMORY_LEVELS_MAX)
			continue;
		m = &lv->level[lv->nlevels++];
		snprintf(m->name, sizeof m->name, "%s", name);
		m->cpuid_bytes = bytes_at(l, "cpuid_bytes");
		m->boundary_bytes = bytes_at(l, "boundary_bytes");
		m->boundary_hi_bytes = bytes_at(l, "boundary_hi_bytes");
		m->latency_ns = json_is_number(json_object_get(l, "latency_ns"))
					? json_number_value(json_object_get(l, "latency_ns"))
					: NAN;
		m->seen = json_is_true(json_object_get(l, "seen"));
		range_at(l, m);
		m->cpuid_agrees = json_is_true(json_object_get(l, "cpuid_agrees"));
		if (!strcmp(name, "memory") && m->seen && m->boundary_bytes) {
			lv->found.memory_seen = true;
			lv->found.memory.lo_bytes = (double)m->boundary_bytes;
		}
	}
	lv->measured = lv->nlevels > 0 &&
		       !json_is_false(json_object_get(host, "memory_levels_measured"));
	chase_points_at(host, lv);
	{
		const char *src = json_string_value(json_object_get(host, "caches_source"));

		/* as bench/levels.c names whose sizes they are */
		snprintf(lv->reported_by, sizeof lv->reported_by, "%s",
			 !src ? "hwloc" : strstr(src, "CPUID") ? "CPUID"
				: strstr(src, "sysfs") ? "sysfs" : "hwloc");
	}
	return lv->measured;
}

static void mark(struct tl_plot_mark *m, const char *name, double lo, double hi, bool measured)
{
	snprintf(m->name, sizeof m->name, "%s", name);
	m->lo = lo;
	m->hi = hi;
	m->measured = measured;
}

size_t tl_host_json_marks(const json_t *host, struct tl_plot_mark *marks, size_t max)
{
	static const char *const keys[] = { "l1d_bytes", "l2_bytes", "l3_bytes" };
	static const char *const names[] = { "L1d", "L2", "L3" };
	const json_t *levels = json_object_get(host, "memory_levels"), *l;
	size_t n = 0, i;

	json_array_foreach(levels, i, l) {
		const char *name = json_string_value(json_object_get(l, "name"));
		json_int_t lo = json_integer_value(json_object_get(l, "boundary_bytes"));
		json_int_t hi = json_integer_value(json_object_get(l, "boundary_hi_bytes"));

		if (n < max && name && strcmp(name, "memory") &&
		    json_is_true(json_object_get(l, "seen")) && lo > 0 && hi > lo)
			mark(&marks[n++], name, (double)lo, (double)hi, true);
	}
	for (int k = 0; k < 3; k++) {
		json_int_t b = json_integer_value(json_object_get(host, keys[k]));

		if (n < max && b > 0)
			mark(&marks[n++], names[k], (double)b, (double)b, false);
	}
	return n;
}
