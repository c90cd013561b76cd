#include "image_probe.h"

#include <vips/vips.h>

int image_probe_means(const void *bytes, size_t length, double left, double top, double width, double height, int *bands, double *means) {
    if (VIPS_INIT("image-probe") != 0) return -1;
    VipsImage *image = vips_image_new_from_buffer(bytes, length, "", NULL);
    if (!image) return -1;
    int w = vips_image_get_width(image), h = vips_image_get_height(image);
    VipsImage *region = NULL;
    int result = vips_crop(image, &region, (int)(left * w), (int)(top * h), VIPS_MAX(1, (int)(width * w)), VIPS_MAX(1, (int)(height * h)), NULL);
    *bands = vips_image_get_bands(image);
    for (int band = 0; result == 0 && band < *bands && band < 4; band++) {
        VipsImage *one = NULL;
        result = vips_extract_band(region, &one, band, NULL);
        if (result == 0) result = vips_avg(one, &means[band], NULL);
        if (one) g_object_unref(one);
    }
    if (region) g_object_unref(region);
    g_object_unref(image);
    return result;
}
