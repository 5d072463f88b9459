/* A run file's sample arrays read straight into arrays, not a JSON tree
 * (io/run_bulk.c says why and how exactness is kept). */
#ifndef TL_IO_RUN_BULK_H
#define TL_IO_RUN_BULK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One extracted array: doubles ("samples", "samples_ns") or whole numbers
 * ("adds"). bad is the first value the reader must refuse (SIZE_MAX: none):
 * a double beyond TL_RESULTS_MAX_ABS (bad_value), or a count that is not a
 * whole number >= 0 (bad_type names what it was, as the tree reader does). */
struct tl_bulk_array {
	bool counts;
	double *d;
	uint64_t *u;
	size_t n, cap;
	size_t bad;
	double bad_value;
	const char *bad_type;
};

struct tl_bulk;

/* tl_json_load, with the sample arrays of a regular file taken out into
 * *bulk (NULL when none were: standard input, a file read by plain jansson).
 * The document then holds stand-in strings that tl_bulk_find resolves. */
json_t *tl_json_load_bulk(const char *path, struct tl_bulk **bulk, char *why, size_t whylen);
/* The array a stand-in value stands for; NULL when v is not one of b's
 * (any other value, or b NULL) or its array was taken already. */
struct tl_bulk_array *tl_bulk_find(struct tl_bulk *b, const json_t *v);
/* Hands the array's memory to the caller (free()), trimmed to its length. */
void *tl_bulk_take(struct tl_bulk_array *a);
void tl_bulk_free(struct tl_bulk *b);

#endif
