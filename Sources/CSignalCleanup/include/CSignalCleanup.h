#ifndef VCF_SIGNAL_CLEANUP_H
#define VCF_SIGNAL_CLEANUP_H

// Temporary files removed when SIGINT, SIGTERM or SIGHUP ends the process.
//
// The paths live in a fixed table of C strings built before the signal can arrive, so the handler does
// nothing but unlink(2) and raise(3), both async-signal-safe: no allocation, no lock, no Swift runtime.

/// How many temporary files can be registered at once.
#define VCF_CLEANUP_SLOTS 8
/// The longest path a slot holds, terminating NUL included.
#define VCF_CLEANUP_PATH_MAX 4096

/// Installs the handler for SIGINT, SIGTERM and SIGHUP, except for a signal the process was started with
/// ignored (a background job's SIGINT stays ignored). Safe to call more than once.
void vcf_cleanup_install(void);

/// Registers `path` (a NUL-terminated byte string) for removal; returns its slot, or -1 when the table is
/// full or the path is too long (the file is then left to the next run's stale-file cleanup).
int vcf_cleanup_register(const char *path);

/// Forgets the file in `slot` (after it was renamed or removed).
void vcf_cleanup_unregister(int slot);

#endif
