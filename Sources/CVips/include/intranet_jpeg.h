// A JPEG rewritten without loss, with libjpeg directly (libvips has no such operation).
#ifndef INTRANET_JPEG_H
#define INTRANET_JPEG_H

#include <stddef.h>

/// Rewrites the JPEG at `path` without decoding its pixels: its DCT coefficients (so exactly
/// the pixels it shows) in a new sequential, Huffman-coded file holding nothing else — no EXIF,
/// XMP, IPTC, comment or colour profile, and nothing before its start or after its end. Its
/// coefficients may take at most `max_bytes` of memory.
///
/// 0 on success, with `*bytes` (`*length` bytes; release with intranet_vips_free) set; 1 when
/// the copy could differ from what the file shows — libjpeg warned about it (corrupt data it
/// would work around), a progressive file left coefficients unsent (decoders smooth them), or a
/// coefficient is past what libjpeg's standard Huffman tables code: the caller decodes and
/// encodes it instead; -1 when it cannot be read (or would take more memory).
int intranet_jpeg_rewrite(const char *path, size_t max_bytes, void **bytes, size_t *length);

/// Decodes the JPEG at `path` (grey or colour, not CMYK) shrunk by libjpeg while it computes
/// the inverse DCT, to the fewest eighths of its width that keep at least `min_width` pixels:
/// for the variants of a photo whose full-size copy intranet_jpeg_rewrite made, at a fraction
/// of the cost of decoding every pixel and resizing from there. Its EXIF orientation and colour
/// profile are not looked at: only for a JPEG that has neither.
///
/// 0 with `*image` (release with intranet_vips_release) and its size set; 1 when libjpeg warned
/// about the file or it is CMYK (the caller decodes it with libvips instead); -1 when it cannot
/// be read.
int intranet_jpeg_decode_scaled(const char *path, int min_width, void **image, int *width, int *height);

#endif
