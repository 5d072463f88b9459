#include "config.h"

#include "base/file_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

const char *tl_file_kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO (named pipe)";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

int tl_file_open_regular(const char *path, uint64_t max_bytes, uint64_t *size, const char **kind)
{
	struct stat st;
	int fd, fl;

	*kind = NULL;
	*size = 0;
	/* O_NONBLOCK: opening a FIFO with no writer must return, not wait. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		/* A socket cannot be opened at all (ENXIO): say what it is. */
		if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
			*kind = tl_file_kind(st.st_mode);
		errno = e;
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		*kind = tl_file_kind(st.st_mode);
		close(fd);
		errno = EINVAL;
		return -1;
	}
	*size = (uint64_t)st.st_size;
	if (max_bytes && *size > max_bytes) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}
