#include "config.h"

#include "bench/host_words.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"

/* The CPUs of a thread_siblings_list ("3,67", "0-1") but self, as a list. */
static void others(const char *list, int self, char *buf, size_t len)
{
	const char *p = list;
	size_t used = 0;

	buf[0] = '\0';
	while (*p && used < len) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long x = a; x <= b && x - a < 4096 && used < len; x++)
			if (x != self)
				used += (size_t)snprintf(buf + used, len - used, "%s%ld",
							 used ? "," : "", x);
		if (*end != ',')
			break;
		p = end + 1;
	}
}

void tl_host_smt_others(const struct tl_host *h, char *buf, size_t len)
{
	others(h->smt_siblings, h->cpu, buf, len);
}

void tl_host_smt_words(const struct tl_host *h, char *buf, size_t len)
{
	char rest[64];

	if (!h->smt_siblings[0]) {
		snprintf(buf, len, "SMT siblings unknown");
		return;
	}
	others(h->smt_siblings, h->cpu, rest, sizeof rest);
	if (rest[0])
		snprintf(buf, len, "SMT sibling CPU%s: %s (its core's CPU list: %s)",
			 h->nsiblings > 1 ? "s" : "", rest, h->smt_siblings);
	else
		snprintf(buf, len, "no SMT sibling (its core's CPU list: %s)", h->smt_siblings);
}

bool tl_spoiler_unknown(const char *seen)
{
	return seen && (!strncmp(seen, "unknown", 7) || !strncmp(seen, "not measured", 12));
}

/* " (every pass: 1MiB-4MiB of 5)": the range the chase's passes agree
 * the boundary lies in (bench/levels.h). */
static void sure(const struct tl_levels *lv, const struct tl_memory_level *l, char *buf,
		 size_t len)
{
	char lo[32], hi[32];

	buf[0] = '\0';
	if (!l->range_hi_bytes || !lv->passes)
		return;
	tl_size_format(l->range_lo_bytes, lo, sizeof lo);
	tl_size_format(l->range_hi_bytes, hi, sizeof hi);
	snprintf(buf, len, " (every pass: %s-%s of %u)", lo, hi, lv->passes);
}

static void level_line(const struct tl_levels *lv, const struct tl_memory_level *l, char *out)
{
	char b[32], hi[32], rep[64] = "", top[32], range[96];

	tl_size_format(l->boundary_bytes, b, sizeof b);
	tl_size_format(l->boundary_hi_bytes, hi, sizeof hi);
	tl_size_format(lv->npoints ? (uint64_t)lv->bytes[lv->npoints - 1] : 0, top, sizeof top);
	sure(lv, l, range, sizeof range);
	if (l->cpuid_bytes) {
		char r[32];

		tl_size_format(l->cpuid_bytes, r, sizeof r);
		snprintf(rep, sizeof rep, "; reported %s (%s)", r,
			 l->cpuid_agrees ? "agrees" : "does NOT agree");
	}
	if (!strcmp(l->name, "memory"))
		snprintf(out, TL_WORDS_LINE, "%-6s %6.3g ns a load from %s%s (chased up to %s)",
			 l->name, l->latency_ns, b, range, top);
	else if (!l->seen)
		snprintf(out, TL_WORDS_LINE, "%-6s      - not seen by the chase%s", l->name, rep);
	else if (l->boundary_hi_bytes)
		snprintf(out, TL_WORDS_LINE, "%-6s %6.3g ns a load up to %s, step at %s-%s%s%s",
			 l->name, l->latency_ns, b, b, hi, range, rep);
	else
		snprintf(out, TL_WORDS_LINE, "%-6s %6.3g ns a load up to %s at least (no step seen)%s",
			 l->name, l->latency_ns, b, rep);
}

size_t tl_levels_lines(const struct tl_levels *lv, char lines[][TL_WORDS_LINE], size_t max)
{
	char words[TL_WORDS_LINE - 2];
	size_t n = 0;

	if (!lv->measured) {
		if (max)
			snprintf(lines[n++], TL_WORDS_LINE, "not measured: %.290s", lv->why);
		return n;
	}
	for (size_t i = 0; i < lv->nlevels && n < max; i++)
		level_line(lv, &lv->level[i], lines[n++]);
	tl_levels_disagreement(lv, words, sizeof words);
	if (words[0] && n < max)
		snprintf(lines[n++], TL_WORDS_LINE, "! %s", words);
	if (lv->unstable[0] && n < max)
		snprintf(lines[n++], TL_WORDS_LINE,
			 "! unstable: the passes moved steps (busy neighbours?): %.240s",
			 lv->unstable);
	if (n < max)
		snprintf(lines[n++], TL_WORDS_LINE, "measured by %.300s", lv->source);
	if (lv->kept[0] && n < max)
		snprintf(lines[n++], TL_WORDS_LINE, "%.300s", lv->kept);
	return n;
}

static const struct tl_noise_source *source(const struct tl_noise_probe *pr, const char *name)
{
	for (size_t i = 0; i < pr->info.nsrc; i++)
		if (!strcmp(pr->info.src[i].name, name))
			return &pr->info.src[i];
	return NULL;
}

size_t tl_noise_probe_lines(const struct tl_noise_probe *pr, int rc, const char *why,
			    char lines[][TL_WORDS_LINE], size_t max)
{
	const struct tl_noise_source *sw = source(pr, "switch");
	double unexplained = pr->gaps ? 100.0 * (double)pr->unexplained / (double)pr->gaps : 0.0;
	size_t n = 0;

	if (max < 5)
		return 0;
	if (rc < 0) {
		snprintf(lines[n++], TL_WORDS_LINE, "not probed (%.280s)", why);
		return n;
	}
	/* Without the records their counts are not zeros but unknowns. */
	if (sw && !sw->ok)
		snprintf(lines[n++], TL_WORDS_LINE,
			 "in %.0f s on CPU %d: %llu local timer ticks, preemptions and faults "
			 "not recorded; %.0f %% of %llu gaps unexplained", pr->seconds, pr->cpu,
			 (unsigned long long)pr->ticks, unexplained, (unsigned long long)pr->gaps);
	else
		snprintf(lines[n++], TL_WORDS_LINE,
			 "in %.0f s on CPU %d: %llu local timer ticks, %llu preemptions, %llu "
			 "faults; %.0f %% of %llu gaps unexplained", pr->seconds, pr->cpu,
			 (unsigned long long)pr->ticks, (unsigned long long)pr->preempt,
			 (unsigned long long)pr->faults, unexplained, (unsigned long long)pr->gaps);
	snprintf(lines[n++], TL_WORDS_LINE,
		 "(a gap: a pause over %.0f ns in a clock loop; also %llu other interrupts, %llu "
		 "voluntary switches, %llu migrations)", pr->gap_ns, (unsigned long long)pr->irqs,
		 (unsigned long long)pr->voluntary, (unsigned long long)pr->migrations);
	snprintf(lines[n++], TL_WORDS_LINE,
		 "(unexplained: a gap beyond every record and interrupt: hardware or hypervisor)");
	if (sw && !sw->ok)
		snprintf(lines[n++], TL_WORDS_LINE, "switch and fault records unavailable: %.240s",
			 sw->why);
	/* Only where a CPU-wide event was allowed; otherwise the sources say why. */
	if (pr->nby) {
		size_t used = (size_t)snprintf(lines[n], TL_WORDS_LINE,
					       "preempted by (times each task ran in its place):");

		for (size_t i = 0; i < pr->nby && used < TL_WORDS_LINE; i++)
			used += (size_t)snprintf(lines[n] + used, TL_WORDS_LINE - used, "%s %s %llu",
						 i ? "," : "", pr->by[i].name,
						 (unsigned long long)pr->by[i].n);
		n++;
	}
	return n;
}
