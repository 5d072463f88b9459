#include "config.h"

#include "io/results.h"
#include "io/jitter.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/size.h"

/* ------------------------------------------------------------------ */
/* Atomic writes                                                        */
/* ------------------------------------------------------------------ */

static int write_stdout(int (*emit)(FILE *f, void *ctx), void *ctx, char *why, size_t whylen)
{
	errno = 0;
	if (emit(stdout, ctx) < 0 || fflush(stdout) == EOF || ferror(stdout)) {
		snprintf(why, whylen, "cannot write to standard output: %s",
			 errno ? strerror(errno) : "write error");
		return -1;
	}
	return 0;
}

/* Best effort: makes the rename itself durable. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int fd;

	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/* The file a chain of symlinks at path ends at (which may not exist yet:
 * a dangling link names the file to create). Relative targets are taken
 * from the link's directory. NULL with errno set (ELOOP, ENOMEM, ...). */
static char *follow_links(const char *path)
{
	char *cur = strdup(path);

	for (int depth = 0; cur; depth++) {
		struct stat st;
		char target[4096];
		ssize_t n;
		char *next;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (depth == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		n = readlink(cur, target, sizeof target - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		target[n] = '\0';
		if (target[0] == '/' || !strrchr(cur, '/')) {
			next = strdup(target);
		} else {
			size_t dirlen = (size_t)(strrchr(cur, '/') - cur) + 1;
			next = malloc(dirlen + (size_t)n + 1);
			if (next)
				snprintf(next, dirlen + (size_t)n + 1, "%.*s%s", (int)dirlen, cur, target);
		}
		free(cur);
		cur = next;
	}
	return NULL;
}

struct tl_out {
	char *path;    /* what the caller named (for messages) */
	char *target;  /* the file replaced: path with its symlinks followed */
	char *tmpname; /* the named temporary (mkstemp), or NULL */
	int fd;
	bool in_place;  /* not a regular file: written where it is */
	bool anonymous; /* O_TMPFILE: no name until committed */
	bool exists;    /* target was a regular file: keep its mode */
	struct stat st;
};

static void out_free(struct tl_out *o)
{
	free(o->path);
	free(o->target);
	free(o->tmpname);
	free(o);
}

static struct tl_out *out_fail(struct tl_out *o, int err, char *why, size_t whylen)
{
	snprintf(why, whylen, "cannot write '%s': %s", o->path, strerror(err));
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmpname)
		unlink(o->tmpname);
	out_free(o);
	return NULL;
}

struct tl_out *tl_out_open(const char *path, char *why, size_t whylen)
{
	struct tl_out *o;
	const char *slash, *base;
	size_t dirlen, len;
	mode_t mask;

	o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		snprintf(why, whylen, "cannot write '%s': out of memory", path);
		return NULL;
	}
	o->fd = -1;
	if (strcmp(path, "-") == 0) {
		o->in_place = true;
		return o;
	}
	/* Devices, FIFOs, sockets (and what /dev/stdout leads to) are written
	 * where they are, as a shell's > would: replacing /dev/null or a FIFO
	 * with a regular file is never what was meant. */
	if (stat(path, &o->st) == 0 && !S_ISREG(o->st.st_mode)) {
		if (S_ISDIR(o->st.st_mode)) {
			snprintf(why, whylen, "cannot write '%s': it is a directory", path);
			out_free(o);
			return NULL;
		}
		o->in_place = true;
		o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		return o->fd < 0 ? out_fail(o, errno, why, whylen) : o;
	}
	o->exists = stat(path, &o->st) == 0;
	/* A symlink is followed: the file it points at is replaced, not the link. */
	o->target = follow_links(path);
	if (!o->target)
		return out_fail(o, errno, why, whylen);
	slash = strrchr(o->target, '/');
	dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;
	base = slash ? slash + 1 : o->target;
	if (*base == '\0') {
		snprintf(why, whylen, "cannot write '%s': the path names a directory, not a file", path);
		out_free(o);
		return NULL;
	}
	mask = umask(0);
	umask(mask);
#ifdef O_TMPFILE
	/* An anonymous temporary: a kill -9 before the commit leaves nothing. */
	{
		char *dir = dirlen ? strndup(o->target, dirlen) : strdup(".");

		if (!dir)
			return out_fail(o, ENOMEM, why, whylen);
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666 & ~mask);
		free(dir);
		if (o->fd >= 0)
			o->anonymous = true;
		else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return out_fail(o, errno, why, whylen);
	}
#endif
	if (o->fd < 0) {
		/* The temporary lives beside the target so rename() stays on one
		 * file system and is atomic. */
		len = strlen(o->target) + 32;
		o->tmpname = malloc(len);
		if (!o->tmpname)
			return out_fail(o, ENOMEM, why, whylen);
		snprintf(o->tmpname, len, "%.*s.%s.XXXXXX", (int)dirlen, o->target, base);
		o->fd = mkstemp(o->tmpname);
		if (o->fd < 0) {
			int err = errno;
			free(o->tmpname);
			o->tmpname = NULL;
			return out_fail(o, err, why, whylen);
		}
	}
	/* An existing file keeps its mode (and, best effort, its owner); a new
	 * one gets the usual 0666 & ~umask, not mkstemp's 0600. */
	if (o->exists) {
		(void)fchmod(o->fd, o->st.st_mode & 07777);
		if (o->st.st_uid != geteuid() || o->st.st_gid != getegid())
			(void)!fchown(o->fd, o->st.st_uid, o->st.st_gid);
	} else {
		(void)fchmod(o->fd, 0666 & ~mask);
	}
	return o;
}

bool tl_out_in_place(const struct tl_out *o)
{
	return o->in_place;
}

void tl_out_abort(struct tl_out *o)
{
	if (!o)
		return;
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmpname)
		unlink(o->tmpname);
	out_free(o);
}

/* Gives the anonymous temporary a name beside the target, then renames it
 * over the target; a new target is linked directly (no name to clean up). */
static int out_link(struct tl_out *o)
{
	char proc[64];
	size_t len = strlen(o->target) + 32;
	const char *slash = strrchr(o->target, '/');
	size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->target, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	o->tmpname = malloc(len);
	if (!o->tmpname) {
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < 100; i++) {
		snprintf(o->tmpname, len, "%.*s.%s.%06x", (int)dirlen, o->target,
			 o->target + dirlen, (unsigned)(rand() & 0xffffff));
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmpname, AT_SYMLINK_FOLLOW) == 0)
			return rename(o->tmpname, o->target);
		if (errno != EEXIST)
			break;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	return -1;
}

int tl_out_commit(struct tl_out *o, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		  size_t whylen)
{
	FILE *f;
	int err, ok;

	if (strcmp(o->path, "-") == 0) {
		out_free(o);
		return write_stdout(emit, ctx, why, whylen);
	}
	f = fdopen(dup(o->fd), "w");
	if (!f) {
		err = errno;
		goto fail;
	}
	errno = 0;
	ok = emit(f, ctx) == 0 && fflush(f) != EOF && !ferror(f) &&
	     (o->in_place || fsync(o->fd) == 0);
	err = errno ? errno : EIO;
	if (fclose(f) != 0 && ok) {
		ok = 0;
		err = errno;
	}
	if (!ok)
		goto fail;
	if (!o->in_place) {
		if (o->anonymous ? out_link(o) != 0 : rename(o->tmpname, o->target) != 0) {
			err = errno;
			goto fail;
		}
		free(o->tmpname);
		o->tmpname = NULL;
		sync_dir(o->target);
	}
	close(o->fd);
	out_free(o);
	return 0;
fail:
	snprintf(why, whylen, "cannot write '%s': %s", o->path, strerror(err));
	tl_out_abort(o);
	return -1;
}

int tl_write_atomic(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		    size_t whylen)
{
	struct tl_out *o = tl_out_open(path, why, whylen);

	return o ? tl_out_commit(o, emit, ctx, why, whylen) : -1;
}

static int emit_json(FILE *f, void *ctx)
{
	const json_t *doc = ctx;

	if (json_dumpf(doc, f, JSON_COMPACT | JSON_REAL_PRECISION(17)) != 0)
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

int tl_json_write(const char *path, const json_t *doc, char *why, size_t whylen)
{
	return tl_write_atomic(path, emit_json, (void *)doc, why, whylen);
}

int tl_json_commit(struct tl_out *o, const json_t *doc, char *why, size_t whylen)
{
	return tl_out_commit(o, emit_json, (void *)doc, why, whylen);
}

int tl_run_commit_raw(struct tl_out *o, const struct tl_run *run, enum tl_os_method m,
		      uint64_t seed, bool interrupted, json_t *host, char *why, size_t whylen)
{
	json_t *doc = tl_run_to_json(run, NULL, m, seed, interrupted, host);
	int rc;

	if (!doc) {
		snprintf(why, whylen, "out of memory building the JSON");
		tl_out_abort(o);
		return -1;
	}
	rc = tl_json_commit(o, doc, why, whylen);
	json_decref(doc);
	return rc;
}

json_t *tl_json_real(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* ------------------------------------------------------------------ */
/* Run -> JSON                                                          */
/* ------------------------------------------------------------------ */

static const char *kind_name(enum tl_kernel_kind k)
{
	switch (k) {
	case TL_KERNEL_EMPTY:
		return "empty";
	case TL_KERNEL_ADD:
		return "add";
	case TL_KERNEL_JITTER:
		return "jitter";
	case TL_KERNEL_MUL:
		return "mul";
	case TL_KERNEL_FMA:
		return "fma";
	case TL_KERNEL_LOAD:
		return "load";
	}
	return "?";
}

static json_t *summary_to_json(const struct tl_summary *s)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "n",
			 (json_int_t)s->n, "os_removed", (json_int_t)s->os_removed, "min",
			 tl_json_real(s->min), "p1", tl_json_real(s->p1), "p5", tl_json_real(s->p5),
			 "p50", tl_json_real(s->p50), "p95", tl_json_real(s->p95), "p99",
			 tl_json_real(s->p99), "max", tl_json_real(s->max), "mean",
			 tl_json_real(s->mean), "sd", tl_json_real(s->sd), "cv", tl_json_real(s->cv));
}

static json_t *os_to_json(const struct tl_os_result *os)
{
	return json_pack("{s:s, s:b, s:o, s:o, s:I, s:s}", "method",
			 stats_os_method_name(os->method), "active", os->active, "beta",
			 tl_json_real(os->beta), "lowest_score", tl_json_real(os->lowest_score),
			 "removed", (json_int_t)os->removed, "note", os->note);
}

static json_t *drift_to_json(const struct tl_drift *d)
{
	return json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "chunk",
			 (json_int_t)d->chunk, "chunks", (json_int_t)d->nchunks, "median",
			 tl_json_real(d->median), "lo", tl_json_real(d->lo), "hi",
			 tl_json_real(d->hi), "sd", tl_json_real(d->sd), "noise_sd",
			 tl_json_real(d->noise_sd), "rel_sd", tl_json_real(d->rel_sd),
			 "noise_rel_sd", tl_json_real(d->noise_rel_sd), "drifts", d->drifts);
}

static json_t *doubles_to_json(const double *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (json_array_append_new(a, tl_json_real(v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static json_t *adds_to_json(const uint64_t *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		if (json_array_append_new(a, json_integer((json_int_t)v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* Sets key to a new value; remembers a NULL value or a failed set. */
static void put(json_t *o, const char *key, json_t *v, bool *failed)
{
	if (!v || json_object_set_new(o, key, v) != 0)
		*failed = true;
}

static json_t *cell_to_json(const struct tl_run *run, size_t i, const struct tl_analysis *an_all,
			    uint64_t seed)
{
	const struct tl_analysis *an = an_all ? &an_all[i] : NULL;
	const struct tl_cell *c = &run->cells[i];
	const struct tl_timer *t = &run->timers[c->timer];
	const struct tl_backend *b = t->backend;
	size_t done = atomic_load(&c->done);
	uint64_t flush = run->flush_bytes[c->flush];
	bool jitter = c->kernel.kind == TL_KERNEL_JITTER;
	bool failed = false;
	char flush_text[32];
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (done > c->n)
		done = c->n;
	tl_size_format(flush, flush_text, sizeof flush_text);
	put(o, "backend", json_string(t->id), &failed);
	put(o, "family", json_string(b->family), &failed);
	put(o, "clock", json_string(b->clock == TL_CLOCK_CYCLES ? "cycles" : "wall"), &failed);
	put(o, "unit", json_string(b->unit), &failed);
	put(o, "ns_per_unit", tl_json_real(t->ns_per_unit), &failed);
	put(o, "simulated", json_boolean(b->simulated), &failed);
	put(o, "kernel", json_string(c->kernel.label), &failed);
	put(o, "kind", json_string(kind_name(c->kernel.kind)), &failed);
	put(o, "k", json_integer((json_int_t)c->kernel.k), &failed);
	if (jitter) {
		put(o, "d", json_integer((json_int_t)c->kernel.d), &failed);
		put(o, "p", tl_json_real(c->kernel.p), &failed);
		if (c->kernel.d_ns > 0) {
			put(o, "d_ns", tl_json_real(c->kernel.d_ns), &failed);
			put(o, "d_ns_per_add", tl_json_real(c->d_ns_per_add), &failed);
		}
	}
	put(o, "flush_bytes", json_integer((json_int_t)flush), &failed);
	put(o, "flush", json_string(flush_text), &failed);
	put(o, "n", json_integer((json_int_t)done), &failed);
	put(o, "n_planned", json_integer((json_int_t)c->n), &failed);
	put(o, "overhead", tl_json_real(c->overhead_ns), &failed);
	/* t_e,std's spread: the filtered sd of the baseline it came from. */
	put(o, "overhead_sd_ns", tl_json_real(an ? an_all[c->baseline].summary.sd : NAN), &failed);
	put(o, "resolution_ns", tl_json_real(c->resolution_ns), &failed);
	if (c->hidden)
		put(o, "baseline", json_true(), &failed);
	put(o, "samples", doubles_to_json(c->raw, done), &failed);
	put(o, "samples_ns", doubles_to_json(c->ns, done), &failed);
	/* Plain add:K cells would repeat K n times: only jitter's vary. */
	if (jitter)
		put(o, "adds", adds_to_json(c->adds, done), &failed);
	if (!an)
		goto done; /* raw samples only (tl_run_commit_raw) */
	if (jitter) {
		struct tl_jitter jit;

		if (tl_jitter_analyse(run, i, seed, &jit) != 0)
			failed = true;
		else
			put(o, "jitter", tl_jitter_to_json(&jit, c->kernel.d), &failed);
	}
	put(o, "summary", summary_to_json(&an->summary), &failed);
	put(o, "os_filter", os_to_json(&an->os), &failed);
	put(o, "drift", drift_to_json(&an->drift), &failed);
done:
	if (failed) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *seed_to_json(uint64_t seed)
{
	char text[24];

	if (seed <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)seed);
	/* jansson integers are signed 64-bit: larger seeds go as decimal text. */
	snprintf(text, sizeof text, "%llu", (unsigned long long)seed);
	return json_string(text);
}

json_t *tl_run_to_json(const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host)
{
	json_t *doc, *cells, *baselines;

	doc = json_pack("{s:{s:s, s:s}, s:o, s:o, s:I, s:i, s:s, s:b}", "ticklab", "version",
			PACKAGE_VERSION, "command", "run", "host", host ? host : json_object(), "seed",
			seed_to_json(seed), "n", (json_int_t)run->cfg.n, "cpu", run->cpu, "os_filter",
			stats_os_method_name(m), "interrupted", interrupted);
	if (!doc)
		return NULL;
	if (!an && json_object_set_new(doc, "analysed", json_false()) != 0)
		goto fail;
	cells = json_array();
	baselines = json_array();
	json_object_set_new(doc, "cells", cells);
	json_object_set_new(doc, "baselines", baselines);
	if (!cells || !baselines)
		goto fail;
	for (size_t i = 0; i < run->ncells; i++) {
		json_t *c = cell_to_json(run, i, an, seed);

		if (!c || json_array_append_new(run->cells[i].hidden ? baselines : cells, c) != 0)
			goto fail;
	}
	return doc;
fail:
	json_decref(doc);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* CSV                                                                  */
/* ------------------------------------------------------------------ */

/* RFC 4180 quoting for the fields that can hold commas (sim parameters,
 * jitter kernels). */
int tl_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n"))
		return fputs(s, f) < 0 ? -1 : 0;
	if (fputc('"', f) == EOF)
		return -1;
	for (; *s; s++)
		if ((*s == '"' && fputc('"', f) == EOF) || fputc(*s, f) == EOF)
			return -1;
	return fputc('"', f) == EOF ? -1 : 0;
}

static int emit_csv(FILE *f, void *ctx)
{
	const struct tl_run *run = ctx;

	if (fputs("backend,flush_bytes,kernel,k,i,raw,ns\n", f) < 0)
		return -1;
	for (size_t ci = 0; ci < run->ncells; ci++) {
		const struct tl_cell *c = &run->cells[ci];
		size_t done = atomic_load(&c->done);

		if (c->hidden)
			continue;
		if (done > c->n)
			done = c->n;
		for (size_t i = 0; i < done; i++) {
			if (tl_csv_field(f, run->timers[c->timer].id) < 0 ||
			    fprintf(f, ",%llu,", (unsigned long long)run->flush_bytes[c->flush]) < 0 ||
			    tl_csv_field(f, c->kernel.label) < 0 ||
			    fprintf(f, ",%llu,%zu,%.17g,%.17g\n", (unsigned long long)c->adds[i], i,
				    c->raw[i], c->ns[i]) < 0)
				return -1;
		}
	}
	return 0;
}

int tl_run_write_csv(const char *path, const struct tl_run *run, char *why, size_t whylen)
{
	return tl_write_atomic(path, emit_csv, (void *)run, why, whylen);
}

int tl_run_commit_csv(struct tl_out *o, const struct tl_run *run, char *why, size_t whylen)
{
	return tl_out_commit(o, emit_csv, (void *)run, why, whylen);
}

/* ------------------------------------------------------------------ */
/* JSON -> run                                                          */
/* ------------------------------------------------------------------ */

struct reader {
	const char *name;
	char *why;
	size_t whylen;
	char where[64]; /* "cells[3]" */
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int rd_fail(struct reader *r, const char *key, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!*r->where && !key)
		snprintf(r->why, r->whylen, "%s: %s", r->name, msg);
	else
		snprintf(r->why, r->whylen, "%s: %s%s%s: %s", r->name, r->where,
			 *r->where && key ? "." : "", key ? key : "", msg);
	return -1;
}

static const char *type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "something else";
}

/* Looks up key in o; missing is an error unless optional (then *v = NULL). */
static int rd_get(struct reader *r, const json_t *o, const char *key, bool optional, json_t **v)
{
	*v = json_object_get(o, key);
	if (!*v && !optional)
		return rd_fail(r, key, "missing");
	return 0;
}

static int rd_string(struct reader *r, const json_t *o, const char *key, const char **out)
{
	json_t *v;

	if (rd_get(r, o, key, false, &v) < 0)
		return -1;
	if (!json_is_string(v))
		return rd_fail(r, key, "expected a string, got %s", type_name(v));
	*out = json_string_value(v);
	return 0;
}

static int rd_uint(struct reader *r, const json_t *o, const char *key, bool optional,
		   uint64_t *out)
{
	json_t *v;

	if (rd_get(r, o, key, optional, &v) < 0)
		return -1;
	if (!v)
		return 0;
	if (!json_is_integer(v))
		return rd_fail(r, key, "expected a whole number, got %s", type_name(v));
	if (json_integer_value(v) < 0)
		return rd_fail(r, key, "must be >= 0, got %lld", (long long)json_integer_value(v));
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* A number, or null read as NaN when nullable. */
static int rd_number(struct reader *r, const json_t *o, const char *key, bool nullable,
		     double *out)
{
	json_t *v;

	if (rd_get(r, o, key, false, &v) < 0)
		return -1;
	if (json_is_null(v) && nullable) {
		*out = NAN;
		return 0;
	}
	if (!json_is_number(v))
		return rd_fail(r, key, "expected a number%s, got %s", nullable ? " or null" : "",
			       type_name(v));
	if (fabs(json_number_value(v)) > TL_RESULTS_MAX_ABS)
		return rd_fail(r, key, "is %g, outside the plausible +-%g", json_number_value(v),
			       TL_RESULTS_MAX_ABS);
	*out = json_number_value(v);
	return 0;
}

static int rd_doubles(struct reader *r, const json_t *o, const char *key, size_t n, double *out)
{
	json_t *a;

	if (rd_get(r, o, key, false, &a) < 0)
		return -1;
	if (!json_is_array(a))
		return rd_fail(r, key, "expected an array of numbers, got %s", type_name(a));
	if (json_array_size(a) != n)
		return rd_fail(r, key, "has %zu values but n is %zu", json_array_size(a), n);
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			return rd_fail(r, key, "value %zu is %s, expected a finite number", i,
				       type_name(v));
		if (fabs(json_number_value(v)) > TL_RESULTS_MAX_ABS)
			return rd_fail(r, key, "value %zu is %g, outside the plausible +-%g", i,
				       json_number_value(v), TL_RESULTS_MAX_ABS);
		out[i] = json_number_value(v);
	}
	return 0;
}

static int rd_adds(struct reader *r, const json_t *o, const struct tl_kernel *k, size_t n,
		   uint64_t *out)
{
	json_t *a;

	if (rd_get(r, o, "adds", true, &a) < 0)
		return -1;
	if (!a) {
		for (size_t i = 0; i < n; i++)
			out[i] = k->k;
		return 0;
	}
	if (!json_is_array(a))
		return rd_fail(r, "adds", "expected an array of whole numbers, got %s", type_name(a));
	if (json_array_size(a) != n)
		return rd_fail(r, "adds", "has %zu values but n is %zu", json_array_size(a), n);
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return rd_fail(r, "adds", "value %zu is %s, expected a whole number >= 0", i,
				       type_name(v));
		out[i] = (uint64_t)json_integer_value(v);
	}
	return 0;
}

/* Appends a distinct value to a growing array; returns its index or -1. */
static long find_or_add_timer(struct tl_run *run, const struct tl_backend *b, const char *id,
			      double ns_per_unit)
{
	struct tl_timer *grown;

	for (size_t i = 0; i < run->ntimers; i++)
		if (strcmp(run->timers[i].id, id) == 0)
			return (long)i;
	grown = realloc(run->timers, (run->ntimers + 1) * sizeof *grown);
	if (!grown)
		return -1;
	run->timers = grown;
	memset(&grown[run->ntimers], 0, sizeof *grown);
	grown[run->ntimers].backend = b;
	snprintf(grown[run->ntimers].id, sizeof grown[run->ntimers].id, "%s", id);
	grown[run->ntimers].ns_per_unit = ns_per_unit;
	return (long)run->ntimers++;
}

static long find_or_add_flush(struct tl_run *run, uint64_t bytes)
{
	uint64_t *grown;

	for (size_t i = 0; i < run->nflush; i++)
		if (run->flush_bytes[i] == bytes)
			return (long)i;
	grown = realloc(run->flush_bytes, (run->nflush + 1) * sizeof *grown);
	if (!grown)
		return -1;
	run->flush_bytes = grown;
	grown[run->nflush] = bytes;
	return (long)run->nflush++;
}

static int rd_kernel(struct reader *r, const json_t *o, struct tl_kernel *out)
{
	const char *label;
	struct tl_kernel *ks = NULL;
	size_t nk = 0;
	uint64_t k = 0;
	char why[TL_WHY_MAX];

	if (rd_string(r, o, "kernel", &label) < 0 || rd_uint(r, o, "k", true, &k) < 0)
		return -1;
	if (tl_kernel_parse_list(label, &ks, &nk, why, sizeof why) < 0) {
		free(ks);
		return rd_fail(r, "kernel", "%s", why);
	}
	if (nk != 1) {
		free(ks);
		return rd_fail(r, "kernel", "'%s' is a list or range, expected one kernel", label);
	}
	*out = ks[0];
	free(ks);
	if (json_object_get(o, "k") && k != out->k)
		return rd_fail(r, "k", "is %llu but kernel '%s' has K = %llu", (unsigned long long)k,
			       label, (unsigned long long)out->k);
	return 0;
}

static int rd_cell(struct reader *r, const json_t *o, bool hidden, struct tl_run *run,
		   struct tl_cell *c)
{
	const char *id;
	const struct tl_backend *b;
	double ns_per_unit;
	uint64_t flush, n, planned;
	long ti, fi;

	if (!json_is_object(o))
		return rd_fail(r, NULL, "expected an object, got %s", type_name(o));
	if (rd_string(r, o, "backend", &id) < 0 || rd_number(r, o, "ns_per_unit", false,
							    &ns_per_unit) < 0)
		return -1;
	b = tl_backend_find(id);
	if (!b)
		return rd_fail(r, "backend", "unknown backend '%s' (this ticklab knows: %s)", id,
			       tl_backend_ids());
	if (strlen(id) >= TL_ID_MAX)
		return rd_fail(r, "backend", "id is longer than %d characters", TL_ID_MAX - 1);
	if (!(ns_per_unit > 0) || !isfinite(ns_per_unit))
		return rd_fail(r, "ns_per_unit", "must be a positive number, got %g", ns_per_unit);
	if (rd_kernel(r, o, &c->kernel) < 0 || rd_uint(r, o, "flush_bytes", false, &flush) < 0 ||
	    rd_uint(r, o, "n", false, &n) < 0)
		return -1;
	planned = n;
	if (rd_uint(r, o, "n_planned", true, &planned) < 0)
		return -1;
	if (planned < n)
		return rd_fail(r, "n_planned", "is %llu, less than n = %llu",
			       (unsigned long long)planned, (unsigned long long)n);
	if (n > ((uint64_t)1 << 32))
		return rd_fail(r, "n", "%llu samples is more than ticklab records",
			       (unsigned long long)n);
	if (rd_number(r, o, "overhead", true, &c->overhead_ns) < 0 ||
	    rd_number(r, o, "resolution_ns", true, &c->resolution_ns) < 0)
		return -1;
	c->d_ns_per_add = NAN;
	/* D in ns: the label keeps what was asked, "d" the ADDs it became. */
	if (c->kernel.kind == TL_KERNEL_JITTER && c->kernel.d_ns > 0 &&
	    (rd_uint(r, o, "d", false, &c->kernel.d) < 0 ||
	     rd_number(r, o, "d_ns_per_add", true, &c->d_ns_per_add) < 0))
		return -1;
	/* Lengths are checked before anything of size n is allocated, so a
	 * file claiming billions of samples costs nothing. */
	for (size_t i = 0; i < 2; i++) {
		const char *key = i ? "samples_ns" : "samples";
		json_t *a = json_object_get(o, key);

		if (!a)
			return rd_fail(r, key, "missing");
		if (!json_is_array(a))
			return rd_fail(r, key, "expected an array of numbers, got %s", type_name(a));
		if (json_array_size(a) != n)
			return rd_fail(r, key, "has %zu values but n is %llu", json_array_size(a),
				       (unsigned long long)n);
	}
	ti = find_or_add_timer(run, b, id, ns_per_unit);
	fi = find_or_add_flush(run, flush);
	/* A saved file has exactly the samples that were taken: n = done. */
	c->n = (size_t)n;
	c->raw = malloc((n ? n : 1) * sizeof *c->raw);
	c->ns = malloc((n ? n : 1) * sizeof *c->ns);
	c->adds = malloc((n ? n : 1) * sizeof *c->adds);
	if (ti < 0 || fi < 0 || !c->raw || !c->ns || !c->adds)
		return rd_fail(r, NULL, "out of memory");
	if (run->timers[ti].ns_per_unit != ns_per_unit)
		return rd_fail(r, "ns_per_unit", "differs from an earlier cell of backend '%s'", id);
	c->timer = (size_t)ti;
	c->flush = (size_t)fi;
	c->hidden = hidden;
	if (rd_doubles(r, o, "samples", c->n, c->raw) < 0 ||
	    rd_doubles(r, o, "samples_ns", c->n, c->ns) < 0 || rd_adds(r, o, &c->kernel, c->n,
								      c->adds) < 0)
		return -1;
	atomic_store(&c->done, c->n);
	return 0;
}

static int rd_cells(struct reader *r, const json_t *doc, const char *key, bool hidden,
		    struct tl_run *run)
{
	json_t *a;
	size_t n;
	struct tl_cell *grown;

	if (rd_get(r, doc, key, hidden, &a) < 0)
		return -1;
	if (!a)
		return 0;
	if (!json_is_array(a))
		return rd_fail(r, key, "expected an array of cells, got %s", type_name(a));
	n = json_array_size(a);
	if (!hidden && n == 0)
		return rd_fail(r, key, "no cells: nothing to report");
	grown = realloc(run->cells, (run->ncells + n) * sizeof *grown);
	if (!grown)
		return rd_fail(r, key, "out of memory");
	run->cells = grown;
	for (size_t i = 0; i < n; i++) {
		struct tl_cell *c = &run->cells[run->ncells];

		memset(c, 0, sizeof *c);
		run->ncells++; /* counted first so a failure frees what was allocated */
		snprintf(r->where, sizeof r->where, "%s[%zu]", key, i);
		if (rd_cell(r, json_array_get(a, i), hidden, run, c) < 0)
			return -1;
		run->samples_total += c->n;
	}
	r->where[0] = '\0';
	return 0;
}

/* Every cell needs the empty cell of its timer and flush: it is where
 * t_e,std came from. */
static int link_baselines(struct reader *r, struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_cell *c = &run->cells[i];
		size_t best = SIZE_MAX;

		for (size_t j = 0; j < run->ncells && best == SIZE_MAX; j++) {
			const struct tl_cell *e = &run->cells[j];

			if (e->timer == c->timer && e->flush == c->flush &&
			    e->kernel.kind == TL_KERNEL_EMPTY)
				best = j;
		}
		if (best == SIZE_MAX) {
			char flush[32];

			tl_size_format(run->flush_bytes[c->flush], flush, sizeof flush);
			r->where[0] = '\0';
			return rd_fail(r, NULL,
				       "no empty baseline cell for backend '%s' at flush %s (every "
				       "backend and flush needs one: it measured t_e,std)",
				       run->timers[c->timer].id, flush);
		}
		c->baseline = best;
	}
	return 0;
}

/* Fills cfg from the cells so code that looks at the configuration of a
 * live run sees the same shape; the run owns a copy, as a prepared one does. */
static int fill_config(struct reader *r, struct tl_run *run, size_t n, int cpu, uint64_t seed)
{
	const char **ids = calloc(run->ntimers ? run->ntimers : 1, sizeof *ids);
	struct tl_kernel *ks = calloc(run->ncells ? run->ncells : 1, sizeof *ks);
	size_t nk = 0;

	if (!ids || !ks) {
		free(ids);
		free(ks);
		return rd_fail(r, NULL, "out of memory");
	}
	for (size_t i = 0; i < run->ntimers; i++)
		ids[i] = run->timers[i].id;
	for (size_t i = 0; i < run->ncells; i++) {
		size_t j;

		if (run->cells[i].hidden)
			continue;
		for (j = 0; j < nk && strcmp(ks[j].label, run->cells[i].kernel.label) != 0; j++)
			;
		if (j == nk)
			ks[nk++] = run->cells[i].kernel;
	}
	tl_run_own_config(run, &(struct tl_run_config){
		.backends = ids, .nbackends = run->ntimers, .flush_bytes = run->flush_bytes,
		.nflush = run->nflush, .kernels = ks, .nkernels = nk, .n = n, .cpu = cpu,
		.seed = seed});
	free(ids);
	free(ks);
	run->cpu = cpu;
	atomic_store(&run->samples_done, run->samples_total);
	return 0;
}

static int rd_seed(struct reader *r, const json_t *doc, uint64_t *seed)
{
	json_t *v;
	char *end;

	if (rd_get(r, doc, "seed", false, &v) < 0)
		return -1;
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*seed = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v) && json_string_value(v)[0] >= '0' && json_string_value(v)[0] <= '9') {
		errno = 0;
		*seed = strtoull(json_string_value(v), &end, 10);
		if (*end == '\0' && errno == 0)
			return 0;
	}
	return rd_fail(r, "seed", "expected a whole number >= 0, got %s", type_name(v));
}

static int rd_header(struct reader *r, const json_t *doc, struct tl_results_meta *meta,
		     uint64_t *n, int *cpu)
{
	json_t *v;
	int m;

	if (rd_seed(r, doc, &meta->seed) < 0 || rd_uint(r, doc, "n", true, n) < 0)
		return -1;
	if (rd_get(r, doc, "cpu", true, &v) < 0)
		return -1;
	if (v && !(json_is_integer(v) && json_integer_value(v) >= -1 &&
		   json_integer_value(v) < 1 << 20))
		return rd_fail(r, "cpu", "expected a CPU number (or -1), got %s", type_name(v));
	if (v)
		*cpu = (int)json_integer_value(v);
	if (rd_get(r, doc, "os_filter", true, &v) < 0)
		return -1;
	if (v) {
		if (!json_is_string(v))
			return rd_fail(r, "os_filter", "expected a string, got %s", type_name(v));
		m = stats_os_method_parse(json_string_value(v));
		if (m < 0)
			return rd_fail(r, "os_filter", "'%s' is not a filter (accepted: iforest, iqr, none)",
				       json_string_value(v));
		meta->os = (enum tl_os_method)m;
	}
	if (rd_get(r, doc, "interrupted", true, &v) < 0)
		return -1;
	if (v && !json_is_boolean(v))
		return rd_fail(r, "interrupted", "expected true or false, got %s", type_name(v));
	meta->interrupted = v && json_is_true(v);
	if (rd_get(r, doc, "host", true, &v) < 0)
		return -1;
	if (v && !json_is_object(v))
		return rd_fail(r, "host", "expected an object, got %s", type_name(v));
	meta->host = v ? json_incref(v) : NULL;
	return 0;
}

int tl_run_from_json(const json_t *doc, const char *name, struct tl_run *run,
		     struct tl_results_meta *meta, char *why, size_t whylen)
{
	struct reader r = {.name = name, .why = why, .whylen = whylen};
	uint64_t n = 0;
	int cpu = -1;

	memset(run, 0, sizeof *run);
	memset(meta, 0, sizeof *meta);
	meta->os = TL_OS_IFOREST;
	if (!json_is_object(doc)) {
		rd_fail(&r, NULL, "expected a ticklab run (a JSON object), got %s", type_name(doc));
		return -1;
	}
	if (!json_object_get(doc, "cells") && json_object_get(doc, "results")) {
		rd_fail(&r, NULL, "this is a `ticklab search` result, not a run: report reads the "
				  "files `ticklab run --json` writes");
		return -1;
	}
	if (rd_header(&r, doc, meta, &n, &cpu) < 0 || rd_cells(&r, doc, "cells", false, run) < 0 ||
	    rd_cells(&r, doc, "baselines", true, run) < 0 || link_baselines(&r, run) < 0 ||
	    fill_config(&r, run, n ? (size_t)n : run->cells[0].n, cpu, meta->seed) < 0) {
		tl_run_unload(run, meta);
		return -1;
	}
	return 0;
}

json_t *tl_json_load(const char *path, char *why, size_t whylen)
{
	json_error_t err;
	json_t *doc;
	const char *name = strcmp(path, "-") == 0 ? "standard input" : path;
	struct stat st;

	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s: is a directory (accepted: a JSON file written by ticklab)",
			 name);
		return NULL;
	}

	if (strcmp(path, "-") == 0)
		doc = json_loadf(stdin, JSON_REJECT_DUPLICATES, &err);
	else
		doc = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
	if (!doc) {
		if (err.line <= 0)
			snprintf(why, whylen, "%s: %s", name, err.text);
		else
			snprintf(why, whylen, "%s:%d:%d: not valid JSON: %s", name, err.line,
				 err.column, err.text);
	}
	return doc;
}

int tl_run_load(const char *path, struct tl_run *run, struct tl_results_meta *meta, char *why,
		size_t whylen)
{
	json_t *doc;
	int rc;

	memset(run, 0, sizeof *run);
	memset(meta, 0, sizeof *meta);
	doc = tl_json_load(path, why, whylen);
	if (!doc)
		return -1;
	rc = tl_run_from_json(doc, strcmp(path, "-") == 0 ? "standard input" : path, run, meta, why,
			      whylen);
	json_decref(doc);
	return rc;
}

void tl_run_unload(struct tl_run *run, struct tl_results_meta *meta)
{
	tl_run_free(run);
	if (meta) {
		json_decref(meta->host);
		meta->host = NULL;
	}
}
