#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "io/screen_shot.h"

int tl_screen_text(const char *path, const struct tl_screen_cell *cells, int rows, int cols,
		   char *why, size_t whylen)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (int y = 0; y < rows; y++) {
		const struct tl_screen_cell *row = cells + (size_t)y * (size_t)cols;
		int end = cols;
		while (end > 0 && (!row[end - 1].ch[0] || strcmp(row[end - 1].ch, " ") == 0))
			end--;
		for (int x = 0; x < end; x++)
			fputs(row[x].ch[0] ? row[x].ch : " ", f);
		fputc('\n', f);
	}
	if (ferror(f) | (fclose(f) != 0)) {
		snprintf(why, whylen, "%s: write failed", path);
		return -1;
	}
	return 0;
}
