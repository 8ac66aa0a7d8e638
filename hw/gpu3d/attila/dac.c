/*
 * The DAC: what is on screen. After GPU_SWAPBUFFERS the front buffer is
 * the just-rendered back buffer (command-processor.c latches its address,
 * size, format and sample count); the DAC reads it through the render
 * buffer tiling (pixel-mapper.c), resolves multisampling, converts to 8-bit
 * RGB and, with OpenGL pixel coordinates (GPU_D3D9_PIXEL_COORDINATES
 * FALSE), shows memory row 0 at the bottom (digest 4.4, GPUEmulator
 * dumpFrame).
 *
 * MSAA resolve (dumpFrame): a pixel whose samples all have sample 0's RGB
 * shows sample 0; otherwise the samples are averaged in linear space
 * (x^2.2, mean, ^(1/2.2)).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-internal.h"

#include <glib.h>
#include <math.h>

static inline uint8_t to8(float v)
{
    /* u8bit(GPU_MIN(GPU_MAX(v, 0), 1) * 255) */
    v = v > 0.0f ? v : 0.0f;
    v = v < 1.0f ? v : 1.0f;
    return (uint8_t)(v * 255.0f);
}

/* the DAC divides by 255 where the color write multiplies by 1/255 */
static void dac_read(uint32_t format, const uint8_t *p, float out[4])
{
    int k;

    if (format != ATTILA_FMT_RGBA8888) {
        attila_color_read(format, p, out);
        return;
    }
    for (k = 0; k < 4; k++) {
        out[k] = (float)p[k] / 255.0f;
    }
}

static uint32_t pixel_argb(const AttilaDisplay *d, const uint8_t *p,
                           uint32_t bytes)
{
    float ref[4], cur[4], sum[3] = { 0, 0, 0 };
    bool full = true;
    uint32_t s;
    int k;

    if (d->samples <= 1 && d->format == ATTILA_FMT_RGBA8888) {
        return 0xff000000u | p[0] << 16 | p[1] << 8 | p[2];
    }
    dac_read(d->format, p, ref);
    if (d->samples > 1) {
        for (s = 0; s < d->samples; s++) {
            dac_read(d->format, p + s * bytes, cur);
            for (k = 0; k < 3; k++) {
                sum[k] += (float)pow((double)cur[k], (double)2.2f);
            }
            full = full && ref[0] == cur[0] && ref[1] == cur[1] &&
                   ref[2] == cur[2];
        }
        if (!full) {
            for (k = 0; k < 3; k++) {
                ref[k] = (float)pow((double)(sum[k] / (float)d->samples),
                                    (double)(1.0f / 2.2f));
            }
        }
    }
    if (d->format == ATTILA_FMT_RG16F || d->format == ATTILA_FMT_R32F) {
        /* the missing channels show as 0 (dumpFrame) */
        ref[2] = 0.0f;
        if (d->format == ATTILA_FMT_R32F) {
            ref[1] = 0.0f;
        }
    }
    return 0xff000000u | to8(ref[0]) << 16 | to8(ref[1]) << 8 | to8(ref[2]);
}

void attila_dac_row(const AttilaDisplay *d, const uint8_t *surface,
                    uint32_t *dst, uint32_t row)
{
    AttilaPixelMapper pm;
    uint32_t bytes = attila_rt_bytes(d->format), x, y;

    if (!attila_pixel_mapper_init(&pm, d->width, d->height, d->samples,
                                  bytes) || row >= d->height) {
        return;
    }
    y = d->d3d9_pixel ? row : d->height - 1 - row;
    for (x = 0; x < d->width; x++) {
        dst[x] = pixel_argb(d, surface + attila_pixel_address(&pm, x, y),
                            bytes);
    }
}

/*
 * G3DScanout row callback. The scanout description covers the first
 * pitch * height bytes of the surface (what g3d_scanout_check maps); the
 * row's pixels can lie anywhere in the surface, so the whole surface is
 * mapped again here, checked.
 */
static void scanout_row(const G3DScanout *so, const uint8_t *src,
                        uint32_t *dst, int row)
{
    AttilaCore *c = so->convert_opaque;
    const AttilaDisplay *d = &c->display;
    AttilaPixelMapper pm;
    const uint8_t *base;

    if (!attila_pixel_mapper_init(&pm, d->width, d->height, d->samples,
                                  attila_rt_bytes(d->format))) {
        memset(dst, 0, so->width * sizeof(uint32_t));
        return;
    }
    base = g3d_mem_map(&c->cfg.gpu_mem, so->addr, pm.surface, false);
    if (!base) {
        memset(dst, 0, so->width * sizeof(uint32_t));
        return;
    }
    attila_dac_row(d, base, dst, (uint32_t)row);
}

bool attila_dac_scanout(AttilaCore *c, G3DScanout *out)
{
    const AttilaDisplay *d = &c->display;
    AttilaPixelMapper pm;
    uint32_t rows;

    if (!d->valid) {
        return false;
    }
    if (d->address & 0x80000000u) {
        g3d_unimp("attila-3d: scanout of a front buffer in system memory "
                  "(0x%08x) is not supported", d->address);
        return false;
    }
    if (!attila_pixel_mapper_init(&pm, d->width, d->height, d->samples,
                                  attila_rt_bytes(d->format))) {
        g3d_guest_error("attila-3d: scanout %ux%u format %u unusable",
                        d->width, d->height, d->format);
        return false;
    }
    if (!g3d_mem_map(&c->cfg.gpu_mem, d->address, pm.surface, false)) {
        g3d_guest_error("attila-3d: front buffer 0x%08x + %" G_GUINT64_FORMAT
                        " bytes outside GPU memory", d->address, pm.surface);
        return false;
    }
    rows = (d->height + 63) & ~63u;
    out->enabled = true;
    out->addr = d->address;
    out->width = d->width;
    out->height = d->height;
    out->pitch = (uint32_t)(pm.surface / rows);
    out->bytes_per_line = out->pitch;
    out->convert = scanout_row;
    out->convert_opaque = c;
    return true;
}
