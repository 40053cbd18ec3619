// Coarse C functions over libpng's simplified API, which runs its own setjmp inside each call and reports
// errors and warnings in the image structure (nothing on stderr). No libpng type appears here.
#ifndef VCF_PNG_H
#define VCF_PNG_H

#include <stddef.h>

/// Outcome of a call: 0 success, otherwise one of the codes below, with `message` set.
enum {
    VCF_PNG_OK = 0,
    VCF_PNG_CORRUPT = 1,
    VCF_PNG_TOO_LARGE = 2,
    VCF_PNG_NO_MEMORY = 3,
    VCF_PNG_WRITE_FAILED = 4,
};

/// Errors and warnings of one call.
typedef struct {
    char message[160];
    int warnings;
} vcf_png_status;

/// Reads the header only: size and whether the image has an alpha channel or colour.
int vcf_png_read_header(const unsigned char *data, size_t size, int *width, int *height, int *has_alpha,
                        int *has_color, vcf_png_status *status);

/// Decodes to 8-bit RGB (3 channels) or gray (1 channel, when gray_output is set and the image has no colour),
/// compositing any alpha over white as a browser shows it. Refuses images over max_pixels from the header,
/// before allocating. On success *pixels is a malloc'd buffer the caller frees with vcf_png_free.
int vcf_png_decode(const unsigned char *data, size_t size, unsigned long long max_pixels, int gray_output,
                   unsigned char **pixels, int *width, int *height, int *channels, vcf_png_status *status);

/// Encodes 8-bit gray pixels (`width` x `height`, row by row, no padding) as a PNG in memory, through libpng's
/// simplified write API (which runs its own setjmp). On success *png is a malloc'd buffer of *size bytes the
/// caller frees with vcf_png_free.
int vcf_png_encode_gray(const unsigned char *pixels, int width, int height, unsigned char **png, size_t *size,
                        vcf_png_status *status);

/// Frees a buffer returned by this module.
void vcf_png_free(void *pointer);

#endif
