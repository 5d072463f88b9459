/* The atomic writer: every file ticklab writes goes through tl_out_open and
 * tl_out_commit (a temporary beside the target, fsynced and renamed), so a
 * reader never sees a partial file and a failure clobbers nothing. */
#include "config.h"

#include "io/atomic.h"

#include "base/file_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* strerror, but EFBIG (SIGXFSZ ignored, cli/main.c) says what to change. */
static const char *write_error(int err)
{
	return err == EFBIG ? "file size limit reached (ulimit -f)" : strerror(err);
}

static int write_stdout(int (*emit)(FILE *f, void *ctx), void *ctx, char *why, size_t whylen)
{
	errno = 0;
	if (emit(stdout, ctx) < 0 || fflush(stdout) == EOF || ferror(stdout)) {
		snprintf(why, whylen, "cannot write to standard output: %s",
			 errno ? write_error(errno) : "write error");
		return -1;
	}
	return 0;
}

/* Best effort: makes the rename itself durable. */
static void sync_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, (size_t)(slash - path) + 1) : strdup(".");
	int fd;

	if (!dir)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
	free(dir);
}

/* The file a chain of symlinks at path ends at (which may not exist yet:
 * a dangling link names the file to create). Relative targets are taken
 * from the link's directory. NULL with errno set (ELOOP, ENOMEM, ...). */
char *tl_out_target(const char *path)
{
	char *cur = strdup(path);

	for (int depth = 0; cur; depth++) {
		struct stat st;
		char target[4096];
		ssize_t n;
		char *next;

		if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode))
			return cur;
		if (depth == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		n = readlink(cur, target, sizeof target - 1);
		if (n < 0) {
			free(cur);
			return NULL;
		}
		target[n] = '\0';
		if (target[0] == '/' || !strrchr(cur, '/')) {
			next = strdup(target);
		} else {
			size_t dirlen = (size_t)(strrchr(cur, '/') - cur) + 1;
			next = malloc(dirlen + (size_t)n + 1);
			if (next)
				snprintf(next, dirlen + (size_t)n + 1, "%.*s%s", (int)dirlen, cur, target);
		}
		free(cur);
		cur = next;
	}
	return NULL;
}

const char *tl_out_special_why(const char *path, const char *kind)
{
	static _Thread_local char msg[1200];

	snprintf(msg, sizeof msg, "cannot write '%.900s': it is %s, not a regular file (accepted: "
				  "a regular file, or a path that does not exist yet)",
		 path, kind);
	return msg;
}

struct tl_out {
	char *path;    /* what the caller named (for messages) */
	char *target;  /* the file replaced: path with its symlinks followed */
	char *tmpname; /* the named temporary (mkstemp), or NULL */
	int fd;
	bool in_place;  /* standard output: written where it is */
	bool anonymous; /* O_TMPFILE: no name until committed */
	bool exists;    /* target was a regular file: keep its mode */
	struct stat st;
};

static void out_free(struct tl_out *o)
{
	free(o->path);
	free(o->target);
	free(o->tmpname);
	free(o);
}

static struct tl_out *out_fail(struct tl_out *o, int err, char *why, size_t whylen)
{
	snprintf(why, whylen, "cannot write '%s': %s", o->path, write_error(err));
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmpname)
		unlink(o->tmpname);
	out_free(o);
	return NULL;
}

struct tl_out *tl_out_open(const char *path, char *why, size_t whylen)
{
	struct tl_out *o;
	const char *slash, *base;
	size_t dirlen, len;
	mode_t mask;

	o = calloc(1, sizeof *o);
	if (!o || !(o->path = strdup(path))) {
		free(o);
		snprintf(why, whylen, "cannot write '%s': out of memory", path);
		return NULL;
	}
	o->fd = -1;
	if (strcmp(path, "-") == 0) {
		o->in_place = true;
		return o;
	}
	/* Only a regular file (or a new one) is written. Opening a FIFO for
	 * writing waits for a reader, and a device is not a file to keep: both
	 * are refused as inputs are, and "-" is the way to standard output. */
	if (stat(path, &o->st) == 0 && !S_ISREG(o->st.st_mode)) {
		if (S_ISDIR(o->st.st_mode))
			snprintf(why, whylen, "cannot write '%s': it is a directory", path);
		else
			snprintf(why, whylen, "%s", tl_out_special_why(path, tl_file_kind(o->st.st_mode)));
		out_free(o);
		return NULL;
	}
	o->exists = stat(path, &o->st) == 0;
	/* A symlink is followed: the file it points at is replaced, not the link. */
	o->target = tl_out_target(path);
	if (!o->target)
		return out_fail(o, errno, why, whylen);
	slash = strrchr(o->target, '/');
	dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;
	base = slash ? slash + 1 : o->target;
	if (*base == '\0') {
		snprintf(why, whylen, "cannot write '%s': the path names a directory, not a file", path);
		out_free(o);
		return NULL;
	}
	mask = umask(0);
	umask(mask);
#ifdef O_TMPFILE
	/* An anonymous temporary: a kill -9 before the commit leaves nothing. */
	{
		char *dir = dirlen ? strndup(o->target, dirlen) : strdup(".");

		if (!dir)
			return out_fail(o, ENOMEM, why, whylen);
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666 & ~mask);
		free(dir);
		if (o->fd >= 0)
			o->anonymous = true;
		else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
			return out_fail(o, errno, why, whylen);
	}
#endif
	if (o->fd < 0) {
		/* The temporary lives beside the target so rename() stays on one
		 * file system and is atomic. */
		len = strlen(o->target) + 32;
		o->tmpname = malloc(len);
		if (!o->tmpname)
			return out_fail(o, ENOMEM, why, whylen);
		snprintf(o->tmpname, len, "%.*s.%s.XXXXXX", (int)dirlen, o->target, base);
		o->fd = mkstemp(o->tmpname);
		if (o->fd < 0) {
			int err = errno;
			free(o->tmpname);
			o->tmpname = NULL;
			return out_fail(o, err, why, whylen);
		}
	}
	/* An existing file keeps its mode (and, best effort, its owner); a new
	 * one gets the usual 0666 & ~umask, not mkstemp's 0600. */
	if (o->exists) {
		(void)fchmod(o->fd, o->st.st_mode & 07777);
		if (o->st.st_uid != geteuid() || o->st.st_gid != getegid())
			(void)!fchown(o->fd, o->st.st_uid, o->st.st_gid);
	} else {
		(void)fchmod(o->fd, 0666 & ~mask);
	}
	return o;
}

bool tl_out_in_place(const struct tl_out *o)
{
	return o->in_place;
}

void tl_out_abort(struct tl_out *o)
{
	if (!o)
		return;
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmpname)
		unlink(o->tmpname);
	out_free(o);
}

/* Gives the anonymous temporary a name beside the target, then renames it
 * over the target; a new target is linked directly (no name to clean up). */
static int out_link(struct tl_out *o)
{
	char proc[64];
	size_t len = strlen(o->target) + 32;
	const char *slash = strrchr(o->target, '/');
	size_t dirlen = slash ? (size_t)(slash - o->target) + 1 : 0;

	snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
	if (linkat(AT_FDCWD, proc, AT_FDCWD, o->target, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno != EEXIST)
		return -1;
	o->tmpname = malloc(len);
	if (!o->tmpname) {
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < 100; i++) {
		snprintf(o->tmpname, len, "%.*s.%s.%06x", (int)dirlen, o->target,
			 o->target + dirlen, (unsigned)(rand() & 0xffffff));
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmpname, AT_SYMLINK_FOLLOW) == 0)
			return rename(o->tmpname, o->target);
		if (errno != EEXIST)
			break;
	}
	free(o->tmpname);
	o->tmpname = NULL;
	return -1;
}

int tl_out_commit(struct tl_out *o, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		  size_t whylen)
{
	FILE *f;
	int err, ok;

	if (strcmp(o->path, "-") == 0) {
		out_free(o);
		return write_stdout(emit, ctx, why, whylen);
	}
	f = fdopen(dup(o->fd), "w");
	if (!f) {
		err = errno;
		goto fail;
	}
	errno = 0;
	ok = emit(f, ctx) == 0 && fflush(f) != EOF && !ferror(f) &&
	     (o->in_place || fsync(o->fd) == 0);
	err = errno ? errno : EIO;
	if (fclose(f) != 0 && ok) {
		ok = 0;
		err = errno;
	}
	if (!ok)
		goto fail;
	if (!o->in_place) {
		if (o->anonymous ? out_link(o) != 0 : rename(o->tmpname, o->target) != 0) {
			err = errno;
			goto fail;
		}
		free(o->tmpname);
		o->tmpname = NULL;
		sync_dir(o->target);
	}
	close(o->fd);
	out_free(o);
	return 0;
fail:
	snprintf(why, whylen, "cannot write '%s': %s", o->path, write_error(err));
	tl_out_abort(o);
	return -1;
}

int tl_write_atomic(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		    size_t whylen)
{
	struct tl_out *o = tl_out_open(path, why, whylen);

	return o ? tl_out_commit(o, emit, ctx, why, whylen) : -1;
}

static int emit_json(FILE *f, void *ctx)
{
	const json_t *doc = ctx;

	if (json_dumpf(doc, f, JSON_COMPACT | JSON_REAL_PRECISION(17)) != 0)
		return -1;
	return fputc('\n', f) == EOF ? -1 : 0;
}

int tl_json_write(const char *path, const json_t *doc, char *why, size_t whylen)
{
	return tl_write_atomic(path, emit_json, (void *)doc, why, whylen);
}

int tl_json_commit(struct tl_out *o, const json_t *doc, char *why, size_t whylen)
{
	return tl_out_commit(o, emit_json, (void *)doc, why, whylen);
}
