#include "config.h"

#include "base/list.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "key=value" where key is an identifier: the start of another parameter
 * of the same backend, not a new list item. */
static int looks_like_param(const char *s)
{
	const char *p = s;

	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return 0;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return *p == '=';
}

static int push_item(char ***items, size_t *n, const char *start, size_t len)
{
	char **grown = realloc(*items, (*n + 1) * sizeof **items);

	if (!grown)
		return -1;
	*items = grown;
	grown[*n] = strndup(start, len);
	if (!grown[*n])
		return -1;
	(*n)++;
	return 0;
}

int tl_list_split(const char *text, const char *what, char ***items, size_t *n, char *why,
		    size_t whylen)
{
	const char *start = text;
	const char *p;

	*items = NULL;
	*n = 0;
	for (p = text;; p++) {
		if (*p == ',' && memchr(start, ':', (size_t)(p - start)) && looks_like_param(p + 1))
			continue;
		if (*p != ',' && *p != '\0')
			continue;
		if (p == start) {
			snprintf(why, whylen, "empty item in %s list '%s' (accepted: comma-separated values)",
				 what, text);
			goto fail;
		}
		if (push_item(items, n, start, (size_t)(p - start)) < 0) {
			snprintf(why, whylen, "out of memory splitting %s list", what);
			goto fail;
		}
		if (*p == '\0')
			return 0;
		start = p + 1;
	}
fail:
	tl_list_free(*items, *n);
	*items = NULL;
	*n = 0;
	return -1;
}

void tl_list_free(char **items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
}
