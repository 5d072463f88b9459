#include "config.h"

#include "bench/topology.h"

#include "base/file_guard.h"

#include <ctype.h>
#include <errno.h>
#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int tl_sysfs_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strcspn(buf, "\n");
	while (n && isspace((unsigned char)buf[n - 1]))
		n--;
	buf[n] = '\0';
	return buf[0] ? 0 : -1;
}

static const char *root_info(hwloc_topology_t t, const char *name)
{
	const char *v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(t), name);
	return v && v[0] ? v : NULL;
}

/* The library's own version for a live load; an XML file keeps the version
 * of the hwloc that wrote it. */
static const char *version_of(hwloc_topology_t t)
{
	const char *v = root_info(t, "hwlocVersion");
	return v ? v : HWLOC_VERSION;
}

/* hwloc opens an XML file with a plain fopen: a FIFO there (given, or in
 * HWLOC_XMLFILE) would block the load and /dev/zero would never end, so the
 * file is looked at first with the guards every saved file gets. */
static int xml_file_ok(const char *path, const char *from, char *why, size_t whylen)
{
	uint64_t size;
	const char *kind;
	int fd;

	if (!path || !path[0])
		return 0;
	fd = tl_file_open_regular(path, 0, &size, &kind);
	if (fd >= 0)
		close(fd);
	/* Other failures (a missing file) are hwloc's to say, as before. */
	if (!kind)
		return 0;
	snprintf(why, whylen, "hwloc XML file %s%s: is %s, not a regular file (accepted: an XML "
			      "file that lstopo wrote)",
		 path, from, kind);
	return -1;
}

static int load(const char *xmlpath, hwloc_topology_t *t, char *why, size_t whylen)
{
	if (xmlpath ? xml_file_ok(xmlpath, "", why, whylen) < 0
		    : xml_file_ok(getenv("HWLOC_XMLFILE"), " (HWLOC_XMLFILE)", why, whylen) < 0)
		return -1;
	if (hwloc_topology_init(t)) {
		snprintf(why, whylen, "hwloc cannot start: %s", strerror(errno));
		return -1;
	}
	/* hwloc drops instruction caches by default; the lab lists them as sysfs did. */
	hwloc_topology_set_cache_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_ALL);
	hwloc_topology_set_icache_types_filter(*t, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (xmlpath && hwloc_topology_set_xml(*t, xmlpath)) {
		snprintf(why, whylen, "hwloc cannot load XML file %s: %s", xmlpath, strerror(errno));
		hwloc_topology_destroy(*t);
		return -1;
	}
	if (hwloc_topology_load(*t)) {
		if (xmlpath)
			snprintf(why, whylen, "hwloc cannot load XML file %s: %s", xmlpath,
				 strerror(errno));
		else
			snprintf(why, whylen, "hwloc cannot discover this machine: %s",
				 strerror(errno));
		hwloc_topology_destroy(*t);
		return -1;
	}
	return 0;
}

static const char *cache_type(hwloc_obj_cache_type_t type)
{
	switch (type) {
	case HWLOC_OBJ_CACHE_DATA: return "Data";
	case HWLOC_OBJ_CACHE_INSTRUCTION: return "Instruction";
	default: return "Unified";
	}
}

/* sysfs's index order, which tests and readers of `ticklab info` know:
 * by level, and within a level Data, Instruction, Unified. */
static int cmp_cache(const void *a, const void *b)
{
	const struct tl_cache *x = a, *y = b;
	if (x->level != y->level)
		return (x->level > y->level) - (x->level < y->level);
	return strcmp(x->type, y->type);
}

static void note_level(struct tl_topology *topo, const struct tl_cache *c)
{
	if (!strcmp(c->type, "Instruction"))
		return;
	if (c->level == 1)
		topo->l1d = c->bytes;
	else if (c->level == 2)
		topo->l2 = c->bytes;
	else if (c->level == 3)
		topo->l3 = c->bytes;
}

static void add_cache(struct tl_topology *topo, hwloc_obj_t o)
{
	struct tl_cache *c = &topo->caches[topo->ncaches++];

	c->level = (int)o->attr->cache.depth;
	snprintf(c->type, sizeof c->type, "%s", cache_type(o->attr->cache.type));
	c->bytes = o->attr->cache.size;
	c->line = o->attr->cache.linesize;
	/* Too many sharers for the buffer (a huge L3) is display text cut short. */
	if (hwloc_bitmap_list_snprintf(c->shared_cpus, sizeof c->shared_cpus, o->cpuset) < 0)
		c->shared_cpus[0] = '\0';
}

static int fill(hwloc_topology_t t, int cpu, struct tl_topology *topo, char *why, size_t whylen)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t, (unsigned)cpu);
	char cpus[64];

	if (!pu) {
		if (hwloc_bitmap_list_snprintf(cpus, sizeof cpus,
					       hwloc_topology_get_complete_cpuset(t)) < 0)
			cpus[0] = '\0';
		snprintf(why, whylen, "no cache information: CPU %d is not in the topology "
			 "(its CPUs are %s)", cpu, cpus);
		return -1;
	}
	/* Memory-side caches are not hwloc_obj_type_is_cache: only the CPU's own. */
	for (hwloc_obj_t o = pu->parent; o && topo->ncaches < TL_MAX_CACHES; o = o->parent)
		if (hwloc_obj_type_is_cache(o->type))
			add_cache(topo, o);
	if (topo->ncaches == 0) {
		snprintf(why, whylen, "no cache information: hwloc found no caches above CPU %d",
			 cpu);
		return -1;
	}
	qsort(topo->caches, topo->ncaches, sizeof topo->caches[0], cmp_cache);
	for (size_t i = 0; i < topo->ncaches; i++)
		note_level(topo, &topo->caches[i]);
	return 0;
}

static int check_cpu(int cpu, struct tl_topology *topo, char *why, size_t whylen)
{
	memset(topo, 0, sizeof *topo);
	if (cpu >= 0)
		return 0;
	snprintf(why, whylen, "bad CPU %d: CPUs are numbered from 0", cpu);
	return -1;
}

static int dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Under HWLOC_FSROOT when set: hwloc's Linux backend reads sysfs there. */
static int sysfs_has_caches(int cpu)
{
	const char *fsroot = getenv("HWLOC_FSROOT");
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/sys/devices/system/cpu/cpu%d/cache", fsroot ? fsroot : "",
		 cpu);
	return dir_exists(dir);
}

static void append(char *buf, size_t len, const char *tail)
{
	size_t n = strlen(buf);
	if (n + 1 < len)
		snprintf(buf + n, len - n, "%s", tail);
}

/* hwloc's Linux backend reads sysfs; where a VM leaves out the cache folder
 * (the bhyve guest in shared/nodes) its x86 backend fills the caches in from
 * CPUID. Neither marks the caches it made, so the folder tells them apart. */
static void live_source(hwloc_topology_t t, int cpu, char *src, size_t len)
{
	const char *ver = version_of(t), *env, *backend = root_info(t, "Backend");

	if ((env = getenv("HWLOC_XMLFILE")) && env[0] && !hwloc_topology_is_thissystem(t)) {
		snprintf(src, len, "hwloc %s: XML file %s (HWLOC_XMLFILE)", ver, env);
		return;
	}
	if (backend && !strcmp(backend, "Synthetic")) {
		snprintf(src, len, "hwloc %s: synthetic topology (HWLOC_SYNTHETIC)", ver);
		return;
	}
	env = getenv("HWLOC_FSROOT");
	if (sysfs_has_caches(cpu))
		snprintf(src, len, "hwloc %s: Linux sysfs%s%s%s", ver, env ? " under " : "",
			 env ? env : "", env ? " (HWLOC_FSROOT)" : "");
#if defined(__x86_64__) || defined(__i386__)
	else if ((env = getenv("HWLOC_CPUID_PATH")) && env[0])
		snprintf(src, len, "hwloc %s: x86 CPUID dump in %s (HWLOC_CPUID_PATH)", ver, env);
	else
		snprintf(src, len, "hwloc %s: x86 CPUID (no sysfs cache folder)", ver);
#else
	else
		snprintf(src, len, "hwloc %s: %s backend (no sysfs cache folder)", ver,
			 backend ? backend : "unknown");
#endif
}

#if defined(__x86_64__) || defined(__i386__)
#define NO_SYSFS_NO_CACHES " (this machine has no sysfs cache folder, and CPUID gave none)"
#else
#define NO_SYSFS_NO_CACHES " (this machine has no sysfs cache folder)"
#endif

int tl_topology_read_live(int cpu, struct tl_topology *topo, char *why, size_t whylen)
{
	hwloc_topology_t t;
	int rc;

	if (check_cpu(cpu, topo, why, whylen) || load(NULL, &t, why, whylen))
		return -1;
	rc = fill(t, cpu, topo, why, whylen);
	if (rc == 0)
		live_source(t, cpu, topo->source, sizeof topo->source);
	else if (topo->ncaches == 0 && hwloc_topology_is_thissystem(t) && !sysfs_has_caches(cpu))
		append(why, whylen, NO_SYSFS_NO_CACHES);
	hwloc_topology_destroy(t);
	return rc;
}

int tl_topology_read_xml(const char *xmlpath, int cpu, struct tl_topology *topo, char *why,
			 size_t whylen)
{
	hwloc_topology_t t;
	int rc;

	if (check_cpu(cpu, topo, why, whylen) || load(xmlpath, &t, why, whylen))
		return -1;
	if (root_info(t, "hwlocVersion"))
		snprintf(topo->source, sizeof topo->source, "hwloc XML file %s (written by hwloc %s)",
			 xmlpath, root_info(t, "hwlocVersion"));
	else
		snprintf(topo->source, sizeof topo->source, "hwloc XML file %s", xmlpath);
	rc = fill(t, cpu, topo, why, whylen);
	hwloc_topology_destroy(t);
	return rc;
}

size_t tl_topology_ends(const struct tl_topology *topo, double *ends, const char **names)
{
	static const char *const level_names[] = { "L1d", "L2", "L3" };
	size_t n = 0;

	for (int l = 0; topo && l < 3; l++) {
		uint64_t b = l == 0 ? topo->l1d : l == 1 ? topo->l2 : topo->l3;

		/* A level no larger than the one before would make the size
		 * order and the level order disagree: leave it out. */
		if (b == 0 || (n && (double)b <= ends[n - 1]))
			continue;
		ends[n] = (double)b;
		names[n++] = level_names[l];
	}
	names[n] = "memory";
	return n;
}
