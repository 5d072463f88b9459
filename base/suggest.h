#ifndef TL_BASE_SUGGEST_H
#define TL_BASE_SUGGEST_H

/* "Did you mean": the accepted name nearest to one a user mistyped, so a
 * refusal can offer the fix and not only the list (git's and cargo's
 * "did you mean"). One rule for every enumerated input (backends, kernels,
 * themes, plot kinds, commands, options):
 *   - names equal but for case and '_' against '-' are nearest
 *     (Barrier-TSC, clock_gettime);
 *   - else the fewest single-character edits (insert, delete, replace,
 *     swap of neighbours: barrier-tcs), when they are at most a third of
 *     the longer name (at least 1), so "ladr" finds ladder and "xyz" finds
 *     nothing;
 *   - a tie goes to the name listed first. */

#include <stdbool.h>
#include <stddef.h>

/* The name of list nearest typed, copied into out. list is written as the
 * accepted lists of messages are: names separated by commas and spaces
 * ("hist, cdf, ladder"). False (out empty) when no name is near enough, or
 * the nearest is typed itself. */
bool tl_suggest(const char *typed, const char *list, char *out, size_t outlen);

/* Appends "; did you mean 'X'?" to the message in why when tl_suggest
 * finds X; leaves why as it is otherwise. */
void tl_suggest_append(char *why, size_t whylen, const char *typed, const char *list);

/* Appends "; did you mean 'fix'?" for a fix the caller composed. */
void tl_suggest_append_fix(char *why, size_t whylen, const char *fix);

/* The same for an input whose name ends at the first sep and whose
 * arguments follow: the name is matched, the arguments kept in the fix
 * ("ad:100" -> "add:100", "sm:sd=5" -> "sim:sd=5"). */
void tl_suggest_append_head(char *why, size_t whylen, const char *typed, char sep,
			    const char *list);

#endif
