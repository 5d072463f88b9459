/* One description of a file's keys, object by object: each key's name and
 * the kind of value it holds. The writer builds the file through it (the
 * JSON form of a number follows the key's kind: a whole count is written
 * as an integer, anything else as a real) and the loader checks and reads
 * the file through the same tables, so a key's rule cannot differ between
 * the side that writes it and the side that reads it. A key's rule is the
 * one of the object it sits in: "adds" is a whole count where it counts
 * the ADDs a search ran, and a real where it is read off a curve. */
#ifndef TL_IO_KEYS_H
#define TL_IO_KEYS_H

#include <stdint.h>

#include <jansson.h>
#include <stddef.h>

enum tl_key_type {
	TL_KEY_TIME,   /* ns or seconds: finite, >= 0, at most TL_RESULTS_MAX_ABS */
	TL_KEY_COUNT,  /* a whole number >= 0 */
	TL_KEY_REAL,   /* >= 0, not necessarily whole: ratios, CVs, interpolated ADDs */
	TL_KEY_SIGNED, /* finite, either sign: a drift, a fit's r^2 */
	TL_KEY_TEXT,   /* a string safe to print (no control characters) */
	TL_KEY_BOOL,
	TL_KEY_OBJECT, /* sub's keys */
	TL_KEY_LIST,   /* a list of sub objects, each may be null */
	TL_KEY_POINTS, /* [[x, y], ...]: x a COUNT of ADDs, y REAL or null */
	TL_KEY_OWN,    /* checked by its own reader (the marker, the host) */
};

struct tl_keys;

struct tl_key {
	const char *name;
	enum tl_key_type type;
	const struct tl_keys *sub; /* OBJECT and LIST */
};

struct tl_keys {
	const char *what;          /* for a message: "a search's params" */
	const struct tl_key *key;
	size_t n;
	/* keys an older layout kept in this object (looked up after key[]) */
	const struct tl_keys *also;
	/* a rule between the object's values (found <= ran), after each
	 * value passed its own: NULL, or -1 with the key it names and msg */
	int (*rule)(const json_t *o, const char **key, char *msg, size_t msglen);
};

/* The description of key in k (or k->also); NULL if it has none. */
const struct tl_key *tl_keys_find(const struct tl_keys *k, const char *key);

/* The value of key in o, for a loader, which says how it reads it: kinds
 * is a set of TL_KEYS_AS(TL_KEY_...) bits (TL_KEYS_NUMBER: as a number of
 * any kind). key must be described in k with one of those kinds: a loader
 * that reads a key the description lacks, or reads a whole count where
 * the writer writes a real, is a bug (tl_fail), met by the first test that
 * reads such a file. */
#define TL_KEYS_AS(t) (1u << (t))
#define TL_KEYS_NUMBER                                                                      \
	(TL_KEYS_AS(TL_KEY_TIME) | TL_KEYS_AS(TL_KEY_COUNT) | TL_KEYS_AS(TL_KEY_REAL) |       \
	 TL_KEYS_AS(TL_KEY_SIGNED))
const json_t *tl_keys_get(const json_t *o, const struct tl_keys *k, const char *key,
			  unsigned kinds);

/* A loader's three readings through tl_keys_get: a number (NaN for null
 * or absent), a whole count (dflt for null, absent or negative), a text
 * ("" for null or absent). */
double tl_keys_read_num(const json_t *o, const struct tl_keys *k, const char *key);
uint64_t tl_keys_read_whole(const json_t *o, const struct tl_keys *k, const char *key,
			    uint64_t dflt);
const char *tl_keys_read_text(const json_t *o, const struct tl_keys *k, const char *key);

/* For a writer: sets key in o, which must be described in k (else tl_fail).
 * tl_keys_num writes v as the key's kind says: a COUNT rounded to an
 * integer, anything else a real; NaN or infinity as null. tl_keys_set
 * steals value, whose JSON type must fit the key's kind (else tl_fail). */
void tl_keys_num(json_t *o, const struct tl_keys *k, const char *key, double v);
void tl_keys_set(json_t *o, const struct tl_keys *k, const char *key, json_t *value);

/* Checks every key of o that k describes, recursively (keys it does not
 * describe are left alone: a newer file may add some; null is "none" for
 * every kind). -1 with why = "NAME: PATH.key: what is wrong". */
int tl_keys_check(const json_t *o, const struct tl_keys *k, const char *path, const char *name,
		  char *why, size_t whylen);

#endif
