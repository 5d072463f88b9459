#include "config.h"

#include "cli/selection.h"

#include <stdlib.h>
#include <string.h>

#include "bench/kernel.h"
#include "cli/command.h"
#include "cli/opts.h"

int cli_selection_option(struct cli_selection *s, int c, const char *arg)
{
	switch (c) {
	case 'b':
		s->backend_text = arg;
		return 0;
	case 'f':
		s->flush_text = arg;
		return 0;
	case 'k':
		if (!s->takes_kernels)
			return CLI_NOT_MINE;
		s->kernel_text = arg;
		return 0;
	default:
		return CLI_NOT_MINE;
	}
}

bool cli_selection_given(const struct cli_selection *s)
{
	return s->backend_text || s->flush_text || (s->takes_kernels && s->kernel_text);
}

int cli_selection_parse(struct cli_selection *s, int cpu, char *why, size_t whylen)
{
	if ((s->backend_text || s->needs_backends) &&
	    opts_parse_backends(s->backend_text, &s->backends, &s->nbackends, why, whylen) < 0)
		return -1;
	if (s->flush_text && opts_parse_flush(s->flush_text, cpu, &s->flush_names, &s->flush_bytes,
					      &s->nflush, why, whylen) < 0)
		return -1;
	if (s->takes_kernels && s->kernel_text &&
	    opts_parse_kernels(s->kernel_text, cpu, &s->kernels, &s->nkernels, why, whylen) < 0)
		return -1;
	return 0;
}

void cli_selection_config(const struct cli_selection *s, struct tl_run_config *cfg)
{
	cfg->backends = (const char **)s->backends;
	cfg->nbackends = s->nbackends;
	cfg->flush_bytes = s->flush_bytes;
	cfg->flush_names = (const char *const *)s->flush_names;
	cfg->nflush = s->nflush;
	cfg->kernels = s->kernels;
	cfg->nkernels = s->nkernels;
}

void cli_selection_free(struct cli_selection *s)
{
	opts_free_list(s->backends, s->nbackends);
	opts_free_list(s->flush_names, s->nflush);
	free(s->flush_bytes);
	free(s->kernels);
	s->backends = s->flush_names = NULL;
	s->flush_bytes = NULL;
	s->kernels = NULL;
	s->nbackends = s->nflush = s->nkernels = 0;
}
