#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "io/theme_contrast.h"
#include "tui/term_bg.h"

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The primary device attributes reply, "ESC [ ? ... c", ends the wait. */
static int has_da1(const char *buf, size_t n)
{
	for (size_t i = 0; i + 2 < n; i++)
		if (buf[i] == '\033' && buf[i + 1] == '[' && buf[i + 2] == '?')
			for (size_t j = i + 3; j < n; j++)
				if (buf[j] == 'c')
					return 1;
	return 0;
}

static int ask_osc11(int timeout_ms)
{
	struct termios saved, quiet;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) || tcgetattr(STDIN_FILENO, &saved) < 0)
		return -1;
	quiet = saved;
	quiet.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
	quiet.c_cc[VMIN] = 0;
	quiet.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &quiet) < 0)
		return -1;
	static const char ask[] = "\033]11;?\033\\\033[c";
	char buf[256];
	size_t n = 0;
	int rgb = -1;
	if (write(STDOUT_FILENO, ask, sizeof ask - 1) == (ssize_t)(sizeof ask - 1)) {
		long end = now_ms() + timeout_ms;
		while (n < sizeof buf - 1 && !has_da1(buf, n)) {
			long left = end - now_ms();
			struct pollfd p = {.fd = STDIN_FILENO, .events = POLLIN};
			if (left <= 0 || poll(&p, 1, (int)left) <= 0)
				break;
			ssize_t got = read(STDIN_FILENO, buf + n, sizeof buf - 1 - n);
			if (got <= 0)
				break;
			n += (size_t)got;
		}
		rgb = tui_bg_from_osc11(buf, n);
	}
	tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	return rgb < 0 ? -1 : tui_rgb_is_light(rgb);
}

int tui_term_background(int timeout_ms)
{
	int said = tui_bg_from_colorfgbg(getenv("COLORFGBG"));
	if (said >= 0)
		return said;
	const char *term = getenv("TERM");
	if (!term || strncmp(term, "linux", 5) == 0 || strcmp(term, "dumb") == 0)
		return -1; /* the console's background is black and it has no OSC 11 */
	return ask_osc11(timeout_ms);
}
