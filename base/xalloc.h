#ifndef TL_BASE_XALLOC_H
#define TL_BASE_XALLOC_H

/* The one policy for allocation failure (htop's XUtils): a small allocation
 * that fails is not a condition any caller can recover from, so tl_x* never
 * return NULL. They call tl_fail, which first runs the hooks the layers above
 * registered (the TUI restores the terminal; run says where its raw samples
 * were kept), then says what failed and exits with status 1.
 *
 * Large buffers whose size the user chose (samples, flush buffers) are not
 * allocated here: their callers check them and refuse with a message. */

#include <stddef.h>

#if defined(__GNUC__)
#define TL_NORETURN __attribute__((noreturn))
#define TL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TL_NORETURN
#define TL_PRINTF(f, a)
#endif

void *tl_xmalloc(size_t size);
void *tl_xcalloc(size_t n, size_t size);
void *tl_xrealloc(void *p, size_t n, size_t size);
char *tl_xstrdup(const char *s);

/* Runs the failure hooks (most recently added first), prints "ticklab: " and
 * the message on stderr, and exits with status 1. Safe to call once from any
 * thread; a second caller waits for the first to finish exiting. */
TL_NORETURN void tl_fail(const char *fmt, ...) TL_PRINTF(1, 2);

/* A hook runs inside tl_fail before the message; it must not allocate.
 * Returns -1 when the table (8 hooks) is full. */
typedef void (*tl_fail_hook)(void *arg);
int tl_fail_hook_add(tl_fail_hook fn, void *arg);
void tl_fail_hook_remove(tl_fail_hook fn, void *arg);
/* In a forked child: the parent's hooks (its terminal, its files) are not
 * the child's to act on. */
void tl_fail_hooks_clear(void);

#endif
