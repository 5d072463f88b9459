/* The node's levels record: written after a chase, read before one. */
#include "config.h"

#include "bench/levels_store.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FORMAT "ticklab-levels 1"
#define RECORD_MAX_BYTES (64u << 10)

struct node_key {
	char host[128], model[128], boot[64], limit[64];
};

static void first_line(const char *path, const char *prefix, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];

	out[0] = '\0';
	while (f && fgets(line, sizeof line, f)) {
		char *v;

		if (prefix && strncmp(line, prefix, strlen(prefix)))
			continue;
		v = prefix ? strchr(line, ':') : line;
		if (!v)
			continue;
		v += prefix ? 1 : 0;
		v += strspn(v, " \t");
		v[strcspn(v, "\r\n")] = '\0';
		snprintf(out, len, "%s", v);
		break;
	}
	if (f)
		fclose(f);
}

/* What makes a record this node's: the host, its CPU, this boot (a
 * hypervisor may place a guest elsewhere at boot) and the chase's limit. */
static void node_key(struct node_key *k)
{
	const char *limit = getenv("TL_LEVELS_MAX");

	if (gethostname(k->host, sizeof k->host) != 0 || !k->host[0])
		snprintf(k->host, sizeof k->host, "unknown");
	k->host[sizeof k->host - 1] = '\0';
	first_line("/proc/cpuinfo", "model name", k->model, sizeof k->model);
	if (!k->model[0])
		snprintf(k->model, sizeof k->model, "unknown");
	first_line("/proc/sys/kernel/random/boot_id", NULL, k->boot, sizeof k->boot);
	if (!k->boot[0])
		snprintf(k->boot, sizeof k->boot, "unknown");
	snprintf(k->limit, sizeof k->limit, "%s", limit && limit[0] ? limit : "default");
	for (char *p = k->limit; *p; p++)
		if (isspace((unsigned char)*p))
			*p = '_';
}

int tl_levels_store_path(char *path, size_t len, char *why, size_t whylen)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct node_key k;
	char dir[4096];

	if (xdg && xdg[0] == '/')
		snprintf(dir, sizeof dir, "%s/ticklab", xdg);
	else if (home && home[0] == '/')
		snprintf(dir, sizeof dir, "%s/.cache/ticklab", home);
	else {
		snprintf(why, whylen, "neither XDG_CACHE_HOME nor HOME is an absolute path");
		return -1;
	}
	node_key(&k);
	for (char *p = k.host; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-' && *p != '_')
			*p = '_';
	if ((size_t)snprintf(path, len, "%s/levels-%s.txt", dir, k.host) >= len) {
		snprintf(why, whylen, "the cache directory's path is too long");
		return -1;
	}
	return 0;
}

/* Reads the record whole, refusing what is not a small regular file (a
 * FIFO must not hang a run). */
static char *slurp(const char *path, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf;
	ssize_t got;

	if (fd < 0) {
		snprintf(why, whylen, "no record at %s: %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > RECORD_MAX_BYTES) {
		snprintf(why, whylen, "%s is not a regular file of at most %u bytes", path,
			 RECORD_MAX_BYTES);
		close(fd);
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	got = buf ? read(fd, buf, (size_t)st.st_size) : -1;
	close(fd);
	if (got != st.st_size) {
		free(buf);
		snprintf(why, whylen, "cannot read %s", path);
		return NULL;
	}
	buf[got] = '\0';
	return buf;
}

struct record {
	struct node_key key;
	int64_t measured_at;
	unsigned passes;
	int settled, cpu;
	double write_rate;
	char timer[32], source[320], unstable[320];
	size_t npoints, nranges;
	double bytes[STATS_LEVELS_MAX_POINTS], ns[STATS_LEVELS_MAX_POINTS];
	uint64_t range[TL_MEMORY_LEVELS_MAX][3];
};

static void text_value(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* One "key value" line into r; -1 on a line that does not parse. */
static int parse_line(struct record *r, const char *key, const char *v)
{
	unsigned long long a, b, c;
	double x, y;

	if (!strcmp(key, "host"))
		text_value(r->key.host, sizeof r->key.host, v);
	else if (!strcmp(key, "model"))
		text_value(r->key.model, sizeof r->key.model, v);
	else if (!strcmp(key, "boot"))
		text_value(r->key.boot, sizeof r->key.boot, v);
	else if (!strcmp(key, "limit"))
		text_value(r->key.limit, sizeof r->key.limit, v);
	else if (!strcmp(key, "timer"))
		text_value(r->timer, sizeof r->timer, v);
	else if (!strcmp(key, "source"))
		text_value(r->source, sizeof r->source, v);
	else if (!strcmp(key, "unstable"))
		text_value(r->unstable, sizeof r->unstable, strcmp(v, "-") ? v : "");
	else if (!strcmp(key, "measured"))
		return sscanf(v, "%" SCNd64, &r->measured_at) == 1 ? 0 : -1;
	else if (!strcmp(key, "passes"))
		return sscanf(v, "%u", &r->passes) == 1 ? 0 : -1;
	else if (!strcmp(key, "settled"))
		return sscanf(v, "%d", &r->settled) == 1 ? 0 : -1;
	else if (!strcmp(key, "cpu"))
		return sscanf(v, "%d", &r->cpu) == 1 ? 0 : -1;
	else if (!strcmp(key, "write_bytes_per_ns"))
		return sscanf(v, "%lf", &r->write_rate) == 1 && r->write_rate >= 0 ? 0 : -1;
	else if (!strcmp(key, "point")) {
		if (r->npoints == STATS_LEVELS_MAX_POINTS || sscanf(v, "%lf %lf", &x, &y) != 2 ||
		    !(x > 0 && x < 1e15 && y > 0 && y < 1e9) ||
		    (r->npoints && x <= r->bytes[r->npoints - 1]))
			return -1;
		r->bytes[r->npoints] = x;
		r->ns[r->npoints++] = y;
	} else if (!strcmp(key, "range")) {
		if (r->nranges == TL_MEMORY_LEVELS_MAX || sscanf(v, "%llu %llu %llu", &a, &b, &c) != 3 ||
		    b > c)
			return -1;
		r->range[r->nranges][0] = a;
		r->range[r->nranges][1] = b;
		r->range[r->nranges++][2] = c;
	}
	return 0;
}

static int parse(char *text, struct record *r)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);

	if (!line || strcmp(line, FORMAT))
		return -1;
	while ((line = strtok_r(NULL, "\n", &save))) {
		char *sp = strchr(line, ' ');

		if (!sp)
			return -1;
		*sp = '\0';
		if (parse_line(r, line, sp + 1) < 0)
			return -1;
	}
	return r->npoints >= 2 ? 0 : -1;
}

static const char *stale(const struct record *r, char *why, size_t whylen)
{
	struct node_key now;
	int64_t age = (int64_t)time(NULL) - r->measured_at;

	node_key(&now);
	if (strcmp(now.host, r->key.host) || strcmp(now.model, r->key.model))
		snprintf(why, whylen, "the record is of another host or CPU");
	else if (strcmp(now.boot, r->key.boot))
		snprintf(why, whylen, "the record is from an earlier boot");
	else if (strcmp(now.limit, r->key.limit))
		snprintf(why, whylen, "the record was chased under another TL_LEVELS_MAX");
	else if (age < 0 || age > TL_LEVELS_STORE_MAX_AGE_S)
		snprintf(why, whylen, "the record is older than a week");
	else
		return NULL;
	return why;
}

static void when(int64_t at, char *buf, size_t len)
{
	time_t t = (time_t)at;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(buf, len, "an unknown time");
}

static void apply(const struct record *r, const char *path, const struct tl_topology *topo,
		  struct tl_levels *lv)
{
	char at[64];

	tl_levels_from_ladder(r->bytes, r->ns, r->npoints, topo, lv);
	for (size_t i = 0; i < lv->nlevels; i++)
		for (size_t j = 0; j < r->nranges; j++)
			if (lv->level[i].seen && lv->level[i].boundary_bytes == r->range[j][0]) {
				lv->level[i].range_lo_bytes = r->range[j][1];
				lv->level[i].range_hi_bytes = r->range[j][2];
			}
	lv->passes = r->passes;
	lv->settled = r->settled != 0;
	lv->measured_at = r->measured_at;
	lv->write_bytes_per_ns = r->write_rate;
	lv->from_record = true;
	snprintf(lv->timer, sizeof lv->timer, "%s", r->timer);
	snprintf(lv->source, sizeof lv->source, "%s", r->source);
	snprintf(lv->unstable, sizeof lv->unstable, "%s", r->unstable);
	when(r->measured_at, at, sizeof at);
	snprintf(lv->kept, sizeof lv->kept,
		 "read from %.200s, measured %s (info --remeasure chases again)", path, at);
}

int tl_levels_store_load(const struct tl_topology *topo, struct tl_levels *lv, char *why,
			 size_t whylen)
{
	char path[4096], *text;
	struct record *r;
	int rc = -1;

	memset(lv, 0, sizeof *lv);
	if (tl_levels_store_path(path, sizeof path, why, whylen) < 0 ||
	    !(text = slurp(path, why, whylen)))
		return -1;
	r = calloc(1, sizeof *r);
	if (!r)
		snprintf(why, whylen, "out of memory");
	else if (parse(text, r) < 0)
		snprintf(why, whylen, "%s is not a levels record this version reads", path);
	else if (!stale(r, why, whylen)) {
		apply(r, path, topo, lv);
		rc = lv->measured ? 0 : -1;
	}
	free(r);
	free(text);
	if (rc < 0)
		memset(lv, 0, sizeof *lv);
	return rc;
}

static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

static void write_record(FILE *f, int cpu, const struct tl_levels *lv)
{
	struct node_key k;
	char source[sizeof lv->source], unstable[sizeof lv->unstable];

	node_key(&k);
	one_line(k.host);
	one_line(k.model);
	snprintf(source, sizeof source, "%s", lv->source);
	snprintf(unstable, sizeof unstable, "%s", lv->unstable[0] ? lv->unstable : "-");
	one_line(source);
	one_line(unstable);
	fprintf(f, FORMAT "\nhost %s\nmodel %s\nboot %s\nlimit %s\n", k.host, k.model, k.boot,
		k.limit);
	fprintf(f, "measured %" PRId64 "\ncpu %d\ntimer %s\npasses %u\nsettled %d\n",
		lv->measured_at, cpu, lv->timer[0] ? lv->timer : "-", lv->passes, lv->settled);
	fprintf(f, "write_bytes_per_ns %.17g\nsource %s\nunstable %s\n", lv->write_bytes_per_ns,
		source, unstable);
	for (size_t i = 0; i < lv->npoints; i++)
		fprintf(f, "point %.17g %.17g\n", lv->bytes[i], lv->ns[i]);
	for (size_t i = 0; i < lv->nlevels; i++)
		if (lv->level[i].seen && lv->level[i].range_hi_bytes)
			fprintf(f, "range %llu %llu %llu\n",
				(unsigned long long)lv->level[i].boundary_bytes,
				(unsigned long long)lv->level[i].range_lo_bytes,
				(unsigned long long)lv->level[i].range_hi_bytes);
}

static int make_dirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int tl_levels_store_save(int cpu, struct tl_levels *lv, char *why, size_t whylen)
{
	char path[4096], tmp[4200], at[64];
	FILE *f;
	int fd, ok;

	if (tl_levels_store_path(path, sizeof path, why, whylen) < 0)
		return -1;
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	if (make_dirs(tmp) < 0 || (fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC |
						   O_NOFOLLOW, 0644)) < 0) {
		snprintf(why, whylen, "cannot write %.300s: %s", tmp, strerror(errno));
		return -1;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		snprintf(why, whylen, "cannot write %.300s", tmp);
		return -1;
	}
	write_record(f, cpu, lv);
	ok = !ferror(f);
	ok &= fclose(f) == 0;
	if (!ok || rename(tmp, path)) {
		unlink(tmp);
		snprintf(why, whylen, "cannot write %.300s", path);
		return -1;
	}
	when(lv->measured_at, at, sizeof at);
	snprintf(lv->kept, sizeof lv->kept,
		 "kept in %.200s, measured %s (info --remeasure chases again)", path, at);
	return 0;
}
