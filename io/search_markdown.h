/* A search's summarised cells as a Markdown table a report or a slide takes. */
#ifndef TL_IO_SEARCH_MARKDOWN_H
#define TL_IO_SEARCH_MARKDOWN_H

#include <stddef.h>
#include <stdio.h>

#include "bench/search_cell.h"

/* 0, or -1 on a write error. */
int tl_search_markdown(FILE *f, const struct tl_search_plan *p, const struct tl_search_cell *cells);
/* The same to path ("-": stdout) through the atomic writer; -1 with why. */
int tl_search_markdown_write(const char *path, const struct tl_search_plan *p,
			     const struct tl_search_cell *cells, char *why, size_t whylen);
/* The same into an output opened before the search (io/atomic.h), which
 * it frees: an unwritable path is said before anything is measured. */
struct tl_out;
int tl_search_markdown_commit(struct tl_out *o, const struct tl_search_plan *p,
			      const struct tl_search_cell *cells, char *why, size_t whylen);

#endif
