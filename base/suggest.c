#include "config.h"

#include "base/suggest.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Longer names than this are not names a user types: never suggested. */
#define NAME_MAX_LEN 64

static char fold(char c)
{
	return c == '_' ? '-' : (char)tolower((unsigned char)c);
}

/* Optimal string alignment distance between a and b (lengths na, nb) under
 * fold: Levenshtein's edits plus a swap of neighbours, the commonest typo. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t d[NAME_MAX_LEN + 1][NAME_MAX_LEN + 1];

	for (size_t i = 0; i <= na; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= nb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= na; i++)
		for (size_t j = 1; j <= nb; j++) {
			size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
			size_t best = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
			    fold(a[i - 2]) == fold(b[j - 1]) && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[na][nb];
}

bool tl_suggest(const char *typed, const char *list, char *out, size_t outlen)
{
	size_t nt = typed ? strlen(typed) : 0, best = (size_t)-1;
	const char *p = list, *pick = NULL;
	size_t pick_len = 0;

	if (outlen)
		out[0] = '\0';
	if (!list || nt == 0 || nt > NAME_MAX_LEN)
		return false;
	while (*p) {
		size_t n;

		p += strspn(p, ", ");
		n = strcspn(p, ",");
		while (n && p[n - 1] == ' ')
			n--;
		if (n && n <= NAME_MAX_LEN) {
			size_t longer = n > nt ? n : nt;
			size_t d = distance(typed, nt, p, n);
			size_t limit = longer / 3 ? longer / 3 : 1;

			if (d <= limit && d < best) {
				best = d;
				pick = p;
				pick_len = n;
			}
		}
		p += strcspn(p, ",");
	}
	if (!pick || (pick_len == nt && strncmp(pick, typed, nt) == 0) || pick_len >= outlen)
		return false;
	memcpy(out, pick, pick_len);
	out[pick_len] = '\0';
	return true;
}

void tl_suggest_append_fix(char *why, size_t whylen, const char *fix)
{
	size_t used = strlen(why);

	if (fix && *fix && used + 1 < whylen)
		snprintf(why + used, whylen - used, "; did you mean '%s'?", fix);
}

static void append_fix(char *why, size_t whylen, const char *name, const char *rest)
{
	size_t used = strlen(why);

	if (used + 1 < whylen)
		snprintf(why + used, whylen - used, "; did you mean '%s%s'?", name, rest);
}

void tl_suggest_append(char *why, size_t whylen, const char *typed, const char *list)
{
	char name[NAME_MAX_LEN + 1];

	if (tl_suggest(typed, list, name, sizeof name))
		append_fix(why, whylen, name, "");
}

void tl_suggest_append_head(char *why, size_t whylen, const char *typed, char sep,
			    const char *list)
{
	char head[NAME_MAX_LEN + 1], name[NAME_MAX_LEN + 1];
	size_t n = strcspn(typed, (char[]){ sep, '\0' });

	if (n > NAME_MAX_LEN)
		return;
	memcpy(head, typed, n);
	head[n] = '\0';
	if (tl_suggest(head, list, name, sizeof name))
		append_fix(why, whylen, name, typed + n);
}
