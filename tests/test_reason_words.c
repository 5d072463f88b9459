/* The plain sentence put before a search reason follows the part of a
 * repeat's note that comes first, and falls back to the generic one. */
#include "config.h"

#include <string.h>

#include "io/reason_words.h"
#include "tests/tap.h"

static int says(const char *reason, const char *start)
{
	const char *w = tl_search_reason_plain(reason);

	return w && strncmp(w, start, strlen(start)) == 0;
}

int main(void)
{
	ok(says("t_diff (repeat 1): 4 of 626 blocks measured again: a host burst put readings over "
		"6 sds above their block's level; A0 from the steady-clock t_min, 172 ADDs",
		"A burst on the host"),
	   "a burst note that names its A0 after: the burst's words");
	ok(says("t_diff (repeat 1): A0 from the steady-clock t_min, 69411 ADDs; 2 of 35 blocks "
		"measured again",
		"Where this repeat"),
	   "an A0 note that names a burst after: the A0's words");
	ok(says("t_diff (repeat 2): A0 = median of 3 repeats' t_min, 19049 ADDs; 2 of 35 blocks "
		"measured again",
		"Where the cell's t_diff repeats started"),
	   "a cell's one A0 first: its words");
	ok(says("t_diff (repeat 2): 2 of 35 blocks measured again: a host burst; A0 = median of 3 "
		"repeats' t_min, 19049 ADDs",
		"A burst on the host"),
	   "a burst note that names the cell's A0 after: the burst's words");
	ok(says("t_diff (repeat 2): confirmed 3 step(s) above the model's 730 ADDs: the slowest; 2 "
		"of 35 blocks measured again",
		"Measuring found a larger"),
	   "a confirmation note first: its words");
	ok(says("t_diff (repeat 3): the level held still over t_min's sets at A0: measured in the "
		"paper's order",
		"The clock held still"),
	   "the paper's order: its words");
	ok(says("t_diff (repeat 3): sets of 2210, not 3120, to fit the time limit",
		"A note from one repeat's t_diff"),
	   "an unknown t_diff note: the generic sentence");
	ok(says("t_min (repeat 1): out of time", "A note from one repeat's t_min"),
	   "a t_min note: the generic t_min sentence");
	ok(says("t_diff UNSTABLE: repeats span 6..9 ADDs", "The repeats disagree on t_diff"),
	   "the cell's UNSTABLE reason");
	ok(tl_search_reason_plain("barrier-tsc: something else") == NULL, "no words for an unknown reason");
	ok(tl_search_reason_plain(NULL) == NULL, "none for none");
	return tap_done();
}
