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

void tl_host_probe_ladder(struct tl_host *h)
{
	const struct tl_levels *lv = tl_levels_get(h->cpu, h->have_topology ? &h->topo : NULL);

	h->ladder_probed = true;
	h->nladder = 0;
	h->levels = *lv;
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
