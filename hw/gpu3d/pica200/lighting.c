/*
 * Fragment lighting (reference "Fragment lighting registers" 0x140-0x1D9,
 * GPUREG_LIGHTING_ENABLE0 0x08F): eight lights, the 24 lookup tables, the
 * layer configurations, bump and tangent mapping, shadow attenuation and
 * Fresnel; it produces the combiners' fragment primary and secondary colours.
 *
 * The reference gives the registers and the LUT domains; the per-fragment
 * algorithm is Citra's software renderer (src/video_core/renderer_software/
 * sw_lighting.cpp; Azahar keeps it):
 *   - the surface normal (0, 0, 1) and tangent (1, 0, 0), or the bump or
 *     tangent map's (rgb / 127.5 - 1) with z rebuilt from x, y unless
 *     CONFIG0 b30, are rotated by the normalised interpolated quaternion;
 *   - per light slot: L = position (directional) or position + view,
 *     normalised; H = normalise(view) + L; distance attenuation
 *     DA(clamp(scale * |L| + bias, 0, 1)); the LUT inputs N.H, V.H, N.V, L.N,
 *     L.spot (the register holds -P) and cos phi (configuration 7 only);
 *     D0 * specular0 + D1 * (RR, RG, RB) * specular1, geometric factors,
 *     clamp highlights, one- or two-sided diffuse, shadow;
 *   - Fresnel from the last light slot replaces primary and/or secondary
 *     alpha; shadow alpha; the scene ambient; each channel clamped to [0, 1]
 *     and truncated to 8 bits.
 * LUT entries are value b0-11 / 4095 plus the difference b12-22 / 2047 (b23
 * its sign) times the fraction; inputs index 256 entries as unsigned
 * [0, 1] ("abs", flag clear) or signed [-1, 1) in two's complement.
 * CONFIG1's LUT disable bits are b16 + the LUT number, as the reference and
 * citro3d's GPU_LC1_LUTBIT have them (RB b20, RR b22; Citra swaps the two).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <math.h>
#include <string.h>

/* the LUTs each layer configuration has, by PICA_LUTSLOT_* bit (reference
 * "Light environment configuration values"); 7 is not a configuration */
static const uint8_t layer_luts[16] = {
    [0] = 1 << PICA_LUTSLOT_D0 | 1 << PICA_LUTSLOT_RR | 1 << PICA_LUTSLOT_SP,
    [1] = 1 << PICA_LUTSLOT_FR | 1 << PICA_LUTSLOT_RR | 1 << PICA_LUTSLOT_SP,
    [2] = 1 << PICA_LUTSLOT_D0 | 1 << PICA_LUTSLOT_D1 | 1 << PICA_LUTSLOT_RR,
    [3] = 1 << PICA_LUTSLOT_D0 | 1 << PICA_LUTSLOT_D1 | 1 << PICA_LUTSLOT_FR,
    [4] = 0x7F & ~(1 << PICA_LUTSLOT_FR),
    [5] = 0x7F & ~(1 << PICA_LUTSLOT_D1),
    [6] = 0x7F & ~(1 << PICA_LUTSLOT_RB | 1 << PICA_LUTSLOT_RG),
    [8] = 0x7F,
};

/* LUT number of each slot (SP adds the light's ID) */
static const uint8_t slot_lut[7] = {
    PICA_LIGHT_LUT_D0, PICA_LIGHT_LUT_D1, PICA_LIGHT_LUT_SP, PICA_LIGHT_LUT_FR,
    PICA_LIGHT_LUT_RB, PICA_LIGHT_LUT_RG, PICA_LIGHT_LUT_RR,
};

/* LUTINPUT_SCALE codes: 1, 2, 4, 8, -, -, 1/4, 1/2 */
static const float lut_scale[8] = { 1, 2, 4, 8, 0, 0, 0.25f, 0.5f };

static void color3(uint32_t v, float out[3])
{
    /* R b20-27, G b10-17, B b0-7; 255 is 1.0 */
    out[0] = ((v >> 20) & 0xFF) / 255.0f;
    out[1] = ((v >> 10) & 0xFF) / 255.0f;
    out[2] = (v & 0xFF) / 255.0f;
}

static float spot13(uint32_t v)
{
    /* fixed1.1.11: 13-bit two's complement, 2047 is 1.0 (Citra) */
    return g3d_sextract32(v, 0, 13) / 2047.0f;
}

bool pica_lighting_setup(Pica200Core *c, PicaLighting *l)
{
    const uint32_t *r = c->regs;
    uint32_t c0 = r[GPUREG_LIGHTING_CONFIG0], c1 = r[GPUREG_LIGHTING_CONFIG1];
    uint32_t perm = r[GPUREG_LIGHTING_LIGHT_PERMUTATION];
    uint32_t in_abs = r[GPUREG_LIGHTING_LUTINPUT_ABS];
    uint32_t in_sel = r[GPUREG_LIGHTING_LUTINPUT_SELECT];
    uint32_t in_scale = r[GPUREG_LIGHTING_LUTINPUT_SCALE];
    unsigned i, k, luts;

    memset(l, 0, sizeof(*l));
    if (!pica_lighting_on(c)) {
        return false;
    }
    l->layer = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, LAYER_CONFIG);
    luts = layer_luts[l->layer];
    if (!luts) {
        g3d_guest_error("pica200: lighting layer configuration %u is undefined "
                        "(0-6 and 8 are); configuration 7 used", l->layer);
        l->layer = 8;
        luts = layer_luts[8];
    }
    l->nlights = (r[GPUREG_LIGHTING_NUM_LIGHTS] & 7) + 1;
    color3(r[GPUREG_LIGHTING_AMBIENT], l->ambient);
    l->shadow_on = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_ENABLE);
    l->fresnel = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, FRESNEL);
    l->shadow_primary = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_PRIMARY);
    l->shadow_secondary = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_SECONDARY);
    l->shadow_invert = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_INVERT);
    l->shadow_alpha = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_ALPHA);
    l->bump_unit = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, BUMP_UNIT);
    l->shadow_unit = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, SHADOW_UNIT);
    l->clamp_highlights = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, CLAMP_HIGHLIGHTS);
    l->bump_mode = G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, BUMP_MODE);
    l->bump_renorm = !G3D_FIELD_EX32(c0, GPUREG_LIGHTING_CONFIG0, NO_BUMP_RENORM);
    if (l->bump_mode == 3) {
        g3d_guest_error("pica200: lighting bump mode 3 is undefined; no bump "
                        "mapping");
        l->bump_mode = PICA_BUMP_NONE;
    }
    if (!l->shadow_on) {
        l->shadow_primary = l->shadow_secondary = l->shadow_alpha = false;
    }

    for (k = 0; k < 7; k++) {
        PicaLightLut *s = &l->lut[k];
        unsigned sc = (in_scale >> (4 * k)) & 7;

        /* SP's disable bit (b18) is a constant 1: per-light bits decide */
        s->on = (luts >> k) & 1;
        if (k != PICA_LUTSLOT_SP && (c1 >> (16 + slot_lut[k])) & 1) {
            s->on = false;
        }
        s->abs = !((in_abs >> (4 * k + 1)) & 1);
        s->input = (in_sel >> (4 * k)) & 7;
        s->scale = lut_scale[sc];
        if (s->on && (s->input > PICA_LUTIN_CP || sc == 4 || sc == 5)) {
            g3d_guest_error("pica200: lighting LUT slot %u has undefined "
                            "input %u or scale %u; it reads 0", k, s->input, sc);
            s->input = PICA_LUTIN_NH;
            s->scale = 0;
        }
    }

    for (i = 0; i < l->nlights; i++) {
        PicaLightSrc *s = &l->light[i];
        unsigned id = (perm >> (4 * i)) & 7;
        unsigned b = PICA_LIGHT_BASE(id);
        uint32_t cfg = r[b + PICA_LIGHT_CONFIG];

        s->id = id;
        color3(r[b + PICA_LIGHT_SPECULAR0], s->specular0);
        color3(r[b + PICA_LIGHT_SPECULAR1], s->specular1);
        color3(r[b + PICA_LIGHT_DIFFUSE], s->diffuse);
        color3(r[b + PICA_LIGHT_AMBIENT], s->ambient);
        s->pos[0] = g3d_float_unpack(r[b + PICA_LIGHT_XY] & 0xFFFF, &pica_f16);
        s->pos[1] = g3d_float_unpack(r[b + PICA_LIGHT_XY] >> 16, &pica_f16);
        s->pos[2] = g3d_float_unpack(r[b + PICA_LIGHT_Z] & 0xFFFF, &pica_f16);
        s->spot[0] = spot13(r[b + PICA_LIGHT_SPOTDIR_XY]);
        s->spot[1] = spot13(r[b + PICA_LIGHT_SPOTDIR_XY] >> 16);
        s->spot[2] = spot13(r[b + PICA_LIGHT_SPOTDIR_Z]);
        s->dist_bias = g3d_float_unpack(r[b + PICA_LIGHT_ATTENUATION_BIAS] & 0xFFFFF,
                                        &pica_f20);
        s->dist_scale = g3d_float_unpack(r[b + PICA_LIGHT_ATTENUATION_SCALE] & 0xFFFFF,
                                         &pica_f20);
        s->directional = G3D_FIELD_EX32(cfg, GPUREG_LIGHT0_CONFIG, DIRECTIONAL);
        s->two_sided = G3D_FIELD_EX32(cfg, GPUREG_LIGHT0_CONFIG, TWO_SIDED);
        s->geo0 = G3D_FIELD_EX32(cfg, GPUREG_LIGHT0_CONFIG, GEO_FACTOR0);
        s->geo1 = G3D_FIELD_EX32(cfg, GPUREG_LIGHT0_CONFIG, GEO_FACTOR1);
        s->shadow = !((c1 >> id) & 1);
        s->spot_on = l->lut[PICA_LUTSLOT_SP].on && !((c1 >> (8 + id)) & 1);
        s->dist_on = !((c1 >> (24 + id)) & 1);
    }
    /* the tables are copied: triangles queued earlier keep theirs */
    memcpy(l->luts, c->light_lut, sizeof(l->luts));
    return true;
}

/* ---- per fragment --------------------------------------------------------- */

static inline float dot3f(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void cross3f(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* normalise in place; returns the old length (a zero vector stays zero) */
static float normalize3(float v[3])
{
    float len = sqrtf(dot3f(v, v));

    if (len > 0.0f && isfinite(len)) {
        float inv = 1.0f / len;

        v[0] *= inv;
        v[1] *= inv;
        v[2] *= inv;
    } else {
        v[0] = v[1] = v[2] = 0.0f;
    }
    return len;
}

/* v rotated by the unit quaternion q (x, y, z, w) */
static void quat_rotate(const float q[4], const float v[3], float out[3])
{
    float t[3], u[3];
    int i;

    cross3f(q, v, t);
    for (i = 0; i < 3; i++) {
        t[i] += q[3] * v[i];
    }
    cross3f(q, t, u);
    for (i = 0; i < 3; i++) {
        out[i] = v[i] + 2.0f * u[i];
    }
}

/* entry `index` of a table plus difference * delta */
static float lut_entry(const uint32_t *lut, unsigned index, float delta)
{
    uint32_t e = lut[index & 0xFF];
    /* reciprocals: a division per lookup costs more than the rest of it */
    float value = (float)(e & 0xFFF) * (1.0f / 4095.0f);
    float diff = (float)((e >> 12) & 0x7FF) * (1.0f / 2047.0f);

    return value + (e & (1u << 23) ? -diff : diff) * delta;
}

/* a table read at x in [0, 1] with 256 entries */
static float lut_unsigned(const uint32_t *lut, float x)
{
    float f = floorf(x * 256.0f);
    int i = !(f >= 0.0f) ? 0 : f > 255.0f ? 255 : (int)f;

    return lut_entry(lut, i, x * 256.0f - i);
}

static float lut_read(const PicaLighting *l, const PicaLightLut *s,
                      unsigned lut, float x, bool two_sided)
{
    if (!isfinite(x)) {
        x = 0.0f;
    }
    if (s->abs) {
        /* the light's two-sided flag makes "abs" a true absolute value */
        x = two_sided ? fabsf(x) : MAX(x, 0.0f);
        return s->scale * lut_unsigned(l->luts[lut], x);
    } else {
        float f = floorf(x * 128.0f);
        int i = f < -128.0f ? -128 : f > 127.0f ? 127 : (int)f;

        return s->scale * lut_entry(l->luts[lut], (uint8_t)(int8_t)i,
                                    x * 128.0f - i);
    }
}

static uint8_t to_u8(float v)
{
    /* clamped to [0, 1] (NaN to 0), truncated (Citra) */
    return v > 0.0f ? (uint8_t)(MIN(v, 1.0f) * 255.0f) : 0;
}

void pica_lighting_fragment(const PicaLighting *l, const float quat[4],
                            const float view[3], const uint8_t (*tex)[4],
                            uint8_t primary[4], uint8_t secondary[4])
{
    static const uint8_t zero4[4];
    float q[4], qlen, normal[3] = { 0, 0, 1 }, tangent[3] = { 1, 0, 0 };
    float n[3], t[3], v[3], shadow[4] = { 1, 1, 1, 1 };
    float diffuse_sum[4] = { 0, 0, 0, 1 }, specular_sum[4] = { 0, 0, 0, 1 };
    unsigned i, k;

    if (l->shadow_on) {
        const uint8_t *s = tex ? tex[l->shadow_unit] : zero4;
        for (k = 0; k < 4; k++) {
            shadow[k] = s[k] / 255.0f;
            if (l->shadow_invert) {
                shadow[k] = 1.0f - shadow[k];
            }
        }
    }
    if (l->bump_mode != PICA_BUMP_NONE) {
        const uint8_t *b = tex ? tex[l->bump_unit] : zero4;
        float p[3];
        for (k = 0; k < 3; k++) {
            p[k] = b[k] / 127.5f - 1.0f;
        }
        if (l->bump_mode == PICA_BUMP_NORMAL) {
            if (l->bump_renorm) {
                p[2] = sqrtf(MAX(1.0f - (p[0] * p[0] + p[1] * p[1]), 0.0f));
            }
            memcpy(normal, p, sizeof(p));
        } else {
            memcpy(tangent, p, sizeof(p));
        }
    }

    /* the interpolated quaternion, normalised (a zero one gives no rotation) */
    qlen = sqrtf(quat[0] * quat[0] + quat[1] * quat[1] + quat[2] * quat[2] +
                 quat[3] * quat[3]);
    if (qlen > 0.0f && isfinite(qlen)) {
        for (k = 0; k < 4; k++) {
            q[k] = quat[k] / qlen;
        }
    } else {
        q[0] = q[1] = q[2] = 0.0f;
        q[3] = 1.0f;
    }
    quat_rotate(q, normal, n);
    quat_rotate(q, tangent, t);
    memcpy(v, view, sizeof(v));
    normalize3(v);

    for (i = 0; i < l->nlights; i++) {
        const PicaLightSrc *s = &l->light[i];
        float lv[3], h[3], hn[3], len, hlen2, ln, refl[3];
        float dist_atten = 1.0f, spot_atten = 1.0f, d0 = 1.0f, d1 = 1.0f;
        float clamp_hl = 1.0f, diffuse[3], specular[3], spec0[3], spec1[3];
        float in[6];                /* the LUT inputs, by PICA_LUTIN_* */

        for (k = 0; k < 3; k++) {
            lv[k] = s->directional ? s->pos[k] : s->pos[k] + view[k];
        }
        len = normalize3(lv);
        for (k = 0; k < 3; k++) {
            h[k] = v[k] + lv[k];
            hn[k] = h[k];
        }
        hlen2 = dot3f(h, h);
        normalize3(hn);

        if (s->dist_on) {
            float x = s->dist_scale * len + s->dist_bias;
            x = x > 0.0f ? MIN(x, 1.0f) : 0.0f;     /* NaN to 0 */
            dist_atten = lut_unsigned(l->luts[PICA_LIGHT_LUT_DA + s->id], x);
        }

        in[PICA_LUTIN_NH] = dot3f(n, hn);
        in[PICA_LUTIN_VH] = dot3f(v, hn);
        in[PICA_LUTIN_NV] = dot3f(n, v);
        in[PICA_LUTIN_LN] = dot3f(lv, n);
        in[PICA_LUTIN_SP] = dot3f(lv, s->spot);
        in[PICA_LUTIN_CP] = 0.0f;
        if (l->layer == 8) {
            /* cos phi: the half vector projected on the surface, on T */
            float proj[3], nh = dot3f(n, hn);
            for (k = 0; k < 3; k++) {
                proj[k] = hn[k] - n[k] * nh;
            }
            in[PICA_LUTIN_CP] = dot3f(proj, t);
        }
#define LUT(slot_, table_) \
        lut_read(l, &l->lut[slot_], (table_), in[l->lut[slot_].input], s->two_sided)

        if (s->spot_on) {
            spot_atten = LUT(PICA_LUTSLOT_SP, PICA_LIGHT_LUT_SP + s->id);
        }
        if (l->lut[PICA_LUTSLOT_D0].on) {
            d0 = LUT(PICA_LUTSLOT_D0, PICA_LIGHT_LUT_D0);
        }
        /* RG and RB default to RR, RR to 1 */
        refl[0] = l->lut[PICA_LUTSLOT_RR].on
                  ? LUT(PICA_LUTSLOT_RR, PICA_LIGHT_LUT_RR) : 1.0f;
        refl[1] = l->lut[PICA_LUTSLOT_RG].on
                  ? LUT(PICA_LUTSLOT_RG, PICA_LIGHT_LUT_RG) : refl[0];
        refl[2] = l->lut[PICA_LUTSLOT_RB].on
                  ? LUT(PICA_LUTSLOT_RB, PICA_LIGHT_LUT_RB) : refl[0];
        if (l->lut[PICA_LUTSLOT_D1].on) {
            d1 = LUT(PICA_LUTSLOT_D1, PICA_LIGHT_LUT_D1);
        }
        /* Fresnel: only the last light slot's value counts */
        if (i == l->nlights - 1 && l->lut[PICA_LUTSLOT_FR].on && l->fresnel) {
            float fr = LUT(PICA_LUTSLOT_FR, PICA_LIGHT_LUT_FR);
            if (l->fresnel & 1) {
                diffuse_sum[3] = fr;
            }
            if (l->fresnel & 2) {
                specular_sum[3] = fr;
            }
        }
#undef LUT

        ln = dot3f(lv, n);
        ln = s->two_sided ? fabsf(ln) : MAX(ln, 0.0f);
        if (l->clamp_highlights && ln == 0.0f) {
            clamp_hl = 0.0f;
        }
        for (k = 0; k < 3; k++) {
            spec0[k] = d0 * s->specular0[k];
            spec1[k] = d1 * refl[k] * s->specular1[k];
        }
        if (s->geo0 || s->geo1) {
            float g = hlen2 == 0.0f ? 0.0f : MIN(ln / hlen2, 1.0f);
            for (k = 0; k < 3; k++) {
                spec0[k] *= s->geo0 ? g : 1.0f;
                spec1[k] *= s->geo1 ? g : 1.0f;
            }
        }
        for (k = 0; k < 3; k++) {
            diffuse[k] = (s->diffuse[k] * ln + s->ambient[k]) * dist_atten * spot_atten;
            specular[k] = (spec0[k] + spec1[k]) * clamp_hl * dist_atten * spot_atten;
            if (s->shadow) {
                diffuse[k] *= l->shadow_primary ? shadow[k] : 1.0f;
                specular[k] *= l->shadow_secondary ? shadow[k] : 1.0f;
            }
            diffuse_sum[k] += diffuse[k];
            specular_sum[k] += specular[k];
        }
    }
    if (l->shadow_alpha) {
        /* the Fresnel selector also says which alphas the shadow darkens */
        if (l->fresnel & 1) {
            diffuse_sum[3] *= shadow[3];
        }
        if (l->fresnel & 2) {
            specular_sum[3] *= shadow[3];
        }
    }
    for (k = 0; k < 3; k++) {
        diffuse_sum[k] += l->ambient[k];
    }
    for (k = 0; k < 4; k++) {
        primary[k] = to_u8(diffuse_sum[k]);
        secondary[k] = to_u8(specular_sum[k]);
    }
}
