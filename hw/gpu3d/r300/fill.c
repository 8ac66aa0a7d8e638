/*
 * R300 triangles whose every pixel provably gets the same bytes, drawn as
 * fills (common/raster.h G3DBlockFn) instead of quads: a draw that
 * r300_quad_lanes takes, without a fetch or blending, whose moved RS vector
 * is one colour at the three vertices, with no depth test or Z ALWAYS (its
 * write of one depth too). Mesa's clears and blits are such draws
 * (util_blitter draws a rectangle with a constant colour and depth).
 *
 * Why the bytes are the quads': at a covered pixel every weight the
 * rasteriser gives is >= 0 (the edge values are; with perspective, when
 * every 1/w is positive), and they sum to 1 within a few ulps, so the
 * interpolated component, g3d_interp(w, c, c, c), is c * (1 + e) with |e|
 * < 2^-21 (six roundings of non-negative terms). The write packs
 * clamp(v) * 255 + 0.5 and truncates: if c <= 0 every pixel gets 0, if
 * c >= 1 every pixel 255, and otherwise c * 255 + 0.5 at least 1/64 from
 * an integer truncates the same for every such v (255 * 2^-21 is far
 * below 1/64). Depth z0 + w1 (z1 - z0) + w2 (z2 - z0) with three equal
 * finite depths is z0 + 0 + 0 at every pixel.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"
#include "common/fill.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* runs of adjacent bytes gathered before they are filled */
typedef struct Run {
    uint8_t *p;
    unsigned n;                 /* words */
    uint32_t val, keep;
} Run;

static inline void run_add(Run *r, uint8_t *p, unsigned n)
{
    if (r->n && p == r->p + 4 * r->n) {
        r->n += n;
        return;
    }
    if (r->n) {
        g3d_fill32_keep(r->p, r->n, r->val, r->keep);
    }
    r->p = p;
    r->n = n;
}

/* rows [y0, y1) of columns [x0, x1), micro tile by micro tile */
static void fill_rows(Run *r, uint8_t *base, const R300Tiling *tl, int x0,
                      int y0, int x1, int y1)
{
    const int um = (1 << tl->uw) - 1;
    int x, y;

    for (y = y0; y < y1; y++) {
        for (x = x0; x < x1; ) {
            int end = MIN(x1, (x | um) + 1);

            run_add(r, base + r300_tile_offset(tl, x, y), end - x);
            x = end;
        }
    }
}

/*
 * Pixels [x0, x1) x [y0, y1) of a 32-bit surface in its macro/micro
 * tiling (tile.h) become (old & keep) | val: a row at a time where the
 * surface is linear (one run for whole rows); elsewhere each band of micro
 * tile rows that the rectangle covers from top to bottom as whole 32-byte micro tiles (those
 * side by side in one macro tile are one run), its ends and the other rows
 * a micro tile's part of one row at a time.
 */
static void fill32(uint8_t *base, const R300Tiling *tl, int x0, int y0,
                   int x1, int y1, uint32_t val, uint32_t keep)
{
    Run r = { .val = val & ~keep, .keep = keep };
    const int uw = 1 << tl->uw, uh = 1 << tl->uh;
    int y;

    if (tl->linear) {
        uint8_t *p = base + ((uint64_t)y0 * tl->pitch + x0) * 4;

        if (x1 - x0 == (int)tl->pitch) {
            /* whole rows: one run */
            g3d_fill32_keep(p, (unsigned)(x1 - x0) * (y1 - y0), r.val, keep);
            return;
        }
        for (y = y0; y < y1; y++, p += (size_t)tl->pitch * 4) {
            g3d_fill32_keep(p, x1 - x0, r.val, keep);
        }
        return;
    }
    for (y = y0; y < y1; ) {
        int band_end = (y | (uh - 1)) + 1;
        int yb = MIN(band_end, y1);
        int xa = MIN((x0 + uw - 1) & -uw, x1), xb = MAX(x1 & -uw, xa);
        int x;

        if (uh == 1 || (y & (uh - 1)) || yb != band_end || xa == xb) {
            fill_rows(&r, base, tl, x0, y, x1, yb);
            y = yb;
            continue;
        }
        fill_rows(&r, base, tl, x0, y, xa, yb);
        for (x = xa; x < xb; x += uw) {
            run_add(&r, base + r300_tile_offset(tl, x, y), 8);
        }
        fill_rows(&r, base, tl, xb, y, x1, yb);
        y = yb;
    }
    if (r.n) {
        g3d_fill32_keep(r.p, r.n, r.val, r.keep);
    }
}

void r300_flat_fill(void *opaque, int x0, int y0, int x1, int y1, int thread)
{
    const R300Tri *t = opaque;
    const R300DrawState *ds = t->ds;

    if (ds->lanes.colour) {
        const R300Target *tg = &ds->cb[ds->move.target];

        fill32(tg->base, &tg->tiling, x0, y0, x1, y1, t->flat_colour,
               ~ds->lanes.write_mask);
    }
    if (ds->depth && ds->zwrite) {
        /* depth_z24: Z over the stencil byte */
        fill32(ds->zbase, &ds->ztiling, x0, y0, x1, y1, t->flat_z24 << 8,
               0xFF);
    }
    r300_zpass_add(ds, thread, (uint64_t)(x1 - x0) * (y1 - y0));
}

/* clamp01 (quad.c), as MAXPS then MINPS: NaN gives 0 */
static inline float clamp01(float v)
{
    v = v > 0.0f ? v : 0.0f;
    return v < 1.0f ? v : 1.0f;
}

/* every c * (1 + e), |e| < 2^-21, packs to the byte c packs to */
static bool packs_alike(float c)
{
    float d, f;

    if (!isfinite(c)) {
        return false;
    }
    if (c <= 0.0f || c >= 1.0f) {
        return true;
    }
    d = c * 255.0f + 0.5f;
    f = d - floorf(d);
    return f >= 1.0f / 64 && f <= 63.0f / 64;
}

bool r300_flat_fill_ok(R300Tri *t, const G3DRasterVertex v[3])
{
    const R300DrawState *ds = t->ds;
    const R300QuadLanes *ql = &ds->lanes;
    const R300USMove *m = &ds->move;
    uint32_t word = 0;
    int k;

    if (!ql->flat) {
        return false;
    }
    if (ds->perspective && !g3d_inv_w_positive(v)) {
        return false;
    }
    if (ds->depth && ds->zwrite) {
        float z = t->z[0];

        if (!isfinite(z) || z != t->z[1] || z != t->z[2]) {
            return false;
        }
        /* quad_tail's rounding of z0 + w1 * 0 + w2 * 0 */
        t->flat_z24 = (uint32_t)g3d_clampf(roundf(z + 0.0f + 0.0f), 0.0f,
                                           16777215.0f);
    }
    if (ql->colour) {
        for (k = 0; k < 4; k++) {
            unsigned ch = ql->sel[k];
            float c = 0.0f;

            if (ds->move_src_vec >= 0) {
                c = t->vec[0][ds->move_src_vec][ch];
                if (c != t->vec[1][ds->move_src_vec][ch] ||
                    c != t->vec[2][ds->move_src_vec][ch] || !packs_alike(c)) {
                    return false;
                }
            }
            /* the move's src * 1 + 0 and clamp, the C4_8 pre-quantise,
             * the pack (quad-lanes.c colour_lanes) */
            c = c * 1.0f + 0.0f;
            if (ch < 3 ? m->rgb_clamp : m->alpha_clamp) {
                c = clamp01(c);
            }
            if (ql->prequantise) {
                c = (float)(int32_t)(clamp01(c) * 255.0f + 0.5f) / 255.0f;
            }
            word |= (uint32_t)(int32_t)(clamp01(c) * 255.0f + 0.5f) << (8 * k);
        }
        t->flat_colour = word;
    }
    return true;
}
