/*
 * Procedural texture, texture unit 3 (reference "GPUREG_TEXUNIT3_PROCTEX*",
 * "GPUREG_PROCTEX_LUT*"; 3dbrew GPU/Internal Registers 0x080-0x0B7; Citra). The
 * reference gives the fields only; the algorithm is Citra's (sw_proctex,
 * checked there against hardware for the noise), restated:
 *
 *   u, v = |texcoord|; shift offsets from the other coordinate (odd/even
 *   rows, 1/2 or 1 for mirrored repeat); optional noise added with the
 *   amplitudes; clamp (to zero, to edge, symmetrical and mirrored repeat,
 *   pulse); the RGB mapping function of (u, v) looked up in the RGB-map LUT
 *   gives a coordinate into the colour LUT (offset + c * (width - 1), nearest
 *   or linear with the difference table); with "separate alpha" the alpha
 *   mapping function through the alpha-map LUT gives alpha.
 *
 * LUT entries (3dbrew GPU/Internal Registers 0x080-0x0B7; Citra): noise and map
 * tables b0-11 value / 4095 and b12-23 a signed difference / 4095; colours
 * RGBA8; colour differences signed half-steps (x2).
 *
 * Colour-LUT mipmaps (min filters 2-5; Citra's hardware renderers,
 * glsl_shader_gen.cpp, AppendProcTexSampler): level L is width >> L entries
 * at PROCTEX5's byte L (levels 4-7 at 0xF0, 0xF8, 0xFC, 0xFE, reference
 * PROCTEX5); per 2x2 quad lod = log2(|width * bias| * (du + dv)) with du, dv
 * the larger of the quad's x and y differences of |u|, |v| (0 with bias 0),
 * clamped to [min LOD, max LOD] within 0-7; mipmap-nearest takes the
 * rounded level, mipmap-linear blends levels floor(lod) and the next.
 * Coordinates that are NaN or beyond 2^20 count as 0 and LUT indices are
 * kept inside their tables, so no input reads outside them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <math.h>
#include <string.h>

enum { PT_LUT_NOISE = 0, PT_LUT_RGBMAP = 2, PT_LUT_ALPHAMAP = 3,
       PT_LUT_COLOR = 4, PT_LUT_COLORDIFF = 5 };

static void value_lut(const uint32_t *raw, float value[128], float diff[128])
{
    int i;

    for (i = 0; i < 128; i++) {
        value[i] = (float)(raw[i] & 0xFFF) / 4095.0f;
        diff[i] = (float)g3d_sextract32(raw[i], 12, 12) / 4095.0f;
    }
}

void pica_proctex_setup(Pica200Core *c, PicaProcTex *pt)
{
    const uint32_t *r = c->regs;
    uint32_t p0 = r[GPUREG_TEXUNIT3_PROCTEX0], p4 = r[GPUREG_TEXUNIT3_PROCTEX4];
    unsigned coords = G3D_FIELD_EX32(r[GPUREG_TEXUNIT_CONFIG], GPUREG_TEXUNIT_CONFIG,
                                     TEX3_COORDS);
    int i, k;

    memset(pt, 0, sizeof(*pt));
    if (coords > 2) {
        g3d_guest_error("pica200: procedural texture coordinates %u are "
                        "undefined; it samples 0", coords);
        return;
    }
    pt->coord = coords;
    pt->clamp_u = p0 & 7;
    pt->clamp_v = (p0 >> 3) & 7;
    pt->rgb_func = (p0 >> 6) & 0xF;
    pt->alpha_func = (p0 >> 10) & 0xF;
    pt->separate_alpha = (p0 >> 14) & 1;
    pt->noise = (p0 >> 15) & 1;
    pt->shift_u = (p0 >> 16) & 3;
    pt->shift_v = (p0 >> 18) & 3;
    pt->amp_u = (float)g3d_sextract32(r[GPUREG_TEXUNIT3_PROCTEX1], 0, 16) / 4095.0f;
    pt->amp_v = (float)g3d_sextract32(r[GPUREG_TEXUNIT3_PROCTEX2], 0, 16) / 4095.0f;
    pt->phase_u = g3d_float_unpack(r[GPUREG_TEXUNIT3_PROCTEX1] >> 16, &pica_f16);
    pt->phase_v = g3d_float_unpack(r[GPUREG_TEXUNIT3_PROCTEX2] >> 16, &pica_f16);
    pt->freq_u = g3d_float_unpack(r[GPUREG_TEXUNIT3_PROCTEX3] & 0xFFFF, &pica_f16);
    pt->freq_v = g3d_float_unpack(r[GPUREG_TEXUNIT3_PROCTEX3] >> 16, &pica_f16);
    pt->linear = (p4 & 7) == 1 || (p4 & 7) == 3 || (p4 & 7) == 5;
    pt->mip = (p4 & 7) == 2 || (p4 & 7) == 3 ? 1 : (p4 & 7) >= 4 ? 2 : 0;
    if ((p4 & 7) > 5) {
        g3d_guest_error("pica200: procedural texture filter %u is undefined; "
                        "nearest used", p4 & 7);
    }
    pt->width = (p4 >> 11) & 0xFF;
    pt->min_level = MIN((p4 >> 3) & 0xF, 7);
    pt->max_level = MIN((p4 >> 7) & 0xF, 7);
    /* the bias is split: low byte PROCTEX0 b20-27, high byte PROCTEX4 b19-26 */
    pt->bias = g3d_float_unpack(((p0 >> 20) & 0xFF) | ((p4 >> 19) & 0xFF) << 8,
                                &pica_f16);
    for (i = 0; i < 8; i++) {
        static const uint8_t fixed[4] = { 0xF0, 0xF8, 0xFC, 0xFE };
        pt->level_offset[i] = i < 4 ? (r[GPUREG_TEXUNIT3_PROCTEX5] >> (8 * i)) & 0xFF
                                    : fixed[i - 4];
    }
    pt->offset = pt->level_offset[0];
    if (pt->offset + pt->width > 256) {
        g3d_guest_error("pica200: procedural texture colour LUT offset %u + "
                        "width %u is past its 256 entries; clamped",
                        pt->offset, pt->width);
    }
    value_lut(c->proctex_lut[PT_LUT_NOISE], pt->noise_v, pt->noise_d);
    value_lut(c->proctex_lut[PT_LUT_RGBMAP], pt->rgb_v, pt->rgb_d);
    value_lut(c->proctex_lut[PT_LUT_ALPHAMAP], pt->alpha_v, pt->alpha_d);
    for (i = 0; i < 256; i++) {
        for (k = 0; k < 4; k++) {
            pt->color[i][k] = c->proctex_lut[PT_LUT_COLOR][i] >> (8 * k);
            pt->color_diff[i][k] = 2 * g3d_sextract32(c->proctex_lut[PT_LUT_COLORDIFF][i],
                                                      8 * k, 8);
        }
    }
    pt->enabled = true;
}

/* value + frac * difference at coord * 128 (coord 1.0 is entry 127 + diff) */
static float lut(const float *value, const float *diff, float coord)
{
    int i;

    coord *= 128.0f;
    if (!(coord >= 0.0f)) {
        coord = 0.0f;
    }
    i = coord < 127.0f ? (int)coord : 127;
    if (coord > 128.0f) {
        coord = 128.0f;
    }
    return value[i] + (coord - (float)i) * diff[i];
}

/* Citra's noise hash, "verified against real hardware" there */
static unsigned noise_rand1(unsigned v)
{
    static const uint8_t table[16] = { 0, 4, 10, 8, 4, 9, 7, 12, 5, 15, 13,
                                       14, 11, 15, 2, 11 };
    return (((v % 9 + 2) * 3) & 0xF) ^ table[(v / 9) & 0xF];
}

static float noise_rand2(unsigned x, unsigned y)
{
    static const uint8_t table[16] = { 10, 2, 15, 8, 0, 7, 4, 5, 5, 13, 2, 6,
                                       13, 9, 3, 14 };
    unsigned u2 = noise_rand1(x), v2 = noise_rand1(y);

    v2 += (u2 & 3) == 1 ? 4 : 0;
    v2 ^= (u2 & 1) * 6;
    v2 += 10 + u2;
    v2 &= 0xF;
    v2 ^= table[u2];
    return -1.0f + (float)v2 * 2.0f / 15.0f;
}

/* a coordinate as the algorithm may take it: >= 0, finite, not huge */
static inline float tame(float f)
{
    f = fabsf(f);
    return f < 1048576.0f ? f : 0.0f;     /* NaN fails the test too */
}

static float noise(const PicaProcTex *pt, float u, float v)
{
    float x = tame(9.0f * pt->freq_u * fabsf(u + pt->phase_u));
    float y = tame(9.0f * pt->freq_v * fabsf(v + pt->phase_v));
    unsigned xi = (unsigned)x, yi = (unsigned)y;
    float xf = x - (float)xi, yf = y - (float)yi;
    float g0 = noise_rand2(xi, yi) * (xf + yf);
    float g1 = noise_rand2(xi + 1, yi) * (xf + yf - 1.0f);
    float g2 = noise_rand2(xi, yi + 1) * (xf + yf - 1.0f);
    float g3 = noise_rand2(xi + 1, yi + 1) * (xf + yf - 2.0f);
    float nx = lut(pt->noise_v, pt->noise_d, xf);
    float ny = lut(pt->noise_v, pt->noise_d, yf);

    return (g0 * (1.0f - nx) + g1 * nx) * (1.0f - ny) +
           (g2 * (1.0f - nx) + g3 * nx) * ny;
}

/* the shift of one coordinate from the other's row (none, odd, even) */
static float shift(float other, unsigned mode, unsigned clamp)
{
    float off = clamp == PICA_PROCTEX_CLAMP_MIRRORED ? 1.0f : 0.5f;
    int i = (int)other;

    switch (mode) {
    case 1: return off * (float)((i / 2) % 2);
    case 2: return off * (float)(((i + 1) / 2) % 2);
    default: return 0.0f;
    }
}

static float clamp_coord(float f, unsigned mode)
{
    int i;

    switch (mode) {
    case PICA_PROCTEX_CLAMP_ZERO:
        return f > 1.0f ? 0.0f : f;
    case PICA_PROCTEX_CLAMP_SYMMETRIC:
        return f - floorf(f);
    case PICA_PROCTEX_CLAMP_MIRRORED:
        i = (int)f;
        return i % 2 == 0 ? f - (float)i : 1.0f - (f - (float)i);
    case PICA_PROCTEX_CLAMP_PULSE:
        return f <= 0.5f ? 0.0f : 1.0f;
    default:                        /* 1 to edge; 5-7 undefined: to edge */
        return f < 1.0f ? f : 1.0f;
    }
}

/* mapping functions 0-9 (3dbrew GPU/Internal Registers 0x080-0x0B7; Citra);
 * undefined ones give 0 */
static float map(const float *value, const float *diff, unsigned func,
                 float u, float v)
{
    float f;

    switch (func) {
    case 0: f = u; break;
    case 1: f = u * u; break;
    case 2: f = v; break;
    case 3: f = v * v; break;
    case 4: f = (u + v) * 0.5f; break;
    case 5: f = (u * u + v * v) * 0.5f; break;
    case 6: f = MIN(sqrtf(u * u + v * v), 1.0f); break;
    case 7: f = MIN(u, v); break;
    case 8: f = MAX(u, v); break;
    case 9: f = MIN(((u + v) * 0.5f + sqrtf(u * u + v * v)) * 0.5f, 1.0f); break;
    default: f = 0.0f; break;
    }
    return lut(value, diff, f);
}

float pica_proctex_lod(const PicaProcTex *pt, float du, float dv)
{
    float lod;

    if (pt->mip == 0 || pt->bias == 0.0f) {
        lod = 0.0f;
    } else {
        lod = log2f(fabsf((float)pt->width * pt->bias) * (du + dv));
    }
    if (!(lod >= (float)pt->min_level)) {      /* NaN and -inf too */
        lod = (float)pt->min_level;
    }
    return MIN(lod, (float)MAX(pt->max_level, pt->min_level));
}

/* colour-LUT level `level` read at c in [0, 1] */
static void color_lookup(const PicaProcTex *pt, unsigned level, float c,
                         uint8_t out[4])
{
    int width = (int)(pt->width >> level), i, k;
    float index = (float)pt->level_offset[level] + c * (float)(width - 1);

    if (!(index >= 0.0f)) {
        index = 0.0f;
    }
    index = MIN(index, 255.0f);
    if (pt->linear) {
        float frac;

        i = (int)index;
        frac = index - (float)i;
        for (k = 0; k < 4; k++) {
            float x = pt->color[i][k] + frac * (float)pt->color_diff[i][k];
            out[k] = (uint8_t)(x < 0.0f ? 0.0f : x > 255.0f ? 255.0f : x);
        }
    } else {
        memcpy(out, pt->color[(int)roundf(index)], 4);
    }
}

void pica_proctex_sample(const PicaProcTex *pt, float u, float v, float lod,
                         uint8_t out[4])
{
    float su, sv, c;
    int k;

    if (!pt->enabled) {
        memset(out, 0, 4);
        return;
    }
    u = tame(u);
    v = tame(v);
    su = shift(v, pt->shift_u, pt->clamp_u);
    sv = shift(u, pt->shift_v, pt->clamp_v);
    if (pt->noise) {
        float n = noise(pt, u, v);
        u = tame(u + n * pt->amp_u);
        v = tame(v + n * pt->amp_v);
    }
    u = clamp_coord(u + su, pt->clamp_u);
    v = clamp_coord(v + sv, pt->clamp_v);
    c = map(pt->rgb_v, pt->rgb_d, pt->rgb_func, u, v);
    if (pt->mip == 2) {
        /* blend floor(lod) and the next level, rounded to 8 bits */
        unsigned l0 = (unsigned)lod, l1 = MIN(l0 + 1, 7u);
        float f = lod - (float)l0;
        uint8_t c1[4];

        color_lookup(pt, l0, c, out);
        color_lookup(pt, l1, c, c1);
        for (k = 0; k < 4; k++) {
            out[k] = (uint8_t)(out[k] + (c1[k] - out[k]) * f + 0.5f);
        }
    } else {
        color_lookup(pt, pt->mip ? (unsigned)roundf(lod) : 0, c, out);
    }
    if (pt->separate_alpha) {
        float a = map(pt->alpha_v, pt->alpha_d, pt->alpha_func, u, v);
        out[3] = (uint8_t)(a <= 0.0f ? 0.0f : a >= 1.0f ? 255.0f : a * 255.0f);
    }
}
