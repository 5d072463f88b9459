/* libFuzzer: the theme loader, on a regular file holding the input. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	struct tui_theme t;
	char why[512];
	FILE *f;

	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/tl_fuzz_theme_%ld.theme", (long)getpid());
	}
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	(void)tui_theme_load(path, &t, why, sizeof why);
	return 0;
}
