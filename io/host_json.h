/* The node description (bench/host.h) as JSON: the "host" object of every
 * file ticklab writes (`info --json`, `run --json`, `search --json`). */
#ifndef TL_IO_HOST_JSON_H
#define TL_IO_HOST_JSON_H

#include <jansson.h>

#include "bench/host.h"

/* A new object (NULL only when out of memory). Unknown facts are null. */
json_t *tl_host_to_json(const struct tl_host *h);

#endif
