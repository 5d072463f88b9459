/* A detect file: `ticklab detect --json` writes it and `ticklab report`
 * reads it back, both through its one description of keys
 * (io/keys.h), and both print its rows with one printer.
 *
 *   {"ticklab": {"version", "command": "detect"}, k, n, alpha, seed, max_d,
 *    "results": [ {backend, flush_bytes, flush, found, d_adds, d_ns,
 *                  ns_per_add, mwu_p, shift_ns, below_adds, evaluations,
 *                  note, "controls": {draws, aa_alarms, unreliable_draws,
 *                  last_unreliable, aa_mwu_p, ci_lo_ns, ci_hi_ns,
 *                  swapped_shift_ns, swapped_ci_lo_ns, swapped_ci_hi_ns}} ] }
 * Files from before "flush" and "max_d" were kept read as well (the flush
 * then named by its bytes). */
#ifndef TL_IO_DETECT_JSON_H
#define TL_IO_DETECT_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "bench/detect.h"

struct tl_detect_row {
	char backend[160], flush[48];
	uint64_t flush_bytes;
	struct tl_detect_result r;
};

struct tl_detect_file {
	struct tl_detect_params p;
	struct tl_detect_row *rows;
	size_t n;
};

/* One row of the file (never NULL). */
json_t *tl_detect_row_json(const char *backend, uint64_t flush_bytes, const char *flush,
			   const struct tl_detect_result *r);
/* The file around rows (stolen). */
json_t *tl_detect_to_json(const struct tl_detect_params *p, json_t *rows);

/* A file read back, written again. */
json_t *tl_detect_file_to_json(const struct tl_detect_file *f);

bool tl_detect_json_is(const json_t *doc);

/* Reads doc into f (tl_detect_file_free); -1 with why = "NAME: key: what". */
int tl_detect_from_json(const json_t *doc, const char *name, struct tl_detect_file *f, char *why,
			size_t whylen);
void tl_detect_file_free(struct tl_detect_file *f);

/* The table detect prints: its head, and a row with its controls. */
void tl_detect_head_print(FILE *out, const struct tl_detect_params *p);
void tl_detect_row_print(FILE *out, const char *backend, const char *flush,
			 const struct tl_detect_result *r);

#endif
