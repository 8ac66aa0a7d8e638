/*
 * Compare two images (PNG or PPM): print PSNR, differing pixels and the
 * largest channel difference; fail below a PSNR bar or above a pixel count.
 *
 *   image-compare A B [--min-psnr DB] [--tolerance T] [--max-diff-pixels N]
 *                 [--diff OUT.png]
 * --max-diff-pixels counts pixels with a channel off by more than T (0).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"

int main(int argc, char **argv)
{
    G3DImage a, b;
    G3DImageDiff d = { 0 };
    double min_psnr = -1;
    long max_diff = -1;
    const char *diff_out = NULL;
    int i;

    if (argc < 3) {
        fprintf(stderr, "usage: %s A B [--min-psnr DB] [--max-diff-pixels N] "
                "[--diff OUT.png]\n", argv[0]);
        return 2;
    }
    for (i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--min-psnr")) {
            min_psnr = atof(argv[i + 1]);
        } else if (!strcmp(argv[i], "--max-diff-pixels")) {
            max_diff = atol(argv[i + 1]);
        } else if (!strcmp(argv[i], "--tolerance")) {
            d.tolerance = atoi(argv[i + 1]);
        } else if (!strcmp(argv[i], "--diff")) {
            diff_out = argv[i + 1];
        }
    }
    if (!g3d_image_load(&a, argv[1]) || !g3d_image_load(&b, argv[2])) {
        fprintf(stderr, "image-compare: cannot read %s or %s\n", argv[1],
                argv[2]);
        return 2;
    }
    if (!g3d_image_compare(&a, &b, &d)) {
        printf("image-compare: sizes differ (%dx%d vs %dx%d)\n", a.width,
               a.height, b.width, b.height);
        return 1;
    }
    printf("image-compare: PSNR %.2f dB, %ld of %d pixels differ, %ld by more "
           "than %d, max delta %d\n", d.psnr, d.differing, a.width * a.height,
           d.beyond, d.tolerance, d.max_delta);
    if (diff_out) {
        /* differing pixels in white over a dimmed copy of A */
        for (i = 0; i < a.width * a.height; i++) {
            int c, differs = 0;
            for (c = 0; c < 3; c++) {
                differs |= abs(a.rgb[3 * i + c] - b.rgb[3 * i + c]) >
                           d.tolerance;
            }
            for (c = 0; c < 3; c++) {
                a.rgb[3 * i + c] = differs ? 255 : a.rgb[3 * i + c] / 4;
            }
        }
        g3d_image_save(&a, diff_out);
    }
    if ((min_psnr >= 0 && !(d.psnr >= min_psnr)) ||
        (max_diff >= 0 && d.beyond > max_diff)) {
        return 1;
    }
    return 0;
}
