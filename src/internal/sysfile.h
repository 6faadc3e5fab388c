/* A small kernel file (sysfs, procfs) read whole with raw system calls:
 * open/read/close through glibc are cancellation points, and the callers
 * run inside a lock call or a wait, which are not. The descriptor lives
 * for the three calls only (O_CLOEXEC). */
#ifndef ST_SYSFILE_H
#define ST_SYSFILE_H

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* path's first size - 1 bytes at most into buf, 0-terminated: their
 * count, or -1 if unreadable or empty. */
static inline int st_read_file(const char *path, char *buf, int size)
{
	int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	long n = syscall(SYS_read, fd, buf, size - 1);
	syscall(SYS_close, fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return (int)n;
}

#endif
