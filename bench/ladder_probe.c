/* The memory ladder in brief, for `info`: the levels a chase over doubling
 * sizes sees (bench/levels.c), so a student sees the latencies of the
 * levels the machine in front of them really has, named by what CPUID
 * reports only where the chase agrees that a level is there. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/host.h"
#include "bench/levels.h"
#include "bench/size.h"

/* The "caches" spoiler: sizes (NxLk flushes, ladder labels) taken from a
 * reported level the node does not give are wrong by as much as the
 * claim, 4xL3 a 2 GiB flush on a VM whose CPUID says L3 508 MiB. */
static void spoil_caches(struct tl_host *h, const struct tl_levels *lv)
{
	struct tl_spoiler *s = &h->spoilers[TL_SPOILER_CACHES];
	char words[1024];

	s->what = "caches";
	s->bad = false;
	if (!lv->measured) {
		snprintf(s->seen, sizeof s->seen, "not measured");
		snprintf(s->why, sizeof s->why, "no chase: %.200s", lv->why);
		return;
	}
	tl_levels_disagreement(lv, words, sizeof words);
	s->bad = words[0] != '\0';
	for (size_t i = 0; s->bad && i < lv->nlevels; i++) {
		const struct tl_memory_level *m = &lv->level[i];
		char rep[32], seen[32] = "no step";

		if (!m->cpuid_bytes || m->cpuid_agrees)
			continue;
		tl_size_format(m->cpuid_bytes, rep, sizeof rep);
		if (m->seen)
			tl_size_format(m->boundary_bytes, seen, sizeof seen);
		snprintf(s->seen, sizeof s->seen, "%s %s %s, chase %s", lv->reported_by, m->name, rep,
			 seen);
		break;
	}
	if (s->bad)
		snprintf(s->why, sizeof s->why, "%.190s; NxLk sizes go by the chase", words);
	else
		snprintf(s->why, sizeof s->why, "a chase's steps sit where the %s sizes say (within 2x)%s",
			 lv->reported_by, lv->unstable[0] ? ", though they moved between chases" : "");
	if (!s->bad)
		snprintf(s->seen, sizeof s->seen, "%s agrees", lv->reported_by);
}

void tl_host_probe_ladder(struct tl_host *h)
{
	const struct tl_levels *lv = tl_levels_get(h->cpu, h->have_topology ? &h->topo : NULL);

	h->ladder_probed = true;
	h->nladder = 0;
	h->levels = *lv;
	spoil_caches(h, lv);
	snprintf(h->ladder_timer, sizeof h->ladder_timer, "%s", lv->timer[0] ? lv->timer : "recorded");
	for (size_t i = 0; lv->measured && i < lv->nlevels && h->nladder < 4; i++) {
		const struct tl_memory_level *m = &lv->level[i];
		struct tl_level_latency *l;

		if (!m->seen)
			continue;
		l = &h->ladder[h->nladder++];
		snprintf(l->level, sizeof l->level, "%s", m->name);
		l->bytes = m->boundary_bytes;
		l->ns = m->latency_ns;
		l->note[0] = '\0';
	}
}
