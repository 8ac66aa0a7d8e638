/*
 * XF: transform unit. XF memory (matrices, lights) and registers, vertex
 * transform, normal transform, colour channels with lighting (doc 5.11.3-4,
 * YAGCD §5.11.3-5.11.4 XF; Dolphin Software/TransformUnit.cpp).
 *
 * The arithmetic follows Dolphin's software renderer term by term (in
 * single precision, in the same order), because its output is the
 * reference the tests compare against:
 * - eye = M * (x, y, z, 1) with M the 3x4 row-major matrix at XF
 *   4 * posmtx;
 * - perspective: clip = (p0 x + p1 z, p2 y + p3 z, (p4 z + p5)(1 - 1e-7), -z),
 *   orthographic: (p0 x + p1, p2 y + p3, p4 z + p5, 1);
 * - lighting: channel colour = material * clamp(ambient + sum of lights),
 *   the 8-bit product as (m * (l + (l >> 7))) >> 8.
 * Decision: XF memory keeps full 32-bit words (the doc says normal
 * matrices and lights keep 20 bits; Dolphin keeps all 32).
 * - texgen (0x1040 + n, for n < NUMTEX): regular = the texture matrix
 *   (XF 4 * TEXnMTXIDX, 2x4 for ST, 3x4 for STQ) times the source row as
 *   (A, B, 1, 1) or (A, B, C, 1); then, with DUALTEX enabled, the post
 *   matrix (XF 0x500 + 4 * DUALMTX), optionally after normalising; NaN
 *   inputs read 1 and a q of 0 gives (clamp(s/2), clamp(t/2)) in [-1, 1];
 *   emboss = source coordinate + (L.binormal, L.tangent) for light n;
 *   colour texgens = (R, G) / 255 of channel 0 or 1. Every coordinate is
 *   then scaled by the SU_SSIZE/TSIZE of its number (BP 0x30 + 2n) + 1,
 *   as the setup unit does (YAGCD §5.11.4 XF registers, §5.11.1 BP registers).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include <math.h>

void flipper_xf_write(FlipperCore *c, uint32_t addr, uint32_t val)
{
    if (addr < XF_MEM_WORDS) {
        c->xf[addr] = val;
    } else if (addr - XF_REG_BASE < XF_REG_COUNT) {
        c->xf[addr] = val;
    } else {
        g3d_guest_error("flipper: XF: write 0x%08x to unknown address 0x%04x",
                        val, addr);
    }
}

static void mat34(const uint32_t *m, const float v[3], float out[3])
{
    out[0] = u2f(m[0]) * v[0] + u2f(m[1]) * v[1] + u2f(m[2]) * v[2] + u2f(m[3]);
    out[1] = u2f(m[4]) * v[0] + u2f(m[5]) * v[1] + u2f(m[6]) * v[2] + u2f(m[7]);
    out[2] = u2f(m[8]) * v[0] + u2f(m[9]) * v[1] + u2f(m[10]) * v[2] +
             u2f(m[11]);
}

static void mat33(const uint32_t *m, const float v[3], float out[3])
{
    out[0] = u2f(m[0]) * v[0] + u2f(m[1]) * v[1] + u2f(m[2]) * v[2];
    out[1] = u2f(m[3]) * v[0] + u2f(m[4]) * v[1] + u2f(m[5]) * v[2];
    out[2] = u2f(m[6]) * v[0] + u2f(m[7]) * v[1] + u2f(m[8]) * v[2];
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize3(float v[3])
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);

    v[0] /= len;
    v[1] /= len;
    v[2] /= len;
}

/* ---- lighting (Dolphin LightingShaderHelper.cpp; hwtests lighting, libogc
 * GX_InitLight*) */

typedef struct Light {
    uint8_t color[4];           /* R, G, B, A */
    float cosatt[3], distatt[3], pos[3], dir[3];
} Light;

static void get_light(FlipperCore *c, int n, Light *l)
{
    const uint32_t *w = &c->xf[XF_MEM_LIGHTS + 16 * n];
    int k;

    l->color[0] = w[3] >> 24;
    l->color[1] = w[3] >> 16;
    l->color[2] = w[3] >> 8;
    l->color[3] = w[3];
    for (k = 0; k < 3; k++) {
        l->cosatt[k] = u2f(w[4 + k]);
        l->distatt[k] = u2f(w[7 + k]);
        l->pos[k] = u2f(w[10 + k]);
        l->dir[k] = u2f(w[13 + k]);
    }
}

static float safe_div(float n, float d)
{
    return d == 0.0f ? (n > 0.0f ? 1.0f : 0.0f) : n / d;
}

/* CNTRL fields: 7-8 diffuse function, 9 attenuation enable, 10 spot/spec */
static float light_attn(const Light *l, uint32_t ctl, float ldir[3],
                        const float normal[3])
{
    bool atten = (ctl >> 9) & 1, spot = (ctl >> 10) & 1;
    int diffn = (ctl >> 7) & 3;

    if (!atten) {
        float len = sqrtf(dot3(ldir, ldir));
        if (len == 0.0f) {
            memcpy(ldir, normal, sizeof(float) * 3);
        } else {
            ldir[0] /= len;
            ldir[1] /= len;
            ldir[2] /= len;
        }
        return 1.0f;
    }
    if (!spot) {
        /* specular: the direction words hold the half-angle vector */
        float a, att[3], dist[3];
        normalize3(ldir);
        a = dot3(ldir, normal) >= 0.0f ? MAX(0.0f, dot3(l->dir, normal)) : 0;
        att[0] = 1.0f;
        att[1] = a;
        att[2] = a * a;
        memcpy(dist, l->distatt, sizeof(dist));
        if (diffn != 0) {
            normalize3(dist);
        }
        return safe_div(MAX(0.0f, dot3(att, l->cosatt)), dot3(att, dist));
    } else {
        float dist2 = dot3(ldir, ldir), dist = sqrtf(dist2), a, cosatt, distatt;
        ldir[0] /= dist;
        ldir[1] /= dist;
        ldir[2] /= dist;
        a = MAX(0.0f, dot3(ldir, l->dir));
        cosatt = l->cosatt[0] + l->cosatt[1] * a + l->cosatt[2] * a * a;
        distatt = l->distatt[0] + l->distatt[1] * dist + l->distatt[2] * dist2;
        return safe_div(MAX(0.0f, cosatt), distatt);
    }
}

/* the light's contribution scale: attenuation times the diffuse term */
static float light_scale(const Light *l, uint32_t ctl, const float pos[3],
                         const float normal[3])
{
    float ldir[3] = { l->pos[0] - pos[0], l->pos[1] - pos[1],
                      l->pos[2] - pos[2] };
    float attn = light_attn(l, ctl, ldir, normal);
    float dif = dot3(ldir, normal);

    switch ((ctl >> 7) & 3) {
    case 0:
        return attn;
    case 1:
        return attn * dif;
    default:
        return attn * MAX(0.0f, dif);
    }
}

static uint32_t light_mask(uint32_t ctl)
{
    return ((ctl >> 2) & 15) | ((ctl >> 11) & 15) << 4;
}

static uint8_t lit(uint8_t mat, float light)
{
    int l = (int)light;

    l = l < 0 ? 0 : l > 255 ? 255 : l;
    return (uint8_t)((mat * (l + (l >> 7))) >> 8);
}

static void channel(FlipperCore *c, int ch, const GXInVertex *in,
                    const GXVertex *out, uint8_t rgba[4])
{
    uint32_t cctl = xf_reg(c, XF_REG_COLOR0CNTRL + ch);
    uint32_t actl = xf_reg(c, XF_REG_COLOR0CNTRL + 2 + ch);
    uint32_t matreg = xf_reg(c, XF_REG_MATERIAL0 + ch);
    uint32_t ambreg = xf_reg(c, XF_REG_AMBIENT0 + ch);
    uint8_t mat[4];
    int k, n;

    /* colour: bit 0 material source, bit 1 lighting, bit 6 ambient source */
    for (k = 0; k < 3; k++) {
        mat[k] = (cctl & 1) ? in->col[ch][k] : (uint8_t)(matreg >> (24 - 8 * k));
    }
    mat[3] = (actl & 1) ? in->col[ch][3] : (uint8_t)matreg;
    if (cctl & 2) {
        float acc[3];
        for (k = 0; k < 3; k++) {
            acc[k] = (cctl & 0x40) ? in->col[ch][k]
                                   : (float)(uint8_t)(ambreg >> (24 - 8 * k));
        }
        for (n = 0; n < 8; n++) {
            if (light_mask(cctl) & (1u << n)) {
                Light l;
                float s;
                get_light(c, n, &l);
                s = light_scale(&l, cctl, out->mv, out->normal[0]);
                for (k = 0; k < 3; k++) {
                    acc[k] += l.color[k] * s;
                }
            }
        }
        for (k = 0; k < 3; k++) {
            rgba[k] = lit(mat[k], acc[k]);
        }
    } else {
        memcpy(rgba, mat, 3);
    }
    if (actl & 2) {
        float acc = (actl & 0x40) ? in->col[ch][3] : (float)(uint8_t)ambreg;
        for (n = 0; n < 8; n++) {
            if (light_mask(actl) & (1u << n)) {
                Light l;
                get_light(c, n, &l);
                acc += l.color[3] * light_scale(&l, actl, out->mv,
                                                out->normal[0]);
            }
        }
        rgba[3] = lit(mat[3], acc);
    } else {
        rgba[3] = mat[3];
    }
}

/* ---- texture coordinate generation ------------------------------------ */

static void texgen_regular(FlipperCore *c, int n, uint32_t info,
                           const GXInVertex *in, float dst[3])
{
    unsigned row = G3D_FIELD_EX32(info, XF_TEXGEN_R, SOURCE_ROW);
    const uint32_t *m = &c->xf[XF_MEM_POSMTX + 4 * in->texmtx[n]];
    float src[3] = { 0.0f, 0.0f, 1.0f };
    int k;

    switch (row) {
    case 0: memcpy(src, in->pos, sizeof(src)); break;
    case 1: memcpy(src, in->nrm[0], sizeof(src)); break;
    case 3: memcpy(src, in->nrm[1], sizeof(src)); break;
    case 4: memcpy(src, in->nrm[2], sizeof(src)); break;
    default:
        if (row >= 5 && row <= 12) {
            src[0] = in->tex[row - 5][0];
            src[1] = in->tex[row - 5][1];
        } else {
            g3d_guest_error("flipper: XF: texgen %d: source row %u", n, row);
            src[0] = src[1] = 0.0f;
        }
        break;
    }
    for (k = 0; k < 3; k++) {
        if (isnan(src[k])) {
            src[k] = 1.0f;
        }
    }
    if (!G3D_FIELD_EX32(info, XF_TEXGEN_R, INPUT_FORM)) {
        src[2] = 1.0f;          /* AB11: the third column adds like the fourth */
    }
    dst[0] = u2f(m[0]) * src[0] + u2f(m[1]) * src[1] + u2f(m[2]) * src[2] +
             u2f(m[3]);
    dst[1] = u2f(m[4]) * src[0] + u2f(m[5]) * src[1] + u2f(m[6]) * src[2] +
             u2f(m[7]);
    if (G3D_FIELD_EX32(info, XF_TEXGEN_R, PROJECTION)) {
        dst[2] = u2f(m[8]) * src[0] + u2f(m[9]) * src[1] +
                 u2f(m[10]) * src[2] + u2f(m[11]);
    } else {
        dst[2] = 1.0f;
    }
    if (xf_reg(c, XF_REG_DUALTEX) & 1) {
        uint32_t post = xf_reg(c, XF_REG_DUALTEX0 + n);
        float t[3];
        memcpy(t, dst, sizeof(t));
        if (G3D_FIELD_EX32(post, XF_DUALTEX_R, NORMALIZE)) {
            normalize3(t);
        }
        mat34(&c->xf[XF_MEM_POSTMTX +
                     4 * G3D_FIELD_EX32(post, XF_DUALTEX_R, DUALMTX)], t, dst);
    }
    if (dst[2] == 0.0f) {
        dst[0] = g3d_clampf(dst[0] / 2.0f, -1.0f, 1.0f);
        dst[1] = g3d_clampf(dst[1] / 2.0f, -1.0f, 1.0f);
    }
}

static void texgen(FlipperCore *c, const GXInVertex *in, GXVertex *out)
{
    uint32_t ntex = xf_reg(c, XF_REG_NUMTEX) & 15;
    int n;

    if (ntex > 8) {
        g3d_guest_error("flipper: XF: NUMTEX %u > 8", ntex);
        ntex = 8;
    }
    for (n = 0; n < (int)ntex; n++) {
        uint32_t info = xf_reg(c, XF_REG_TEXGEN0 + n);
        float *dst = out->tex[n];

        switch (G3D_FIELD_EX32(info, XF_TEXGEN_R, TYPE)) {
        case 0:
            texgen_regular(c, n, info, in, dst);
            break;
        case 1: {
            unsigned src = G3D_FIELD_EX32(info, XF_TEXGEN_R, EMBOSS_SOURCE);
            Light l;
            float ldir[3];
            int k;
            get_light(c, G3D_FIELD_EX32(info, XF_TEXGEN_R, EMBOSS_LIGHT), &l);
            for (k = 0; k < 3; k++) {
                ldir[k] = l.pos[k] - out->mv[k];
            }
            normalize3(ldir);
            dst[0] = out->tex[src][0] + dot3(ldir, out->normal[1]);
            dst[1] = out->tex[src][1] + dot3(ldir, out->normal[2]);
            dst[2] = out->tex[src][2];
            break;
        }
        case 2:
        case 3: {
            const uint8_t *col = out->col[G3D_FIELD_EX32(info, XF_TEXGEN_R,
                                                         TYPE) - 2];
            dst[0] = col[0] / 255.0f;
            dst[1] = col[1] / 255.0f;
            dst[2] = 1.0f;
            break;
        }
        default:
            g3d_guest_error("flipper: XF: texgen %d: type %u", n,
                            G3D_FIELD_EX32(info, XF_TEXGEN_R, TYPE));
            break;
        }
    }
    for (n = 0; n < (int)ntex; n++) {
        out->tex[n][0] *= (float)((c->bp[BP_SU_SSIZE0 + 2 * n] & 0xFFFF) + 1);
        out->tex[n][1] *= (float)((c->bp[BP_SU_SSIZE0 + 2 * n + 1] & 0xFFFF) + 1);
    }
}

void flipper_xf_transform(FlipperCore *c, const GXInVertex *in, GXVertex *out)
{
    const uint32_t *proj = &c->xf[XF_REG_PROJECTION];
    uint32_t nchan = xf_reg(c, XF_REG_NUMCOLORS);
    float *mv = out->mv;
    int k;

    memset(out, 0, sizeof(*out));
    /* posmtx < 64: the matrix lies inside XF memory (4 * 63 + 12 < 0x1000) */
    mat34(&c->xf[XF_MEM_POSMTX + 4 * in->posmtx], in->pos, mv);
    if (proj[6] == 0) {
        out->proj[0] = u2f(proj[0]) * mv[0] + u2f(proj[1]) * mv[2];
        out->proj[1] = u2f(proj[2]) * mv[1] + u2f(proj[3]) * mv[2];
        out->proj[2] = (u2f(proj[4]) * mv[2] + u2f(proj[5])) *
                       (1.0f - (float)1e-7);
        out->proj[3] = -mv[2];
    } else {
        out->proj[0] = u2f(proj[0]) * mv[0] + u2f(proj[1]);
        out->proj[1] = u2f(proj[2]) * mv[1] + u2f(proj[3]);
        out->proj[2] = u2f(proj[4]) * mv[2] + u2f(proj[5]);
        out->proj[3] = 1.0f;
    }
    if (in->has_nrm) {
        const uint32_t *nm = &c->xf[XF_MEM_NRMMTX + 3 * (in->posmtx & 31)];
        for (k = 0; k < 3; k++) {
            mat33(nm, in->nrm[k], out->normal[k]);
        }
        normalize3(out->normal[0]);
    }
    if (nchan > 2) {
        g3d_guest_error("flipper: XF: NUMCOLORS %u > 2", nchan);
        nchan = 2;
    }
    for (k = 0; k < (int)nchan; k++) {
        channel(c, k, in, out, out->col[k]);
    }
    texgen(c, in, out);
}
