// One coarse C function per libjpeg job. Every function sets up its own error manager and setjmp, so a libjpeg
// error returns a code and a message and never longjmps across a Swift frame. No libjpeg type appears here.
#ifndef VCF_JPEG_H
#define VCF_JPEG_H

#include <stddef.h>

/// Outcome of a call: 0 success, otherwise one of the codes below, with `message` set.
enum {
    VCF_JPEG_OK = 0,
    VCF_JPEG_CORRUPT = 1,    // libjpeg refused the data
    VCF_JPEG_TOO_LARGE = 2,  // the frame has more pixels than the caller allows
    VCF_JPEG_NO_MEMORY = 3,
    VCF_JPEG_BAD_ARGUMENT = 4,
};

/// Colour spaces as stored in the frame.
enum {
    VCF_JPEG_GRAY = 1,
    VCF_JPEG_RGB = 2,
    VCF_JPEG_YCBCR = 3,
    VCF_JPEG_CMYK = 4,
    VCF_JPEG_YCCK = 5,
    VCF_JPEG_OTHER = 6,
};

/// Errors and recoverable warnings of one call.
typedef struct {
    char message[160];       // the first error, else the first warning
    int warnings;            // recoverable problems libjpeg worked around (for example a truncated file)
} vcf_jpeg_status;

/// What the header says.
typedef struct {
    int width;
    int height;
    int components;
    int color_space;         // VCF_JPEG_*
    int progressive;
    int adobe_marker;        // an APP14 Adobe marker was seen (CMYK data is then stored inverted)
} vcf_jpeg_header;

/// Reads the header only.
int vcf_jpeg_read_header(const unsigned char *data, size_t size, vcf_jpeg_header *header, vcf_jpeg_status *status);

/// Decodes to interleaved 8-bit samples scaled by scale_num/8 with libjpeg's DCT scaling. Gray frames give one
/// channel when gray_output is set, everything else three (RGB; CMYK and YCCK converted, Adobe inversion
/// honoured). Refuses frames over max_pixels right after reading the header, before allocating. On success
/// *pixels is a malloc'd buffer the caller frees with vcf_free.
int vcf_jpeg_decode(const unsigned char *data, size_t size, int scale_num, unsigned long long max_pixels,
                    int gray_output, unsigned char **pixels, int *width, int *height, int *channels,
                    vcf_jpeg_status *status);

/// Encodes interleaved 8-bit samples (1 channel gray or 3 RGB) as a baseline JPEG with optimized Huffman tables
/// and no metadata beyond the JFIF header; subsample selects 4:2:0 instead of 4:4:4 for colour. On success *out
/// is a malloc'd buffer the caller frees with vcf_free.
int vcf_jpeg_encode(const unsigned char *pixels, int width, int height, int channels, int quality, int subsample,
                    unsigned char **out, size_t *out_size, vcf_jpeg_status *status);

/// Frees a buffer returned by this module.
void vcf_free(void *pointer);

#endif
