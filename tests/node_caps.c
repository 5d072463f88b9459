/* Prints what this node executes, for the shell tests: "rdtscp yes",
 * "rdtsc yes" (or no), one a line. */
#include "config.h"

#include <stdio.h>

#include "tests/node_caps.h"

int main(void)
{
	printf("rdtscp %s\n", node_rdtscp_runs() ? "yes" : "no");
	printf("rdtsc %s\n", node_rdtsc_runs() ? "yes" : "no");
	return 0;
}
