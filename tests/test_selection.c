/* The one selection parser both faces use (bench/selection.c), on a recorded
 * node: the Zen 5 bhyve guest's hwloc XML (L1d 48 KiB, L2 1 MiB, L3 508 MiB
 * reported) and its chase (L3 4 MiB measured), from tests/fixtures. The
 * expected bytes are those sizes times N, by hand. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/kernel.h"
#include "bench/selection.h"
#include "tests/tap.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)

static void test_sources(void)
{
	struct tl_selection s;
	char why[512];
	int rc = tl_selection_parse(&s, "sim", "0,4xL3,4xL2,4xL1,32KiB", "add:10,load:2xL3", -1,
				    why, sizeof why);

	ok(rc == 0, "a selection on the recorded node parses (%s)", rc ? why : "");
	if (rc)
		return;
	ok(s.nbackends == 1 && !strcmp(s.backends[0], "sim"), "one backend, as given");
	ok(s.nflush == 5 && !strcmp(s.flush_names[1], "4xL3"), "the flush names as given");
	ok(s.flush_bytes[0] == 0 && s.flush_bytes[1] == 16 * MiB && s.flush_bytes[2] == 4 * MiB &&
		   s.flush_bytes[3] == 192 * KiB && s.flush_bytes[4] == 32 * KiB,
	   "bytes: 0, 4 x the measured 4 MiB L3, 4 x the reported 1 MiB L2 and 48 KiB L1d, 32 KiB");
	ok(s.flush_source[0] == TL_FLUSH_LITERAL && s.flush_source[1] == TL_FLUSH_MEASURED &&
		   s.flush_source[2] == TL_FLUSH_REPORTED && s.flush_source[3] == TL_FLUSH_REPORTED &&
		   s.flush_source[4] == TL_FLUSH_LITERAL,
	   "and why: literal, measured, reported, reported, literal (%s, %s)",
	   tl_flush_source_name(s.flush_source[1]), tl_flush_source_name(s.flush_source[2]));
	ok(strstr(s.sizing_note, "L3 4MiB measured by a chase") != NULL,
	   "the sizing note says which level the chase placed: %s", s.sizing_note);
	ok(s.nkernels == 2 && s.kernels[1].bytes == 8 * MiB,
	   "load:2xL3 is sized by the same decision as 4xL3 (%llu bytes)",
	   s.nkernels == 2 ? (unsigned long long)s.kernels[1].bytes : 0ull);
	tl_selection_free(&s);
}

static void refused(const char *b, const char *f, const char *k, const char *want,
		    const char *what)
{
	struct tl_selection s;
	char why[512] = "";
	int rc = tl_selection_parse(&s, b, f, k, -1, why, sizeof why);

	ok(rc == -1 && strstr(why, want) != NULL && s.nflush == 0 && s.nbackends == 0,
	   "%s: refused, saying '%s' (%s)", what, want, why);
}

int main(void)
{
	const char *src = getenv("TL_TOP_SRCDIR");
	char xml[4096], chase[4096];

	snprintf(xml, sizeof xml, "%s/tests/fixtures/hwloc-amd-zen5-bhyve-guest.xml",
		 src ? src : ".");
	snprintf(chase, sizeof chase, "%s/tests/fixtures/chase/amd-zen5-bhyve-guest.txt",
		 src ? src : ".");
	setenv("HWLOC_XMLFILE", xml, 1);
	setenv("TL_LEVELS_FROM", chase, 1);
	test_sources();
	refused("sim", "4xL3,16MiB", "add:10", "is given twice", "16MiB is 4xL3 here");
	refused("sim,nope", "0", "add:10", "unknown backend 'nope'", "an unknown backend");
	refused("sim,sim", "0", "add:10", "backend 'sim' is given twice", "a backend twice");
	refused("sim", "0", "add:10,add:10", "kernel 'add:10' is given twice", "a kernel twice");
	refused("sim", "4xL9", "add:10", "4xL9", "a level the node has not");
	return tap_done();
}
