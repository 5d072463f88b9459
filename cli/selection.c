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
	if (!s->backend_text && s->needs_backends) {
		snprintf(why, whylen, "--backend is required (accepted: %s; `ticklab info` shows "
				      "which are available here)",
			 tl_backend_ids());
		return -1;
	}
	if (tl_selection_parse(&s->got, s->backend_text, s->flush_text,
			       s->takes_kernels ? s->kernel_text : NULL, cpu, why, whylen) < 0)
		return -1;
	say_sizing(s->got.sizing_note);
	return 0;
}

void cli_selection_config(const struct cli_selection *s, struct tl_run_config *cfg)
{
	tl_selection_config(&s->got, cfg);
}

void cli_selection_free(struct cli_selection *s)
{
	tl_selection_free(&s->got);
}
