/* cli/opts.c: list splitting (backend ids keep their parameters) and the
 * strict number parsers behind every exit-2 message. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "tests/tap.h"

static void check_split(const char *text, size_t want_n, const char *const *want, const char *desc)
{
	char **items;
	size_t n;
	char why[256];
	int good;

	if (opts_split_list(text, "--backend", &items, &n, why, sizeof why) < 0) {
		ok(0, "%s (%s)", desc, why);
		return;
	}
	good = n == want_n;
	for (size_t i = 0; good && i < n; i++)
		good = strcmp(items[i], want[i]) == 0;
	ok(good, "%s", desc);
	opts_free_list(items, n);
}

static void test_split(void)
{
	static const char *const plain[] = {"barrier-tsc", "rdtsc", "sim"};
	static const char *const params[] = {"sim:sd=5,quantum=10", "barrier-tsc"};
	static const char *const two_sims[] = {"sim:sd=1", "sim:sd=2,seed=3", "rdtsc"};
	static const char *const one[] = {"clock-gettime"};
	char **items;
	size_t n;
	char why[256];

	check_split("barrier-tsc,rdtsc,sim", 3, plain, "a plain list splits on commas");
	check_split("sim:sd=5,quantum=10,barrier-tsc", 2, params,
		    "key=value after a parameterised id stays with it");
	check_split("sim:sd=1,sim:sd=2,seed=3,rdtsc", 3, two_sims, "two parameterised sims");
	check_split("clock-gettime", 1, one, "one item");
	ok(opts_split_list("a,,b", "--flush", &items, &n, why, sizeof why) == -1 &&
		   strstr(why, "empty item") && strstr(why, "a,,b"),
	   "an empty item is refused, naming the list");
	ok(opts_split_list("", "--flush", &items, &n, why, sizeof why) == -1, "an empty list too");
	ok(opts_split_list("a,", "--flush", &items, &n, why, sizeof why) == -1, "a trailing comma too");
}

static void test_numbers(void)
{
	uint64_t u;
	size_t c;
	double d;
	int cpu;
	char why[256];

	ok(opts_parse_u64("42", "--seed", &u, why, sizeof why) == 0 && u == 42, "42");
	ok(opts_parse_u64("0x10", "--seed", &u, why, sizeof why) == 0 && u == 16, "0x10 is 16");
	ok(opts_parse_u64("18446744073709551615", "--seed", &u, why, sizeof why) == 0 &&
		   u == UINT64_MAX,
	   "the largest 64-bit seed");
	ok(opts_parse_u64("18446744073709551616", "--seed", &u, why, sizeof why) == -1 &&
		   strstr(why, "too large"),
	   "one more overflows with a message");
	ok(opts_parse_u64("-1", "--seed", &u, why, sizeof why) == -1 && strstr(why, "'-1'") &&
		   strstr(why, "--seed"),
	   "-1 is refused, naming option and value");
	ok(opts_parse_u64(" 5", "--seed", &u, why, sizeof why) == -1, "leading space refused");
	ok(opts_parse_u64("5 ", "--seed", &u, why, sizeof why) == -1, "trailing space refused");
	ok(opts_parse_u64("", "--seed", &u, why, sizeof why) == -1, "empty refused");
	ok(opts_parse_u64("0x", "--seed", &u, why, sizeof why) == -1, "bare 0x refused");
	ok(opts_parse_count("10000", "-n", &c, why, sizeof why) == 0 && c == 10000, "-n 10000");
	ok(opts_parse_count("0", "-n", &c, why, sizeof why) == -1 && strstr(why, "at least 1"),
	   "-n 0 is refused: at least 1");
	ok(opts_parse_count("-5", "-n", &c, why, sizeof why) == -1 && strstr(why, "'-5'"), "-n -5");
	ok(opts_parse_count("1e4", "-n", &c, why, sizeof why) == -1, "-n 1e4 is not a whole number");
	ok(opts_parse_count("99999999999", "-n", &c, why, sizeof why) == -1 && strstr(why, "too large"),
	   "an -n no machine can hold is refused");
	ok(opts_parse_double("0.01", "--eps", 0, 1, &d, why, sizeof why) == 0 && d == 0.01, "0.01");
	ok(opts_parse_double("2", "--eps", 0, 1, &d, why, sizeof why) == -1 && strstr(why, "0 to 1"),
	   "out of range names the range");
	ok(opts_parse_double("nan", "--eps", 0, 1, &d, why, sizeof why) == -1, "nan refused");
	ok(opts_parse_double("0.5x", "--eps", 0, 1, &d, why, sizeof why) == -1, "junk refused");
	ok(opts_parse_cpu("100000", &cpu, why, sizeof why) == -1 && strstr(why, "accepted"),
	   "a CPU beyond the mask is refused with the allowed list (%s)", why);
	ok(opts_parse_cpu("-1", &cpu, why, sizeof why) == -1, "a negative CPU is refused");
}

int main(void)
{
	test_split();
	test_numbers();
	return tap_done();
}
