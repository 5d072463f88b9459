/* libFuzzer: the size parser (--flush, load:SIZE), with and without caches. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/size.h"
#include "bench/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[512];
	struct tl_topology topo;
	uint64_t bytes;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&topo, 0, sizeof topo);
	(void)tl_size_parse(text, NULL, &bytes, why, sizeof why);
	(void)tl_size_parse(text, &topo, &bytes, why, sizeof why);
	free(text);
	return 0;
}
