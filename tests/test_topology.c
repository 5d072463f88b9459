/* Cache topology and host facts from sysfs fixture trees (and the live
 * machine, for shape only). */
#include "config.h"

#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/host.h"
#include "bench/topology.h"
#include "tests/tap.h"

static const char *root_of(const char *name)
{
	static char root[4096];
	const char *src = getenv("TL_TOP_SRCDIR");
	snprintf(root, sizeof root, "%s/tests/fixtures/%s", src ? src : ".", name);
	return root;
}

static void test_xeon(void)
{
	struct tl_topology t;
	char why[512];
	int rc = tl_topology_read(root_of("sysfs-xeon6248"), 0, &t, why, sizeof why);

	ok(rc == 0, "Xeon 6248 cpu0 reads");
	is_int(t.ncaches, 4, "four caches (L1d, L1i, L2, L3)");
	is_int(t.l1d, 32 * 1024, "L1d 32K");
	is_int(t.l2, 1024 * 1024, "L2 1024K");
	is_int(t.l3, 28160 * 1024, "L3 28160K");
	ok(t.caches[0].level == 1 && !strcmp(t.caches[0].type, "Data"), "index0 is L1 Data");
	ok(t.caches[1].level == 1 && !strcmp(t.caches[1].type, "Instruction"),
	   "index1 is L1 Instruction");
	is_int(t.caches[3].line, 64, "coherency line 64");
	ok(!strcmp(t.caches[3].shared_cpus, "0-19,40-59"), "L3 shared_cpu_list kept");

	rc = tl_topology_read(root_of("sysfs-xeon6248"), 5, &t, why, sizeof why);
	ok(rc == 0 && t.l1d == 32768 && !strcmp(t.caches[0].shared_cpus, "5,45"),
	   "cpu5 reads with its own sharing list");
	rc = tl_topology_read(root_of("sysfs-xeon6248"), -1, &t, why, sizeof why);
	ok(rc == -1 && strstr(why, "-1"), "negative CPU refused");
}

static void test_epyc(void)
{
	struct tl_topology t;
	char why[512];
	int rc = tl_topology_read(root_of("sysfs-epyc7742"), 3, &t, why, sizeof why);

	ok(rc == 0, "EPYC 7742 cpu3 reads");
	is_int(t.l1d, 32 * 1024, "EPYC L1d 32K");
	is_int(t.l2, 512 * 1024, "EPYC L2 512K");
	is_int(t.l3, 16 * 1024 * 1024, "EPYC L3 16M (one CCX)");
	ok(!strcmp(t.caches[3].shared_cpus, "0-3,64-67"), "EPYC L3 shared by one CCX");
}

static void broken(int cpu, const char *needle)
{
	struct tl_topology t;
	char why[512] = "";
	int rc = tl_topology_read(root_of("sysfs-broken"), cpu, &t, why, sizeof why);
	ok(rc == -1 && strstr(why, needle), "broken cpu%d refused: %s", cpu, needle);
	if (!strstr(why, needle))
		tap_diag("why: %s", why);
}

static void test_broken(void)
{
	broken(0, "\"lots\" is not a size like 32K");
	broken(1, "cannot read cache level");
	broken(2, "no cache information");
	broken(3, "\"Weird\" is not Data, Instruction or Unified");
	broken(9, "no cache information");
}

static void test_live(void)
{
	struct tl_topology t;
	char why[512];
	int rc = tl_topology_read("/", 0, &t, why, sizeof why);
	if (rc) {
		ok(strstr(why, "no cache information") != NULL, "live: no sysfs caches: %s", why);
		return;
	}
	ok(t.ncaches > 0 && t.l1d > 0, "live cpu0: %zu caches, L1d %llu bytes", t.ncaches,
	   (unsigned long long)t.l1d);
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
	ok(!h.have_topology && strstr(h.topo_why, "no cache information"),
	   "broken: topology missing, with reason");
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
	ok(c->bad ? !strncmp(c->seen, "drifts ", 7) && strstr(c->why, "CV stays above")
		  : !strcmp(c->seen, "steady") && strstr(c->why, "held still"),
	   "clock probe: %s: %s", c->seen, c->why);
	ok(CPU_EQUAL(&before, &after), "clock probe: the thread's affinity is restored");
}

int main(void)
{
	test_xeon();
	test_epyc();
	test_broken();
	test_live();
	test_host_fixtures();
	test_host_live();
	return tap_done();
}
