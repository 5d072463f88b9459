/* A search's reasons (io/search_table.c) say what happened in the
 * statistics' own words. For a room, each kind gets a plain sentence to
 * read first; the reason itself follows as the detail. Pure. */
#ifndef TL_IO_REASON_WORDS_H
#define TL_IO_REASON_WORDS_H

/* The plain sentence for a reason tl_search_cell_notes gives, or NULL when
 * the reason is plain already (or of a kind not known here). */
const char *tl_search_reason_plain(const char *reason);

#endif
