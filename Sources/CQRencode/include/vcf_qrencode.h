// One coarse C function over the system libqrencode: bytes in, a module matrix out. libqrencode reports errors
// through errno and never jumps, so no setjmp is needed. No libqrencode type appears here.
#ifndef VCF_QRENCODE_H
#define VCF_QRENCODE_H

#include <stddef.h>

/// Outcome of a call: 0 success, otherwise one of the codes below, with `message` set.
enum {
    VCF_QR_OK = 0,
    VCF_QR_TOO_LARGE = 1,     // more data than version 40 at this level holds
    VCF_QR_NO_MEMORY = 2,
    VCF_QR_BAD_ARGUMENT = 3,  // a level, version or ECI designator libqrencode refuses
};

/// Error correction levels, in libqrencode's order: L (7%), M (15%), Q (25%), H (30%) of codewords restorable.
enum {
    VCF_QR_LEVEL_L = 0,
    VCF_QR_LEVEL_M = 1,
    VCF_QR_LEVEL_Q = 2,
    VCF_QR_LEVEL_H = 3,
};

/// The error of one call.
typedef struct {
    char message[160];
} vcf_qr_status;

/// Encodes `size` bytes as one 8-bit (byte mode) segment, preceded by an ECI designator when `eci` is not 0
/// (26 is UTF-8), at error correction `level`, in the smallest version from `min_version` (0 or 1 for the
/// smallest that holds the data) up to 40. On success *modules is a malloc'd `width` x `width` matrix, row by
/// row, one byte per module (1 dark, 0 light), freed with vcf_qr_free, and *version is the version used.
int vcf_qr_encode(const unsigned char *data, size_t size, unsigned eci, int level, int min_version,
                  unsigned char **modules, int *width, int *version, vcf_qr_status *status);

/// Frees a buffer returned by this module.
void vcf_qr_free(void *pointer);

#endif
