#include "config.h"

#include "bench/selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/list.h"
#include "base/suggest.h"
#include "bench/kernel.h"
#include "bench/levels.h"
#include "bench/size.h"
#include "bench/topology.h"

static int parse_backends(struct tl_selection *s, const char *text, char *why, size_t whylen)
{
	if (tl_list_split(text, "--backend", &s->backends, &s->nbackends, why, whylen) < 0)
		return -1;
	for (size_t i = 0; i < s->nbackends; i++) {
		const char *id = s->backends[i];
		struct tl_timer t;
		char reason[TL_WHY_MAX];

		for (size_t j = 0; j < i; j++)
			if (strcmp(id, s->backends[j]) == 0) {
				snprintf(why, whylen, "backend '%s' is given twice", id);
				return -1;
			}
		if (!tl_backend_find(id)) {
			snprintf(why, whylen, "unknown backend '%s' (accepted: %s)", id,
				 tl_backend_ids());
			tl_suggest_append_head(why, whylen, id, ':', tl_backend_ids());
			return -1;
		}
		/* Probed now, so an unavailable backend is a usage error with its
		 * reason, before anything is allocated or measured. */
		if (tl_timer_open(&t, id, reason, sizeof reason) < 0) {
			snprintf(why, whylen, "backend '%s' is unavailable: %s", id, reason);
			return -1;
		}
		tl_timer_close(&t);
	}
	return 0;
}

/* Which level "NxLk" names (1..3), 0 for a literal size. */
static int multiple_of(const char *name)
{
	const char *x = strstr(name, "xL");

	return x && x[2] >= '1' && x[2] <= '3' ? x[2] - '0' : 0;
}

static uint64_t level_bytes(const struct tl_topology *t, int level)
{
	return level == 1 ? t->l1d : level == 2 ? t->l2 : t->l3;
}

static int parse_flushes(struct tl_selection *s, const char *text, const struct tl_topology *rep,
			 const struct tl_topology *topo, char *why, size_t whylen)
{
	if (tl_list_split(text, "--flush", &s->flush_names, &s->nflush, why, whylen) < 0)
		return -1;
	s->flush_bytes = calloc(s->nflush, sizeof *s->flush_bytes);
	s->flush_source = calloc(s->nflush, sizeof *s->flush_source);
	if (!s->flush_bytes || !s->flush_source) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < s->nflush; i++) {
		int level = multiple_of(s->flush_names[i]);

		if (tl_size_parse(s->flush_names[i], topo, &s->flush_bytes[i], why, whylen) < 0)
			return -1;
		for (size_t j = 0; j < i; j++)
			if (s->flush_bytes[j] == s->flush_bytes[i]) {
				snprintf(why, whylen, "flush size '%s' is given twice (%llu bytes)",
					 s->flush_names[i], (unsigned long long)s->flush_bytes[i]);
				return -1;
			}
		s->flush_source[i] = !level ? TL_FLUSH_LITERAL
				     : level_bytes(topo, level) != level_bytes(rep, level)
					     ? TL_FLUSH_MEASURED
					     : TL_FLUSH_REPORTED;
	}
	return 0;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Labels seen twice, by an open-addressing hash set of indexes: the pairwise
 * check took minutes on a million kernels. */
static int check_duplicates(const struct tl_kernel *k, size_t n, char *why, size_t whylen)
{
	size_t cap = 16, *slot;
	int rc = 0;

	while (cap < 2 * n)
		cap *= 2;
	slot = malloc(cap * sizeof *slot);
	if (!slot) {
		snprintf(why, whylen, "out of memory checking %zu kernels", n);
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		slot[i] = SIZE_MAX;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t h = (size_t)fnv1a(k[i].label) & (cap - 1);

		for (; slot[h] != SIZE_MAX; h = (h + 1) & (cap - 1))
			if (strcmp(k[slot[h]].label, k[i].label) == 0) {
				snprintf(why, whylen, "kernel '%s' is given twice", k[i].label);
				rc = -1;
				break;
			}
		if (rc == 0)
			slot[h] = i;
	}
	free(slot);
	return rc;
}

int tl_selection_parse(struct tl_selection *s, const char *backends, const char *flushes,
		       const char *kernels, int cpu, char *why, size_t whylen)
{
	struct tl_topology reported, topo;
	/* 4xL2 and load:4xL1 need the caches of the CPU that will sample; NxLk
	 * goes by the levels a chase sees where CPUID's disagree (a VM's 508
	 * MiB L3 would make 4xL3 a 2 GiB flush per sample). One read for both
	 * lists, one decision. */
	bool chase = (flushes && strchr(flushes, 'L')) || (kernels && strchr(kernels, 'L'));
	bool have_topo = false;
	char twhy[TL_WHY_MAX];

	memset(s, 0, sizeof *s);
	/* The backends first: a wrong one is said before any chase. */
	if (backends && parse_backends(s, backends, why, whylen) < 0) {
		tl_selection_free(s);
		return -1;
	}
	if ((flushes || kernels) &&
	    tl_levels_sizes_beside(cpu, chase, &reported, &topo, s->sizing_note,
				   sizeof s->sizing_note, twhy, sizeof twhy) == 0)
		have_topo = true;
	if ((flushes && parse_flushes(s, flushes, have_topo ? &reported : NULL,
				      have_topo ? &topo : NULL, why, whylen) < 0) ||
	    (kernels &&
	     (tl_kernel_parse_list_topo(kernels, have_topo ? &topo : NULL, &s->kernels,
					&s->nkernels, why, whylen) < 0 ||
	      check_duplicates(s->kernels, s->nkernels, why, whylen) < 0))) {
		tl_selection_free(s);
		return -1;
	}
	if (!chase)
		s->sizing_note[0] = '\0';
	return 0;
}

const char *tl_flush_source_name(enum tl_flush_source src)
{
	return src == TL_FLUSH_MEASURED ? "measured" : src == TL_FLUSH_REPORTED ? "reported"
										 : "literal";
}

void tl_selection_config(const struct tl_selection *s, struct tl_run_config *cfg)
{
	cfg->backends = (const char **)s->backends;
	cfg->nbackends = s->nbackends;
	cfg->flush_bytes = s->flush_bytes;
	cfg->flush_names = (const char *const *)s->flush_names;
	cfg->nflush = s->nflush;
	cfg->kernels = s->kernels;
	cfg->nkernels = s->nkernels;
}

void tl_selection_free(struct tl_selection *s)
{
	tl_list_free(s->backends, s->nbackends);
	tl_list_free(s->flush_names, s->nflush);
	free(s->flush_bytes);
	free(s->flush_source);
	free(s->kernels);
	memset(s, 0, sizeof *s);
}
