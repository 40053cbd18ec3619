#include "vcf_qrencode.h"

#include <errno.h>
#include <limits.h>
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failure(int code, vcf_qr_status *status, const char *what) {
    snprintf(status->message, sizeof status->message, "%s", what);
    return code;
}

// libqrencode sets errno: ERANGE when the data is larger than version 40 holds, ENOMEM, EINVAL.
static int from_errno(vcf_qr_status *status) {
    switch (errno) {
    case ERANGE: return failure(VCF_QR_TOO_LARGE, status, "more data than a QR code of version 40 holds");
    case ENOMEM: return failure(VCF_QR_NO_MEMORY, status, "out of memory");
    default: return failure(VCF_QR_BAD_ARGUMENT, status, "libqrencode refused the input");
    }
}

int vcf_qr_encode(const unsigned char *data, size_t size, unsigned eci, int level, int min_version,
                  unsigned char **modules, int *width, int *version, vcf_qr_status *status) {
    memset(status, 0, sizeof *status);
    *modules = NULL;
    *width = 0;
    *version = 0;
    if (level < VCF_QR_LEVEL_L || level > VCF_QR_LEVEL_H || min_version < 0 || min_version > 40) {
        return failure(VCF_QR_BAD_ARGUMENT, status, "level or version out of range");
    }
    // libqrencode counts in int; anything near that is far beyond version 40 anyway.
    if (size > INT_MAX / 8) return failure(VCF_QR_TOO_LARGE, status, "more data than a QR code of version 40 holds");
    QRinput *input = QRinput_new2(min_version, (QRecLevel)level);
    if (input == NULL) return from_errno(status);
    if ((eci != 0 && QRinput_appendECIheader(input, eci) != 0)
        || QRinput_append(input, QR_MODE_8, (int)size, size > 0 ? data : (const unsigned char *)"") != 0) {
        int result = from_errno(status);
        QRinput_free(input);
        return result;
    }
    QRcode *code = QRcode_encodeInput(input);
    QRinput_free(input);
    if (code == NULL) return from_errno(status);
    size_t count = (size_t)code->width * (size_t)code->width;
    unsigned char *matrix = malloc(count);
    if (matrix == NULL) {
        QRcode_free(code);
        return failure(VCF_QR_NO_MEMORY, status, "out of memory");
    }
    // Bit 0 is the module's colour; the other bits say what the module is for, which no caller needs.
    for (size_t i = 0; i < count; i++) matrix[i] = code->data[i] & 1;
    *modules = matrix;
    *width = code->width;
    *version = code->version;
    QRcode_free(code);
    return VCF_QR_OK;
}

void vcf_qr_free(void *pointer) { free(pointer); }
