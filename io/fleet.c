#include "config.h"

#include "io/fleet.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/json_build.h"
#include "io/json_read.h"
#include "io/term_safe.h"
#include "io/results.h"
#include "stats/compare.h"

/* ------------------------------------------------------------------ */
/* Loading                                                              */
/* ------------------------------------------------------------------ */

static int add_file(struct tl_fleet *fl, const char *path, char *why, size_t whylen)
{
	struct tl_fleet_node *grown, *node;
	json_t *doc = tl_json_load(path, why, whylen);
	int rc;

	if (!doc)
		return -1;
	grown = realloc(fl->nodes, (fl->n + 1) * sizeof *grown);
	if (!grown) {
		json_decref(doc);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	fl->nodes = grown;
	node = &fl->nodes[fl->n];
	memset(node, 0, sizeof *node);
	rc = tl_fp_figures_from_json(doc, path, &node->fig, why, whylen);
	json_decref(doc);
	if (rc < 0)
		return -1;
	node->file = strdup(path);
	fl->n++;
	if (!node->file) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i + 1 < fl->n; i++) {
		const struct tl_fleet_node *o = &fl->nodes[i];

		if (strcmp(o->fig.version, node->fig.version) != 0) {
			snprintf(why, whylen, "%s: made by ticklab %s, but %s by ticklab %s (a fleet's "
					      "fingerprints must come from one version)",
				 path, node->fig.version, o->file, o->fig.version);
			return -1;
		}
		if (strcmp(o->fig.node.name, node->fig.node.name) == 0) {
			snprintf(why, whylen, "%s: node '%s' is seen twice (also in %s)", path,
				 node->fig.node.name, o->file);
			return -1;
		}
		if (o->fig.node.slurm_node[0] &&
		    strcmp(o->fig.node.slurm_node, node->fig.node.slurm_node) == 0) {
			snprintf(why, whylen, "%s: Slurm node '%s' is seen twice (also in %s, as '%s')",
				 path, node->fig.node.slurm_node, o->file, o->fig.node.name);
			return -1;
		}
	}
	return 0;
}

static int json_name(const struct dirent *d)
{
	size_t len = strlen(d->d_name);

	return d->d_name[0] != '.' && len > 5 && strcmp(d->d_name + len - 5, ".json") == 0;
}

static int add_dir(struct tl_fleet *fl, const char *dir, char *why, size_t whylen)
{
	struct dirent **list;
	int n = scandir(dir, &list, json_name, alphasort), rc = 0, nskipped = 0;

	if (n < 0) {
		snprintf(why, whylen, "%s: cannot read the directory: %s", dir, strerror(errno));
		return -1;
	}
	if (n == 0)
		snprintf(why, whylen, "%s: no *.json fingerprints in this directory", dir);
	for (int i = 0; i < n; i++) {
		char path[4096];

		struct stat st;

		snprintf(path, sizeof path, "%s/%s", dir, list[i]->d_name);
		if (rc == 0 && stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
			/* A FIFO named *.json would block the whole fleet: skipped, and
			 * said (issue 27). */
			fputs("ticklab: ", stderr);
			tl_term_fputs(path, stderr);
			fprintf(stderr, ": is %s, not a fingerprint file: skipped\n",
				tl_read_kind(st.st_mode));
			nskipped++;
		} else if (rc == 0) {
			rc = add_file(fl, path, why, whylen);
		}
		free(list[i]);
	}
	free(list);
	if (n > 0 && nskipped == n) {
		snprintf(why, whylen, "%s: no regular *.json fingerprints in this directory", dir);
		return -1;
	}
	return n == 0 ? -1 : rc;
}

int tl_fleet_load(char *const *paths, size_t npaths, struct tl_fleet *fl, char *why,
		  size_t whylen)
{
	memset(fl, 0, sizeof *fl);
	for (size_t i = 0; i < npaths; i++) {
		struct stat st;
		int rc = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)
				 ? add_dir(fl, paths[i], why, whylen)
				 : add_file(fl, paths[i], why, whylen);

		if (rc < 0)
			return -1;
	}
	return 0;
}

void tl_fleet_free(struct tl_fleet *fl)
{
	for (size_t i = 0; i < fl->n; i++) {
		free(fl->nodes[i].file);
		tl_fp_figures_free(&fl->nodes[i].fig);
	}
	free(fl->nodes);
	free(fl->groups);
	memset(fl, 0, sizeof *fl);
}

/* ------------------------------------------------------------------ */
/* Judging                                                              */
/* ------------------------------------------------------------------ */

/* Same hardware: one CPU model and TSC rates within 0.5 % (a calibrated
 * rate wobbles in its last digits between twins). */
static bool same_hardware(const struct tl_fleet_group *g, const struct tl_fp_figures *f)
{
	if (strcmp(g->model, f->model) != 0)
		return false;
	if (!isfinite(g->tsc_ghz) || !isfinite(f->tsc_ghz))
		return isfinite(g->tsc_ghz) == isfinite(f->tsc_ghz);
	return fabs(g->tsc_ghz - f->tsc_ghz) <= 0.005 * g->tsc_ghz;
}

static int group_nodes(struct tl_fleet *fl)
{
	fl->groups = calloc(fl->n ? fl->n : 1, sizeof *fl->groups);
	if (!fl->groups)
		return -1;
	for (size_t i = 0; i < fl->n; i++) {
		struct tl_fleet_node *nd = &fl->nodes[i];
		size_t g = 0;

		while (g < fl->ngroups && !same_hardware(&fl->groups[g], &nd->fig))
			g++;
		if (g == fl->ngroups) {
			snprintf(fl->groups[g].model, sizeof fl->groups[g].model, "%s", nd->fig.model);
			fl->groups[g].tsc_ghz = nd->fig.tsc_ghz;
			fl->ngroups++;
		}
		nd->group = g;
		fl->groups[g].nnodes++;
	}
	for (size_t g = 0; g < fl->ngroups; g++)
		if (fl->groups[g].nnodes < TL_FLEET_MIN_NODES)
			snprintf(fl->groups[g].note, sizeof fl->groups[g].note,
				 "%zu node(s) of this hardware: too few to compare (%d needed)",
				 fl->groups[g].nnodes, TL_FLEET_MIN_NODES);
	return 0;
}

static void score_figure(struct tl_fleet *fl, size_t i, enum tl_fig k, double *others)
{
	struct tl_fleet_node *nd = &fl->nodes[i];
	const struct tl_fig_info *info = &tl_fig_info[k];
	struct tl_fleet_score *s = &nd->score[k];
	size_t n = 0;
	char v[32], med[32], lo[32], hi[32];

	for (size_t j = 0; j < fl->n; j++)
		if (j != i && fl->nodes[j].group == nd->group)
			others[n++] = fl->nodes[j].fig.v[k];
	stats_fleet_score(nd->fig.v[k], others, n, info->floor_abs, info->floor_rel, s);
	if (info->bad == 2 || !isfinite(s->z) || s->n + 1 < TL_FLEET_MIN_NODES)
		return;
	nd->odd[k] = (info->bad >= 0 && s->z > TL_FLEET_Z) || (info->bad <= 0 && s->z < -TL_FLEET_Z);
	if (!nd->odd[k])
		return;
	tl_fig_format(k, nd->fig.v[k], v, sizeof v);
	tl_fig_format(k, s->median, med, sizeof med);
	tl_fig_format(k, s->lo, lo, sizeof lo);
	tl_fig_format(k, s->hi, hi, sizeof hi);
	{
		size_t used = strlen(nd->reason);

		snprintf(nd->reason + used, sizeof nd->reason - used,
			 "%s%s %s%s vs fleet %s%s [%s, %s]", used ? "; " : "", info->label, v,
			 info->unit, med, info->unit, lo, hi);
	}
}

/* The node's kept add:K samples against the pooled kept samples of the
 * rest of its group: a KS test and a Hodges-Lehmann shift. */
static int test_samples(struct tl_fleet *fl, size_t i)
{
	struct tl_fleet_node *nd = &fl->nodes[i];
	size_t total = 0, n = 0;
	double *pool, u;

	for (size_t j = 0; j < fl->n; j++)
		if (j != i && fl->nodes[j].group == nd->group)
			total += fl->nodes[j].fig.nsamples;
	if (total == 0 || nd->fig.nsamples == 0)
		return 0;
	pool = malloc(total * sizeof *pool);
	if (!pool)
		return -1;
	for (size_t j = 0; j < fl->n; j++)
		if (j != i && fl->nodes[j].group == nd->group) {
			memcpy(pool + n, fl->nodes[j].fig.samples,
			       fl->nodes[j].fig.nsamples * sizeof *pool);
			n += fl->nodes[j].fig.nsamples;
		}
	if (stats_ks_2samp(pool, n, nd->fig.samples, nd->fig.nsamples, &nd->ks_d, &nd->ks_p) < 0 ||
	    stats_mann_whitney(pool, n, nd->fig.samples, nd->fig.nsamples, &u, &nd->mwu_p) < 0) {
		free(pool);
		return -1;
	}
	stats_hodges_lehmann(pool, n, nd->fig.samples, nd->fig.nsamples, &nd->hl_ns);
	nd->others_median = stats_median(pool, n);
	nd->n_others = n;
	nd->tested = true;
	free(pool);
	nd->odd_samples = nd->ks_d > TL_FLEET_KS_D && nd->ks_p < TL_FLEET_KS_P &&
			  fabs(nd->hl_ns) > TL_FLEET_SHIFT_REL * fabs(nd->others_median);
	if (nd->odd_samples) {
		size_t used = strlen(nd->reason);

		snprintf(nd->reason + used, sizeof nd->reason - used,
			 "%sadd:%d samples differ from the others': KS D %.2f (p %.2g), shift %+.1f ns "
			 "(%+.1f %%)",
			 used ? "; " : "", TL_FP_ADDS, nd->ks_d, nd->ks_p, nd->hl_ns,
			 100 * nd->hl_ns / nd->others_median);
	}
	return 0;
}

int tl_fleet_judge(struct tl_fleet *fl)
{
	double *others = malloc((fl->n ? fl->n : 1) * sizeof *others);

	if (!others || group_nodes(fl) < 0) {
		free(others);
		return -1;
	}
	fl->nflagged = 0;
	for (size_t i = 0; i < fl->n; i++) {
		struct tl_fleet_node *nd = &fl->nodes[i];

		nd->reason[0] = '\0';
		for (size_t k = 0; k < TL_FIG_COUNT; k++)
			score_figure(fl, i, (enum tl_fig)k, others);
		if (fl->groups[nd->group].nnodes >= TL_FLEET_MIN_NODES && test_samples(fl, i) < 0) {
			free(others);
			return -1;
		}
		nd->flagged = nd->reason[0] != '\0';
		fl->nflagged += nd->flagged;
	}
	free(others);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Output                                                               */
/* ------------------------------------------------------------------ */

static void groups_print(FILE *out, const struct tl_fleet *fl, const char *bullet)
{
	for (size_t g = 0; g < fl->ngroups; g++)
		fprintf(out, "%sgroup %zu: %s, TSC %.4g GHz, %zu node(s)%s%s\n", bullet, g + 1,
			fl->groups[g].model[0] ? fl->groups[g].model : "?", fl->groups[g].tsc_ghz,
			fl->groups[g].nnodes, fl->groups[g].note[0] ? ": " : "", fl->groups[g].note);
}

static size_t name_width(const struct tl_fleet *fl)
{
	size_t w = 4;

	for (size_t i = 0; i < fl->n; i++)
		if (strlen(fl->nodes[i].fig.node.name) > w)
			w = strlen(fl->nodes[i].fig.node.name);
	return w;
}

void tl_fleet_table_print(FILE *out, const struct tl_fleet *fl)
{
	int w = (int)name_width(fl);

	groups_print(out, fl, "");
	fprintf(out, "%-*s %2s", w, "node", "g");
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		fprintf(out, " %9s", tl_fig_info[k].label);
	fprintf(out, " %6s  %s\n", "KS D", "flag");
	for (size_t i = 0; i < fl->n; i++) {
		const struct tl_fleet_node *nd = &fl->nodes[i];

		fprintf(out, "%-*s %2zu", w, nd->fig.node.name, nd->group + 1);
		for (size_t k = 0; k < TL_FIG_COUNT; k++) {
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
		fprintf(out, "no node stands out (|robust z| <= %.0f on every figure; samples alike)\n",
			TL_FLEET_Z);
	for (size_t i = 0; i < fl->n; i++)
		if (fl->nodes[i].flagged)
			fprintf(out, "%s: %s\n", fl->nodes[i].fig.node.name, fl->nodes[i].reason);
}

void tl_fleet_markdown_print(FILE *out, const struct tl_fleet *fl)
{
	groups_print(out, fl, "- ");
	fprintf(out, "\n| node | group |");
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		fprintf(out, " %s |", tl_fig_info[k].label);
	fprintf(out, " KS D | flagged |\n|---|---|");
	for (size_t k = 0; k <= TL_FIG_COUNT; k++)
		fprintf(out, "---:|");
	fprintf(out, "---|\n");
	for (size_t i = 0; i < fl->n; i++) {
		const struct tl_fleet_node *nd = &fl->nodes[i];

		fprintf(out, "| %s | %zu |", nd->fig.node.name, nd->group + 1);
		for (size_t k = 0; k < TL_FIG_COUNT; k++) {
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
		if (fl->nodes[i].flagged)
			fprintf(out, "- **%s**: %s\n", fl->nodes[i].fig.node.name, fl->nodes[i].reason);
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
	tl_json_set(o, "figures", figs);
	tl_json_set(o, "intervals", iv);
	tl_json_set(o, "robust_z", scores);
	tl_json_set(o, "odd", odd);
	if (nd->tested)
		tl_json_set(o, "samples_test",
			    json_pack("{s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:b}", "n",
				      (json_int_t)nd->fig.nsamples, "n_others", (json_int_t)nd->n_others,
				      "ks_d", tl_json_real(nd->ks_d), "ks_p", tl_json_real(nd->ks_p),
				      "mwu_p", tl_json_real(nd->mwu_p), "hl_shift_ns",
				      tl_json_real(nd->hl_ns), "others_median_ns",
				      tl_json_real(nd->others_median), "odd", nd->odd_samples));
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
		    json_pack("{s:f, s:i, s:f, s:f, s:f}", "robust_z", TL_FLEET_Z, "min_nodes",
			      TL_FLEET_MIN_NODES, "ks_d", TL_FLEET_KS_D, "ks_p", TL_FLEET_KS_P,
			      "shift_rel", TL_FLEET_SHIFT_REL));
	tl_json_set(doc, "flagged", json_integer((json_int_t)fl->nflagged));
	tl_json_set(doc, "groups", groups);
	tl_json_set(doc, "nodes", nodes);
	return doc;
}
