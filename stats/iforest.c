/* Isolation forest (Liu, Ting, Zhou 2008) built to match scikit-learn's
 * IsolationForest.score_samples in distribution: the OS-noise scores of
 * paper section 5.4.2. Agreement with scikit-learn is what makes our β
 * search the paper's, so its conventions are kept one for one (the
 * reference test compares the two). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "stats/mt19937.h"
#include "stats/stats.h"

#define MAX_FEAT 2
#define MAX_NODES (2 * TL_IFOREST_MAX_SAMPLES - 1)

/* Children of an inner node are adjacent (right = left + 1), so a node is
 * 16 bytes. A leaf points to itself with threshold +inf, so every walk is
 * exactly max_depth steps with no data-dependent branch: the CPU overlaps
 * the walks of consecutive points instead of mispredicting leaf exits. */
struct node {
	double thr;
	int feat;
	int left;
};

struct tree {
	struct node nodes[MAX_NODES];
	double path[MAX_NODES]; /* at leaves: depth + c(rows in the leaf) */
	int nnodes;
	int depth; /* the depth limit: every walk takes this many steps */
};

struct tl_iforest {
	size_t nfeat;
	size_t psi;
	double c_psi;
	struct tree trees[TL_IFOREST_TREES];
};

/* Euler-Mascheroni constant (scikit-learn uses np.euler_gamma). */
#define EULER_GAMMA 0.57721566490153286061

double stats_iforest_c(double n)
{
	if (n <= 1.0)
		return 0.0;
	if (n <= 2.0)
		return 1.0;
	return 2.0 * (log(n - 1.0) + EULER_GAMMA) - 2.0 * (n - 1.0) / n;
}

struct builder {
	struct tree *t;
	double *x[MAX_FEAT]; /* the tree's psi rows, partitioned in place */
	double *tmp;         /* psi rows: partition1's right side */
	size_t nfeat;
	int max_depth;
	gsl_rng *rng;
};

static void make_leaf(struct tree *t, int at, int depth, size_t rows)
{
	t->nodes[at].feat = 0;
	t->nodes[at].left = at;
	t->nodes[at].thr = INFINITY;
	t->path[at] = depth + stats_iforest_c((double)rows);
}

/* The range of each feature over rows [lo, hi). */
static void range_of(const struct builder *b, size_t lo, size_t hi, double *mn, double *mx)
{
	for (size_t f = 0; f < b->nfeat; f++) {
		mn[f] = mx[f] = b->x[f][lo];
		for (size_t i = lo + 1; i < hi; i++) {
			double v = b->x[f][i];
			if (v < mn[f])
				mn[f] = v;
			if (v > mx[f])
				mx[f] = v;
		}
	}
}

static inline void range_add(const struct builder *b, size_t i, bool first, double *mn, double *mx)
{
	for (size_t f = 0; f < b->nfeat; f++) {
		double v = b->x[f][i];
		if (first || v < mn[f])
			mn[f] = v;
		if (first || v > mx[f])
			mx[f] = v;
	}
}

/* Rows x[.][lo, hi) with x[f] <= thr first; returns the split point. Each
 * row is seen last where it stays, so the two sides' ranges (what their
 * nodes split on) come out of the same pass: a tree is built with one scan
 * of its rows per level, not two. */
static size_t partition(struct builder *b, size_t lo, size_t hi, size_t f, double thr,
			double (*mn)[MAX_FEAT], double (*mx)[MAX_FEAT])
{
	size_t i = lo, j = hi;
	while (i < j) {
		if (b->x[f][i] <= thr) {
			range_add(b, i, i == lo, mn[0], mx[0]);
			i++;
			continue;
		}
		j--;
		for (size_t g = 0; g < b->nfeat; g++) {
			double tmp = b->x[g][i];
			b->x[g][i] = b->x[g][j];
			b->x[g][j] = tmp;
		}
		range_add(b, j, j + 1 == hi, mn[1], mx[1]);
	}
	return i;
}

/* partition for one feature, without a branch on the data: the left rows
 * packed in place, the right ones through b->tmp, and both sides' ranges
 * taken on the way. Only which rows go left matters to the tree (the
 * draws, the leaves' sizes), not their order within a side. */
static size_t partition1(struct builder *b, size_t lo, size_t hi, double thr,
			 double (*mn)[MAX_FEAT], double (*mx)[MAX_FEAT])
{
	double *x = b->x[0], *r = b->tmp;
	double mnl = INFINITY, mxl = -INFINITY, mnr = INFINITY, mxr = -INFINITY;
	size_t nl = 0, nr = 0;

	for (size_t i = lo; i < hi; i++) {
		double v = x[i];
		bool left = v <= thr;
		double vl = left ? v : INFINITY, vr = left ? INFINITY : v;
		double wl = left ? v : -INFINITY, wr = left ? -INFINITY : v;

		x[lo + nl] = v; /* lo + nl <= i: a row already read */
		r[nr] = v;
		nl += left;
		nr += !left;
		mnl = vl < mnl ? vl : mnl;
		mnr = vr < mnr ? vr : mnr;
		mxl = wl > mxl ? wl : mxl;
		mxr = wr > mxr ? wr : mxr;
	}
	memcpy(x + lo + nl, r, nr * sizeof(*r));
	mn[0][0] = mnl;
	mx[0][0] = mxl;
	mn[1][0] = mnr;
	mx[1][0] = mxr;
	return lo + nl;
}

/* Fills nodes[at], a slot the parent reserved; children go in adjacent
 * slots. mn, mx: each feature's range over the rows. */
static void grow(struct builder *b, int at, size_t lo, size_t hi, int depth, const double *mn,
		 const double *mx)
{
	double cmn[2][MAX_FEAT], cmx[2][MAX_FEAT];
	size_t live[MAX_FEAT], nlive = 0;
	struct node *nd = &b->t->nodes[at];

	if (depth >= b->max_depth || hi - lo < 2) {
		make_leaf(b->t, at, depth, hi - lo);
		return;
	}
	for (size_t f = 0; f < b->nfeat; f++)
		/* Exact comparison: a feature is constant only when all its
		 * values are equal (scikit-learn allows 1e-7 in float32, which
		 * never matters for ns or cycle counts). */
		if (mx[f] > mn[f])
			live[nlive++] = f;
	if (nlive == 0) {
		/* All rows identical: a leaf holding duplicates (coarse timers). */
		make_leaf(b->t, at, depth, hi - lo);
		return;
	}
	size_t f = live[gsl_rng_uniform_int(b->rng, nlive)];
	double thr = mn[f] + gsl_rng_uniform(b->rng) * (mx[f] - mn[f]);
	if (thr >= mx[f]) /* rounding reached max: scikit-learn falls back to min */
		thr = mn[f];
	size_t mid = b->nfeat == 1 ? partition1(b, lo, hi, thr, cmn, cmx)
				   : partition(b, lo, hi, f, thr, cmn, cmx);

	int left = b->t->nnodes;
	b->t->nnodes += 2;
	nd->feat = (int)f;
	nd->thr = thr;
	nd->left = left;
	grow(b, left, lo, mid, depth + 1, cmn[0], cmx[0]);
	grow(b, left + 1, mid, hi, depth + 1, cmn[1], cmx[1]);
}

static int depth_limit(size_t psi)
{
	/* ceil(log2(max(psi, 2))) computed on integers: no rounding doubt. */
	int d = 0;
	size_t cap = 1;
	if (psi < 2)
		psi = 2;
	while (cap < psi) {
		cap <<= 1;
		d++;
	}
	return d;
}

struct tl_iforest *stats_iforest_fit(const double *const *features, size_t nfeat, size_t n,
				     uint64_t seed)
{
	/* gsl_rng_uniform_int draws below mt19937's 2^32 range only. */
	if (nfeat < 1 || nfeat > MAX_FEAT || n == 0 || !features || n > 0xffffffffUL)
		return NULL;
	struct tl_iforest *fo = malloc(sizeof(*fo));
	/* 32-bit rows (n < 2^32 above): half the memory of size_t at 10^7. */
	uint32_t *perm = malloc(n * sizeof(*perm));
	double *buf = malloc((MAX_FEAT + 1) * TL_IFOREST_MAX_SAMPLES * sizeof(*buf));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!fo || !perm || !buf || !rng) {
		free(fo);
		free(perm);
		free(buf);
		if (rng)
			gsl_rng_free(rng);
		return NULL;
	}
	gsl_rng_set(rng, (unsigned long)seed);
	fo->nfeat = nfeat;
	fo->psi = n < TL_IFOREST_MAX_SAMPLES ? n : TL_IFOREST_MAX_SAMPLES;
	fo->c_psi = stats_iforest_c((double)fo->psi);
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;

	struct builder b = { .nfeat = nfeat, .max_depth = depth_limit(fo->psi), .rng = rng };
	for (size_t f = 0; f < nfeat; f++)
		b.x[f] = buf + f * TL_IFOREST_MAX_SAMPLES;
	b.tmp = buf + MAX_FEAT * TL_IFOREST_MAX_SAMPLES;
	for (int t = 0; t < TL_IFOREST_TREES; t++) {
		/* psi rows without replacement: a partial Fisher-Yates shuffle.
		 * Continuing from the previous tree's order is still uniform and
		 * costs O(psi), not O(n), per tree. */
		for (size_t i = 0; i < fo->psi; i++) {
			size_t j = i + (size_t)gsl_rng_uniform_int(rng, (unsigned long)(n - i));
			uint32_t tmp = perm[i];
			perm[i] = perm[j];
			perm[j] = tmp;
			for (size_t f = 0; f < nfeat; f++)
				b.x[f][i] = features[f][perm[i]];
		}
		b.t = &fo->trees[t];
		b.t->nnodes = 1;
		b.t->depth = b.max_depth;
		double mn[MAX_FEAT], mx[MAX_FEAT];
		range_of(&b, 0, fo->psi, mn, mx);
		grow(&b, 0, 0, fo->psi, 0, mn, mx);
	}
	free(perm);
	free(buf);
	gsl_rng_free(rng);
	return fo;
}

static double path_length(const struct tree *t, const double *point)
{
	int at = 0;
	for (int d = 0; d < t->depth; d++) {
		const struct node *nd = &t->nodes[at];
		at = nd->left + (point[nd->feat] > nd->thr);
	}
	return t->path[at];
}

/* sum: path lengths summed over the trees. */
static double score_of(const struct tl_iforest *fo, double sum)
{
	/* psi == 1 gives c(psi) == 0: scikit-learn then takes mean h / c as 1, -2^-1. */
	if (fo->c_psi == 0.0)
		return -0.5;
	return -exp2(-(sum / TL_IFOREST_TREES) / fo->c_psi);
}

struct keyed {
	double v[MAX_FEAT];
	size_t i;
};

/* path_length for many points at once: WALK_LANES independent walks in
 * lock step give the CPU independent loads to overlap (a single walk is a
 * chain of dependent loads). Same arithmetic, so the same sums. */
#define WALK_LANES 8
#define TILE 1024
/* Rows between two looks at the stop flag in a loop over every sample. */
#define STOP_EVERY ((size_t)1 << 16)
static void walk_block(const struct tree *t, const struct keyed *k, size_t nd, double *sum)
{
	size_t j = 0;
	for (; j + WALK_LANES <= nd; j += WALK_LANES) {
		int at[WALK_LANES] = { 0 };
		for (int d = 0; d < t->depth; d++)
			for (int u = 0; u < WALK_LANES; u++) {
				const struct node *n = &t->nodes[at[u]];
				at[u] = n->left + (k[j + u].v[n->feat] > n->thr);
			}
		for (int u = 0; u < WALK_LANES; u++)
			sum[j + u] += t->path[at[u]];
	}
	for (; j < nd; j++)
		sum[j] += path_length(t, k[j].v);
}

double stats_iforest_score(const struct tl_iforest *fo, const double *point)
{
	double sum = 0.0;
	for (int t = 0; t < TL_IFOREST_TREES; t++)
		sum += path_length(&fo->trees[t], point);
	return score_of(fo, sum);
}

void stats_iforest_free(struct tl_iforest *fo)
{
	free(fo);
}

static int keyed_cmp(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	for (int f = 0; f < MAX_FEAT; f++) {
		if (a->v[f] < b->v[f])
			return -1;
		if (a->v[f] > b->v[f])
			return 1;
	}
	return (a->i > b->i) - (a->i < b->i);
}

/* One feature on few distinct values (every lattice timer's samples): a
 * tree's psi rows are then a few distinct values with their counts, and a
 * node is a run of them. Its range is its first and last value, its split
 * where the values pass the threshold, its size a difference of prefix
 * sums: the same tree as grow() builds from the rows (the same draws in
 * the same order, the same leaves), without a pass over its rows per
 * level. Past RUNS_MAX distinct values the rows are grown as they are. */
#define RUNS_MAX (4 * TL_IFOREST_MAX_SAMPLES)

struct runs {
	struct tree *t;
	double v[TL_IFOREST_MAX_SAMPLES];      /* the tree's distinct values, ascending */
	size_t pre[TL_IFOREST_MAX_SAMPLES + 1]; /* rows before run r */
	int max_depth;
	struct tl_mt rng;
};

static void grow_runs(struct runs *b, int at, size_t a, size_t e, int depth)
{
	size_t rows = b->pre[e] - b->pre[a], s = a;
	struct node *nd = &b->t->nodes[at];
	double mn, mx, thr;

	if (depth >= b->max_depth || rows < 2 || e - a < 2) {
		/* one value (e - a == 1): grow()'s leaf of identical rows */
		make_leaf(b->t, at, depth, rows);
		return;
	}
	mn = b->v[a];
	mx = b->v[e - 1];
	/* grow() draws its feature among the live ones: one, but drawn */
	(void)tl_mt_uniform_int(&b->rng, 1);
	thr = mn + tl_mt_uniform(&b->rng) * (mx - mn);
	if (thr >= mx)
		thr = mn;
	while (s < e && b->v[s] <= thr)
		s++;

	int left = b->t->nnodes;
	b->t->nnodes += 2;
	nd->feat = 0;
	nd->thr = thr;
	nd->left = left;
	grow_runs(b, left, a, s, depth + 1);
	grow_runs(b, left + 1, s, e, depth + 1);
}

static uint32_t rank_at(const double *ranks, size_t i)
{
	uint32_t r;

	memcpy(&r, (const unsigned char *)ranks + sizeof r * i, sizeof r);
	return r;
}

/* stats_iforest_fit of one feature whose row i is d[rank i]: ranks holds
 * n uint32 (in a double array's memory: the caller's scratch). */
static struct tl_iforest *fit_runs(const double *ranks, const double *d, size_t nd, size_t n,
				   uint64_t seed)
{
	struct tl_iforest *fo = malloc(sizeof(*fo));
	uint32_t *perm = malloc(n * sizeof(*perm)), *cnt = calloc(nd, sizeof(*cnt));
	struct runs *b = malloc(sizeof(*b));

	if (!fo || !perm || !cnt || !b || n > 0xffffffffUL) {
		free(fo);
		free(perm);
		free(cnt);
		free(b);
		return NULL;
	}
	tl_mt_set(&b->rng, (unsigned long)seed);
	fo->nfeat = 1;
	fo->psi = n < TL_IFOREST_MAX_SAMPLES ? n : TL_IFOREST_MAX_SAMPLES;
	fo->c_psi = stats_iforest_c((double)fo->psi);
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	b->max_depth = depth_limit(fo->psi);
	for (int t = 0; t < TL_IFOREST_TREES; t++) {
		size_t nr = 0;

		/* the same draws as stats_iforest_fit's shuffle */
		for (size_t i = 0; i < fo->psi; i++) {
			size_t j = i + (size_t)tl_mt_uniform_int(&b->rng, (unsigned long)(n - i));
			uint32_t tmp = perm[i];
			perm[i] = perm[j];
			perm[j] = tmp;
			cnt[rank_at(ranks, perm[i])]++;
		}
		b->pre[0] = 0;
		for (size_t k = 0; k < nd; k++)
			if (cnt[k]) {
				b->v[nr] = d[k];
				b->pre[nr + 1] = b->pre[nr] + cnt[k];
				nr++;
				cnt[k] = 0;
			}
		b->t = &fo->trees[t];
		b->t->nnodes = 1;
		b->t->depth = b->max_depth;
		grow_runs(b, 0, 0, nr, 0);
	}
	free(perm);
	free(cnt);
	free(b);
	return fo;
}

/* One feature (every cell's analysis): the distinct values are a sorted
 * copy made unique, scored tile by tile, and each row takes its value's
 * score. The sort runs in the scores array itself, and so do the rows'
 * ranks while the trees are grown from them (4 B per sample in its 8);
 * then 16 B per distinct value, instead of the 32 B per sample of keyed
 * rows and groups. The sums run as in the general path, so the scores are
 * the same bits. */
static int scores_one(const double *x, size_t n, uint64_t seed, const atomic_bool *stop,
		      double *scores)
{
	struct tl_iforest *fo;
	double *d, *ds;
	struct keyed tile[TILE];
	double sum[TILE];
	size_t nd = 0;
	bool ranked;

	/* scores is the sort's scratch until the rows take their scores: a
	 * sorted copy of its own would be 8 B per sample more at the peak of
	 * every analysis, and run --json aims at 40 B a sample. */
	memcpy(scores, x, n * sizeof(*scores));
	stats_sort(scores, n);
	if (stats_stop_asked(stop))
		return 1;
	for (size_t i = 0; i < n; i++)
		if (nd == 0 || scores[i] != scores[nd - 1])
			scores[nd++] = scores[i];
	d = malloc(nd * sizeof(*d));
	ds = malloc(nd * sizeof(*ds));
	if (!d || !ds) {
		free(d);
		free(ds);
		return -1;
	}
	memcpy(d, scores, nd * sizeof(*d));
	ranked = nd <= RUNS_MAX;
	if (ranked) {
		for (size_t i = 0; i < n; i++) {
			uint32_t r = (uint32_t)stats_first_at_least(d, nd, x[i]);
			memcpy((unsigned char *)scores + sizeof r * i, &r, sizeof r);
			if (i % STOP_EVERY == 0 && stats_stop_asked(stop))
				break;
		}
		fo = stats_stop_asked(stop) ? NULL : fit_runs(scores, d, nd, n, seed);
	} else {
		fo = stats_stop_asked(stop) ? NULL : stats_iforest_fit(&x, 1, n, seed);
	}
	if (!fo) {
		free(d);
		free(ds);
		return stats_stop_asked(stop) ? 1 : -1;
	}
	for (size_t j0 = 0; j0 < nd; j0 += TILE) {
		size_t m = nd - j0 < TILE ? nd - j0 : TILE;
		/* a tile is 100 tree walks of TILE values: a few ms */
		if (stats_stop_asked(stop)) {
			stats_iforest_free(fo);
			free(d);
			free(ds);
			return 1;
		}
		for (size_t u = 0; u < m; u++) {
			tile[u].v[0] = d[j0 + u];
			tile[u].v[1] = 0.0;
			tile[u].i = u;
			sum[u] = 0.0;
		}
		for (int t = 0; t < TL_IFOREST_TREES; t++)
			walk_block(&fo->trees[t], tile, m, sum);
		for (size_t u = 0; u < m; u++)
			ds[j0 + u] = score_of(fo, sum[u]);
	}
	stats_iforest_free(fo);
	/* from the last row down: row i's score (8 B at 8i) lands on ranks
	 * 2i and 2i + 1, rows already given theirs (i's own is read first) */
	for (size_t i = n; i-- > 0;)
		scores[i] = ds[ranked ? rank_at(scores, i) : stats_first_at_least(d, nd, x[i])];
	free(d);
	free(ds);
	return 0;
}

int stats_iforest_scores(const double *const *features, size_t nfeat, size_t n, uint64_t seed,
			 double *scores)
{
	return stats_iforest_scores_until(features, nfeat, n, seed, NULL, scores);
}

/* Distinct points are scored once: on a 10 ns timer a million samples hold
 * a few hundred distinct values, and the score is a pure function of the
 * point, so the result is identical to scoring every row. The per-point sum
 * runs over the trees in the same order as stats_iforest_score, so scores
 * are bitwise equal. */
int stats_iforest_scores_until(const double *const *features, size_t nfeat, size_t n,
			       uint64_t seed, const atomic_bool *stop, double *scores)
{
	if (n == 0)
		return 0;
	if (!scores || nfeat < 1 || nfeat > MAX_FEAT)
		return -1;
	if (nfeat == 1)
		return scores_one(features[0], n, seed, stop, scores);
	struct tl_iforest *fo = stats_iforest_fit(features, nfeat, n, seed);
	struct keyed *k = malloc(n * sizeof(*k));
	size_t *group = malloc(n * sizeof(*group));
	if (!fo || !k || !group) {
		stats_iforest_free(fo);
		free(k);
		free(group);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		for (size_t f = 0; f < MAX_FEAT; f++)
			k[i].v[f] = f < nfeat ? features[f][i] : 0.0;
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), keyed_cmp);
	/* Compact: k[0..nd) become the distinct points (v only), group[i] says
	 * which distinct point row i is. */
	size_t nd = 0;
	for (size_t i = 0; i < n; i++) {
		if (nd == 0 || memcmp(k[i].v, k[nd - 1].v, sizeof(k[i].v)) != 0) {
			memcpy(k[nd].v, k[i].v, sizeof(k[i].v));
			nd++;
		}
		group[k[i].i] = nd - 1;
	}
	/* sum[j]: path lengths of distinct point j summed over the trees. */
	double *sum = malloc(nd * sizeof(*sum));
	if (!sum) {
		stats_iforest_free(fo);
		free(k);
		free(group);
		return -1;
	}
	for (size_t j = 0; j < nd; j++)
		sum[j] = 0.0;
	/* Tiles of points small enough to stay in L1/L2 while all trees walk
	 * them: streaming every point past each tree in turn is memory-bound. */
	for (size_t j0 = 0; j0 < nd; j0 += TILE) {
		size_t m = nd - j0 < TILE ? nd - j0 : TILE;
		if (stats_stop_asked(stop))
			break;
		for (int t = 0; t < TL_IFOREST_TREES; t++)
			walk_block(&fo->trees[t], k + j0, m, sum + j0);
	}
	for (size_t j = 0; j < nd; j++)
		sum[j] = score_of(fo, sum[j]);
	for (size_t i = 0; i < n; i++)
		scores[i] = sum[group[i]];
	free(sum);
	free(k);
	free(group);
	stats_iforest_free(fo);
	return stats_stop_asked(stop) ? 1 : 0;
}
