#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/host.h"
#include "bench/levels.h"
#include "bench/host_words.h"
#include "bench/noise.h"
#include "bench/probe.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "io/host_json.h"
#include "io/json_build.h"
#include "io/results.h"
#include "stats/stats.h"

#define WHY_LEN 1024
static const char usage_text[] =
	"usage: ticklab info [--json] [--cpu C] [--remeasure]\n"
	"\n"
	"Describes the node: CPU, caches (and a load's latency in each, measured),\n"
	"TSC frequency and resolution, clocksource,\n"
	"hypervisor, governor and turbo, perf_event_paranoid, rdpmc, PAPI components,\n"
	"LFENCE serialization, what can spoil a measurement here, and every timer\n"
	"backend: available (with its measured resolution and overhead) or why not.\n"
	"\n"
	"  --json      the same as one JSON object on stdout\n"
	"  -c, --cpu C the CPU to describe and measure on (default: the last allowed)\n"
	"  --remeasure chase the memory levels again and replace the node's record\n"
	"              (every run on this node sizes 4xL3 by that record)\n"
	"  -h, --help  this help\n";

static const struct option longopts[] = {
	{"json", no_argument, NULL, OPT_JSON},
	{"remeasure", no_argument, NULL, OPT_FIRST_FREE},
	{"cpu", required_argument, NULL, 'c'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static void print_caches(const struct tl_host *h)
{
	char size[32];

	if (!h->have_topology) {
		printf("caches:       unknown (%s)\n", h->topo_why);
		return;
	}
	printf("caches:      ");
	for (size_t i = 0; i < h->topo.ncaches; i++) {
		const struct tl_cache *c = &h->topo.caches[i];

		tl_size_format(c->bytes, size, sizeof size);
		printf(" L%d%s %s%s", c->level,
		       strcmp(c->type, "Data") == 0	     ? "d"
		       : strcmp(c->type, "Instruction") == 0 ? "i"
							     : "",
		       size, i + 1 < h->topo.ncaches ? "," : "");
	}
	printf("\n              from %s\n", h->topo.source);
}

/* The levels as measured beside the reported sizes (bench/levels.h). */
static void print_levels(const struct tl_host *h)
{
	char lines[16][TL_WORDS_LINE];
	size_t n;

	if (!h->ladder_probed)
		return;
	n = tl_levels_lines(&h->levels, lines, 16);
	if (!h->levels.measured) {
		printf("levels:       %s\n", lines[0]);
		return;
	}
	printf("levels:       what a pointer chase sees, beside the reported sizes\n");
	for (size_t i = 0; i < n; i++)
		printf("              %s\n", lines[i]);
}

static void print_host(const struct tl_host *h)
{
	char mem[32];

	tl_size_format(h->mem_bytes, mem, sizeof mem);
	char smt[160];

	tl_host_smt_words(h, smt, sizeof smt);
	printf("cpu:          %s (%s), sampling CPU %d, %s\n", h->model, h->vendor, h->cpu, smt);
	printf("kernel:       %s, memory %s\n", h->kernel, h->mem_bytes ? mem : "unknown");
	print_caches(h);
	print_levels(h);
	if (h->tsc_ghz > 0 && h->tsc_resolution_ns > 0)
		printf("tsc:          %.4f GHz, step %.3g ns (%.3g ticks, measured with %s)\n",
		       h->tsc_ghz, h->tsc_resolution_ns, h->tsc_resolution_ticks, h->tsc_reader);
	else if (h->tsc_ghz > 0)
		printf("tsc:          %.4f GHz, step - (%s)\n", h->tsc_ghz,
		       h->tsc_reader[0] ? "its readings never changed" : "no TSC reader opens");
	else
		printf("tsc:          none usable\n");
	if (h->cost.vdso_ns > 0)
		printf("clocksource:  %s; clock_gettime %.0f ns a call, the system call %.0f ns\n",
		       h->clocksource, h->cost.vdso_ns, h->cost.syscall_ns);
	else
		printf("clocksource:  %s\n", h->clocksource);
	printf("hypervisor:   %s\n", h->hypervisor);
	printf("governor:     %s, turbo %s\n", h->governor, h->turbo);
	if (h->paranoid == -100)
		printf("perf_event:   paranoid unreadable, PMU %s\n", h->pmu ? "present" : "absent");
	else
		printf("perf_event:   paranoid %d, PMU %s\n", h->paranoid,
		       h->pmu ? "present" : "absent");
	printf("rdpmc:        %s\n", h->rdpmc);
	printf("lfence:       %s (%s)\n",
	       h->lfence > 0 ? "dispatch-serializing" : h->lfence == 0 ? "NOT serializing" : "unknown",
	       h->lfence_how);
	printf("papi:         ");
	for (const char *p = h->papi; *p;) {
		size_t len = strcspn(p, "\n");

		printf("%s%.*s\n", p == h->papi ? "" : "              ", (int)len, p);
		p += len + (p[len] == '\n');
	}
	if (!h->papi[0])
		printf("\n");
	printf("\nwhat can spoil a measurement here (! = it does, ? = not known here):\n");
	for (size_t i = 0; i < TL_SPOILER_COUNT; i++) {
		const struct tl_spoiler *s = &h->spoilers[i];

		if (s->what)
			printf("  %c %-11s %s: %s\n",
			       s->bad ? '!' : tl_spoiler_unknown(s->seen) ? '?' : ' ', s->what, s->seen,
			       s->why);
	}
}

/* What this node's noise is made of, from a short probe (bench/noise.h). */

static void print_noise(const struct tl_noise_probe *pr, int rc, const char *why)
{
	char lines[8][TL_WORDS_LINE];
	size_t n = tl_noise_probe_lines(pr, rc, why, lines, 8);

	for (size_t i = 0; i < n; i++)
		printf("%s%s\n", i ? "              " : "noise:        ", lines[i]);
}

static const struct tl_noise_source *noise_source(const struct tl_noise_probe *pr,
						  const char *name)
{
	for (size_t i = 0; i < pr->info.nsrc; i++)
		if (!strcmp(pr->info.src[i].name, name))
			return &pr->info.src[i];
	return NULL;
}

static json_t *noise_to_json(const struct tl_noise_probe *pr, int rc, const char *why)
{
	const struct tl_noise_source *sw = noise_source(pr, "switch");

	if (rc < 0)
		return json_pack("{s:s}", "error", why);
	return json_pack("{s:o, s:i, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:b, s:s}",
			 "seconds", tl_json_real(pr->seconds), "cpu", pr->cpu, "gaps",
			 (json_int_t)pr->gaps, "ticks", (json_int_t)pr->ticks, "other_irqs",
			 (json_int_t)pr->irqs, "preemptions", (json_int_t)pr->preempt, "voluntary",
			 (json_int_t)pr->voluntary, "faults", (json_int_t)pr->faults, "migrations",
			 (json_int_t)pr->migrations, "unexplained", (json_int_t)pr->unexplained,
			 "gap_ns", tl_json_real(pr->gap_ns), "records", sw && sw->ok, "records_how",
			 sw ? sw->why : "");
}

static void print_backends(const struct tl_host *h, const struct tl_probe *bi, size_t n)
{
	int wid = 2;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(bi[i].backend->id) > wid)
			wid = (int)strlen(bi[i].backend->id);
	printf("\nbackends, measured now: resolution = the step between its readings, ns; t_e,std = "
	       "its own cost,\nthe median of empty timings, ns, +- their sd:\n");
	printf("  %-*s  %-7s  %-6s  %10s  %14s  %s\n", wid, "id", "clock", "unit", "resolution",
	       "t_e,std +- sd", "status");
	for (size_t i = 0; i < n; i++) {
		const struct tl_probe *x = &bi[i];
		char res[32] = "-", ovh[32] = "-", cost[TL_WHY_MAX];

		if (x->available && isfinite(x->resolution_ns))
			snprintf(res, sizeof res, "%.2f", x->resolution_ns);
		if (x->available && isfinite(x->overhead_ns))
			snprintf(ovh, sizeof ovh, "%.1f +- %.1f", x->overhead_ns, x->overhead_sd_ns);
		tl_probe_cost_words(x, &h->cost, cost, sizeof cost);
		printf("  %-*s  %-7s  %-6s  %10s  %14s  %s%s%s%s%s\n", wid, x->backend->id,
		       x->backend->clock == TL_CLOCK_CYCLES ? "cycles" : "wall", x->backend->unit,
		       res, ovh, x->available ? "available" : "unavailable: ",
		       x->available ? (x->backend->simulated ? " (simulated)" : "") : x->reason,
		       x->available && x->reason[0] ? " (" : "", x->available ? x->reason : "",
		       x->available && x->reason[0] ? ")" : "");
		if (cost[0])
			printf("  %-*s  %s\n", wid, "", cost);
	}
}

static json_t *backends_to_json(const struct tl_host *h, const struct tl_probe *bi, size_t n)
{
	json_t *a = tl_json_array();

	for (size_t i = 0; i < n; i++) {
		const struct tl_probe *x = &bi[i];
		char cost[TL_WHY_MAX];

		tl_probe_cost_words(x, &h->cost, cost, sizeof cost);
		tl_json_append(
			a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:b, s:o, s:b}",
				     "id", x->backend->id, "family", x->backend->family, "clock",
				     x->backend->clock == TL_CLOCK_CYCLES ? "cycles" : "wall", "unit",
				     x->backend->unit, "how", x->backend->how, "available",
				     x->available, "reason",
				     x->available ? json_null() : json_string(x->reason), "probe",
				     x->available && x->reason[0] ? json_string(x->reason) : json_null(),
				     "resolution_ns", tl_json_real(x->resolution_ns), "overhead_ns",
				     tl_json_real(x->overhead_ns), "overhead_sd_ns",
				     tl_json_real(x->overhead_sd_ns), "syscall_per_read",
				     x->syscall_per_read, "cost",
				     cost[0] ? json_string(cost) : json_null(), "simulated",
				     x->backend->simulated));
	}
	return a;
}

static int print_json(const struct tl_host *h, const struct tl_probe *bi, size_t n,
		      json_t *noise)
{
	char why[WHY_LEN];
	json_t *doc = tl_json_object();
	int rc = TL_EXIT_OK;

	tl_json_set(doc, "host", tl_host_to_json(h));
	tl_json_set(doc, "backends", backends_to_json(h, bi, n));
	tl_json_set(doc, "noise", noise);
	if (tl_json_write("-", doc, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab info: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	json_decref(doc);
	return rc;
}

struct info_opts {
	bool json;
	int cpu;
};

static void info_init(void *st)
{
	struct info_opts *o = st;

	o->cpu = -1;
}

static int info_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct info_opts *o = st;

	switch (c) {
	case OPT_JSON:
		o->json = true;
		return 0;
	case 'c':
		return opts_parse_cpu(arg, &o->cpu, why, whylen);
	case OPT_FIRST_FREE:
		tl_levels_remeasure();
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

static int info_exec(void *st)
{
	const struct info_opts *o = st;
	struct tl_probe *bi;
	struct tl_host host;
	char why[WHY_LEN];
	int cpu = o->cpu < 0 ? tl_cpu_default() : o->cpu, rc, nrc;
	struct tl_noise_probe pr;
	char nwhy[WHY_LEN];
	size_t n = 0;

	/* Resolution and overhead are measured where a run would sample. */
	if (tl_cpu_pin(cpu, why, sizeof why) < 0)
		fprintf(stderr, "ticklab info: %s (measuring unpinned)\n", why);
	tl_host_read("/", cpu, &host);
	tl_host_probe_clock(&host);
	tl_host_probe_ladder(&host);
	while (tl_backends[n])
		n++;
	bi = calloc(n ? n : 1, sizeof *bi);
	if (!bi) {
		fprintf(stderr, "ticklab info: out of memory\n");
		return TL_EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++)
		tl_backend_probe(tl_backends[i]->id, &host.cost, &bi[i]);
	tl_host_note_syscalls(&host, bi, n);
	nrc = tl_noise_probe_run(cpu, TL_NOISE_PROBE_SECONDS, &pr, nwhy, sizeof nwhy);
	if (o->json) {
		rc = print_json(&host, bi, n, noise_to_json(&pr, nrc, nwhy));
	} else {
		printf("ticklab %s\n", PACKAGE_VERSION);
		print_host(&host);
		print_noise(&pr, nrc, nwhy);
		print_backends(&host, bi, n);
		rc = TL_EXIT_OK;
	}
	free(bi);
	return rc;
}

const struct cli_command cli_cmd_info = {
	.name = "info",
	.summary = "the node and every timer backend's availability and reason",
	.usage = usage_text,
	.shortopts = "c:",
	.longopts = longopts,
	.no_operand_hint = "accepted: --json, --cpu C",
	.size = sizeof(struct info_opts),
	.init = info_init,
	.option = info_option,
	.exec = info_exec,
};
