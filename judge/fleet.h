/* A fleet: fingerprints of many nodes (judge/figures.h), grouped by
 * hardware (CPU model and TSC rate: nodes are never compared across
 * groups), each figure of each node scored against the rest of its group
 * (stats/fleet.h), each node's add:K samples tested against the pooled
 * histogram of the rest (stats/fleet.h), and the odd nodes flagged with
 * their reasons in words. Loading the fingerprints and printing the
 * verdicts is io/fleet.h's. */
#ifndef TL_JUDGE_FLEET_H
#define TL_JUDGE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/figures.h"
#include "stats/fleet.h"

#define TL_FLEET_Z 5.0          /* |robust z| above this stands out */
#define TL_FLEET_MIN_NODES 3    /* a group needs this many to compare */
/* A node's add:K samples are told apart from the others' (each node
 * weighing in the pool at most as many samples as the group's median
 * node) when KS D exceeds TL_FLEET_KS_D with p below TL_FLEET_KS_P; they
 * are odd when, besides, the node's median lies further from the median
 * of the other nodes' medians than the largest of: TL_FLEET_SHIFT_REL,
 * the node's own drift, its own CV, and TL_FLEET_Z robust sds (1.4826
 * MAD) of the other nodes' medians (with TL_FLEET_FEW others or more). A
 * difference told apart but within that is noted, not flagged. */
#define TL_FLEET_KS_D 0.25
#define TL_FLEET_KS_P 1e-3
#define TL_FLEET_SHIFT_REL 0.02

struct tl_fleet_node {
	char *file;
	char *part;                  /* the --partial file it came from, or NULL */
	struct tl_fp_figures fig;
	size_t group;
	struct tl_fleet_score score[TL_FIG_COUNT];
	bool odd[TL_FIG_COUNT];
	bool tested;                 /* the two-sample test ran */
	size_t n_others;
	double ks_d, ks_p, mwu_p, hl_ns, others_median;
	double median_ns;            /* of its add:K samples */
	double others_mom_ns;        /* the median of the other nodes' medians */
	double effect;               /* median_ns / others_mom_ns - 1 */
	double allowed;              /* |effect| up to this is the nodes' own noise */
	const char *allowed_by;      /* which noise set it, in words */
	bool told_apart;             /* KS D and p past their bounds */
	bool odd_samples;            /* told apart and |effect| > allowed */
	char note[384];              /* told apart but within noise: said, not flagged */
	bool flagged;
	char reason[1536];           /* "; "-separated, "" when not flagged */
};

struct tl_fleet_group {
	char model[128];
	double tsc_ghz;
	size_t nnodes;
	char note[160];              /* why it was not compared, or "" */
};

/* A file that was skipped: unreadable, truncated, not a fingerprint. */
struct tl_fleet_bad {
	char *file;
	char *why;
};

struct tl_fleet {
	struct tl_fleet_node *nodes;
	size_t n, cap;
	struct tl_fleet_group *groups;
	size_t ngroups;
	size_t nflagged;
	struct tl_fleet_bad *bad;
	size_t nbad;
};

/* Called now and then while loading ("read", files done of total) and
 * judging ("judged", nodes done of total). */
struct tl_fleet_progress {
	void (*fn)(void *ctx, const char *what, size_t done, size_t total);
	void *ctx;
};

/* progress->fn, when there is one. */
void tl_fleet_progress_say(const struct tl_fleet_progress *p, const char *what, size_t done,
			   size_t total);

/* Groups, scores, tests and flags: each group's figures sorted once, its
 * nodes' histograms pooled once, every node against the pool less itself
 * (stats/fleet.h): linear in the nodes. */
void tl_fleet_judge(struct tl_fleet *fl, const struct tl_fleet_progress *progress);

/* The flagging rule in words, as the table and the JSON state it. */
extern const char tl_fleet_rule[];

#endif
