#include "config.h"

#include "cli/selection.h"

#include <stdlib.h>
#include <string.h>

#include <stdio.h>

#include "backends/backend.h"
#include "bench/kernel.h"
#include "bench/selection.h"
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

/* The chase's note is said once, after a list it sized is accepted: before
 * a refusal it would be a line that is not part of the error. */
static void say_sizing(const char *note)
{
	static bool said;

	if (note[0] && !said)
		fprintf(stderr, "ticklab: cache multiples go by %s\n", note);
	said = said || note[0];
}

int cli_selection_parse(struct cli_selection *s, int cpu, char *why, size_t whylen)
{
	struct tl_selection t;

	if (!s->backend_text && s->needs_backends) {
		snprintf(why, whylen, "--backend is required (accepted: %s; `ticklab info` shows "
				      "which are available here)",
			 tl_backend_ids());
		return -1;
	}
	if (tl_selection_parse(&t, s->backend_text, s->flush_text,
			       s->takes_kernels ? s->kernel_text : NULL, cpu, why, whylen) < 0)
		return -1;
	say_sizing(t.sizing_note);
	/* The CLI's view takes the parsed lists over: they are freed with it. */
	s->backends = t.backends;
	s->nbackends = t.nbackends;
	s->flush_names = t.flush_names;
	s->flush_bytes = t.flush_bytes;
	s->flush_source = t.flush_source;
	s->nflush = t.nflush;
	s->kernels = t.kernels;
	s->nkernels = t.nkernels;
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
	struct tl_selection t = {
		.backends = s->backends, .nbackends = s->nbackends, .flush_names = s->flush_names,
		.flush_bytes = s->flush_bytes, .flush_source = s->flush_source, .nflush = s->nflush,
		.kernels = s->kernels, .nkernels = s->nkernels,
	};

	tl_selection_free(&t);
	s->backends = s->flush_names = NULL;
	s->flush_bytes = NULL;
	s->flush_source = NULL;
	s->kernels = NULL;
	s->nbackends = s->nflush = s->nkernels = 0;
}
