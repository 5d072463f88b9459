/* Escaping by destination (io/term_safe.h): each function against strings
 * written out by hand, so the expectations come from the formats' rules
 * (CommonMark/GFM tables, RFC 4180 and the spreadsheet formula prefixes),
 * not from the program's earlier output. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/term_safe.h"
#include "tests/tap.h"

static char *through(int (*put)(const char *, FILE *), const char *s)
{
	static char buf[1024];
	FILE *f;

	memset(buf, 0, sizeof buf);
	f = fmemopen(buf, sizeof buf, "w");

	if (!f || put(s, f) < 0)
		abort();
	fclose(f);
	return buf;
}

static int md(const char *s, FILE *f) { return tl_md_fputs(s, f); }
static int csv(const char *s, FILE *f) { return tl_csv_fputs(s, f); }

static void is(const char *got, const char *want, const char *what)
{
	if (!ok(strcmp(got, want) == 0, "%s", what))
		printf("#   got  [%s]\n#   want [%s]\n", got, want);
}

int main(void)
{
	char out[256];

	/* Markdown */
	is(through(md, "<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;",
	   "md: an HTML tag becomes entities");
	is(through(md, "a & b"), "a &amp; b", "md: & is an entity, so &lt; in a name stays text");
	is(through(md, "Xeon | x"), "Xeon \\| x", "md: a pipe cannot add a column");
	is(through(md, "a\\|b"), "a\\\\\\|b", "md: a backslash before a pipe cannot unescape it");
	is(through(md, "one\ntwo"), "one\\\\ntwo", "md: a newline shows as \\n, the row stays one line");
	is(through(md, "[x](javascript:y)"), "[x\\](javascript:y)", "md: no link");
	is(through(md, "![t][r]"), "![t\\][r]", "md: no image or reference link");
	is(through(md, "[1.5, 2.5]"), "[1.5, 2.5]", "md: an interval's brackets are left");
	is(through(md, "`code`"), "\\`code\\`", "md: no code span");
	is(through(md, "<http://x>"), "&lt;http://x&gt;", "md: no autolink");
	is(through(md, "**detected**"), "**detected**", "md: emphasis is left");
	is(through(md, "\033]0;t\007"), "\\\\x1B]0;t\\\\x07", "md: escape bytes shown, never raw");
	is(through(md, "Intel(R) Xeon(R) 6248"), "Intel(R) Xeon(R) 6248", "md: a plain model unchanged");

	/* CSV */
	is(through(csv, "=HYPERLINK(\"http://e/\")"), "\"'=HYPERLINK(\"\"http://e/\"\")\"",
	   "csv: a leading = is text, quotes doubled, the field quoted");
	is(through(csv, "+1"), "\"'+1\"", "csv: a leading + is text");
	is(through(csv, "-2+3"), "\"'-2+3\"", "csv: a leading - is text");
	is(through(csv, "@SUM(A1)"), "\"'@SUM(A1)\"", "csv: a leading @ is text");
	is(through(csv, "a=1"), "a=1", "csv: = inside a field is left");
	is(through(csv, "sim:sd=5,step=1"), "\"sim:sd=5,step=1\"", "csv: a comma quotes the field");
	is(through(csv, "line one\nline two"), "line one\\nline two", "csv: no raw newline");
	is(through(csv, "<img src=x>"), "<img src=x>", "csv: HTML is CSV's plain text");
	is(through(csv, " pad"), "\" pad\"", "csv: a leading space kept by quoting");
	is(through(csv, ""), "", "csv: empty stays empty");

	/* drawn text */
	is(tl_draw_safe("a\xff\n", out, sizeof out), "a\\xFF\\n", "draw: valid UTF-8, no controls");
	is(tl_draw_safe("µs ≤ 5", out, sizeof out), "µs ≤ 5", "draw: UTF-8 text unchanged");

	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
