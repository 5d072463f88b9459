/* Flush sizes: every accepted form to the exact byte, every rejection with
 * a message naming the bad text and the accepted forms, NxLk from fixtures. */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/flush.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "tests/tap.h"

static void accept(const char *text, const struct tl_topology *topo, uint64_t want)
{
	uint64_t got = 0;
	char why[512] = "";
	int rc = tl_size_parse(text, topo, &got, why, sizeof why);
	ok(rc == 0 && got == want, "\"%s\" is %" PRIu64 " bytes", text, want);
	if (rc || got != want)
		tap_diag("rc %d, got %" PRIu64 ", why: %s", rc, got, why);
}

static void reject(const char *text, const struct tl_topology *topo, const char *needle)
{
	uint64_t got = 0;
	char why[512] = "", quoted[160];
	int rc = tl_size_parse(text, topo, &got, why, sizeof why);
	snprintf(quoted, sizeof quoted, "\"%s\"", text);
	ok(rc == -1 && strstr(why, quoted) && strstr(why, "accepted:") && strstr(why, needle),
	   "\"%s\" is refused: names it, says \"%s\", lists accepted forms", text, needle);
	if (rc != -1 || !strstr(why, needle))
		tap_diag("rc %d, why: %s", rc, why);
}

static void format(uint64_t bytes, const char *want)
{
	char buf[32];
	tl_size_format(bytes, buf, sizeof buf);
	ok(!strcmp(buf, want), "format %" PRIu64 " is %s", bytes, want);
	if (strcmp(buf, want))
		tap_diag("got %s", buf);
}

/* file: an hwloc XML export under tests/fixtures/. */
static int fixture_xml(const char *file, struct tl_topology *t)
{
	char xml[4096], why[512];
	const char *src = getenv("TL_TOP_SRCDIR");
	snprintf(xml, sizeof xml, "%s/tests/fixtures/%s", src ? src : ".", file);
	if (tl_topology_read_xml(xml, 0, t, why, sizeof why)) {
		tap_diag("%s", why);
		return -1;
	}
	return 0;
}

/* tree: a fixture tree, whose caches are in its topology.xml. */
static int fixture(const char *tree, struct tl_topology *t)
{
	char file[256];
	snprintf(file, sizeof file, "%s/topology.xml", tree);
	return fixture_xml(file, t);
}

int main(void)
{
	struct tl_topology xeon, epyc, zen5, nol3;
	char big[64];
	uint64_t max = tl_flush_max_bytes();

	/* Plain and binary units: k, K, KB and KiB are all 1024 (cache sizes are). */
	accept("0", NULL, 0);
	accept("4096", NULL, 4096);
	accept("4096B", NULL, 4096);
	accept("4096b", NULL, 4096);
	accept("32KiB", NULL, 32768);
	accept("32K", NULL, 32768);
	accept("32KB", NULL, 32768);
	accept("32kb", NULL, 32768);
	accept("4k", NULL, 4096);
	accept("4M", NULL, 4194304);
	accept("4MB", NULL, 4194304);
	accept("128KiB", NULL, 131072);
	accept("1MiB", NULL, 1048576);
	accept("16MiB", NULL, 16777216);
	accept("27.5MiB", NULL, 28835840);
	accept("64MiB", NULL, 67108864);
	accept("110MiB", NULL, 115343360);
	accept("1GiB", NULL, 1073741824);
	accept("1G", NULL, 1073741824);
	accept("1.5k", NULL, 1536);
	accept("0.1k", NULL, 102);   /* 102.4 rounds to the nearest byte */
	accept("0.5K", NULL, 512);
	accept("1.000001M", NULL, 1048577); /* 1048576 + 1.048576 rounds to +1 */
	accept(" 32 KiB ", NULL, 32768);
	accept("0KiB", NULL, 0);
	accept("007", NULL, 7);

	/* Relative to the caches of the Xeon 6248 fixture: L1d 32K, L2 1024K, L3 28160K. */
	ok(fixture("sysfs-xeon6248", &xeon) == 0, "Xeon 6248 fixture reads");
	accept("4xL1", &xeon, 131072);
	accept("4xL2", &xeon, 4194304);
	accept("4xL3", &xeon, 115343360); /* = 110MiB, the paper's largest flush */
	accept("1xL3", &xeon, 28835840);  /* = 27.5MiB */
	accept("0.5xL3", &xeon, 14417920);
	accept("4XL1", &xeon, 131072);
	accept("2 x L2", &xeon, 2097152);
	accept("1.5xL1", &xeon, 49152);

	ok(fixture("sysfs-epyc7742", &epyc) == 0, "EPYC 7742 fixture reads");
	accept("4xL1", &epyc, 131072);
	accept("4xL2", &epyc, 2097152);
	accept("4xL3", &epyc, 67108864);

	/* The bhyve guest without sysfs caches (hwloc read CPUID): L1d 48K, L2 1M,
	 * L3 508M. 4xL3 would hit the half-of-memory limit on a small runner. */
	ok(fixture_xml("hwloc-amd-zen5-bhyve-guest.xml", &zen5) == 0, "Zen 5 guest fixture reads");
	accept("4xL1", &zen5, 196608);
	accept("4xL2", &zen5, 4194304);
	accept("1xL3", &zen5, 532676608);

	reject("", NULL, "empty");
	reject("abc", NULL, "not a size");
	reject("-1", NULL, "not a size");
	reject("1.5", NULL, "a fraction needs a unit");
	reject("1.5B", NULL, "a fraction needs a unit");
	reject("32KiBs", NULL, "not a size");
	reject("32 Kibibytes", NULL, "not a size");
	reject("32iB", NULL, "not a size");
	reject("1.1234567M", NULL, "not a size");
	reject("1e6", NULL, "not a size");
	reject("0x100", NULL, "not a size");
	/* a level that does not exist is the problem said; a slip of case is
	 * offered fixed */
	reject("4xL4", &xeon, "L4 is not a cache level (L1, L2 and L3 are)");
	reject("4xL9", &xeon, "L9 is not a cache level");
	reject("4xL", &xeon, "no cache level after the L");
	reject("4xl2", &xeon, "did you mean '4xL2'?");
	reject("0.5 x l3", &xeon, "did you mean '0.5xL3'?");
	reject("32KIB", NULL, "did you mean '32KiB'?");
	reject("32kIb", NULL, "did you mean '32KiB'?");
	reject("xL1", &xeon, "not a size");
	reject("-4xL1", &xeon, "not a size");
	reject("0xL1", &xeon, "must be positive");
	reject("4xL3", NULL, "cache sizes are unknown");
	reject("99999999999999999999", NULL, "too large");
	reject("18446744073709551615T", NULL, "too large");
	memset(&nol3, 0, sizeof nol3);
	nol3.l1d = 32768;
	reject("4xL3", &nol3, "no L3 cache");
	reject("4xL1", &(struct tl_topology){ .l2 = 1 }, "no L1 data cache");

	/* Half of physical memory is the limit: one byte over is refused. */
	snprintf(big, sizeof big, "%" PRIu64, max + 1);
	reject(big, NULL, "the limit is half of this machine");
	snprintf(big, sizeof big, "%" PRIu64, max);
	accept(big, NULL, max);
	reject("16384TiB", NULL, "the limit is half of this machine");

	format(0, "0");
	format(100, "100B");
	format(1023, "1023B");
	format(1024, "1KiB");
	format(1536, "1.5KiB");
	format(49152, "48KiB");
	format(28835840, "27.5MiB");
	format(115343360, "110MiB");
	format(2013265920, "1.88GiB");
	format(1073741824, "1GiB");
	return tap_done();
}
