/* libFuzzer: the kernel list parser (-k), ranges and jitter included. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/kernel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), why[512];
	struct tl_kernel *k = NULL;
	size_t n = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	(void)tl_kernel_parse_list(text, &k, &n, why, sizeof why);
	free(k);
	free(text);
	return 0;
}
