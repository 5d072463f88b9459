#include "config.h"

#include "io/json_read.h"

#include "io/json_fast.h"

#include "base/file_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* jansson's allocations while a file is read                          */
/* ------------------------------------------------------------------ */

static _Thread_local int reading;
static _Thread_local bool oom;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

/* The arena: while this thread has one open, jansson's allocations are cut
 * from its chunks (newest first) and jansson's frees of them cost nothing;
 * closing it frees the chunks. */
struct chunk {
	struct chunk *next;
	size_t cap, used;
	_Alignas(16) unsigned char mem[];
};
static _Thread_local struct chunk *arena;
static _Thread_local int arena_open;

#define CHUNK_FIRST ((size_t)64 << 10)
#define CHUNK_MAX ((size_t)16 << 20)

static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!arena || arena->cap - arena->used < n) {
		size_t cap = arena ? arena->cap * 2 : CHUNK_FIRST;
		struct chunk *c;

		if (cap > CHUNK_MAX)
			cap = CHUNK_MAX;
		if (cap < n)
			cap = n;
		c = malloc(sizeof *c + cap);
		if (!c)
			return NULL;
		c->next = arena;
		c->cap = cap;
		c->used = 0;
		arena = c;
	}
	p = arena->mem + arena->used;
	arena->used += n;
	return p;
}

static bool in_arena(const void *p)
{
	uintptr_t a = (uintptr_t)p;

	for (const struct chunk *c = arena; c; c = c->next)
		if (a >= (uintptr_t)c->mem && a < (uintptr_t)c->mem + c->cap)
			return true;
	return false;
}

static void *read_malloc(size_t n)
{
	void *p;

	/* After one failure nothing a parse could still do is worth an
	 * allocation: fail at once, so the lexer's retries cost nothing. */
	if (reading && oom)
		return NULL;
	p = arena_open ? arena_alloc(n) : malloc(n);
	if (!p && reading)
		oom = true;
	return p;
}

static void read_free(void *p)
{
	if (arena && in_arena(p))
		return;
	free(p);
}

static void hooks_set(void)
{
	json_set_alloc_funcs(read_malloc, read_free);
}

void tl_read_arena_begin(void)
{
	pthread_once(&hooks_once, hooks_set);
	arena_open++;
}

void tl_read_arena_end(void)
{
	if (arena_open > 0 && --arena_open == 0)
		while (arena) {
			struct chunk *c = arena;

			arena = c->next;
			free(c);
		}
}

json_t *tl_read_arena_keep(const json_t *doc)
{
	int open = arena_open;
	json_t *out;

	arena_open = 0;
	out = json_deep_copy(doc);
	arena_open = open;
	return out;
}

void tl_read_begin(void)
{
	pthread_once(&hooks_once, hooks_set);
	reading++;
	oom = false;
}

bool tl_read_oom(void)
{
	return oom;
}

void tl_read_note_oom(void)
{
	oom = true;
}

void tl_read_end(void)
{
	if (reading > 0)
		reading--;
	if (!reading)
		oom = false;
}

/* ------------------------------------------------------------------ */
/* Opening                                                              */
/* ------------------------------------------------------------------ */

const char *tl_read_name(const char *path)
{
	return strcmp(path, "-") == 0 ? "standard input" : path;
}

int tl_read_limit(uint64_t *bytes, char *why, size_t whylen)
{
	const char *s = getenv(TL_READ_LIMIT_ENV);
	unsigned long long v;
	char *end;
	unsigned shift = 0;

	*bytes = TL_READ_LIMIT_DEFAULT;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	default: break;
	}
	if (errno || *end || end == s || s[0] == '-' || v == 0 || v > (UINT64_MAX >> shift)) {
		snprintf(why, whylen, "%s='%s' is not a size (accepted: a whole number of bytes "
				      "from 1, with an optional K, M, G or T suffix)",
			 TL_READ_LIMIT_ENV, s);
		return -1;
	}
	*bytes = (uint64_t)v << shift;
	return 0;
}

const char *tl_read_kind(mode_t m)
{
	return tl_file_kind(m);
}

static void not_regular(const char *path, const char *kind, char *why, size_t whylen)
{
	/* "is a directory" keeps the words earlier tests and users know. */
	snprintf(why, whylen, "%s: is %s, not a regular file (accepted: a JSON file written by "
			      "ticklab)",
		 path, kind);
}

static void too_large(const char *path, uint64_t size, uint64_t limit, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s%llu bytes, over the read limit of %llu bytes (set %s to "
			      "read larger files)",
		 path, size ? "is " : "is over ", (unsigned long long)(size ? size : limit),
		 (unsigned long long)limit, TL_READ_LIMIT_ENV);
}

FILE *tl_read_open(const char *path, char *why, size_t whylen)
{
	uint64_t limit, size;
	const char *kind;
	FILE *f;
	int fd;

	if (tl_read_limit(&limit, why, whylen) < 0)
		return NULL;
	if (strcmp(path, "-") == 0)
		return stdin;
	fd = tl_file_open_regular(path, limit, &size, &kind);
	if (fd < 0) {
		if (kind)
			not_regular(path, kind, why, whylen);
		else if (errno == EFBIG && size > limit)
			too_large(path, size, limit, why, whylen);
		else
			snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "rb");
	if (!f) {
		snprintf(why, whylen, "out of memory reading %s", path);
		close(fd);
	}
	return f;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                              */
/* ------------------------------------------------------------------ */

/* The bytes up to the next quote or backslash are plain: outside a string
 * they are skipped, inside one they only lengthen it. memchr finds the
 * next one, where a byte at a time cost a fleet of small files 7 % of its
 * instructions. */
static size_t plain_run(const unsigned char *b, size_t n, bool in_string)
{
	const unsigned char *q = memchr(b, '"', n), *bs;
	size_t end = q ? (size_t)(q - b) : n;

	if (!in_string)
		return end;
	bs = memchr(b, '\\', end);
	return bs ? (size_t)(bs - b) : end;
}

bool tl_read_guard_feed(struct tl_read_guard *g, const void *buf, size_t n)
{
	const unsigned char *b = buf;
	size_t i = 0;

	while (i < n && !g->over) {
		unsigned char c;

		if (g->st != 2) {
			size_t run = plain_run(b + i, n - i, g->st == 1);

			if (g->st == 1 && (g->len += run) > TL_READ_STRING_MAX) {
				g->over = true;
				break;
			}
			i += run;
			g->pos += run;
			if (i == n)
				break;
		}
		c = b[i];
		if (g->st == 0) {
			/* at a quote: a string starts */
			g->st = 1;
			g->start = g->pos;
			g->len = 0;
		} else {
			if (++g->len > TL_READ_STRING_MAX)
				g->over = true;
			if (g->st == 2)
				g->st = 1;
			else if (c == '\\')
				g->st = 2;
			else if (c == '"')
				g->st = 0;
		}
		i++;
		g->pos++;
	}
	return !g->over;
}

void tl_read_guard_say(const struct tl_read_guard *g, const char *name, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: the string at byte %llu is longer than %d bytes (no file "
			      "ticklab writes holds one; refused before reading it whole)",
		 name, (unsigned long long)g->start, TL_READ_STRING_MAX);
}

struct source {
	FILE *in;
	uint64_t seen, limit;
	bool over;
	struct tl_read_guard guard;
};

static size_t source_read(void *buf, size_t len, void *arg)
{
	struct source *s = arg;
	size_t n;

	if (tl_read_oom())
		return (size_t)-1;
	n = fread(buf, 1, len, s->in);
	s->seen += n;
	if (s->seen > s->limit) {
		s->over = true;
		return (size_t)-1;
	}
	if (n == 0 && ferror(s->in))
		return (size_t)-1;
	if (!tl_read_guard_feed(&s->guard, buf, n))
		return (size_t)-1;
	return n;
}

/* A file read whole and parsed by io/json_fast.c: several times jansson's
 * speed on the files the lab writes (a fleet reads 160 000). Only a
 * regular file of at most FAST_MAX bytes that reads back at the size
 * fstat gave; NULL for anything else, or for a text json_fast leaves to
 * jansson (every error among them), and then the stream is back at its
 * start for jansson's path, whose guards and messages are the only ones. */
#define FAST_MAX ((off_t)256 << 20)

/* Up to len bytes from fd; fewer only at the end of the file (or on an
 * error: then (size_t)-1). */
static size_t read_all(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return (size_t)-1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return got;
}

static json_t *fast_load(struct source *s)
{
	struct stat st;
	json_t *doc = NULL;
	char *buf;
	size_t n;

	if (fstat(fileno(s->in), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > FAST_MAX ||
	    (uint64_t)st.st_size > s->limit)
		return NULL;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return NULL;
	/* read(2) on the descriptor, not fread: stdio would fstat again and
	 * allocate its buffer for one pass (a fleet opens 160 000 files);
	 * nothing has gone through the stream yet, and fseek below puts both
	 * back at the start */
	n = read_all(fileno(s->in), buf, (size_t)st.st_size + 1);
	if (n == (size_t)st.st_size)
		doc = tl_json_fast(buf, n);
	free(buf);
	if (!doc) {
		clearerr(s->in);
		if (fseek(s->in, 0, SEEK_SET) != 0)
			s->over = true; /* not expected of a regular file; said as unreadable below */
	}
	return doc;
}

json_t *tl_json_load(const char *path, char *why, size_t whylen)
{
	const char *name = tl_read_name(path);
	struct source s = {0};
	json_error_t err;
	json_t *doc;
	int e;

	if (tl_read_limit(&s.limit, why, whylen) < 0 || !(s.in = tl_read_open(path, why, whylen)))
		return NULL;
	tl_read_begin();
	doc = s.in != stdin ? fast_load(&s) : NULL;
	if (doc) {
		tl_read_end();
		fclose(s.in);
		return doc;
	}
	if (s.over) {
		snprintf(why, whylen, "%s: cannot read it again from its start", name);
		tl_read_end();
		fclose(s.in);
		return NULL;
	}
	doc = json_load_callback(source_read, &s, JSON_REJECT_DUPLICATES, &err);
	e = ferror(s.in) ? errno : 0;
	if (tl_read_oom()) {
		json_decref(doc);
		doc = NULL;
		snprintf(why, whylen, "out of memory reading %s", name);
	} else if (s.over) {
		too_large(name, 0, s.limit, why, whylen);
	} else if (s.guard.over) {
		json_decref(doc);
		doc = NULL;
		tl_read_guard_say(&s.guard, name, why, whylen);
	} else if (e) {
		snprintf(why, whylen, "%s: %s", name, strerror(e));
	} else if (!doc) {
		if (err.line <= 0)
			snprintf(why, whylen, "%s: %s", name, err.text);
		else
			snprintf(why, whylen, "%s:%d:%d: not valid JSON: %s", name, err.line,
				 err.column, err.text);
	}
	tl_read_end();
	if (s.in != stdin)
		fclose(s.in);
	return doc;
}
