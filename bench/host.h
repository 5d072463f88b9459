/* The node a run happens on: what `ticklab info` and the TUI's info screen
 * show, and the "spoilers" that make cycles and nanoseconds drift.
 *
 * Files are read under a root directory ("/" normally) so tests can point
 * at fixture trees. Live probes that cannot come from files (TSC frequency
 * and resolution, CPUID, LFENCE, PAPI, sibling load) run only when root is
 * "/"; otherwise they read as unknown. */
#ifndef TL_BENCH_HOST_H
#define TL_BENCH_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/levels.h"
#include "bench/probe.h"
#include "bench/topology.h"

enum tl_spoiler_id {
	TL_SPOILER_VM,          /* running under a hypervisor */
	TL_SPOILER_PMU,         /* no usable CPU PMU */
	TL_SPOILER_GOVERNOR,    /* frequency governor other than performance */
	TL_SPOILER_TURBO,       /* turbo / boost enabled */
	TL_SPOILER_SMT,         /* the sampling CPU shares its core */
	TL_SPOILER_LFENCE,      /* LFENCE not (known to be) dispatch-serializing */
	TL_SPOILER_CLOCKSOURCE, /* kernel clocksource is not the TSC */
	TL_SPOILER_CLOCK,       /* the core clock moved under the timer (measured) */
	TL_SPOILER_CACHES,      /* a reported cache size a chase contradicts (measured) */
	TL_SPOILER_COUNT
};

/* One diagnosis line, the same in the CLI, the JSON and the TUI. */
struct tl_spoiler {
	bool bad;          /* this condition can spoil a measurement here */
	const char *what;  /* short stable name: "vm", "pmu", "governor", ... */
	char seen[96];     /* what was found: "KVM", "schedutil", "on", ... */
	char why[320];     /* one line: why it matters (or why it is fine) */
};

struct tl_host {
	int cpu;                  /* the sampling CPU these facts are about */
	char model[128];          /* /proc/cpuinfo "model name" */
	char vendor[32];          /* "GenuineIntel", "AuthenticAMD", ... */
	char kernel[128];         /* proc/sys/kernel/osrelease */
	uint64_t mem_bytes;       /* MemTotal, 0 when unknown */

	bool have_topology;
	struct tl_topology topo;
	char topo_why[256];       /* why there is no topology */

	double tsc_ghz;           /* 0: unknown or no TSC */
	double tsc_resolution_ns; /* the TSC's lattice step; 0: not measured */
	double tsc_resolution_ticks;
	char tsc_reader[32];      /* the backend that measured it ("" when none opened) */

	/* clock_gettime through libc and as a bare system call, measured; 0s
	 * when not measured (not the running machine). */
	struct tl_syscall_cost cost; /* tl_vdso_verdict tells what they mean */
	char syscall_readers[160]; /* backends measured to cost a syscall per read */

	char clocksource[32];     /* "tsc", "hpet", ... or "unknown" */
	char hypervisor[64];      /* "KVM", "xen", ... or "none" */
	bool vm;
	char governor[64];        /* "performance", ... or "none (no cpufreq)" */
	char turbo[96];           /* "on (cpufreq/boost = 1)", "off (...)", "unknown ..." */
	int turbo_on;             /* 1, 0, -1 unknown */
	int paranoid;             /* perf_event_paranoid; -100 when unreadable */
	char rdpmc[96];           /* "1 (...)" or "no cpu PMU device" */
	bool pmu;                 /* a perf_event "cpu" PMU device exists */
	char smt_siblings[64];    /* thread_siblings_list of cpu, "" when unknown */
	int nsiblings;            /* other hardware threads on cpu's core */
	double sibling_busy;      /* busy share of the siblings (0..1); -1 unknown */
	int lfence;               /* 1 serializing, 0 not, -1 unknown */
	char lfence_how[96];
	char papi[1024];          /* tl_papi_describe */

	/* tl_host_probe_clock's measurement (probed: it was tried, even if it failed). */
	bool clock_probed;
	char clock_timer[32];     /* the backend it used */
	uint64_t clock_adds;      /* the chain measured */
	double clock_seconds;     /* wall time it took */
	double clock_lo_ns, clock_hi_ns, clock_drift; /* stats_drift: lo, hi, rel_sd */
	bool clock_drifts;

	/* tl_host_probe_ladder's measurement: the levels a chase sees (and the
	 * reported sizes beside them), and each level's latency from it. */
	struct tl_levels levels;
	bool ladder_probed;
	char ladder_timer[32];
	size_t nladder;
	struct tl_level_latency {
		char level[8];    /* "L1d", "L2", "L3", "memory" */
		uint64_t bytes;   /* the buffer chased */
		double ns;        /* median ns per load; NaN when it could not run */
		char note[64];    /* why not, when ns is NaN */
	} ladder[4];

	struct tl_spoiler spoilers[TL_SPOILER_COUNT];
};

/* Fills h from files under root (NULL: "/") and, when root is "/", live
 * probes. cpu < 0 means the default sampling CPU. Missing files are not
 * errors: those facts read as unknown. Returns 0. */
int tl_host_read(const char *root, int cpu, struct tl_host *h);

/* Measures whether the core clock holds still: 20000 samples of a
 * 20000-ADD chain (4e8 ADDs: a few tenths of a second, more where an ADD
 * is slow or the vCPU is shared) on h->cpu with the first barrier timer that
 * opens (clock-gettime otherwise), cut into 100-sample chunks by
 * stats_drift. Fills the clock fields and the "clock" spoiler. The calling
 * thread is pinned for the measurement and its affinity restored. Only for
 * the running machine, and never while a run samples on that CPU. */
void tl_host_probe_clock(struct tl_host *h);

/* Measures the node's memory levels (tl_levels_get: a chase over doubling
 * sizes, about a second, cached for the process) into h->levels, and each
 * level's load latency into ladder[]. Same pinning rules as
 * tl_host_probe_clock. */
void tl_host_probe_ladder(struct tl_host *h);

/* Re-says the clock-read spoiler once backends were probed (bench/probe.h):
 * it names the backends whose every read is a system call. */
void tl_host_note_syscalls(struct tl_host *h, const struct tl_probe *probes, size_t n);

/* The diagnosis (spoilers) from the facts in h: what tl_host_read ends with,
 * public so tests can feed it any node's facts. x86: the node is x86. */
void tl_host_diagnose(struct tl_host *h, bool x86);

/* Number of spoilers with bad set. */
size_t tl_host_spoiled(const struct tl_host *h);

#endif
