#ifndef STRATA_STATFS_SHIM_H
#define STRATA_STATFS_SHIM_H
// Linux's statfs(2), which Swift's Glibc module leaves out: the type of file system a file is
// on (Darwin's module has it). Nothing to link: it is in libc.
#include <sys/vfs.h>
#endif
