#include "config.h"

#include "bench/noise.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#include <sys/rseq.h>
#define HAVE_RSEQ_AREA 1
#endif

#include "base/xalloc.h"
#include "stats/stats.h"

/* 64 data pages: drained after every chunk, it holds a chunk's records many
 * times over, and stays under the 516 KiB an unprivileged user may lock. */
#define RING_PAGES 64
/* The monitor's window: /proc/interrupts costs 60-80 us, so 10 ms keeps
 * the monitor's CPU under 1 % busy. */
#define WINDOW_NS 10000000LL
#define MAX_SRC 128          /* interrupt + softirq names the monitor follows */
#define LONG_NS TL_NOISE_LONG_NS

enum { F_PREEMPT = 1, F_VOLUNTARY = 2, F_SWITCH = 4, F_FAULT = 8, F_LOST = 16 };

struct note {
	size_t index;
	uint64_t h0, h1;
	uint32_t c0, c1;
	unsigned flags;
	int64_t t_out, t_in; /* its preempting switch out and back in, or 0 */
};

struct chunk {
	size_t cell, from, len;
	int64_t t0, t1;
};

struct window {
	int64_t t0, t1;
	uint32_t d[MAX_SRC];
	uint64_t steal;       /* USER_HZ ticks */
};

struct monitor {
	pthread_t thread;
	bool running;
	atomic_bool stop;
	int cpu, at;          /* sampled CPU, the monitor's CPU */
	char names[MAX_SRC][TL_NOISE_NAME];
	bool soft[MAX_SRC];
	size_t nnames;
	uint64_t last[MAX_SRC], last_steal;
	int64_t last_t;
	struct window *win;
	size_t nwin, capwin;
	bool irq_ok, soft_ok, steal_ok;
	char irq_why[TL_NOISE_WHY], soft_why[TL_NOISE_WHY], steal_why[TL_NOISE_WHY];
};

/* A tid's comm, read between chunks (a task may exit before the run ends). */
struct task {
	uint32_t tid;
	char name[TL_NOISE_NAME];
};

struct tl_noise_priv {
	int fd, ffd, wfd;
	uint32_t tid;                       /* the sampling thread */
	struct perf_event_mmap_page *wpage; /* the CPU-wide switch ring */
	unsigned char *wdata;
	uint64_t wsize;
	struct task *tasks;
	size_t ntasks;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	uint64_t size;
	struct note *notes;
	size_t nnotes, capnotes;
	struct chunk *chunks;
	size_t nchunks, capchunks;
	uint64_t preempt, voluntary, faults, lost, migrations; /* all records seen */
	struct monitor mon;
};

static const uint64_t zero_head;

uint32_t tl_noise_cpu_slow(void)
{
	int c = sched_getcpu();
	return c < 0 ? UINT32_MAX : (uint32_t)c;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void source(struct tl_noise_info *info, const char *name, bool ok, const char *why)
{
	struct tl_noise_source *s;

	if (info->nsrc >= TL_NOISE_SOURCES)
		return;
	s = &info->src[info->nsrc++];
	snprintf(s->name, sizeof s->name, "%s", name);
	s->ok = ok;
	snprintf(s->why, sizeof s->why, "%s", why);
}

/* ---- perf events --------------------------------------------------------- */

/* The level, or INT_MIN when the file cannot be read. */
static int paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = INT_MIN;
	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = INT_MIN;
		fclose(f);
	}
	return v;
}

/* EACCES at a level that allows user-space events is not the level's doing:
 * naming the level then would send the reader to the wrong knob. */
static void refused(int err, char *why, size_t len)
{
	int lvl = paranoid();

	if ((err == EACCES || err == EPERM) && lvl > 2)
		snprintf(why, len, "perf_event_open refused (%s) at perf_event_paranoid %d: "
				   "unprivileged perf events need <= 2 (or CAP_PERFMON)",
			 strerror(err), lvl);
	else if ((err == EACCES || err == EPERM) && lvl != INT_MIN)
		snprintf(why, len, "perf_event_open refused (%s) although perf_event_paranoid is "
				   "%d: a seccomp filter or security module denies it",
			 strerror(err), lvl);
	else if (err == EACCES || err == EPERM)
		snprintf(why, len, "perf_event_open refused (%s); perf_event_paranoid unreadable",
			 strerror(err));
	else if (err == ENOSYS)
		snprintf(why, len, "no perf_event_open here (seccomp or a kernel without perf "
				   "events)");
	else
		snprintf(why, len, "perf_event_open failed: %s", strerror(err));
}

static int perf_open(uint64_t config, bool switches, int pid, int cpu)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	/* Paranoid 2 allows user-space-only events; the switch records still
	 * come (the counting variants read 0: never trust their zero). */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.context_switch = switches;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* Maps fd's ring (a control page and RING_PAGES of data): the page, or
 * MAP_FAILED; data and size where the kernel says they are. */
static struct perf_event_mmap_page *ring_map(int fd, unsigned char **data, uint64_t *size)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct perf_event_mmap_page *m =
		mmap(NULL, (size_t)pg * (RING_PAGES + 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	if (m == MAP_FAILED)
		return m;
	*data = (unsigned char *)m + (m->data_offset ? m->data_offset : (uint64_t)pg);
	*size = m->data_size ? m->data_size : (uint64_t)pg * RING_PAGES;
	return m;
}

/* Which task preempted is only in the CPU's own switch records (the
 * thread's name no one else): a CPU-wide event, which needs root,
 * CAP_PERFMON or paranoid <= 0. Its own ring: a CPU-wide event cannot share
 * the per-thread one. Says in why which path ran. */
static void wide_setup(struct tl_noise_priv *p, int cpu, struct tl_noise_info *info, char *why,
		       size_t len)
{
	char err[128];
	void *m;

	p->tid = (uint32_t)syscall(SYS_gettid);
	if (cpu < 0)
		cpu = sched_getcpu();
	p->wfd = cpu < 0 ? -1 : perf_open(PERF_COUNT_SW_DUMMY, true, -1, cpu);
	if (p->wfd < 0) {
		int e = errno, lvl = paranoid();
		if ((e == EACCES || e == EPERM) && lvl > 0)
			snprintf(err, sizeof err, "refused (%s) at perf_event_paranoid %d: it "
						 "needs <= 0, CAP_PERFMON or root", strerror(e), lvl);
		else
			refused(e, err, sizeof err);
		snprintf(why, len, "; which task preempted is not named: a CPU-wide event on CPU %d "
				   "was %s", cpu, err);
		return;
	}
	m = ring_map(p->wfd, &p->wdata, &p->wsize);
	if (m == MAP_FAILED) {
		snprintf(why, len, "; which task preempted is not named: cannot map the CPU-wide "
				   "ring: %s", strerror(errno));
		close(p->wfd);
		p->wfd = -1;
		return;
	}
	p->wpage = m;
	info->tasks = true;
	snprintf(why, len, "; the preempting tasks from PERF_RECORD_SWITCH_CPU_WIDE of a CPU-wide "
			   "dummy event on CPU %d", cpu);
}

static void perf_setup(struct tl_noise *nz, int cpu, struct tl_noise_info *info)
{
	struct tl_noise_priv *p = nz->p;
	char why[TL_NOISE_WHY], wide[TL_NOISE_WHY - 96];
	void *m;

	p->fd = perf_open(PERF_COUNT_SW_DUMMY, true, 0, -1);
	if (p->fd < 0) {
		refused(errno, why, sizeof why);
		source(info, "switch", false, why);
		source(info, "page_fault", false, why);
		return;
	}
	m = ring_map(p->fd, &p->data, &p->size);
	if (m == MAP_FAILED) {
		snprintf(why, sizeof why, "cannot map the perf ring buffer: %s", strerror(errno));
		source(info, "switch", false, why);
		source(info, "page_fault", false, why);
		close(p->fd);
		p->fd = -1;
		return;
	}
	p->page = m;
	nz->head = (volatile uint64_t *)&p->page->data_head;
	wide_setup(p, cpu, info, wide, sizeof wide);
	snprintf(why, sizeof why, "PERF_RECORD_SWITCH of a dummy software event (exclude_kernel, "
				  "clock monotonic)%s", wide);
	source(info, "switch", true, why);
	p->ffd = perf_open(PERF_COUNT_SW_PAGE_FAULTS, false, 0, -1);
	if (p->ffd < 0) {
		refused(errno, why, sizeof why);
		source(info, "page_fault", false, why);
	} else if (ioctl(p->ffd, PERF_EVENT_IOC_SET_OUTPUT, p->fd) < 0) {
		snprintf(why, sizeof why, "cannot share the ring buffer: %s", strerror(errno));
		source(info, "page_fault", false, why);
		close(p->ffd);
		p->ffd = -1;
	} else {
		source(info, "page_fault", true, "sampled PERF_COUNT_SW_PAGE_FAULTS, period 1");
	}
}

static void cpu_setup(struct tl_noise *nz, struct tl_noise_info *info)
{
#ifdef HAVE_RSEQ_AREA
	if (__rseq_size > 0) {
		struct rseq *r = (struct rseq *)((char *)__builtin_thread_pointer() + __rseq_offset);
		nz->cpu = (const volatile uint32_t *)&r->cpu_id;
		source(info, "cpu", true, "the rseq area glibc registers (cpu_id: one load)");
		return;
	}
#endif
	nz->cpu = NULL;
	source(info, "cpu", true, "sched_getcpu (no rseq area registered)");
}

/* ---- the monitor --------------------------------------------------------- */

static int name_id(struct monitor *mo, const char *name, bool soft)
{
	for (size_t i = 0; i < mo->nnames; i++)
		if (mo->soft[i] == soft && strcmp(mo->names[i], name) == 0)
			return (int)i;
	if (mo->nnames >= MAX_SRC)
		return -1;
	snprintf(mo->names[mo->nnames], TL_NOISE_NAME, "%s", name);
	mo->soft[mo->nnames] = soft;
	return (int)mo->nnames++;
}

/* The CPU's column in a /proc/interrupts or /proc/softirqs header. */
static int column_of(const char *header, int cpu)
{
	char want[24];
	int col = 0;

	snprintf(want, sizeof want, "CPU%d", cpu);
	for (const char *s = header; *s;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		size_t n = strcspn(s, " \t\n");
		if (n == strlen(want) && strncmp(s, want, n) == 0)
			return col;
		col++;
		s += n;
	}
	return -1;
}

/* A device interrupt is named by its number and the last word of its line
 * ("27:nvme0q1"); a named one (LOC, RES, CAL) by its key. */
static void irq_name(const char *key, const char *rest, char *out, size_t len)
{
	const char *end = rest + strlen(rest), *w;

	while (end > rest && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	w = end;
	while (w > rest && w[-1] != ' ' && w[-1] != '\t')
		w--;
	size_t k = strlen(key);

	snprintf(out, len, "%s", key);
	if (key[0] >= '0' && key[0] <= '9' && end > w && k + 1 < len) {
		size_t room = len - k - 2, wl = (size_t)(end - w) < room ? (size_t)(end - w) : room;
		out[k] = ':';
		memcpy(out + k + 1, w, wl);
		out[k + 1 + wl] = '\0';
	}
}

/* Adds the CPU's counts of one /proc table into vals (by name id). */
static bool read_table(struct monitor *mo, const char *path, bool soft, uint64_t *vals,
		       char *why, size_t whylen)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int col;

	if (!f) {
		snprintf(why, whylen, "cannot open %s: %s", path, strerror(errno));
		return false;
	}
	if (!fgets(line, sizeof line, f) || (col = column_of(line, mo->cpu)) < 0) {
		snprintf(why, whylen, "%s has no column for CPU %d", path, mo->cpu);
		fclose(f);
		return false;
	}
	while (fgets(line, sizeof line, f)) {
		char key[TL_NOISE_NAME], name[TL_NOISE_NAME];
		char *colon = strchr(line, ':'), *s, *e;
		size_t klen;
		unsigned long long v = 0;
		int id;

		if (!colon)
			continue;
		s = line;
		while (*s == ' ')
			s++;
		klen = (size_t)(colon - s) < sizeof key - 1 ? (size_t)(colon - s) : sizeof key - 1;
		memcpy(key, s, klen);
		key[klen] = '\0';
		s = colon + 1;
		for (int c = 0; c <= col; c++) {
			errno = 0;
			v = strtoull(s, &e, 10);
			if (e == s) {
				v = ULLONG_MAX;
				break;
			}
			s = e;
		}
		if (v == ULLONG_MAX)
			continue; /* ERR, MIS: one total, no per-CPU column */
		irq_name(key, s, name, sizeof name);
		if ((id = name_id(mo, soft ? key : name, soft)) >= 0)
			vals[id] = v;
	}
	fclose(f);
	return true;
}

static bool read_steal(int cpu, uint64_t *steal)
{
	FILE *f = fopen("/proc/stat", "r");
	char line[512], want[24];
	bool ok = false;

	if (!f)
		return false;
	snprintf(want, sizeof want, "cpu%d ", cpu);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, want, strlen(want)) == 0) {
			unsigned long long v[8];
			ok = sscanf(line + strlen(want), "%llu %llu %llu %llu %llu %llu %llu %llu",
				    &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8;
			if (ok)
				*steal = v[7];
			break;
		}
	fclose(f);
	return ok;
}

static void monitor_read(struct monitor *mo, uint64_t *vals, uint64_t *steal)
{
	memset(vals, 0, MAX_SRC * sizeof *vals);
	if (mo->irq_ok)
		mo->irq_ok = read_table(mo, "/proc/interrupts", false, vals, mo->irq_why,
					sizeof mo->irq_why);
	if (mo->soft_ok)
		mo->soft_ok = read_table(mo, "/proc/softirqs", true, vals, mo->soft_why,
					 sizeof mo->soft_why);
	if (mo->steal_ok && !read_steal(mo->cpu, steal)) {
		mo->steal_ok = false;
		snprintf(mo->steal_why, sizeof mo->steal_why, "no cpu%d line in /proc/stat", mo->cpu);
	}
}

static void monitor_window(struct monitor *mo)
{
	uint64_t vals[MAX_SRC], steal = mo->last_steal;
	int64_t t = now_ns();
	struct window *w;

	monitor_read(mo, vals, &steal);
	if (mo->nwin == mo->capwin) {
		mo->capwin = mo->capwin ? 2 * mo->capwin : 256;
		mo->win = tl_xrealloc(mo->win, mo->capwin, sizeof *mo->win);
	}
	w = &mo->win[mo->nwin++];
	w->t0 = mo->last_t;
	w->t1 = t;
	for (size_t i = 0; i < MAX_SRC; i++) {
		uint64_t d = vals[i] >= mo->last[i] ? vals[i] - mo->last[i] : 0;
		w->d[i] = d > UINT32_MAX ? UINT32_MAX : (uint32_t)d;
		mo->last[i] = vals[i];
	}
	w->steal = steal >= mo->last_steal ? steal - mo->last_steal : 0;
	mo->last_steal = steal;
	mo->last_t = t;
}

static void *monitor_main(void *arg)
{
	struct monitor *mo = arg;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!atomic_load(&mo->stop)) {
		next.tv_nsec += WINDOW_NS;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		monitor_window(mo);
	}
	return NULL;
}

/* Another CPU this process may use: the monitor must not run where the
 * samples are taken. -1 when there is none. */
static int other_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (c != cpu && CPU_ISSET(c, &set))
			return c;
	return -1;
}

static void monitor_start(struct monitor *mo, int cpu, struct tl_noise_info *info)
{
	char why[TL_NOISE_WHY];
	pthread_attr_t attr;
	cpu_set_t set;

	mo->cpu = cpu;
	mo->irq_ok = mo->soft_ok = mo->steal_ok = true;
	atomic_init(&mo->stop, false);
	mo->at = other_cpu(cpu);
	if (mo->at < 0) {
		snprintf(why, sizeof why, "no CPU besides %d to read it from (reading it on the "
					  "sampled CPU would be noise itself)", cpu);
		source(info, "interrupts", false, why);
		source(info, "softirqs", false, why);
		source(info, "steal", false, why);
		mo->irq_ok = mo->soft_ok = mo->steal_ok = false;
		return;
	}
	monitor_read(mo, mo->last, &mo->last_steal);
	mo->last_t = now_ns();
	CPU_ZERO(&set);
	CPU_SET(mo->at, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof set, &set);
	mo->running = (mo->irq_ok || mo->soft_ok || mo->steal_ok) &&
		      pthread_create(&mo->thread, &attr, monitor_main, mo) == 0;
	pthread_attr_destroy(&attr);
	snprintf(why, sizeof why, "per-CPU deltas every %lld ms, read from CPU %d",
		 WINDOW_NS / 1000000, mo->at);
	source(info, "interrupts", mo->irq_ok && mo->running, mo->irq_ok ? why : mo->irq_why);
	source(info, "softirqs", mo->soft_ok && mo->running, mo->soft_ok ? why : mo->soft_why);
	source(info, "steal", mo->steal_ok && mo->running,
	       mo->steal_ok ? "/proc/stat steal, in 1/USER_HZ units" : mo->steal_why);
}

static void monitor_stop(struct monitor *mo)
{
	if (!mo->running)
		return;
	atomic_store(&mo->stop, true);
	pthread_join(mo->thread, NULL);
	mo->running = false;
	monitor_window(mo); /* the tail since the last window */
}

/* ---- the tracker --------------------------------------------------------- */

/* Both sides of the bookkeeping, as the runner does them around a sample. */
static double measure_cost(struct tl_noise *nz)
{
	enum { N = 1 << 16 };
	size_t saved = nz->p->nnotes;
	int64_t t0 = now_ns();

	for (size_t i = 0; i < N; i++) {
		struct tl_noise_mark m = tl_noise_before(nz);
		__asm__ volatile("" ::: "memory");
		tl_noise_after(nz, m, i);
	}
	nz->p->nnotes = saved; /* what it noted was its own, not a sample's */
	return (double)(now_ns() - t0) / N;
}

struct tl_noise *tl_noise_open(int cpu, size_t max_chunk, struct tl_noise_info *info)
{
	struct tl_noise *nz = tl_xcalloc(1, sizeof *nz);
	struct tl_noise_priv *p = tl_xcalloc(1, sizeof *p);

	memset(info, 0, sizeof *info);
	nz->p = p;
	nz->head = (volatile uint64_t *)&zero_head;
	p->fd = p->ffd = p->wfd = -1;
	p->capnotes = max_chunk ? max_chunk : 1;
	p->notes = tl_xcalloc(p->capnotes, sizeof *p->notes);
	/* Faulted in now: a fault while noting would be noise we made. */
	memset(p->notes, 0, p->capnotes * sizeof *p->notes);
	perf_setup(nz, cpu, info);
	cpu_setup(nz, info);
	nz->cpu_was = tl_noise_cpu_now(nz);
	monitor_start(&p->mon, cpu, info);
	info->cost_ns = measure_cost(nz);
	info->long_ns = LONG_NS;
	return nz;
}

void tl_noise_note(struct tl_noise *nz, size_t index, struct tl_noise_mark m, uint64_t head,
		   uint32_t cpu)
{
	struct tl_noise_priv *p = nz->p;
	struct note *n;

	if (p->nnotes >= p->capnotes)
		return;
	n = &p->notes[p->nnotes++];
	n->index = index;
	n->h0 = m.head;
	n->h1 = head;
	n->c0 = m.cpu;
	n->c1 = cpu;
	n->flags = 0;
	n->t_out = n->t_in = 0;
}

void tl_noise_chunk_begin(struct tl_noise *nz, size_t cell, size_t from)
{
	struct tl_noise_priv *p = nz->p;
	struct chunk *c;

	if (p->nchunks == p->capchunks) {
		p->capchunks = p->capchunks ? 2 * p->capchunks : 1024;
		p->chunks = tl_xrealloc(p->chunks, p->capchunks, sizeof *p->chunks);
	}
	c = &p->chunks[p->nchunks];
	c->cell = cell;
	c->from = from;
	c->len = 0;
	p->nnotes = 0;
	c->t0 = now_ns();
}

/* n bytes at ring offset pos (absolute); a record that wraps is copied
 * out in two parts. */
static void ring_copy(const unsigned char *data, uint64_t size, uint64_t pos, void *out, size_t n)
{
	uint64_t off = pos % size;
	if (off + n <= size) {
		memcpy(out, data + off, n);
	} else {
		size_t first = (size_t)(size - off);
		memcpy(out, data + off, first);
		memcpy((unsigned char *)out + first, data, n - first);
	}
}

static void record_at(const struct tl_noise_priv *p, uint64_t pos, struct perf_event_header *h)
{
	ring_copy(p->data, p->size, pos, h, sizeof *h);
}

/* A switch record's time: sample_id_all puts {pid, tid} then the time
 * after the body (none for the per-thread PERF_RECORD_SWITCH). */
static int64_t switch_time(const struct tl_noise_priv *p, uint64_t pos,
			   const struct perf_event_header *h)
{
	uint64_t t;

	if (h->size < sizeof *h + 16)
		return 0;
	ring_copy(p->data, p->size, pos + sizeof *h + 8, &t, sizeof t);
	return (int64_t)t;
}

static unsigned record_flags(struct tl_noise_priv *p, const struct perf_event_header *h)
{
	switch (h->type) {
	case PERF_RECORD_SWITCH:
		if (!(h->misc & PERF_RECORD_MISC_SWITCH_OUT))
			return F_SWITCH;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
			p->preempt++;
			return F_SWITCH | F_PREEMPT;
		}
		p->voluntary++;
		return F_SWITCH | F_VOLUNTARY;
	case PERF_RECORD_SAMPLE:
		p->faults++;
		return F_FAULT;
	case PERF_RECORD_LOST:
		p->lost++;
		return F_LOST;
	default:
		return 0;
	}
}

/* Walks the records since the last drain and ORs each into the note whose
 * head range holds it; records outside every range fell between samples. */
static void drain(struct tl_noise_priv *p)
{
	uint64_t head, tail;
	size_t k = 0;

	if (!p->page)
		return;
	head = __atomic_load_n(&p->page->data_head, __ATOMIC_ACQUIRE);
	tail = p->page->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		unsigned f;

		record_at(p, tail, &h);
		if (h.size == 0)
			break;
		f = record_flags(p, &h);
		while (k < p->nnotes && p->notes[k].h1 <= tail)
			k++;
		if (k < p->nnotes && p->notes[k].h0 <= tail) {
			struct note *n = &p->notes[k];
			if ((f & F_PREEMPT) && !n->t_out)
				n->t_out = switch_time(p, tail, &h);
			else if (f == F_SWITCH && n->t_out)
				n->t_in = switch_time(p, tail, &h);
			n->flags |= f;
		}
		tail += h.size;
	}
	__atomic_store_n(&p->page->data_tail, head, __ATOMIC_RELEASE);
}

static void count_add(struct tl_noise_count **v, size_t *n, const char *name, uint64_t d);

/* The comm of tid, read between chunks and kept: a task that exits
 * before the run ends keeps its name. */
/* name + suffix, the name cut where both would not fit: whose a task is
 * matters more than the end of its name. */
static void whose(char *name, size_t len, const char *suffix)
{
	size_t room = len - 1 - strlen(suffix);

	if (strlen(name) > room)
		name[room] = '\0';
	strcat(name, suffix);
}

/* The task's comm, and whose it is when the name alone would mislead: a
 * thread of this process (the run's own UI or monitor) is told apart from
 * another process of the same name (another ticklab on the node). */
static const char *task_name(struct tl_noise_priv *p, uint32_t pid, uint32_t tid)
{
	char path[48], own[TL_NOISE_NAME] = "";
	FILE *f;
	struct task *t;

	for (size_t i = 0; i < p->ntasks; i++)
		if (p->tasks[i].tid == tid)
			return p->tasks[i].name;
	p->tasks = tl_xrealloc(p->tasks, p->ntasks + 1, sizeof *p->tasks);
	t = &p->tasks[p->ntasks++];
	t->tid = tid;
	snprintf(path, sizeof path, "/proc/%u/comm", (unsigned)tid);
	f = fopen(path, "r");
	if (!f || !fgets(t->name, sizeof t->name, f) || !t->name[0] || t->name[0] == '\n')
		snprintf(t->name, sizeof t->name, "pid %u (exited)", (unsigned)tid);
	t->name[strcspn(t->name, "\n")] = '\0';
	if (f)
		fclose(f);
	/* the process's name, not the calling thread's (a monitor may name its own) */
	snprintf(path, sizeof path, "/proc/%u/comm", (unsigned)getpid());
	f = fopen(path, "r");
	if (f && fgets(own, sizeof own, f))
		own[strcspn(own, "\n")] = '\0';
	if (f)
		fclose(f);
	if (pid == (uint32_t)getpid())
		whose(t->name, sizeof t->name, " (this run)");
	else if (own[0] && strcmp(t->name, own) == 0)
		whose(t->name, sizeof t->name, " (not this run)");
	return t->name;
}

/* A preempted note (switched out, not moved) whose out time lies in
 * [from, to], or NULL. */
static const struct note *note_out_in(const struct tl_noise_priv *p, int64_t from, int64_t to)
{
	for (size_t k = 0; k < p->nnotes; k++) {
		const struct note *n = &p->notes[k];
		if (n->t_out && n->c0 == n->c1 && n->t_out >= from && n->t_out <= to)
			return n;
	}
	return NULL;
}

/* Another task's switch out on the CPU while a noted sample was switched
 * out names a task that also ran in its place. */
static void wide_other(struct tl_noise_priv *p, struct tl_cell_noise *cn, int64_t t,
		       uint32_t next_pid, uint32_t next, int64_t end)
{
	if (next == 0 || next == p->tid)
		return;
	for (size_t k = 0; k < p->nnotes; k++) {
		const struct note *n = &p->notes[k];
		if (n->t_out && n->c0 == n->c1 && t >= n->t_out && t <= (n->t_in ? n->t_in : end)) {
			count_add(&cn->by, &cn->nby, task_name(p, next_pid, next), 1);
			return;
		}
	}
}

/* Our own switch out, as the CPU saw it, names the task that replaced us.
 * It is paired with the per-thread record of the same switch by order, not
 * by a time slack: it is the last own out before our next own in, and the
 * per-thread stamp comes after it (0.3-0.5 us on the guests seen, far more
 * when the hypervisor stops the vCPU between the two writes). */
struct own_out {
	bool open;
	int64_t t;
	uint32_t next_pid, next;
};

static void own_out_close(struct tl_noise_priv *p, struct tl_cell_noise *cn, struct own_out *o,
			  int64_t until)
{
	if (o->open && o->next != 0 && o->next != p->tid && note_out_in(p, o->t, until))
		count_add(&cn->by, &cn->nby, task_name(p, o->next_pid, o->next), 1);
	o->open = false;
}

/* Reads the CPU-wide ring: each SWITCH_CPU_WIDE record is {header,
 * next_prev_pid, next_prev_tid, pid, tid, time}, pid/tid the task switching
 * out (or in) and next_prev the other side. */
static void drain_wide(struct tl_noise_priv *p, struct tl_cell_noise *cn, int64_t end)
{
	struct own_out own = { false, 0, 0, 0 };
	uint64_t head, tail;

	if (!p->wpage)
		return;
	head = __atomic_load_n(&p->wpage->data_head, __ATOMIC_ACQUIRE);
	tail = p->wpage->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		uint32_t ids[4];
		uint64_t t;

		ring_copy(p->wdata, p->wsize, tail, &h, sizeof h);
		if (h.size == 0)
			break;
		if (cn && h.type == PERF_RECORD_SWITCH_CPU_WIDE && h.size >= sizeof h + 24) {
			bool out = h.misc & PERF_RECORD_MISC_SWITCH_OUT;
			ring_copy(p->wdata, p->wsize, tail + sizeof h, ids, sizeof ids);
			ring_copy(p->wdata, p->wsize, tail + sizeof h + 16, &t, sizeof t);
			if (ids[3] == p->tid && out)
				own = (struct own_out){ true, (int64_t)t, ids[0], ids[1] };
			else if (ids[3] == p->tid)
				own_out_close(p, cn, &own, (int64_t)t);
			else if (out)
				wide_other(p, cn, (int64_t)t, ids[0], ids[1], end);
		}
		tail += h.size;
	}
	if (cn)
		own_out_close(p, cn, &own, end);
	__atomic_store_n(&p->wpage->data_tail, head, __ATOMIC_RELEASE);
}

static const char *note_cause(const struct note *n)
{
	if (n->c0 != n->c1)
		return "migration";
	if (n->flags & F_PREEMPT)
		return "preempted";
	if (n->flags & F_VOLUNTARY)
		return "voluntary";
	if (n->flags & F_FAULT)
		return "page_fault";
	if (n->flags & F_SWITCH)
		return "preempted"; /* an in without its out: the out was lost */
	return NULL;
}

void tl_noise_chunk_end(struct tl_noise *nz, struct tl_cell_noise *cn, size_t len)
{
	struct tl_noise_priv *p = nz->p;
	struct chunk *c = &p->chunks[p->nchunks++];

	c->t1 = now_ns();
	c->len = len;
	drain(p);
	drain_wide(p, cn, c->t1);
	for (size_t i = 0; i < p->nnotes; i++) {
		const char *cause = note_cause(&p->notes[i]);
		if (p->notes[i].c0 != p->notes[i].c1)
			p->migrations++;
		if (cause && cn)
			tl_noise_flag_add(cn, p->notes[i].index, tl_noise_intern(cn, cause));
	}
	p->nnotes = 0;
}

/* ---- window-level causes ------------------------------------------------- */

/* The tick's own softirqs ride on it: they name nothing the tick does not. */
static bool tick_softirq(const char *kind)
{
	return !strcmp(kind, "TIMER") || !strcmp(kind, "SCHED") || !strcmp(kind, "RCU") ||
	       !strcmp(kind, "HRTIMER");
}

struct pending {
	size_t cell, index, win;
};

static size_t window_of(const struct monitor *mo, int64_t t)
{
	size_t lo = 0, hi = mo->nwin;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (mo->win[mid].t1 < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < mo->nwin ? lo : mo->nwin - 1;
}

/* Gives the window's long samples its events, most specific first: device
 * interrupts and IPIs, then the ticks, then softirqs of their own, then
 * steal; a sample left over is unexplained (hardware or hypervisor). */
static void explain_window(const struct monitor *mo, const struct window *w, struct pending *pd,
			   size_t npd, struct tl_cell_noise *const *cells)
{
	uint32_t left[MAX_SRC];
	size_t next = 0;
	int loc = -1;

	memcpy(left, w->d, sizeof left);
	for (size_t i = 0; i < mo->nnames; i++)
		if (!mo->soft[i] && !strcmp(mo->names[i], "LOC"))
			loc = (int)i;
	for (size_t k = 0; k < npd; k++) {
		char cause[TL_NOISE_NAME + 10];
		struct tl_cell_noise *cn = cells[pd[k].cell];
		int pass;

		cause[0] = '\0';
		for (pass = 0; pass < 3 && !cause[0]; pass++)
			for (size_t i = 0; i < mo->nnames && !cause[0]; i++) {
				size_t j = (next + i) % mo->nnames;
				bool is_loc = (int)j == loc;
				if (!left[j] || (pass == 0 && (mo->soft[j] || is_loc)) ||
				    (pass == 1 && !is_loc) ||
				    (pass == 2 && (!mo->soft[j] || tick_softirq(mo->names[j]))))
					continue;
				left[j]--;
				next = j + 1;
				if (is_loc)
					snprintf(cause, sizeof cause, "tick");
				else
					snprintf(cause, sizeof cause, "%s:%s",
						 mo->soft[j] ? "softirq" : "irq", mo->names[j]);
			}
		if (!cause[0])
			snprintf(cause, sizeof cause, "%s", w->steal ? "steal" : "unexplained");
		cause[TL_NOISE_NAME - 1] = '\0';
		tl_noise_flag_add(cn, pd[k].index, tl_noise_intern(cn, cause));
	}
}

static int flag_cmp(const void *a, const void *b)
{
	const struct tl_noise_flag *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

static int pending_cmp(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	return (x->win > y->win) - (x->win < y->win);
}

static void count_add(struct tl_noise_count **v, size_t *n, const char *name, uint64_t d)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name)) {
			(*v)[i].n += d;
			return;
		}
	*v = tl_xrealloc(*v, *n + 1, sizeof **v);
	snprintf((*v)[*n].name, TL_NOISE_NAME, "%s", name);
	(*v)[(*n)++].n = d;
}

/* Each cell's sums over the windows its chunks ran in. */
static void sum_windows(const struct tl_noise_priv *p, struct tl_cell_noise *const *cells,
			size_t ncells)
{
	const struct monitor *mo = &p->mon;
	unsigned char *seen = tl_xcalloc(mo->nwin ? mo->nwin : 1, 1);

	for (size_t c = 0; c < ncells; c++) {
		struct tl_cell_noise *cn = cells[c];
		memset(seen, 0, mo->nwin ? mo->nwin : 1);
		for (size_t k = 0; k < p->nchunks; k++) {
			const struct chunk *ch = &p->chunks[k];
			if (ch->cell != c || !mo->nwin)
				continue;
			for (size_t w = window_of(mo, ch->t0); w < mo->nwin && mo->win[w].t0 < ch->t1;
			     w++)
				seen[w] = 1;
		}
		for (size_t w = 0; w < mo->nwin; w++) {
			if (!seen[w])
				continue;
			cn->windows++;
			cn->steal_ms += (double)mo->win[w].steal * 1000.0 / (double)sysconf(_SC_CLK_TCK);
			for (size_t i = 0; i < mo->nnames; i++)
				if (mo->win[w].d[i] && mo->soft[i])
					count_add(&cn->softirq, &cn->nsoftirq, mo->names[i],
						  mo->win[w].d[i]);
				else if (mo->win[w].d[i])
					count_add(&cn->irq, &cn->nirq, mo->names[i], mo->win[w].d[i]);
		}
	}
	free(seen);
}

static void explain_long(const struct tl_noise_priv *p, struct tl_cell_noise *const *cells,
			 double *const *ns, const size_t *done, size_t ncells, double long_ns)
{
	const struct monitor *mo = &p->mon;
	double *limit = tl_xcalloc(ncells ? ncells : 1, sizeof *limit);
	struct pending *pd = NULL;
	size_t npd = 0, cap = 0;

	for (size_t c = 0; c < ncells; c++)
		limit[c] = done[c] ? 1.5 * stats_median(ns[c], done[c]) + long_ns : INFINITY;
	for (size_t k = 0; k < p->nchunks; k++) {
		const struct chunk *ch = &p->chunks[k];
		size_t w = mo->nwin ? window_of(mo, (ch->t0 + ch->t1) / 2) : 0;
		for (size_t i = ch->from; i < ch->from + ch->len && i < done[ch->cell]; i++) {
			if (!(ns[ch->cell][i] > limit[ch->cell]) ||
			    tl_noise_cause_of(cells[ch->cell], i))
				continue;
			if (npd == cap) {
				cap = cap ? 2 * cap : 256;
				pd = tl_xrealloc(pd, cap, sizeof *pd);
			}
			pd[npd++] = (struct pending){ ch->cell, i, w };
		}
	}
	if (npd) /* qsort's pointer may not be NULL, even for no elements */
		qsort(pd, npd, sizeof *pd, pending_cmp);
	for (size_t a = 0, b; a < npd; a = b) {
		for (b = a; b < npd && pd[b].win == pd[a].win; b++)
			;
		if (mo->nwin) {
			explain_window(mo, &mo->win[pd[a].win], pd + a, b - a, cells);
		} else {
			for (size_t k = a; k < b; k++)
				tl_noise_flag_add(cells[pd[k].cell], pd[k].index,
						  tl_noise_intern(cells[pd[k].cell], "unexplained"));
		}
	}
	for (size_t c = 0; c < ncells; c++)
		if (cells[c]->nflag)
			qsort(cells[c]->flag, cells[c]->nflag, sizeof *cells[c]->flag, flag_cmp);
	free(pd);
	free(limit);
}

static void tracker_free(struct tl_noise *nz)
{
	struct tl_noise_priv *p = nz->p;
	long pg = sysconf(_SC_PAGESIZE);

	if (p->page)
		munmap(p->page, (size_t)pg * (RING_PAGES + 1));
	if (p->wpage)
		munmap(p->wpage, (size_t)pg * (RING_PAGES + 1));
	if (p->wfd >= 0)
		close(p->wfd);
	free(p->tasks);
	if (p->ffd >= 0)
		close(p->ffd);
	if (p->fd >= 0)
		close(p->fd);
	free(p->mon.win);
	free(p->notes);
	free(p->chunks);
	free(p);
	free(nz);
}

void tl_noise_close(struct tl_noise *nz, struct tl_cell_noise *const *cells, double *const *ns,
		    const size_t *done, size_t ncells, struct tl_noise_info *info)
{
	if (!nz)
		return;
	monitor_stop(&nz->p->mon);
	explain_long(nz->p, cells, ns, done, ncells, info->long_ns);
	sum_windows(nz->p, cells, ncells);
	tracker_free(nz);
}

/* ---- cells' causes ------------------------------------------------------- */

static const char *const measured[] = { "migration", "preempted", "voluntary", "page_fault" };

bool tl_noise_cause_measured(const char *name)
{
	for (size_t i = 0; i < sizeof measured / sizeof *measured; i++)
		if (!strcmp(name, measured[i]))
			return true;
	return false;
}

bool tl_noise_cause_valid(const char *name)
{
	if (tl_noise_cause_measured(name) || !strcmp(name, "tick") || !strcmp(name, "steal") ||
	    !strcmp(name, "unexplained"))
		return true;
	if (strncmp(name, "irq:", 4) && strncmp(name, "softirq:", 8))
		return false;
	for (const char *s = strchr(name, ':') + 1; *s; s++)
		if (*s < 0x21 || *s > 0x7e || *s == '"' || *s == '\\')
			return false;
	return strlen(name) < TL_NOISE_NAME && name[strlen(name) - 1] != ':';
}

int tl_noise_intern(struct tl_cell_noise *cn, const char *name)
{
	for (size_t i = 0; i < cn->nnames; i++)
		if (!strcmp(cn->names[i], name))
			return (int)i;
	if (cn->nnames >= TL_NOISE_NAMES)
		return -1;
	snprintf(cn->names[cn->nnames], TL_NOISE_NAME, "%s", name);
	return (int)cn->nnames++;
}

void tl_noise_flag_add(struct tl_cell_noise *cn, size_t index, int cause)
{
	if (cause < 0 || index > UINT32_MAX)
		return;
	if (cn->nflag == cn->cap) {
		cn->cap = cn->cap ? 2 * cn->cap : 64;
		cn->flag = tl_xrealloc(cn->flag, cn->cap, sizeof *cn->flag);
	}
	cn->flag[cn->nflag++] = (struct tl_noise_flag){ (uint32_t)index, (uint16_t)cause };
}

const char *tl_noise_cause_of(const struct tl_cell_noise *cn, size_t index)
{
	size_t lo = 0, hi = cn ? cn->nflag : 0;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cn->flag[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < (cn ? cn->nflag : 0) && cn->flag[lo].index == index
		       ? cn->names[cn->flag[lo].cause]
		       : NULL;
}

void tl_cell_noise_free(struct tl_cell_noise *cn)
{
	free(cn->flag);
	free(cn->irq);
	free(cn->softirq);
	free(cn->by);
	memset(cn, 0, sizeof *cn);
}

/* ---- info's probe -------------------------------------------------------- */

static void probe_irqs(struct monitor *mo, uint64_t *vals)
{
	char why[TL_NOISE_WHY];
	memset(vals, 0, MAX_SRC * sizeof *vals);
	(void)read_table(mo, "/proc/interrupts", false, vals, why, sizeof why);
	(void)read_table(mo, "/proc/softirqs", true, vals, why, sizeof why);
}

/* Keeps pr->top the TL_NOISE_PROBE_TOP largest counts, largest first. */
static void probe_top_add(struct tl_noise_probe *pr, const char *kind, const char *name,
			  uint64_t n)
{
	size_t at = pr->ntop;

	if (n == 0)
		return;
	while (at > 0 && pr->top[at - 1].n < n)
		at--;
	if (at >= TL_NOISE_PROBE_TOP)
		return;
	if (pr->ntop < TL_NOISE_PROBE_TOP)
		pr->ntop++;
	memmove(&pr->top[at + 1], &pr->top[at], (pr->ntop - 1 - at) * sizeof pr->top[0]);
	snprintf(pr->top[at].name, sizeof pr->top[at].name, "%s %.*s", kind,
		 (int)(TL_NOISE_NAME - strlen(kind) - 2), name);
	pr->top[at].n = n;
}

static void probe_count(const struct monitor *mo, const uint64_t *before, const uint64_t *after,
			struct tl_noise_probe *pr)
{
	for (size_t i = 0; i < mo->nnames; i++) {
		uint64_t d = after[i] >= before[i] ? after[i] - before[i] : 0;

		if (mo->soft[i]) {
			if (tick_softirq(mo->names[i]))
				continue;
			pr->softirqs += d;
			probe_top_add(pr, "softirq", mo->names[i], d);
		} else if (!strcmp(mo->names[i], "LOC")) {
			pr->ticks += d;
		} else {
			pr->irqs += d;
			probe_top_add(pr, "irq", mo->names[i], d);
		}
	}
}

/* A loop that reads the clock, back to back: each gap between two reads
 * over the long rule is a sample something interrupted. The ring and the
 * CPU are read after every clock read, so records map to gaps as they map
 * to samples in a run. */
static void probe_loop(struct tl_noise *nz, struct tl_cell_noise *cn, double seconds,
		       struct tl_noise_probe *pr, uint32_t **gap, size_t *ngap)
{
	enum { DRAIN = 1 << 16 };
	size_t cap = 0;
	int64_t end, prev;
	struct tl_noise_mark m;

	prev = now_ns();
	end = prev + (int64_t)(seconds * 1e9);
	m = tl_noise_before(nz);
	tl_noise_chunk_begin(nz, 0, 0);
	for (size_t i = 0; prev < end; i++) {
		int64_t t = now_ns();
		tl_noise_after(nz, m, i);
		m = tl_noise_before(nz);
		if ((double)(t - prev) > pr->gap_ns && *ngap < UINT32_MAX) {
			if (*ngap == cap) {
				cap = cap ? 2 * cap : 1024;
				*gap = tl_xrealloc(*gap, cap, sizeof **gap);
			}
			(*gap)[(*ngap)++] = (uint32_t)i;
		}
		prev = t;
		if (i % DRAIN == DRAIN - 1 || nz->p->nnotes + 1 >= nz->p->capnotes) {
			tl_noise_chunk_end(nz, cn, 0);
			tl_noise_chunk_begin(nz, 0, 0);
			m = tl_noise_before(nz);
			prev = now_ns();
		}
	}
	tl_noise_chunk_end(nz, cn, 0);
}

static void probe_by_add(struct tl_noise_probe *pr, const struct tl_noise_count *c)
{
	size_t at = pr->nby;

	while (at > 0 && pr->by[at - 1].n < c->n)
		at--;
	if (at >= TL_NOISE_PROBE_TOP)
		return;
	if (pr->nby < TL_NOISE_PROBE_TOP)
		pr->nby++;
	memmove(&pr->by[at + 1], &pr->by[at], (pr->nby - 1 - at) * sizeof pr->by[0]);
	pr->by[at] = *c;
}

int tl_noise_probe_run(int cpu, double seconds, struct tl_noise_probe *pr, char *why,
		       size_t whylen)
{
	struct monitor mo;
	uint64_t before[MAX_SRC], after[MAX_SRC];
	struct tl_cell_noise cn;
	uint32_t *gap = NULL;
	size_t ngap = 0, caused = 0;
	struct tl_noise *nz;
	cpu_set_t old, set;
	int64_t t0;

	memset(pr, 0, sizeof *pr);
	memset(&mo, 0, sizeof mo);
	memset(&cn, 0, sizeof cn);
	pr->seconds = seconds;
	pr->cpu = cpu;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_getaffinity(0, sizeof old, &old) || sched_setaffinity(0, sizeof set, &set)) {
		snprintf(why, whylen, "cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	nz = tl_noise_open(cpu, 4096, &pr->info);
	t0 = now_ns();
	for (int i = 0; i < 1000; i++)
		(void)now_ns();
	pr->gap_ns = 1.5 * (double)(now_ns() - t0) / 1000.0 + LONG_NS;
	mo.cpu = cpu;
	probe_irqs(&mo, before);
	probe_loop(nz, &cn, seconds, pr, &gap, &ngap);
	probe_irqs(&mo, after);
	probe_count(&mo, before, after, pr);
	for (size_t k = 0; k < ngap; k++)
		caused += tl_noise_cause_of(&cn, gap[k]) != NULL;
	pr->gaps = ngap;
	for (size_t i = 0; i < cn.nby; i++) /* the few busiest, most first */
		probe_by_add(pr, &cn.by[i]);
	pr->preempt = nz->p->preempt;
	pr->voluntary = nz->p->voluntary;
	pr->faults = nz->p->faults;
	pr->migrations = nz->p->migrations;
	pr->unexplained = ngap - caused > pr->ticks + pr->irqs ? ngap - caused - pr->ticks - pr->irqs
							       : 0;
	monitor_stop(&nz->p->mon);
	tracker_free(nz);
	tl_cell_noise_free(&cn);
	free(gap);
	(void)sched_setaffinity(0, sizeof old, &old);
	return 0;
}
