#ifndef VCF_MALLOC_ARENAS_H
#define VCF_MALLOC_ARENAS_H

/// Limits the C library's heaps ("arenas") to `count`, where it has such a setting (glibc); elsewhere nothing.
void vcf_limit_malloc_arenas(int count);

#endif
