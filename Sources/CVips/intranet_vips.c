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

/// Held while libvips builds or frees an operation that compiles vector code with liborc
/// (resizing's vertical pass): with Debian 12's liborc (0.4.33), two images resized at once
/// crashed the process in liborc's allocator of code memory (a quarter of the runs of six
/// threads resizing 300 images each; none with this lock). The compiled code then runs
/// without it.
static GMutex vector_code;

/// Releases an image whose pipeline may hold compiled vector code.
static void release_pipeline(VipsImage *image) {
    g_mutex_lock(&vector_code);
    g_object_unref(image);
    g_mutex_unlock(&vector_code);
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

/// Whether the image needs its colours converted to sRGB: it carries a colour profile, or it is
/// CMYK (converted with a generic CMYK profile). An untagged RGB or grey image is sRGB already,
/// and converting it anyway would cost more than the rest of its processing.
static int needs_conversion(VipsImage *image) {
    return vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0 || vips_image_get_interpretation(image) == VIPS_INTERPRETATION_CMYK;
}

int intranet_vips_header(const char *path, int all_frames, int *width, int *height, int *frames, int *as_shown) {
    // Only loaders of formats with frames (GIF, WebP) take `n`.
    VipsImage *image = all_frames
        ? vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, "n", -1, NULL)
        : vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_page_height(image);
    *frames = all_frames ? vips_image_get_n_pages(image) : 1;
    *as_shown = !needs_conversion(image) && vips_image_get_orientation(image) <= 1;
    g_object_unref(image);
    return 0;
}

/// Encodes `image` in `format` without any metadata (and without the colour profile, since the
/// pixels are sRGB). JPEGs are baseline: progressive encoding would cost more than the decoding
/// and resizing together, for the full-size copy that pages do not show.
static int save(VipsImage *image, intranet_vips_format format, void **bytes, size_t *length) {
    switch (format) {
    case INTRANET_VIPS_JPEG:
        return vips_jpegsave_buffer(image, bytes, length, "Q", 82, "strip", TRUE, "optimize_coding", TRUE, NULL);
    case INTRANET_VIPS_PNG:
        return vips_pngsave_buffer(image, bytes, length, "strip", TRUE, "compression", 6, NULL);
    case INTRANET_VIPS_WEBP:
        return vips_webpsave_buffer(image, bytes, length, "Q", 80, "strip", TRUE, NULL);
    case INTRANET_VIPS_GIF:
        return vips_gifsave_buffer(image, bytes, length, "strip", TRUE, NULL);
    default:
        return -1;
    }
}

int intranet_vips_encode(
    const char *path, int all_frames, int width, intranet_vips_format format, void **bytes, size_t *length, int *out_width,
    int *out_height) {
    VipsImage *header = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!header) return -1;
    // An untagged CMYK image is converted by vips_thumbnail itself (its sRGB export profile
    // would not fit four bands).
    int convert = vips_image_get_typeof(header, VIPS_META_ICC_NAME) != 0;
    g_object_unref(header);
    char *name = all_frames ? g_strdup_printf("%s[n=-1]", path) : g_strdup(path);
    VipsImage *image = NULL;
    // Truncation counts as failure: a cut-off upload is refused rather than padded with grey.
    g_mutex_lock(&vector_code);
    int result = convert
        ? vips_thumbnail(
              name, &image, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "export_profile", "srgb", "fail_on",
              VIPS_FAIL_ON_TRUNCATED, NULL)
        : vips_thumbnail(name, &image, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
    g_mutex_unlock(&vector_code);
    g_free(name);
    if (result != 0) return -1;
    result = save(image, format, bytes, length);
    *out_width = vips_image_get_width(image);
    *out_height = vips_image_get_page_height(image);
    release_pipeline(image);
    return result;
}

/// `image` decoded into memory, in sRGB when `convert`; NULL when it cannot be.
static VipsImage *decoded(VipsImage *image, int convert) {
    if (!convert) return vips_image_copy_memory(image);
    VipsImage *converted = NULL;
    int result = vips_image_get_typeof(image, VIPS_META_ICC_NAME) != 0
        ? vips_icc_transform(image, &converted, "srgb", "embedded", TRUE, NULL)
        : vips_icc_transform(image, &converted, "srgb", "input_profile", "cmyk", NULL);
    if (result != 0) return NULL;
    VipsImage *loaded = vips_image_copy_memory(converted);
    g_object_unref(converted);
    return loaded;
}

int intranet_vips_load(const char *path, size_t max_bytes, void **image, int *width, int *height) {
    // Read top to bottom (the fastest way to decode); turned upright once in memory.
    VipsImage *file = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
    if (!file) return -1;
    size_t decoded_bytes = (size_t)vips_image_get_width(file) * (size_t)vips_image_get_height(file)
        * (size_t)vips_image_get_bands(file) * vips_format_sizeof(vips_image_get_format(file));
    if (decoded_bytes > max_bytes) {
        g_object_unref(file);
        return 1;
    }
    int convert = needs_conversion(file);
    VipsImage *loaded = decoded(file, convert);
    g_object_unref(file);
    if (!loaded && convert) {
        // A profile that cannot be used (damaged, or of a kind lcms refuses) is ignored, as
        // browsers ignore it: the pixels are shown as they are. A damaged image fails again.
        vips_error_clear();
        file = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
        loaded = file ? decoded(file, 0) : NULL;
        if (file) g_object_unref(file);
    }
    if (!loaded) return -1;
    if (vips_image_get_orientation(loaded) > 1) {
        VipsImage *upright = NULL;
        int result = vips_autorot(loaded, &upright, NULL);
        g_object_unref(loaded);
        if (result != 0) return -1;
        loaded = vips_image_copy_memory(upright);
        g_object_unref(upright);
        if (!loaded) return -1;
    }
    // The pixels are sRGB now (or the profile was ignored): nothing after this looks at one.
    vips_image_remove(loaded, VIPS_META_ICC_NAME);
    *image = loaded;
    *width = vips_image_get_width(loaded);
    *height = vips_image_get_height(loaded);
    return 0;
}

int intranet_vips_resize(void *image, int width, void **resized, int *out_width, int *out_height) {
    VipsImage *shrunk = NULL;
    VipsImage *in = (VipsImage *)image;
    int from = vips_image_get_width(in);
    double scale = width < from ? (double)width / from : 1.0;
    g_mutex_lock(&vector_code);
    // Without transparency, the same Lanczos-3 resampling vips_thumbnail_image does (the same
    // pixels) without its checks for what an in-memory, upright sRGB image cannot need: a
    // quarter faster. With it, vips_thumbnail_image, which weighs colours by their opacity
    // (otherwise the colour of transparent pixels bleeds into the edges).
    int result = vips_image_hasalpha(in)
        ? vips_thumbnail_image(in, &shrunk, width, "height", VIPS_MAX_COORD, "size", VIPS_SIZE_DOWN, NULL)
        : vips_resize(in, &shrunk, scale, NULL);
    g_mutex_unlock(&vector_code);
    if (result != 0) return -1;
    VipsImage *loaded = vips_image_copy_memory(shrunk);
    release_pipeline(shrunk);
    if (!loaded) return -1;
    *resized = loaded;
    *out_width = vips_image_get_width(loaded);
    *out_height = vips_image_get_height(loaded);
    return 0;
}

int intranet_vips_save(void *image, intranet_vips_format format, void **bytes, size_t *length) {
    return save((VipsImage *)image, format, bytes, length);
}

void intranet_vips_release(void *image) {
    if (image) g_object_unref((VipsImage *)image);
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
