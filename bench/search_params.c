#include "config.h"

#include "bench/search_params.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "stats/stats.h"

const char tl_search_param_names[] =
	"method, eps, alpha, n, p, q, os-filter, tmin-step, tdiff-step, tdiff-order, max-adds, budget, "
	"repeats, seed";

static bool number(const char *text, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(text, &end);
	return text[0] && !isspace((unsigned char)text[0]) && *end == '\0' && errno != ERANGE &&
	       isfinite(*v);
}

static int real_in(const char *what, const char *text, double lo, double hi, double *out, char *why,
		   size_t whylen)
{
	double v;

	if (!number(text, &v) || v < lo || v > hi) {
		snprintf(why, whylen, "%s '%s' is not accepted (accepted: a number from %g to %g)", what,
			 text, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* A whole number in [lo, hi]; 1e8 is accepted as 100000000. */
static int whole_in(const char *what, const char *text, uint64_t lo, uint64_t hi, const char *unit,
		    uint64_t *out, char *why, size_t whylen)
{
	double v;

	if (!number(text, &v) || v != floor(v) || v < (double)lo || v > (double)hi) {
		snprintf(why, whylen, "%s '%s' is not accepted (accepted: a whole number%s from %llu to %llu)",
			 what, text, unit, (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

int tl_search_plan_param(struct tl_search_plan *p, const char *name, const char *what,
			 const char *text, char *why, size_t whylen)
{
	struct tl_search_params *sp = &p->sp;
	uint64_t u;
	int m;

	if (strcmp(name, "method") == 0) {
		if ((m = tl_search_method_parse(text)) < 0) {
			snprintf(why, whylen, "%s '%s' is unknown (accepted: fast, paper)", what, text);
			tl_suggest_append(why, whylen, text, "fast, paper");
			return -1;
		}
		sp->method = (enum tl_search_method)m;
	} else if (strcmp(name, "tdiff-order") == 0) {
		if ((m = tl_tdiff_order_parse(text)) < 0) {
			snprintf(why, whylen, "%s '%s' is unknown (accepted: interleaved, paper)", what, text);
			return -1;
		}
		sp->order = (enum tl_tdiff_order)m;
	} else if (strcmp(name, "os-filter") == 0) {
		if ((m = stats_os_method_parse(text)) < 0 || m == TL_OS_CAUSE) {
			snprintf(why, whylen, "%s '%s' is %s (accepted: iforest, iqr, none)", what, text,
				 m == TL_OS_CAUSE ? "for runs only (a search records no causes)"
						  : "unknown");
			if (m < 0)
				tl_suggest_append(why, whylen, text, "iforest, iqr, none");
			return -1;
		}
		sp->os = (enum tl_os_method)m;
	} else if (strcmp(name, "eps") == 0) {
		return real_in(what, text, 1e-6, 0.999, &sp->eps, why, whylen);
	} else if (strcmp(name, "alpha") == 0) {
		return real_in(what, text, 0, 0.999, &sp->alpha, why, whylen);
	} else if (strcmp(name, "budget") == 0) {
		if (strcmp(text, "auto") == 0) {
			p->budget_s = 0;
			return 0;
		}
		if (real_in(what, text, 0.1, 86400, &p->budget_s, why, whylen) < 0) {
			snprintf(why, whylen, "%s '%s' is not accepted (accepted: seconds from 0.1 to 86400, "
				 "or auto: %g a cell)", what, text, TL_SEARCH_BUDGET_S);
			return -1;
		}
	} else if (strcmp(name, "n") == 0) {
		/* fewer than 10 leaves no CV or filter to speak of; 2^32 is far
		 * from allocations that cannot succeed */
		if (whole_in(what, text, 10, (uint64_t)1 << 32, "", &u, why, whylen) < 0)
			return -1;
		sp->n = (size_t)u;
	} else if (strcmp(name, "p") == 0 || strcmp(name, "q") == 0) {
		if (whole_in(what, text, 1, 1000000, "", &u, why, whylen) < 0)
			return -1;
		*(name[0] == 'p' ? &sp->p : &sp->q) = (unsigned)u;
	} else if (strcmp(name, "repeats") == 0) {
		if (whole_in(what, text, 1, 256, "", &u, why, whylen) < 0)
			return -1;
		p->repeats = (unsigned)u;
	} else if (strcmp(name, "tmin-step") == 0) {
		return whole_in(what, text, 1, 1000000000000000ULL, " of ADDs", &sp->tmin_step, why, whylen);
	} else if (strcmp(name, "tdiff-step") == 0) {
		return whole_in(what, text, 1, 1000000000000000ULL, " of ADDs", &sp->tdiff_step, why, whylen);
	} else if (strcmp(name, "max-adds") == 0) {
		return whole_in(what, text, 1, 1000000000000000ULL, " of ADDs", &sp->max_adds, why, whylen);
	} else if (strcmp(name, "seed") == 0) {
		return whole_in(what, text, 0, UINT64_MAX >> 11, "", &sp->seed, why, whylen);
	} else {
		snprintf(why, whylen, "'%s' is not a search parameter (accepted: %s)", name,
			 tl_search_param_names);
		return -1;
	}
	return 0;
}

int tl_search_plan_params(struct tl_search_plan *p, const char *text, char *why, size_t whylen)
{
	struct tl_search_plan next = *p;
	char buf[512];
	char *save = NULL;

	if (snprintf(buf, sizeof buf, "%s", text) >= (int)sizeof buf) {
		snprintf(why, whylen, "too long (accepted: up to %zu characters)", sizeof buf - 1);
		return -1;
	}
	for (char *tok = strtok_r(buf, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok || !eq[1]) {
			snprintf(why, whylen, "'%s' is not name=value (accepted: %s)", tok,
				 tl_search_param_names);
			return -1;
		}
		*eq = '\0';
		if (tl_search_plan_param(&next, tok, tok, eq + 1, why, whylen) < 0)
			return -1;
	}
	/* the lists stay p's own: only the parameters were copied and changed */
	p->sp = next.sp;
	p->budget_s = next.budget_s;
	p->repeats = next.repeats;
	return 0;
}

void tl_search_plan_params_text(const struct tl_search_plan *p, char *buf, size_t len)
{
	const struct tl_search_params *sp = &p->sp;

	char budget[32];

	if (p->budget_s > 0)
		snprintf(budget, sizeof budget, "%g", p->budget_s);
	else
		snprintf(budget, sizeof budget, "auto");
	snprintf(buf, len,
		 "method=%s tdiff-order=%s eps=%g alpha=%g n=%zu p=%u q=%u os-filter=%s max-adds=%.15g "
		 "repeats=%u budget=%s",
		 tl_search_method_name(sp->method), tl_tdiff_order_name(sp->order), sp->eps, sp->alpha, sp->n, sp->p, sp->q,
		 stats_os_method_name(sp->os), (double)sp->max_adds, p->repeats, budget);
}

void tl_search_plan_describe(const struct tl_search_plan *p, char *buf, size_t len)
{
	const struct tl_search_params *sp = &p->sp;

	char budget[48];

	/* a plan not yet built for its cells has its budget still to resolve */
	if (p->budget_s > 0)
		snprintf(budget, sizeof budget, "%g s", p->budget_s);
	else
		snprintf(budget, sizeof budget, "%g s a cell", TL_SEARCH_BUDGET_S);
	snprintf(buf, len,
		 "method %s, eps %g, alpha %g, n %zu, p %u, q %u, os-filter %s, bound %.3g ADDs, "
		 "budget %s, %u repeats (%s), t_diff %s",
		 tl_search_method_name(sp->method), sp->eps, sp->alpha, sp->n, sp->p, sp->q,
		 stats_os_method_name(sp->os), (double)sp->max_adds, budget, p->repeats,
		 tl_search_interval_method(p->repeats),
		 tl_tdiff_order_name(sp->order));
}
