/* The TUI's entry point (everything else in tui/ is private to it). Its
 * options are parsed, and the no-terminal fallback chosen, by the CLI
 * (cli/cmd_tui.c): the TUI never calls back into cli/. */
#ifndef TL_TUI_TUI_H
#define TL_TUI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tui_opts {
	const char *themes_dir;
	const char *theme;
	const char *replay;   /* a saved run, session or search to show */
	char *const *fleet;   /* fingerprints (files, directories) to open as a fleet */
	size_t nfleet;
	const char *baseline; /* a saved run drawn as ghosts, each cell compared with it */
	bool mouse;
	size_t n;             /* samples per cell */
	bool n_given;         /* -n was given: it wins over the remembered N */
	int cpu;              /* sampling CPU, -1: the default */
	uint64_t seed;
	/* Setup's preselection (--backend, --flush, --kernel, read by run's
	 * parsers): a list given replaces the remembered or default one */
	char *const *backends;  /* ids */
	size_t nbackends;
	char *const *flushes;   /* sizes as given: 4xL2, 32KiB, ... */
	size_t nflushes;
	char *const *kernels;   /* labels, one per kernel (ranges expanded) */
	size_t nkernels;
	bool start;             /* --start: run the selection at once */
};

/* tui_run could not use the terminal (why says: unknown TERM, ...). */
#define TUI_NO_TERMINAL (-2)
/* The replay file or the fleet could not be loaded (why says). */
#define TUI_LOAD_FAILED (-3)

/* Runs the lab on the terminal. Returns the exit status (0, or 128 + the
 * signal that ended it), or one of the negative codes above with why. */
int tui_run(const struct tui_opts *opts, char *why, size_t whylen);

#endif
