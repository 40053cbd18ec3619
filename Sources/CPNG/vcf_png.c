#include "vcf_png.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void copy_message(const png_image *image, vcf_png_status *status) {
    snprintf(status->message, sizeof status->message, "%s", image->message);
}

static int begin(png_image *image, const unsigned char *data, size_t size, vcf_png_status *status) {
    memset(status, 0, sizeof *status);
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(image, data, size)) {
        copy_message(image, status);
        png_image_free(image);
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
    int result = begin(&image, data, size, status);
    if (result != VCF_PNG_OK) return result;
    *width = (int)image.width;
    *height = (int)image.height;
    *has_alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) ? 1 : 0;
    *has_color = (image.format & PNG_FORMAT_FLAG_COLOR) ? 1 : 0;
    png_image_free(&image);
    return VCF_PNG_OK;
}

int vcf_png_decode(const unsigned char *data, size_t size, unsigned long long max_pixels, int gray_output,
                   unsigned char **pixels, int *width, int *height, int *channels, vcf_png_status *status) {
    png_image image;
    *pixels = NULL;
    int result = begin(&image, data, size, status);
    if (result != VCF_PNG_OK) return result;
    if ((unsigned long long)image.width * image.height > max_pixels) {
        snprintf(status->message, sizeof status->message, "%ux%u pixels is over the limit of %llu",
                 image.width, image.height, max_pixels);
        png_image_free(&image);
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
        return VCF_PNG_NO_MEMORY;
    }
    if (!png_image_finish_read(&image, NULL, buffer, 0, NULL)) {
        copy_message(&image, status);
        png_image_free(&image);
        free(buffer);
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
    return VCF_PNG_OK;
}

void vcf_png_free(void *pointer) { free(pointer); }
