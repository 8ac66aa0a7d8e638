/*
 * The rasterizer block (reference "Rasterizer registers" 0x040-0x07F, 3dbrew
 * GPU/Internal Registers 0x040-0x06E): clipping against the view volume -w <=
 * x, y <= w, -w <= z <= 0, w >= epsilon and the optional user clip plane
 * (FRAGOP_CLIP); face culling in window space; the viewport transform with
 * VIEWPORT_WIDTH/HEIGHT (half sizes) and VIEWPORT_XY; snapping to the 12.4
 * fixed-point grid; scissor; and setup for the shared rasteriser.
 *
 * Window space has y up (row 0 of memory is the top, ym = H - 1 - y), so the
 * rasteriser, whose y grows down, gets y' = H - y. Samples are at pixel
 * centres. Edge rule (Citra's software rasteriser, the usual "top-left
 * like" rule): a sample on an edge is out when the edge is a right edge, or
 * horizontal with the triangle below it in window space (the picture's top
 * edge). In the rasteriser's y-down rows that keeps left and bottom edges.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <math.h>
#include <string.h>

#include "common/clip.h"

#define MAX_CLIP_VERTS 16
#define PICA_RASTER_BATCH 16384      /* triangles queued before a flush */

static const G3DRasterRules pica_rules = {
    .subpixels = 16, .sample_x = 8, .sample_y = 8,
    .edge_in = G3D_EDGE_LEFT | G3D_EDGE_BOTTOM,
};
#define CLIP_EPSILON 0.00001f        /* w lower bound (Citra) */

typedef struct ClipPlane {
    float c[4];
    float bias;                      /* inside: dot(c, pos) + bias >= 0 */
} ClipPlane;

static const ClipPlane view_planes[7] = {
    { { -1, 0, 0, 1 }, 0 },          /* x <= w */
    { { 1, 0, 0, 1 }, 0 },           /* x >= -w */
    { { 0, -1, 0, 1 }, 0 },          /* y <= w */
    { { 0, 1, 0, 1 }, 0 },           /* y >= -w */
    { { 0, 0, -1, 0 }, 0 },          /* z <= 0 */
    { { 0, 0, 1, 1 }, 0 },           /* z >= -w */
    { { 0, 0, 0, 1 }, -CLIP_EPSILON }, /* w >= epsilon */
};

static inline float plane_dist(const ClipPlane *p, const PicaVertex *v)
{
    return g3d_plane_dist(p->c, v->s) + p->bias;
}

/* Sutherland-Hodgman against one plane; returns the new count */
static unsigned clip_plane(const ClipPlane *p, const PicaVertex *in, unsigned n,
                           PicaVertex *out)
{
    unsigned i, m = 0;

    for (i = 0; i < n; i++) {
        const PicaVertex *a = &in[i], *b = &in[(i + 1) % n];
        float da = plane_dist(p, a), db = plane_dist(p, b);

        if (da >= 0.0f) {
            out[m++] = *a;
        }
        if ((da >= 0.0f) != (db >= 0.0f) && m < MAX_CLIP_VERTS) {
            g3d_lerp(out[m].s, a->s, b->s, PICA_SEM_COUNT, da / (da - db));
            m++;
        }
        if (m >= MAX_CLIP_VERTS) {
            break;
        }
    }
    return m;
}

/* window-space, y-up screen position of a clip-space vertex */
typedef struct ScreenVert {
    float x, y;
    float zw, inv_w;
} ScreenVert;

static void emit(PicaFront *f, const PicaVertex *v[3])
{
    Pica200Core *c = f->c;
    const uint32_t *r = c->regs;
    /* staged: built before the chunks ran (draw_parallel), only read here */
    PicaRenderState *rs = pica_render_state(c);
    float hw = pica_f24_to_float(r[GPUREG_VIEWPORT_WIDTH]);
    float hh = pica_f24_to_float(r[GPUREG_VIEWPORT_HEIGHT]);
    int vx = g3d_sextract32(r[GPUREG_VIEWPORT_XY], 0, 10);
    int vy = g3d_sextract32(r[GPUREG_VIEWPORT_XY], 16, 10);
    unsigned cull = r[GPUREG_FACECULLING_CONFIG] & 3;
    G3DTriangle t;
    PicaTri *tri;
    ScreenVert sv[3];
    int64_t area, minx, maxx, miny, maxy;
    int k, i;

    if (!rs || !rs->color) {
        return;                      /* the render target is unusable */
    }
    for (k = 0; k < 3; k++) {
        float iw = 1.0f / v[k]->s[3];
        sv[k].x = (v[k]->s[0] * iw + 1.0f) * hw + vx;
        sv[k].y = (v[k]->s[1] * iw + 1.0f) * hh + vy;
        sv[k].zw = v[k]->s[2] * iw;
        sv[k].inv_w = iw;
        if (!(fabsf(sv[k].x) < 32768.0f && fabsf(sv[k].y) < 32768.0f)) {
            if (f->staged) {
                f->failed = true;    /* the serial run logs it */
                return;
            }
            g3d_guest_error("pica200: vertex lands at (%g, %g), outside the "
                            "rasteriser's range (viewport too large?); "
                            "triangle skipped", sv[k].x, sv[k].y);
            return;
        }
        /* 12.4 fixed point; rows counted from the top */
        t.v[k].x = (int32_t)lroundf(sv[k].x * 16.0f);
        t.v[k].y = (int32_t)rs->height * 16 - (int32_t)lroundf(sv[k].y * 16.0f);
        t.v[k].inv_w = iw;
    }
    /* signed area in y-up window space: > 0 is counter-clockwise */
    area = -((int64_t)(t.v[1].x - t.v[0].x) * (t.v[2].y - t.v[0].y) -
             (int64_t)(t.v[1].y - t.v[0].y) * (t.v[2].x - t.v[0].x));
    if ((cull == PICA_CULL_FRONT_CCW && area >= 0) ||
        (cull == PICA_CULL_BACK_CCW && area <= 0)) {
        return;
    }
    if (area == 0) {
        return;
    }
    t.clip = rs->scissor;
    t.rules = &pica_rules;
    t.shade = rs->shade;
    t.no_weights = false;
    tri = g3d_raster_alloc(c->raster, sizeof(*tri));
    tri->rs = rs;
    for (k = 0; k < 3; k++) {
        tri->zw[k] = sv[k].zw;
        tri->inv_w[k] = sv[k].inv_w;
        for (i = 0; i < 4; i++) {
            tri->color[k][i] = v[k]->s[PICA_SEM_COLOR_R + i];
        }
        if (rs->tex.active) {
            static const uint8_t tc_sem[7] = {
                PICA_SEM_TEXCOORD0_U, PICA_SEM_TEXCOORD0_V,
                PICA_SEM_TEXCOORD1_U, PICA_SEM_TEXCOORD1_V,
                PICA_SEM_TEXCOORD2_U, PICA_SEM_TEXCOORD2_V,
                PICA_SEM_TEXCOORD0_W,
            };
            for (i = 0; i < 7; i++) {
                tri->tc[k][i] = v[k]->s[tc_sem[i]];
            }
        }
        if (rs->light) {
            float d = 0.0f, sign;

            /*
             * A quaternion and its negation are the same rotation; one
             * opposite to vertex 0's (negative dot product) is negated so
             * the interpolation takes the short way, as the 3DS does
             * (Citra, rasterizer_accelerated.cpp AreQuaternionsOpposite).
             */
            for (i = 0; i < 4; i++) {
                d += v[0]->s[PICA_SEM_QUAT_X + i] * v[k]->s[PICA_SEM_QUAT_X + i];
            }
            sign = d < 0.0f ? -1.0f : 1.0f;
            for (i = 0; i < 4; i++) {
                tri->quat[k][i] = sign * v[k]->s[PICA_SEM_QUAT_X + i];
            }
            for (i = 0; i < 3; i++) {
                tri->view[k][i] = v[k]->s[PICA_SEM_VIEW_X + i];
            }
        }
    }
    t.user = tri;
    t.fill = pica_flat_fill(rs, tri) ? pica_fill_rgba8
             : pica_span_choose(rs, tri, &t);
    /*
     * Both the flat fill and the spans take any rectangle (framebuffer.c
     * pica_fill_rgba8, span_quads, span8: the Morton index is stepped
     * along a row across tiles), so they get rows of several tiles: fewer
     * calls and row set-ups a pixel
     */
    t.fill_wide = t.fill != NULL;
    if (!g3d_raster_triangle(c->raster, &t)) {
        return;
    }
    (*f->triangles)++;
    (*f->budget_used)++;
    /* staged: draw_parallel does both as it commits the stage */
    if (!f->staged) {
        if (rs->serial_tiles) {
            g3d_raster_serial(c->raster);
        }
        pica_raster_count(c, 1);
    }
    /* budget: one unit per triangle and per 1024 pixels of its box */
    minx = MIN(MIN(t.v[0].x, t.v[1].x), t.v[2].x) >> 4;
    maxx = MAX(MAX(t.v[0].x, t.v[1].x), t.v[2].x) >> 4;
    miny = MIN(MIN(t.v[0].y, t.v[1].y), t.v[2].y) >> 4;
    maxy = MAX(MAX(t.v[0].y, t.v[1].y), t.v[2].y) >> 4;
    minx = MAX(minx, t.clip.x0);
    maxx = MIN(maxx, t.clip.x1);
    miny = MAX(miny, t.clip.y0);
    maxy = MIN(maxy, t.clip.y1);
    if (maxx > minx && maxy > miny) {
        *f->budget_used += (unsigned)(((maxx - minx) * (maxy - miny)) >> 10);
    }
}

/* bound the queue (a geometry shader can emit many triangles at once) */
void pica_raster_count(Pica200Core *c, size_t n)
{
    c->queued_tris += n;
    if (c->queued_tris >= PICA_RASTER_BATCH) {
        pica_raster_flush(c);
    }
}

void pica_rasterize_triangle(PicaFront *f, const PicaVertex *v0,
                             const PicaVertex *v1, const PicaVertex *v2)
{
    Pica200Core *c = f->c;
    PicaVertex buf[2][MAX_CLIP_VERTS];
    const PicaVertex *tri[3] = { v0, v1, v2 };
    ClipPlane planes[8];
    unsigned nplanes = 7, n = 3, p, i, k;
    bool inside = true;

    memcpy(planes, view_planes, sizeof(view_planes));
    if (c->regs[GPUREG_FRAGOP_CLIP] & 1) {
        /* user clip plane: keep dot(coefficients, position) >= 0 */
        for (k = 0; k < 4; k++) {
            planes[7].c[k] = pica_f24_to_float(c->regs[GPUREG_FRAGOP_CLIP_DATA0 + k]);
        }
        planes[7].bias = 0;
        nplanes = 8;
    }
    for (k = 0; k < 3 && inside; k++) {
        for (p = 0; p < nplanes; p++) {
            if (!(plane_dist(&planes[p], tri[k]) >= 0.0f)) {
                inside = false;
                break;
            }
        }
    }
    if (inside) {
        emit(f, tri);
        return;
    }
    buf[0][0] = *v0;
    buf[0][1] = *v1;
    buf[0][2] = *v2;
    for (p = 0; p < nplanes && n >= 3; p++) {
        n = clip_plane(&planes[p], buf[p & 1], n, buf[(p + 1) & 1]);
    }
    for (i = 1; i + 1 < n; i++) {
        const PicaVertex *fan[3] = { &buf[p & 1][0], &buf[p & 1][i],
                                     &buf[p & 1][i + 1] };
        emit(f, fan);
    }
}
