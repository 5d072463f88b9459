#include "config.h"

#include "io/host_json.h"

#include <string.h>

#include "io/results.h"

/* [{"level", "bytes", "ns_per_load" (null where not measured), "note"}] */
static json_t *ladder_to_json(const struct tl_host *h)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < h->nladder; i++) {
		const struct tl_level_latency *l = &h->ladder[i];

		json_array_append_new(a, json_pack("{s:s, s:I, s:o, s:s}", "level", l->level, "bytes",
						   (json_int_t)l->bytes, "ns_per_load",
						   tl_json_real(l->ns), "note", l->note));
	}
	return a;
}

static json_t *caches_to_json(const struct tl_topology *t)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < t->ncaches; i++) {
		const struct tl_cache *c = &t->caches[i];

		json_array_append_new(a, json_pack("{s:i, s:s, s:I, s:i, s:s}", "level", c->level,
						   "type", c->type, "bytes", (json_int_t)c->bytes,
						   "line", (int)c->line, "shared_cpus",
						   c->shared_cpus));
	}
	return a;
}

/* tl_papi_describe gives one component per line: keep them as a list. */
static json_t *lines_to_json(const char *text)
{
	json_t *a = json_array();

	while (a && *text) {
		size_t len = strcspn(text, "\n");

		if (len)
			json_array_append_new(a, json_stringn(text, len));
		text += len + (text[len] == '\n');
	}
	return a;
}

static json_t *spoilers_to_json(const struct tl_host *h)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < TL_SPOILER_COUNT; i++) {
		const struct tl_spoiler *s = &h->spoilers[i];

		if (!s->what)
			continue;
		json_array_append_new(a, json_pack("{s:s, s:b, s:s, s:s}", "what", s->what, "bad",
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
	json_t *o = json_object();

	if (!o)
		return NULL;
	json_object_set_new(o, "cpu", json_integer(h->cpu));
	json_object_set_new(o, "model", json_string(h->model));
	json_object_set_new(o, "vendor", json_string(h->vendor));
	json_object_set_new(o, "kernel", json_string(h->kernel));
	json_object_set_new(o, "mem_bytes",
			    h->mem_bytes ? json_integer((json_int_t)h->mem_bytes) : json_null());
	json_object_set_new(o, "caches", caches_to_json(&h->topo));
	json_object_set_new(o, "l1d_bytes", json_integer((json_int_t)h->topo.l1d));
	json_object_set_new(o, "l2_bytes", json_integer((json_int_t)h->topo.l2));
	json_object_set_new(o, "l3_bytes", json_integer((json_int_t)h->topo.l3));
	json_object_set_new(o, "caches_source",
			    h->have_topology ? json_string(h->topo.source) : json_null());
	if (!h->have_topology)
		json_object_set_new(o, "topology_note", json_string(h->topo_why));
	json_object_set_new(o, "tsc_ghz", h->tsc_ghz > 0 ? tl_json_real(h->tsc_ghz) : json_null());
	json_object_set_new(o, "tsc_resolution_ns", h->tsc_resolution_ns > 0
							   ? tl_json_real(h->tsc_resolution_ns)
							   : json_null());
	json_object_set_new(o, "tsc_resolution_ticks", h->tsc_resolution_ticks > 0
							      ? tl_json_real(h->tsc_resolution_ticks)
							      : json_null());
	json_object_set_new(o, "tsc_reader",
			    h->tsc_reader[0] ? json_string(h->tsc_reader) : json_null());
	if (h->nladder)
		json_object_set_new(o, "load_latency", ladder_to_json(h));
	json_object_set_new(o, "clocksource", json_string(h->clocksource));
	json_object_set_new(o, "clock_gettime_ns",
			    h->cost.vdso_ns > 0 ? tl_json_real(h->cost.vdso_ns) : json_null());
	json_object_set_new(o, "clock_gettime_syscall_ns",
			    h->cost.syscall_ns > 0 ? tl_json_real(h->cost.syscall_ns) : json_null());
	json_object_set_new(o, "vdso", tristate(tl_vdso_verdict(&h->cost)));
	json_object_set_new(o, "syscall_readers", json_string(h->syscall_readers));
	json_object_set_new(o, "hypervisor", json_string(h->hypervisor));
	json_object_set_new(o, "vm", json_boolean(h->vm));
	json_object_set_new(o, "governor", json_string(h->governor));
	json_object_set_new(o, "turbo", json_string(h->turbo));
	json_object_set_new(o, "turbo_on", tristate(h->turbo_on));
	json_object_set_new(o, "perf_event_paranoid",
			    h->paranoid == -100 ? json_null() : json_integer(h->paranoid));
	json_object_set_new(o, "rdpmc", json_string(h->rdpmc));
	json_object_set_new(o, "pmu", json_boolean(h->pmu));
	json_object_set_new(o, "smt_siblings", json_string(h->smt_siblings));
	json_object_set_new(o, "nsiblings", json_integer(h->nsiblings));
	json_object_set_new(o, "sibling_busy",
			    h->sibling_busy < 0 ? json_null() : tl_json_real(h->sibling_busy));
	json_object_set_new(o, "lfence_serializing", tristate(h->lfence));
	json_object_set_new(o, "lfence_how", json_string(h->lfence_how));
	json_object_set_new(o, "papi", lines_to_json(h->papi));
	json_object_set_new(o, "spoilers", spoilers_to_json(h));
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
