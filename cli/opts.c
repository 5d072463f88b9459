#include "config.h"

#include "cli/opts.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backends/backend.h"
#include "base/suggest.h"
#include "base/file_guard.h"
#include "bench/levels.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "base/list.h"
#include "bench/topology.h"
#include "io/term_safe.h"
#include "stats/stats.h"

int opts_split_list(const char *text, const char *what, char ***items, size_t *n, char *why,
		    size_t whylen)
{
	return tl_list_split(text, what, items, n, why, whylen);
}

void opts_free_list(char **items, size_t n)
{
	tl_list_free(items, n);
}

int opts_parse_u64(const char *text, const char *what, uint64_t *out, char *why, size_t whylen)
{
	const char *digits = text;
	int base = 10;
	char *end;
	unsigned long long v;

	if (text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
		digits = text + 2;
		base = 16;
	}
	if (!isxdigit((unsigned char)digits[0]) || (base == 10 && !isdigit((unsigned char)digits[0])))
		goto bad;
	errno = 0;
	v = strtoull(digits, &end, base);
	if (errno == ERANGE) {
		snprintf(why, whylen, "%s '%s' is too large (accepted: 0 to %llu)", what, text,
			 (unsigned long long)UINT64_MAX);
		return -1;
	}
	if (*end != '\0')
		goto bad;
	*out = v;
	return 0;
bad:
	snprintf(why, whylen, "%s '%s' is not a whole number (accepted: decimal or 0x hex, >= 0)",
		 what, text);
	return -1;
}

int opts_parse_count(const char *text, const char *what, size_t *out, char *why, size_t whylen)
{
	uint64_t v;

	if (text[0] == '-') {
		snprintf(why, whylen, "%s '%s' must be at least 1 (accepted: a whole number >= 1)",
			 what, text);
		return -1;
	}
	if (opts_parse_u64(text, what, &v, why, whylen) < 0)
		return -1;
	if (v < 1) {
		snprintf(why, whylen, "%s '%s' must be at least 1 (accepted: a whole number >= 1)",
			 what, text);
		return -1;
	}
	/* Each sample costs two doubles and an ADD count: stay far from
	 * allocations that cannot succeed. */
	if (v > (uint64_t)1 << 32) {
		snprintf(why, whylen, "%s '%s' is too large (accepted: 1 to %llu)", what, text,
			 (unsigned long long)1 << 32);
		return -1;
	}
	*out = (size_t)v;
	return 0;
}

int opts_parse_double(const char *text, const char *what, double lo, double hi, double *out,
		      char *why, size_t whylen)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (text[0] == '\0' || isspace((unsigned char)text[0]) || *end != '\0' || errno == ERANGE ||
	    !isfinite(v) || v < lo || v > hi) {
		snprintf(why, whylen, "%s '%s' is not accepted (accepted: a number from %g to %g)", what,
			 text, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* "0-1,3" from an affinity mask, for messages. */
static void format_cpus(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used < len; c++) {
		int last = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		used += (size_t)snprintf(buf + used, len - used,
					 last > c ? "%s%d-%d" : "%s%d", used ? "," : "", c, last);
		c = last;
	}
}

int opts_parse_cpu(const char *text, int *cpu, char *why, size_t whylen)
{
	cpu_set_t set;
	char allowed[128] = "?";
	uint64_t v;
	int known;

	known = sched_getaffinity(0, sizeof set, &set) == 0;
	if (known)
		format_cpus(&set, allowed, sizeof allowed);
	if (text[0] == '-' || opts_parse_u64(text, "--cpu", &v, why, whylen) < 0 ||
	    v >= CPU_SETSIZE || (known && !CPU_ISSET((int)v, &set))) {
		snprintf(why, whylen, "--cpu '%s' is not a CPU this process may run on (accepted: %s)",
			 text, allowed);
		return -1;
	}
	*cpu = (int)v;
	return 0;
}

/* A long option's val is often a letter that has no short form (tui's
 * --mouse is 'm'): only what the optstring holds is offered as -x. */
static void list_options(const struct option *longopts, const char *shortopts, char *buf,
			 size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct option *o = longopts; o->name && used < len; o++) {
		char shortname[8] = "";

		if (o->flag == NULL && o->val > 0 && o->val < 128 && isalnum(o->val) &&
		    strchr(shortopts, o->val))
			snprintf(shortname, sizeof shortname, "-%c/", o->val);
		used += (size_t)snprintf(buf + used, len - used, "%s%s--%s", used ? ", " : "",
					 shortname, o->name);
	}
}

void opts_usage_error(int code, char *const *argv, const char *shortopts,
		      const struct option *longopts, char *why, size_t whylen)
{
	char accepted[512];
	char name[64];
	const char *word = argv[optind - 1];

	list_options(longopts, shortopts, accepted, sizeof accepted);
	/* optopt is the short letter (or a long option's val); 0 for an unknown
	 * long option, whose text is the word getopt just stepped over. */
	if (optopt > 0 && optopt < 128 && isalnum(optopt) && !(word[0] == '-' && word[1] == '-'))
		snprintf(name, sizeof name, "-%c", optopt);
	else
		snprintf(name, sizeof name, "%.*s", (int)strcspn(word, "="), word);
	if (code == ':') {
		snprintf(why, whylen, "option '%s' needs a value (accepted options: %s)", name,
			 accepted);
		return;
	}
	/* "--quiet=yes": a known flag given a value getopt refused. */
	if (name[0] == '-' && name[1] == '-' && strchr(word, '='))
		for (const struct option *o = longopts; o->name; o++)
			if (strcmp(name + 2, o->name) == 0) {
				snprintf(why, whylen, "option '%s' takes no value (got '%s')", name,
					 word);
				return;
			}
	snprintf(why, whylen, "unknown option '%s' (accepted: %s)", name, accepted);
	if (name[0] == '-' && name[1] == '-') {
		char longnames[512] = "";
		size_t used = 0;

		for (const struct option *o = longopts; o->name && used < sizeof longnames; o++)
			used += (size_t)snprintf(longnames + used, sizeof longnames - used, "--%s, ",
						 o->name);
		tl_suggest_append(why, whylen, name, longnames);
	}
}

int opts_parse_os_filter(const char *text, char *why, size_t whylen)
{
	int m = stats_os_method_parse(text);

	if (m < 0) {
		snprintf(why, whylen, "--os-filter '%s' is unknown (accepted: iforest, iqr, none, cause)",
			 text);
		tl_suggest_append(why, whylen, text, "iforest, iqr, none, cause");
	}
	return m;
}

int opts_no_operand(int argc, char *const *argv, const char *hint, char *why, size_t whylen)
{
	if (optind >= argc)
		return 0;
	snprintf(why, whylen, "unexpected argument '%s' (%s)", argv[optind], hint);
	return -1;
}

int opts_fail(const char *cmd, const char *why)
{
	/* why may quote a file or an argument: escaped, never raw. */
	fprintf(stderr, "ticklab %s: ", cmd);
	tl_term_fputs(why, stderr);
	fputc('\n', stderr);
	return TL_EXIT_USAGE;
}






int opts_check_output(const char *opt, const char *path, const char *accepted, char *why,
		      size_t whylen)
{
	const char *slash;
	char *dir;
	struct stat st;
	int rc = 0;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	/* The precisions keep the message whole for any path a shell passes.
	 * A FIFO or a device is refused here, before any measuring: opening a
	 * FIFO for writing waits for a reader, and a device is not a file. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s '%.900s' is %s%s (accepted: %s)", opt, path,
			 tl_file_kind(st.st_mode), S_ISDIR(st.st_mode) ? "" : ", not a regular file",
			 accepted);
		return -1;
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!dir) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s '%.400s': directory '%.400s' does not exist", opt, path, dir);
		rc = -1;
	}
	free(dir);
	return rc;
}


