#include "config.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("ticklab %s\n", PACKAGE_VERSION);
	return 0;
}
