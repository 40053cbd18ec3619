// sync_file_range is a GNU extension, declared by fcntl.h only with _GNU_SOURCE (which Swift's Glibc module
// does not set, so Swift cannot call it directly).
#define _GNU_SOURCE
#include "CFileWriteback.h"

#include <fcntl.h>

int vcf_start_writeback(int descriptor, long long offset, long long length) {
#if defined(__linux__)
    return sync_file_range(descriptor, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE);
#else
    (void)descriptor;
    (void)offset;
    (void)length;
    return 0;
#endif
}
