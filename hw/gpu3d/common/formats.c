/*
 * Colour and texel formats shared by the chips (see formats.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "formats.h"

static inline uint16_t rd16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline uint32_t rd32(const uint8_t *p)
{
    return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void wr16(uint8_t *p, uint16_t v)
{
    p[0] = v;
    p[1] = v >> 8;
}

static inline void wr32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

int g3d_fmt_bpp(G3DPixFmt fmt)
{
    switch (fmt) {
    case G3D_FMT_ARGB8888:
    case G3D_FMT_ABGR8888:
    case G3D_FMT_RGBA8888:
    case G3D_FMT_XRGB8888:
        return 4;
    case G3D_FMT_RGB888_B:
    case G3D_FMT_BGR888_B:
        return 3;
    case G3D_FMT_RGB565:
    case G3D_FMT_ARGB1555:
    case G3D_FMT_RGBA5551:
    case G3D_FMT_ARGB4444:
    case G3D_FMT_RGBA4444:
    case G3D_FMT_LA88:
    case G3D_FMT_AL88:
        return 2;
    case G3D_FMT_L8:
    case G3D_FMT_A8:
        return 1;
    default:
        return 0;
    }
}

/* unpack a 16-bit word with fields (shift, bits) for r, g, b, a (bits 0: 1.0) */
static G3DRGBA8 unpack16(uint16_t v, int rs, int rb, int gs, int gb,
                         int bs, int bb, int as, int ab)
{
    G3DRGBA8 c;

    c.r = g3d_expand_bits((v >> rs) & ((1u << rb) - 1), rb);
    c.g = g3d_expand_bits((v >> gs) & ((1u << gb) - 1), gb);
    c.b = g3d_expand_bits((v >> bs) & ((1u << bb) - 1), bb);
    c.a = ab ? g3d_expand_bits((v >> as) & ((1u << ab) - 1), ab) : 0xff;
    return c;
}

static uint16_t pack16(G3DRGBA8 c, int rs, int rb, int gs, int gb,
                       int bs, int bb, int as, int ab)
{
    uint32_t v = g3d_reduce_bits(c.r, rb) << rs |
                 g3d_reduce_bits(c.g, gb) << gs |
                 g3d_reduce_bits(c.b, bb) << bs;
    if (ab) {
        v |= g3d_reduce_bits(c.a, ab) << as;
    }
    return (uint16_t)v;
}

G3DRGBA8 g3d_fmt_unpack(G3DPixFmt fmt, const uint8_t *p)
{
    G3DRGBA8 c = { 0, 0, 0, 0xff };
    uint32_t v;

    switch (fmt) {
    case G3D_FMT_ARGB8888:
    case G3D_FMT_XRGB8888:
        v = rd32(p);
        c.b = v;
        c.g = v >> 8;
        c.r = v >> 16;
        c.a = fmt == G3D_FMT_XRGB8888 ? 0xff : v >> 24;
        break;
    case G3D_FMT_ABGR8888:
        c.r = p[0];
        c.g = p[1];
        c.b = p[2];
        c.a = p[3];
        break;
    case G3D_FMT_RGBA8888:
        c.a = p[0];
        c.b = p[1];
        c.g = p[2];
        c.r = p[3];
        break;
    case G3D_FMT_RGB565:
        return unpack16(rd16(p), 11, 5, 5, 6, 0, 5, 0, 0);
    case G3D_FMT_ARGB1555:
        return unpack16(rd16(p), 10, 5, 5, 5, 0, 5, 15, 1);
    case G3D_FMT_RGBA5551:
        return unpack16(rd16(p), 11, 5, 6, 5, 1, 5, 0, 1);
    case G3D_FMT_ARGB4444:
        return unpack16(rd16(p), 8, 4, 4, 4, 0, 4, 12, 4);
    case G3D_FMT_RGBA4444:
        return unpack16(rd16(p), 12, 4, 8, 4, 4, 4, 0, 4);
    case G3D_FMT_RGB888_B:
        c.r = p[0];
        c.g = p[1];
        c.b = p[2];
        break;
    case G3D_FMT_BGR888_B:
        c.b = p[0];
        c.g = p[1];
        c.r = p[2];
        break;
    case G3D_FMT_L8:
        c.r = c.g = c.b = p[0];
        break;
    case G3D_FMT_A8:
        c.r = c.g = c.b = 0;
        c.a = p[0];
        break;
    case G3D_FMT_LA88:
        c.r = c.g = c.b = p[0];
        c.a = p[1];
        break;
    case G3D_FMT_AL88:
        c.a = p[0];
        c.r = c.g = c.b = p[1];
        break;
    default:
        break;
    }
    return c;
}

void g3d_fmt_pack(G3DPixFmt fmt, uint8_t *p, G3DRGBA8 c)
{
    switch (fmt) {
    case G3D_FMT_ARGB8888:
    case G3D_FMT_XRGB8888:
        wr32(p, (uint32_t)c.a << 24 | c.r << 16 | c.g << 8 | c.b);
        break;
    case G3D_FMT_ABGR8888:
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        p[3] = c.a;
        break;
    case G3D_FMT_RGBA8888:
        p[0] = c.a;
        p[1] = c.b;
        p[2] = c.g;
        p[3] = c.r;
        break;
    case G3D_FMT_RGB565:
        wr16(p, pack16(c, 11, 5, 5, 6, 0, 5, 0, 0));
        break;
    case G3D_FMT_ARGB1555:
        wr16(p, pack16(c, 10, 5, 5, 5, 0, 5, 15, 1));
        break;
    case G3D_FMT_RGBA5551:
        wr16(p, pack16(c, 11, 5, 6, 5, 1, 5, 0, 1));
        break;
    case G3D_FMT_ARGB4444:
        wr16(p, pack16(c, 8, 4, 4, 4, 0, 4, 12, 4));
        break;
    case G3D_FMT_RGBA4444:
        wr16(p, pack16(c, 12, 4, 8, 4, 4, 4, 0, 4));
        break;
    case G3D_FMT_RGB888_B:
        p[0] = c.r;
        p[1] = c.g;
        p[2] = c.b;
        break;
    case G3D_FMT_BGR888_B:
        p[0] = c.b;
        p[1] = c.g;
        p[2] = c.r;
        break;
    case G3D_FMT_L8:
        p[0] = c.r;
        break;
    case G3D_FMT_A8:
        p[0] = c.a;
        break;
    case G3D_FMT_LA88:
        p[0] = c.r;
        p[1] = c.a;
        break;
    case G3D_FMT_AL88:
        p[0] = c.a;
        p[1] = c.r;
        break;
    default:
        break;
    }
}

void g3d_fmt_row_to_argb(G3DPixFmt fmt, const uint8_t *src, uint32_t *dst,
                         int n)
{
    int bpp = g3d_fmt_bpp(fmt), i;

    if (fmt == G3D_FMT_ARGB8888 || fmt == G3D_FMT_XRGB8888) {
        for (i = 0; i < n; i++) {
            dst[i] = rd32(src + 4 * i) | 0xff000000u;
        }
        return;
    }
    for (i = 0; i < n; i++) {
        G3DRGBA8 c = g3d_fmt_unpack(fmt, src + bpp * i);
        dst[i] = 0xff000000u | c.r << 16 | c.g << 8 | c.b;
    }
}
