/* Shared by the backend files only (not part of the public interface). */
#ifndef TL_BACKENDS_INTERNAL_H
#define TL_BACKENDS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"

extern const struct tl_backend tl_backend_barrier_tsc;
extern const struct tl_backend tl_backend_barrier_pmc;
extern const struct tl_backend tl_backend_barrier_cntvct;
extern const struct tl_backend tl_backend_barrier_pmccntr;
extern const struct tl_backend tl_backend_rdtsc;
extern const struct tl_backend tl_backend_barrier_rdtsc;
extern const struct tl_backend tl_backend_papi_real_nsec;
extern const struct tl_backend tl_backend_papi_real_cyc;
extern const struct tl_backend tl_backend_papi_read;
extern const struct tl_backend tl_backend_clock_gettime;
extern const struct tl_backend tl_backend_clock_gettime_raw;
extern const struct tl_backend tl_backend_clock_gettime_realtime;
extern const struct tl_backend tl_backend_perf_read;
extern const struct tl_backend tl_backend_perf_task_clock;
extern const struct tl_backend tl_backend_sim;

/* --- Trying an instruction that may fault (backends/probe.c) --- */
enum tl_insn_outcome {
	TL_INSN_UNTRIED, /* no child could run it: error says why */
	TL_INSN_RUNS,    /* it executed; ns_per_exec and value are set */
	TL_INSN_FAULTS,  /* the child died of signal */
};

struct tl_insn_trial {
	enum tl_insn_outcome outcome;
	int signal;          /* TL_INSN_FAULTS: the signal that ended the child */
	double ns_per_exec;  /* TL_INSN_RUNS: median cost of one execution */
	uint64_t value;      /* TL_INSN_RUNS: what it returned (rdtscp: TSC_AUX) */
	char error[96];      /* TL_INSN_UNTRIED: fork, pipe or exit trouble */
};

/* An execution this slow was trapped and emulated by a hypervisor: a
 * native RDTSCP costs tens of ns, a VM exit about a microsecond. */
#define TL_INSN_TRAPPED_NS 400.0

/* Runs body in a forked child, which fills out (ns_per_exec, value); the
 * parent learns whether it ran or which signal killed it. Never executes
 * body in the calling process. */
void tl_insn_try(void (*body)(struct tl_insn_trial *out), struct tl_insn_trial *trial);

/* Whether barrier-tsc may use RDTSCP, from CPUID's bit and, when CPUID
 * hides it, the trial; how says how it was decided. 1 yes, 0 no. Pure. */
int tl_rdtscp_decide(bool cpuid_rdtscp, const struct tl_insn_trial *trial, char *how,
		     size_t howlen);

/* x86: RDTSCP usable here (1) or not (0), decided once per process by
 * tl_rdtscp_decide over CPUID and, when CPUID says no, a child's trial. */
int tl_x86_rdtscp(char *how, size_t howlen);

/* printf into why (NULL-safe, always terminated). Returns -1 so probes can
 * `return tl_why(...)`. */
int tl_why(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fails with a message unless params is NULL or empty: most backends take
 * no parameters. */
int tl_backend_no_params(const struct tl_backend *b, const char *params, char *why, size_t whylen);

/* Name of the architecture this build runs on ("x86_64", "aarch64", ...). */
const char *tl_backend_arch(void);

/* perf_event helpers (backends/perf.c), shared with barrier-pmc/pmccntr. */
struct perf_event_attr;

/* /proc/sys/kernel/perf_event_paranoid, or -99 when unreadable. */
int tl_perf_paranoid(void);

/* Whether the kernel exposes a CPU PMU under /sys/bus/event_source. */
bool tl_perf_has_cpu_pmu(void);

/* perf_event_open for the calling thread, user space only; returns the fd,
 * or -1 with why saying what to do (no PMU, perf_event_paranoid=N, ...).
 * what names the event in the message. Linux only. */
int tl_perf_open(struct perf_event_attr *attr, const char *what, char *why, size_t whylen);

#endif
