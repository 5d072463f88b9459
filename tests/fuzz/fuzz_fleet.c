/* libFuzzer: the fleet's readers (a fingerprint, raw or small, and a
 * `fleet --partial` file, io/fleet.c and io/fingerprint.c) on any bytes;
 * what reads is judged (a partial of three nodes or more makes a group:
 * the pooled histograms, the tests against them) and printed every way. */
#define _GNU_SOURCE
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/fleet.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], why[512];
	char *paths[1] = {path};
	struct tl_fleet fl;
	FILE *null;

	stats_init();
	if (fd < 0)
		fd = memfd_create("fuzz_fleet", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (tl_fleet_load(paths, 1, false, NULL, &fl, why, sizeof why) == 0) {
		tl_fleet_judge(&fl, NULL);
		null = fopen("/dev/null", "w");
		if (null) {
			tl_fleet_table_print(null, &fl);
			tl_fleet_markdown_print(null, &fl);
			fclose(null);
		}
		json_decref(tl_fleet_to_json(&fl));
		json_decref(tl_fleet_partial_to_json(&fl));
	}
	tl_fleet_free(&fl);
	return 0;
}
