/* A cell's "noise" block (what interrupted its samples) out and back in.
 *
 * "noise": {"sources": {NAME: {"ok", "how"}...}, "bookkeeping_ns",
 *           "long_rule": text, "causes": {CAUSE: count}, "inferred": [CAUSE...],
 *           "flagged": [[sample index, CAUSE]...],
 *           "windows": {"count", "irq": {NAME: n}, "softirq": {KIND: n}, "steal_ms"},
 *           and once analysed: "filter", "removed_with_cause",
 *           "removed_without_cause", "kept_with_cause", "why"}
 * Only "sources", "bookkeeping_ns", "flagged" and "windows" are read back:
 * the rest is derived from them and the samples. */
#ifndef TL_IO_NOISE_JSON_H
#define TL_IO_NOISE_JSON_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/analysis.h"
#include "bench/runner.h"

/* NULL when the run did not track noise. cseed: the cell's filter seed
 * (tl_run_cell_seeds'). */
json_t *tl_noise_to_json(const struct tl_run *run, size_t cell, const struct tl_analysis *an,
			 enum tl_os_method m, uint64_t cseed);

/* Reads o (a cell's "noise", may be NULL: nothing tracked) into the cell
 * and run->noise. -1 with why (naming the key) on a malformed block. */
int tl_noise_from_json(const json_t *o, struct tl_run *run, struct tl_cell *c, char *why,
		       size_t whylen);

/* The table's "why": "preempt:62%" (top cause of the removed samples),
 * "-" when none was removed or nothing was tracked. */
void tl_noise_why(const struct tl_noise_agree *ag, char *out, size_t len);

#endif
