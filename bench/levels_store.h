/* The node's record of its memory levels: measured once, kept under
 * $XDG_CACHE_HOME/ticklab/ (else ~/.cache/ticklab/), and read by every
 * later run on the same node, so `4xL3` is the same bytes in each until the
 * record goes stale: another host name, CPU model, boot, TL_LEVELS_MAX, or
 * older than TL_LEVELS_STORE_MAX_AGE_S. A text file of "key value" lines
 * (the median chase ladder and each boundary's range); the levels are found
 * again from the ladder on reading, by the same code that found them. */
#ifndef TL_BENCH_LEVELS_STORE_H
#define TL_BENCH_LEVELS_STORE_H

#include <stddef.h>

#include "bench/levels.h"
#include "bench/topology.h"

/* A week: long enough that a lecture's runs share one record, short
 * enough that a host resized under the same name is chased again soon. */
#define TL_LEVELS_STORE_MAX_AGE_S (7 * 24 * 3600)

/* The record's path for this node; -1 with why when there is no place
 * (no XDG_CACHE_HOME and no HOME). */
int tl_levels_store_path(char *path, size_t len, char *why, size_t whylen);

/* Fills lv from a fresh record: 0; -1 with why (none, stale, unreadable,
 * malformed), lv then cleared. topo names the levels as a chase would. */
int tl_levels_store_load(const struct tl_topology *topo, struct tl_levels *lv, char *why,
			 size_t whylen);

/* Writes lv as this node's record (atomically: a reader sees the old one
 * or the new one), chased on cpu; sets lv->kept. -1 with why. */
int tl_levels_store_save(int cpu, struct tl_levels *lv, char *why, size_t whylen);

#endif
