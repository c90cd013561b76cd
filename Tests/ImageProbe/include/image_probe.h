// What the tests read back from a served image with a real image library (libvips): how many
// colour bands it has and the mean of each over a region. Test support only.
#ifndef IMAGE_PROBE_H
#define IMAGE_PROBE_H

#include <stddef.h>

/// Decodes the encoded image in `bytes` and averages each band over the rectangle at `left`,
/// `top`, `width` × `height` (in fractions of the image's size, 0…1): `*bands` is set to the
/// number of bands (at most 4 means written to `means`); 0 on success.
int image_probe_means(const void *bytes, size_t length, double left, double top, double width, double height, int *bands, double *means);

#endif
