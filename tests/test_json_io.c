/* io/: a run survives JSON bit for bit and re-analyses to the same numbers,
 * the reader rejects broken documents with a message, and atomic writes
 * leave either the whole new file or nothing (and the old file intact). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/runner.h"
#include "bench/analysis.h"
#include "io/json_read.h"
#include "io/results.h"
#include "tests/tap.h"

#define N 300
#define SEED 99

static int make_run(struct tl_run *run)
{
	static const char *ids[] = {"sim:sd=3,quantum=0.5,spike_rate=0.02,spike_ns=900", "sim"};
	static const uint64_t flush[] = {0, 4096};
	struct tl_kernel *k = NULL;
	size_t nk = 0;
	char why[512];
	int rc;

	if (tl_kernel_parse_list("add:100,jitter:100,7,0.3", &k, &nk, why, sizeof why) < 0)
		return -1;
	struct tl_run_config cfg = {.backends = ids, .nbackends = 2, .flush_bytes = flush,
				    .nflush = 2, .kernels = k, .nkernels = nk, .n = N, .cpu = -1,
				    .seed = SEED};
	rc = tl_run_prepare(run, &cfg, why, sizeof why);
	free(k); /* prepare keeps its own copy of each kernel in the cells */
	if (rc == 0)
		rc = tl_run_execute(run, NULL, NULL, why, sizeof why);
	if (rc != 0)
		printf("# %s\n", why);
	return rc;
}

static int same_summary(const struct tl_summary *a, const struct tl_summary *b)
{
	/* memcmp: NaN fields must match too, and "equal" means bit-identical. */
	return a->n == b->n && a->os_removed == b->os_removed &&
	       memcmp(&a->min, &b->min, sizeof(double) * 10) == 0;
}

/* The i-th cell of the given kind (hidden or not), in run order. */
/* Every sample's operation count, kept or (a loaded plain cell) implied. */
static bool same_adds(const struct tl_cell *a, const struct tl_cell *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tl_cell_adds(a, i) != tl_cell_adds(b, i))
			return false;
	return true;
}

static size_t nth_cell(const struct tl_run *run, bool hidden, size_t i)
{
	for (size_t c = 0; c < run->ncells; c++)
		if (run->cells[c].hidden == hidden && i-- == 0)
			return c;
	return SIZE_MAX;
}

static void test_round_trip(void)
{
	struct tl_run run, back;
	struct tl_results_meta meta;
	struct tl_analysis *an, *an2;
	char why[512];
	char *text;
	json_t *doc, *doc2;
	json_error_t err;
	size_t nvisible = 0, nhidden = 0, bad_samples = 0, bad_summary = 0, bad_seed = 0;

	if (!ok(make_run(&run) == 0, "a sim run with hidden baselines and jitter"))
		return;
	an = tl_run_analyse(&run, TL_OS_IFOREST, SEED);
	doc = tl_run_to_json(&run, an, TL_OS_IFOREST, SEED, false, NULL);
	ok(doc != NULL, "the run becomes a JSON document");
	text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
	doc2 = json_loads(text, 0, &err);
	ok(doc2 != NULL, "its text parses");
	ok(json_array_size(json_object_get(doc2, "cells")) == 8 &&
		   json_array_size(json_object_get(doc2, "baselines")) == 4,
	   "8 visible cells and 4 hidden baselines");
	if (!ok(tl_run_from_json(doc2, "round-trip", &back, &meta, why, sizeof why) == 0,
		"it loads back into a run"))
		printf("# %s\n", why);
	else {
		ok(back.ncells == run.ncells && back.ntimers == 2 && back.nflush == 2,
		   "same number of cells, timers and flush sizes");
		ok(meta.seed == SEED && meta.os == TL_OS_IFOREST, "seed and filter come back");
		ok(back.timers[0].state == NULL && back.timers[0].backend == tl_backend_find("sim"),
		   "timers keep their backend and are not opened");
		an2 = tl_run_analyse(&back, meta.os, meta.seed);
		for (int hidden = 0; hidden < 2; hidden++) {
			for (size_t i = 0;; i++) {
				size_t a = nth_cell(&run, hidden, i), b = nth_cell(&back, hidden, i);

				if (a == SIZE_MAX || b == SIZE_MAX)
					break;
				hidden ? nhidden++ : nvisible++;
				if (memcmp(run.cells[a].raw, back.cells[b].raw, N * sizeof(double)) ||
				    memcmp(run.cells[a].ns, back.cells[b].ns, N * sizeof(double)) ||
				    !same_adds(&run.cells[a], &back.cells[b], N) ||
				    run.cells[a].overhead_ns != back.cells[b].overhead_ns ||
				    strcmp(run.cells[a].kernel.label, back.cells[b].kernel.label) != 0)
					bad_samples++;
				if (!same_summary(&an[a].summary, &an2[b].summary) ||
				    an[a].os.active != an2[b].os.active || an[a].os.beta != an2[b].os.beta)
					bad_summary++;
				if (tl_cell_seed(&run, a, SEED) != tl_cell_seed(&back, b, SEED))
					bad_seed++;
			}
		}
		is_int(nvisible, 8, "every visible cell compared");
		is_int(nhidden, 4, "every baseline compared");
		is_int(bad_samples, 0, "samples, ADD plans, t_e,std and kernels are bit-identical");
		is_int(bad_seed, 0, "each cell's filter seed is the same in the file as live");
		is_int(bad_summary, 0, "re-analysis gives bit-identical summaries");
		for (size_t c = 0; c < back.ncells; c++) {
			const struct tl_cell *x = &back.cells[c];
			const struct tl_cell *e = &back.cells[x->baseline];

			if (e->kernel.kind != TL_KERNEL_EMPTY || e->timer != x->timer ||
			    e->flush != x->flush) {
				ok(0, "cell %zu links to the empty baseline of its timer and flush", c);
				break;
			}
			if (c + 1 == back.ncells)
				ok(1, "every loaded cell links to its empty baseline");
		}
		ok(tl_cell_seed(&run, 0, SEED) != tl_cell_seed(&run, 1, SEED),
		   "different cells get different filter seeds");
		free(an2);
		tl_run_unload(&back, &meta);
	}
	free(text);
	json_decref(doc);
	json_decref(doc2);
	free(an);
	tl_run_free(&run);
}

static void expect_reject(const char *json, const char *want, const char *desc)
{
	json_error_t err;
	json_t *doc = json_loads(json, 0, &err);
	struct tl_run run;
	struct tl_results_meta meta;
	char why[512] = "";
	int rc = tl_run_from_json(doc, "f.json", &run, &meta, why, sizeof why);

	if (!ok(rc == -1 && strstr(why, want) && strncmp(why, "f.json: ", 8) == 0, "%s", desc))
		printf("#   got %d, '%s', want '%s'\n", rc, why, want);
	json_decref(doc);
}

static void test_reader_rejects(void)
{
	const char *cell = "{\"backend\": \"sim\", \"ns_per_unit\": 1, \"kernel\": \"empty\", "
			   "\"flush_bytes\": 0, \"n\": 2, \"overhead\": 1, \"resolution_ns\": null, "
			   "\"samples\": [1, 2], \"samples_ns\": [1, 2]}";
	char buf[1024];
#define MARK "\"ticklab\": {\"version\": \"0.1.0\", \"command\": \"run\"}"

	expect_reject("{" MARK "}", "seed: missing", "an empty object: seed missing");
	expect_reject("{" MARK ", \"seed\": 1, \"cells\": 3}", "cells: expected an array",
		      "cells of the wrong type");
	expect_reject("{" MARK ", \"seed\": -2, \"cells\": []}", "seed", "a negative seed");
	expect_reject("{" MARK ", \"seed\": 1, \"cpu\": \"x\", \"cells\": []}", "cpu", "a cpu that is text");
	expect_reject("{" MARK ", \"seed\": 1, \"host\": [], \"cells\": []}", "host: expected an object",
		      "a host that is not an object");
	snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s], \"interrupted\": 1}", cell);
	expect_reject(buf, "interrupted", "interrupted that is not a boolean");
	snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s], \"baselines\": [7]}", cell);
	expect_reject(buf, "baselines[0]: expected an object", "a baseline that is a number");

	{
		json_error_t err;
		json_t *doc;
		struct tl_run run;
		struct tl_results_meta meta;
		char why[512] = "";

		snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s]}", cell);
		doc = json_loads(buf, 0, &err);
		ok(tl_run_from_json(doc, "min.json", &run, &meta, why, sizeof why) == 0,
		   "a minimal hand-written run loads (%s)", why);
		ok(run.ncells == 1 && run.cells[0].baseline == 0 && isnan(run.cells[0].resolution_ns),
		   "an empty cell is its own baseline; null reads as NaN");
		tl_run_unload(&run, &meta);
		json_decref(doc);
	}
	/* what no file ticklab wrote holds: no marker, a newer version, a cell
	 * twice, negative times */
	snprintf(buf, sizeof buf, "{\"seed\": 1, \"cells\": [%s]}", cell);
	expect_reject(buf, "ticklab: missing: not a file ticklab wrote", "no ticklab marker");
	snprintf(buf, sizeof buf,
		 "{\"ticklab\": {\"version\": \"99.0.0\", \"command\": \"run\"}, \"seed\": 1, "
		 "\"cells\": [%s]}", cell);
	expect_reject(buf, "made by ticklab 99.0.0, newer than this ticklab", "version 99.0.0");
	snprintf(buf, sizeof buf,
		 "{\"ticklab\": {\"version\": \"0.1.0\", \"command\": \"search\"}, \"seed\": 1, "
		 "\"cells\": [%s]}", cell);
	expect_reject(buf, "ticklab.command: is \"search\", expected \"run\"", "another kind");
	snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s, %s]}", cell, cell);
	expect_reject(buf, "cells[1]: the same backend, flush and kernel", "a cell twice");
	{
		char neg[512], *p;

		snprintf(neg, sizeof neg, "%s", cell);
		p = strstr(neg, "[1, 2], \"samples_ns\"");
		memcpy(p, "[1,-2]", 6);
		p = strstr(neg, "\"sim\"");
		memmove(p + 15, p + 5, strlen(p + 5) + 1);
		memcpy(p, "\"clock-gettime\"", 15);
		snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s]}", neg);
		expect_reject(buf, "cells[0].samples: value 1 is -2, expected a time >= 0",
			      "a negative sample of a clock that does not go back");
		snprintf(neg, sizeof neg, "%s", cell);
		p = strstr(neg, "\"overhead\": 1");
		memcpy(p, "\"overhead\":-1", 13);
		snprintf(buf, sizeof buf, "{" MARK ", \"seed\": 1, \"cells\": [%s]}", neg);
		expect_reject(buf, "cells[0].overhead: is -1", "a negative overhead");
	}
}

static int emit_text(FILE *f, void *ctx)
{
	return fputs(ctx, f) < 0 ? -1 : 0;
}

static int emit_fail(FILE *f, void *ctx)
{
	(void)ctx;
	fputs("{\"partial\": ", f);
	errno = ENOSPC;
	return -1;
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

static void test_atomic(void)
{
	char dir[] = "/tmp/tl_atomic_XXXXXX";
	char path[256], missing[300], why[512], buf[64] = "";
	struct stat st;
	mode_t mask;
	FILE *f;

	if (!ok(mkdtemp(dir) != NULL, "a scratch directory"))
		return;
	snprintf(path, sizeof path, "%s/out.json", dir);

	ok(tl_write_atomic(path, emit_fail, NULL, why, sizeof why) == -1,
	   "a failing writer reports failure");
	ok(strstr(why, "out.json") && strstr(why, strerror(ENOSPC)), "naming the path and the reason (%s)",
	   why);
	is_int(count_entries(dir), 0, "and leaves nothing behind, not even its temporary file");

	ok(tl_write_atomic(path, emit_text, "old\n", why, sizeof why) == 0, "a good write succeeds");
	mask = umask(0);
	umask(mask);
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask),
	   "with the usual permissions, not mkstemp's 0600");
	ok(tl_write_atomic(path, emit_fail, NULL, why, sizeof why) == -1, "a second, failing write");
	f = fopen(path, "r");
	if (f) {
		if (!fgets(buf, sizeof buf, f))
			buf[0] = '\0';
		fclose(f);
	}
	ok(strcmp(buf, "old\n") == 0, "keeps the old file whole");
	is_int(count_entries(dir), 1, "and no temporary file");

	snprintf(missing, sizeof missing, "%s/no/such/dir.json", dir);
	ok(tl_write_atomic(missing, emit_text, "x", why, sizeof why) == -1 &&
		   strstr(why, "no/such/dir.json"),
	   "a missing directory is an error naming the path");
	ok(tl_write_atomic(dir, emit_text, "x", why, sizeof why) == -1,
	   "writing over a directory fails");
	is_int(count_entries(dir), 1, "still nothing left behind");

	unlink(path);
	rmdir(dir);
}

/* The streaming writer prints the bytes jansson would print for the whole
 * tree, including doubles at the edges of %.17g's forms. */
static void test_streamed_bytes(void)
{
	static const double edge[] = {1e-5, 1e20, -0.0, 5e-324, 123456789012345678.0, NAN,
				      INFINITY, 0.1, 1.0, -2.5e-300, 1e15, 12345.678901234567};
	struct tl_run run;
	struct tl_analysis *an;
	struct tl_run_doc *d;
	json_t *doc;
	char *want, *got = NULL;
	size_t len = 0;
	FILE *f;

	if (!ok(make_run(&run) == 0, "a sim run to write both ways"))
		return;
	for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
		run.cells[1].raw[i] = edge[i]; /* raw: not analysed */
	an = tl_run_analyse(&run, TL_OS_IFOREST, SEED);
	doc = tl_run_to_json(&run, an, TL_OS_IFOREST, SEED, false, json_pack("{s:s}", "x", "y"));
	d = tl_run_doc_new(&run, an, TL_OS_IFOREST, SEED, false, json_pack("{s:s}", "x", "y"));
	want = doc ? json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;
	f = open_memstream(&got, &len);
	ok(want && d && f && tl_run_doc_write(f, d) == 0 && fclose(f) == 0,
	   "the document is built and streamed");
	ok(got && want && len == strlen(want) + 1 && memcmp(got, want, strlen(want)) == 0 &&
		   got[len - 1] == '\n',
	   "streamed bytes = json_dumpf of the whole tree (%zu bytes)", len);
	free(got);
	free(want);
	json_decref(doc);
	tl_run_doc_free(d);
	free(an);
	tl_run_free(&run);
}

static void test_json_real(void)
{
	json_t *v = tl_json_real(NAN);

	ok(json_is_null(v), "NaN is written as null");
	json_decref(v);
	v = tl_json_real(0.1);
	{
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));

		ok(s && strtod(s, NULL) == 0.1, "0.1 round-trips exactly through 17 digits (%s)", s);
		free(s);
	}
	json_decref(v);
}

/* The reader's long-string guard against the byte-at-a-time rule it
 * replaces (written out here): random text of quotes, backslashes and
 * plain bytes, fed in random chunks, ends in the same state, and refuses
 * exactly when a string runs past TL_READ_STRING_MAX. */
static void guard_ref(struct tl_read_guard *g, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n && !g->over; i++, g->pos++) {
		unsigned char c = b[i];

		if (g->st == 0) {
			if (c == '"') {
				g->st = 1;
				g->start = g->pos;
				g->len = 0;
			}
			continue;
		}
		if (++g->len > TL_READ_STRING_MAX)
			g->over = true;
		if (g->st == 2)
			g->st = 1;
		else if (c == '\\')
			g->st = 2;
		else if (c == '"')
			g->st = 0;
	}
}

static void test_guard(void)
{
	size_t bad = 0, refused = 0, n = 3 * (size_t)TL_READ_STRING_MAX;
	unsigned char *b = malloc(n);
	unsigned seed = 37;

	for (int round = 0; b && round < 200; round++) {
		struct tl_read_guard g = {0}, r = {0};
		/* some rounds hold long strings: few quotes */
		unsigned every = round % 4 == 0 ? 1u << 20 : 8;
		size_t len = (size_t)rand_r(&seed) % n, at = 0;

		for (size_t i = 0; i < len; i++) {
			unsigned x = (unsigned)rand_r(&seed) % every;

			b[i] = x == 0 ? '"' : x == 1 ? '\\' : 'a';
		}
		if (len && round % 4 == 0)
			b[0] = '"';
		guard_ref(&r, b, len);
		while (at < len) {
			size_t k = 1 + (size_t)rand_r(&seed) % 5000;

			k = k < len - at ? k : len - at;
			if (!tl_read_guard_feed(&g, b + at, k))
				break;
			at += k;
		}
		refused += r.over;
		bad += g.over != r.over || (!r.over && (g.st != r.st || g.pos != r.pos ||
							 g.len != r.len || g.start != r.start));
	}
	ok(b && bad == 0 && refused > 0, "the long-string guard, fed in chunks, agrees with the "
	   "byte-at-a-time rule on 200 texts (%zu differ; %zu refused)", bad, refused);
	free(b);
}

/* The fleet's arena: a document read inside it is the file's; a copy kept
 * through tl_read_arena_keep outlives the arena; what jansson allocated
 * before the arena is freed normally inside it; arenas nest. */
static void test_arena(void)
{
	char dir[] = "/tmp/tl_arena_XXXXXX", path[256], why[512];
	json_t *before = json_string("made before the arena"), *doc, *kept = NULL;
	FILE *f;
	bool same = true;

	if (!ok(mkdtemp(dir) != NULL, "a scratch directory for the arena"))
		return;
	snprintf(path, sizeof path, "%s/doc.json", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("{\"a\": [1, 2.5, \"x\"], \"b\": {\"c\": null}}", f);
		fclose(f);
	}
	tl_read_arena_begin();
	for (int round = 0; round < 200; round++) {
		tl_read_arena_begin(); /* nested: the outer one holds the memory */
		doc = tl_json_load(path, why, sizeof why);
		same &= doc && json_real_value(json_array_get(json_object_get(doc, "a"), 1)) == 2.5;
		if (round == 199)
			kept = tl_read_arena_keep(doc);
		json_decref(doc);
		tl_read_arena_end();
	}
	json_decref(before); /* malloc'd before the arena, freed inside it */
	tl_read_arena_end();
	ok(same, "a document read 200 times in an arena reads right each time");
	ok(kept && json_is_null(json_object_get(json_object_get(kept, "b"), "c")) &&
		   strcmp(json_string_value(json_array_get(json_object_get(kept, "a"), 2)), "x") == 0,
	   "the copy kept through tl_read_arena_keep is whole after the arena is gone");
	json_decref(kept);
	remove(path);
	rmdir(dir);
}

int main(void)
{
	test_guard();
	test_round_trip();
	test_reader_rejects();
	test_atomic();
	test_json_real();
	test_streamed_bytes();
	test_arena();
	return tap_done();
}
