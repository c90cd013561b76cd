// The image work Intranet asks of libvips, as plain C: no glib or libvips types cross into
// Swift, and libvips's variadic option lists (which Swift cannot call) stay in intranet_vips.c.
#ifndef INTRANET_VIPS_H
#define INTRANET_VIPS_H

#include <stddef.h>

/// The formats an image can be written in.
typedef enum {
    INTRANET_VIPS_JPEG = 0,
    INTRANET_VIPS_PNG = 1,
    INTRANET_VIPS_WEBP = 2,
    INTRANET_VIPS_GIF = 3,
} intranet_vips_format;

/// Starts libvips once (its operation cache off, one thread per operation); 0 on success.
int intranet_vips_start(void);

/// Whether this libvips can write GIF (it needs cgif): 1 or 0.
int intranet_vips_writes_gif(void);

/// Reads the header of the image at `path` (no pixel decoded): the width, the height of one
/// frame, the number of frames (every frame counted when `all_frames`), and whether its pixels
/// are shown as they are stored (1: no colour profile, not CMYK, no EXIF orientation turning
/// it; 0 otherwise); 0 on success.
int intranet_vips_header(const char *path, int all_frames, int *width, int *height, int *frames, int *as_shown);

/// Decodes the image at `path` turned upright by its EXIF orientation, in sRGB, shrunk to at
/// most `width` pixels wide (never enlarged; every frame when `all_frames`), failing on a
/// truncated or corrupt file, and encodes it in `format` without any metadata. On success (0),
/// `*bytes` (`*length` bytes; release with intranet_vips_free) and its size are set.
int intranet_vips_encode(
    const char *path, int all_frames, int width, intranet_vips_format format, void **bytes, size_t *length, int *out_width,
    int *out_height);

/// Decodes the whole image at `path` (its first frame) into memory, upright and in sRGB, when
/// its decoded pixels take at most `max_bytes`: 0 with `*image` set (release with
/// intranet_vips_release), 1 when it is larger (nothing decoded: intranet_vips_encode then
/// streams it once per size), -1 when it is truncated or corrupt.
int intranet_vips_load(const char *path, size_t max_bytes, void **image, int *width, int *height);

/// A copy of a decoded `image` shrunk to at most `width` pixels wide (never enlarged), in memory;
/// 0 on success.
int intranet_vips_resize(void *image, int width, void **resized, int *out_width, int *out_height);

/// Encodes a decoded image in `format` without any metadata, as intranet_vips_encode does; 0 on
/// success.
int intranet_vips_save(void *image, intranet_vips_format format, void **bytes, size_t *length);

/// Releases an image from intranet_vips_load or intranet_vips_resize.
void intranet_vips_release(void *image);

/// Releases what intranet_vips_encode or intranet_vips_save returned.
void intranet_vips_free(void *bytes);

/// Copies libvips's last error (its first line) into `buffer` and clears it.
void intranet_vips_last_error(char *buffer, size_t size);

#endif
