#include "CMallocArenas.h"

// Any C library header says which library this is (glibc's define __GLIBC__).
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void vcf_limit_malloc_arenas(int count) {
#if defined(__GLIBC__)
    // glibc otherwise allows eight arenas per processor, and memory freed in one is not reused by another.
    if (count > 0) mallopt(M_ARENA_MAX, count);
#else
    (void)count;
#endif
}
