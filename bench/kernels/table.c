/* The kernel table (bench/kernels/kernels.def), as cli/command.c lists
 * the commands. */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "bench/kernel.h"

#define TL_KERNEL(name) extern const struct tl_kernel_ops tl_kernel_##name;
#include "bench/kernels/kernels.def"
#undef TL_KERNEL

#define TL_KERNEL(name) &tl_kernel_##name,
const struct tl_kernel_ops *const tl_kernel_table[] = {
#include "bench/kernels/kernels.def"
	NULL,
};
#undef TL_KERNEL

const struct tl_kernel_ops *tl_kernel_find(const char *name)
{
	for (size_t i = 0; tl_kernel_table[i]; i++)
		if (!strcmp(tl_kernel_table[i]->name, name))
			return tl_kernel_table[i];
	return NULL;
}
