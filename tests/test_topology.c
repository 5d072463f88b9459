/* Cache topology from hwloc XML fixtures and the live machine (checked
 * against the node itself: its sysfs folder and a chase), host facts from
 * sysfs fixture trees. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hwloc.h>

#include "bench/host.h"
#include "bench/levels.h"
#include "bench/runner.h"
#include "bench/topology.h"
#include "tests/tap.h"

static const char *root_of(const char *name)
{
	static char root[4096];
	const char *src = getenv("TL_TOP_SRCDIR");
	snprintf(root, sizeof root, "%s/tests/fixtures/%s", src ? src : ".", name);
	return root;
}

/* An hwloc XML fixture: a file under tests/fixtures/, or a tree's topology.xml. */
static const char *xml_of(const char *name)
{
	static char xml[4096];
	snprintf(xml, sizeof xml, "%s%s", root_of(name),
		 strstr(name, ".xml") ? "" : "/topology.xml");
	return xml;
}

static int read_xml(const char *name, int cpu, struct tl_topology *t, char *why, size_t len)
{
	int rc = tl_topology_read_xml(xml_of(name), cpu, t, why, len);
	if (rc)
		tap_diag("%s cpu%d: %s", name, cpu, why);
	return rc;
}

/* Expected values come from the synthetic descriptions in
 * tests/fixtures/make-topology-fixtures.sh (2 x 20 cores x 2 threads). */
static void test_xeon(void)
{
	struct tl_topology t;
	char why[512];
	int rc = read_xml("sysfs-xeon6248", 0, &t, why, sizeof why);

	ok(rc == 0, "Xeon 6248 cpu0 reads");
	is_int(t.ncaches, 4, "four caches (L1d, L1i, L2, L3)");
	is_int(t.l1d, 32 * 1024, "L1d 32K");
	is_int(t.l2, 1024 * 1024, "L2 1024K");
	is_int(t.l3, 28160 * 1024, "L3 28160K (27.5MiB)");
	ok(t.caches[0].level == 1 && !strcmp(t.caches[0].type, "Data"), "first is L1 Data");
	ok(t.caches[1].level == 1 && !strcmp(t.caches[1].type, "Instruction"),
	   "second is L1 Instruction");
	ok(t.caches[2].level == 2 && !strcmp(t.caches[2].type, "Unified"), "third is L2 Unified");
	is_int(t.caches[1].bytes, 32 * 1024, "L1i 32K");
	is_int(t.caches[3].line, 64, "coherency line 64");
	ok(!strcmp(t.caches[0].shared_cpus, "0,40"), "L1d shared with the SMT sibling: %s",
	   t.caches[0].shared_cpus);
	ok(!strcmp(t.caches[3].shared_cpus, "0-19,40-59"), "L3 shared by package 0: %s",
	   t.caches[3].shared_cpus);
	ok(strstr(t.source, "hwloc XML file ") == t.source &&
		   strstr(t.source, "sysfs-xeon6248/topology.xml (written by hwloc 2.9.0)"),
	   "source names the XML file and its writer: %s", t.source);

	rc = read_xml("sysfs-xeon6248", 5, &t, why, sizeof why);
	ok(rc == 0 && t.l1d == 32768 && !strcmp(t.caches[0].shared_cpus, "5,45"),
	   "cpu5 reads with its own sharing list");
	rc = read_xml("sysfs-xeon6248", 60, &t, why, sizeof why);
	ok(rc == 0 && !strcmp(t.caches[3].shared_cpus, "20-39,60-79"),
	   "cpu60 (package 1's second thread) sees package 1's L3");
	rc = tl_topology_read_xml(xml_of("sysfs-xeon6248"), -1, &t, why, sizeof why);
	ok(rc == -1 && strstr(why, "-1"), "negative CPU refused");
	rc = tl_topology_read_xml(xml_of("sysfs-xeon6248"), 80, &t, why, sizeof why);
	ok(rc == -1 && strstr(why, "CPU 80 is not in the topology") && strstr(why, "0-79"),
	   "CPU 80 refused, naming the CPUs there are: %s", why);
}

static void test_epyc(void)
{
	struct tl_topology t;
	char why[512];
	int rc = read_xml("sysfs-epyc7742", 3, &t, why, sizeof why);

	ok(rc == 0, "EPYC 7742 cpu3 reads");
	is_int(t.l1d, 32 * 1024, "EPYC L1d 32K");
	is_int(t.l2, 512 * 1024, "EPYC L2 512K");
	is_int(t.l3, 16 * 1024 * 1024, "EPYC L3 16M (one CCX)");
	ok(!strcmp(t.caches[3].shared_cpus, "0-3,64-67"), "EPYC L3 shared by one CCX");
	rc = read_xml("sysfs-epyc7742", 127, &t, why, sizeof why);
	ok(rc == 0 && !strcmp(t.caches[3].shared_cpus, "60-63,124-127"),
	   "EPYC cpu127 is in the last CCX");
}

/* The node without a sysfs cache folder, as its own hwloc exported it
 * (shared/nodes/amd-zen5-bhyve-guest): caches from CPUID, one core per L3. */
static void test_zen5_guest(void)
{
	struct tl_topology t;
	char why[512];
	int rc = read_xml("hwloc-amd-zen5-bhyve-guest.xml", 1, &t, why, sizeof why);

	ok(rc == 0, "Zen 5 bhyve guest cpu1 reads");
	is_int(t.ncaches, 4, "Zen 5: four caches");
	is_int(t.l1d, 48 * 1024, "Zen 5: L1d 48K");
	is_int(t.caches[1].bytes, 32 * 1024, "Zen 5: L1i 32K");
	is_int(t.l2, 1024 * 1024, "Zen 5: L2 1M");
	is_int(t.l3, 532676608, "Zen 5: L3 508M");
	ok(!strcmp(t.caches[3].shared_cpus, "1"), "Zen 5: each vCPU has its own L3");
	ok(strstr(t.source, "hwloc-amd-zen5-bhyve-guest.xml (written by hwloc 2.9.0)") != NULL,
	   "Zen 5: source %s", t.source);
}

static void refused(const char *name, int cpu, const char *needle)
{
	struct tl_topology t;
	char why[512] = "";
	int rc = tl_topology_read_xml(xml_of(name), cpu, &t, why, sizeof why);
	ok(rc == -1 && strstr(why, needle), "%s cpu%d refused: %s", name, cpu, needle);
	if (!strstr(why, needle))
		tap_diag("why: %s", why);
}

static void test_broken(void)
{
	refused("hwloc-nocache.xml", 0, "no cache information: hwloc found no caches above CPU 0");
	refused("hwloc-truncated.xml", 0, "hwloc cannot load XML file");
	refused("no-such-file.xml", 0, "hwloc cannot load XML file");
}

static bool sysfs_has_caches(int cpu)
{
	char dir[128];
	struct stat st;
	snprintf(dir, sizeof dir, "/sys/devices/system/cpu/cpu%d/cache", cpu);
	return stat(dir, &st) == 0;
}

static void test_live(void)
{
	struct tl_topology t;
	char why[512];
	bool sysfs = sysfs_has_caches(0);
	int rc = tl_topology_read_live(0, &t, why, sizeof why);

	if (rc) {
		ok(strstr(why, "no cache information") != NULL, "live: no caches: %s", why);
		return;
	}
	ok(t.ncaches > 0 && t.l1d > 0, "live cpu0: %zu caches, L1d %llu bytes", t.ncaches,
	   (unsigned long long)t.l1d);
	ok((!t.l2 || t.l1d < t.l2) && (!t.l3 || t.l2 < t.l3), "live: L1d < L2 < L3");
	/* Replaying another node's facts (its XML or CPUID dump) names them. */
	if (getenv("HWLOC_XMLFILE") || getenv("HWLOC_CPUID_PATH"))
		ok(strstr(t.source, getenv("HWLOC_XMLFILE") ? "(HWLOC_XMLFILE)" : "(HWLOC_CPUID_PATH)") ||
			   strstr(t.source, ": Linux sysfs"),
		   "live, replayed: source %s", t.source);
	else if (sysfs)
		ok(strstr(t.source, ": Linux sysfs") != NULL, "live: sysfs has caches, source %s",
		   t.source);
	else
#if defined(__x86_64__) || defined(__i386__)
		ok(strstr(t.source, ": x86 CPUID (no sysfs cache folder)") != NULL,
		   "live: no sysfs cache folder, source %s", t.source);
#else
		ok(strstr(t.source, "(no sysfs cache folder)") != NULL,
		   "live: no sysfs cache folder, source %s", t.source);
#endif
	/* No comparison with glibc's sysconf: two claims about the node may
	 * disagree (the Zen 3 KVM guest: hwloc 32 MiB from CPUID 8000_001Dh,
	 * glibc 256 MiB from 8000_0006h); test_live_levels checks the sizes
	 * against what the node does instead. */
}

/* ns per load of a chase over `bytes`, written apart from the lab (its own
 * shuffle and clock): the fastest of 5 rounds of 2^20 loads. */
static double own_chase_ns(size_t bytes)
{
	size_t lines = bytes / 64, words = 64 / sizeof(void *);
	void **buf = NULL, **p;
	size_t *order = malloc(lines * sizeof *order);
	double best = INFINITY;
	unsigned seed = 12345;

	if (!order || posix_memalign((void **)&buf, 2u << 20, (lines * 64 + (2u << 20) - 1) /
								  (2u << 20) * (2u << 20))) {
		free(order);
		return NAN;
	}
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j = (size_t)rand_r(&seed) % i, tmp = order[i];
		order[i] = order[j];
		order[j] = tmp;
	}
	for (size_t i = 0; i < lines; i++)
		buf[order[i] * words] = &buf[order[(i + 1) % lines] * words];
	p = buf;
	for (int r = 0; r < 5; r++) {
		struct timespec a, b;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < (1 << 20); i++)
			p = (void **)*p;
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
		     (1 << 20);
		if (ns < best)
			best = ns;
	}
	if (p == NULL)
		best = NAN; /* keeps the chase from being optimised away */
	free(order);
	free(buf);
	return best;
}

/* The levels the lab states (a chase of its own, bench/levels.c) against
 * the node: a chase written here reads the first level fast and memory
 * slow where the lab says they are, and the lab's agreement flags follow
 * its stated 2x rule. Expectations come from this node only. */
static void test_live_levels(void)
{
	const char *off = getenv("TL_LEVELS");
	int cpu = tl_cpu_default();
	struct tl_topology t;
	const struct tl_levels *lv;
	char why[512];
	cpu_set_t one, before;
	double prev = 0, fast, slow;

	if (off && !strcmp(off, "off")) {
		ok(1, "# SKIP live levels: TL_LEVELS=off");
		return;
	}
	lv = tl_levels_get(cpu, tl_topology_read_live(cpu, &t, why, sizeof why) ? NULL : &t);
	if (!lv->measured) {
		ok(lv->why[0] != '\0', "live levels not measured: %s", lv->why);
		return;
	}
	ok(lv->found.ncaches >= 1, "live levels: %zu cache levels seen, memory %s",
	   lv->found.ncaches, lv->found.memory_seen ? "seen" : "not reached");
	for (size_t i = 0; i < lv->nlevels; i++) {
		const struct tl_memory_level *l = &lv->level[i];

		if (!l->seen)
			continue;
		ok(l->latency_ns > prev, "live %s: %.3g ns, slower than the level before", l->name,
		   l->latency_ns);
		prev = l->latency_ns;
		if (l->cpuid_bytes && strcmp(l->name, "memory"))
			ok(l->cpuid_agrees == ((double)l->cpuid_bytes >= l->boundary_bytes / 2.0 &&
					       (!l->boundary_hi_bytes ||
						l->cpuid_bytes <= 2 * l->boundary_hi_bytes)),
			   "live %s: reported %llu, step %llu-%llu: agrees=%d by the 2x rule", l->name,
			   (unsigned long long)l->cpuid_bytes, (unsigned long long)l->boundary_bytes,
			   (unsigned long long)l->boundary_hi_bytes, l->cpuid_agrees);
	}
	if (!lv->found.memory_seen || lv->found.ncaches == 0)
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	sched_getaffinity(0, sizeof before, &before);
	sched_setaffinity(0, sizeof one, &one);
	fast = own_chase_ns((size_t)lv->found.cache[0].lo_bytes);
	slow = own_chase_ns(2 * (size_t)lv->found.memory.lo_bytes);
	sched_setaffinity(0, sizeof before, &before);
	ok(slow > 3 * fast, "live: an own chase reads %.3g ns within the stated first level "
	   "(%.0f KiB) and %.3g ns past the stated start of memory", fast,
	   lv->found.cache[0].lo_bytes / 1024, slow);
	ok(fast <= 2 * lv->found.cache[0].ns && fast >= lv->found.cache[0].ns / 2,
	   "live: the stated first level's %.3g ns is within 2x of an own chase's %.3g ns",
	   lv->found.cache[0].ns, fast);
}

/* hwloc honours HWLOC_XMLFILE for the live topology: the source must say so. */
static void test_live_xmlfile(void)
{
	struct tl_topology t;
	char why[512];
	int rc;

	setenv("HWLOC_XMLFILE", xml_of("hwloc-amd-zen5-bhyve-guest.xml"), 1);
	rc = tl_topology_read_live(0, &t, why, sizeof why);
	unsetenv("HWLOC_XMLFILE");
	ok(rc == 0 && t.l1d == 48 * 1024 && t.l3 == 532676608, "HWLOC_XMLFILE: the file's caches");
	ok(strstr(t.source, "hwloc-amd-zen5-bhyve-guest.xml (HWLOC_XMLFILE)") != NULL,
	   "HWLOC_XMLFILE: source %s", t.source);
}

/* Sizes hwloc's Linux backend read from a sysfs tree say so: the branch a
 * node with sysfs caches takes, checked also where this node has none. */
static void test_live_fsroot(void)
{
	struct tl_topology t;
	char why[512], want[4200];
	int rc;

	setenv("HWLOC_FSROOT", root_of("fsroot-sysfs-caches"), 1);
	rc = tl_topology_read_live(1, &t, why, sizeof why);
	snprintf(want, sizeof want, ": Linux sysfs under %s (HWLOC_FSROOT)",
		 root_of("fsroot-sysfs-caches"));
	unsetenv("HWLOC_FSROOT");
	ok(rc == 0 && t.ncaches == 4 && t.l1d == 32768 && t.l2 == 1048576 &&
		   t.l3 == 28160 * 1024,
	   "HWLOC_FSROOT: the tree's L1d 32K, L2 1M, L3 28160K");
	ok(rc == 0 && !strcmp(t.caches[0].shared_cpus, "1") &&
		   !strcmp(t.caches[3].shared_cpus, "0-1"),
	   "HWLOC_FSROOT: cpu1's own L1d, the shared L3");
	ok(strstr(t.source, want) != NULL, "HWLOC_FSROOT: source %s", t.source);
}

/* Where sysfs has no cache folder, the caches are hwloc's x86 backend's: with
 * it switched off there are none, which proves the source line right. */
static void test_live_without_cpuid(void)
{
	struct tl_topology t;
	char why[512];
	int rc;

	if (sysfs_has_caches(0)) {
		ok(1, "# SKIP sysfs has a cache folder: the x86 backend is not the source");
		return;
	}
	setenv("HWLOC_COMPONENTS", "-x86", 1);
	rc = tl_topology_read_live(0, &t, why, sizeof why);
	unsetenv("HWLOC_COMPONENTS");
#if defined(__x86_64__) || defined(__i386__)
	const char *said = "no cache information: hwloc found no caches above CPU 0 "
			   "(this machine has no sysfs cache folder, and CPUID gave none)";
#else
	const char *said = "no cache information: hwloc found no caches above CPU 0 "
			   "(this machine has no sysfs cache folder)";
#endif
	ok(rc == -1 && strstr(why, said),
	   "no sysfs folder and no x86 backend: no caches, said so: %s", why);
}

static const struct tl_spoiler *sp(const struct tl_host *h, enum tl_spoiler_id id)
{
	return &h->spoilers[id];
}

static void test_host_fixtures(void)
{
	struct tl_host h;

	tl_host_read(root_of("sysfs-xeon6248"), 0, &h);
	ok(!strcmp(h.model, "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"), "Xeon: model");
	ok(!strcmp(h.vendor, "GenuineIntel"), "Xeon: vendor");
	ok(h.have_topology && h.topo.l3 == 28160 * 1024, "Xeon: topology");
	ok(strstr(h.topo.source, "sysfs-xeon6248/topology.xml") != NULL,
	   "Xeon: the tree's caches come from its topology.xml: %s", h.topo.source);
	ok(!h.vm && !strcmp(h.hypervisor, "none"), "Xeon: bare metal");
	ok(!strcmp(h.governor, "performance"), "Xeon: governor");
	ok(h.turbo_on == 0 && strstr(h.turbo, "no_turbo"), "Xeon: turbo off via intel_pstate");
	is_int(h.paranoid, 2, "Xeon: perf_event_paranoid");
	ok(h.pmu && !strncmp(h.rdpmc, "2 ", 2), "Xeon: PMU present, rdpmc 2 (%s)", h.rdpmc);
	ok(!strcmp(h.smt_siblings, "0,40") && h.nsiblings == 1, "Xeon: one SMT sibling");
	ok(h.lfence == 1, "Xeon: LFENCE serializing (Intel)");
	ok(!strcmp(h.clocksource, "tsc"), "Xeon: clocksource");
	is_int(h.mem_bytes, 196494324ULL * 1024, "Xeon: MemTotal");
	ok(!strcmp(h.kernel, "3.10.0-1160.el7.x86_64"), "Xeon: kernel release");
	ok(h.tsc_ghz == 0 && h.tsc_resolution_ns == 0, "Xeon: no live probes on a fixture");
	ok(!sp(&h, TL_SPOILER_VM)->bad && !sp(&h, TL_SPOILER_PMU)->bad &&
		   !sp(&h, TL_SPOILER_GOVERNOR)->bad && !sp(&h, TL_SPOILER_TURBO)->bad &&
		   !sp(&h, TL_SPOILER_LFENCE)->bad && !sp(&h, TL_SPOILER_CLOCKSOURCE)->bad,
	   "Xeon: no spoilers but SMT");
	ok(sp(&h, TL_SPOILER_SMT)->bad && strstr(sp(&h, TL_SPOILER_SMT)->why, "CPU 0 shares"),
	   "Xeon: SMT spoiler explains itself");
	is_int(tl_host_spoiled(&h), 1, "Xeon: one spoiler");

	tl_host_read(root_of("sysfs-epyc7742"), 3, &h);
	ok(!strcmp(h.vendor, "AuthenticAMD") && strstr(h.model, "EPYC 7742"), "EPYC: model");
	ok(!strcmp(h.governor, "schedutil") && sp(&h, TL_SPOILER_GOVERNOR)->bad,
	   "EPYC: schedutil governor is a spoiler");
	ok(strstr(sp(&h, TL_SPOILER_GOVERNOR)->why, "performance governor") != NULL,
	   "EPYC: governor why names the fix");
	ok(h.turbo_on == 1 && sp(&h, TL_SPOILER_TURBO)->bad && strstr(h.turbo, "boost"),
	   "EPYC: boost on is a spoiler");
	ok(h.lfence == -1 && sp(&h, TL_SPOILER_LFENCE)->bad,
	   "EPYC: LFENCE unknown without a live probe is flagged");
	ok(!strcmp(h.smt_siblings, "3,67"), "EPYC: siblings of cpu3");
	ok(!strncmp(h.rdpmc, "1 ", 2), "EPYC: rdpmc 1");

	tl_host_read(root_of("sysfs-broken"), 2, &h);
	ok(!h.have_topology && strstr(h.topo_why, "no cache information") &&
		   strstr(h.topo_why, "has no topology.xml"),
	   "broken: topology missing, with reason: %s", h.topo_why);
	ok(h.vm && !strcmp(h.hypervisor, "xen") && sp(&h, TL_SPOILER_VM)->bad,
	   "broken: /sys/hypervisor/type says xen");
	ok(!h.pmu && !strcmp(h.rdpmc, "no cpu PMU device") && sp(&h, TL_SPOILER_PMU)->bad,
	   "broken: no PMU is a spoiler");
	ok(strstr(sp(&h, TL_SPOILER_PMU)->why, "barrier-pmc") != NULL, "broken: PMU why names "
								      "the backends");
	ok(!strcmp(h.governor, "none (no cpufreq)") && !sp(&h, TL_SPOILER_GOVERNOR)->bad,
	   "broken: no cpufreq");
	ok(h.turbo_on == -1 && strstr(h.turbo, "unknown"), "broken: turbo unknown");
	ok(!strcmp(h.clocksource, "hpet") && !sp(&h, TL_SPOILER_CLOCKSOURCE)->bad &&
		   strstr(sp(&h, TL_SPOILER_CLOCKSOURCE)->why, "not measured"),
	   "broken: hpet, but a fixture's clock cost is not measured: no verdict from a name");
	ok(h.nsiblings == 0 && !sp(&h, TL_SPOILER_SMT)->bad, "broken: no SMT sibling");
	ok(h.mem_bytes == 0 && !strcmp(h.kernel, "unknown"), "broken: missing files read unknown");

	tl_host_read(root_of("no-such-tree"), 0, &h);
	ok(!strcmp(h.model, "unknown") && !h.have_topology, "missing root: everything unknown");
	ok(!h.clock_probed && !sp(&h, TL_SPOILER_CLOCK)->bad &&
		   !strcmp(sp(&h, TL_SPOILER_CLOCK)->seen, "not measured") &&
		   strstr(sp(&h, TL_SPOILER_CLOCK)->why, "ticklab info"),
	   "the clock spoiler is 'not measured' until probed, and says who measures it");
}

static void test_host_live(void)
{
	struct tl_host h;
	tl_host_read("/", -1, &h);
	ok(h.cpu >= 0, "live: sampling CPU %d", h.cpu);
	ok(h.model[0] != '\0', "live: model %s", h.model);
	for (size_t i = 0; i < TL_SPOILER_COUNT; i++)
		ok(h.spoilers[i].what && h.spoilers[i].why[0], "live spoiler %s: %s%s",
		   h.spoilers[i].what ? h.spoilers[i].what : "?", h.spoilers[i].bad ? "BAD " : "",
		   h.spoilers[i].why);
#if defined(__x86_64__)
	ok(h.tsc_ghz > 0 && h.tsc_resolution_ns > 0, "live: TSC %.3f GHz, step %.3g ns",
	   h.tsc_ghz, h.tsc_resolution_ns);
#endif
	/* The clock probe: whatever it finds, it must measure a chain of the
	 * right size, say which way it went, and give the thread its CPUs back. */
	cpu_set_t before, after;
	sched_getaffinity(0, sizeof before, &before);
	tl_host_probe_clock(&h);
	sched_getaffinity(0, sizeof after, &after);
	const struct tl_spoiler *c = sp(&h, TL_SPOILER_CLOCK);
	ok(h.clock_probed && h.clock_adds == 20000 && h.clock_lo_ns > 0 &&
		   h.clock_lo_ns <= h.clock_hi_ns && h.clock_timer[0],
	   "clock probe: %s, chunk medians %.0f..%.0f ns", h.clock_timer, h.clock_lo_ns,
	   h.clock_hi_ns);
	ok(c->bad ? !strncmp(c->seen, "drift ", 6) && strstr(c->why, "CV stays above") &&
			    strstr(c->why, "Cause not measured")
		  : !strcmp(c->seen, "steady") && strstr(c->why, "held still"),
	   "clock probe: %s: %s", c->seen, c->why);
	ok(CPU_EQUAL(&before, &after), "clock probe: the thread's affinity is restored");
}

int main(void)
{
	test_xeon();
	test_epyc();
	test_zen5_guest();
	test_broken();
	test_live();
	test_live_levels();
	test_live_xmlfile();
	test_live_fsroot();
	test_live_without_cpuid();
	test_host_fixtures();
	test_host_live();
	return tap_done();
}
