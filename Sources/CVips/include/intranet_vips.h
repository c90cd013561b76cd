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
/// frame and the number of frames (every frame counted when `all_frames`); 0 on success.
int intranet_vips_header(const char *path, int all_frames, int *width, int *height, int *frames);

/// Decodes the image at `path` turned upright by its EXIF orientation, in sRGB, shrunk to at
/// most `width` pixels wide (never enlarged; every frame when `all_frames`), failing on a
/// truncated or corrupt file, and encodes it in `format` without any metadata. On success (0),
/// `*bytes` (`*length` bytes; release with intranet_vips_free) and its size are set.
int intranet_vips_encode(
    const char *path, int all_frames, int width, intranet_vips_format format, void **bytes, size_t *length, int *out_width,
    int *out_height);

/// Releases what intranet_vips_encode returned.
void intranet_vips_free(void *bytes);

/// Copies libvips's last error (its first line) into `buffer` and clears it.
void intranet_vips_last_error(char *buffer, size_t size);

#endif
