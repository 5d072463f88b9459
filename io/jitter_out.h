/* A jitter cell's verdict (judge/jitter.h) out: in the words both faces
 * print, as a line under the run table, and as the run JSON's "jitter". */
#ifndef TL_IO_JITTER_OUT_H
#define TL_IO_JITTER_OUT_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/jitter.h"

/* The interval's method in words, e.g. "Hodges-Lehmann, 95 %: Lehmann's
 * interval widened to the spread of 20 time blocks". */
void tl_jitter_ci_method(const struct tl_jitter *j, char *buf, size_t len);

/* {"d", "ns_per_add", "ns_per_add_half", "true_shift_ns", "truth" ("chain",
 *  "calibration", "plain median" or null), "ns_per_add_chain",
 *  "ns_per_add_chain_half", "ns_per_add_harness", "ns_per_add_harness_half",
 *  "ns_per_add_calibrated", "truth_note" (or null), "n_plain", "n_injected",
 *  "baseline" ("aa": the shift is the injected samples' over the A/A arm's;
 *  "plain": over the plain ones, a file from before the arms), "n_baseline",
 *  "shift_ns" (HL), "ci_method", "ci_blocks", "covers_truth" (or null),
 *  "truth_miss" (or null), "plain_overlap_ns", "plain_overlap_lo_ns",
 *  "plain_overlap_hi_ns",
 *  "median_diff_ns", "ci_lo_ns", "ci_hi_ns", "mwu_p", "ks_p", "alpha", "detected",
 *  "null_split", "verdict", "unreliable" (the reason, or null), "controls"
 *  {"aa", "swapped": {"p", "d", "n_plain", "n_injected", "n_baseline", "shift_ns", "ci_lo_ns",
 *  "ci_hi_ns", "mwu_p"}} (null in a file saved before the arms), "note"}. */
json_t *tl_jitter_to_json(const struct tl_jitter *j, uint64_t d, double p);

/* The answer in words a class can follow, the one sentence both faces
 * print: "sees +200 ADDs = 66.8 ns: 65.6 ns [65.5, 65.7]", "cannot: [-0.1,
 * +0.1] ns (+1 ADDs = 0.3 ns)", "sees +200 ADDs: measured 65.6 of 66.8 ns
 * injected [65.5, 65.7]" or "unreliable here: " and the reason; the
 * longest of its forms that fits width columns (0: no limit), the last
 * form when none does. */
void tl_jitter_sentence(const struct tl_cell *c, const struct tl_jitter *j, int width, char *buf,
			size_t len);

/* One control arm in words, e.g. "A/A (D = 0): +0.02 ns [-0.05, +0.09], p =
 * 0.84" or "P-swapped (P = 0.5): 65.5 ns [65.4, 65.6], p = 0", in the
 * longest form that fits width (0: no limit). arm: TL_JITTER_AA or
 * TL_JITTER_SWAPPED. */
void tl_jitter_control_text(const struct tl_cell *c, const struct tl_jitter *j,
			    enum tl_jitter_arm arm, int width, char *buf, size_t len);

/* One line under the run table, e.g.
 * "jitter sim flush 0 jitter:100,50,0.25: +50 ADDs = 15.0 ns; shift 14.9 ns
 *  [14.6, 15.2] (HL, 95 %); MWU p = 1e-40: detected at alpha = 0.05". */
void tl_jitter_print(FILE *f, const struct tl_run *run, size_t cell, const struct tl_jitter *j);

#endif
