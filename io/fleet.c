#include "config.h"

#include "judge/lesson.h"
#include "io/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "io/json_build.h"
#include "io/results.h"
#include "io/term_safe.h"

/* ------------------------------------------------------------------ */
/* Loading                                                              */
/* ------------------------------------------------------------------ */

#define TL_FLEET_WHY 2048       /* a message about one file */
#define TL_FLEET_BATCH 256      /* files read ahead at once: their figures wait in memory */
#define TL_FLEET_READERS_MAX 8

struct pathlist {
	char **p;
	size_t n, cap;
};

static void path_add(struct pathlist *l, const char *path)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->p = tl_xrealloc(l->p, l->cap, sizeof *l->p);
	}
	l->p[l->n++] = tl_xstrdup(path);
}

static void bad_add(struct tl_fleet *fl, const char *file, const char *why)
{
	fl->bad = tl_xrealloc(fl->bad, fl->nbad + 1, sizeof *fl->bad);
	fl->bad[fl->nbad].file = tl_xstrdup(file);
	fl->bad[fl->nbad].why = tl_xstrdup(why);
	fl->nbad++;
}

static int json_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 && strcmp(d->d_name + len - 5, ".json") == 0;
}

/* Every file to read, directories opened; a directory that cannot be read
 * or holds no *.json is a bad entry of its own. */
static void list_paths(char *const *paths, size_t npaths, struct pathlist *l, struct tl_fleet *fl)
{
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		struct dirent **list;
		int n;
		char why[512];

		if (stat(paths[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			path_add(l, paths[i]);
			continue;
		}
		n = scandir(paths[i], &list, json_name, alphasort);
		if (n <= 0) {
			snprintf(why, sizeof why, "%s: %s", paths[i],
				 n < 0 ? strerror(errno) : "no *.json fingerprints in this directory");
			bad_add(fl, paths[i], why);
			continue;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];

			snprintf(path, sizeof path, "%s/%s", paths[i], list[j]->d_name);
			path_add(l, path);
			free(list[j]);
		}
		free(list);
	}
}

static struct tl_fleet_node *node_new(struct tl_fleet *fl)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 64;
		fl->nodes = tl_xrealloc(fl->nodes, fl->cap, sizeof *fl->nodes);
	}
	memset(&fl->nodes[fl->n], 0, sizeof fl->nodes[fl->n]);
	return &fl->nodes[fl->n];
}

/* Where a node was read, for a message: its file, and the part it came in. */
static const char *node_where(const struct tl_fleet_node *nd, char *buf, size_t len)
{
	if (nd->part)
		snprintf(buf, len, "%s (in part %s)", nd->file, nd->part);
	else
		snprintf(buf, len, "%s", nd->file);
	return buf;
}

/* The node just filled in at fl->nodes[fl->n] joins the fleet, unless its
 * version differs from the first node's (-1 with why). */
static int node_keep(struct tl_fleet *fl, const char *file, char *why, size_t whylen)
{
	struct tl_fleet_node *node = &fl->nodes[fl->n];

	node->file = tl_xstrdup(file);
	fl->n++;
	if (fl->n > 1 && strcmp(fl->nodes[0].fig.version, node->fig.version) != 0) {
		char a[4200], b[4200];

		snprintf(why, whylen, "%s: made by ticklab %s, but %s by ticklab %s (a fleet's "
				      "fingerprints must come from one version)",
			 node_where(node, a, sizeof a), node->fig.version,
			 node_where(&fl->nodes[0], b, sizeof b), fl->nodes[0].fig.version);
		return -1;
	}
	return 0;
}

static bool partial_is(const json_t *doc)
{
	const char *cmd = json_string_value(json_object_get(json_object_get(doc, "ticklab"),
							    "command"));

	return cmd && strcmp(cmd, "fleet-partial") == 0;
}

/* Nodes fl->nodes[from..) let go: those of a part that is skipped. */
static void nodes_drop(struct tl_fleet *fl, size_t from)
{
	while (fl->n > from) {
		struct tl_fleet_node *nd = &fl->nodes[--fl->n];

		free(nd->file);
		free(nd->part);
		tl_fp_figures_free(&nd->fig);
	}
}

/* A part's own version is the fleet's, as a fingerprint's is: a part
 * written by another ticklab is refused even when its nodes' facts were
 * left as they were. -1 with why, or 0. */
static int part_version_ok(const struct tl_fleet *fl, const json_t *doc, const char *path,
			   char *why, size_t whylen)
{
	const char *v = json_string_value(json_object_get(json_object_get(doc, "ticklab"),
							  "version"));
	char safe[64];

	if (!v) {
		snprintf(why, whylen, "%s: a fleet --partial without its ticklab version", path);
		return 1;
	}
	if (fl->n == 0 || strcmp(v, fl->nodes[0].fig.version) == 0)
		return 0;
	snprintf(why, whylen, "%s: a part written by ticklab %s, but %s by ticklab %s (a fleet's "
			      "fingerprints and parts must come from one version)",
		 path, tl_term_safe(v, safe, sizeof safe), fl->nodes[0].file,
		 fl->nodes[0].fig.version);
	return -1;
}

/* The files a part's run skipped: carried as the fleet's own skipped
 * files, or with strict the part refused as a file would be (1). */
static int part_skipped(struct tl_fleet *fl, const json_t *skipped, const char *path, bool strict,
			char *why, size_t whylen)
{
	size_t i;
	json_t *nd;

	json_array_foreach(skipped, i, nd) {
		const char *file = json_string_value(json_object_get(nd, "file"));
		const char *w = json_string_value(json_object_get(nd, "why"));

		if (!file || !w)
			continue;
		if (strict) {
			snprintf(why, whylen, "%s: a part that skipped a file (--strict takes only "
					      "whole parts): %s", path, w);
			return 1;
		}
		bad_add(fl, file, w);
	}
	return 0;
}

/* A --partial file: its nodes and the files its run skipped. 1 when the
 * file is bad (why says why; none of its nodes is kept), -1 refused. */
static int add_partial(struct tl_fleet *fl, const json_t *doc, const char *path, bool strict,
		       char *why, size_t whylen)
{
	const json_t *nodes = json_object_get(doc, "nodes"), *skipped = json_object_get(doc, "skipped");
	size_t i, from = fl->n;
	json_t *nd;
	int rc = 0;

	if (!json_is_array(nodes)) {
		snprintf(why, whylen, "%s: a fleet --partial without its nodes", path);
		return 1;
	}
	json_array_foreach(nodes, i, nd) {
		const char *file = json_string_value(json_object_get(nd, "file"));
		struct tl_fleet_node *node;
		char name[4200];

		if (rc)
			break;
		node = node_new(fl);
		snprintf(name, sizeof name, "%s: node %zu", path, i + 1);
		if (!file || tl_fp_summary_from_json(json_object_get(nd, "summary"), name,
						     &node->fig, why, whylen) < 0) {
			if (!file)
				snprintf(why, whylen, "%s: without its file", name);
			rc = 1;
			break;
		}
		node->part = tl_xstrdup(path);
		rc = node_keep(fl, file, why, whylen);
	}
	/* against the nodes before, or this part's own first */
	if (rc == 0)
		rc = part_version_ok(fl, doc, path, why, whylen);
	if (rc == 0)
		rc = part_skipped(fl, skipped, path, strict, why, whylen);
	if (rc)
		nodes_drop(fl, from);
	return rc;
}

/* A file read ahead, apart from the fleet: a worker fills it, the loader
 * then adds it in the files' order, so the answer never depends on which
 * worker read what. */
struct readahead {
	json_t *part;               /* a --partial document, added in order */
	struct tl_fp_figures fig;   /* a fingerprint's figures (rc 0) */
	int rc;                     /* 0 read, 1 bad: why */
	char why[TL_FLEET_WHY];
};

/* Reads and analyses one file: the costly part, run on several threads. */
static void read_one(const char *path, struct readahead *ra)
{
	json_t *doc;

	/* the document lives only here: built in the arena, dropped at once
	 * (a third of a small file's time went to malloc and free) */
	tl_read_arena_begin();
	doc = tl_json_load(path, ra->why, sizeof ra->why);
	ra->part = NULL;
	ra->rc = 1;
	if (doc && partial_is(doc)) {
		ra->part = tl_read_arena_keep(doc);
		ra->rc = ra->part ? 0 : 1;
		if (!ra->part)
			snprintf(ra->why, sizeof ra->why, "out of memory reading %s", path);
	} else if (doc) {
		ra->rc = tl_fp_figures_from_json(doc, path, &ra->fig, ra->why, sizeof ra->why) < 0;
	}
	json_decref(doc);
	tl_read_arena_end();
}

/* One file read ahead joins the fleet: 0 read, 1 bad (why says why), -1
 * refused. ra is emptied. */
static int add_read(struct tl_fleet *fl, const char *path, struct readahead *ra, bool strict,
		    char *why, size_t whylen)
{
	int rc;

	if (ra->rc) {
		snprintf(why, whylen, "%s", ra->why);
		return 1;
	}
	if (ra->part) {
		rc = add_partial(fl, ra->part, path, strict, why, whylen);
		json_decref(ra->part);
		ra->part = NULL;
		return rc;
	}
	node_new(fl)->fig = ra->fig;
	memset(&ra->fig, 0, sizeof ra->fig);
	return node_keep(fl, path, why, whylen);
}

/* A batch of files read by TL_FLEET_READERS threads (the machine's cores,
 * parsing being most of a fleet's time), each taking the next file. */
struct batch {
	char *const *paths;
	struct readahead *ra;
	size_t n;
	atomic_size_t next;
};

static void *batch_worker(void *arg)
{
	struct batch *b = arg;
	size_t i;

	while ((i = atomic_fetch_add(&b->next, 1)) < b->n)
		read_one(b->paths[i], &b->ra[i]);
	return NULL;
}

static void batch_read(struct batch *b, size_t nthreads)
{
	pthread_t th[TL_FLEET_READERS_MAX];
	size_t started = 0;

	atomic_store(&b->next, 0);
	/* a thread that cannot start leaves its share to the others */
	while (started + 1 < nthreads && b->n > 1 &&
	       pthread_create(&th[started], NULL, batch_worker, b) == 0)
		started++;
	batch_worker(b);
	for (size_t t = 0; t < started; t++)
		pthread_join(th[t], NULL);
}

static size_t readers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > TL_FLEET_READERS_MAX ? TL_FLEET_READERS_MAX : (size_t)n;
}

struct named {
	const char *name;
	size_t i;
};

static int cmp_named(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

static const char *node_name_of(const struct tl_fleet_node *n)
{
	return n->fig.node.name;
}

static const char *slurm_name_of(const struct tl_fleet_node *n)
{
	return n->fig.node.slurm_node;
}

/* Two files for one name (the node's, or its Slurm node's): the later one
 * named, with the earlier. Sorting once keeps it linear-logarithmic. */
static int check_twice_by(const struct tl_fleet *fl, const char *(*key)(const struct tl_fleet_node *),
			  const char *label, char *why, size_t whylen)
{
	struct named *by = tl_xmalloc((fl->n ? fl->n : 1) * sizeof *by);
	size_t worst = SIZE_MAX, first = 0, m = 0;

	for (size_t i = 0; i < fl->n; i++)
		if (key(&fl->nodes[i])[0])
			by[m++] = (struct named){key(&fl->nodes[i]), i};
	qsort(by, m, sizeof *by, cmp_named);
	for (size_t i = 1; i < m; i++)
		if (strcmp(by[i].name, by[i - 1].name) == 0 && by[i].i < worst) {
			worst = by[i].i;
			first = by[i - 1].i;
		}
	free(by);
	if (worst == SIZE_MAX)
		return 0;
	{
		char a[4200], b[4200];

		node_where(&fl->nodes[worst], a, sizeof a);
		node_where(&fl->nodes[first], b, sizeof b);
		if (key == node_name_of)
			snprintf(why, whylen, "%s: %s '%s' is seen twice (also in %s)", a, label,
				 key(&fl->nodes[worst]), b);
		else
			snprintf(why, whylen, "%s: %s '%s' is seen twice (also in %s, as '%s')", a,
				 label, key(&fl->nodes[worst]), b, fl->nodes[first].fig.node.name);
	}
	return -1;
}

static int check_twice(const struct tl_fleet *fl, char *why, size_t whylen)
{
	if (check_twice_by(fl, node_name_of, "node", why, whylen) < 0)
		return -1;
	return check_twice_by(fl, slurm_name_of, "Slurm node", why, whylen);
}

int tl_fleet_load(char *const *paths, size_t npaths, bool strict,
		  const struct tl_fleet_progress *progress, struct tl_fleet *fl, char *why,
		  size_t whylen)
{
	struct pathlist l = {NULL, 0, 0};
	int rc = 0;

	memset(fl, 0, sizeof *fl);
	list_paths(paths, npaths, &l, fl);
	if (strict && fl->nbad) {
		snprintf(why, whylen, "%s", fl->bad[0].why);
		rc = -1;
	}
	/* jansson seeds its hash once; done here, not raced by the readers */
	json_object_seed(0);
	for (size_t at = 0; at < l.n && rc == 0; at += TL_FLEET_BATCH) {
		struct batch b = {.paths = l.p + at, .n = l.n - at < TL_FLEET_BATCH ? l.n - at
										    : TL_FLEET_BATCH};

		b.ra = tl_xcalloc(b.n, sizeof *b.ra);
		batch_read(&b, readers());
		for (size_t k = 0; k < b.n; k++) {
			int r = rc ? 0 : add_read(fl, l.p[at + k], &b.ra[k], strict, why, whylen);

			if (r < 0 || (r > 0 && strict))
				rc = -1;
			else if (r > 0)
				bad_add(fl, l.p[at + k], why);
			if (!rc)
				tl_fleet_progress_say(progress, "read", at + k + 1, l.n);
			/* what a refusal left unread is let go */
			json_decref(b.ra[k].part);
			tl_fp_figures_free(&b.ra[k].fig);
		}
		free(b.ra);
	}
	for (size_t i = 0; i < l.n; i++)
		free(l.p[i]);
	free(l.p);
	if (rc == 0)
		rc = check_twice(fl, why, whylen);
	if (rc == 0 && fl->n == 0) {
		snprintf(why, whylen, "no fingerprint could be read%s%s",
			 fl->nbad ? ": " : "", fl->nbad ? fl->bad[0].why : "");
		rc = -1;
	}
	return rc;
}

void tl_fleet_free(struct tl_fleet *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->nodes[i].file);
		free(fl->nodes[i].part);
		tl_fp_figures_free(&fl->nodes[i].fig);
	}
	for (size_t i = 0; i < fl->nbad; i++) {
		free(fl->bad[i].file);
		free(fl->bad[i].why);
	}
	free(fl->bad);
	free(fl->nodes);
	free(fl->groups);
	memset(fl, 0, sizeof *fl);
}

json_t *tl_fleet_partial_to_json(const struct tl_fleet *fl)
{
	json_t *doc = tl_json_object(), *nodes = tl_json_array(), *skipped = tl_json_array();

	for (size_t i = 0; i < fl->n; i++)
		tl_json_append(nodes, json_pack("{s:s, s:o}", "file", fl->nodes[i].file, "summary",
						tl_fp_summary_to_json(&fl->nodes[i].fig)));
	for (size_t i = 0; i < fl->nbad; i++)
		tl_json_append(skipped, json_pack("{s:s, s:s}", "file", fl->bad[i].file, "why",
						  fl->bad[i].why));
	tl_json_set(doc, "ticklab",
		    json_pack("{s:s, s:s}", "version",
			      fl->n ? fl->nodes[0].fig.version : PACKAGE_VERSION, "command",
			      "fleet-partial"));
	tl_json_set(doc, "nodes", nodes);
	tl_json_set(doc, "skipped", skipped);
	return doc;
}

/* ------------------------------------------------------------------ */
/* Output                                                               */
/* ------------------------------------------------------------------ */

/* Names, models and reasons come from fingerprints and partials written
 * elsewhere: escaped at print even though the loaders check them too, and
 * in Markdown '|' as well, so a cell cannot add a column. */
static void put_text(FILE *out, const char *s, bool md)
{
	if (md)
		tl_md_fputs(s, out);
	else
		tl_term_fputs(s, out);
}

static void groups_print(FILE *out, const struct tl_fleet *fl, const char *bullet, bool md)
{
	for (size_t g = 0; g < fl->ngroups; g++) {
		fprintf(out, "%sgroup %zu: ", bullet, g + 1);
		put_text(out, fl->groups[g].model[0] ? fl->groups[g].model : "?", md);
		fprintf(out, ", TSC %.4g GHz, %zu node(s)%s%s\n", fl->groups[g].tsc_ghz,
			fl->groups[g].nnodes, fl->groups[g].note[0] ? ": " : "", fl->groups[g].note);
	}
}

static size_t name_width(const struct tl_fleet *fl)
{
	size_t w = 4;

	for (size_t i = 0; i < fl->n; i++) {
		char safe[512];
		size_t n = strlen(tl_term_safe(fl->nodes[i].fig.node.name, safe, sizeof safe));

		if (n > w)
			w = n;
	}
	return w;
}

void tl_fleet_table_print(FILE *out, const struct tl_fleet *fl)
{
	int w = (int)name_width(fl);

	groups_print(out, fl, "", false);
	fprintf(out, "%-*s %2s", w, "node", "g");
	for (size_t k = 0; k < TL_FIG_NZ_FIRST; k++)
		fprintf(out, " %9s", tl_fig_info[k].label);
	fprintf(out, " %6s  %s\n", "KS D", "flag");
	for (size_t i = 0; i < fl->n; i++) {
		const struct tl_fleet_node *nd = &fl->nodes[i];

		tl_term_fpad(nd->fig.node.name, w, out);
		fprintf(out, " %2zu", nd->group + 1);
		for (size_t k = 0; k < TL_FIG_NZ_FIRST; k++) {
			char v[32], mark[40];

			tl_fig_format((enum tl_fig)k, nd->fig.v[k], v, sizeof v);
			snprintf(mark, sizeof mark, "%s%s", v, nd->odd[k] ? "!" : "");
			fprintf(out, " %9s", mark);
		}
		if (nd->tested)
			fprintf(out, " %5.2f%s", nd->ks_d, nd->odd_samples ? "!" : " ");
		else
			fprintf(out, " %6s", "-");
		fprintf(out, "  %s\n", nd->flagged ? "FLAGGED" : "ok");
	}
	fprintf(out, "\n");
	if (fl->nflagged == 0)
		fprintf(out, "no node stands out (|robust z| <= %.0f on every figure; samples within "
			     "the nodes' own noise)\n",
			TL_FLEET_Z);
	for (size_t i = 0; i < fl->n; i++)
		if (fl->nodes[i].flagged)
			tl_fleet_reason_line(out, &fl->nodes[i], ": ");
	for (size_t i = 0; i < fl->n; i++)
		if (fl->nodes[i].note[0]) {
			tl_term_fputs(fl->nodes[i].fig.node.name, out);
			fputs(": ", out);
			tl_term_fputs(fl->nodes[i].note, out);
			fputc('\n', out);
		}
	fprintf(out, "rule: %s\n", tl_fleet_rule);
	char lesson[512];

	tl_lesson_fleet(fl, lesson, sizeof lesson);
	if (lesson[0]) {
		fputs("In short: ", out);
		tl_term_fputs(lesson, out);
		fputc('\n', out);
	}
}

void tl_fleet_reason_line(FILE *out, const struct tl_fleet_node *nd, const char *sep)
{
	tl_term_fputs(nd->fig.node.name, out);
	fputs(sep, out);
	tl_term_fputs(nd->reason, out);
	fputc('\n', out);
}

void tl_fleet_markdown_print(FILE *out, const struct tl_fleet *fl)
{
	char lesson[512];

	tl_lesson_fleet(fl, lesson, sizeof lesson);
	if (lesson[0]) {
		fputs("**In short:** ", out);
		tl_md_fputs(lesson, out);
		fputs("\n\n", out);
	}
	groups_print(out, fl, "- ", true);
	fprintf(out, "\n| node | group |");
	for (size_t k = 0; k < TL_FIG_NZ_FIRST; k++)
		fprintf(out, " %s |", tl_fig_info[k].label);
	fprintf(out, " KS D | flagged |\n|---|---|");
	for (size_t k = 0; k <= TL_FIG_NZ_FIRST; k++)
		fprintf(out, "---:|");
	fprintf(out, "---|\n");
	for (size_t i = 0; i < fl->n; i++) {
		const struct tl_fleet_node *nd = &fl->nodes[i];

		fputs("| ", out);
		tl_md_fputs(nd->fig.node.name, out);
		fprintf(out, " | %zu |", nd->group + 1);
		for (size_t k = 0; k < TL_FIG_NZ_FIRST; k++) {
			char v[32];

			tl_fig_format((enum tl_fig)k, nd->fig.v[k], v, sizeof v);
			fprintf(out, nd->odd[k] ? " **%s** |" : " %s |", v);
		}
		if (nd->tested)
			fprintf(out, nd->odd_samples ? " **%.2f** |" : " %.2f |", nd->ks_d);
		else
			fprintf(out, " - |");
		fprintf(out, " %s |\n", nd->flagged ? "**yes**" : "no");
	}
	fprintf(out, "\n");
	for (size_t i = 0; i < fl->n; i++)
		if (fl->nodes[i].flagged) {
			fputs("- **", out);
			tl_md_fputs(fl->nodes[i].fig.node.name, out);
			fputs("**: ", out);
			tl_md_fputs(fl->nodes[i].reason, out);
			fputc('\n', out);
		}
	for (size_t i = 0; i < fl->n; i++)
		if (fl->nodes[i].note[0]) {
			fputs("- ", out);
			tl_md_fputs(fl->nodes[i].fig.node.name, out);
			fputs(": ", out);
			tl_md_fputs(fl->nodes[i].note, out);
			fputc('\n', out);
		}
	for (size_t i = 0; i < fl->nbad; i++) {
		fputs("- skipped: ", out);
		tl_md_fputs(fl->bad[i].why, out);
		fputc('\n', out);
	}
}

static int csv_num(FILE *out, double v)
{
	return (isfinite(v) ? fprintf(out, ",%.17g", v) : fputc(',', out)) < 0 ? -1 : 0;
}

static int csv_node(FILE *out, const struct tl_fleet *fl, const struct tl_fleet_node *nd)
{
	const struct tl_fleet_group *g = &fl->groups[nd->group];

	if (tl_csv_fputs(nd->fig.node.name, out) < 0 || fprintf(out, ",%zu,", nd->group + 1) < 0 ||
	    tl_csv_fputs(g->model, out) < 0 || csv_num(out, g->tsc_ghz) < 0)
		return -1;
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		if (csv_num(out, nd->fig.v[k]) < 0)
			return -1;
	if (csv_num(out, nd->tested ? nd->ks_d : NAN) < 0 ||
	    fprintf(out, ",%s,", nd->flagged ? "true" : "false") < 0 ||
	    tl_csv_fputs(nd->reason, out) < 0)
		return -1;
	return fputc('\n', out) == EOF ? -1 : 0;
}

int tl_fleet_csv_print(FILE *out, const struct tl_fleet *fl)
{
	if (fputs("node,group,model,tsc_ghz", out) == EOF)
		return -1;
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		if (fprintf(out, ",%s", tl_fig_info[k].key) < 0)
			return -1;
	if (fputs(",ks_d,flagged,reasons\n", out) == EOF)
		return -1;
	for (size_t i = 0; i < fl->n; i++)
		if (csv_node(out, fl, &fl->nodes[i]) < 0)
			return -1;
	return 0;
}

static json_t *node_json(const struct tl_fleet_node *nd)
{
	json_t *o = tl_json_object(), *figs = tl_json_object(), *scores = tl_json_object();
	json_t *iv = tl_json_object(), *odd = tl_json_array();

	for (size_t k = 0; k < TL_FIG_COUNT; k++) {
		const char *key = tl_fig_info[k].key;

		tl_json_set(figs, key, tl_json_real(nd->fig.v[k]));
		tl_json_set(scores, key, tl_json_real(nd->score[k].z));
		if (isfinite(nd->fig.lo[k]))
			tl_json_set(iv, key, json_pack("[o, o]", tl_json_real(nd->fig.lo[k]),
						       tl_json_real(nd->fig.hi[k])));
		if (nd->odd[k])
			tl_json_append(odd, json_string(key));
	}
	tl_json_set(o, "name", json_string(nd->fig.node.name));
	tl_json_set(o, "hostname", json_string(nd->fig.node.hostname));
	tl_json_set(o, "file", json_string(nd->file));
	tl_json_set(o, "group", json_integer((int)nd->group + 1));
	tl_json_set(o, "flagged", json_boolean(nd->flagged));
	tl_json_set(o, "reason", json_string(nd->reason));
	tl_json_set(o, "note", json_string(nd->note));
	tl_json_set(o, "figures", figs);
	tl_json_set(o, "intervals", iv);
	tl_json_set(o, "robust_z", scores);
	tl_json_set(o, "odd", odd);
	if (nd->tested)
		tl_json_set(o, "samples_effect",
			    json_pack("{s:o, s:o, s:o, s:o, s:s, s:b}", "median_ns",
				      tl_json_real(nd->median_ns), "others_median_of_medians_ns",
				      tl_json_real(nd->others_mom_ns), "effect_percent",
				      tl_json_real(100 * nd->effect), "allowed_percent",
				      tl_json_real(100 * nd->allowed), "allowed_by", nd->allowed_by,
				      "told_apart", nd->told_apart));
	if (nd->tested)
		tl_json_set(o, "samples_test",
			    json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:b, s:s, s:o}", "n",
				      (json_int_t)nd->fig.nsamples, "n_others", (json_int_t)nd->n_others,
				      "ks_d", tl_json_real(nd->ks_d), "ks_p", tl_json_real(nd->ks_p),
				      "mwu_p", tl_json_real(nd->mwu_p), "hl_shift_ns",
				      tl_json_real(nd->hl_ns), "others_median_ns",
				      tl_json_real(nd->others_median), "odd", nd->odd_samples,
				      /* what the node's histogram is: the test is exact on
				       * exact ones, else each value within rel_error */
				      "histogram", nd->fig.hist_exact ? "exact" : "loglinear",
				      "rel_error", tl_json_real(nd->fig.hist_exact ? 0 : TL_HIST_REL_ERR)));
	return o;
}

json_t *tl_fleet_to_json(const struct tl_fleet *fl)
{
	json_t *doc = tl_json_object(), *groups = tl_json_array(), *nodes = tl_json_array();

	for (size_t g = 0; g < fl->ngroups; g++)
		tl_json_append(groups, json_pack("{s:i, s:s, s:o, s:I, s:s}", "group", (int)g + 1,
						 "model", fl->groups[g].model, "tsc_ghz",
						 tl_json_real(fl->groups[g].tsc_ghz), "nodes",
						 (json_int_t)fl->groups[g].nnodes, "note",
						 fl->groups[g].note));
	for (size_t i = 0; i < fl->n; i++)
		tl_json_append(nodes, node_json(&fl->nodes[i]));
	tl_json_set(doc, "ticklab",
		    json_pack("{s:s, s:s}", "version",
			      fl->n ? fl->nodes[0].fig.version : PACKAGE_VERSION, "command", "fleet"));
	tl_json_set(doc, "rules",
		    json_pack("{s:f, s:i, s:f, s:f, s:f, s:s}", "robust_z", TL_FLEET_Z, "min_nodes",
			      TL_FLEET_MIN_NODES, "ks_d", TL_FLEET_KS_D, "ks_p", TL_FLEET_KS_P,
			      "shift_rel", TL_FLEET_SHIFT_REL, "text", tl_fleet_rule));
	tl_json_set(doc, "flagged", json_integer((json_int_t)fl->nflagged));
	tl_json_set(doc, "groups", groups);
	tl_json_set(doc, "nodes", nodes);
	if (fl->nbad) {
		json_t *skipped = tl_json_array();

		for (size_t i = 0; i < fl->nbad; i++)
			tl_json_append(skipped, json_pack("{s:s, s:s}", "file", fl->bad[i].file, "why",
							  fl->bad[i].why));
		tl_json_set(doc, "skipped", skipped);
	}
	return doc;
}
