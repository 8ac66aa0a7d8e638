/*
 * Fragment lighting: the registers and LUTs written through BAR0 (as a
 * guest's command list would), then the core's per-fragment result compared
 * with the published algorithm written out here in double precision, with
 * its own register decoding (reference "Fragment lighting registers";
 * the per-fragment steps of Citra's renderer_software/sw_lighting.cpp).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>

#include "image.h"
#include "pica-scene.h"
#include "pica200-scene.h"
#include "common/scanout.h"
#include "pica200/pica200-int.h"

/* ---- number encodings, from the reference's bit layouts ------------------ */

/* float1.e.m with bias 2^(e-1) - 1, round to nearest (normal values only) */
static uint32_t enc_float(double v, int ebits, int mbits)
{
    int bias = (1 << (ebits - 1)) - 1, e;
    uint32_t sign = v < 0, m;
    double f;

    if (v == 0) {
        return 0;
    }
    f = frexp(fabs(v), &e);              /* v = f * 2^e, f in [0.5, 1) */
    e -= 1;                              /* v = (2f) * 2^e */
    m = (uint32_t)lround((2 * f - 1) * (1 << mbits));
    if (m == (1u << mbits)) {
        m = 0;
        e++;
    }
    g_assert_cmpint(e + bias, >, 0);
    g_assert_cmpint(e + bias, <, (1 << ebits) - 1);
    return sign << (ebits + mbits) | (uint32_t)(e + bias) << mbits | m;
}

static double dec_float(uint32_t v, int ebits, int mbits)
{
    int bias = (1 << (ebits - 1)) - 1;
    uint32_t m = v & ((1u << mbits) - 1), e = (v >> mbits) & ((1u << ebits) - 1);
    double r;

    if (!e && !m) {
        return 0;
    }
    r = ldexp(1.0 + (double)m / (1 << mbits), (int)e - bias);
    return (v >> (ebits + mbits)) & 1 ? -r : r;
}

/* fixed1.1.11 (13-bit two's complement, 2047 = 1.0) */
static uint32_t enc_spot(double v)
{
    return (uint32_t)lround(v * 2047) & 0x1FFF;
}

static double dec_spot(uint32_t v)
{
    int x = v & 0x1FFF;

    return (x >= 0x1000 ? x - 0x2000 : x) / 2047.0;
}

/* a LUT entry: value / 4095 in b0-11, |difference| / 2047 in b12-22, sign b23 */
static uint32_t lut_word(int value, int diff)
{
    return (uint32_t)value | (uint32_t)abs(diff) << 12 | (diff < 0 ? 1u << 23 : 0);
}

static double lut_at(const uint32_t *lut, int i, double frac)
{
    uint32_t e = lut[i & 0xFF];
    double d = ((e >> 12) & 0x7FF) / 2047.0;

    return (e & 0xFFF) / 4095.0 + ((e >> 23) & 1 ? -d : d) * frac;
}

/* ---- the algorithm (sw_lighting.cpp's steps), from raw register values -- */

typedef struct Vec {
    double x, y, z;
} Vec;

static Vec vec(double x, double y, double z)
{
    Vec v = { x, y, z };
    return v;
}

static double dot(Vec a, Vec b)
{
    return a.x * b.x + a.y * b.y + a.z * b.z;
}

static Vec add(Vec a, Vec b)
{
    return vec(a.x + b.x, a.y + b.y, a.z + b.z);
}

static Vec scale(Vec a, double s)
{
    return vec(a.x * s, a.y * s, a.z * s);
}

static Vec cross(Vec a, Vec b)
{
    return vec(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z,
               a.x * b.y - a.y * b.x);
}

static Vec unit(Vec a)
{
    double l = sqrt(dot(a, a));
    return l > 0 ? scale(a, 1 / l) : vec(0, 0, 0);
}

/* v' = q v q* for a unit quaternion (x, y, z, w) */
static Vec rotate(const double q[4], Vec v)
{
    Vec u = vec(q[0], q[1], q[2]);
    Vec t = add(cross(u, v), scale(v, q[3]));

    return add(v, scale(cross(u, t), 2));
}

static Vec color(uint32_t v)
{
    return vec(((v >> 20) & 0xFF) / 255.0, ((v >> 10) & 0xFF) / 255.0,
               (v & 0xFF) / 255.0);
}

typedef struct RefState {
    uint32_t reg[PICA_NREGS];
    uint32_t lut[24][256];
} RefState;

/* LUT slot k (D0, D1, SP, FR, RB, RG, RR) read at input x */
static double ref_lut(const RefState *s, int k, int table, double x,
                      int two_sided)
{
    static const double scales[8] = { 1, 2, 4, 8, 0, 0, 0.25, 0.5 };
    int absolute = !((s->reg[GPUREG_LIGHTING_LUTINPUT_ABS] >> (4 * k + 1)) & 1);
    double sc = scales[(s->reg[GPUREG_LIGHTING_LUTINPUT_SCALE] >> (4 * k)) & 7];
    int i;

    if (absolute) {
        x = two_sided ? fabs(x) : fmax(x, 0);
        i = (int)floor(x * 256);
        i = i < 0 ? 0 : i > 255 ? 255 : i;
        return sc * lut_at(s->lut[table], i, x * 256 - i);
    }
    i = (int)floor(x * 128);
    i = i < -128 ? -128 : i > 127 ? 127 : i;
    return sc * lut_at(s->lut[table], i & 0xFF, x * 128 - i);
}

/* does layer configuration `cfg` have LUT slot k (reference table) */
static int ref_layer_has(int cfg, int k)
{
    static const char *has[9] = {
        "D0 RR SP", "FR RR SP", "D0 D1 RR", "D0 D1 FR",
        "D0 D1 SP RB RG RR", "D0 SP FR RB RG RR", "D0 D1 SP FR RR", "",
        "D0 D1 SP FR RB RG RR",
    };
    static const char *names[7] = { "D0", "D1", "SP", "FR", "RB", "RG", "RR" };

    return strstr(has[cfg], names[k]) != NULL;
}

static int clamp255(double v)
{
    return v > 0 ? (int)(fmin(v, 1.0) * 255) : 0;
}

static void ref_fragment(const RefState *s, const double quat[4], Vec view,
                         const uint8_t tex[4][4], int prim[4], int sec[4])
{
    const uint32_t *r = s->reg;
    uint32_t c0 = r[GPUREG_LIGHTING_CONFIG0], c1 = r[GPUREG_LIGHTING_CONFIG1];
    uint32_t sel = r[GPUREG_LIGHTING_LUTINPUT_SELECT];
    int cfg = (c0 >> 4) & 0xF, nlights = (r[GPUREG_LIGHTING_NUM_LIGHTS] & 7) + 1;
    int fresnel = (c0 >> 2) & 3, bump = (c0 >> 28) & 3, i, k;
    /* which of D0, D1, -, FR, RB, RG, RR are usable (config1 b16 + LUT number) */
    static const int lutno[7] = { 0, 1, -1, 3, 4, 5, 6 };
    int on[7];
    double sh[4] = { 1, 1, 1, 1 }, dsum[4] = { 0, 0, 0, 1 }, ssum[4] = { 0, 0, 0, 1 };
    double q[4], ql = 0;
    Vec nsurf = vec(0, 0, 1), tsurf = vec(1, 0, 0), n, t, v;

    for (k = 0; k < 7; k++) {
        on[k] = ref_layer_has(cfg, k) &&
                (k == 2 || !((c1 >> (16 + lutno[k])) & 1));
    }
    if (c0 & 1) {
        for (k = 0; k < 4; k++) {
            sh[k] = tex[(c0 >> 24) & 3][k] / 255.0;
            if ((c0 >> 18) & 1) {
                sh[k] = 1 - sh[k];
            }
        }
    }
    if (bump == 1 || bump == 2) {
        const uint8_t *b = tex[(c0 >> 22) & 3];
        Vec p = vec(b[0] / 127.5 - 1, b[1] / 127.5 - 1, b[2] / 127.5 - 1);
        if (bump == 1) {
            if (!((c0 >> 30) & 1)) {
                p.z = sqrt(fmax(1 - p.x * p.x - p.y * p.y, 0));
            }
            nsurf = p;
        } else {
            tsurf = p;
        }
    }
    for (k = 0; k < 4; k++) {
        ql += quat[k] * quat[k];
    }
    for (k = 0; k < 4; k++) {
        q[k] = quat[k] / sqrt(ql);
    }
    n = rotate(q, nsurf);
    t = rotate(q, tsurf);
    v = unit(view);

    for (i = 0; i < nlights; i++) {
        int id = (r[GPUREG_LIGHTING_LIGHT_PERMUTATION] >> (4 * i)) & 7;
        const uint32_t *L = &r[0x140 + 0x10 * id];
        int two = (L[9] >> 1) & 1;
        Vec pos = vec(dec_float(L[4] & 0xFFFF, 5, 10), dec_float(L[4] >> 16, 5, 10),
                      dec_float(L[5] & 0xFFFF, 5, 10));
        Vec spot = vec(dec_spot(L[6]), dec_spot(L[6] >> 16), dec_spot(L[7]));
        Vec l = (L[9] & 1) ? pos : add(pos, view), h, hn;
        double len = sqrt(dot(l, l)), da = 1, sp = 1, d0 = 1, d1 = 1, geo, ln;
        double in[6], rr, rg, rb;
        Vec s0, s1, dif, spe;

        l = unit(l);
        h = add(v, l);
        hn = unit(h);
        if (!((c1 >> (24 + id)) & 1)) {
            double x = dec_float(L[11] & 0xFFFFF, 7, 12) * len +
                       dec_float(L[10] & 0xFFFFF, 7, 12);
            int j;
            x = fmin(fmax(x, 0), 1);
            j = (int)fmin(floor(x * 256), 255);
            da = lut_at(s->lut[16 + id], j, x * 256 - j);
        }
        in[0] = dot(n, hn);
        in[1] = dot(v, hn);
        in[2] = dot(n, v);
        in[3] = dot(l, n);
        in[4] = dot(l, spot);
        in[5] = cfg == 8 ? dot(add(hn, scale(n, -dot(n, hn))), t) : 0;
#define IN(k) in[(sel >> (4 * (k))) & 7]
        if (on[2] && !((c1 >> (8 + id)) & 1)) {
            sp = ref_lut(s, 2, 8 + id, IN(2), two);
        }
        if (on[0]) {
            d0 = ref_lut(s, 0, 0, IN(0), two);
        }
        if (on[1]) {
            d1 = ref_lut(s, 1, 1, IN(1), two);
        }
        rr = on[6] ? ref_lut(s, 6, 6, IN(6), two) : 1;
        rg = on[5] ? ref_lut(s, 5, 5, IN(5), two) : rr;
        rb = on[4] ? ref_lut(s, 4, 4, IN(4), two) : rr;
        if (i == nlights - 1 && on[3]) {
            double fr = ref_lut(s, 3, 3, IN(3), two);
            if (fresnel & 1) {
                dsum[3] = fr;
            }
            if (fresnel & 2) {
                ssum[3] = fr;
            }
        }
#undef IN
        ln = two ? fabs(dot(l, n)) : fmax(dot(l, n), 0);
        s0 = scale(color(L[0]), d0);
        s1 = color(L[1]);
        s1 = vec(s1.x * d1 * rr, s1.y * d1 * rg, s1.z * d1 * rb);
        geo = dot(h, h) == 0 ? 0 : fmin(ln / dot(h, h), 1);
        if ((L[9] >> 2) & 1) {
            s0 = scale(s0, geo);
        }
        if ((L[9] >> 3) & 1) {
            s1 = scale(s1, geo);
        }
        dif = scale(add(scale(color(L[2]), ln), color(L[3])), da * sp);
        spe = scale(add(s0, s1), ((c0 >> 27) & 1) && ln == 0 ? 0 : da * sp);
        if ((c0 & 1) && !((c1 >> id) & 1)) {
            if ((c0 >> 16) & 1) {
                dif = vec(dif.x * sh[0], dif.y * sh[1], dif.z * sh[2]);
            }
            if ((c0 >> 17) & 1) {
                spe = vec(spe.x * sh[0], spe.y * sh[1], spe.z * sh[2]);
            }
        }
        dsum[0] += dif.x; dsum[1] += dif.y; dsum[2] += dif.z;
        ssum[0] += spe.x; ssum[1] += spe.y; ssum[2] += spe.z;
    }
    if ((c0 & 1) && ((c0 >> 19) & 1)) {
        if (fresnel & 1) {
            dsum[3] *= sh[3];
        }
        if (fresnel & 2) {
            ssum[3] *= sh[3];
        }
    }
    {
        Vec a = color(r[GPUREG_LIGHTING_AMBIENT]);
        dsum[0] += a.x; dsum[1] += a.y; dsum[2] += a.z;
    }
    for (k = 0; k < 4; k++) {
        prim[k] = clamp255(dsum[k]);
        sec[k] = clamp255(ssum[k]);
    }
}

/* ---- driving the core ------------------------------------------------------ */

static void set_reg(PicaTest *t, RefState *s, uint32_t id, uint32_t v)
{
    s->reg[id] = v;
    pt_wreg(t, id, v);
}

/* LUT `table` through LIGHTING_LUT_INDEX and the data port aliases */
static void upload_lut(PicaTest *t, RefState *s, unsigned table,
                       const uint32_t *words)
{
    unsigned i;

    pt_wreg(t, GPUREG_LIGHTING_LUT_INDEX, table << 8);
    for (i = 0; i < 256; i++) {
        pt_wreg(t, GPUREG_LIGHTING_LUT_DATA0 + (i & 7), words[i]);
    }
    memcpy(s->lut[table], words, sizeof(s->lut[table]));
}

/* a random walk with its differences: continuous under interpolation */
static void random_lut(GRand *rng, uint32_t *w)
{
    int v[257], i;

    v[0] = g_rand_int_range(rng, 0, 4096);
    for (i = 1; i < 257; i++) {
        v[i] = CLAMP(v[i - 1] + g_rand_int_range(rng, -60, 61), 0, 4095);
    }
    for (i = 0; i < 256; i++) {
        w[i] = lut_word(v[i], (int)lround((v[i + 1] - v[i]) * 2047.0 / 4095));
    }
}

/* an identity ramp: entry i holds i / 256 (abs input: LUT(x) = x) */
static void ramp_lut(uint32_t *w, int is_signed)
{
    int i;

    for (i = 0; i < 256; i++) {
        /* signed tables hold x = (int8_t)i / 128 at index i */
        double x = is_signed ? (int8_t)i / 128.0 : i / 256.0;
        double step = is_signed ? 1 / 128.0 : 1 / 256.0;
        int v = (int)lround(fabs(x) * 4095);
        w[i] = lut_word(v, (int)lround((fabs(x + step) - fabs(x)) * 2047));
    }
}

static void core_fragment(PicaTest *t, const double q[4], Vec view,
                          const uint8_t tex[4][4], uint8_t prim[4],
                          uint8_t sec[4])
{
    PicaLighting *l = g_new(PicaLighting, 1);
    float qf[4], vf[3] = { (float)view.x, (float)view.y, (float)view.z };
    int k;

    for (k = 0; k < 4; k++) {
        qf[k] = (float)q[k];
    }
    g_assert_true(pt_run(t, 10));
    g_assert_true(pica_lighting_setup(t->core, l));
    pica_lighting_fragment(l, qf, vf, tex, prim, sec);
    g_free(l);
}

static void lighting_on(PicaTest *t, RefState *s)
{
    set_reg(t, s, GPUREG_LIGHTING_ENABLE0, 1);
    set_reg(t, s, GPUREG_LIGHTING_ENABLE1, 0);
}

/* one directional (or positional) light 0 with colours and position */
static void light0(PicaTest *t, RefState *s, Vec pos, int directional,
                   uint32_t spec0, uint32_t spec1, uint32_t dif, uint32_t amb)
{
    unsigned b = PICA_LIGHT_BASE(0);

    set_reg(t, s, b + PICA_LIGHT_SPECULAR0, spec0);
    set_reg(t, s, b + PICA_LIGHT_SPECULAR1, spec1);
    set_reg(t, s, b + PICA_LIGHT_DIFFUSE, dif);
    set_reg(t, s, b + PICA_LIGHT_AMBIENT, amb);
    set_reg(t, s, b + PICA_LIGHT_XY, enc_float(pos.x, 5, 10) |
                                     enc_float(pos.y, 5, 10) << 16);
    set_reg(t, s, b + PICA_LIGHT_Z, enc_float(pos.z, 5, 10));
    set_reg(t, s, b + PICA_LIGHT_CONFIG, directional);
}

static const double q_identity[4] = { 0, 0, 0, 1 };
static const uint8_t no_tex[4][4];

/* ---- closed-form cases ------------------------------------------------------ */

/*
 * Diffuse only, every LUT off: primary = ambient + diffuse * max(L.N, 0)
 * (+ light ambient), secondary = 0, alphas 1.
 */
static void test_diffuse_closed_form(void)
{
    PicaTest t;
    RefState s = { { 0 } };
    uint8_t p[4], sc[4];
    /* L = (0, 0.6, 0.8): N.L = 0.8 with the identity quaternion */
    double q90[4] = { sin(M_PI / 4), 0, 0, cos(M_PI / 4) };

    pt_init(&t, 1);
    lighting_on(&t, &s);
    light0(&t, &s, vec(0, 0.6, 0.8), 1, 0, 0, PICA_LIGHT_COLOR(255, 128, 0),
           PICA_LIGHT_COLOR(0, 0, 51));
    set_reg(&t, &s, GPUREG_LIGHTING_AMBIENT, PICA_LIGHT_COLOR(10, 20, 30));
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 0);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0xFF7FFF00);  /* every LUT off */
    core_fragment(&t, q_identity, vec(0, 0, 1), no_tex, p, sc);
    g_assert_cmpint(abs(p[0] - 214), <=, 1);               /* 0.8 * 255 + 10 */
    g_assert_cmpint(abs(p[1] - 122), <=, 1);               /* 0.8 * 128 + 20 */
    g_assert_cmpint(abs(p[2] - 81), <=, 1);                /* 51 + 30 */
    g_assert_cmpint(p[3], ==, 255);
    g_assert_cmpint(sc[0] | sc[1] | sc[2], ==, 0);
    g_assert_cmpint(sc[3], ==, 255);

    /* 90 degrees about x turns N = (0, 0, 1) to (0, -1, 0): L.N = -0.6 */
    core_fragment(&t, q90, vec(0, 0, 1), no_tex, p, sc);
    g_assert_cmpint(abs(p[1] - 20), <=, 1);                /* one-sided: 0 */
    /* two-sided diffuse: |L.N| = 0.6 */
    set_reg(&t, &s, PICA_LIGHT_BASE(0) + PICA_LIGHT_CONFIG, 1 | 2);
    core_fragment(&t, q90, vec(0, 0, 1), no_tex, p, sc);
    g_assert_cmpint(abs(p[1] - (int)(0.6 * 128 + 20)), <=, 1);
    /* the quaternion is normalised: 3 q gives the same */
    {
        double q3[4] = { 3 * q90[0], 0, 0, 3 * q90[3] };
        uint8_t p3[4];
        core_fragment(&t, q3, vec(0, 0, 1), no_tex, p3, sc);
        g_assert_cmpmem(p, 4, p3, 4);
    }
    /* both enable bits must say on */
    set_reg(&t, &s, GPUREG_LIGHTING_ENABLE1, 1);
    {
        PicaLighting l;
        g_assert_false(pica_lighting_setup(t.core, &l));
    }
    pt_free(&t);
}

/*
 * D0 = identity ramp on N.H (abs input), specular0 white: secondary =
 * N.H; the signed input gives the same for N.H > 0 and reads the negative
 * half for N.H < 0; the scales multiply.
 */
static void test_d0_selectors_scales(void)
{
    static const double scales[8] = { 1, 2, 4, 8, 0, 0, 0.25, 0.5 };
    PicaTest t;
    RefState s = { { 0 } };
    uint32_t ramp[256], sramp[256];
    uint8_t p[4], sc[4];
    int input, sgn, scl;

    pt_init(&t, 1);
    ramp_lut(ramp, 0);
    ramp_lut(sramp, 1);
    lighting_on(&t, &s);
    /* L = (0.6, 0, 0.8) directional, V = (0, 0, 1): H = (0.6, 0, 1.8) */
    light0(&t, &s, vec(0.6, 0, 0.8), 1, PICA_LIGHT_COLOR(255, 255, 255), 0, 0, 0);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 8 << 4);      /* configuration 7 */
    /* only D0 on; no spot, no distance attenuation */
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0xFF7E0000 | 0xFF00);
    for (input = 0; input < 6; input++) {
        for (sgn = 0; sgn < 2; sgn++) {
            upload_lut(&t, &s, PICA_LIGHT_LUT_D0, sgn ? sramp : ramp);
            for (scl = 0; scl < 8; scl++) {
                int pr[4], se[4];
                Vec l = vec(0.6, 0, 0.8), h = unit(add(l, vec(0, 0, 1)));
                /* N = (0,0,1), V = (0,0,1), T = (1,0,0) */
                double x[6] = { h.z, h.z, 1, 0.8, 0, 0 };
                double want;

                if (scl == 4 || scl == 5) {
                    continue;
                }
                /* cos phi: (H - N (N.H)).T = h.x */
                x[5] = h.x;
                set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT, input);
                set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_ABS, sgn ? 2 : 0);
                set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SCALE, scl);
                core_fragment(&t, q_identity, vec(0, 0, 1), no_tex, p, sc);
                ref_fragment(&s, q_identity, vec(0, 0, 1), no_tex, pr, se);
                /* closed form: the ramp gives x back (x >= 0 here) */
                want = fmin(scales[scl] * x[input], 1.0) * 255;
                g_assert_cmpint(abs(sc[0] - (int)want), <=, 2);
                g_assert_cmpint(abs(sc[0] - se[0]), <=, 1);
                g_assert_cmpint(sc[1], ==, sc[0]);
            }
        }
    }
    /* a negative signed input reads the table's upper half: N.V = -1 */
    upload_lut(&t, &s, PICA_LIGHT_LUT_D0, sramp);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT, PICA_LUTIN_NV);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_ABS, 2);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SCALE, 0);
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(sc[0], >=, 253);                       /* |-1| from entry 128 */
    /* abs input of a one-sided light: max(N.V, 0) = 0 */
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_ABS, 0);
    upload_lut(&t, &s, PICA_LIGHT_LUT_D0, ramp);
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(sc[0], ==, 0);
    pt_free(&t);
}

/*
 * Distance attenuation DA(clamp(scale * |L| + bias, 0, 1)) with an identity
 * ramp, and a spotlight whose SP table is the ramp on -L.P.
 */
static void test_attenuation_spot(void)
{
    PicaTest t;
    RefState s = { { 0 } };
    uint32_t ramp[256], zero[256] = { 0 };
    uint8_t p[4], sc[4];
    int pr[4], se[4];
    unsigned b = PICA_LIGHT_BASE(0);

    pt_init(&t, 1);
    ramp_lut(ramp, 0);
    lighting_on(&t, &s);
    /* positional light at (0, 0, 2), view (0, 0, -1): L = (0, 0, 1), |L| = 1 */
    light0(&t, &s, vec(0, 0, 2), 0, 0, 0, PICA_LIGHT_COLOR(200, 200, 200), 0);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 8 << 4);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0x007F0000 | 0xFF00 | 0xFE000000);
    upload_lut(&t, &s, PICA_LIGHT_LUT_DA + 0, ramp);
    set_reg(&t, &s, b + PICA_LIGHT_ATTENUATION_SCALE, enc_float(0.25, 7, 12));
    set_reg(&t, &s, b + PICA_LIGHT_ATTENUATION_BIAS, enc_float(0.125, 7, 12));
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    /* DA(0.375) = 0.375: 200 * 0.375 = 75 */
    g_assert_cmpint(abs(p[0] - 75), <=, 1);
    ref_fragment(&s, q_identity, vec(0, 0, -1), no_tex, pr, se);
    g_assert_cmpint(abs(p[0] - pr[0]), <=, 1);
    /* distance attenuation off for light 0: full diffuse */
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0x007F0000 | 0xFF00 | 0xFF000000);
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(abs(p[0] - 200), <=, 1);

    /* spotlight: -P = (0, 0.6, 0.8), so -L.P = 0.8 */
    set_reg(&t, &s, b + PICA_LIGHT_SPOTDIR_XY, enc_spot(0) | enc_spot(0.6) << 16);
    set_reg(&t, &s, b + PICA_LIGHT_SPOTDIR_Z, enc_spot(0.8));
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0x007F0000 | 0xFE00 | 0xFF000000);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT, PICA_LUTIN_SP << 8);
    upload_lut(&t, &s, PICA_LIGHT_LUT_SP + 0, ramp);
    upload_lut(&t, &s, PICA_LIGHT_LUT_SP + 1, zero);      /* another light's */
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(abs(p[0] - 160), <=, 1);
    /* configuration 2 has no SP: the spotlight reads 1 */
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 2 << 4);
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(abs(p[0] - 200), <=, 1);
    /* the light permutation: slot 0 uses light 1 (all zero colours) */
    set_reg(&t, &s, GPUREG_LIGHTING_LIGHT_PERMUTATION, 1);
    core_fragment(&t, q_identity, vec(0, 0, -1), no_tex, p, sc);
    g_assert_cmpint(p[0], ==, 0);
    pt_free(&t);
}

/*
 * Bump map (with and without z rebuilt), tangent map with cos phi, shadow
 * on primary/secondary/alpha (inverted too), Fresnel and clamp highlights:
 * against the algorithm above, and a closed-form bump case.
 */
static void test_bump_shadow_fresnel(void)
{
    PicaTest t;
    RefState s = { { 0 } };
    uint32_t ramp[256];
    uint8_t p[4], sc[4], tex[4][4] = {
        { 255, 128, 128, 255 },      /* unit 0: normal (1, 0, 0) */
        { 64, 128, 192, 32 },        /* unit 1: shadow */
        { 200, 30, 255, 7 },
        { 128, 255, 128, 99 },       /* unit 3: tangent (0, 1, 0) */
    };
    int pr[4], se[4], c;

    pt_init(&t, 1);
    ramp_lut(ramp, 0);
    lighting_on(&t, &s);
    /* light along +x: with the bump normal (1, 0.004, ~0) diffuse is full */
    light0(&t, &s, vec(1, 0, 0), 1, PICA_LIGHT_COLOR(100, 100, 100),
           PICA_LIGHT_COLOR(40, 80, 120), PICA_LIGHT_COLOR(255, 255, 255), 0);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0xFF000000 | 0xFF00);
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 8 << 4 | PICA_BUMP_NORMAL << 28 | 1u << 30);
    core_fragment(&t, q_identity, vec(0, 0, 1), tex, p, sc);
    g_assert_cmpint(p[0], >=, 254);
    /* z rebuilt: sqrt(1 - 1 - 0.004^2) = 0; the same here */
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 8 << 4 | PICA_BUMP_NORMAL << 28);
    core_fragment(&t, q_identity, vec(0, 0, 1), tex, p, sc);
    g_assert_cmpint(p[0], >=, 254);

    for (c = 0; c < 64; c++) {
        uint32_t c0 = 8u << 4 | (uint32_t)(c & 3) << 2 |             /* Fresnel */
                      (c & 4 ? PICA_BUMP_TANGENT : PICA_BUMP_NORMAL) << 28 |
                      (c & 4 ? 3u : 0u) << 22 |                       /* bump unit */
                      1 | 1u << 24 | (c & 8 ? 1u << 16 : 0) |         /* shadow unit 1 */
                      (c & 16 ? 1u << 17 : 0) | (c & 32 ? 1u << 18 | 1u << 19 : 0) |
                      (c & 1 ? 1u << 27 : 0);
        double q[4] = { 0.1, -0.3, 0.2, 0.9 };

        set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, c0);
        set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT,
                PICA_LUTIN_CP | PICA_LUTIN_NH << 4 | PICA_LUTIN_NV << 12 |
                PICA_LUTIN_VH << 16 | PICA_LUTIN_LN << 20 | PICA_LUTIN_NH << 24);
        upload_lut(&t, &s, PICA_LIGHT_LUT_D0, ramp);
        upload_lut(&t, &s, PICA_LIGHT_LUT_D1, ramp);
        upload_lut(&t, &s, PICA_LIGHT_LUT_FR, ramp);
        upload_lut(&t, &s, PICA_LIGHT_LUT_RR, ramp);
        upload_lut(&t, &s, PICA_LIGHT_LUT_RG, ramp);
        upload_lut(&t, &s, PICA_LIGHT_LUT_RB, ramp);
        set_reg(&t, &s, PICA_LIGHT_BASE(0) + PICA_LIGHT_CONFIG, 1 | 4 | 8);
        core_fragment(&t, q, vec(0.3, 0.2, 1), tex, p, sc);
        ref_fragment(&s, q, vec(0.3, 0.2, 1), tex, pr, se);
        for (int k = 0; k < 4; k++) {
            g_assert_cmpint(abs(p[k] - pr[k]), <=, 1);
            g_assert_cmpint(abs(sc[k] - se[k]), <=, 1);
        }
    }
    pt_free(&t);
}

/*
 * The layer configurations: every LUT enabled and constant (D0 0.5, D1
 * 0.25, RR 0.8, RG 0.6, RB 0.4, FR 0.3, SP 0.9), specular0 = specular1 =
 * 100/255; secondary = 100 (D0 + D1 (RR, RG, RB)) SP with a missing LUT
 * reading 1 (RG, RB: RR), alpha FR where the configuration has it
 * (reference "Light environment configuration values").
 */
static void test_layer_configs(void)
{
    static const int layers[8] = { 0, 1, 2, 3, 4, 5, 6, 8 };
    static const double value[7] = { 0.5, 0.25, 0.9, 0.3, 0.4, 0.6, 0.8 };
    static const unsigned table[7] = {
        PICA_LIGHT_LUT_D0, PICA_LIGHT_LUT_D1, PICA_LIGHT_LUT_SP,
        PICA_LIGHT_LUT_FR, PICA_LIGHT_LUT_RB, PICA_LIGHT_LUT_RG,
        PICA_LIGHT_LUT_RR,
    };
    PicaTest t;
    RefState s = { { 0 } };
    uint32_t w[256];
    int i, k;

    pt_init(&t, 1);
    lighting_on(&t, &s);
    light0(&t, &s, vec(0, 0, 1), 1, PICA_LIGHT_COLOR(100, 100, 100),
           PICA_LIGHT_COLOR(100, 100, 100), 0, 0);
    for (k = 0; k < 7; k++) {
        for (i = 0; i < 256; i++) {
            w[i] = lut_word((int)lround(value[k] * 4095), 0);
        }
        upload_lut(&t, &s, table[k], w);
    }
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, 0xFF000000);  /* no DA */
    for (i = 0; i < 8; i++) {
        int l = layers[i];
        double d0 = ref_layer_has(l, 0) ? 0.5 : 1, d1 = ref_layer_has(l, 1) ? 0.25 : 1;
        double sp = ref_layer_has(l, 2) ? 0.9 : 1;
        double rr = ref_layer_has(l, 6) ? 0.8 : 1;
        double rg = ref_layer_has(l, 5) ? 0.6 : rr, rb = ref_layer_has(l, 4) ? 0.4 : rr;
        double want[4] = { 100 * (d0 + d1 * rr) * sp, 100 * (d0 + d1 * rg) * sp,
                           100 * (d0 + d1 * rb) * sp,
                           ref_layer_has(l, 3) ? 0.3 * 255 : 255 };
        uint8_t p[4], sc[4];

        set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, (uint32_t)l << 4 | 2u << 2);
        core_fragment(&t, q_identity, vec(0, 0, 1), no_tex, p, sc);
        for (k = 0; k < 4; k++) {
            if (abs(sc[k] - (int)want[k]) > 1) {
                g_error("configuration %d channel %d: %d, want %.2f", l, k,
                        sc[k], want[k]);
            }
        }
    }
    pt_free(&t);
}

/*
 * 400 random set-ups: lights 1-8 in a random permutation, every layer
 * configuration, random LUTs, inputs, abs flags and scales, random
 * per-light enables, geometric factors, positional/directional, two-sided;
 * 16 fragments each with random quaternions, views and textures.
 */
static void test_random_against_reference(void)
{
    static const int layers[8] = { 0, 1, 2, 3, 4, 5, 6, 8 };
    static const int scl[6] = { 0, 1, 2, 3, 6, 7 };
    GRand *rng = g_rand_new_with_seed(1234);
    PicaTest t;
    int n, worst = 0;
    long checked = 0;

    pt_init(&t, 1);
    for (n = 0; n < 400; n++) {
        RefState s;
        uint32_t w[256], perm = 0, sel = 0, sc = 0;
        int i, f, k, nl = g_rand_int_range(rng, 1, 9);
        int ids[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };

        memset(&s, 0, sizeof(s));
        pica200_core_reset(t.core);
        lighting_on(&t, &s);
        for (i = 0; i < 24; i++) {
            if (i == 2 || i == 7) {
                continue;
            }
            random_lut(rng, w);
            upload_lut(&t, &s, i, w);
        }
        for (i = 7; i > 0; i--) {
            int j = g_rand_int_range(rng, 0, i + 1), x = ids[i];
            ids[i] = ids[j];
            ids[j] = x;
        }
        for (i = 0; i < 8; i++) {
            unsigned b = PICA_LIGHT_BASE(i);
            double px = g_rand_double_range(rng, -4, 4);
            double py = g_rand_double_range(rng, -4, 4);
            double pz = g_rand_double_range(rng, -4, 4);
            Vec sp = unit(vec(g_rand_double_range(rng, -1, 1),
                              g_rand_double_range(rng, -1, 1),
                              g_rand_double_range(rng, -1, 1)));

            perm |= (uint32_t)ids[i] << (4 * i);
            for (k = 0; k < 4; k++) {
                set_reg(&t, &s, b + k, g_rand_int(rng) & 0x0FF3FCFF);
            }
            set_reg(&t, &s, b + PICA_LIGHT_XY, enc_float(px, 5, 10) |
                                               enc_float(py, 5, 10) << 16);
            set_reg(&t, &s, b + PICA_LIGHT_Z, enc_float(pz, 5, 10));
            set_reg(&t, &s, b + PICA_LIGHT_SPOTDIR_XY,
                    enc_spot(sp.x) | enc_spot(sp.y) << 16);
            set_reg(&t, &s, b + PICA_LIGHT_SPOTDIR_Z, enc_spot(sp.z));
            set_reg(&t, &s, b + PICA_LIGHT_CONFIG, g_rand_int(rng) & 0xF);
            set_reg(&t, &s, b + PICA_LIGHT_ATTENUATION_BIAS,
                    enc_float(g_rand_double_range(rng, -0.5, 0.5), 7, 12));
            set_reg(&t, &s, b + PICA_LIGHT_ATTENUATION_SCALE,
                    enc_float(g_rand_double_range(rng, 0.01, 0.5), 7, 12));
        }
        for (k = 0; k < 7; k++) {
            sel |= (uint32_t)g_rand_int_range(rng, 0, 6) << (4 * k);
            sc |= (uint32_t)scl[g_rand_int_range(rng, 0, 6)] << (4 * k);
        }
        set_reg(&t, &s, GPUREG_LIGHTING_LIGHT_PERMUTATION, perm);
        set_reg(&t, &s, GPUREG_LIGHTING_NUM_LIGHTS, nl - 1);
        set_reg(&t, &s, GPUREG_LIGHTING_AMBIENT, g_rand_int(rng) & 0x0FF3FCFF);
        set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT, sel);
        set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SCALE, sc);
        set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_ABS, g_rand_int(rng) & 0x02222222);
        set_reg(&t, &s, GPUREG_LIGHTING_CONFIG1, g_rand_int(rng) | 1u << 18);
        set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0,
                (g_rand_int(rng) & 0x4BCF000D) |
                (uint32_t)layers[g_rand_int_range(rng, 0, 8)] << 4 |
                (uint32_t)g_rand_int_range(rng, 0, 3) << 28);
        for (f = 0; f < 16; f++) {
            double q[4];
            Vec v = vec(g_rand_double_range(rng, -3, 3),
                        g_rand_double_range(rng, -3, 3),
                        g_rand_double_range(rng, -3, 3));
            uint8_t tex[4][4], p[4], s2[4];
            int pr[4], se[4];

            for (k = 0; k < 4; k++) {
                q[k] = g_rand_double_range(rng, -1, 1);
            }
            for (k = 0; k < 16; k++) {
                tex[k / 4][k % 4] = g_rand_int(rng);
            }
            core_fragment(&t, q, v, tex, p, s2);
            ref_fragment(&s, q, v, tex, pr, se);
            for (k = 0; k < 4; k++) {
                worst = MAX(worst, abs(p[k] - pr[k]));
                worst = MAX(worst, abs(s2[k] - se[k]));
                if (abs(p[k] - pr[k]) > 1 || abs(s2[k] - se[k]) > 1) {
                    g_test_message("set-up %d fragment %d channel %d: core "
                                   "%d/%d, reference %d/%d", n, f, k, p[k],
                                   s2[k], pr[k], se[k]);
                }
                checked += 2;
            }
        }
    }
    g_test_message("%ld channels checked, worst difference %d", checked, worst);
    g_assert_cmpint(worst, <=, 1);
    g_rand_free(rng);
    pt_free(&t);
}

/* undefined configurations are logged and drawn with a stand-in, no crash */
static void test_bad_input(void)
{
    PicaTest t;
    RefState s = { { 0 } };
    PicaLighting *l = g_new(PicaLighting, 1);
    uint8_t p[4], sc[4];
    float zero_q[4] = { 0, 0, 0, 0 }, nan_q[4] = { NAN, 0, 0, 1 };
    float v[3] = { INFINITY, NAN, 0 };

    pt_init(&t, 1);
    lighting_on(&t, &s);
    /* layer 7, bump mode 3, input 7, scale 4 */
    set_reg(&t, &s, GPUREG_LIGHTING_CONFIG0, 7 << 4 | 3u << 28);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SELECT, 0x7777777);
    set_reg(&t, &s, GPUREG_LIGHTING_LUTINPUT_SCALE, 0x4444444);
    g_assert_true(pica_lighting_setup(t.core, l));
    g_assert_cmpint(l->layer, ==, 8);
    g_assert_cmpint(l->bump_mode, ==, PICA_BUMP_NONE);
    g_assert_cmpfloat(l->lut[PICA_LUTSLOT_D0].scale, ==, 0);
    pica_lighting_fragment(l, zero_q, v, NULL, p, sc);
    pica_lighting_fragment(l, nan_q, v, NULL, p, sc);
    /* a zero quaternion is the identity: N = (0, 0, 1) */
    g_free(l);
    pt_free(&t);
}

/* ---- in a draw: the quaternion and view from the vertex shader ----------- */

#define W 32
#define H 32
#define LIST_OFF 0x10000u
#define VB_OFF 0x100000u
#define TEX_OFF 0x100000u              /* in VRAM */
#define PA(off) (PICA200_PHYS_VRAM + (off))

/*
 * mov o0..o3, v0..v3: position, quaternion, view, texcoord0 and 1; four float4
 * attributes from one buffer, 64 bytes a vertex.
 */
static void lit_shader(CmdBuf *b, uint32_t vb_pa, uint32_t o3map)
{
    const uint32_t outmap[4] = { 0x03020100, 0x07060504, 0x1F141312, o3map };

    pica_cmd_shader_mov(b, vb_pa, 4, outmap);
}

typedef struct LitVertex {
    float pos[4], quat[4], view[4], tc[4];
} LitVertex;

typedef struct LitScene {
    LitVertex v[4];                 /* strip: (-1,-1), (1,-1), (-1,1), (1,1) */
    bool bump;                      /* a W x H RGBA8 normal map in unit 0 */
    bool shadow;                    /* a W x H RGBA8 shadow map in unit 1 */
    uint8_t normal[H][W][4];        /* texel (x, t) of the map, t from the bottom */
    uint8_t shade[H][W][4];
    uint32_t config0;
} LitScene;

/* the lit scene's register set-up, the same for the core and the reference */
static void lit_setup(CmdBuf *b, RefState *s, const LitScene *sc)
{
    static const struct { uint32_t id, v; } regs[] = {
        { GPUREG_LIGHTING_ENABLE0, 1 },
        { GPUREG_LIGHTING_ENABLE1, 0 },
        { GPUREG_LIGHTING_NUM_LIGHTS, 1 },
        { GPUREG_LIGHTING_LIGHT_PERMUTATION, 0x20 },
        { GPUREG_LIGHTING_AMBIENT, PICA_LIGHT_COLOR(20, 16, 24) },
        { GPUREG_LIGHTING_CONFIG1, 0xFFFFFF00 & ~(1u << 16) & ~(1u << 22) },
        { GPUREG_LIGHTING_LUTINPUT_ABS, 0 },
        { GPUREG_LIGHTING_LUTINPUT_SELECT, PICA_LUTIN_NH | PICA_LUTIN_NV << 24 },
        { GPUREG_LIGHTING_LUTINPUT_SCALE, 0 },
        /* light 0: white, directional from upper left */
        { 0x140 + PICA_LIGHT_SPECULAR0, PICA_LIGHT_COLOR(255, 255, 255) },
        { 0x140 + PICA_LIGHT_DIFFUSE, PICA_LIGHT_COLOR(200, 180, 160) },
        { 0x140 + PICA_LIGHT_AMBIENT, PICA_LIGHT_COLOR(10, 10, 10) },
        { 0x140 + PICA_LIGHT_CONFIG, 1 },
        /* light 2: reddish, positional in front, two-sided */
        { 0x160 + PICA_LIGHT_SPECULAR0, PICA_LIGHT_COLOR(120, 40, 20) },
        { 0x160 + PICA_LIGHT_DIFFUSE, PICA_LIGHT_COLOR(160, 40, 30) },
        { 0x160 + PICA_LIGHT_CONFIG, 2 | 4 },
    };
    uint32_t lut[2][256];
    unsigned i, k;

    for (i = 0; i < G_N_ELEMENTS(regs); i++) {
        s->reg[regs[i].id] = regs[i].v;
        pica_cmd_reg(b, regs[i].id, regs[i].v);
    }
    s->reg[GPUREG_LIGHTING_CONFIG0] = sc->config0;
    pica_cmd_reg(b, GPUREG_LIGHTING_CONFIG0, sc->config0);
    s->reg[0x144] = enc_float(-0.5, 5, 10) | enc_float(0.5, 5, 10) << 16;
    s->reg[0x145] = enc_float(0.7, 5, 10);
    s->reg[0x164] = enc_float(0.25, 5, 10) | enc_float(-0.5, 5, 10) << 16;
    s->reg[0x165] = enc_float(1.5, 5, 10);
    for (i = 0x144; i <= 0x165; i += 0x20) {
        pica_cmd_reg(b, i, s->reg[i]);
        pica_cmd_reg(b, i + 1, s->reg[i + 1]);
    }
    /* D0: a Blinn-Phong-like x^16 on N.H; RR: 0.5 + 0.5 N.V (signed input) */
    for (i = 0; i < 256; i++) {
        double x0 = (int8_t)i / 128.0, x1 = (int8_t)i / 128.0 + 1 / 128.0;
        int v0 = (int)lround(pow(fmax(x0, 0), 16) * 4095);
        int v1 = (int)lround(pow(fmax(x1, 0), 16) * 4095);
        lut[0][i] = lut_word(v0, (int)lround((v1 - v0) * 2047.0 / 4095));
        v0 = (int)lround((0.5 + 0.5 * x0) * 4095);
        lut[1][i] = lut_word(v0, (int)lround(0.5 / 128 * 2047));
    }
    for (k = 0; k < 2; k++) {
        unsigned table = k ? PICA_LIGHT_LUT_RR : PICA_LIGHT_LUT_D0;
        pica_cmd_reg(b, GPUREG_LIGHTING_LUT_INDEX, table << 8);
        pica_cmd(b, GPUREG_LIGHTING_LUT_DATA0, 0xF, 0, lut[k], 256);
        memcpy(s->lut[table], lut[k], sizeof(lut[k]));
    }
}

/*
 * Draw the scene into a W x H RGBA8 target: stage 0 = fragment primary +
 * fragment secondary; return the picture (rows from the top) and the
 * reference computed per pixel centre from the closed-form interpolation
 * (w = 1, so attributes are linear in the window position).
 */
static void lit_draw(const LitScene *sc, uint8_t got[H][W][4], int want[H][W][4])
{
    PicaTest t;
    CmdBuf b;
    RefState s;
    int x, y, k;
    unsigned u, units = 0;

    memset(&s, 0, sizeof(s));
    pt_init(&t, 2);
    memcpy(t.ram + VB_OFF, sc->v, sizeof(sc->v));
    cb_init(&b);
    lit_shader(&b, PICA200_PHYS_FCRAM + VB_OFF, 0x0F0E0D0C);
    pica_cmd_viewport(&b, W, H, 0, 0);
    pica_cmd_target(&b, W, H, PA(0), PICA_COLORFMT_RGBA8, 0, 0);
    pica_cmd_fragment(&b, 0, PICA_CMP_ALWAYS, 0);
    /* stage 0: ADD(fragment primary, fragment secondary), alpha primary */
    pica_cmd_reg(&b, PICA_TEXENV_BASE(0),
                 PICA_TEVSRC_FRAG_PRIMARY | PICA_TEVSRC_FRAG_SECONDARY << 4 |
                 PICA_TEVSRC_FRAG_PRIMARY << 16);
    pica_cmd_reg(&b, PICA_TEXENV_BASE(0) + 2, PICA_TEVOP_ADD);
    for (k = 1; k < 6; k++) {
        pica_cmd_reg(&b, PICA_TEXENV_BASE(k), PICA_TEVSRC_PREVIOUS * 0x10001u);
        pica_cmd_reg(&b, PICA_TEXENV_BASE(k) + 2, 0);
    }
    for (u = 0; u < 2; u++) {
        unsigned base = PICA_TEXUNIT_BASE(u), off = TEX_OFF + u * W * H * 4;
        const uint8_t (*img)[W][4] = u ? sc->shade : sc->normal;

        if (!(u ? sc->shadow : sc->bump)) {
            continue;
        }
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                /* RGBA8 bytes A, B, G, R; texel row t in memory row H-1-t */
                uint8_t *p = t.vram + off + pt_tiled_offset(x, H - 1 - y, W, 4);
                for (k = 0; k < 4; k++) {
                    p[k] = img[y][x][3 - k];
                }
            }
        }
        pica_cmd_reg(&b, base + PICA_TEXUNIT_DIM, H | W << 16);
        pica_cmd_reg(&b, base + PICA_TEXUNIT_PARAM, 0);   /* nearest, edge */
        pica_cmd_reg(&b, base + PICA_TEXUNIT_LOD, 0);
        pica_cmd_reg(&b, base + PICA_TEXUNIT_ADDR, PA(off) >> 3);
        pica_cmd_reg(&b, PICA_TEXUNIT_TYPE_REG(u), PICA_TEXFMT_RGBA8);
        units |= 1u << u;
    }
    pica_cmd_regm(&b, GPUREG_TEXUNIT_CONFIG, 0xB, units | 1u << 12);
    lit_setup(&b, &s, sc);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);
    g_assert_true(pt_run(&t, 1000));
    cb_free(&b);

    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            const uint8_t *p = t.vram + pt_tiled_offset(x, y, W, 4);
            /* window position of the pixel centre, y up; a, b in [0, 1] */
            double a = (x + 0.5) / W, bb = (H - 1 - y + 0.5) / H;
            double wgt[4] = { (1 - a) * (1 - bb), a * (1 - bb), (1 - a) * bb, a * bb };
            double q[4] = { 0 }, vv[3] = { 0 };
            uint8_t tex[4][4] = { { 0 } };
            int pr[4], se[4];

            for (k = 0; k < 4; k++) {
                got[y][x][k] = p[3 - k];
            }
            for (k = 0; k < 4; k++) {
                int i;
                for (i = 0; i < 4; i++) {
                    q[k] += wgt[i] * sc->v[i].quat[k];
                    if (k < 3) {
                        vv[k] += wgt[i] * sc->v[i].view[k];
                    }
                }
            }
            /* texture coordinates run 0..1 over the quad: texel = pixel */
            if (sc->bump) {
                memcpy(tex[0], sc->normal[H - 1 - y][x], 4);
            }
            if (sc->shadow) {
                memcpy(tex[1], sc->shade[H - 1 - y][x], 4);
            }
            ref_fragment(&s, q, vec(vv[0], vv[1], vv[2]), (const uint8_t (*)[4])tex,
                         pr, se);
            for (k = 0; k < 3; k++) {
                want[y][x][k] = MIN(pr[k] + se[k], 255);
            }
            want[y][x][3] = pr[3];
        }
    }
    pt_free(&t);
}

static void lit_quad(LitScene *sc)
{
    int i;

    memset(sc, 0, sizeof(*sc));
    for (i = 0; i < 4; i++) {
        LitVertex *v = &sc->v[i];
        double ang = (i & 1 ? 0.5 : -0.5) * 0.6;       /* a curved surface */
        v->pos[0] = i & 1 ? 1 : -1;
        v->pos[1] = i & 2 ? 1 : -1;
        v->pos[2] = -0.5f;
        v->pos[3] = 1;
        /* rotation by ang about y */
        v->quat[1] = sin(ang / 2);
        v->quat[3] = cos(ang / 2);
        v->view[0] = -v->pos[0];
        v->view[1] = -v->pos[1];
        v->view[2] = 2;
        v->tc[0] = v->tc[2] = i & 1 ? 1 : 0;
        v->tc[1] = v->tc[3] = i & 2 ? 1 : 0;
    }
}

static void lit_compare(const LitScene *sc, const char *what)
{
    static uint8_t got[H][W][4];
    static int want[H][W][4];
    double se = 0, psnr;
    int x, y, k, worst = 0;

    lit_draw(sc, got, want);
    if (g_getenv("PICA200_TEST_PNG")) {
        /* the picture and its reference, side by side, 4x enlarged */
        G3DImage img;
        g_autofree char *name = g_strdup_printf("pica200-lit-%s.png", what);
        g3d_image_alloc(&img, 8 * W, 4 * H);
        for (y = 0; y < 4 * H; y++) {
            for (x = 0; x < 8 * W; x++) {
                int sx = (x / 4) % W, sy = y / 4;
                for (k = 0; k < 3; k++) {
                    img.rgb[(y * 8 * W + x) * 3 + k] =
                        x < 4 * W ? got[sy][sx][k] : want[sy][sx][k];
                }
            }
        }
        g_strdelimit(name, " ,", '-');
        g3d_image_save(&img, name);
        g3d_image_free(&img);
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            for (k = 0; k < 4; k++) {
                int d = abs(got[y][x][k] - want[y][x][k]);
                worst = MAX(worst, d);
                se += d * d;
            }
        }
    }
    psnr = se ? 10 * log10(255.0 * 255 / (se / (W * H * 4))) : INFINITY;
    g_test_message("%s: PSNR %.2f dB, worst channel difference %d", what, psnr,
                   worst);
    /* float interpolation vs the closed form: a step at most */
    g_assert_cmpint(worst, <=, 2);
    g_assert_cmpfloat(psnr, >=, 45.0);
    /* and the picture is lit: not flat */
    g_assert_cmpint(abs(got[0][0][0] - got[H - 1][W - 1][0]) +
                    abs(got[0][W - 1][1] - got[H - 1][0][1]), >, 8);
}

static void test_draw_lit(void)
{
    LitScene sc;

    lit_quad(&sc);
    sc.config0 = 8 << 4;
    lit_compare(&sc, "lit quad");
    /* each vertex quaternion negated but vertex 0's: the same rotation */
    {
        uint8_t a[H][W][4];
        static uint8_t b[H][W][4];
        static int want[H][W][4];
        int i, k;

        lit_draw(&sc, a, want);
        for (i = 1; i < 4; i++) {
            for (k = 0; k < 4; k++) {
                sc.v[i].quat[k] = -sc.v[i].quat[k];
            }
        }
        lit_draw(&sc, b, want);
        g_assert_cmpmem(a, sizeof(a), b, sizeof(b));
    }
}

/*
 * A bump map (a sine surface's normals as rgb = (n + 1) * 127.5) and, in
 * the third pass, a shadow map in unit 1 (a soft diagonal shadow, inverted
 * on alpha) darkening primary, secondary and alpha.
 */
static void test_draw_bump(void)
{
    LitScene sc;
    int x, y, pass;

    for (pass = 0; pass < 3; pass++) {
        lit_quad(&sc);
        sc.bump = true;
        sc.shadow = pass == 2;
        sc.config0 = 8 << 4 | PICA_BUMP_NORMAL << 28 | (pass ? 0 : 1u << 30);
        if (sc.shadow) {
            sc.config0 |= 1 | 1u << 24 | 1u << 16 | 1u << 17 | 1u << 19 | 1u << 2;
        }
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                Vec n = unit(vec(0.6 * cos(x * 0.8), 0.5 * sin(y * 0.7), 1));
                sc.normal[y][x][0] = (uint8_t)lround((n.x + 1) * 127.5);
                sc.normal[y][x][1] = (uint8_t)lround((n.y + 1) * 127.5);
                sc.normal[y][x][2] = (uint8_t)lround((n.z + 1) * 127.5);
                sc.normal[y][x][3] = 255;
                sc.shade[y][x][0] = (uint8_t)CLAMP((x + y - W / 2) * 12, 40, 255);
                sc.shade[y][x][1] = sc.shade[y][x][0];
                sc.shade[y][x][2] = (uint8_t)MIN(sc.shade[y][x][0] + 30, 255);
                sc.shade[y][x][3] = (uint8_t)(255 - sc.shade[y][x][0]);
            }
        }
        lit_compare(&sc, pass == 0 ? "bump" : pass == 1 ? "bump, z rebuilt"
                                                        : "bump and shadow");
    }
}

/*
 * A list that changes the lighting state before each of 400 draws (each a
 * new 24 KiB snapshot of the LUTs, past the core's 8 MiB bound, so it
 * flushes in between): every draw still counts. With additive blending and
 * the scene ambient 4/255 on every eighth draw, 0 on the others, the
 * target ends at 50 times what one such draw adds.
 */
static uint8_t many_states(unsigned ndraws)
{
    PicaTest t;
    CmdBuf b;
    float v[4][8];
    unsigned i;
    uint8_t red;

    pt_init(&t, 2);
    for (i = 0; i < 4; i++) {
        v[i][0] = i & 1 ? 1 : -1;
        v[i][1] = i & 2 ? 1 : -1;
        v[i][2] = -0.5f;
        v[i][3] = 1;
        v[i][4] = v[i][5] = v[i][6] = v[i][7] = 1;
    }
    pt_put_vertices(&t, VB_OFF, &v[0][0], 4);
    cb_init(&b);
    pica_cmd_basic_scene(&b, 8, 8, PA(0), PICA_COLORFMT_RGBA8,
                         PICA200_PHYS_FCRAM + VB_OFF);
    pica_cmd_reg(&b, GPUREG_BLEND_FUNC, 0x11110000);       /* add, ONE, ONE */
    pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE0, 1);
    pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE1, 0);
    pica_cmd_reg(&b, GPUREG_LIGHTING_CONFIG1, 0xFFFFFF00);
    pica_cmd_reg(&b, PICA_TEXENV_BASE(0), PICA_TEVSRC_FRAG_PRIMARY * 0x10001u);
    for (i = 0; i < ndraws; i++) {
        pica_cmd_reg(&b, GPUREG_LIGHTING_AMBIENT,
                     i % 8 ? 0 : PICA_LIGHT_COLOR(4, 4, 4));
        pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    }
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);
    g_assert_true(pt_run(&t, 100000));
    red = t.vram[3];
    for (i = 0; i < 64; i++) {
        g_assert_cmpint(t.vram[4 * i + 3], ==, red);
    }
    cb_free(&b);
    pt_free(&t);
    return red;
}

static void test_many_states(void)
{
    int one = many_states(1);

    g_assert_cmpint(one, >=, 3);
    g_assert_cmpint(many_states(400), ==, 50 * one);
}

/*
 * A shadowed scene end to end: shadow rendering writes an occluder's depth
 * (window depth 0.25 over pixels 8-23 both ways) into a 32x32 shadow map,
 * then the lit pass reads it as texture unit 0's shadow 2D texture
 * (orthographic, texcoord0.w = 0.5 the receiver's depth) for the lighting's
 * shadow on the primary colour: behind the occluder only the scene ambient
 * (20) is left, elsewhere ambient + the white directional light's diffuse
 * 200 at N.L = 1.
 */
static void test_draw_shadowed(void)
{
    const uint32_t map_off = 0x40000;               /* VRAM */
    PicaTest t;
    CmdBuf b;
    float occ[4][8];
    LitVertex lv[4];
    int i, x, y;

    pt_init(&t, 2);
    memset(t.vram + map_off, 0xFF, W * H * 4);      /* depth 0xFFFFFF, R 255 */
    /* pass 1: the occluder, black (intensity 0), into the shadow map */
    for (i = 0; i < 4; i++) {
        occ[i][0] = i & 1 ? 0.5f : -0.5f;           /* window 8..24 */
        occ[i][1] = i & 2 ? 0.5f : -0.5f;
        occ[i][2] = -0.25f;                         /* depth 0.25 */
        occ[i][3] = 1;
        occ[i][4] = occ[i][5] = occ[i][6] = 0;
        occ[i][7] = 1;
    }
    pt_put_vertices(&t, VB_OFF, &occ[0][0], 4);
    cb_init(&b);
    pica_cmd_basic_scene(&b, W, H, PA(map_off), PICA_COLORFMT_RGBA8,
                         PICA200_PHYS_FCRAM + VB_OFF);
    pica_cmd_regm(&b, GPUREG_COLOR_OPERATION, 0x1, 3);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);
    g_assert_true(pt_run(&t, 1000));
    pt_wreg(&t, GPUREG_IRQ_ACK0, 0);
    cb_free(&b);

    /* pass 2: the lit receiver at depth 0.5 reading the map */
    for (i = 0; i < 4; i++) {
        memset(&lv[i], 0, sizeof(lv[i]));
        lv[i].pos[0] = i & 1 ? 1 : -1;
        lv[i].pos[1] = i & 2 ? 1 : -1;
        lv[i].pos[2] = -0.5f;
        lv[i].pos[3] = 1;
        lv[i].quat[3] = 1;
        lv[i].view[2] = 1;
        lv[i].tc[0] = i & 1 ? 1 : 0;
        lv[i].tc[1] = i & 2 ? 1 : 0;
        lv[i].tc[2] = 0.5f;                         /* texcoord0.w */
    }
    memcpy(t.ram + VB_OFF, lv, sizeof(lv));
    cb_init(&b);
    lit_shader(&b, PICA200_PHYS_FCRAM + VB_OFF, 0x1F100D0C);
    pica_cmd_viewport(&b, W, H, 0, 0);
    pica_cmd_target(&b, W, H, PA(0), PICA_COLORFMT_RGBA8, 0, 0);
    pica_cmd_fragment(&b, 0, PICA_CMP_ALWAYS, 0);
    pica_cmd_reg(&b, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_DIM, H | W << 16);
    pica_cmd_reg(&b, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_PARAM,
                 (uint32_t)PICA_TEXTYPE_SHADOW_2D << 28);
    pica_cmd_reg(&b, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_LOD, 0);
    pica_cmd_reg(&b, PICA_TEXUNIT_BASE(0) + PICA_TEXUNIT_ADDR, PA(map_off) >> 3);
    pica_cmd_reg(&b, GPUREG_TEXUNIT0_SHADOW, 1);    /* orthographic, no bias */
    pica_cmd_reg(&b, PICA_TEXUNIT_TYPE_REG(0), PICA_TEXFMT_RGBA8);
    pica_cmd_regm(&b, GPUREG_TEXUNIT_CONFIG, 0xB, 1 | 1u << 12);
    pica_cmd_reg(&b, PICA_TEXENV_BASE(0), PICA_TEVSRC_FRAG_PRIMARY * 0x10001u);
    pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE0, 1);
    pica_cmd_reg(&b, GPUREG_LIGHTING_ENABLE1, 0);
    pica_cmd_reg(&b, GPUREG_LIGHTING_AMBIENT, PICA_LIGHT_COLOR(20, 20, 20));
    pica_cmd_reg(&b, GPUREG_LIGHTING_CONFIG0, 8 << 4 | 1 | 1u << 16);
    pica_cmd_reg(&b, GPUREG_LIGHTING_CONFIG1, 0xFFFFFF00);
    pica_cmd_reg(&b, 0x140 + PICA_LIGHT_DIFFUSE, PICA_LIGHT_COLOR(200, 200, 200));
    pica_cmd_reg(&b, 0x140 + PICA_LIGHT_Z, enc_float(1, 5, 10));
    pica_cmd_reg(&b, 0x140 + PICA_LIGHT_CONFIG, 1);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);
    g_assert_true(pt_run(&t, 1000));
    cb_free(&b);

    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            /* window y up; the occluder covers 8..23 both ways */
            int wy = H - 1 - y;
            bool shadowed = x >= 8 && x < 24 && wy >= 8 && wy < 24;
            int red = t.vram[pt_tiled_offset(x, y, W, 4) + 3];

            if (abs(red - (shadowed ? 20 : 220)) > 1) {
                g_error("pixel (%d, %d): red %d, want %d", x, wy, red,
                        shadowed ? 20 : 220);
            }
        }
    }
    pt_free(&t);
}

/* ---- the demo's lit scene (guest/pica200-scene.h) ------------------------ */

#define LIT_LIST_OFF 0x200000u          /* FCRAM */
#define LIT_VB_OFF 0x210000u
#define LIT_OCC_OFF 0x211000u
#define LIT_REF_VRAM 0x300000u          /* the reference's colour buffer */
#define LIT_SHOW_VRAM 0x360000u         /* its LCD framebuffer */

/*
 * The bars the core (and the guest's screen, scripts/test.sh) must meet
 * against the reference: what single against double precision leaves.
 * Measured: 89.2 dB, worst channel difference 1, 17 of 76,800 shown
 * pixels differ (the same through QEMU on the guest's bottom screen).
 */
#define LIT_MIN_PSNR 45.0
#define LIT_TOLERANCE 2
#define LIT_MAX_BEYOND 40

/* the reference state: the registers and LUTs the scene's list loads */
static void lit_scene_ref_state(RefState *s)
{
    uint32_t lv[4];
    unsigned i;

    memset(s, 0, sizeof(*s));
    for (i = 0; i < PICA_LIT_NREGS; i++) {
        s->reg[pica_lit_regs[i].id] = pica_lit_regs[i].v;
    }
    pica_lit_light_vectors(lv);
    s->reg[0x144] = lv[0];
    s->reg[0x145] = lv[1];
    s->reg[0x164] = lv[2];
    s->reg[0x165] = lv[3];
    for (i = 0; i < 256; i++) {
        s->lut[PICA_LIGHT_LUT_D0][i] = pica_lit_lut(0, i);
        s->lut[PICA_LIGHT_LUT_RR][i] = pica_lit_lut(1, i);
    }
}

/*
 * The reference picture of the lit scene, pixel (x, memory row y) of the
 * 240 x 320 colour buffer: the attributes interpolated in closed form
 * (affine over the quad, w = 1), the shadow from the occluders' texel
 * rectangles (the receiver's depth 0.5 behind their 0.25: shadow 0, else
 * 1), the normal-map texel under the pixel, through ref_fragment.
 */
static void lit_scene_ref(const RefState *s, uint8_t *rgba /* 240*320*4 */)
{
    PicaLitVertex v[4];
    unsigned x, y;
    int i, k;

    pica_lit_receiver(v);
    for (y = 0; y < PICA_LIT_H; y++) {
        for (x = 0; x < PICA_LIT_W; x++) {
            double a = (x + 0.5) / PICA_LIT_W;
            double bb = (PICA_LIT_H - 1 - y + 0.5) / PICA_LIT_H;
            double wgt[4] = { (1 - a) * (1 - bb), a * (1 - bb),
                              (1 - a) * bb, a * bb };
            double q[4] = { 0 }, vv[3] = { 0 };
            /* 5 pixels a texel both ways (s spans 0..0.75) */
            unsigned sx = (unsigned)floor(a * PICA_LIT_S_MAX * PICA_LIT_MAP);
            unsigned ty = (unsigned)floor(bb * PICA_LIT_MAP);
            uint8_t tex[4][4] = { { 0 } };
            bool shadowed = false;
            int pr[4], se[4];
            uint8_t *p = rgba + ((size_t)y * PICA_LIT_W + x) * 4;

            for (k = 0; k < 4; k++) {
                for (i = 0; i < 4; i++) {
                    q[k] += wgt[i] * v[i].quat[k];
                    if (k < 3) {
                        vv[k] += wgt[i] * v[i].view[k];
                    }
                }
            }
            for (i = 0; i < 2; i++) {
                const uint8_t *o = pica_lit_occluders[i];
                shadowed |= sx >= o[0] && sx < o[1] && ty >= o[2] && ty < o[3];
            }
            memset(tex[0], shadowed ? 0 : 255, 4);
            pica_lit_normal_texel(sx, ty, tex[1]);
            ref_fragment(s, q, vec(vv[0], vv[1], vv[2]),
                         (const uint8_t (*)[4])tex, pr, se);
            for (k = 0; k < 3; k++) {
                p[k] = (uint8_t)MIN(pr[k] + se[k], 255);
            }
            p[3] = (uint8_t)pr[3];
        }
    }
}

/* the bottom head's picture (320x240 RGB) */
static void lit_head(PicaTest *t, G3DImage *img)
{
    G3DScanout so;
    uint32_t *px;

    g_assert_true(pica200_scanout(t->core, 1, &so));
    px = g_new(uint32_t, so.width * so.height);
    g_assert_true(g3d_scanout_copy(&so, pica200_mem(t->core), px, so.width,
                                   "test"));
    g_assert_true(g3d_image_alloc(img, so.width, so.height));
    g3d_image_from_argb(img, px, so.width);
    g_free(px);
}

/*
 * The demo's lit scene drawn by the core through BAR0 as the guest draws
 * it, against the reference: every pixel of the colour buffer; then the
 * reference shown through the display transfer and LCD (the path the
 * guest's screen takes) is the golden image tests/pica200/ref/demo-lit.png
 * (regenerate with PICA200_WRITE_REF=1), and the core's own picture shown
 * the same way meets the bars scripts/test.sh applies to the guest's.
 */
static void test_lit_scene(void)
{
    PicaTest t;
    PicaBus bus;
    PicaCmd c = { 0 };
    RefState s;
    PicaLitVertex v[4];
    float occ[8][8];
    uint8_t *ref = g_malloc(PICA_LIT_W * PICA_LIT_H * 4);
    G3DImage got = { 0 }, golden = { 0 }, want = { 0 };
    G3DImageDiff d = { .tolerance = LIT_TOLERANCE };
    g_autofree char *path = g_build_filename(g_getenv("GPU3D_SRCDIR") ?: ".",
                                             "tests", "pica200", "ref",
                                             "demo-lit.png", NULL);
    unsigned x, y, k, worst = 0, beyond = 0;
    double se2 = 0;

    pt_init(&t, 2);
    bus = pt_bus(&t);
    pica_lit_receiver(v);
    memcpy(t.ram + LIT_VB_OFF, v, sizeof(v));
    pica_lit_occluder_vertices(occ);
    memcpy(t.ram + LIT_OCC_OFF, occ, sizeof(occ));
    pica_lit_normal_map(t.vram + PICA_LIT_NORMAL_VRAM);
    c.buf = (uint32_t *)(t.ram + LIT_LIST_OFF);
    c.cap = 0x10000 / 4;
    g_assert_cmpint(pica_lit_draw(&bus, &c, PICA200_PHYS_FCRAM + LIT_LIST_OFF,
                                  PA(PICA_SCENE_COLOR_VRAM),
                                  PICA200_PHYS_FCRAM + LIT_VB_OFF,
                                  PICA200_PHYS_FCRAM + LIT_OCC_OFF,
                                  PA(PICA_LIT_SHADOW_VRAM),
                                  PA(PICA_LIT_NORMAL_VRAM)), ==, 0);

    lit_scene_ref_state(&s);
    lit_scene_ref(&s, ref);
    for (y = 0; y < PICA_LIT_H; y++) {
        for (x = 0; x < PICA_LIT_W; x++) {
            const uint8_t *p = t.vram + PICA_SCENE_COLOR_VRAM +
                               pt_tiled_offset(x, y, PICA_LIT_W, 4);
            const uint8_t *r = ref + ((size_t)y * PICA_LIT_W + x) * 4;
            unsigned pix = 0;

            for (k = 0; k < 3; k++) {
                unsigned dd = (unsigned)abs(p[3 - k] - r[k]);
                worst = MAX(worst, dd);
                pix = MAX(pix, dd);
                se2 += dd * dd;
            }
            beyond += pix > LIT_TOLERANCE;
        }
    }
    g_test_message("lit scene vs reference: PSNR %.2f dB, worst %u, %u pixels "
                   "beyond %d", se2 ? 10 * log10(255.0 * 255 /
                   (se2 / (PICA_LIT_W * PICA_LIT_H * 3))) : INFINITY, worst,
                   beyond, LIT_TOLERANCE);
    if (g_getenv("PICA200_TEST_PNG")) {
        /* the colour buffer and the reference side by side, as stored */
        G3DImage img;
        g3d_image_alloc(&img, 2 * PICA_LIT_W, PICA_LIT_H);
        for (y = 0; y < PICA_LIT_H; y++) {
            for (x = 0; x < 2 * PICA_LIT_W; x++) {
                unsigned sx = x % PICA_LIT_W;
                const uint8_t *p = t.vram + PICA_SCENE_COLOR_VRAM +
                                   pt_tiled_offset(sx, y, PICA_LIT_W, 4);
                for (k = 0; k < 3; k++) {
                    img.rgb[((size_t)y * 2 * PICA_LIT_W + x) * 3 + k] =
                        x < PICA_LIT_W ? p[3 - k] :
                        ref[((size_t)y * PICA_LIT_W + sx) * 4 + k];
                }
            }
        }
        g3d_image_save(&img, "pica200-lit-buffers.png");
        g3d_image_free(&img);
    }
    g_assert_cmpuint(beyond, <=, LIT_MAX_BEYOND);

    /* the core's picture on the bottom head */
    g_assert_cmpint(pica_scene_show(&bus, 1, 0, 320, 240,
                                    PA(PICA_SCENE_COLOR_VRAM),
                                    PA(PICA_SCENE_BOTTOM_VRAM)), ==, 0);
    lit_head(&t, &got);
    /* the reference through the same display path: the golden image */
    for (y = 0; y < PICA_LIT_H; y++) {
        for (x = 0; x < PICA_LIT_W; x++) {
            uint8_t *p = t.vram + LIT_REF_VRAM +
                         pt_tiled_offset(x, y, PICA_LIT_W, 4);
            for (k = 0; k < 4; k++) {
                p[3 - k] = ref[((size_t)y * PICA_LIT_W + x) * 4 + k];
            }
        }
    }
    g_assert_cmpint(pica_scene_show(&bus, 1, 1, 320, 240, PA(LIT_REF_VRAM),
                                    PA(LIT_SHOW_VRAM)), ==, 0);
    lit_head(&t, &want);
    if (g_getenv("PICA200_WRITE_REF")) {
        g_assert_true(g3d_image_save(&want, path));
    }
    g_assert_true(g3d_image_load(&golden, path));
    g_assert_cmpint(golden.width, ==, want.width);
    g_assert_cmpint(golden.height, ==, want.height);
    g_assert_cmpmem(golden.rgb, want.width * want.height * 3, want.rgb,
                    want.width * want.height * 3);
    g_assert_true(g3d_image_compare(&got, &golden, &d));
    g_test_message("bottom head vs demo-lit.png: PSNR %.2f dB, %ld differing, "
                   "%ld beyond %d, max delta %d", d.psnr, d.differing,
                   d.beyond, d.tolerance, d.max_delta);
    if (g_getenv("PICA200_TEST_PNG")) {
        g3d_image_save(&got, "pica200-lit-scene.png");
    }
    g_assert_cmpfloat(d.psnr, >=, LIT_MIN_PSNR);
    g_assert_cmpint(d.beyond, <=, LIT_MAX_BEYOND);
    g3d_image_free(&got);
    g3d_image_free(&want);
    g3d_image_free(&golden);
    g_free(ref);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/lighting/diffuse", test_diffuse_closed_form);
    g_test_add_func("/pica200/lighting/d0-inputs-scales", test_d0_selectors_scales);
    g_test_add_func("/pica200/lighting/attenuation-spot", test_attenuation_spot);
    g_test_add_func("/pica200/lighting/bump-shadow-fresnel", test_bump_shadow_fresnel);
    g_test_add_func("/pica200/lighting/layer-configs", test_layer_configs);
    g_test_add_func("/pica200/lighting/random", test_random_against_reference);
    g_test_add_func("/pica200/lighting/bad-input", test_bad_input);
    g_test_add_func("/pica200/lighting/draw", test_draw_lit);
    g_test_add_func("/pica200/lighting/draw-bump", test_draw_bump);
    g_test_add_func("/pica200/lighting/many-states", test_many_states);
    g_test_add_func("/pica200/lighting/draw-shadowed", test_draw_shadowed);
    g_test_add_func("/pica200/lighting/lit-scene", test_lit_scene);
    return g_test_run();
}
