/* The TUI's remembered setup: the last selection of backends, flush sizes
 * and kernels, N and the theme, kept in $XDG_CONFIG_HOME/ticklab/setup.json
 * (or ~/.config/ticklab/setup.json) between sessions. */
#ifndef TL_IO_SETUP_MEMORY_H
#define TL_IO_SETUP_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

#define TL_MEMORY_ITEMS 64
#define TL_MEMORY_TEXT 160

struct tl_setup_memory {
	/* the selected items as their list labels ("barrier-tsc", "4xL2", "add:500") */
	char backends[TL_MEMORY_ITEMS][TL_MEMORY_TEXT];
	size_t nbackends;
	char flushes[TL_MEMORY_ITEMS][TL_MEMORY_TEXT];
	size_t nflushes;
	char kernels[TL_MEMORY_ITEMS][TL_MEMORY_TEXT];
	size_t nkernels;
	size_t n;      /* samples per cell, 2..100000000 */
	char theme[64];
};

/* The file's path; -1 with why when neither XDG_CONFIG_HOME nor HOME is set. */
int tl_setup_memory_path(char *buf, size_t len, char *why, size_t whylen);

/* 0 with *m filled, 1 when there is no file, -1 when the file is not a
 * setup this version wrote (why names the file and what is wrong; *m is
 * left empty). Every field is checked; nothing in the file is trusted. */
int tl_setup_memory_load(const char *path, struct tl_setup_memory *m, char *why, size_t whylen);

/* Writes m atomically, creating the ticklab directory when missing. */
int tl_setup_memory_save(const char *path, const struct tl_setup_memory *m, char *why,
			 size_t whylen);

/* Forgets the remembered setup (no file afterwards is not an error). */
int tl_setup_memory_forget(const char *path, char *why, size_t whylen);

#endif
