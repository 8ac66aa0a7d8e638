/*
 * The setup engine: snaps screen vertices to its s9.4 grid (EGSXshft /
 * EGSYshft, L585-L586: 1/16 pixel, -512 .. 511.9375), culls by winding
 * (260Ch RGPenCull / RGPCullDflg), chooses the fill mode per facing
 * (2050h), writes the transformed-vertex registers (1C00h, "Output vertices
 * from G/L to Setup") and the edge-walker registers (1CA0h-1D73h) of the
 * triangle it sets up, and hands the triangle to the shared rasteriser with
 * pixel-centre sampling and the top-left rule.
 *
 * Winding is taken on the screen, y growing downwards: a triangle whose
 * vertices a, b, c turn clockwise as seen is CW.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <math.h>
#include <string.h>

#include "common/fpformat.h"

#define SUB 16                    /* grid steps per pixel */
#define LIMIT (512 * SUB)         /* s9 integer part */

static uint32_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint32_t argb8(const float c[4])
{
    return g3d_f2unorm(c[3], 8) << 24 | g3d_f2unorm(c[0], 8) << 16 |
           g3d_f2unorm(c[1], 8) << 8 | g3d_f2unorm(c[2], 8);
}

static uint32_t sfix(float v, int frac, int bits)
{
    int32_t i = (int32_t)lrintf(g3d_clampf(v, -1e6f, 1e6f) * (float)(1 << frac));
    return (uint32_t)i & ((1u << bits) - 1);
}

/* 1C00h: vertices a, b, c as the G/L engine hands them to setup */
static void write_setup_inputs(GlamoCore *c, const GlamoScreenVertex *v[3])
{
    int k;

    for (k = 0; k < 3; k++) {
        uint32_t b = GLAMO_RGX_VTX(k);
        glamo_set32(c, b + GLAMO_RGX_X, f32bits(glamo_f24_round(v[k]->x)));
        glamo_set32(c, b + GLAMO_RGX_Y, f32bits(glamo_f24_round(v[k]->y)));
        glamo_set32(c, b + GLAMO_RGX_Z, f32bits(glamo_f24_round(v[k]->z)));
        glamo_set32(c, b + GLAMO_RGX_W,
                    f32bits(glamo_f24_round(v[k]->inv_w ? 1.0f / v[k]->inv_w : 0)));
        glamo_set32(c, b + GLAMO_RGX_ARGB, argb8(v[k]->diff));
        glamo_set32(c, b + GLAMO_RGX_FSPEC,
                    g3d_f2unorm(v[k]->spec[3], 8) << 24 |
                    (argb8(v[k]->spec) & 0xffffff));
        glamo_set32(c, b + GLAMO_RGX_UA, f32bits(glamo_f24_round(v[k]->tex[0][0])));
        glamo_set32(c, b + GLAMO_RGX_VA, f32bits(glamo_f24_round(v[k]->tex[0][1])));
        glamo_set32(c, b + GLAMO_RGX_UB, f32bits(glamo_f24_round(v[k]->tex[1][0])));
        glamo_set32(c, b + GLAMO_RGX_VB, f32bits(glamo_f24_round(v[k]->tex[1][1])));
    }
}

/*
 * 1CA0h-1D2Ch: the edge walkers (top T, middle M, bottom B by y) and the
 * start values (at T) and x/y gradients of Z and the colours, in the
 * register formats of L1745-L1949. Informational: rasterisation itself
 * uses the exact edge functions of the shared rasteriser.
 */
static void write_setup_outputs(GlamoCore *c, const int32_t X[3],
                                const int32_t Y[3], const float *attr[3],
                                int64_t area)
{
    static const struct { uint32_t reg; int ch; int frac, bits, scale; } col[] = {
        { A_EGSAyst, 3, 8, 15, 63 }, { A_EGSRyst, 0, 8, 14, 31 },
        { A_EGSGyst, 1, 8, 15, 63 }, { A_EGSByst, 2, 8, 14, 31 },
    };
    int t = 0, m, b = 0, k, i;
    float dy, dx;

    for (k = 1; k < 3; k++) {
        if (Y[k] < Y[t]) {
            t = k;
        }
        if (Y[k] >= Y[b]) {
            b = k;
        }
    }
    if (t == b) {
        b = (t + 1) % 3;
    }
    m = 3 - t - b;
    dy = (float)(Y[b] - Y[t]) / SUB;
    glamo_set32(c, A_EGSXst, sfix((float)X[t] / SUB, 10, 20) |
                (c->last_drawdir ? 1u << 31 : 0));
    glamo_set32(c, A_EGSXstdy, sfix(dy ? (X[b] - X[t]) / (float)SUB / dy : 0,
                                    10, 20));
    glamo_set32(c, A_EGSYst, sfix(ceilf((float)Y[t] / SUB - 0.5f), 0, 10));
    glamo_set32(c, A_EGSYcnt,
                ((uint32_t)((Y[b] - Y[m]) / SUB) & 0x1ff) << 16 |
                ((uint32_t)((Y[m] - Y[t]) / SUB) & 0x1ff));
    dx = (float)(Y[m] - Y[t]) / SUB;
    glamo_set32(c, A_EGSXend, sfix((float)X[t] / SUB, 10, 20));
    glamo_set32(c, A_EGSXendy, sfix(dx ? (X[m] - X[t]) / (float)SUB / dx : 0,
                                    10, 20));
    dx = (float)(Y[b] - Y[m]) / SUB;
    glamo_set32(c, A_EGSXbt, sfix((float)X[m] / SUB, 10, 20));
    glamo_set32(c, A_EGSXbtdy, sfix(dx ? (X[b] - X[m]) / (float)SUB / dx : 0,
                                    10, 20));
    glamo_set32(c, A_EGSshft, ((uint32_t)Y[t] & 0x3fff) << 16 |
                ((uint32_t)X[t] & 0x3fff));

    /* plane gradients: a = a_t + dadx (x - x_t) + dady (y - y_t) */
    for (i = 0; i < 5; i++) {
        float a0, a1, a2, ddx, ddy;
        const float s = (float)SUB * SUB / (float)area;
        if (i < 4) {
            a0 = attr[0][4 + col[i].ch] * col[i].scale;
            a1 = attr[1][4 + col[i].ch] * col[i].scale;
            a2 = attr[2][4 + col[i].ch] * col[i].scale;
        } else {
            a0 = attr[0][2];
            a1 = attr[1][2];
            a2 = attr[2][2];
        }
        ddx = ((a1 - a0) * (Y[2] - Y[0]) - (a2 - a0) * (Y[1] - Y[0])) * s / SUB;
        ddy = ((a2 - a0) * (X[1] - X[0]) - (a1 - a0) * (X[2] - X[0])) * s / SUB;
        if (i < 4) {
            float st = attr[t][4 + col[i].ch] * col[i].scale;
            glamo_set32(c, col[i].reg, sfix(st, 8, col[i].bits));
            glamo_set32(c, col[i].reg + 4, sfix(ddx, 8, col[i].bits));
            glamo_set32(c, col[i].reg + 8, sfix(ddy, 8, col[i].bits));
        } else {
            glamo_set32(c, A_EGSZyst, glamo_f24_from_float(attr[t][2]));
            glamo_set32(c, A_EGSZdx, glamo_f24_from_float(ddx));
            glamo_set32(c, A_EGSZdy, glamo_f24_from_float(ddy));
        }
    }
}

/* the decoded back-end state, shared by the triangles queued until it
 * changes; it lives in the rasteriser's arena */
const GlamoRenderState *glamo_setup_state(GlamoCore *c)
{
    if (c->raster_pending >= GLAMO_FLUSH_TRIANGLES) {
        glamo_flush(c);
    }
    if (!c->rs || c->rs_dirty) {
        unsigned logged = g3d_log_count(G3D_LOG_GUEST_ERROR) +
                          g3d_log_count(G3D_LOG_UNIMP);
        c->rs = g3d_raster_alloc(c->raster, sizeof(GlamoRenderState));
        glamo_render_decode(c, c->rs);
        c->rs_dirty = false;
        /* front.c: where this state is decoded again may show */
        c->rs_logs = g3d_log_count(G3D_LOG_GUEST_ERROR) +
                     g3d_log_count(G3D_LOG_UNIMP) != logged;
    }
    return c->rs;
}

static bool snap(GlamoCore *c, const GlamoScreenVertex *v, int32_t *x,
                 int32_t *y)
{
    float fx = v->x * SUB, fy = v->y * SUB;

    if (!(fx >= -LIMIT && fx < LIMIT && fy >= -LIMIT && fy < LIMIT)) {
        g3d_error(&c->errors, 0, 0,
                  "glamo setup: vertex (%g, %g) beyond the setup "
                  "range -512..511, primitive skipped", v->x, v->y);
        return false;
    }
    *x = (int32_t)lrintf(fx);
    *y = (int32_t)lrintf(fy);
    return true;
}

/*
 * Polygon offset (260Ch D[19], 2620h-2628h): the D3D9 depth bias,
 * slope * max |dz/dx|, |dz/dy| + resolution coefficient, with the optional
 * clamp; RGPZClamp holds "D3DZClamp - RGPResCoff" (L1357-L1360), so the
 * slope term is clamped before the resolution term is added.
 */
static float polygon_offset(GlamoCore *c, const float zpl[3])
{
    float slope = fmaxf(fabsf(zpl[1]), fabsf(zpl[2]));
    float off = glamo_rf24(c, A_RGXSlopeCoeff) * slope;

    if (GLAMO_FIELD(c, RGXFEN3, RGPenZClamp)) {
        float cl = glamo_rf24(c, A_RGPZClamp);
        off = GLAMO_FIELD(c, RGXFEN3, RGPZClampSign) ? fmaxf(off, cl)
                                                     : fminf(off, cl);
    }
    return off + glamo_rf24(c, A_RGXResCoeff);
}

/* queue one triangle of snapped vertices with its attributes */
static void raster_triangle(GlamoCore *c, const GlamoRenderState *rs,
                            const int32_t X[3], const int32_t Y[3],
                            const GlamoScreenVertex *v[3], bool back)
{
    GlamoTri *t = g3d_raster_alloc(c->raster, sizeof(GlamoTri));
    G3DTriangle gt = {
        .clip = rs->clip,
        .rules = &g3d_rules_top_left_16,
        .shade = rs->shade,
        .user = t,
    };
    int k, u, flat = rs->gouraud ? -1 : rs->flat_vertex;

    t->rs = rs;
    t->kind = c->prim_kind;
    t->line = c->line;
    {
        /* plane equations over the snapped vertices, in pixels */
        double x0 = X[0] / (double)SUB, y0 = Y[0] / (double)SUB;
        double dx1 = (X[1] - X[0]) / (double)SUB, dy1 = (Y[1] - Y[0]) / (double)SUB;
        double dx2 = (X[2] - X[0]) / (double)SUB, dy2 = (Y[2] - Y[0]) / (double)SUB;
        double inv_area = 1.0 / (dx1 * dy2 - dx2 * dy1);
        double a[GLAMO_NPL][3];
        int p;

        for (k = 0; k < 3; k++) {
            const GlamoScreenVertex *src = flat >= 0 ? v[flat] : v[k];
            double iw = rs->tex_persp ? v[k]->inv_w : 1.0;
            a[GLAMO_PL_Z][k] = v[k]->z * rs->z_scale;
            a[GLAMO_PL_IW][k] = v[k]->inv_w;
            for (p = 0; p < 4; p++) {
                a[GLAMO_PL_COL + p][k] = back ? src->diff2[p] : src->diff[p];
                a[GLAMO_PL_SPEC + p][k] = back ? src->spec2[p] : src->spec[p];
            }
            a[GLAMO_PL_SPEC + 3][k] = v[k]->spec[3];   /* fog: always smooth */
            for (u = 0; u < 2; u++) {
                const float *tc = v[k]->tex[rs->tex_from[u]];
                a[GLAMO_PL_TEX + 2 * u][k] = tc[0] * iw;
                a[GLAMO_PL_TEX + 2 * u + 1][k] = tc[1] * iw;
            }
        }
        for (p = 0; p < GLAMO_NPL; p++) {
            double d1 = a[p][1] - a[p][0], d2 = a[p][2] - a[p][0];
            double ddx = (d1 * dy2 - d2 * dy1) * inv_area;
            double ddy = (d2 * dx1 - d1 * dx2) * inv_area;
            t->pl[p][0] = (float)(a[p][0] - ddx * x0 - ddy * y0);
            t->pl[p][1] = (float)ddx;
            t->pl[p][2] = (float)ddy;
        }
        if (GLAMO_FIELD(c, RGXFEN3, RGPenPolygonOffset)) {
            t->pl[GLAMO_PL_Z][0] += polygon_offset(c, t->pl[GLAMO_PL_Z]);
        }
        for (k = 0; k < 3; k++) {
            gt.v[k].x = X[k];
            gt.v[k].y = Y[k];
            gt.v[k].inv_w = 1.0f;
        }
        gt.no_weights = true;
    }
    gt.fill = glamo_render_fill(t, (MAX(MAX(X[0], X[1]), X[2]) -
                                    MIN(MIN(X[0], X[1]), X[2])) / SUB);
    /* a flat fill takes any rectangle (render.c flat_fill) */
    gt.fill_wide = gt.fill && gt.fill == rs->fill_flat;
    if (g3d_raster_triangle(c->raster, &gt)) {
        if (rs->serial_tiles) {
            g3d_raster_serial(c->raster);
        }
        c->raster_pending++;
        c->stats.primitives++;
        c->stats.fast_primitives += rs->shade != glamo_render_quad;
        c->stats.span_primitives += gt.fill != NULL;
        c->stats.flat_primitives += gt.fill && gt.fill == rs->fill_flat;
    }
}

void glamo_setup_triangle(GlamoCore *c, const GlamoScreenVertex *v[3],
                          bool allow_cull)
{
    const GlamoRenderState *rs;
    int32_t X[3], Y[3];
    int64_t area;
    bool cw, ccw_side;
    int fill, k;

    for (k = 0; k < 3; k++) {
        if (!snap(c, v[k], &X[k], &Y[k])) {
            return;
        }
    }
    area = (int64_t)(X[1] - X[0]) * (Y[2] - Y[0]) -
           (int64_t)(Y[1] - Y[0]) * (X[2] - X[0]);
    if (area == 0) {
        c->stats.culled++;      /* the zero test */
        return;
    }
    cw = area > 0;
    ccw_side = !cw;
    if (allow_cull && GLAMO_FIELD(c, RGXFEN3, RGPenCull)) {
        /* RGPCullDflg names the winding that is removed (docs) */
        bool cull_ccw = GLAMO_FIELD(c, RGXFEN3, RGPCullDflg);
        if (GLAMO_FIELD(c, RGXFEN2, RGXen2SideCull) || cull_ccw == !cw) {
            c->stats.culled++;
            return;
        }
    }
    fill = (ccw_side && GLAMO_FIELD(c, RGXFEN0, RGXen2SideFill)) ?
           GLAMO_FIELD(c, EGPrim0, EGPCCWFillMode) :
           GLAMO_FIELD(c, EGPrim0, EGFillMode);
    if (!allow_cull) {
        fill = GLAMO_FILL_SOLID;      /* lines and points drawn as quads */
    }
    switch (fill) {
    case GLAMO_FILL_POINT:
        for (k = 0; k < 3; k++) {
            glamo_setup_point(c, v[k]);
        }
        return;
    case GLAMO_FILL_WIRE:
        for (k = 0; k < 3; k++) {
            c->asmb.stipple_count = 0.0f;   /* each edge a line of its own */
            glamo_setup_line(c, v[k], v[(k + 1) % 3]);
        }
        return;
    case GLAMO_FILL_SOLID:
        break;
    default:
        g3d_error(&c->errors, 0, 0,
                  "glamo setup: reserved fill mode 0, triangle "
                  "skipped");
        return;
    }

    rs = glamo_setup_state(c);
    if (!rs->valid) {
        g3d_error_silent(&c->errors, 0, 0);
        return;
    }
    {
        /* triangle: the side the middle vertex is on gives the direction */
        int t = 0, b = 0, m;
        for (k = 1; k < 3; k++) {
            t = Y[k] < Y[t] ? k : t;
            b = Y[k] >= Y[b] ? k : b;
        }
        b = t == b ? (t + 1) % 3 : b;
        m = 3 - t - b;
        c->last_drawdir = ((int64_t)(X[b] - X[t]) * (Y[m] - Y[t]) -
                           (int64_t)(Y[b] - Y[t]) * (X[m] - X[t])) > 0;
    }
    write_setup_inputs(c, v);
    {
        const float *attr[3];
        float buf[3][8];
        for (k = 0; k < 3; k++) {
            buf[k][0] = v[k]->x;
            buf[k][1] = v[k]->y;
            buf[k][2] = v[k]->z;
            memcpy(&buf[k][4], v[k]->diff, 4 * sizeof(float));
            attr[k] = buf[k];
        }
        write_setup_outputs(c, X, Y, attr, area);
    }
    c->setups++;
    /* lines and points (allow_cull false) always show the front colour */
    raster_triangle(c, rs, X, Y, v, allow_cull && ccw_side);
}

/*
 * Lines: a rectangle RGPLineWidth wide (9.4, at least one pixel). The line
 * stipple counter runs along the major axis from the start vertex on from
 * c->asmb.stipple_count, which the assembly keeps across a strip.
 */
void glamo_setup_line(GlamoCore *c, const GlamoScreenVertex *a,
                      const GlamoScreenVertex *b)
{
    float w = GLAMO_FIELD(c, RGPLINE, RGPLineWidth) / 16.0f;
    float dx = b->x - a->x, dy = b->y - a->y, len = sqrtf(dx * dx + dy * dy);
    GlamoScreenVertex q[4];
    const GlamoScreenVertex *t[3];
    float nx, ny;

    if (len == 0.0f) {
        return;
    }
    if (w < 1.0f) {
        w = 1.0f;
    }
    nx = -dy / len * w * 0.5f;
    ny = dx / len * w * 0.5f;
    q[0] = *a;
    q[1] = *a;
    q[2] = *b;
    q[3] = *b;
    q[0].x += nx; q[0].y += ny;
    q[1].x -= nx; q[1].y -= ny;
    q[2].x -= nx; q[2].y -= ny;
    q[3].x += nx; q[3].y += ny;
    c->prim_kind = GLAMO_KIND_LINE;
    c->line = (GlamoLineInfo){ a->x, a->y, fabsf(dx) >= fabsf(dy),
                               c->asmb.stipple_count, -dy / len, dx / len,
                               0.0f };
    t[0] = &q[0]; t[1] = &q[1]; t[2] = &q[2];
    glamo_setup_triangle(c, t, false);
    t[0] = &q[0]; t[1] = &q[2]; t[2] = &q[3];
    glamo_setup_triangle(c, t, false);
    c->prim_kind = GLAMO_KIND_TRIANGLE;
    c->asmb.stipple_count += fabsf(c->line.xmajor ? dx : dy);
}

/*
 * Points: a square of the point size, clipped to the point window. With
 * RGPenPtSprite (260Ch D[14]) every coordinate set runs from (0, 0) at the
 * top-left corner to (1, 1) at the bottom-right, the texture coordinates
 * of a point sprite in OpenGL ES 1.1 (GL_COORD_REPLACE_OES, with the
 * picture's top row first) and D3D9 alike.
 */
void glamo_setup_point(GlamoCore *c, const GlamoScreenVertex *a)
{
    float s = a->psize > 1.0f ? a->psize * 0.5f : 0.5f;
    GlamoScreenVertex q[4];
    const GlamoScreenVertex *t[3];
    uint32_t tb = glamo_r32(c, A_RGPPtCLTB), lr = glamo_r32(c, A_RGPPtCLLR);
    bool sprite = GLAMO_FIELD(c, RGXFEN3, RGPenPtSprite);
    int k, set;

    if (!isfinite(s) || s > 512.0f) {
        s = 512.0f;
    }
    /* the point clipping window (2654h/2658h, s10) applies when set */
    if (tb || lr) {
        int top = g3d_sextract32(tb, 0, 11), bot = g3d_sextract32(tb, 16, 11);
        int left = g3d_sextract32(lr, 0, 11), right = g3d_sextract32(lr, 16, 11);
        if (a->x < left || a->x >= right || a->y < top || a->y >= bot) {
            c->stats.culled++;
            return;
        }
    }
    for (k = 0; k < 4; k++) {
        bool right = k == 1 || k == 2, bottom = k >= 2;
        q[k] = *a;
        q[k].x += right ? s : -s;
        q[k].y += bottom ? s : -s;
        for (set = 0; sprite && set < GLAMO_TEX_SETS; set++) {
            q[k].tex[set][0] = right ? 1.0f : 0.0f;
            q[k].tex[set][1] = bottom ? 1.0f : 0.0f;
            q[k].tex[set][2] = 0.0f;
            q[k].tex[set][3] = 1.0f;
        }
    }
    c->prim_kind = GLAMO_KIND_POINT;
    c->line = (GlamoLineInfo){ a->x, a->y, true, 0.0f, 0.0f, 0.0f, 1.0f / s };
    t[0] = &q[0]; t[1] = &q[1]; t[2] = &q[2];
    glamo_setup_triangle(c, t, false);
    t[0] = &q[0]; t[1] = &q[2]; t[2] = &q[3];
    glamo_setup_triangle(c, t, false);
    c->prim_kind = GLAMO_KIND_TRIANGLE;
}
