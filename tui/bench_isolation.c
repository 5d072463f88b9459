/* Measurement isolation: does a live TUI disturb what it measures?
 * barrier-tsc `empty` sampled by `ticklab run` in batch, then by the TUI
 * while it draws (sampling pinned to one CPU, drawing on another), then in
 * batch again. Prints the medians and p99s of the raw ns readings and
 * whether the live run stays within one timer step of the batch runs.
 * The TUI runs for real in a private tmux server; without tmux this says
 * so and prints nothing else. Usage: bench_isolation [TICKLAB [N]]. */
#include "config.h"

#include <gsl/gsl_sort.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "io/results.h"
#include "stats/stats.h"

static char sock[64], dir[256];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof cmd, fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Polls the pane until it shows text (or the time is up). */
static int wait_text(const char *text, double seconds)
{
	struct timespec tick = {0, 50 * 1000 * 1000};
	char cmd[256], line[4096];
	snprintf(cmd, sizeof cmd, "tmux -L %s capture-pane -p -t t 2>/dev/null", sock);
	for (double waited = 0; waited < seconds; waited += 0.05) {
		FILE *p = popen(cmd, "r");
		int found = 0;
		while (p && fgets(line, sizeof line, p))
			found |= strstr(line, text) != NULL;
		if (p)
			pclose(p);
		if (found)
			return 0;
		nanosleep(&tick, NULL);
	}
	return -1;
}

static void keys(const char *k)
{
	sh("tmux -L %s send-keys -t t %s", sock, k);
}

struct stat2 {
	double median, p99, res;
	size_t n;
};

static int load(const char *path, struct stat2 *out)
{
	struct tl_run run;
	struct tl_results_meta meta;
	char why[1024];
	memset(out, 0, sizeof *out);
	if (tl_run_load(path, &run, &meta, why, sizeof why) < 0) {
		fprintf(stderr, "bench_isolation: %s\n", why);
		return -1;
	}
	int rc = -1;
	for (size_t i = 0; i < run.ncells; i++) {
		const struct tl_cell *c = &run.cells[i];
		if (c->hidden || strcmp(run.timers[c->timer].id, "barrier-tsc") ||
		    c->kernel.kind != TL_KERNEL_EMPTY || run.flush_bytes[c->flush] != 0)
			continue;
		size_t n = atomic_load(&c->done);
		double *v = malloc(n * sizeof *v);
		if (!v || !n)
			break;
		memcpy(v, c->ns, n * sizeof *v);
		gsl_sort(v, 1, n);
		out->median = stats_quantile_sorted(v, n, 0.5);
		out->p99 = stats_quantile_sorted(v, n, 0.99);
		out->res = c->resolution_ns;
		out->n = n;
		free(v);
		rc = 0;
		break;
	}
	tl_run_unload(&run, &meta);
	return rc;
}

static int batch(const char *bin, size_t n, const char *name, struct stat2 *s)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s.json", dir, name);
	if (sh("'%s' run --backend barrier-tsc --kernel empty -n %zu --json '%s' -q", bin, n, path))
		return -1;
	return load(path, s);
}

/* The TUI with barrier-tsc, flush 0 and `empty` only, drawing while it samples. */
static int live(const char *bin, size_t n, struct stat2 *s)
{
	char cwd[512];
	const char *abs = bin;
	if (bin[0] != '/' && getcwd(cwd, sizeof cwd)) {
		static char buf[1024];
		snprintf(buf, sizeof buf, "%s/%s", cwd, bin);
		abs = buf;
	}
	if (sh("tmux -L %s -f /dev/null new-session -d -s t -x 120 -y 40 "
	       "\"cd '%s' && env LANG=C.UTF-8 TERM=xterm-256color '%s' tui -n %zu; sleep 600\"",
	       sock, dir, abs, n))
		return -1;
	if (wait_text("Backends", 30) < 0)
		return -1;
	/* Leave barrier-tsc alone; drop the other default picks. */
	static const char *const others[] = {"papi-real-nsec", "barrier-cntvct"};
	for (size_t i = 0; i < 2; i++) {
		char k[128], sel[128];
		snprintf(k, sizeof k, "/ C-u '^%s ' Enter", others[i]);
		keys(k);
		snprintf(sel, sizeof sel, "/^%s / shows", others[i]);
		snprintf(k, sizeof k, "[x] %s ", others[i]);
		if (wait_text(sel, 5) == 0 && wait_text(k, 0.2) == 0)
			keys("Space");
	}
	keys("/ C-u Enter Tab Tab / C-u '^add:' Enter");
	wait_text("/^add:/ shows", 5);
	keys("Space Down Space / C-u Enter Enter");
	if (wait_text("done in", 600) < 0 || (keys("e"), wait_text("exported to", 60)) < 0)
		return -1;
	keys("q");
	glob_t g;
	char pat[512];
	snprintf(pat, sizeof pat, "%s/ticklab-run-*.json", dir);
	if (glob(pat, 0, NULL, &g) || !g.gl_pathc)
		return -1;
	int rc = load(g.gl_pathv[0], s);
	globfree(&g);
	return rc;
}

static void row(const char *what, int i, const struct stat2 *s)
{
	printf("  %-24s #%d  median %8.2f ns   p99 %8.2f ns   (%zu samples)\n", what, i, s->median,
	       s->p99, s->n);
}

/* How far v lies outside [lo, hi] (0 inside). */
static double outside(double v, double lo, double hi)
{
	double d = v < lo ? v - lo : v > hi ? v - hi : 0;
	return fabs(d) < 1e-9 ? 0 : d; /* no "-0.00" from rounding */
}

int main(int argc, char **argv)
{
	const char *bin = argc > 1 ? argv[1] : "./ticklab";
	size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 2000000;
	enum { ROUNDS = 2 };
	struct stat2 b[ROUNDS + 1], l[ROUNDS];
	if (system("command -v tmux >/dev/null 2>&1")) {
		printf("bench_isolation: tmux is not installed; no numbers\n");
		return 0;
	}
	snprintf(sock, sizeof sock, "tlbench%d", (int)getpid());
	snprintf(dir, sizeof dir, "%s/tl_isolation.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	/* Batch and live runs alternate, so drift of the node shows as spread
	 * among the batch runs rather than as a difference to the live ones. */
	int rc = 0;
	for (int i = 0; i <= ROUNDS && !rc; i++) {
		char name[32];
		snprintf(name, sizeof name, "batch%d", i);
		rc = batch(bin, n, name, &b[i]);
		if (!rc && i < ROUNDS) {
			sh("rm -f '%s'/ticklab-run-*.json", dir);
			rc = live(bin, n, &l[i]);
			sh("tmux -L %s kill-server >/dev/null 2>&1", sock);
		}
	}
	sh("tmux -L %s kill-server >/dev/null 2>&1", sock);
	sh("rm -rf '%s'", dir);
	if (rc) {
		printf("bench_isolation: a step failed (is %s built?)\n", bin);
		return 1;
	}
	double lo_m = INFINITY, hi_m = -INFINITY, lo_p = INFINITY, hi_p = -INFINITY;
	double dm = 0, dp = 0, res = b[0].res;
	printf("isolation: barrier-tsc empty, flush 0, raw ns before filters, %zu samples a run\n", n);
	for (int i = 0; i <= ROUNDS; i++) {
		lo_m = fmin(lo_m, b[i].median);
		hi_m = fmax(hi_m, b[i].median);
		lo_p = fmin(lo_p, b[i].p99);
		hi_p = fmax(hi_p, b[i].p99);
	}
	for (int i = 0; i <= ROUNDS; i++) {
		row("ticklab run (batch)", i + 1, &b[i]);
		if (i < ROUNDS) {
			row("ticklab tui (live)", i + 1, &l[i]);
			double m = outside(l[i].median, lo_m, hi_m), p = outside(l[i].p99, lo_p, hi_p);
			if (fabs(m) > fabs(dm))
				dm = m;
			if (fabs(p) > fabs(dp))
				dp = p;
		}
	}
	printf("  batch spread: median %.2f..%.2f ns, p99 %.2f..%.2f ns; timer step %.2f ns\n",
	       lo_m, hi_m, lo_p, hi_p, res);
	printf("  live runs outside the batch spread by at most: median %+.2f ns, p99 %+.2f ns\n", dm,
	       dp);
	printf("  within one timer step of the batch runs: median %s, p99 %s\n",
	       fabs(dm) <= res + 1e-9 ? "yes" : "no", fabs(dp) <= res + 1e-9 ? "yes" : "no");
	return 0;
}
