/* What interrupted a sample, measured from user space without root or a
 * PMU. Per sample, outside its timed region: the head of a perf
 * ring buffer (context-switch records of a software dummy event and sampled
 * page faults, both exclude_kernel, so paranoid 2 allows them) and the CPU,
 * before and after. A sample during which the head moved or the CPU changed
 * gets the cause the records name. A monitor thread on another CPU reads
 * /proc/interrupts, /proc/softirqs and /proc/stat steal in windows, which
 * name (inferred, window-level) what hit the long samples with no record. */
#ifndef TL_BENCH_NOISE_H
#define TL_BENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_NOISE_NAME 24      /* a cause or interrupt name, with its NUL */
#define TL_NOISE_NAMES 48     /* distinct cause names per cell */
#define TL_NOISE_SOURCES 6
#define TL_NOISE_WHY 320
/* A sample is long (worth a window-level cause) past 1.5 x its cell's
 * median plus this: an interrupt costs at least ~1 us even on bare metal. */
#define TL_NOISE_LONG_NS 1000.0

/* What the tracker saw for one mechanism: whether it works here and why not. */
struct tl_noise_source {
	char name[TL_NOISE_NAME]; /* switch, page_fault, cpu, interrupts, softirqs, steal */
	bool ok;
	char why[TL_NOISE_WHY];
};

struct tl_noise_count {
	char name[TL_NOISE_NAME];
	uint64_t n;
};

/* One sample with a cause: its index in the cell and cause (an index into
 * the cell's names). */
struct tl_noise_flag {
	uint32_t index;
	uint16_t cause;
};

/* A cell's causes and the interrupts of the windows its chunks ran in. */
struct tl_cell_noise {
	struct tl_noise_flag *flag; /* sorted by index, one per sample at most */
	size_t nflag, cap;
	char names[TL_NOISE_NAMES][TL_NOISE_NAME];
	size_t nnames;
	size_t windows;                /* monitor windows its chunks touched */
	struct tl_noise_count *irq;    /* interrupt deltas on the sampling CPU, by name */
	size_t nirq;
	struct tl_noise_count *softirq;
	size_t nsoftirq;
	double steal_ms;
	/* The tasks that ran in place of the sampling thread during its
	 * preempted samples (a CPU-wide event; root, CAP_PERFMON or paranoid
	 * <= 0), by comm: how many times each was switched in. */
	struct tl_noise_count *by;
	size_t nby;
};

/* What every cell of a run shares: the mechanisms and the stated cost. */
struct tl_noise_info {
	struct tl_noise_source src[TL_NOISE_SOURCES];
	size_t nsrc;
	double cost_ns;   /* the per-sample bookkeeping (both sides), measured */
	double long_ns;   /* NaN; a sample is long when over 1.5 x p50 + long_ns */
	bool tasks;       /* the CPU-wide switch records name the preempting tasks */
};

/* The live tracker of the sampling thread (opaque but for the hot fields). */
struct tl_noise {
	volatile uint64_t *head;       /* the ring's data_head, or a constant zero */
	const volatile uint32_t *cpu;  /* rseq's cpu_id, or NULL (sched_getcpu) */
	uint32_t cpu_was;              /* the CPU the last sample ended on */
	struct tl_noise_priv *p;
};

/* Before a sample: the ring head and the CPU. */
struct tl_noise_mark {
	uint64_t head;
	uint32_t cpu;
};

uint32_t tl_noise_cpu_slow(void);

static inline uint32_t tl_noise_cpu_now(const struct tl_noise *nz)
{
	return nz->cpu ? *nz->cpu : tl_noise_cpu_slow();
}

/* The CPU is the one the previous sample ended on, not a fresh read: a move
 * between two samples (in the flush, or while the last value is stored)
 * belongs to the next one, which starts on caches it never warmed. A fresh
 * read here would miss most moves when the flush is long. */
static inline struct tl_noise_mark tl_noise_before(const struct tl_noise *nz)
{
	struct tl_noise_mark m;
	m.head = __atomic_load_n(nz->head, __ATOMIC_ACQUIRE);
	m.cpu = nz->cpu_was;
	return m;
}

/* Records the sample when something happened during it; rare, so out of line. */
void tl_noise_note(struct tl_noise *nz, size_t index, struct tl_noise_mark m, uint64_t head,
		   uint32_t cpu);

static inline void tl_noise_after(struct tl_noise *nz, struct tl_noise_mark m, size_t index)
{
	uint64_t h = __atomic_load_n(nz->head, __ATOMIC_ACQUIRE);
	uint32_t cpu = tl_noise_cpu_now(nz);
	if (__builtin_expect(h != m.head || cpu != m.cpu, 0))
		tl_noise_note(nz, index, m, h, cpu);
	nz->cpu_was = cpu;
}

/* After the sampling thread is pinned: the CPU it now runs on is where the
 * first sample starts. The tracker is opened before the pin (its monitor
 * thread must go elsewhere), so the CPU it saw then can be another: the
 * first sample would be called a migration it never had, and a move
 * between the pin and the first sample (landing on the CPU seen at open)
 * would go unseen. */
static inline void tl_noise_pinned(struct tl_noise *nz)
{
	if (nz)
		nz->cpu_was = tl_noise_cpu_now(nz);
}

/* Opens the tracker on the calling thread (the runner pins it just after,
 * then calls tl_noise_pinned): the perf
 * events, the rseq CPU, the monitor thread (on another allowed CPU than
 * cpu). Never fails: what does not work is said in info. max_chunk bounds
 * the samples between two tl_noise_chunk_end. Returns NULL only when
 * nothing at all could be set up. */
struct tl_noise *tl_noise_open(int cpu, size_t max_chunk, struct tl_noise_info *info);

/* Around one chunk of samples of a cell (outside its timed window). */
void tl_noise_chunk_begin(struct tl_noise *nz, size_t cell, size_t from);
/* Reads the ring, gives the chunk's noted samples their measured causes. */
void tl_noise_chunk_end(struct tl_noise *nz, struct tl_cell_noise *cn, size_t len);

/* After the run: stops the monitor, gives each cell's long samples with no
 * measured cause a window-level cause (tick, irq:<name>, softirq:<kind>,
 * steal or unexplained), sums the windows per cell, frees the tracker.
 * ns[c] are cell c's samples, done[c] their count. */
void tl_noise_close(struct tl_noise *nz, struct tl_cell_noise *const *cells, double *const *ns,
		    const size_t *done, size_t ncells, struct tl_noise_info *info);

/* Measured causes: per sample, from a record or the CPU (what the cause
 * filter removes). The rest are window-level inferences. */
bool tl_noise_cause_measured(const char *name);
/* Whether name is a cause this build writes: for a file read back. */
bool tl_noise_cause_valid(const char *name);

/* A cause name's index in cn (interned), or -1 when the table is full. */
int tl_noise_intern(struct tl_cell_noise *cn, const char *name);
/* Appends (index must be past the last flag's). */
void tl_noise_flag_add(struct tl_cell_noise *cn, size_t index, int cause);
void tl_cell_noise_free(struct tl_cell_noise *cn);
/* The cause of sample index, or NULL (binary search). */
const char *tl_noise_cause_of(const struct tl_cell_noise *cn, size_t index);

/* info's noise line: sample a loop on cpu for seconds and say what
 * interrupted it. */
#define TL_NOISE_PROBE_TOP 3
struct tl_noise_probe {
	double seconds;
	int cpu;
	uint64_t gaps;         /* loop gaps over the long rule */
	uint64_t ticks;        /* local timer interrupts on cpu */
	uint64_t irqs;         /* other interrupts on cpu */
	uint64_t softirqs;     /* softirqs on cpu, the tick's own (TIMER, SCHED, RCU,
				* HRTIMER) left out */
	/* The cpu's busiest interrupt and softirq sources but the tick's, by
	 * count ("irq 27:nvme0q1", "softirq NET_RX"): what a node's excess
	 * noise is made of, for a fleet to name. */
	struct tl_noise_count top[TL_NOISE_PROBE_TOP];
	size_t ntop;
	uint64_t preempt, voluntary, faults, migrations;
	struct tl_noise_count by[TL_NOISE_PROBE_TOP]; /* preempting tasks, most first */
	size_t nby;
	uint64_t unexplained;  /* gaps with no record, beyond the interrupts counted */
	double gap_ns;         /* the gap threshold used */
	struct tl_noise_info info;
};
/* How long `ticklab info` and the TUI's Info screen probe: one length, so
 * their counts compare. */
#define TL_NOISE_PROBE_SECONDS 2.0
int tl_noise_probe_run(int cpu, double seconds, struct tl_noise_probe *pr, char *why,
		       size_t whylen);

#endif
