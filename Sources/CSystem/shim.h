#ifndef CORESEED_CSYSTEM_SHIM_H
#define CORESEED_CSYSTEM_SHIM_H
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#if defined(__APPLE__)
#include <sys/param.h>
#else
#include <sys/syscall.h>
#include <unistd.h>
#endif

/// Swaps two existing paths in one step: renameat2(RENAME_EXCHANGE) on Linux (glibc declares it only
/// under _GNU_SOURCE, which Swift's Glibc module does not set, so the system call is made here),
/// renamex_np(RENAME_SWAP) on macOS. Returns 0, or -1 with errno set (EINVAL or ENOSYS where the
/// file system or kernel cannot swap).
static inline int coreseed_rename_exchange(const char *first, const char *second) {
#if defined(__APPLE__)
    return renamex_np(first, second, RENAME_SWAP);
#elif defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, 2 /* RENAME_EXCHANGE */);
#else
    errno = ENOSYS;
    return -1;
#endif
}
#endif
