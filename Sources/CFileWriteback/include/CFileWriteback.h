#ifndef VCF_FILE_WRITEBACK_H
#define VCF_FILE_WRITEBACK_H

/// Starts writing `length` bytes of `descriptor` from `offset` to disk and returns without waiting (Linux's
/// sync_file_range with SYNC_FILE_RANGE_WRITE), so a later fsync has less left to wait for; elsewhere it does
/// nothing. Returns 0, or -1 with errno set. Advice only: it makes nothing durable by itself.
int vcf_start_writeback(int descriptor, long long offset, long long length);

#endif
