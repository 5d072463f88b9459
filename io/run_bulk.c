/* The sample arrays of a run file, read without a JSON tree.
 *
 * Why: jansson builds every number as a json_t (about 60 B for a real, in
 * a growing array of pointers), so `report` of a 10^7-sample run held
 * ~1 GB of tree before a single double was copied out. Here the file is
 * fed to jansson through json_load_callback and a small lexer on the way:
 * an array that follows the key "samples", "samples_ns" or "adds" (outside
 * any string) is parsed straight into a growing double/uint64 array and
 * jansson sees a string in its place, "tl-bulk:NONCE:INDEX". The nonce is
 * random per load, so no file can forge a stand-in. The rest of the
 * document (host, summaries, cell keys) is jansson's as before.
 *
 * Exactness: the lexer takes only what jansson would read the same way:
 * JSON numbers (integers as strtoll, reals as strtod, as jansson does).
 * Anything else inside such an array (null, a string, a nested value, a
 * syntax error, an overflow, a number over 63 characters), or any
 * error jansson reports, and the whole file is read again by plain
 * jansson: a broken or hostile file gets exactly the message it got
 * before (its line and column included), at the old memory cost, unless
 * memory ran out (io/json_read.h: said at once, never read twice). Values
 * that are numbers but not acceptable (|x| > TL_RESULTS_MAX_ABS, an ADD
 * count that is negative or not whole) are kept as the first bad index,
 * for the reader to refuse with the same words as for a tree. Standard
 * input is read by plain jansson (it cannot be read twice); anything else
 * that is not a regular file is refused by tl_read_open. */
#include "config.h"

#include "io/run_bulk.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/run_load.h"

#define PREFIX "tl-bulk:"

struct tl_bulk {
	char nonce[24];
	struct tl_bulk_array *a;
	size_t n, cap;
};

enum state { S_NORMAL, S_STRING, S_ESCAPE, S_AFTER_STRING, S_AFTER_COLON, S_ARRAY };

struct feed {
	FILE *in;
	unsigned char buf[1 << 16];
	size_t pos, len;
	bool eof, failed;
	enum state st;
	char key[16]; /* the last string token, when short and unescaped */
	size_t klen;
	bool kbad;
	int want;           /* after "key": 0 none, 1 doubles, 2 counts */
	char tok[64];       /* a number being read */
	size_t tlen;
	bool have_value;    /* a value since '[' or the last ',' */
	struct tl_bulk_array *cur;
	char out[64];       /* the stand-in being handed to jansson */
	size_t opos, olen;
	struct tl_bulk *b;
	struct tl_read_guard guard; /* over what jansson is handed */
};

void tl_bulk_free(struct tl_bulk *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->n; i++) {
		free(b->a[i].d);
		free(b->a[i].u);
	}
	free(b->a);
	free(b);
}

static struct tl_bulk *bulk_new(void)
{
	struct tl_bulk *b = calloc(1, sizeof *b);
	unsigned long long r;

	if (!b)
		return NULL;
	if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
		r = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32) ^
		    (unsigned long long)(uintptr_t)b;
	snprintf(b->nonce, sizeof b->nonce, "%016llx", r);
	return b;
}

static int array_start(struct feed *f, bool counts)
{
	struct tl_bulk *b = f->b;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct tl_bulk_array *g = realloc(b->a, cap * sizeof *g);

		if (!g) {
			tl_read_note_oom();
			return -1;
		}
		b->a = g;
		b->cap = cap;
	}
	f->cur = &b->a[b->n++];
	memset(f->cur, 0, sizeof *f->cur);
	f->cur->counts = counts;
	f->cur->bad = SIZE_MAX;
	f->tlen = 0;
	f->have_value = false;
	return 0;
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number_ok(const char *s, bool *whole)
{
	const char *p = s;

	*whole = true;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	if (*p == '.') {
		*whole = false;
		if (!(*++p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		*whole = false;
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

static int push(struct tl_bulk_array *a, double d, uint64_t u)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap + a->cap / 2 : 1024;
		void *g = a->counts ? realloc(a->u, cap * sizeof *a->u) : realloc(a->d, cap * sizeof *a->d);

		if (!g) {
			tl_read_note_oom();
			return -1;
		}
		if (a->counts)
			a->u = g;
		else
			a->d = g;
		a->cap = cap;
	}
	if (a->counts)
		a->u[a->n++] = u;
	else
		a->d[a->n++] = d;
	return 0;
}

/* The number in f->tok as jansson would read it, into the array. */
static int number_end(struct feed *f)
{
	struct tl_bulk_array *a = f->cur;
	bool whole;
	long long ll = 0;
	double d;
	char *end;

	f->tok[f->tlen] = '\0';
	f->tlen = 0;
	if (f->have_value || !number_ok(f->tok, &whole))
		return -1;
	f->have_value = true;
	errno = 0;
	if (whole) {
		ll = strtoll(f->tok, &end, 10);
		if (errno == ERANGE)
			return -1; /* jansson: "too big integer" */
		d = (double)ll;
	} else {
		d = strtod(f->tok, &end);
		if (errno == ERANGE && (d == HUGE_VAL || d == -HUGE_VAL))
			return -1; /* jansson: "real number overflow" */
	}
	if (a->bad == SIZE_MAX) {
		if (a->counts && (!whole || ll < 0)) {
			a->bad = a->n;
			a->bad_type = whole ? "an integer" : "a number";
		} else if (!a->counts && fabs(d) > TL_RESULTS_MAX_ABS) {
			a->bad = a->n;
			a->bad_value = d;
		}
	}
	return push(a, d, whole && ll >= 0 ? (uint64_t)ll : 0);
}

/* One byte inside a sample array; -1 hands the file to plain jansson. */
static int array_byte(struct feed *f, int c)
{
	bool numchar = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' ||
		       c == 'E';

	if (f->tlen > 0) {
		if (numchar) {
			if (f->tlen + 1 >= sizeof f->tok)
				return -1;
			f->tok[f->tlen++] = (char)c;
			return 0;
		}
		if (number_end(f) < 0)
			return -1;
	}
	switch (c) {
	case ' ':
	case '\t':
	case '\n':
	case '\r':
		return 0;
	case ',':
		if (!f->have_value)
			return -1;
		f->have_value = false;
		return 0;
	case ']':
		if (!f->have_value && f->cur->n > 0)
			return -1; /* a trailing comma */
		f->olen = (size_t)snprintf(f->out, sizeof f->out, "\"" PREFIX "%s:%zu\"", f->b->nonce,
					   f->b->n - 1);
		f->opos = 0;
		f->st = S_NORMAL;
		return 0;
	default:
		if (!numchar || c == '+' || c == '.' || c == 'e' || c == 'E')
			return -1;
		f->tok[f->tlen++] = (char)c;
		return 0;
	}
}

static int key_want(const struct feed *f)
{
	if (f->kbad)
		return 0;
	if ((f->klen == 7 && memcmp(f->key, "samples", 7) == 0) ||
	    (f->klen == 10 && memcmp(f->key, "samples_ns", 10) == 0))
		return 1;
	return f->klen == 4 && memcmp(f->key, "adds", 4) == 0 ? 2 : 0;
}

/* Outside sample arrays: the byte goes to jansson; the state only tracks
 * strings and "key": so a sample array is recognised where it starts.
 * Returns 1 when the byte is kept from jansson (the '[' of a sample array). */
static int pass_byte(struct feed *f, int c)
{
	bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';

	switch (f->st) {
	case S_STRING:
		if (c == '\\') {
			f->kbad = true;
			f->st = S_ESCAPE;
		} else if (c == '"') {
			f->st = S_AFTER_STRING;
		} else if (f->klen < sizeof f->key) {
			f->key[f->klen++] = (char)c;
		} else {
			f->kbad = true;
		}
		return 0;
	case S_ESCAPE:
		f->st = S_STRING;
		return 0;
	case S_AFTER_STRING:
		if (space)
			return 0;
		f->want = c == ':' ? key_want(f) : 0;
		f->st = c == ':' ? S_AFTER_COLON : S_NORMAL;
		break;
	case S_AFTER_COLON:
		if (space)
			return 0;
		if (c == '[' && f->want) {
			if (array_start(f, f->want == 2) < 0)
				return -1;
			f->st = S_ARRAY;
			return 1;
		}
		f->st = S_NORMAL;
		break;
	default:
		break;
	}
	if (f->st == S_NORMAL && c == '"') {
		f->st = S_STRING;
		f->klen = 0;
		f->kbad = false;
	}
	return 0;
}

static size_t feed_read(void *buffer, size_t buflen, void *arg)
{
	struct feed *f = arg;
	unsigned char *out = buffer;
	size_t o = 0;

	if (tl_read_oom()) {
		f->failed = true;
		return (size_t)-1;
	}
	while (o < buflen) {
		int c, rc;

		if (f->opos < f->olen) {
			out[o++] = (unsigned char)f->out[f->opos++];
			continue;
		}
		if (f->pos == f->len) {
			if (f->eof)
				break;
			f->len = fread(f->buf, 1, sizeof f->buf, f->in);
			f->pos = 0;
			if (f->len == 0) {
				f->eof = true;
				if (ferror(f->in) || f->st == S_ARRAY)
					goto fail;
			}
			continue;
		}
		c = f->buf[f->pos++];
		if (f->st == S_ARRAY) {
			if (array_byte(f, c) < 0)
				goto fail;
			continue;
		}
		rc = pass_byte(f, c);
		if (rc < 0)
			goto fail;
		if (rc == 0)
			out[o++] = (unsigned char)c;
	}
	if (!tl_read_guard_feed(&f->guard, out, o))
		goto fail;
	return o;
fail:
	f->failed = true;
	return (size_t)-1;
}

json_t *tl_json_load_bulk(const char *path, struct tl_bulk **bulk, char *why, size_t whylen)
{
	struct feed *f;
	json_error_t err;
	json_t *doc;
	FILE *in;
	bool oom;

	*bulk = NULL;
	if (strcmp(path, "-") == 0)
		return tl_json_load(path, why, whylen);
	/* The one opening every reader shares: a FIFO, a device or a file
	 * over the limit is refused here, before a byte is read. */
	if (!(in = tl_read_open(path, why, whylen)))
		return NULL;
	f = calloc(1, sizeof *f);
	if (!f || !(f->b = bulk_new())) {
		free(f);
		fclose(in);
		snprintf(why, whylen, "out of memory reading %s", path);
		return NULL;
	}
	f->in = in;
	tl_read_begin();
	doc = json_load_callback(feed_read, f, JSON_REJECT_DUPLICATES, &err);
	oom = tl_read_oom();
	tl_read_end();
	fclose(f->in);
	if (f->guard.over) {
		json_decref(doc);
		tl_bulk_free(f->b);
		tl_read_guard_say(&f->guard, path, why, whylen);
		free(f);
		return NULL;
	}
	if (oom) {
		/* Read again by plain jansson it would only fail again, later. */
		json_decref(doc);
		tl_bulk_free(f->b);
		free(f);
		snprintf(why, whylen, "out of memory reading %s", path);
		return NULL;
	}
	if (!doc || f->failed) {
		/* The exact message (and any value the lexer would not take) is
		 * plain jansson's. */
		json_decref(doc);
		tl_bulk_free(f->b);
		free(f);
		return tl_json_load(path, why, whylen);
	}
	if (f->b->n)
		*bulk = f->b;
	else
		tl_bulk_free(f->b);
	free(f);
	return doc;
}

struct tl_bulk_array *tl_bulk_find(struct tl_bulk *b, const json_t *v)
{
	const char *s;
	size_t plen = strlen(PREFIX), nlen;
	char *end;
	unsigned long long i;

	if (!b || !json_is_string(v))
		return NULL;
	s = json_string_value(v);
	nlen = strlen(b->nonce);
	if (strncmp(s, PREFIX, plen) != 0 || strncmp(s + plen, b->nonce, nlen) != 0 ||
	    s[plen + nlen] != ':')
		return NULL;
	errno = 0;
	i = strtoull(s + plen + nlen + 1, &end, 10);
	if (*end || errno || i >= b->n || (!b->a[i].d && !b->a[i].u && b->a[i].n))
		return NULL;
	return &b->a[i];
}

void *tl_bulk_take(struct tl_bulk_array *a)
{
	void *p = a->counts ? (void *)a->u : (void *)a->d;
	size_t size = a->counts ? sizeof *a->u : sizeof *a->d;
	void *fit = realloc(p, (a->n ? a->n : 1) * size);

	if (!fit && !p)
		return NULL;
	a->d = NULL;
	a->u = NULL;
	return fit ? fit : p;
}
