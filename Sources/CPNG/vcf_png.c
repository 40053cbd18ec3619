#include "vcf_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_message(const png_image *image, vcf_png_status *status) {
    snprintf(status->message, sizeof status->message, "%s", image->message);
}

static unsigned long be32(const unsigned char *p) {
    return (unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | (unsigned long)p[3];
}

// Chunks decoding does not need: text and the ICC profile (libpng reads the profile only to recognise sRGB).
static int is_dropped(const unsigned char *type) {
    return memcmp(type, "tEXt", 4) == 0 || memcmp(type, "zTXt", 4) == 0 || memcmp(type, "iTXt", 4) == 0
        || memcmp(type, "iCCP", 4) == 0;
}

// libpng allocates an ancillary chunk's declared length before reading it, and a compressed text or profile's
// declared length before inflating it, with no limit in the system's build (1.6.39 here): a 50-byte file claiming a 500 MB
// tEXt chunk made it allocate 500 MB. So it is handed a copy that holds only chunks the input really holds
// (a chunk claiming more bytes than are left is refused here), without the chunks above. The Swift side looks
// for metadata in the original bytes. On success *copy is malloc'd; the caller frees it after libpng is done.
#define LETTER(c) (((c) >= 'A' && (c) <= 'Z') || ((c) >= 'a' && (c) <= 'z') ? (char)(c) : '?')

static int filtered(const unsigned char *data, size_t size, unsigned char **copy, size_t *copy_size,
                    vcf_png_status *status) {
    *copy = NULL;
    *copy_size = 0;
    unsigned char *out = malloc(size > 0 ? size : 1);
    if (out == NULL) {
        snprintf(status->message, sizeof status->message, "out of memory for %zu bytes", size);
        return VCF_PNG_NO_MEMORY;
    }
    size_t at = size < 8 ? size : 8, written = at;
    int ended = 0;
    if (at > 0) memcpy(out, data, at);
    while (!ended && at + 12 <= size) {
        unsigned long length = be32(data + at);
        const unsigned char *type = data + at + 4;
        if (length > size - at - 12) {
            snprintf(status->message, sizeof status->message,
                     "chunk %c%c%c%c claims %lu bytes, but only %zu follow", LETTER(type[0]), LETTER(type[1]),
                     LETTER(type[2]), LETTER(type[3]), length, size - at - 12);
            free(out);
            return VCF_PNG_CORRUPT;
        }
        size_t total = 12 + (size_t)length;
        if (!is_dropped(type)) {
            memcpy(out + written, data + at, total);
            written += total;
        }
        at += total;
        ended = memcmp(type, "IEND", 4) == 0;
    }
    if (!ended && at < size) {
        // A piece too short for a chunk header: left for libpng to report as it reports truncation.
        memcpy(out + written, data + at, size - at);
        written += size - at;
    }
    *copy = out;
    *copy_size = written;
    return VCF_PNG_OK;
}

static int begin(png_image *image, const unsigned char *data, size_t size, unsigned char **copy,
                 vcf_png_status *status) {
    memset(status, 0, sizeof *status);
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    size_t copy_size = 0;
    int result = filtered(data, size, copy, &copy_size, status);
    if (result != VCF_PNG_OK) return result;
    if (!png_image_begin_read_from_memory(image, *copy, copy_size)) {
        copy_message(image, status);
        png_image_free(image);
        free(*copy);
        *copy = NULL;
        return VCF_PNG_CORRUPT;
    }
    if (image->warning_or_error & PNG_IMAGE_WARNING) {
        status->warnings += 1;
        copy_message(image, status);
    }
    return VCF_PNG_OK;
}

int vcf_png_read_header(const unsigned char *data, size_t size, int *width, int *height, int *has_alpha,
                        int *has_color, vcf_png_status *status) {
    png_image image;
    unsigned char *copy = NULL;
    int result = begin(&image, data, size, &copy, status);
    if (result != VCF_PNG_OK) return result;
    *width = (int)image.width;
    *height = (int)image.height;
    *has_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) ? 1 : 0;
    *has_color = (image.format & PNG_FORMAT_FLAG_COLOR) ? 1 : 0;
    png_image_free(&image);
    free(copy);
    return VCF_PNG_OK;
}

int vcf_png_decode(const unsigned char *data, size_t size, unsigned long long max_pixels, int gray_output,
                   unsigned char **pixels, int *width, int *height, int *channels, vcf_png_status *status) {
    png_image image;
    unsigned char *copy = NULL;
    *pixels = NULL;
    int result = begin(&image, data, size, &copy, status);
    if (result != VCF_PNG_OK) return result;
    if ((unsigned long long)image.width * image.height > max_pixels) {
        snprintf(status->message, sizeof status->message, "%ux%u pixels is over the limit of %llu",
                 image.width, image.height, max_pixels);
        png_image_free(&image);
        free(copy);
        return VCF_PNG_TOO_LARGE;
    }
    int gray = gray_output && !(image.format & PNG_FORMAT_FLAG_COLOR);
    int alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) ? 1 : 0;
    // Read with alpha and composite here on the 8-bit sRGB values, as browsers and contact apps do; libpng's own
    // background option composites in linear light, which makes half-transparent edges lighter than users see.
    image.format = gray ? (alpha ? PNG_FORMAT_GA : PNG_FORMAT_GRAY) : (alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB);
    size_t in_channels = PNG_IMAGE_PIXEL_CHANNELS(image.format);
    size_t count = (size_t)image.width * image.height;
    unsigned char *buffer = malloc(count * in_channels);
    if (buffer == NULL) {
        snprintf(status->message, sizeof status->message, "out of memory for %ux%u pixels", image.width,
                 image.height);
        png_image_free(&image);
        free(copy);
        return VCF_PNG_NO_MEMORY;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        copy_message(&image, status);
        png_image_free(&image);
        free(buffer);
        free(copy);
        return VCF_PNG_CORRUPT;
    }
    if ((image.warning_or_error & PNG_IMAGE_WARNING) && status->message[0] == 0) {
        status->warnings += 1;
        copy_message(&image, status);
    }
    int out_channels = gray ? 1 : 3;
    if (alpha) {
        // In place: each output pixel is no further along than its input pixel.
        for (size_t i = 0; i < count; i++) {
            const unsigned char *in = buffer + i * in_channels;
            unsigned char *out = buffer + i * (size_t)out_channels;
            unsigned a = in[in_channels - 1];
            for (int c = 0; c < out_channels; c++) {
                out[c] = (unsigned char)((in[c] * a + 255 * (255 - a) + 127) / 255);
            }
        }
    }
    *pixels = buffer;
    *width = (int)image.width;
    *height = (int)image.height;
    *channels = out_channels;
    png_image_free(&image);
    free(copy);
    return VCF_PNG_OK;
}

int vcf_png_encode_gray(const unsigned char *pixels, int width, int height, unsigned char **png, size_t *size,
                        vcf_png_status *status) {
    memset(status, 0, sizeof *status);
    *png = NULL;
    *size = 0;
    if (width <= 0 || height <= 0) {
        snprintf(status->message, sizeof status->message, "%dx%d pixels is no image", width, height);
        return VCF_PNG_WRITE_FAILED;
    }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_GRAY;
    // The first call only measures; the second writes into a buffer of that size.
    size_t needed = 0;
    if (!png_image_write_to_memory(&image, NULL, &needed, 0, pixels, 0, NULL)) {
        copy_message(&image, status);
        png_image_free(&image);
        return VCF_PNG_WRITE_FAILED;
    }
    unsigned char *buffer = malloc(needed > 0 ? needed : 1);
    if (buffer == NULL) {
        snprintf(status->message, sizeof status->message, "out of memory for %zu bytes", needed);
        png_image_free(&image);
        return VCF_PNG_NO_MEMORY;
    }
    if (!png_image_write_to_memory(&image, buffer, &needed, 0, pixels, 0, NULL)) {
        copy_message(&image, status);
        png_image_free(&image);
        free(buffer);
        return VCF_PNG_WRITE_FAILED;
    }
    png_image_free(&image);
    *png = buffer;
    *size = needed;
    return VCF_PNG_OK;
}

void vcf_png_free(void *pointer) { free(pointer); }
