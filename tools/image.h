/*
 * Images for tests, tools and benchmarks: PNG and binary PPM in and out,
 * and the PSNR / differing-pixel comparison every golden-image test prints.
 * Pixels are 8-bit RGB, rows top to bottom, no padding.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TOOLS_IMAGE_H
#define GPU3D_TOOLS_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct G3DImage {
    int width, height;
    uint8_t *rgb;            /* width * height * 3 */
} G3DImage;

bool g3d_image_alloc(G3DImage *img, int width, int height);
void g3d_image_free(G3DImage *img);

/* .png or .ppm by the file's contents (read) or name (write) */
bool g3d_image_load(G3DImage *img, const char *path);
bool g3d_image_save(const G3DImage *img, const char *path);

typedef struct G3DImageDiff {
    double psnr;             /* dB; INFINITY when identical */
    long differing;          /* pixels with any channel different */
    int max_delta;           /* largest channel difference */
    int tolerance;           /* in: channel delta that still counts as equal */
    long beyond;             /* pixels with a channel delta > tolerance */
} G3DImageDiff;

/* false if the sizes differ; set d->tolerance before calling */
bool g3d_image_compare(const G3DImage *a, const G3DImage *b, G3DImageDiff *d);

/* From 32-bit 0xAARRGGBB words with a pitch in words. */
void g3d_image_from_argb(G3DImage *img, const uint32_t *px, int pitch);

#endif
