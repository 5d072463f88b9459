/* "Did you mean": the nearest accepted name by case, '_' and a few edits,
 * nothing when no name is near; expectations are counted by hand. */
#include "config.h"

#include <string.h>

#include "base/suggest.h"
#include "tests/tap.h"

static const char backends[] = "barrier-tsc, barrier-rdtsc, clock-gettime, clock-gettime-raw, "
			       "rdtsc, sim";

static void expect(const char *typed, const char *list, const char *want)
{
	char got[80];
	bool found = tl_suggest(typed, list, got, sizeof got);

	if (want)
		ok(found && strcmp(got, want) == 0, "'%s' -> '%s' (got %s'%s')", typed, want,
		   found ? "" : "nothing, ", got);
	else
		ok(!found && got[0] == '\0', "'%s' -> nothing (got '%s')", typed, got);
}

int main(void)
{
	char why[128];

	/* one swap of neighbours is one edit */
	expect("barrier-tcs", backends, "barrier-tsc");
	/* '_' for '-' and case are no edit at all */
	expect("clock_gettime", backends, "clock-gettime");
	expect("Barrier-TSC", backends, "barrier-tsc");
	expect("CLOCK_GETTIME_RAW", backends, "clock-gettime-raw");
	/* rdtscp: one insertion from rdtsc, more from barrier-rdtsc */
	expect("rdtscp", backends, "rdtsc");
	/* "ladr": two deletions from "ladder", a third of 6 */
	expect("ladr", "hist, cdf, ladder, noise", "ladder");
	expect("ligth", "default, light, high-contrast, mono", "light");
	expect("high_contrast", "default, light, high-contrast, mono", "high-contrast");
	expect("ad", "empty, add, mul, fma, jitter, load", "add");
	/* a tie (one edit from both) goes to the name listed first */
	expect("xdd", "add, odd", "add");
	expect("xdd", "odd, add", "odd");
	/* nothing near: 3 edits against a limit of 1 */
	expect("xyz", "hist, cdf, ladder, noise", NULL);
	expect("perf", backends, NULL);
	/* the name itself, empty input, no list */
	expect("rdtsc", backends, NULL);
	expect("", backends, NULL);
	expect("rdtsc", NULL, NULL);
	/* a list written without spaces reads the same */
	expect("nose", "hist,cdf,ladder,noise", "noise");

	snprintf(why, sizeof why, "unknown backend 'barrier-tcs'");
	tl_suggest_append(why, sizeof why, "barrier-tcs", backends);
	ok(strcmp(why, "unknown backend 'barrier-tcs'; did you mean 'barrier-tsc'?") == 0,
	   "append says the fix after the message (%s)", why);
	snprintf(why, sizeof why, "unknown backend 'zzz'");
	tl_suggest_append(why, sizeof why, "zzz", backends);
	ok(strcmp(why, "unknown backend 'zzz'") == 0, "append leaves the message when nothing is near");
	snprintf(why, sizeof why, "unknown kernel");
	tl_suggest_append_head(why, sizeof why, "ad:100", ':', "empty, add, mul");
	ok(strcmp(why, "unknown kernel; did you mean 'add:100'?") == 0,
	   "a name's arguments are kept in the fix (%s)", why);
	snprintf(why, sizeof why, "unknown kernel");
	tl_suggest_append_head(why, sizeof why, "Empty", ':', "empty, add, mul");
	ok(strcmp(why, "unknown kernel; did you mean 'empty'?") == 0,
	   "a name without arguments is matched whole (%s)", why);
	/* a full buffer is truncated, never overrun */
	memcpy(why, "unknown backend 'abcde'", 24);
	tl_suggest_append(why, 24, "rdtsx", backends);
	ok(strlen(why) == 23, "a full message stays within its buffer");
	return tap_done();
}
