/* The node description (bench/host.h) as JSON: the "host" object of every
 * file ticklab writes (`info --json`, `run --json`, `search --json`). */
#ifndef TL_IO_HOST_JSON_H
#define TL_IO_HOST_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "bench/host.h"
#include "io/plot.h"

/* A new object (NULL only when out of memory). Unknown facts are null. */
json_t *tl_host_to_json(const struct tl_host *h);

/* The cache sizes a saved host object records (l1d/l2/l3_bytes), for a
 * ladder's levels when the run is read back: true when it names any. */
bool tl_host_json_topology(const json_t *host, struct tl_topology *topo);

/* The levels a saved host object's memory_levels records, back as
 * bench/levels.h holds them (names, sizes, verdicts, where memory begins;
 * not the chase's points): what tl_levels_sizing needs to size or label
 * as the run did. false (lv->measured false) when the file has none. */
bool tl_host_json_levels(const json_t *host, struct tl_levels *lv);

/* The marks of a ladder figure from a saved host object: each level
 * memory_levels says a chase saw (its step) and each reported cache size
 * (l1d/l2/l3_bytes). Returns how many went into marks (at most max). */
size_t tl_host_json_marks(const json_t *host, struct tl_plot_mark *marks, size_t max);

#endif
