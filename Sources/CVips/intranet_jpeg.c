#include "intranet_jpeg.h"

#include <glib.h>
#include <setjmp.h>
#include <vips/vips.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/// Where a rewrite writes: a buffer of its own, grown with g_realloc, handed to the caller on
/// success and freed on failure (libjpeg's jpeg_mem_dest keeps the grown buffer to itself until
/// it finishes, so it could be neither freed nor found after an error).
typedef struct {
    struct jpeg_destination_mgr manager;
    unsigned char *bytes;
    size_t capacity;
} rewrite_output;

static void output_start(j_compress_ptr info) {
    rewrite_output *output = (rewrite_output *)info->dest;
    output->capacity = 64 * 1024;
    output->bytes = g_malloc(output->capacity);
    output->manager.next_output_byte = output->bytes;
    output->manager.free_in_buffer = output->capacity;
}

static boolean output_full(j_compress_ptr info) {
    rewrite_output *output = (rewrite_output *)info->dest;
    size_t used = output->capacity;
    output->capacity *= 2;
    output->bytes = g_realloc(output->bytes, output->capacity);
    output->manager.next_output_byte = output->bytes + used;
    output->manager.free_in_buffer = output->capacity - used;
    return TRUE;
}

static void output_end(j_compress_ptr info) {
    (void)info;
}

/// Whether every coefficient fits libjpeg's standard Huffman tables, which code AC values of
/// at most 1,023 and DC differences of at most 2,047 (every DC within ±1,023 keeps them so):
/// libjpeg writes a value past them without complaint, as a broken stream. A baseline file
/// always fits; an arithmetic-coded, progressive or otherwise coded one may not.
static int fits_standard_tables(j_decompress_ptr source, jvirt_barray_ptr *coefficients) {
    for (int component = 0; component < source->num_components; component++) {
        jpeg_component_info *info = &source->comp_info[component];
        for (JDIMENSION row = 0; row < info->height_in_blocks; row++) {
            JBLOCKARRAY blocks = (*source->mem->access_virt_barray)((j_common_ptr)source, coefficients[component], row, 1, FALSE);
            for (JDIMENSION column = 0; column < info->width_in_blocks; column++) {
                for (int k = 0; k < DCTSIZE2; k++) {
                    if (blocks[0][column][k] > 1023 || blocks[0][column][k] < -1023) return 0;
                }
            }
        }
    }
    return 1;
}

/// Whether a progressive file sent every bit of every coefficient: when it did not, a decoder
/// fills in what is missing by smoothing, which a sequential copy of the coefficients would not
/// show.
static int is_complete(j_decompress_ptr source) {
    if (!source->progressive_mode || !source->coef_bits) return 1;
    for (int component = 0; component < source->num_components; component++) {
        for (int k = 0; k < DCTSIZE2; k++) {
            if (source->coef_bits[component][k] != 0) return 0;
        }
    }
    return 1;
}

int intranet_jpeg_rewrite(const char *path, size_t max_bytes, void **bytes, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) return -1;
    // Zeroed, so that destroying what was never created is harmless (libjpeg's example sets
    // its jump before creating, as here).
    struct jpeg_decompress_struct source;
    struct jpeg_compress_struct destination;
    memset(&source, 0, sizeof source);
    memset(&destination, 0, sizeof destination);
    // On the heap, as its buffer changes after setjmp (a local so changed is indeterminate
    // after the longjmp).
    rewrite_output *const output = g_new0(rewrite_output, 1);
    rewrite_errors source_errors, destination_errors;
    jmp_buf failed;
    rewrite_errors_init(&source_errors, &failed);
    rewrite_errors_init(&destination_errors, &failed);
    source.err = &source_errors.manager;
    destination.err = &destination_errors.manager;
    if (setjmp(failed)) {
        jpeg_destroy_compress(&destination);
        jpeg_destroy_decompress(&source);
        fclose(file);
        g_free(output->bytes);
        g_free(output);
        return -1;
    }
    jpeg_create_decompress(&source);
    jpeg_create_compress(&destination);
    // The coefficients of a large image would pass the memory allowed: libjpeg, having no
    // backing store here, then fails, and the image is left to libvips's streaming.
    source.mem->max_memory_to_use = (long)max_bytes;
    jpeg_stdio_src(&source, file);
    // No marker is kept: jpeg_save_markers is never called, so APPn and COM segments are skipped.
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&source);
    if (!is_complete(&source) || !fits_standard_tables(&source, coefficients)) source_errors.warnings += 1;
    if (source_errors.warnings == 0) {
        // The frame (size, components, sampling, quantisation tables) as it was; sequential
        // and Huffman-coded whatever the source was (progressive or arithmetic), with libjpeg's
        // standard tables: computing optimal ones would double the time for about a tenth fewer
        // bytes, and the copy stays about the size of the upload.
        jpeg_copy_critical_parameters(&source, &destination);
        destination.optimize_coding = FALSE;
        output->manager.init_destination = output_start;
        output->manager.empty_output_buffer = output_full;
        output->manager.term_destination = output_end;
        destination.dest = &output->manager;
        jpeg_write_coefficients(&destination, coefficients);
        jpeg_finish_compress(&destination);
    }
    jpeg_finish_decompress(&source);
    int warnings = source_errors.warnings + destination_errors.warnings;
    jpeg_destroy_compress(&destination);
    jpeg_destroy_decompress(&source);
    fclose(file);
    size_t written = output->capacity - output->manager.free_in_buffer;
    unsigned char *result = output->bytes;
    g_free(output);
    if (warnings > 0) {
        g_free(result);
        return 1;
    }
    // Released with g_free, as libvips's buffers are.
    *bytes = result;
    *length = written;
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
    memset(&source, 0, sizeof source);
    rewrite_errors errors;
    jmp_buf failed;
    rewrite_errors_init(&errors, &failed);
    source.err = &errors.manager;
    // Set after setjmp: volatile, so that it is current after a longjmp.
    unsigned char *volatile pixels = NULL;
    if (setjmp(failed)) {
        jpeg_destroy_decompress(&source);
        fclose(file);
        g_free(pixels);
        return -1;
    }
    jpeg_create_decompress(&source);
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
