#include "config.h"

#include "bench/topology.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* sysfs writes cache sizes as "32K", "28160K", rarely "1M" or plain bytes. */
static int parse_sysfs_size(const char *s, uint64_t *bytes)
{
	char *end;
	unsigned long long v;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case '\0': *bytes = v; return 0;
	case 'K': v <<= 10; break;
	case 'M': v <<= 20; break;
	case 'G': v <<= 30; break;
	default: return -1;
	}
	if (end[1] != '\0')
		return -1;
	*bytes = v;
	return 0;
}

static int cmp_index(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* index* entries in numeric order (readdir order is arbitrary). */
static int list_indexes(const char *dir, int *idx, size_t max, size_t *n, char *why,
			size_t whylen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (!d) {
		snprintf(why, whylen, "no cache information: cannot open %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	*n = 0;
	while ((e = readdir(d)) != NULL) {
		int i;
		char tail;
		if (sscanf(e->d_name, "index%d%c", &i, &tail) != 1 || i < 0)
			continue;
		if (*n < max)
			idx[(*n)++] = i;
	}
	closedir(d);
	if (*n == 0) {
		snprintf(why, whylen, "no cache information: %s has no index* entries", dir);
		return -1;
	}
	qsort(idx, *n, sizeof *idx, cmp_index);
	return 0;
}

static int read_field(const char *dir, int index, const char *name, char *buf, size_t len,
		      char *why, size_t whylen)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/index%d/%s", dir, index, name);
	if (tl_sysfs_read_line(path, buf, len) == 0)
		return 0;
	snprintf(why, whylen, "cannot read cache %s from %s", name, path);
	return -1;
}

static int read_cache(const char *dir, int index, struct tl_cache *c, char *why, size_t whylen)
{
	char buf[128];
	char *end;

	memset(c, 0, sizeof *c);
	if (read_field(dir, index, "level", buf, sizeof buf, why, whylen))
		return -1;
	c->level = (int)strtol(buf, &end, 10);
	if (*end || c->level < 1 || c->level > 4) {
		snprintf(why, whylen, "%s/index%d/level: \"%s\" is not a cache level 1..4", dir,
			 index, buf);
		return -1;
	}
	if (read_field(dir, index, "type", c->type, sizeof c->type, why, whylen))
		return -1;
	if (strcmp(c->type, "Data") && strcmp(c->type, "Instruction") &&
	    strcmp(c->type, "Unified")) {
		snprintf(why, whylen,
			 "%s/index%d/type: \"%s\" is not Data, Instruction or Unified", dir, index,
			 c->type);
		return -1;
	}
	if (read_field(dir, index, "size", buf, sizeof buf, why, whylen))
		return -1;
	if (parse_sysfs_size(buf, &c->bytes) || c->bytes == 0) {
		snprintf(why, whylen,
			 "%s/index%d/size: \"%s\" is not a size like 32K (a number, then K, M or G)",
			 dir, index, buf);
		return -1;
	}
	/* Optional: older kernels and some VMs leave these out. */
	if (read_field(dir, index, "coherency_line_size", buf, sizeof buf, why, whylen) == 0)
		c->line = (unsigned)strtoul(buf, NULL, 10);
	(void)read_field(dir, index, "shared_cpu_list", c->shared_cpus, sizeof c->shared_cpus,
			 why, whylen);
	return 0;
}

int tl_topology_read(const char *root, int cpu, struct tl_topology *topo, char *why,
		     size_t whylen)
{
	char dir[4096];
	int idx[64];
	size_t n;

	memset(topo, 0, sizeof *topo);
	if (cpu < 0) {
		snprintf(why, whylen, "bad CPU %d: CPUs are numbered from 0", cpu);
		return -1;
	}
	snprintf(dir, sizeof dir, "%s%ssys/devices/system/cpu/cpu%d/cache",
		 root ? root : "/", root && root[0] && root[strlen(root) - 1] == '/' ? "" : "/",
		 cpu);
	if (list_indexes(dir, idx, sizeof idx / sizeof idx[0], &n, why, whylen))
		return -1;
	for (size_t i = 0; i < n && topo->ncaches < TL_MAX_CACHES; i++) {
		struct tl_cache *c = &topo->caches[topo->ncaches];
		if (read_cache(dir, idx[i], c, why, whylen))
			return -1;
		topo->ncaches++;
		if (c->level == 1 && !strcmp(c->type, "Data"))
			topo->l1d = c->bytes;
		else if (c->level == 2 && strcmp(c->type, "Instruction"))
			topo->l2 = c->bytes;
		else if (c->level == 3 && strcmp(c->type, "Instruction"))
			topo->l3 = c->bytes;
	}
	return 0;
}
