/* The one way ticklab reads a JSON file (run, search, fingerprint, fleet,
 * setup): every reader goes through here, so each gets the same three
 * guards.
 *  - Only a regular file is read. A FIFO would block the reader forever
 *    and a device or socket is not a saved file: the path is opened with
 *    O_NONBLOCK and fstat'ed before a byte is read.
 *  - A size limit: TL_READ_LIMIT_DEFAULT, or the environment variable
 *    TICKLAB_READ_LIMIT (bytes, or with a K/M/G suffix). Standard input is
 *    counted as it is read.
 *  - Allocation failure ends the parse. jansson's lexer ignores a failed
 *    growth of its string buffer and retries it on every following byte
 *    (a 200 MB string under `ulimit -v` becomes minutes of failing 128 MiB
 *    mallocs); while a file is read here the first failure makes every
 *    later allocation fail at once and the input stop, and the reader says
 *    "out of memory reading FILE". */
#ifndef TL_IO_JSON_READ_H
#define TL_IO_JSON_READ_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The largest file the lab writes at its limits: a run holds 24 B per
 * sample in memory (bench/memory.c) and writes at most ~80 B per sample
 * (a raw value, its ns value, the ADD count), so a run that fitted in the
 * memory of a large node (1 TiB) writes ~3.5 TiB; the default is 4 TiB.
 * It is a stated bound, not a sizing: allocation failure is what stops a
 * large file on a small machine, and TICKLAB_READ_LIMIT lowers it. */
#define TL_READ_LIMIT_DEFAULT (4ULL << 40)
#define TL_READ_LIMIT_ENV "TICKLAB_READ_LIMIT"

/* The limit in force; an unreadable TICKLAB_READ_LIMIT gives -1 and why. */
int tl_read_limit(uint64_t *bytes, char *why, size_t whylen);

/* Opens path for reading if it is a regular file within the limit (path
 * "-": standard input, whatever it is). NULL with why = "PATH: is a FIFO
 * (named pipe), not a file (accepted: ...)" or the like. */
FILE *tl_read_open(const char *path, char *why, size_t whylen);

/* A JSON file (path "-": standard input), duplicate keys refused; NULL
 * with why = "FILE:line:col: not valid JSON: ...", "out of memory reading
 * FILE" or one of tl_read_open's. */
json_t *tl_json_load(const char *path, char *why, size_t whylen);

/* For a reader that feeds jansson itself (io/run_bulk.c): between begin
 * and end this thread's jansson allocations fail fast after the first
 * failure; tl_read_oom says whether one failed, tl_read_note_oom records
 * the reader's own failure. */
void tl_read_begin(void);
bool tl_read_oom(void);
void tl_read_note_oom(void);
void tl_read_end(void);

/* An arena for documents read and dropped by one thread (a fleet's files,
 * 160 000 of them): between begin and end, jansson's allocations in this
 * thread come from a few large chunks and its frees of them are free of
 * cost; end frees the chunks. Every document made in between must be
 * released (json_decref) before end, or kept through tl_read_arena_keep,
 * a copy made outside the arena. Begin and end nest. */
void tl_read_arena_begin(void);
void tl_read_arena_end(void);
json_t *tl_read_arena_keep(const json_t *doc);

/* The longest string a file may hold: ticklab writes none longer than a
 * few hundred bytes (a CPU model, an id, a note). A longer one is refused
 * as soon as it passes this length, before jansson has buffered it. */
#define TL_READ_STRING_MAX (64 * 1024)

/* Watches the bytes handed to jansson for a string over
 * TL_READ_STRING_MAX; false once one is seen (then offset is its start). */
struct tl_read_guard {
	unsigned char st; /* 0 outside a string, 1 inside, 2 after a backslash */
	uint64_t pos, start, len;
	bool over;
};
bool tl_read_guard_feed(struct tl_read_guard *g, const void *buf, size_t n);
/* why = "FILE: the string at byte N is longer than ..." */
void tl_read_guard_say(const struct tl_read_guard *g, const char *name, char *why, size_t whylen);

/* What a file of mode m is, for a message: "a FIFO (named pipe)" etc. */
#include <sys/types.h>
const char *tl_read_kind(mode_t m);

/* The name a message uses for path. */
const char *tl_read_name(const char *path);

#endif
