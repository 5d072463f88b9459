/* The atomic writer (tl_out_*) and JSON documents written through it. */
#ifndef TL_IO_ATOMIC_H
#define TL_IO_ATOMIC_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* Writes through emit() to a temporary file in path's directory, fsyncs and
 * renames it over path, so readers never see a partial file and a failure
 * leaves nothing behind. The temporary is anonymous (O_TMPFILE, linked at
 * the end) where the file system allows, so a kill -9 leaves nothing either;
 * elsewhere it is .NAME.XXXXXX. A symlink is followed (its target is
 * replaced) and an existing file keeps its mode. A target that is not a
 * regular file is refused, never opened: a FIFO would block the writer until
 * a reader came, and a device (/dev/null, /dev/stdout) is not a file; a
 * directory is refused too. path "-" writes to stdout. Returns 0, or -1
 * with why naming the path and the system's reason. */
int tl_write_atomic(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		    size_t whylen);

/* tl_write_atomic in two steps, so an output is opened (its temporary
 * created, a device opened) before the work that fills it: open says at
 * once when path cannot be written. commit writes, fsyncs and renames;
 * abort drops it. Both free the handle. */
struct tl_out;
struct tl_out *tl_out_open(const char *path, char *why, size_t whylen);
int tl_out_commit(struct tl_out *o, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		  size_t whylen);
void tl_out_abort(struct tl_out *o);
/* Whether o writes where it is (stdout): such a target is written once,
 * never twice. */
bool tl_out_in_place(const struct tl_out *o);

/* The file path leads to, its chain of symlinks followed (relative targets
 * from the link's directory); it may not exist yet, as a dangling link names
 * the file to create. NULL with errno (ELOOP, ENOMEM). Free it. */
char *tl_out_target(const char *path);
/* The message for an output path that is kind (tl_file_kind: "a FIFO
 * (named pipe)"), the same from the option check and from tl_out_open;
 * valid until the next call in this thread. */
const char *tl_out_special_why(const char *path, const char *kind);

/* A JSON document to path ("-": stdout), indented, doubles round-trip exact. */
int tl_json_write(const char *path, const json_t *doc, char *why, size_t whylen);
/* The same into an output opened by tl_out_open (which it frees). */
int tl_json_commit(struct tl_out *o, const json_t *doc, char *why, size_t whylen);

#endif
