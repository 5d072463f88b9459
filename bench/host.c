#include "config.h"

#include "bench/host.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#ifdef HAVE_CPUID_H
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TL_HOST_CPUID 1
#endif
#endif

#include "backends/backend.h"
#include "bench/host_words.h"
#include "bench/runner.h"
#include "bench/topology.h"

#define TSC_RESOLUTION_TRIES 2000

struct ctx {
	const char *root;
	bool live;
};

static void path_of(const struct ctx *c, const char *rel, char *buf, size_t len)
{
	size_t rl = strlen(c->root);
	snprintf(buf, len, "%s%s%s", c->root, rl && c->root[rl - 1] == '/' ? "" : "/", rel);
}

/* First line of root/rel into buf (trimmed); -1 when unreadable or empty. */
static int read_line(const struct ctx *c, const char *rel, char *buf, size_t len)
{
	char path[4096];

	path_of(c, rel, path, sizeof path);
	return tl_sysfs_read_line(path, buf, len);
}

static bool exists(const struct ctx *c, const char *rel)
{
	char path[4096];
	struct stat st;
	path_of(c, rel, path, sizeof path);
	return stat(path, &st) == 0;
}

/* Copies with truncation (facts are display text; a cut-off tail is fine). */
static void copy(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);
	if (len == 0)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "key\t: value" lines of the first processor block of /proc/cpuinfo. */
static void read_cpuinfo(const struct ctx *c, struct tl_host *h, bool *hv_flag)
{
	char path[4096], line[4096];
	FILE *f;

	copy(h->model, sizeof h->model, "unknown");
	copy(h->vendor, sizeof h->vendor, "unknown");
	*hv_flag = false;
	path_of(c, "proc/cpuinfo", path, sizeof path);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':'), *val;
		size_t kl;
		if (line[0] == '\n')
			break; /* end of the first processor block */
		if (!colon)
			continue;
		val = colon + 1 + strspn(colon + 1, " \t");
		val[strcspn(val, "\n")] = '\0';
		for (kl = (size_t)(colon - line); kl && isspace((unsigned char)line[kl - 1]); kl--)
			;
		if (kl == 10 && !strncmp(line, "model name", kl))
			copy(h->model, sizeof h->model, val);
		else if (kl == 9 && !strncmp(line, "vendor_id", kl))
			copy(h->vendor, sizeof h->vendor, val);
		else if ((kl == 5 && !strncmp(line, "flags", kl)) ||
			 (kl == 8 && !strncmp(line, "Features", kl))) {
			char *p = val;
			while ((p = strstr(p, "hypervisor")) != NULL) {
				bool start = p == val || p[-1] == ' ';
				bool end = p[10] == '\0' || p[10] == ' ';
				if (start && end)
					*hv_flag = true;
				p += 10;
			}
		}
	}
	fclose(f);
}

/* CPUID leaf 0x40000000: the hypervisor's vendor signature. */
static void cpuid_hypervisor(char *buf, size_t len)
{
	buf[0] = '\0';
#ifdef TL_HOST_CPUID
	static const struct {
		const char *sig, *name;
	} known[] = {
		{ "KVMKVMKVM", "KVM" },        { "Microsoft Hv", "Hyper-V" },
		{ "VMwareVMware", "VMware" },  { "XenVMMXenVMM", "Xen" },
		{ "TCGTCGTCGTCG", "QEMU TCG" }, { "bhyve bhyve ", "bhyve" },
		{ "ACRNACRNACRN", "ACRN" },    { " lrpepyh  vr", "Parallels" },
		{ "VBoxVBoxVBox", "VirtualBox" },
	};
	unsigned a, b, cc, d;
	char sig[13];
	__cpuid(1, a, b, cc, d);
	if (!(cc & (1u << 31)))
		return; /* the hypervisor-present bit */
	__cpuid(0x40000000, a, b, cc, d);
	memcpy(sig, &b, 4);
	memcpy(sig + 4, &cc, 4);
	memcpy(sig + 8, &d, 4);
	sig[12] = '\0';
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (!strncmp(sig, known[i].sig, strlen(known[i].sig))) {
			copy(buf, len, known[i].name);
			return;
		}
	for (int i = 0; i < 12; i++)
		if (!isprint((unsigned char)sig[i]))
			sig[i] = '.';
	snprintf(buf, len, "unknown (CPUID signature \"%s\")", sig);
#else
	(void)len;
#endif
}

static void read_hypervisor(const struct ctx *c, struct tl_host *h, bool hv_flag)
{
	char type[64];
	cpuid_hypervisor(h->hypervisor, sizeof h->hypervisor);
	if (h->hypervisor[0] == '\0' || !c->live) {
		if (read_line(c, "sys/hypervisor/type", type, sizeof type) == 0)
			copy(h->hypervisor, sizeof h->hypervisor, type);
		else if (hv_flag)
			copy(h->hypervisor, sizeof h->hypervisor, "yes (cpuinfo flag)");
		else
			copy(h->hypervisor, sizeof h->hypervisor, "none");
	}
	h->vm = strcmp(h->hypervisor, "none") != 0;
}

static void read_freq(const struct ctx *c, struct tl_host *h)
{
	char rel[128], v[64];

	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", h->cpu);
	if (read_line(c, rel, v, sizeof v) == 0)
		copy(h->governor, sizeof h->governor, v);
	else
		copy(h->governor, sizeof h->governor, "none (no cpufreq)");

	h->turbo_on = -1;
	if (read_line(c, "sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof v) == 0) {
		h->turbo_on = strcmp(v, "0") == 0;
		snprintf(h->turbo, sizeof h->turbo, "%s (intel_pstate/no_turbo = %s)",
			 h->turbo_on ? "on" : "off", v);
	} else if (read_line(c, "sys/devices/system/cpu/cpufreq/boost", v, sizeof v) == 0) {
		h->turbo_on = strcmp(v, "0") != 0;
		snprintf(h->turbo, sizeof h->turbo, "%s (cpufreq/boost = %s)",
			 h->turbo_on ? "on" : "off", v);
	} else {
		copy(h->turbo, sizeof h->turbo,
		     "unknown (no intel_pstate/no_turbo or cpufreq/boost)");
	}
}

static void read_perf(const struct ctx *c, struct tl_host *h)
{
	static const char *const pmus[] = { "sys/bus/event_source/devices/cpu",
					    "sys/bus/event_source/devices/cpu_core",
					    "sys/bus/event_source/devices/armv8_pmuv3_0" };
	char v[32], rel[128];

	h->paranoid = -100;
	if (read_line(c, "proc/sys/kernel/perf_event_paranoid", v, sizeof v) == 0)
		h->paranoid = atoi(v);
	h->pmu = false;
	copy(h->rdpmc, sizeof h->rdpmc, "no cpu PMU device");
	for (size_t i = 0; i < sizeof pmus / sizeof pmus[0] && !h->pmu; i++) {
		if (!exists(c, pmus[i]))
			continue;
		h->pmu = true;
		snprintf(rel, sizeof rel, "%s/rdpmc", pmus[i]);
		if (read_line(c, rel, v, sizeof v))
			copy(h->rdpmc, sizeof h->rdpmc, "no rdpmc control (not x86?)");
		else
			snprintf(h->rdpmc, sizeof h->rdpmc, "%s (%s)", v,
				 !strcmp(v, "0")   ? "rdpmc disabled"
				 : !strcmp(v, "1") ? "rdpmc for processes with an open perf event"
				 : !strcmp(v, "2") ? "rdpmc for any process"
						   : "unknown setting");
	}
}

/* Counts CPUs in a list like "1,41" or "0-3,64-67", other than self. */
static int count_others(const char *list, int self)
{
	int n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				break;
		}
		for (long x = a; x <= b && x - a < 4096; x++)
			n += x != self;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

/* Busy share of CPU cpu from two /proc/stat readings. */
static int stat_cpu(int cpu, unsigned long long *busy, unsigned long long *total)
{
	char line[512], want[32];
	FILE *f = fopen("/proc/stat", "r");
	int len = snprintf(want, sizeof want, "cpu%d ", cpu);
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v[8] = { 0 };
		if (strncmp(line, want, (size_t)len))
			continue;
		sscanf(line + len, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		       &v[3], &v[4], &v[5], &v[6], &v[7]);
		*total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
		*busy = *total - v[3] - v[4]; /* minus idle and iowait */
		fclose(f);
		return 0;
	}
	fclose(f);
	return -1;
}

static double sibling_busy(const char *list, int self)
{
	unsigned long long b0[64], t0[64], b1, t1, busy = 0, total = 0;
	int cpus[64], n = 0;
	const struct timespec wait = { 0, 100 * 1000 * 1000 };
	const char *p = list;

	while (*p && n < 64) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long x = a; x <= b && n < 64; x++)
			if (x != self && stat_cpu((int)x, &b0[n], &t0[n]) == 0)
				cpus[n++] = (int)x;
		if (*end != ',')
			break;
		p = end + 1;
	}
	if (n == 0)
		return -1;
	nanosleep(&wait, NULL);
	for (int i = 0; i < n; i++) {
		if (stat_cpu(cpus[i], &b1, &t1))
			return -1;
		busy += b1 - b0[i];
		total += t1 - t0[i];
	}
	return total ? (double)busy / (double)total : 0;
}

static void read_smt(const struct ctx *c, struct tl_host *h)
{
	char rel[128];
	snprintf(rel, sizeof rel, "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 h->cpu);
	h->nsiblings = 0;
	h->sibling_busy = -1;
	if (read_line(c, rel, h->smt_siblings, sizeof h->smt_siblings)) {
		h->smt_siblings[0] = '\0';
		return;
	}
	h->nsiblings = count_others(h->smt_siblings, h->cpu);
	if (h->nsiblings && c->live)
		h->sibling_busy = sibling_busy(h->smt_siblings, h->cpu);
}

static void read_misc(const struct ctx *c, struct tl_host *h)
{
	char v[128];
	if (read_line(c, "sys/devices/system/clocksource/clocksource0/current_clocksource", v,
		      sizeof v) == 0)
		copy(h->clocksource, sizeof h->clocksource, v);
	else
		copy(h->clocksource, sizeof h->clocksource, "unknown");
	if (read_line(c, "proc/sys/kernel/osrelease", v, sizeof v) == 0)
		copy(h->kernel, sizeof h->kernel, v);
	else
		copy(h->kernel, sizeof h->kernel, "unknown");

	char path[4096], line[256];
	FILE *f;
	h->mem_bytes = 0;
	path_of(c, "proc/meminfo", path, sizeof path);
	if ((f = fopen(path, "r")) != NULL) {
		unsigned long long kb;
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
				h->mem_bytes = (uint64_t)kb * 1024;
				break;
			}
		fclose(f);
	}
}

/* The TSC's step from whichever TSC reader opens: on a node whose CPUID
 * hides RDTSCP the fenced rdtsc still sees the same counter. */
static void read_tsc_step(struct tl_host *h)
{
	static const char *const readers[] = {"barrier-tsc", "barrier-rdtsc", "rdtsc"};
	char why[TL_WHY_MAX];

	for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++) {
		struct tl_timer t;
		double ticks;

		if (tl_timer_open(&t, readers[i], why, sizeof why) < 0)
			continue;
		copy(h->tsc_reader, sizeof h->tsc_reader, readers[i]);
		ticks = tl_timer_resolution(&t, TSC_RESOLUTION_TRIES);
		if (ticks > 0) {
			h->tsc_resolution_ticks = ticks;
			h->tsc_resolution_ns = ticks * t.ns_per_unit;
		}
		tl_timer_close(&t);
		return;
	}
}

/* Facts only the running machine can give. */
static void read_live(const struct ctx *c, struct tl_host *h)
{
	h->tsc_ghz = 0;
	h->tsc_resolution_ns = 0;
	h->tsc_resolution_ticks = 0;
	if (!c->live) {
		bool intel = !strcmp(h->vendor, "GenuineIntel");
		h->lfence = intel ? 1 : -1;
		copy(h->lfence_how, sizeof h->lfence_how,
		     intel ? "Intel: always (from the cpuinfo vendor)"
			   : "not probed (not the running machine)");
		copy(h->papi, sizeof h->papi, "not probed (not the running machine)");
		return;
	}
	h->tsc_ghz = tl_tsc_ghz();
	read_tsc_step(h);
	tl_syscall_cost_measure(&h->cost);
	h->lfence = tl_x86_lfence_serializing(h->lfence_how, sizeof h->lfence_how);
	tl_papi_describe(h->papi, sizeof h->papi);
}

static struct tl_spoiler *spoil(struct tl_host *h, enum tl_spoiler_id id, const char *what,
				bool bad, const char *seen)
{
	struct tl_spoiler *s = &h->spoilers[id];
	s->bad = bad;
	s->what = what;
	copy(s->seen, sizeof s->seen, seen);
	return s;
}

/* What reading the clock costs here, from the measurement, never from the
 * clocksource's name: kvm-clock serves clock_gettime from the vDSO too. */
static void spoil_clock_reads(struct tl_host *h)
{
	int vdso = tl_vdso_verdict(&h->cost);
	struct tl_spoiler *s = spoil(h, TL_SPOILER_CLOCKSOURCE, "clocksource", vdso == 0,
				     h->clocksource);
	char slow[200] = "";

	if (h->syscall_readers[0])
		snprintf(slow, sizeof slow, "; a syscall per read: %s", h->syscall_readers);
	if (vdso < 0)
		snprintf(s->why, sizeof s->why,
			 "clock_gettime's cost was not measured (not the running machine)");
	else
		snprintf(s->why, sizeof s->why, "clock_gettime %s: %.0f ns a call, %.0f ns as a "
			 "system call%s",
			 vdso ? "is served in user space (vDSO)" : "enters the kernel on every read",
			 h->cost.vdso_ns, h->cost.syscall_ns, slow);
}

void tl_host_note_syscalls(struct tl_host *h, const struct tl_probe *probes, size_t n)
{
	size_t used = 0;

	h->syscall_readers[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		int k;

		if (!probes[i].available || !probes[i].syscall_per_read)
			continue;
		k = snprintf(h->syscall_readers + used, sizeof h->syscall_readers - used,
			     "%s%s %.0f ns", used ? ", " : "", probes[i].backend->id,
			     probes[i].overhead_ns);
		if (k < 0 || (size_t)k >= sizeof h->syscall_readers - used)
			break;
		used += (size_t)k;
	}
	spoil_clock_reads(h);
}

void tl_host_diagnose(struct tl_host *h, bool x86)
{
	struct tl_spoiler *s;
	char seen[96];

	s = spoil(h, TL_SPOILER_VM, "vm", h->vm, h->hypervisor);
	if (h->vm && h->tsc_resolution_ns > 0)
		snprintf(s->why, sizeof s->why,
			 "a VM: the host can preempt this vCPU at any moment, the TSC steps by "
			 "%.3g ns here, and PMU access depends on the hypervisor",
			 h->tsc_resolution_ns);
	else
		copy(s->why, sizeof s->why,
		     h->vm ? "a VM: the host can preempt this vCPU at any moment, the TSC may "
			     "step coarsely, and PMU access depends on the hypervisor"
			   : "bare metal: no hypervisor between the timer and the hardware");

	s = spoil(h, TL_SPOILER_PMU, "pmu", !h->pmu || h->paranoid > 2, h->pmu ? h->rdpmc : "none");
	copy(s->why, sizeof s->why,
	     !h->pmu ? "no CPU PMU device (a VM without vPMU?): barrier-pmc, papi-read and "
		       "perf-read cannot count cycles"
	     : h->paranoid > 2 ? "perf_event_paranoid > 2: unprivileged perf events are refused, "
				 "so cycle-counting backends need root or a lower setting"
			       : "a CPU PMU is present: cycle-counting backends can run");

	s = spoil(h, TL_SPOILER_GOVERNOR, "governor",
		  strncmp(h->governor, "none", 4) && strcmp(h->governor, "performance"),
		  h->governor);
	copy(s->why, sizeof s->why,
	     !strncmp(h->governor, "none", 4)
		     ? "no cpufreq here: the clock is set by firmware or the host, not this OS"
	     : s->bad ? "the core clock follows the load, so ns per ADD drifts during a run; "
			"use the performance governor"
		      : "the performance governor keeps the core clock steady");

	snprintf(seen, sizeof seen, "%s", h->turbo);
	s = spoil(h, TL_SPOILER_TURBO, "turbo", h->turbo_on == 1, seen);
	copy(s->why, sizeof s->why,
	     h->turbo_on == 1 ? "turbo raises the clock with temperature and other cores' load, "
				"so cycles and ns drift apart during a run"
	     : h->turbo_on == 0 ? "turbo off: the core clock stays at its base frequency"
				: "turbo state unknown here (a VM's host decides)");

	/* CPU lists said as lists: "smt 1" read as a count */
	tl_host_smt_others(h, seen, sizeof seen);
	s = spoil(h, TL_SPOILER_SMT, "smt", h->nsiblings > 0,
		  !h->smt_siblings[0] ? "unknown (no thread_siblings_list)"
		  : h->nsiblings	 ? "shared core" : "own core");
	if (h->nsiblings > 0 && h->sibling_busy >= 0)
		snprintf(s->why, sizeof s->why,
			 "CPU %d shares its core with sibling CPU%s %s, %.0f%% busy now: their "
			 "work takes issue slots and caches from the timed code",
			 h->cpu, h->nsiblings > 1 ? "s" : "", seen, 100 * h->sibling_busy);
	else if (h->nsiblings > 0)
		snprintf(s->why, sizeof s->why,
			 "CPU %d shares its core with sibling CPU%s %s: their work takes issue "
			 "slots and caches from the timed code",
			 h->cpu, h->nsiblings > 1 ? "s" : "", seen);
	else if (h->smt_siblings[0])
		snprintf(s->why, sizeof s->why,
			 "CPU %d has its core to itself (its core's CPU list: %s)", h->cpu,
			 h->smt_siblings);
	else
		snprintf(s->why, sizeof s->why,
			 "whether CPU %d shares its core is unknown: sysfs has no thread_siblings_list",
			 h->cpu);

	s = spoil(h, TL_SPOILER_LFENCE, "lfence", x86 && h->lfence != 1,
		  !x86 ? "not x86" : h->lfence == 1 ? "serializing" : h->lfence == 0 ? "not serializing" : "unknown");
	copy(s->why, sizeof s->why,
	     !x86 ? "not x86: the Arm barrier uses ISB instead"
	     : h->lfence == 1 ? "LFENCE waits for earlier instructions, so the barrier keeps work "
				"from crossing the timestamps"
	     : h->lfence == 0 ? "LFENCE does not wait for earlier instructions here: work can "
				"cross the barrier's timestamps (negative tau_e)"
			      : "cannot tell whether LFENCE is dispatch-serializing: barrier "
				"results may include work moved across the timestamps");

	s = spoil(h, TL_SPOILER_CLOCK, "clock", false, "not measured");
	copy(s->why, sizeof s->why,
	     "`ticklab info` and the TUI's info screen measure whether the core clock holds "
	     "still (0.2 s of a 20000-ADD chain)");

	s = spoil(h, TL_SPOILER_CACHES, "caches", false, "not measured");
	copy(s->why, sizeof s->why,
	     "`ticklab info` and the TUI's info screen chase doubling sizes to see whether the "
	     "cache levels end where the reported sizes say");

	spoil_clock_reads(h);
}

/* A fixture tree carries its caches as an hwloc XML export, topology.xml:
 * hwloc reads the live sysfs and CPUID, never a tree under another root. */
static int read_topology(const struct ctx *c, struct tl_host *h)
{
	char xml[4096];

	if (c->live)
		return tl_topology_read_live(h->cpu, &h->topo, h->topo_why, sizeof h->topo_why);
	memset(&h->topo, 0, sizeof h->topo);
	if (exists(c, "topology.xml")) {
		path_of(c, "topology.xml", xml, sizeof xml);
		return tl_topology_read_xml(xml, h->cpu, &h->topo, h->topo_why,
					    sizeof h->topo_why);
	}
	snprintf(h->topo_why, sizeof h->topo_why,
		 "no cache information: %s has no topology.xml (an hwloc XML export)", c->root);
	return -1;
}

int tl_host_read(const char *root, int cpu, struct tl_host *h)
{
	struct ctx c = { .root = root && root[0] ? root : "/" };
	bool hv_flag, x86;

	c.live = !strcmp(c.root, "/");
	memset(h, 0, sizeof *h);
	h->cpu = cpu >= 0 ? cpu : c.live ? tl_cpu_default() : 0;
	read_cpuinfo(&c, h, &hv_flag);
	h->have_topology = read_topology(&c, h) == 0;
	read_hypervisor(&c, h, hv_flag);
	read_freq(&c, h);
	read_perf(&c, h);
	read_smt(&c, h);
	read_misc(&c, h);
	read_live(&c, h);
#if defined(__x86_64__) || defined(__i386__)
	x86 = c.live || !strcmp(h->vendor, "GenuineIntel") || !strcmp(h->vendor, "AuthenticAMD");
#else
	x86 = !c.live && (!strcmp(h->vendor, "GenuineIntel") || !strcmp(h->vendor, "AuthenticAMD"));
#endif
	tl_host_diagnose(h, x86);
	return 0;
}

size_t tl_host_spoiled(const struct tl_host *h)
{
	size_t n = 0;
	for (size_t i = 0; i < TL_SPOILER_COUNT; i++)
		n += h->spoilers[i].bad;
	return n;
}
