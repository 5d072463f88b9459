/* `ticklab plot` in a build configured --without-cairo: it says so. */
#include "config.h"

#include <stdio.h>

#include "io/plot.h"
#include "io/screen_shot.h"

static int unavailable(char *why, size_t whylen)
{
	snprintf(why, whylen, "this ticklab was built without cairo (configure --without-cairo), "
			      "so it draws no figures; rebuild with libcairo2-dev installed");
	return -1;
}

bool tl_plot_available(void)
{
	return false;
}

int tl_plot_format_of(const char *path, enum tl_plot_format *f, char *why, size_t whylen)
{
	(void)path;
	(void)f;
	return unavailable(why, whylen);
}

int tl_plot_run(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	(void)run, (void)m, (void)seed, (void)o, (void)path;
	return unavailable(why, whylen);
}

int tl_plot_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		   const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	(void)p, (void)cells, (void)o, (void)path;
	return unavailable(why, whylen);
}

int tl_plot_ladder(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		   const struct tl_plot_mark *marks, size_t nmarks, const struct tl_plot_opts *o,
		   const char *path, char *why, size_t whylen)
{
	(void)run, (void)m, (void)seed, (void)marks, (void)nmarks, (void)o, (void)path;
	return unavailable(why, whylen);
}

int tl_plot_noise(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		  const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	(void)run, (void)m, (void)seed, (void)o, (void)path;
	return unavailable(why, whylen);
}

int tl_screen_svg(const char *path, const struct tl_screen_cell *cells, int rows, int cols,
		  char *why, size_t whylen)
{
	(void)path, (void)cells, (void)rows, (void)cols;
	return unavailable(why, whylen);
}
