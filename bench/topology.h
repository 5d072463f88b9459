/* Cache topology from sysfs (a root directory tests can point at fixtures). */
#ifndef TL_BENCH_TOPOLOGY_H
#define TL_BENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TL_MAX_CACHES 8

struct tl_cache {
	int level;        /* 1, 2, 3 */
	char type[16];    /* "Data", "Instruction", "Unified" */
	uint64_t bytes;
	unsigned line;    /* coherency_line_size */
	char shared_cpus[64]; /* shared_cpu_list */
};

struct tl_topology {
	size_t ncaches;
	struct tl_cache caches[TL_MAX_CACHES];
	uint64_t l1d, l2, l3; /* 0 when the level is absent */
};

/* The first line of a small sysfs or procfs file into buf, trailing white
 * space and newline removed; -1 when it cannot be read or the line is empty.
 * Shared with host.c, which reads its facts the same way. */
int tl_sysfs_read_line(const char *path, char *buf, size_t len);

/* root: "/" normally; reads <root>/sys/devices/system/cpu/cpu<cpu>/cache/index*. */
int tl_topology_read(const char *root, int cpu, struct tl_topology *topo, char *why,
		     size_t whylen);

#endif
