/*
 * EFB copies (BP 0x52) and the clear that follows them (doc 5.11.1,
 * digest §3.6, §6.10, §8 step E).
 *
 * A display copy (bit 14) turns the source rectangle (BP 0x49/0x4A, width
 * and height stored minus one) into YUV 4:2:2 at BP 0x4B << 5, one line
 * every BP 0x4D * 32 bytes. Per pixel it applies the 7-tap vertical filter
 * of BP 0x53/0x54 (taps 0-1 on the line above, 2-4 on the line, 5-6 below;
 * the sum is divided by 64), the gamma of bits 7-8 (1.0, 1.7, 2.2, 2.2),
 * then BT.601 studio-range RGB -> YCbCr with the hardware-tested integer
 * coefficients (Y = 66R + 129G + 25B, ...; Dolphin's EfbInterface), and
 * averages chroma 1-2-1 around each even pixel. Clamp bits 0-1 keep the
 * filter inside the rectangle at its top and bottom.
 *
 * Decisions: Y scaling (BP 0x4E, bit 10) writes 1 + (h - 1) * scale lines,
 * nearest source line; the horizontal border repeats the edge pixel.
 * Copies to texture formats are not modelled yet (logged, no data written).
 * The clear (bit 11) writes BP 0x4F-0x51 over the rectangle under the
 * colour/alpha/Z update masks, after the copy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include <math.h>

enum { R = 0, G = 1, B = 2, A = 3 };

typedef struct YUV {
    int y, u, v;
} YUV;

static const float gamma_table[4] = { 1.0f, 1.7f, 2.2f, 2.2f };
/* out = 255 * (in / 255)^(1 / gamma), per 8-bit value: one powf per entry
 * once, not per pixel */
static uint8_t gamma_lut[4][256];

static void gamma_lut_init(void)
{
    static gsize done;
    int g, i;

    if (g_once_init_enter(&done)) {
        for (g = 0; g < 4; g++) {
            float rcp = 1.0f / gamma_table[g];
            for (i = 0; i < 256; i++) {
                float v = powf((float)i / 255.0f, rcp) * 255.0f;
                gamma_lut[g][i] = (uint8_t)g3d_clampf(v, 0.0f, 255.0f);
            }
        }
        g_once_init_leave(&done, 1);
    }
}

static YUV rgb_to_yuv(const uint8_t c[4])
{
    unsigned y = 66 * c[R] + 129 * c[G] + 25 * c[B];
    int u = -38 * c[R] - 74 * c[G] + 112 * c[B];
    int v = 112 * c[R] - 94 * c[G] - 18 * c[B];
    YUV r;

    /* round at bit 7 */
    r.y = (uint8_t)((y >> 8) + ((y >> 7) & 1));
    r.u = (int8_t)(int16_t)((u >> 8) + ((u >> 7) & 1));
    r.v = (int8_t)(int16_t)((v >> 8) + ((v >> 7) & 1));
    return r;
}

static void copy_filter(FlipperCore *c, uint8_t w[7])
{
    uint32_t a = c->bp[BP_COPYFILTER_A], b = c->bp[BP_COPYFILTER_B];

    w[0] = a & 63;
    w[1] = (a >> 6) & 63;
    w[2] = (a >> 12) & 63;
    w[3] = (a >> 18) & 63;
    w[4] = b & 63;
    w[5] = (b >> 6) & 63;
    w[6] = (b >> 12) & 63;
}

/*
 * Source rows of a copy as RGBA bytes, each converted from the EFB once:
 * the filter reads rows y - 1, y, y + 1, which never share a slot y % 3.
 */
typedef struct RowCache {
    int y[3];
    int left, width;
    uint8_t px[3][EFB_W * 4];
} RowCache;

static const uint8_t *cached_row(FlipperCore *c, RowCache *rc, int y)
{
    uint8_t *p = rc->px[y % 3];
    int i;

    if (rc->y[y % 3] != y) {
        for (i = 0; i < rc->width; i++) {
            uint32_t v = flipper_pe_get_color(c, rc->left + i, y);
            p[4 * i + R] = v >> 24;
            p[4 * i + G] = v >> 16;
            p[4 * i + B] = v >> 8;
            p[4 * i + A] = v;
        }
        rc->y[y % 3] = y;
    }
    return p;
}

/* one source line of the display copy, filtered, gamma-corrected, as YUV */
static void encode_line(FlipperCore *c, RowCache *rc, int y, int top,
                        int bottom, uint32_t trigger, uint8_t *out)
{
    bool clamp_top = trigger & 1, clamp_bottom = (trigger >> 1) & 1;
    const uint8_t *gamma = gamma_lut[(trigger >> 7) & 3];
    int y_prev = MAX(clamp_top ? top : 0, y - 1);
    int y_next = MIN((clamp_bottom ? bottom : EFB_H) - 1, y + 1);
    const uint8_t *rows[3];
    int width = rc->width;
    YUV line[EFB_W + 2];
    uint8_t w[7];
    int wt[3], i, k;

    copy_filter(c, w);
    wt[0] = w[0] + w[1];
    wt[1] = w[2] + w[3] + w[4];
    wt[2] = w[5] + w[6];
    rows[1] = cached_row(c, rc, y);
    rows[0] = cached_row(c, rc, y_prev);
    rows[2] = cached_row(c, rc, y_next);
    for (i = 0; i < width; i++) {
        uint8_t f[4] = { 0 };

        for (k = R; k <= B; k++) {
            int sum = rows[0][4 * i + k] * wt[0] + rows[1][4 * i + k] * wt[1] +
                      rows[2][4 * i + k] * wt[2];
            sum >>= 6;
            f[k] = gamma[sum > 255 ? 255 : sum];
        }
        line[i + 1] = rgb_to_yuv(f);
    }
    line[0] = line[1];
    line[width + 1] = line[width];
    /* 4:2:2 — Y0 Cb Y1 Cr, chroma 1-2-1 around the even pixel */
    for (i = 0; i < width; i += 2) {
        const YUV *p = &line[i + 1];
        out[2 * i + 0] = (uint8_t)(p[0].y + 16);
        out[2 * i + 1] = (uint8_t)(128 + ((p[-1].u + 2 * p[0].u + p[1].u) >> 2));
        if (i + 1 < width) {
            out[2 * i + 2] = (uint8_t)(p[1].y + 16);
            out[2 * i + 3] =
                (uint8_t)(128 + ((p[-1].v + 2 * p[0].v + p[1].v) >> 2));
        }
    }
}

static void copy_to_xfb(FlipperCore *c, uint32_t trigger, int left, int top,
                        int width, int height)
{
    uint32_t dest = (c->bp[BP_EFB_ADDR] & 0xFFFFFF) << 5;
    uint32_t stride = (c->bp[BP_MIPMAP_STRIDE] & 0x3FF) << 5;
    uint32_t ys = c->bp[BP_DISPCOPYYSCALE] & 0x1FF;
    float scale;
    uint32_t lines, j, line_bytes = (uint32_t)width * 2;
    uint8_t *buf;
    RowCache *rc;
    int prev = -1;

    if (ys == 0) {
        g3d_guest_error("flipper: PE: display copy Y scale 0, using 1.0");
        ys = 256;
    }
    scale = ((trigger >> 10) & 1) ? 256.0f / (float)ys : (float)ys / 256.0f;
    lines = (uint32_t)(1.0f + (float)(height - 1) * scale);
    if (lines > 1024) {
        g3d_guest_error("flipper: PE: display copy of %u lines clamped to 1024",
                        lines);
        lines = 1024;
    }
    if (stride < line_bytes) {
        g3d_guest_error("flipper: PE: display copy stride %u below its line "
                        "of %u bytes", stride, line_bytes);
        return;
    }
    if (!flipper_mem1_ok(c, dest, (uint64_t)stride * (lines - 1) + line_bytes)) {
        g3d_guest_error("flipper: PE: XFB 0x%08x (%u lines of %u bytes) "
                        "outside MEM1", dest, lines, stride);
        return;
    }
    buf = g_malloc(line_bytes);
    rc = g_new(RowCache, 1);
    rc->y[0] = rc->y[1] = rc->y[2] = -1;
    rc->left = left;
    rc->width = width;
    for (j = 0; j < lines; j++) {
        int src = (int)((uint64_t)j * height / lines);
        if (src != prev) {
            encode_line(c, rc, top + src, top, top + height, trigger, buf);
            prev = src;
        }
        g3d_mem_write(&c->cfg.mem, dest + j * stride, buf, line_bytes);
    }
    g_free(rc);
    g_free(buf);
}

static void clear_rect(FlipperCore *c, int left, int top, int width,
                       int height)
{
    uint32_t ar = c->bp[BP_CLEAR_AR], gb = c->bp[BP_CLEAR_GB];
    uint8_t col[4] = { ar & 0xFF, (gb >> 8) & 0xFF, gb & 0xFF, (ar >> 8) & 0xFF };
    uint32_t z = c->bp[BP_CLEAR_Z] & 0xFFFFFF;
    int x, y;

    for (y = top; y < top + height; y++) {
        for (x = left; x < left + width; x++) {
            flipper_pe_set_color(c, x, y, col);
            flipper_pe_set_depth(c, x, y, z);
        }
    }
}

void flipper_pe_copy(FlipperCore *c, uint32_t trigger)
{
    uint32_t tl = c->bp[BP_EFB_TL], wh = c->bp[BP_EFB_WH];
    int left = tl & 0x3FF, top = (tl >> 10) & 0x3FF;
    int width = (wh & 0x3FF) + 1, height = ((wh >> 10) & 0x3FF) + 1;

    flipper_flush(c);
    gamma_lut_init();
    c->stats.efb_copies++;
    if (left >= EFB_W || top >= EFB_H) {
        g3d_guest_error("flipper: PE: EFB copy source (%d, %d) outside the EFB",
                        left, top);
        return;
    }
    if (left + width > EFB_W || top + height > EFB_H) {
        g3d_guest_error("flipper: PE: EFB copy %dx%d at (%d, %d) clipped to "
                        "the EFB", width, height, left, top);
        width = MIN(width, EFB_W - left);
        height = MIN(height, EFB_H - top);
    }
    if ((trigger >> 14) & 1) {
        if ((left | width) & 1) {
            g3d_guest_error("flipper: PE: display copy at x %d width %d is not "
                            "pixel-pair aligned", left, width);
        }
        copy_to_xfb(c, trigger, left, top, width, height);
    } else {
        g3d_unimp("flipper: PE: EFB copy to texture format %u not modelled",
                  (trigger >> 3) & 15);
    }
    if ((trigger >> 11) & 1) {
        clear_rect(c, left, top, width, height);
    }
}
