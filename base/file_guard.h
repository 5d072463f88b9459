/* The one way a file named by the user or the environment is opened for
 * reading: only a regular file, and never by an open that can wait. A FIFO
 * with no writer would block open(2) forever and a device (/dev/zero) never
 * ends, so the path is opened with O_NONBLOCK and fstat'ed before a byte is
 * read. io/json_read.c (saved files), bench/levels.c (TL_LEVELS_FROM) and
 * bench/topology.c (HWLOC_XMLFILE) all go through here. */
#ifndef TL_BASE_FILE_GUARD_H
#define TL_BASE_FILE_GUARD_H

#include <stdint.h>
#include <sys/types.h>

/* What a file of mode m is, for a message: "a FIFO (named pipe)" etc. */
const char *tl_file_kind(mode_t m);

/* A read-only descriptor (blocking again, close-on-exec) on path when it is
 * a regular file of at most max_bytes (0: no limit); *size gets its size.
 * Else -1 and one of: *kind set to what the path is (tl_file_kind) when it
 * is not a regular file; *size set (over max_bytes) with errno EFBIG; or
 * errno from the system, *kind NULL. */
int tl_file_open_regular(const char *path, uint64_t max_bytes, uint64_t *size, const char **kind);

#endif
