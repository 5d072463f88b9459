/* Comma-separated lists as every input takes them: "a,b,c", where a
 * backend's parameters ("sim:sd=5,quantum=10") stay with their item. */
#ifndef TL_BASE_LIST_H
#define TL_BASE_LIST_H

#include <stddef.h>

/* Splits text into *items (each malloc'd, *n of them); -1 with why naming
 * `what` (the option) on an empty item or no memory. */
int tl_list_split(const char *text, const char *what, char ***items, size_t *n, char *why,
		  size_t whylen);
void tl_list_free(char **items, size_t n);

#endif
