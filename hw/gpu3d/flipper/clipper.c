/*
 * Clipping, culling, perspective divide and the expansion of lines and
 * points into triangles (Dolphin Software/TransformUnit.cpp, Clipper.cpp,
 * Software/Rasterizer.cpp).
 *
 * Decisions:
 * - Triangles are clipped to -w <= x, y <= w, w >= 0 and z >= -w the way
 *   Dolphin's software renderer clips them (see clip_mask), and fanned from
 *   their first vertex; the hardware guard band is not modelled. XF
 *   ClipDisable bit 0 turns clipping off while every w is positive.
 * - Culling uses the sign of the clip-space area as Dolphin computes it;
 *   GEN_MODE.REJECT_EN bit 0 culls what that sign calls front-facing and bit
 *   1 the other side (libogc GX_CULL_BACK = 1, GX_CULL_FRONT = 2); the sign
 *   flips with a positive viewport height.
 * - Lines and points become two triangles each: a line is widened by
 *   LINEPTWIDTH.LSIZE / 6 pixels across its major axis, a point is a square
 *   of side PSIZE / 6 (units of 1/6 pixel, YAGCD §5.11.1 BP registers), as
 *   Dolphin draws them, with the texture coordinate offsets of SU_LPSIZE
 *   (tex_offset). They are not clipped; one with a vertex at w <= 0 is dropped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include <math.h>

#include "common/clip.h"

enum { CLIP_MAX = 16 };     /* a triangle clipped by 6 planes: <= 9 */

static void perspective_divide(FlipperCore *c, GXVertex *v)
{
    float winv = 1.0f / v->proj[3];

    v->screen[0] = v->proj[0] * winv * xf_f(c, XF_REG_VIEWPORT + 0) +
                   xf_f(c, XF_REG_VIEWPORT + 3);
    v->screen[1] = v->proj[1] * winv * xf_f(c, XF_REG_VIEWPORT + 1) +
                   xf_f(c, XF_REG_VIEWPORT + 4);
    v->screen[2] = v->proj[2] * winv * xf_f(c, XF_REG_VIEWPORT + 2) +
                   xf_f(c, XF_REG_VIEWPORT + 5);
}

/*
 * Outcodes: outside x = +-w, y = +-w, z > 0 (z and w of the same sign) and
 * z < -w. The polygon is then clipped against x, y, w >= 0 and z >= -w:
 * like Dolphin, the near side is cut at w = 0 (the eye plane) and depth
 * between the eye and z = 0 is clamped by the rasteriser.
 */
static unsigned clip_mask(const GXVertex *v)
{
    const float *p = v->proj;
    unsigned m = 0;

    m |= (p[3] - p[0] < 0) << 0;
    m |= (p[0] + p[3] < 0) << 1;
    m |= (p[3] - p[1] < 0) << 2;
    m |= (p[1] + p[3] < 0) << 3;
    m |= (p[3] * p[2] > 0) << 4;
    m |= (p[2] + p[3] < 0) << 5;
    return m;
}

/* signed distance to clip plane k (inside >= 0) */
static float plane_dist(const GXVertex *v, int k)
{
    const float *p = v->proj;

    switch (k) {
    case 0: return p[3] - p[0];
    case 1: return p[0] + p[3];
    case 2: return p[3] - p[1];
    case 3: return p[1] + p[3];
    case 4: return p[3];
    default: return p[2] + p[3];
    }
}

/* the vertex where the edge from `out` (outside) to `in` crosses a plane */
static void lerp_vertex(GXVertex *v, const GXVertex *out, const GXVertex *in,
                        float t)
{
    /* colours step in 1/256 of the edge, as Dolphin's clipper does */
    int ti = (uint16_t)(t * 256.0f);
    int i, k;

    g3d_lerp(v->proj, out->proj, in->proj, 4, t);
    g3d_lerp(v->mv, out->mv, in->mv, 3, t);
    g3d_lerp(v->normal[0], out->normal[0], in->normal[0], 3 * 3, t);
    for (i = 0; i < 2; i++) {
        for (k = 0; k < 4; k++) {
            v->col[i][k] = (uint8_t)(out->col[i][k] +
                                     (((in->col[i][k] - out->col[i][k]) * ti)
                                      >> 8));
        }
    }
    g3d_lerp(v->tex[0], out->tex[0], in->tex[0], 8 * 3, t);
}

static bool is_backface(FlipperCore *c, const GXVertex *v0, const GXVertex *v1,
                        const GXVertex *v2)
{
    float x0 = v0->proj[0], x1 = v1->proj[0], x2 = v2->proj[0];
    float y0 = v0->proj[1], y1 = v1->proj[1], y2 = v2->proj[1];
    float w0 = v0->proj[3], w1 = v1->proj[3], w2 = v2->proj[3];
    float nz = (x0 * w2 - x2 * w0) * y1 + (x2 * y0 - x0 * y2) * w1 +
               (y2 * w0 - y0 * w2) * x1;
    bool back = nz <= 0.0f;

    if (xf_f(c, XF_REG_VIEWPORT + 1) > 0.0f) {
        back = !back;
    }
    return back;
}

void flipper_clip_triangle(FlipperCore *c, const GXVertex *v0,
                           const GXVertex *v1, const GXVertex *v2)
{
    uint32_t cull = G3D_FIELD_EX32(c->bp[BP_GENMODE], BP_GENMODE_R, REJECT_EN);
    unsigned m0 = clip_mask(v0), m1 = clip_mask(v1), m2 = clip_mask(v2);
    GXVertex buf[2][CLIP_MAX];
    int n = 3, cur = 0, k, i;
    bool back;

    if (m0 & m1 & m2) {
        return;                 /* all outside one plane */
    }
    back = is_backface(c, v0, v1, v2);
    if ((!back && (cull & 1)) || (back && (cull & 2))) {
        return;
    }
    buf[0][0] = *v0;
    if (back) {
        /* the rasteriser sees every triangle in front-facing order */
        buf[0][1] = *v2;
        buf[0][2] = *v1;
    } else {
        buf[0][1] = *v1;
        buf[0][2] = *v2;
    }
    /* XF ClipDisable bit 0: no clipping (unless a w is negative) */
    if ((m0 | m1 | m2) &&
        !((xf_reg(c, XF_REG_CLIPDISABLE) & 1) && v0->proj[3] >= 0 &&
          v1->proj[3] >= 0 && v2->proj[3] >= 0)) {
        unsigned mask = m0 | m1 | m2;
        for (k = 0; k < 6; k++) {
            GXVertex *in = buf[cur], *out = buf[cur ^ 1];
            int on = 0;

            if (!(mask & (1u << k))) {
                continue;
            }
            for (i = 0; i < n; i++) {
                const GXVertex *a = &in[i], *b = &in[(i + 1) % n];
                float da = plane_dist(a, k), db = plane_dist(b, k);

                if (da >= 0 && on < CLIP_MAX) {
                    out[on++] = *a;
                }
                if (((db <= 0 && da > 0) || (db > 0 && da <= 0)) &&
                    on < CLIP_MAX) {
                    if (db < 0) {
                        lerp_vertex(&out[on++], b, a, db / (db - da));
                    } else {
                        lerp_vertex(&out[on++], a, b, da / (da - db));
                    }
                }
            }
            if (on < 3) {
                return;
            }
            n = on;
            cur ^= 1;
        }
    }
    for (i = 0; i < n; i++) {
        perspective_divide(c, &buf[cur][i]);
    }
    for (i = 2; i < n; i++) {
        flipper_ras_triangle(c, &buf[cur][0], &buf[cur][i - 1],
                             &buf[cur][i]);
    }
}

static void offset_vertex(GXVertex *dst, const GXVertex *src, float dx,
                          float dy)
{
    *dst = *src;
    dst->screen[0] = src->screen[0] + dx;
    dst->screen[1] = src->screen[1] + dy;
}

/* SU_LPSIZE LTOFF / PTOFF: texture coordinate offsets in texels */
static const float lpoff_lut[8] = {
    0.0f, 1.0f / 16, 1.0f / 8, 1.0f / 4, 1.0f / 2, 1.0f, 1.0f, 1.0f,
};

/*
 * Texture coordinate offsets of the widened vertices (YAGCD §5.11.1 BP
 * registers SU_LPSIZE, SU_SSIZE LF/PF): a line's vertices on the far side get
 * LTOFF * size added to s of the coordinates whose SSIZE.LF is set; a
 * point's right vertices PTOFF * size to s and its top ones to t, for
 * SSIZE.PF (Dolphin applies both with the S register's bits).
 */
static void tex_offset(FlipperCore *c, GXVertex *v, float off, bool s,
                       bool t, int bit)
{
    uint32_t ntex = MIN(xf_reg(c, XF_REG_NUMTEX) & 15, 8);
    uint32_t n;

    if (off == 0.0f) {
        return;
    }
    for (n = 0; n < ntex; n++) {
        uint32_t ss = c->bp[BP_SU_SSIZE0 + 2 * n];
        uint32_t ts = c->bp[BP_SU_SSIZE0 + 2 * n + 1];
        if (!((ss >> bit) & 1)) {
            continue;
        }
        if (s) {
            v->tex[n][0] += (float)((ss & 0xFFFF) + 1) * off;
        }
        if (t) {
            v->tex[n][1] += (float)((ts & 0xFFFF) + 1) * off;
        }
    }
}

void flipper_clip_line(FlipperCore *c, const GXVertex *v0, const GXVertex *v1)
{
    float half, off;
    GXVertex a = *v0, b = *v1, t[3];
    float dx, dy;
    int px = 0, py = 0;

    if (!(a.proj[3] > 0.0f) || !(b.proj[3] > 0.0f)) {
        return;
    }
    half = (float)(c->bp[BP_LINEPTWIDTH] & 0xFF) / 12.0f;
    perspective_divide(c, &a);
    perspective_divide(c, &b);
    dx = b.screen[0] - a.screen[0];
    dy = b.screen[1] - a.screen[1];
    /* caps are horizontal or vertical, by the line's major axis */
    if (fabsf(dx) > fabsf(dy)) {
        py = dx > 0 ? -1 : 1;
    } else {
        px = dy > 0 ? 1 : -1;
    }
    off = lpoff_lut[(c->bp[BP_LINEPTWIDTH] >> 16) & 7];
    offset_vertex(&t[0], &a, px * half, py * half);
    offset_vertex(&t[1], &b, px * half, py * half);
    offset_vertex(&t[2], &b, -px * half, -py * half);
    tex_offset(c, &t[2], off, true, false, 18);
    flipper_ras_triangle(c, &t[2], &t[1], &t[0]);
    offset_vertex(&t[1], &a, -px * half, -py * half);
    tex_offset(c, &t[1], off, true, false, 18);
    flipper_ras_triangle(c, &t[0], &t[1], &t[2]);
}

void flipper_clip_point(FlipperCore *c, const GXVertex *v)
{
    GXVertex p = *v, ll, lr, ur, ul;
    float r, off;

    if (!(p.proj[3] > 0.0f)) {
        return;
    }
    r = (float)((c->bp[BP_LINEPTWIDTH] >> 8) & 0xFF) / 12.0f;
    perspective_divide(c, &p);
    offset_vertex(&ll, &p, -r, -r);
    offset_vertex(&lr, &p, r, -r);
    offset_vertex(&ur, &p, r, r);
    offset_vertex(&ul, &p, -r, r);
    off = lpoff_lut[(c->bp[BP_LINEPTWIDTH] >> 19) & 7];
    tex_offset(c, &lr, off, true, false, 19);
    tex_offset(c, &ur, off, true, true, 19);
    tex_offset(c, &ul, off, false, true, 19);
    flipper_ras_triangle(c, &ll, &ul, &lr);
    flipper_ras_triangle(c, &ur, &lr, &ul);
}
