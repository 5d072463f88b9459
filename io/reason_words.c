#include "config.h"

#include <stddef.h>
#include <string.h>

#include "io/reason_words.h"

struct plain {
	const char *prefix, *also; /* the reason starts with prefix and holds also (or NULL) */
	const char *words;
};

/* In the order tried: the specific repeat notes before the general one. */
static const struct plain table[] = {
	{"t_min UNSTABLE", NULL,
	 "The repeats disagree on t_min, the shortest kernel this timer measures steadily, so it is marked !."},
	{"t_diff UNSTABLE", NULL,
	 "The repeats disagree on t_diff, the smallest extra work this timer tells apart, so it is marked !."},
	{"t_min has no 95 % interval", NULL,
	 "No range can be given for t_min: the spread did not fall below eps in every repeat."},
	{"t_min on a steady clock", NULL,
	 "The node's clock moved while it was measured; on a steady clock t_min would be this."},
	{"t_min at eps =", NULL,
	 "At a looser eps both timers reach a t_min, so they can still be compared."},
	{"t_diff (repeat", "A0 from", "Where this repeat's t_diff search started."},
	{"t_diff (repeat", "A0 = median",
	 "Where the cell's t_diff repeats started: one A0 for all, the middle of their t_min."},
	{"t_diff (repeat", "level held still",
	 "The clock held still, so this repeat measured as the paper does."},
	{"t_diff (repeat", "above the model",
	 "Measuring found a larger t_diff than the quick model predicted."},
	{"t_diff (repeat", "blocks measured again",
	 "A burst on the host slowed some readings; those blocks were measured again."},
	{"t_min (repeat", NULL, "A note from one repeat's t_min search."},
	{"t_diff (repeat", NULL, "A note from one repeat's t_diff search."},
};

/* A repeat's note joins its parts with "; ": the words follow the part
 * that comes first, so the sentence says what the note leads with. */
const char *tl_search_reason_plain(const char *reason)
{
	const char *words = NULL, *first = NULL;

	if (!reason)
		return NULL;
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		const char *at;

		if (strncmp(reason, table[i].prefix, strlen(table[i].prefix)) != 0)
			continue;
		if (!table[i].also)
			return words ? words : table[i].words;
		at = strstr(reason, table[i].also);
		if (at && (!first || at < first)) {
			first = at;
			words = table[i].words;
		}
	}
	return words;
}
