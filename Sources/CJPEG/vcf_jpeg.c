#include "vcf_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

// The error manager: error_exit records the message and jumps back to the call's setjmp; output_message is
// silent so nothing reaches stderr; warnings are counted and the first one kept.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    vcf_jpeg_status *status;
} error_manager;

static void record_message(j_common_ptr cinfo) {
    error_manager *manager = (error_manager *)cinfo->err;
    if (manager->status->message[0] == 0) {
        char text[JMSG_LENGTH_MAX];
        (*cinfo->err->format_message)(cinfo, text);
        snprintf(manager->status->message, sizeof manager->status->message, "%s", text);
    }
}

static void on_error(j_common_ptr cinfo) {
    error_manager *manager = (error_manager *)cinfo->err;
    manager->status->message[0] = 0; // an error outranks an earlier warning
    record_message(cinfo);
    longjmp(manager->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    if (level < 0) { // a warning: libjpeg recovers (for example fills a truncated scan with gray)
        error_manager *manager = (error_manager *)cinfo->err;
        manager->status->warnings += 1;
        record_message(cinfo);
    }
}

static void silent(j_common_ptr cinfo) { (void)cinfo; }

static void install(error_manager *manager, vcf_jpeg_status *status) {
    memset(status, 0, sizeof *status);
    jpeg_std_error(&manager->base);
    manager->base.error_exit = on_error;
    manager->base.emit_message = on_message;
    manager->base.output_message = silent;
    manager->status = status;
}

static int map_color_space(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return VCF_JPEG_GRAY;
    case JCS_RGB: return VCF_JPEG_RGB;
    case JCS_YCbCr: return VCF_JPEG_YCBCR;
    case JCS_CMYK: return VCF_JPEG_CMYK;
    case JCS_YCCK: return VCF_JPEG_YCCK;
    default: return VCF_JPEG_OTHER;
    }
}

int vcf_jpeg_read_header(const unsigned char *data, size_t size, vcf_jpeg_header *header, vcf_jpeg_status *status) {
    struct jpeg_decompress_struct cinfo;
    error_manager manager;
    install(&manager, status);
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return VCF_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    header->width = (int)cinfo.image_width;
    header->height = (int)cinfo.image_height;
    header->components = cinfo.num_components;
    header->color_space = map_color_space(cinfo.jpeg_color_space);
    header->progressive = cinfo.progressive_mode ? 1 : 0;
    header->adobe_marker = cinfo.saw_Adobe_marker ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return VCF_JPEG_OK;
}

// Adobe applications store CMYK inverted (0 means full ink); libjpeg hands the stored values through.
static void cmyk_to_rgb(const unsigned char *in, unsigned char *out, int count, int inverted) {
    for (int i = 0; i < count; i++, in += 4, out += 3) {
        unsigned c = in[0], m = in[1], y = in[2], k = in[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        out[0] = (unsigned char)((c * k + 127) / 255);
        out[1] = (unsigned char)((m * k + 127) / 255);
        out[2] = (unsigned char)((y * k + 127) / 255);
    }
}

int vcf_jpeg_decode(const unsigned char *data, size_t size, int scale_num, unsigned long long max_pixels,
                    int gray_output, unsigned char **pixels, int *width, int *height, int *channels,
                    vcf_jpeg_status *status) {
    struct jpeg_decompress_struct cinfo;
    error_manager manager;
    // Read after a longjmp, so they live in memory rather than registers.
    unsigned char *volatile buffer = NULL;
    unsigned char *volatile row = NULL;
    install(&manager, status);
    *pixels = NULL;
    if (scale_num < 1 || scale_num > 16) {
        snprintf(status->message, sizeof status->message, "scale %d/8 is out of range", scale_num);
        return VCF_JPEG_BAD_ARGUMENT;
    }
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&cinfo);
        free(buffer);
        free(row);
        return VCF_JPEG_CORRUPT;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    if ((unsigned long long)cinfo.image_width * cinfo.image_height > max_pixels) {
        snprintf(status->message, sizeof status->message, "%ux%u pixels is over the limit of %llu",
                 cinfo.image_width, cinfo.image_height, max_pixels);
        jpeg_destroy_decompress(&cinfo);
        return VCF_JPEG_TOO_LARGE;
    }
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    int gray = gray_output && cinfo.jpeg_color_space == JCS_GRAYSCALE;
    cinfo.out_color_space = cmyk ? JCS_CMYK : (gray ? JCS_GRAYSCALE : JCS_RGB);
    cinfo.scale_num = (unsigned)scale_num;
    cinfo.scale_denom = 8;
    cinfo.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&cinfo);
    int out_channels = gray ? 1 : 3;
    size_t stride = (size_t)cinfo.output_width * (size_t)out_channels;
    buffer = malloc(stride * cinfo.output_height);
    if (cmyk) row = malloc((size_t)cinfo.output_width * 4);
    if (buffer == NULL || (cmyk && row == NULL)) {
        snprintf(status->message, sizeof status->message, "out of memory for %ux%u pixels",
                 cinfo.output_width, cinfo.output_height);
        jpeg_destroy_decompress(&cinfo);
        free(buffer);
        free(row);
        return VCF_JPEG_NO_MEMORY;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        unsigned char *target = buffer + stride * cinfo.output_scanline;
        if (cmyk) {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(&cinfo, rows, 1);
            cmyk_to_rgb(row, target, (int)cinfo.output_width, cinfo.saw_Adobe_marker);
        } else {
            JSAMPROW rows[1] = { target };
            jpeg_read_scanlines(&cinfo, rows, 1);
        }
    }
    jpeg_finish_decompress(&cinfo);
    *pixels = buffer;
    *width = (int)cinfo.output_width;
    *height = (int)cinfo.output_height;
    *channels = out_channels;
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return VCF_JPEG_OK;
}

int vcf_jpeg_encode(const unsigned char *pixels, int width, int height, int channels, int quality, int subsample,
                    unsigned char **out, size_t *out_size, vcf_jpeg_status *status) {
    struct jpeg_compress_struct cinfo;
    error_manager manager;
    install(&manager, status);
    *out = NULL;
    *out_size = 0;
    if (width < 1 || height < 1 || (channels != 1 && channels != 3) || quality < 1 || quality > 100) {
        snprintf(status->message, sizeof status->message, "cannot encode %dx%d, %d channels, quality %d",
                 width, height, channels, quality);
        return VCF_JPEG_BAD_ARGUMENT;
    }
    // libjpeg grows the output buffer through this holder; it lives on the heap so its contents are still
    // valid after a longjmp (a plain local would not be).
    struct { unsigned char *data; unsigned long size; } *volatile holder = calloc(1, sizeof *holder);
    if (holder == NULL) {
        snprintf(status->message, sizeof status->message, "out of memory");
        return VCF_JPEG_NO_MEMORY;
    }
    cinfo.err = &manager.base;
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(holder->data);
        free(holder);
        return VCF_JPEG_CORRUPT;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &holder->data, &holder->size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = channels;
    cinfo.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    // force_baseline keeps 8-bit quantisation tables, so low qualities stay SOF0 instead of SOF1.
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    // The float DCT rounds less than the integer one: at the same quality the file is smaller and closer to
    // the source (measured: a 400 px avatar fits quality 61 in 16,000 bytes instead of 60; at quality 100 a
    // photo is 1-5% smaller with higher SSIM). Output is still the same for the same input on one machine;
    // libjpeg-turbo notes that another CPU architecture may round the float DCT differently.
    cinfo.dct_method = JDCT_FLOAT;
    if (channels == 3) {
        int factor = subsample ? 2 : 1;
        cinfo.comp_info[0].h_samp_factor = factor;
        cinfo.comp_info[0].v_samp_factor = factor;
        cinfo.comp_info[1].h_samp_factor = 1;
        cinfo.comp_info[1].v_samp_factor = 1;
        cinfo.comp_info[2].h_samp_factor = 1;
        cinfo.comp_info[2].v_samp_factor = 1;
    }
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)width * (size_t)channels;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = { (JSAMPROW)(pixels + stride * cinfo.next_scanline) };
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = holder->data;
    *out_size = holder->size;
    free(holder);
    return VCF_JPEG_OK;
}

void vcf_free(void *pointer) { free(pointer); }
