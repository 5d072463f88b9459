/* Cache topology from hwloc: the running machine, or an hwloc XML export
 * (tests load fixtures of machines they do not run on). */
#ifndef TL_BENCH_TOPOLOGY_H
#define TL_BENCH_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#define TL_MAX_CACHES 8

struct tl_cache {
	int level;        /* 1, 2, 3 */
	char type[16];    /* "Data", "Instruction", "Unified" */
	uint64_t bytes;
	unsigned line;    /* coherency line size; 0 when hwloc does not know it */
	char shared_cpus[64]; /* CPUs sharing it, as a list: "0-19,40-59" */
};

struct tl_topology {
	size_t ncaches;   /* by level, Data before Instruction, as sysfs orders them */
	struct tl_cache caches[TL_MAX_CACHES];
	uint64_t l1d, l2, l3; /* 0 when the level is absent */
	/* Where the sizes came from, e.g. "hwloc 2.9.0: Linux sysfs" or
	 * "hwloc 2.9.0: x86 CPUID (no sysfs cache folder)": a VM can hide one. */
	char source[256];
};

/* The first line of a small sysfs or procfs file into buf, trailing white
 * space and newline removed; -1 when it cannot be read or the line is empty.
 * Shared with host.c, which reads its facts the same way. */
int tl_sysfs_read_line(const char *path, char *buf, size_t len);

/* The caches above CPU cpu of the running machine (or of HWLOC_XMLFILE and
 * the other HWLOC_* overrides when set: hwloc honours them, and so does
 * source). -1 with why when hwloc fails or finds no cache. */
int tl_topology_read_live(int cpu, struct tl_topology *topo, char *why, size_t whylen);

/* The same from an hwloc XML export (lstopo --of xml, hwloc-gather-topology). */
int tl_topology_read_xml(const char *xmlpath, int cpu, struct tl_topology *topo, char *why,
			 size_t whylen);

/* The cache ends of topo (L1d, L2, L3 that are present and each larger than
 * the one before, ascending) into ends[3] and their names ("L1d", "L2",
 * "L3") into names, "memory" last: names gets nends + 1 entries. topo may be
 * NULL: no ends, everything is "memory". Returns nends. */
size_t tl_topology_ends(const struct tl_topology *topo, double *ends, const char **names);

#endif
