/*
 * Images for tests and tools (see image.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "image.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool g3d_image_alloc(G3DImage *img, int width, int height)
{
    img->width = width;
    img->height = height;
    img->rgb = calloc((size_t)width * height, 3);
    return img->rgb != NULL;
}

void g3d_image_free(G3DImage *img)
{
    free(img->rgb);
    img->rgb = NULL;
}

static bool ppm_token(FILE *f, int *out)
{
    int c, v = 0, digits = 0;

    for (;;) {
        c = fgetc(f);
        if (c == '#') {
            while (c != '\n' && c != EOF) {
                c = fgetc(f);
            }
        } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
            break;
        }
    }
    while (c >= '0' && c <= '9') {
        v = v * 10 + (c - '0');
        digits++;
        if (v > 1 << 20) {
            return false;
        }
        c = fgetc(f);
    }
    *out = v;
    return digits > 0;
}

static bool load_ppm(G3DImage *img, FILE *f)
{
    int w, h, max;

    if (fgetc(f) != 'P' || fgetc(f) != '6' || !ppm_token(f, &w) ||
        !ppm_token(f, &h) || !ppm_token(f, &max) || max != 255 ||
        w <= 0 || h <= 0 || w > 16384 || h > 16384) {
        return false;
    }
    if (!g3d_image_alloc(img, w, h)) {
        return false;
    }
    if (fread(img->rgb, 3, (size_t)w * h, f) != (size_t)w * h) {
        g3d_image_free(img);
        return false;
    }
    return true;
}

static bool load_png(G3DImage *img, const char *path)
{
    png_image pi;

    memset(&pi, 0, sizeof(pi));
    pi.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&pi, path)) {
        return false;
    }
    pi.format = PNG_FORMAT_RGB;
    if (!g3d_image_alloc(img, pi.width, pi.height)) {
        png_image_free(&pi);
        return false;
    }
    if (!png_image_finish_read(&pi, NULL, img->rgb, 0, NULL)) {
        g3d_image_free(img);
        return false;
    }
    return true;
}

bool g3d_image_load(G3DImage *img, const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char sig[8];
    bool ok;

    memset(img, 0, sizeof(*img));
    if (!f) {
        return false;
    }
    if (fread(sig, 1, 8, f) == 8 && !png_sig_cmp(sig, 0, 8)) {
        fclose(f);
        return load_png(img, path);
    }
    rewind(f);
    ok = load_ppm(img, f);
    fclose(f);
    return ok;
}

bool g3d_image_save(const G3DImage *img, const char *path)
{
    size_t n = strlen(path);

    if (n > 4 && !strcmp(path + n - 4, ".ppm")) {
        FILE *f = fopen(path, "wb");
        bool ok;
        if (!f) {
            return false;
        }
        fprintf(f, "P6\n%d %d\n255\n", img->width, img->height);
        ok = fwrite(img->rgb, 3, (size_t)img->width * img->height, f) ==
             (size_t)img->width * img->height;
        return fclose(f) == 0 && ok;
    } else {
        png_image pi;
        memset(&pi, 0, sizeof(pi));
        pi.version = PNG_IMAGE_VERSION;
        pi.width = img->width;
        pi.height = img->height;
        pi.format = PNG_FORMAT_RGB;
        return png_image_write_to_file(&pi, path, 0, img->rgb, 0, NULL);
    }
}

bool g3d_image_compare(const G3DImage *a, const G3DImage *b, G3DImageDiff *d)
{
    size_t i, n;
    double se = 0;
    int tol = d->tolerance;

    memset(d, 0, sizeof(*d));
    d->tolerance = tol;
    if (a->width != b->width || a->height != b->height) {
        return false;
    }
    n = (size_t)a->width * a->height;
    for (i = 0; i < n; i++) {
        bool diff = false, beyond = false;
        int c;
        for (c = 0; c < 3; c++) {
            int delta = abs(a->rgb[i * 3 + c] - b->rgb[i * 3 + c]);
            se += (double)delta * delta;
            if (delta) {
                diff = true;
                beyond |= delta > tol;
                if (delta > d->max_delta) {
                    d->max_delta = delta;
                }
            }
        }
        d->differing += diff;
        d->beyond += beyond;
    }
    d->psnr = se == 0 ? INFINITY
                      : 10.0 * log10(255.0 * 255.0 / (se / (double)(n * 3)));
    return true;
}

void g3d_image_from_argb(G3DImage *img, const uint32_t *px, int pitch)
{
    int x, y;

    for (y = 0; y < img->height; y++) {
        for (x = 0; x < img->width; x++) {
            uint32_t v = px[(size_t)y * pitch + x];
            uint8_t *o = img->rgb + ((size_t)y * img->width + x) * 3;
            o[0] = v >> 16;
            o[1] = v >> 8;
            o[2] = v;
        }
    }
}
