/* %.17g for the one kind of value that fills a run file (a time in ns
 * with a fraction), without snprintf's multi-precision path. */
#ifndef TL_IO_REAL17_H
#define TL_IO_REAL17_H

/* buf (at least 40 bytes) gets the bytes snprintf("%.17g", v) gives, with
 * ".0" where that has no '.', for 1 <= |v| < 1e15 with a fraction; returns
 * their length, or 0 (buf untouched) for any other v, which the caller
 * formats with snprintf. */
int tl_real17_fraction(char *buf, double v);

#endif
