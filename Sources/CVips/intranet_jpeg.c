#include "intranet_jpeg.h"

#include <glib.h>
#include <setjmp.h>
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
// After stdio.h, whose FILE it uses.
#include <jpeglib.h>

/// libjpeg's errors end the rewrite (its default would exit the process); its warnings are
/// counted, never printed.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf *failed;
    int warnings;
} rewrite_errors;

static void rewrite_fail(j_common_ptr info) {
    longjmp(*((rewrite_errors *)info->err)->failed, 1);
}

static void rewrite_message(j_common_ptr info, int level) {
    if (level < 0) ((rewrite_errors *)info->err)->warnings += 1;
}

static void rewrite_errors_init(rewrite_errors *errors, jmp_buf *failed) {
    jpeg_std_error(&errors->manager);
    errors->manager.error_exit = rewrite_fail;
    errors->manager.emit_message = rewrite_message;
    errors->failed = failed;
    errors->warnings = 0;
}

int intranet_jpeg_rewrite(const char *path, void **bytes, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct destination;
    rewrite_errors source_errors, destination_errors;
    jmp_buf failed;
    rewrite_errors_init(&source_errors, &failed);
    rewrite_errors_init(&destination_errors, &failed);
    source.err = &source_errors.manager;
    destination.err = &destination_errors.manager;
    // Set by jpeg_mem_dest and libjpeg through its address (so current after a longjmp).
    unsigned char *written = NULL;
    unsigned long written_length = 0;
    jpeg_create_decompress(&source);
    jpeg_create_compress(&destination);
    if (setjmp(failed)) {
        jpeg_destroy_compress(&destination);
        jpeg_destroy_decompress(&source);
        fclose(file);
        free(written);
        return -1;
    }
    jpeg_stdio_src(&source, file);
    // No marker is kept: jpeg_save_markers is never called, so APPn and COM segments are skipped.
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&source);
    // The frame (size, components, sampling, quantisation tables) as it was; sequential and
    // Huffman-coded whatever the source was (progressive or arithmetic), with libjpeg's standard
    // tables: computing optimal ones would double the time for about a tenth fewer bytes, and
    // the copy stays about the size of the upload.
    jpeg_copy_critical_parameters(&source, &destination);
    destination.optimize_coding = FALSE;
    jpeg_mem_dest(&destination, &written, &written_length);
    jpeg_write_coefficients(&destination, coefficients);
    jpeg_finish_compress(&destination);
    jpeg_finish_decompress(&source);
    int warnings = source_errors.warnings + destination_errors.warnings;
    jpeg_destroy_compress(&destination);
    jpeg_destroy_decompress(&source);
    fclose(file);
    if (warnings > 0) {
        free(written);
        return 1;
    }
    // Released with g_free, as libvips's buffers are.
    *bytes = g_memdup2(written, written_length);
    *length = written_length;
    free(written);
    return 0;
}

/// Frees the pixels of an image made by intranet_jpeg_decode_scaled when it closes.
static void free_pixels(VipsImage *image, void *pixels) {
    (void)image;
    g_free(pixels);
}

int intranet_jpeg_decode_scaled(const char *path, int min_width, void **image, int *width, int *height) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    struct jpeg_decompress_struct source;
    rewrite_errors errors;
    jmp_buf failed;
    rewrite_errors_init(&errors, &failed);
    source.err = &errors.manager;
    // Set after setjmp: volatile, so that it is current after a longjmp.
    unsigned char *volatile pixels = NULL;
    jpeg_create_decompress(&source);
    if (setjmp(failed)) {
        jpeg_destroy_decompress(&source);
        fclose(file);
        g_free(pixels);
        return -1;
    }
    jpeg_stdio_src(&source, file);
    jpeg_read_header(&source, TRUE);
    int bands;
    switch (source.jpeg_color_space) {
    case JCS_GRAYSCALE:
        source.out_color_space = JCS_GRAYSCALE;
        bands = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        source.out_color_space = JCS_RGB;
        bands = 3;
        break;
    default:
        // CMYK and YCCK are converted by libvips, with a profile.
        jpeg_destroy_decompress(&source);
        fclose(file);
        return 1;
    }
    // The fewest eighths that keep `min_width` pixels (libjpeg scales by 1/8 to 8/8 while
    // computing the inverse DCT).
    int eighths = 8;
    while (eighths > 1 && (long)source.image_width * (eighths - 1) >= (long)min_width * 8) eighths -= 1;
    source.scale_num = (unsigned int)eighths;
    source.scale_denom = 8;
    jpeg_start_decompress(&source);
    size_t row = (size_t)source.output_width * (size_t)bands;
    pixels = g_malloc(row * source.output_height);
    while (source.output_scanline < source.output_height) {
        JSAMPROW rows[1] = {pixels + row * source.output_scanline};
        jpeg_read_scanlines(&source, rows, 1);
    }
    jpeg_finish_decompress(&source);
    int warnings = errors.warnings;
    int decoded_width = (int)source.output_width, decoded_height = (int)source.output_height;
    jpeg_destroy_decompress(&source);
    fclose(file);
    if (warnings > 0) {
        g_free(pixels);
        return 1;
    }
    VipsImage *decoded = vips_image_new_from_memory(pixels, row * (size_t)decoded_height, decoded_width, decoded_height, bands, VIPS_FORMAT_UCHAR);
    if (!decoded) {
        g_free(pixels);
        return -1;
    }
    decoded->Type = bands == 1 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB;
    g_signal_connect(decoded, "postclose", G_CALLBACK(free_pixels), pixels);
    *image = decoded;
    *width = decoded_width;
    *height = decoded_height;
    return 0;
}
