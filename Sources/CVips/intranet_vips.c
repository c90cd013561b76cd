#include "intranet_vips.h"

#include <string.h>
#include <vips/vips.h>

/// libvips's warnings (a damaged file's details) would go to standard error: the upload's
/// answer says what failed instead.
static void intranet_vips_quiet(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data) {
    (void)domain;
    (void)level;
    (void)message;
    (void)data;
}

int intranet_vips_start(void) {
    if (vips_init("intranet-server") != 0) return -1;
    g_log_set_handler("VIPS", G_LOG_LEVEL_WARNING | G_LOG_LEVEL_MESSAGE | G_LOG_LEVEL_INFO, intranet_vips_quiet, NULL);
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    // Only the loaders of the formats accepted: nothing else parses an upload, whatever
    // libvips would guess from its bytes.
    vips_block_untrusted_set(TRUE);
    vips_operation_block_set("VipsForeignLoad", TRUE);
    vips_operation_block_set("VipsForeignLoadJpeg", FALSE);
    vips_operation_block_set("VipsForeignLoadPng", FALSE);
    vips_operation_block_set("VipsForeignLoadWebp", FALSE);
    vips_operation_block_set("VipsForeignLoadGif", FALSE);
    vips_operation_block_set("VipsForeignLoadNsgif", FALSE);
    return 0;
}

int intranet_vips_writes_gif(void) {
    return vips_type_find("VipsOperation", "gifsave_buffer") != 0;
}

int intranet_vips_header(const char *path, int all_frames, int *width, int *height, int *frames) {
    // Only loaders of formats with frames (GIF, WebP) take `n`.
    VipsImage *image = all_frames
        ? vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, "n", -1, NULL)
        : vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_page_height(image);
    *frames = all_frames ? vips_image_get_n_pages(image) : 1;
    g_object_unref(image);
    return 0;
}

int intranet_vips_encode(
    const char *path, int all_frames, int width, intranet_vips_format format, void **bytes, size_t *length, int *out_width,
    int *out_height) {
    char *name = all_frames ? g_strdup_printf("%s[n=-1]", path) : g_strdup(path);
    VipsImage *image = NULL;
    // Truncation counts as failure: a cut-off upload is refused rather than padded with grey.
    int result = vips_thumbnail(
        name, &image, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "export_profile", "srgb", "fail_on",
        VIPS_FAIL_ON_TRUNCATED, NULL);
    g_free(name);
    if (result != 0) return -1;
    switch (format) {
    case INTRANET_VIPS_JPEG:
        result = vips_jpegsave_buffer(
            image, bytes, length, "Q", 82, "strip", TRUE, "interlace", TRUE, "optimize_coding", TRUE, NULL);
        break;
    case INTRANET_VIPS_PNG:
        result = vips_pngsave_buffer(image, bytes, length, "strip", TRUE, "compression", 6, NULL);
        break;
    case INTRANET_VIPS_WEBP:
        result = vips_webpsave_buffer(image, bytes, length, "Q", 80, "strip", TRUE, NULL);
        break;
    case INTRANET_VIPS_GIF:
        result = vips_gifsave_buffer(image, bytes, length, "strip", TRUE, NULL);
        break;
    default:
        result = -1;
    }
    *out_width = vips_image_get_width(image);
    *out_height = vips_image_get_page_height(image);
    g_object_unref(image);
    return result;
}

void intranet_vips_free(void *bytes) {
    g_free(bytes);
}

void intranet_vips_last_error(char *buffer, size_t size) {
    const char *text = vips_error_buffer();
    size_t length = strcspn(text, "\n");
    if (length >= size) length = size - 1;
    memcpy(buffer, text, length);
    buffer[length] = 0;
    vips_error_clear();
}
