/*
 * Texture units 0 and 1 (21A0h, 2200h; L968-L1133, L3071-L3668) and the
 * texture-blend combiner (2330h-239Fh; L67-L89, L3669-L4543).
 *
 * Texels: every format code of L3071-L3187 that is not "Reserved for"
 * (paletted 4/8 bit through the 16-bit palettes, intensity, luminance,
 * luminance-alpha, alpha, 8- and 16-bit RGB). Addressing per coordinate:
 * border, wrap, mirror, clamp. Filters: nearest and linear, with the four
 * mip-map filters; the LOD comes from the 2x2 quad's texel-space
 * derivatives, biased by EGTXnMLBS when EGenMIPBS is set.
 *
 * Decisions (docs/glamo-3d.md): EGTXnW/H are the level-0 size in texels;
 * EGTXnLV = n means levels 0..n; 4-bit texels: the low nibble is the even
 * texel; alpha-only formats have black colour; the combiner's result is
 * "current 0" of the last stage, both currents start as the diffuse colour.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/formats.h"
#include "common/fpformat.h"
#include "common/texaddr.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---- texel formats ------------------------------------------------------ */

enum { K_RGB, K_LUM, K_INT, K_ALPHA, K_PAL };

typedef struct TexFmt {
    uint8_t code, bpp, kind;
    uint8_t rs, rb, gs, gb, bs, bb, as, ab;   /* field shifts and widths;
                                               * K_LUM/K_INT/K_ALPHA: r = value */
} TexFmt;

static const TexFmt tex_fmts[] = {
    /* 16-bit RGB (L3150-L3170) */
    { 0x60, 16, K_RGB, 10, 5, 5, 5, 0, 5, 0, 0 },
    { 0x61, 16, K_RGB, 11, 5, 5, 6, 0, 5, 0, 0 },
    { 0x62, 16, K_RGB, 10, 5, 5, 5, 0, 5, 15, 1 },
    { 0x63, 16, K_RGB, 8, 4, 4, 4, 0, 4, 12, 4 },
    { 0xe0, 16, K_RGB, 0, 5, 5, 5, 10, 5, 0, 0 },
    { 0xe1, 16, K_RGB, 0, 5, 5, 6, 11, 5, 0, 0 },
    { 0xe2, 16, K_RGB, 11, 5, 6, 5, 1, 5, 0, 1 },
    { 0xe3, 16, K_RGB, 12, 4, 8, 4, 4, 4, 0, 4 },
    { 0xe4, 16, K_RGB, 0, 5, 5, 5, 10, 5, 15, 1 },
    { 0xe5, 16, K_RGB, 0, 4, 4, 4, 8, 4, 12, 4 },
    /* 8-bit RGB */
    { 0x50, 8, K_RGB, 5, 3, 2, 3, 0, 2, 0, 0 },
    { 0x51, 8, K_RGB, 6, 2, 3, 3, 0, 3, 0, 0 },
    { 0x52, 8, K_RGB, 5, 3, 3, 2, 0, 3, 0, 0 },
    { 0x53, 8, K_RGB, 5, 2, 2, 3, 0, 2, 7, 1 },
    { 0x54, 8, K_RGB, 4, 2, 2, 2, 0, 2, 6, 2 },
    { 0xd0, 8, K_RGB, 0, 2, 2, 3, 5, 3, 0, 0 },
    { 0xd1, 8, K_RGB, 0, 3, 3, 3, 6, 2, 0, 0 },
    { 0xd2, 8, K_RGB, 0, 3, 3, 2, 5, 3, 0, 0 },
    { 0xd3, 8, K_RGB, 6, 2, 3, 3, 1, 2, 0, 1 },
    { 0xd4, 8, K_RGB, 6, 2, 4, 2, 2, 2, 0, 2 },
    { 0xd5, 8, K_RGB, 0, 2, 2, 3, 5, 2, 7, 1 },
    { 0xd6, 8, K_RGB, 0, 2, 2, 2, 4, 2, 6, 2 },
    /* intensity, luminance, alpha */
    { 0x12, 4, K_INT, 0, 4 }, { 0x13, 8, K_INT, 0, 8 },
    { 0x32, 4, K_LUM, 0, 4 }, { 0x33, 8, K_LUM, 0, 8 },
    { 0x35, 8, K_LUM, 0, 4, 0, 0, 0, 0, 4, 4 },
    { 0x37, 8, K_LUM, 0, 6, 0, 0, 0, 0, 6, 2 },
    { 0x38, 16, K_LUM, 0, 8, 0, 0, 0, 0, 8, 8 },
    { 0xb5, 8, K_LUM, 4, 4, 0, 0, 0, 0, 0, 4 },
    { 0xb7, 8, K_LUM, 2, 6, 0, 0, 0, 0, 0, 2 },
    { 0xb8, 16, K_LUM, 8, 8, 0, 0, 0, 0, 0, 8 },
    { 0x42, 4, K_ALPHA, 0, 0, 0, 0, 0, 0, 0, 4 },
    { 0x43, 8, K_ALPHA, 0, 0, 0, 0, 0, 0, 0, 8 },
};

static const TexFmt *find_fmt(uint8_t code, const TexFmt **pal)
{
    size_t i;
    uint8_t want = code;

    *pal = NULL;
    if (code <= 0x03 || (code >= 0x08 && code <= 0x0b)) {
        want = 0x60 + (code & 3);          /* index -> ARGB family */
    } else if ((code >= 0x80 && code <= 0x85) ||
               (code >= 0x88 && code <= 0x8d)) {
        want = 0xe0 + (code & 7);          /* index -> BGR/RGBA family */
    }
    for (i = 0; i < G_N_ELEMENTS(tex_fmts); i++) {
        if (tex_fmts[i].code == want) {
            if (want != code) {
                *pal = &tex_fmts[i];
            }
            return &tex_fmts[i];
        }
    }
    return NULL;
}

static float field(uint32_t v, int sh, int bits)
{
    return bits ? g3d_unorm2f((v >> sh) & ((1u << bits) - 1), bits) : 0.0f;
}

/* inlined where the format is known when compiled (the fast fetches) */
static inline __attribute__((always_inline))
void decode_texel(const TexFmt *f, uint32_t v, float out[4])
{
    switch (f->kind) {
    case K_RGB:
        out[0] = field(v, f->rs, f->rb);
        out[1] = field(v, f->gs, f->gb);
        out[2] = field(v, f->bs, f->bb);
        out[3] = f->ab ? field(v, f->as, f->ab) : 1.0f;
        break;
    case K_LUM:
        out[0] = out[1] = out[2] = field(v, f->rs, f->rb);
        out[3] = f->ab ? field(v, f->as, f->ab) : 1.0f;
        break;
    case K_INT:
        out[0] = out[1] = out[2] = out[3] = field(v, f->rs, f->rb);
        break;
    default:   /* alpha only: black */
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = field(v, f->as, f->ab);
        break;
    }
}

/* ---- decoding the units ------------------------------------------------- */

typedef struct TexPriv {
    const TexFmt *fmt, *pal;
    int bpp;                      /* 4, 8 or 16 */
} TexPriv;

static int bpp_of(uint8_t code, const TexFmt *f, const TexFmt *pal)
{
    if (pal) {
        return code & 0x08 ? 8 : 4;
    }
    return f->bpp;
}

static bool decode_unit(GlamoCore *c, GlamoRenderState *rs, int n)
{
    GlamoTexUnit *t = &rs->tex[n];
    uint32_t b = GLAMO_TX_BASE(n);
    uint32_t set = glamo_r32(c, b + GLAMO_TX_SET);
    uint32_t filt = glamo_r32(c, b + GLAMO_TX_FILT);
    uint32_t size = glamo_r32(c, b + GLAMO_TX_SIZE);
    const TexFmt *f, *pal;
    int i, bpp;

    t->fmt = set >> 24;
    f = find_fmt(t->fmt, &pal);
    if (!f) {
        g3d_guest_error("glamo texture %d: format 0x%02x is reserved", n,
                        t->fmt);
        return false;
    }
    bpp = bpp_of(t->fmt, f, pal);
    t->bpp = (uint8_t)bpp;
    t->texfmt = f;
    t->palfmt = pal;
    t->addr_u = (set >> 16) & 7;
    t->addr_v = (set >> 19) & 7;
    if (t->addr_u > GLAMO_TXADDR_CLAMP || t->addr_v > GLAMO_TXADDR_CLAMP) {
        g3d_guest_error("glamo texture %d: reserved mapping mode 0x%02x, "
                        "wrap used", n, (set >> 16) & 0x3f);
        t->addr_u = t->addr_u > 3 ? GLAMO_TXADDR_WRAP : t->addr_u;
        t->addr_v = t->addr_v > 3 ? GLAMO_TXADDR_WRAP : t->addr_v;
    }
    if (set & R_EGTX0SET_EGTXSwizFlg_MASK) {
        g3d_unimp("glamo texture %d: swizzled layout read as linear", n);
    }
    t->mag = (filt >> 18) & 3;
    t->min = (filt >> 15) & 7;
    if (t->mag > 1 || t->min > 5) {
        g3d_guest_error("glamo texture %d: reserved (anisotropic) filter, "
                        "linear used", n);
        t->mag = t->mag > 1 ? 1 : t->mag;
        t->min = t->min > 5 ? 5 : t->min;
    }
    t->lod_bias = (glamo_r32(c, A_EGEN1) & R_EGEN1_EGenMIPBS_MASK) ?
                  g3d_sextract32(filt, 5, 10) / 32.0f : 0.0f;
    t->gl_magmin = glamo_r32(c, A_EGEN1) >> n & 1;
    t->w = (size >> 12) & 0x1ff;
    t->h = size & 0x1ff;
    t->levels = ((set >> 8) & 0xf) + 1;
    if (t->w == 0 || t->h == 0 || t->w > 256 || t->h > 256 ||
        t->levels > 9) {
        g3d_guest_error("glamo texture %d: size %ux%u with %d levels is out "
                        "of range (256x256, 9 levels)", n, t->w, t->h,
                        t->levels);
        return false;
    }
    for (i = 0; i < t->levels; i++) {
        uint32_t pr = glamo_r32(c, b + GLAMO_TX_PITCH + 4 * (i / 2));
        uint32_t pf = (i & 1) ? pr >> 16 : pr;
        uint32_t lw = MAX(t->w >> i, 1u), lh = MAX(t->h >> i, 1u);
        uint64_t row = ((uint64_t)lw * bpp + 7) / 8;
        t->base[i] = glamo_r32(c, b + GLAMO_TX_LBAS + 4 * i) & 0x7ffffe;
        t->pitch[i] = (pf & 0xff) << ((pf >> 8) & 0xf);
        if (t->pitch[i] < row ||
            t->base[i] + (uint64_t)t->pitch[i] * (lh - 1) + row > rs->vram_size) {
            g3d_guest_error("glamo texture %d level %d: %ux%u at 0x%x pitch "
                            "%u does not fit VRAM", n, i, lw, lh, t->base[i],
                            t->pitch[i]);
            return false;
        }
    }
    glamo_argb6565(glamo_r32(c, b + GLAMO_TX_CTB), t->border);
    if (pal) {
        for (i = 0; i < 256; i++) {
            t->palette[i] = n == 0 ? c->regs[(GLAMO_TX0_PALETTE >> 1) + i]
                                   : c->tx1_palette[i];
        }
    }
    /* texture transparency (2104h D[28+n], 21A8h D[31:24], L3240-L3270):
     * the mode and ratio registers are texture 0's and serve both units */
    if (glamo_r32(c, A_EGEN1) >> (28 + n) & 1) {
        uint32_t s0 = glamo_r32(c, A_EGTX0SIZE);
        uint32_t hi = glamo_r32(c, b + GLAMO_TX_TRSH);
        uint32_t lo = glamo_r32(c, b + GLAMO_TX_TRSL);
        int mode = (s0 >> 30) & 3;

        /* x1 "texture blending transparency": the same colour key on the
         * texture-blend output (docs/glamo-3d.md) */
        t->transparency = mode & 1 ? GLAMO_TRS_BLEND :
                          mode == 0 ? GLAMO_TRS_TEXEL : GLAMO_TRS_ALPHA;
        t->trs_ratio = (s0 >> 24) & 0x1f;
        t->trs_hi[0] = (hi >> 19) & 31; t->trs_lo[0] = (lo >> 19) & 31;
        t->trs_hi[1] = (hi >> 10) & 63; t->trs_lo[1] = (lo >> 10) & 63;
        t->trs_hi[2] = (hi >> 3) & 31;  t->trs_lo[2] = (lo >> 3) & 31;
        t->trs_hi[3] = (hi >> 26) & 63; t->trs_lo[3] = (lo >> 26) & 63;
    }
    return true;
}

static void decode_stage(GlamoCore *c, uint32_t base, GlamoCombStage *s)
{
    uint32_t mod = glamo_r32(c, base), arg = glamo_r32(c, base + 4);
    int i;

    for (i = 0; i < 4; i++) {
        s->imod[i] = (mod >> (28 - 4 * i)) & 0xf;
    }
    s->arg[0] = (arg >> 25) & 0x3f;
    s->arg[1] = (arg >> 16) & 0x3f;
    s->arg[2] = (arg >> 8) & 0x3f;
    s->arg[3] = arg & 0x3f;
    s->opa = (arg >> 6) & 3;
    s->opb = (arg >> 14) & 3;
    s->opc = (arg >> 22) & 7;
    s->w0 = (mod >> 13) & 7;
    s->o0 = (mod >> 8) & 0x1f;
    s->w1 = (mod >> 5) & 7;
    s->o1 = mod & 0x1f;
}

static void factor(uint32_t v, float out[4])
{
    /* A s.7 D[31:24], R s.5 D[23:18], G s.6 D[15:9], B s.5 D[7:2] */
    out[3] = g3d_sextract32(v, 24, 8) / 127.0f;
    out[0] = g3d_sextract32(v, 18, 6) / 31.0f;
    out[1] = g3d_sextract32(v, 9, 7) / 63.0f;
    out[2] = g3d_sextract32(v, 2, 6) / 31.0f;
}

static void decode_units(GlamoCore *c, GlamoRenderState *rs)
{
    uint32_t en0 = glamo_r32(c, A_EGEN0);
    int n;

    rs->tex_persp = en0 & R_EGEN0_EGenTXPP_MASK;
    rs->ntex = G3D_FIELD_EX32(en0, EGEN0, EGTXNUM);
    rs->tex_enable = (en0 & R_EGEN0_EGenTXMP_MASK) && rs->ntex;
    if (!rs->tex_enable) {
        rs->ntex = 0;
        return;
    }
    if (rs->ntex > 2) {
        g3d_guest_error("glamo texture: EGTXNUM %d, the engine has two "
                        "texture units", rs->ntex);
        rs->ntex = 2;
    }
    /* sets A-D (00-11); C and D come only from vertex streams */
    rs->tex_from[0] = GLAMO_FIELD(c, EGPrim0, EGT0FROM);
    rs->tex_from[1] = GLAMO_FIELD(c, EGPrim0, EGT1FROM);
    for (n = 0; n < rs->ntex; n++) {
        rs->tex[n].enabled = decode_unit(c, rs, n);
    }
    rs->combiner = glamo_r32(c, A_EGEN1) & R_EGEN1_EGenTXBl_MASK;
    rs->stages = (glamo_r32(c, A_EGTX0SET) & 3) == 1 ? 2 : 1;
    for (n = 0; n < rs->stages; n++) {
        decode_stage(c, GLAMO_TXCB(n), &rs->cstage[n]);
        decode_stage(c, GLAMO_TXAB(n), &rs->astage[n]);
    }
    factor(glamo_r32(c, A_EGTXBLDFACT0), rs->tfact[0]);
    factor(glamo_r32(c, A_EGTXBLDFACT1), rs->tfact[1]);
}

static void decode_extra(GlamoCore *c, GlamoRenderState *rs, bool used,
                         int u)
{
    if (used && !rs->tex[u].enabled) {
        rs->tex[u].enabled = decode_unit(c, rs, u);
    }
}

void glamo_tex_decode(GlamoCore *c, GlamoRenderState *rs)
{
    decode_units(c, rs);
    /* the stipple pattern and the AA coverage are read through their
     * units (2138h) whether or not texturing uses those units */
    decode_extra(c, rs, rs->poly_stipple || rs->line_stipple,
                 rs->stipple_unit);
    decode_extra(c, rs, rs->aa_line, rs->aa_line_unit);
    decode_extra(c, rs, rs->aa_point, rs->aa_point_unit);
}

/* ---- sampling ----------------------------------------------------------- */

static uint32_t read_raw(const GlamoRenderState *rs, const GlamoTexUnit *t,
                         int lvl, int bpp, int x, int y)
{
    const uint8_t *row = rs->vram + t->base[lvl] + (size_t)y * t->pitch[lvl];

    switch (bpp) {
    case 4:
        return (row[x >> 1] >> ((x & 1) * 4)) & 0xf;
    case 8:
        return row[x];
    default:
        return row[2 * x] | row[2 * x + 1] << 8;
    }
}

/* texel index along one axis; -1: outside (border) */
static int address(int i, int size, int mode)
{
    static const G3DTexWrap modes[4] = {
        [GLAMO_TXADDR_BORDER] = G3D_TEX_BORDER,
        [GLAMO_TXADDR_WRAP] = G3D_TEX_REPEAT,
        [GLAMO_TXADDR_MIRROR] = G3D_TEX_MIRROR,
        [GLAMO_TXADDR_CLAMP] = G3D_TEX_CLAMP,
    };

    return g3d_tex_wrap(i, size, mode >= 0 && mode < 4 ? modes[mode]
                                                       : G3D_TEX_BORDER);
}

static bool in_range(const GlamoTexUnit *t, int ch, float v, int bits)
{
    uint32_t q = g3d_f2unorm(v, bits);
    return q >= t->trs_lo[ch] && q <= t->trs_hi[ch];
}

/* is this colour keyed away? (the texel, or the blend output) */
static bool transparent(const GlamoTexUnit *t, const float c[4])
{
    if (t->transparency != GLAMO_TRS_ALPHA) {
        /* "the R,G,B values are between these thresholds" (L3256) */
        return in_range(t, 0, c[0], 5) && in_range(t, 1, c[1], 6) &&
               in_range(t, 2, c[2], 5);
    }
    return in_range(t, 3, c[3], 6);
}

static bool per_texel(const GlamoTexUnit *t)
{
    return t->transparency == GLAMO_TRS_TEXEL ||
           t->transparency == GLAMO_TRS_ALPHA;
}

/*
 * Texture-blending transparency (EGTXTRSMOD x1): the colour that leaves the
 * texture blend is keyed with a unit's R5 G6 B5 thresholds, as texels are
 * in mode 00; a keyed colour removes the fragment.
 */
bool glamo_tex_blend_keyed(const GlamoRenderState *rs, const float c[4])
{
    int n;

    for (n = 0; n < rs->ntex; n++) {
        const GlamoTexUnit *t = &rs->tex[n];
        if (t->enabled && t->transparency == GLAMO_TRS_BLEND &&
            transparent(t, c)) {
            return true;
        }
    }
    return false;
}

/*
 * One texel of format `f` (a compile-time constant in the fast fetches,
 * t->texfmt otherwise) at wrapped indices x, y (address(); -1: border);
 * `pal`: the format is indexed through the palette.
 */
static inline __attribute__((always_inline))
void texel_fmt(const GlamoRenderState *rs, const GlamoTexUnit *t, int lvl,
               int x, int y, float out[4], const TexFmt *f, bool pal)
{
    uint32_t v;

    if (x < 0 || y < 0) {
        memcpy(out, t->border, sizeof(t->border));
        return;
    }
    v = read_raw(rs, t, lvl, pal ? t->bpp : f->bpp, x, y);
    if (pal) {
        v = t->palette[v];
    }
    decode_texel(f, v, out);
}

#define texel(rs, t, lvl, x, y, out) \
    texel_fmt(rs, t, lvl, x, y, out, f, pal)
/* `repeat_pow2`: the caller knows both axes wrap a power-of-two size */
#define wrap_u(i) (repeat_pow2 ? g3d_tex_repeat_pow2(i, w) \
                               : address(i, w, t->addr_u))
#define wrap_v(i) (repeat_pow2 ? g3d_tex_repeat_pow2(i, h) \
                               : address(i, h, t->addr_v))

/*
 * Returns the weight of transparent texels in the sample (0..1). `f` and
 * `pal` as for texel_fmt: sample_level() is the general form, the fast
 * fetches instantiate it per format.
 */
static inline __attribute__((always_inline))
float sample_level_fmt(const GlamoRenderState *rs, const GlamoTexUnit *t,
                       int lvl, bool linear, float u, float v, float out[4],
                       const TexFmt *f, bool pal, bool repeat_pow2)
{
    int w = MAX(t->w >> lvl, 1u), h = MAX(t->h >> lvl, 1u);
    float x = u * w, y = v * h;

    /* keep the texel indices representable (NaN and huge coordinates) */
    x = isfinite(x) ? g3d_clampf(x, -16777216.0f, 16777216.0f) : 0.0f;
    y = isfinite(y) ? g3d_clampf(y, -16777216.0f, 16777216.0f) : 0.0f;

    if (!linear) {
        texel(rs, t, lvl, wrap_u((int)floorf(x)), wrap_v((int)floorf(y)),
              out);
        return per_texel(t) && transparent(t, out) ? 1.0f : 0.0f;
    }
    {
        float fx = x - 0.5f, fy = y - 0.5f, ax, ay, t00[4], t10[4], t01[4],
              t11[4];
        int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
        /* the footprint's two columns and two rows, each wrapped once */
        int xa = wrap_u(x0), xb = wrap_u(x0 + 1);
        int ya = wrap_v(y0), yb = wrap_v(y0 + 1);

        ax = fx - x0;
        ay = fy - y0;
        texel(rs, t, lvl, xa, ya, t00);
        texel(rs, t, lvl, xb, ya, t10);
        texel(rs, t, lvl, xa, yb, t01);
        texel(rs, t, lvl, xb, yb, t11);
#ifdef __SSE2__
        {
            /* the four channels at once, the same operations in each lane */
            __m128 a = _mm_set1_ps(ax), na = _mm_set1_ps(1 - ax);
            __m128 b = _mm_set1_ps(ay), nb = _mm_set1_ps(1 - ay);
            __m128 top = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(t00), na),
                                    _mm_mul_ps(_mm_loadu_ps(t10), a));
            __m128 bot = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(t01), na),
                                    _mm_mul_ps(_mm_loadu_ps(t11), a));
            _mm_storeu_ps(out, _mm_add_ps(_mm_mul_ps(top, nb),
                                          _mm_mul_ps(bot, b)));
        }
#else
        for (int k = 0; k < 4; k++) {
            out[k] = (t00[k] * (1 - ax) + t10[k] * ax) * (1 - ay) +
                     (t01[k] * (1 - ax) + t11[k] * ax) * ay;
        }
#endif
        if (!per_texel(t)) {
            return 0.0f;
        }
        return (transparent(t, t00) ? (1 - ax) * (1 - ay) : 0.0f) +
               (transparent(t, t10) ? ax * (1 - ay) : 0.0f) +
               (transparent(t, t01) ? (1 - ax) * ay : 0.0f) +
               (transparent(t, t11) ? ax * ay : 0.0f);
    }
}

#undef texel
#undef wrap_u
#undef wrap_v

static float sample_level(const GlamoRenderState *rs, const GlamoTexUnit *t,
                          int lvl, bool linear, float u, float v, float out[4])
{
    return sample_level_fmt(rs, t, lvl, linear, u, v, out, t->texfmt,
                            t->palfmt != NULL, false);
}

/*
 * Fast fetches (render.c's per-draw fast paths): what glamo_tex_sample
 * does for a unit that glamo_tex_fast() accepts, with the texel format
 * fixed when compiled: one level, one filter whatever the LOD (so the LOD
 * is not computed), no transparency (so nothing is removed).
 */
#define FAST_FETCH(name, fmt_index, pow2)                                   \
static void name(const GlamoRenderState *rs, const GlamoTexUnit *t,         \
                 const float uv[4][2], uint32_t mask, float out[4][4])     \
{                                                                           \
    const TexFmt *f = fmt_index < 0 ? t->texfmt : &tex_fmts[fmt_index];     \
    bool linear = t->mag == 1;                                              \
    int i;                                                                  \
                                                                            \
    for (i = 0; i < 4; i++) {                                               \
        if (mask & (1u << i)) {                                             \
            if (linear) {                                                   \
                sample_level_fmt(rs, t, 0, true, uv[i][0], uv[i][1],        \
                                 out[i], f, false, pow2);                   \
            } else {                                                        \
                sample_level_fmt(rs, t, 0, false, uv[i][0], uv[i][1],       \
                                 out[i], f, false, pow2);                   \
            }                                                               \
        }                                                                   \
    }                                                                       \
}

FAST_FETCH(fetch_rgb565, 1, false)          /* 0x61 */
FAST_FETCH(fetch_argb1555, 2, false)        /* 0x62 */
FAST_FETCH(fetch_argb4444, 3, false)        /* 0x63 */
FAST_FETCH(fetch_any, -1, false)            /* any other unpaletted format */
/* the same, both axes wrapping a power-of-two size */
FAST_FETCH(fetch_rgb565_wrap2, 1, true)
FAST_FETCH(fetch_argb1555_wrap2, 2, true)
FAST_FETCH(fetch_argb4444_wrap2, 3, true)
FAST_FETCH(fetch_any_wrap2, -1, true)

GlamoTexFetchFn *glamo_tex_fast(const GlamoRenderState *rs, int unit)
{
    const GlamoTexUnit *t = &rs->tex[unit];
    bool lin_mag = t->mag == 1, lin_min = t->min == 1 || t->min >= 4;

    if (!t->enabled || t->palfmt || t->transparency != GLAMO_TRS_OFF ||
        !(t->min <= 1 || t->levels == 1) || lin_mag != lin_min) {
        return NULL;
    }
    /* by the table row, so a fetch's format is the unit's by construction;
     * address() wraps a power of two as g3d_tex_repeat_pow2 does */
    if (t->addr_u == GLAMO_TXADDR_WRAP && t->addr_v == GLAMO_TXADDR_WRAP &&
        !(t->w & (t->w - 1)) && !(t->h & (t->h - 1))) {
        return t->texfmt == &tex_fmts[1] ? fetch_rgb565_wrap2 :
               t->texfmt == &tex_fmts[2] ? fetch_argb1555_wrap2 :
               t->texfmt == &tex_fmts[3] ? fetch_argb4444_wrap2 :
               fetch_any_wrap2;
    }
    return t->texfmt == &tex_fmts[1] ? fetch_rgb565 :
           t->texfmt == &tex_fmts[2] ? fetch_argb1555 :
           t->texfmt == &tex_fmts[3] ? fetch_argb4444 : fetch_any;
}

#ifdef __SSE2__
/*
 * Four bilinear RGB565 samples at once, both axes wrapping a power-of-two
 * size: sample_level_fmt's operations for level 0, one pixel a lane. The
 * finite test and clamp (MAXPS/MINPS are g3d_clampf's comparisons), floor
 * as truncation corrected by one where it rounded up (exact: |fx| <= 2^24),
 * the wrap as a mask, and each field's (float)v / max (the quotient
 * g3d_unorm2f's table holds) by g3d_unorm2f_sse2's two products, which
 * give the division's quotient for every field value. Red, green and blue
 * only: the RGB565 destination has no alpha.
 */
/* a * b in each lane, modulo 2^32 (SSE2 has no PMULLD) */
static inline __m128i mul_u32(__m128i a, uint32_t b)
{
    __m128i bb = _mm_set1_epi32((int)b);
    __m128i even = _mm_mul_epu32(a, bb);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), bb);

    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

static inline int load_le16(const uint8_t *p)
{
    return p[0] | p[1] << 8;
}

static inline int load_le32(const uint8_t *p)
{
    return (int)(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
}

/* what fetch4_rgb565 needs of the unit, the same for every group */
typedef struct Fetch4Unit {
    const uint8_t *tex;
    uint32_t pitch;
    __m128 size[2];                 /* w, h as floats */
    __m128i size1[2];               /* w - 1, h - 1 */
} Fetch4Unit;

static inline __attribute__((always_inline))
void fetch4_rgb565(const Fetch4Unit *fu, __m128 u, __m128 v, __m128 out[3])
{
    const __m128 lim = _mm_set1_ps(16777216.0f), half = _mm_set1_ps(0.5f);
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128i expo = _mm_set1_epi32(0x7f800000);
    const uint8_t *tex = fu->tex;
    uint32_t pitch = fu->pitch;
    __m128 c[2], frac[2], nfrac[2], texel[4][3];
    __m128i i0[2], i1[2];
    int32_t off[4][4];
    int a, k, i;

    c[0] = _mm_mul_ps(u, fu->size[0]);
    c[1] = _mm_mul_ps(v, fu->size[1]);
    for (a = 0; a < 2; a++) {
        __m128i size1 = fu->size1[a];
        __m128i finite = _mm_xor_si128(
            _mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(c[a]), expo), expo),
            _mm_set1_epi32(-1));
        __m128 f = _mm_min_ps(_mm_max_ps(c[a], _mm_sub_ps(_mm_setzero_ps(),
                                                          lim)), lim);
        __m128i fl;

        f = _mm_and_ps(f, _mm_castsi128_ps(finite));
        f = _mm_sub_ps(f, half);
        fl = _mm_cvttps_epi32(f);
        fl = _mm_add_epi32(fl, _mm_castps_si128(
            _mm_cmpgt_ps(_mm_cvtepi32_ps(fl), f)));
        frac[a] = _mm_sub_ps(f, _mm_cvtepi32_ps(fl));
        nfrac[a] = _mm_sub_ps(one, frac[a]);
        i0[a] = _mm_and_si128(fl, size1);
        i1[a] = _mm_and_si128(_mm_add_epi32(fl, _mm_set1_epi32(1)), size1);
    }
    {
        /* byte offsets of t00, t10, t01, t11: row * pitch + 2 * column */
        __m128i ra = mul_u32(i0[1], pitch), rb = mul_u32(i1[1], pitch);
        __m128i ca = _mm_add_epi32(i0[0], i0[0]);
        __m128i cb = _mm_add_epi32(i1[0], i1[0]);
        __m128i raw[2];
        const __m128i low = _mm_set1_epi32(0xffff);
        __m128i f16[2][3];
        bool pairs = _mm_movemask_epi8(_mm_cmpeq_epi32(
            i1[0], _mm_add_epi32(i0[0], _mm_set1_epi32(1)))) == 0xffff;

        _mm_storeu_si128((__m128i *)off[0], _mm_add_epi32(ra, ca));
        _mm_storeu_si128((__m128i *)off[2], _mm_add_epi32(rb, ca));
        if (pairs) {
            /*
             * No lane's second column wrapped: a row's two texels are
             * neighbours, one 32-bit read, t00 (t01) in a lane's low half
             * and t10 (t11) in its high half
             */
            for (k = 0; k < 2; k++) {
                const int32_t *o = off[2 * k];
                raw[k] = _mm_setr_epi32(load_le32(tex + o[0]),
                                        load_le32(tex + o[1]),
                                        load_le32(tex + o[2]),
                                        load_le32(tex + o[3]));
            }
        } else {
            uint16_t w16[2][8];

            _mm_storeu_si128((__m128i *)off[1], _mm_add_epi32(ra, cb));
            _mm_storeu_si128((__m128i *)off[3], _mm_add_epi32(rb, cb));
            /* t00 | t10 and t01 | t11, a pixel's two texels in its lane's
             * low and high 16 bits as the pairs' reads give them */
            for (k = 0; k < 4; k++) {
                for (i = 0; i < 4; i++) {
                    w16[k >> 1][2 * i + (k & 1)] = load_le16(tex + off[k][i]);
                }
            }
            raw[0] = _mm_loadu_si128((const __m128i *)w16[0]);
            raw[1] = _mm_loadu_si128((const __m128i *)w16[1]);
        }
        for (a = 0; a < 2; a++) {
            f16[a][0] = _mm_srli_epi16(raw[a], 11);
            f16[a][1] = _mm_and_si128(_mm_srli_epi16(raw[a], 5),
                                      _mm_set1_epi16(63));
            f16[a][2] = _mm_and_si128(raw[a], _mm_set1_epi16(31));
        }
        for (k = 0; k < 4; k++) {
            for (i = 0; i < 3; i++) {
                __m128i f = f16[k >> 1][i];
                __m128i w = k & 1 ? _mm_srli_epi32(f, 16)
                                  : _mm_and_si128(f, low);
                texel[k][i] = g3d_unorm2f_sse2(_mm_cvtepi32_ps(w),
                                               i == 1 ? 6 : 5);
            }
        }
    }
    for (k = 0; k < 3; k++) {
        __m128 top = _mm_add_ps(_mm_mul_ps(texel[0][k], nfrac[0]),
                                _mm_mul_ps(texel[1][k], frac[0]));
        __m128 bot = _mm_add_ps(_mm_mul_ps(texel[2][k], nfrac[0]),
                                _mm_mul_ps(texel[3][k], frac[0]));
        out[k] = _mm_add_ps(_mm_mul_ps(top, nfrac[1]),
                            _mm_mul_ps(bot, frac[1]));
    }
}

/* two groups of four a call: the unit's constants and the call once */
static void fetch8_rgb565_wrap2(const GlamoRenderState *rs,
                                const GlamoTexUnit *t, const __m128 u[2],
                                const __m128 v[2], __m128 out[2][3])
{
    Fetch4Unit fu = {
        .tex = rs->vram + t->base[0],
        .pitch = t->pitch[0],
        .size = { _mm_set1_ps((float)(int)MAX(t->w, 1u)),
                  _mm_set1_ps((float)(int)MAX(t->h, 1u)) },
        .size1 = { _mm_set1_epi32((int)MAX(t->w, 1u) - 1),
                   _mm_set1_epi32((int)MAX(t->h, 1u) - 1) },
    };

    fetch4_rgb565(&fu, u[0], v[0], out[0]);
    fetch4_rgb565(&fu, u[1], v[1], out[1]);
}

GlamoTexFetch8Fn *glamo_tex_fast8(const GlamoRenderState *rs, int unit)
{
    const GlamoTexUnit *t = &rs->tex[unit];

    return glamo_tex_fast(rs, unit) == fetch_rgb565_wrap2 && t->mag == 1 ?
           fetch8_rgb565_wrap2 : NULL;
}
#endif

#ifdef GLAMO_HAVE_AVX2
#define TXF __m256
#define TXV __m256i
#define TX_TARGET "avx2"
#define TX_ATTR
#define TXI(op) _mm256_##op
#define TXS(op) _mm256_##op##_si256
#define TXN(name) name##8
#define TX_ZERO_NONFINITE(f, c) _mm256_andnot_ps(_mm256_castsi256_ps(      \
        _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_castps_si256(c),         \
                                            _mm256_set1_epi32(0x7f800000)), \
                           _mm256_set1_epi32(0x7f800000))), f)
/* the all-ones compare is -1 */
#define TX_FLOOR_FIX(fl, f) _mm256_add_epi32(fl, _mm256_castps_si256(       \
        _mm256_cmp_ps(_mm256_cvtepi32_ps(fl), f, _CMP_GT_OS)))
#define TX_UNORM2F(v, bits) g3d_unorm2f_avx(v, bits)
#include "texture-lanes.h"

/*
 * fetch8_rgb565_wrap2 with the eight pixels in one vector (AVX2): every
 * lane's operations are the SSE2 ones (texture-lanes.h; VPMULLD for the
 * row offset modulo 2^32), and no FMA is enabled, so GCC cannot contract
 * a product and a sum.
 */
__attribute__((target("avx2")))
static void fetch8_rgb565_wrap2_avx2(const GlamoRenderState *rs,
                                     const GlamoTexUnit *t, const __m256 *u,
                                     const __m256 *v, __m256 out[3])
{
    const uint8_t *tex = rs->vram + t->base[0];
    uint32_t size[2] = { MAX(t->w, 1u), MAX(t->h, 1u) };
    __m256 frac[2], nfrac[2];
    __m256i i0[2], i1[2], ra, rb, ca, raw[2];
    int32_t off[4][8];
    int k, i;

    rgb565_axes8(size, *u, *v, frac, nfrac, i0, i1);
    /* byte offsets of t00, t10, t01, t11: row * pitch + 2 * column */
    ra = _mm256_mullo_epi32(i0[1], _mm256_set1_epi32((int)t->pitch[0]));
    rb = _mm256_mullo_epi32(i1[1], _mm256_set1_epi32((int)t->pitch[0]));
    ca = _mm256_add_epi32(i0[0], i0[0]);
    _mm256_storeu_si256((__m256i *)off[0], _mm256_add_epi32(ra, ca));
    _mm256_storeu_si256((__m256i *)off[2], _mm256_add_epi32(rb, ca));
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(
            i1[0], _mm256_add_epi32(i0[0], _mm256_set1_epi32(1)))) == -1) {
        /* a row's two texels in one 32-bit read, as fetch4_rgb565 */
        for (k = 0; k < 2; k++) {
            const int32_t *o = off[2 * k];
            raw[k] = _mm256_setr_epi32(
                load_le32(tex + o[0]), load_le32(tex + o[1]),
                load_le32(tex + o[2]), load_le32(tex + o[3]),
                load_le32(tex + o[4]), load_le32(tex + o[5]),
                load_le32(tex + o[6]), load_le32(tex + o[7]));
        }
    } else {
        __m256i cb = _mm256_add_epi32(i1[0], i1[0]);
        uint16_t w16[2][16];

        _mm256_storeu_si256((__m256i *)off[1], _mm256_add_epi32(ra, cb));
        _mm256_storeu_si256((__m256i *)off[3], _mm256_add_epi32(rb, cb));
        for (k = 0; k < 4; k++) {
            for (i = 0; i < 8; i++) {
                w16[k >> 1][2 * i + (k & 1)] = load_le16(tex + off[k][i]);
            }
        }
        raw[0] = _mm256_loadu_si256((const __m256i *)w16[0]);
        raw[1] = _mm256_loadu_si256((const __m256i *)w16[1]);
    }
    rgb565_blend8(raw, frac, nfrac, out);
}

GlamoTexFetch8AvxFn *glamo_tex_fast8_avx2(const GlamoRenderState *rs,
                                          int unit)
{
    return glamo_lanes_avx2 &&
           glamo_tex_fast8(rs, unit) == fetch8_rgb565_wrap2 ?
           fetch8_rgb565_wrap2_avx2 : NULL;
}

#define GLAMO_AVX512 "avx2,avx512f,avx512bw,avx512vl"

/* g3d_unorm2f_avx in sixteen lanes (two products and a sum, no FMA) */
static inline __attribute__((always_inline, target(GLAMO_AVX512)))
G3D_NO_CONTRACT __m512 unorm2f16(__m512 v, int bits)
{
    return _mm512_add_ps(
        _mm512_mul_ps(v, _mm512_set1_ps(g3d_unorm_recip[bits][0])),
        _mm512_mul_ps(v, _mm512_set1_ps(g3d_unorm_recip[bits][1])));
}

/* the non-finite lanes' zero by a zeroing move, floor's correction by a
 * masked subtraction; no FMA: GCC's come with AVX-512F (G3D_NO_CONTRACT) */
#define TXF __m512
#define TXV __m512i
#define TX_TARGET GLAMO_AVX512
#define TX_ATTR G3D_NO_CONTRACT
#define TXI(op) _mm512_##op
#define TXS(op) _mm512_##op##_si512
#define TXN(name) name##16
#define TX_ZERO_NONFINITE(f, c) _mm512_maskz_mov_ps(_mm512_cmpneq_epi32_mask( \
        _mm512_and_si512(_mm512_castps_si512(c),                            \
                         _mm512_set1_epi32(0x7f800000)),                    \
        _mm512_set1_epi32(0x7f800000)), f)
#define TX_FLOOR_FIX(fl, f) _mm512_mask_sub_epi32(fl, _mm512_cmp_ps_mask(     \
        _mm512_cvtepi32_ps(fl), f, _CMP_GT_OS), fl, _mm512_set1_epi32(1))
#define TX_UNORM2F(v, bits) unorm2f16(v, bits)
#include "texture-lanes.h"

/*
 * fetch8_rgb565_wrap2_avx2 for sixteen pixels (AVX-512): every lane's
 * float and integer operations are the AVX2 lanes' (texture-lanes.h), and
 * a row's two texels are read as one 32-bit word by VPGATHERDD, the words
 * the AVX2 fetch reads; a lane whose second column wrapped (once in a
 * texture width) reads two words of its rows, inside them, or on a
 * texture one texel wide the group is fetched by the AVX2 fetch in two
 * halves.
 */
__attribute__((target(GLAMO_AVX512))) G3D_NO_CONTRACT
static void fetch16_rgb565_wrap2(const GlamoRenderState *rs,
                                 const GlamoTexUnit *t, const __m512 *u,
                                 const __m512 *v, __m512 out[3])
{
    const __m512i one_i = _mm512_set1_epi32(1);
    const uint8_t *tex = rs->vram + t->base[0];
    uint32_t size[2] = { MAX(t->w, 1u), MAX(t->h, 1u) };
    __m512 frac[2], nfrac[2];
    __m512i i0[2], i1[2], ra, rb, ca, raw[2];
    __mmask16 wrapped;
    int a, k;

    rgb565_axes16(size, *u, *v, frac, nfrac, i0, i1);
    wrapped = _mm512_cmpneq_epi32_mask(i1[0], _mm512_add_epi32(i0[0], one_i));
    if (wrapped && size[0] < 2) {
        __m256 uh[2], vh[2], oh[2][3];

        for (a = 0; a < 2; a++) {
            uh[a] = _mm256_castpd_ps(_mm512_extractf64x4_pd(
                                         _mm512_castps_pd(*u), a));
            vh[a] = _mm256_castpd_ps(_mm512_extractf64x4_pd(
                                         _mm512_castps_pd(*v), a));
            fetch8_rgb565_wrap2_avx2(rs, t, &uh[a], &vh[a], oh[a]);
        }
        for (k = 0; k < 3; k++) {
            out[k] = _mm512_castpd_ps(_mm512_insertf64x4(
                _mm512_castpd256_pd512(_mm256_castps_pd(oh[0][k])),
                _mm256_castps_pd(oh[1][k]), 1));
        }
        return;
    }
    /* byte offsets of t00 and t01 (row * pitch + 2 * column), whose
     * 32-bit words hold t10 and t11 too */
    ra = _mm512_mullo_epi32(i0[1], _mm512_set1_epi32((int)t->pitch[0]));
    rb = _mm512_mullo_epi32(i1[1], _mm512_set1_epi32((int)t->pitch[0]));
    ca = _mm512_add_epi32(i0[0], i0[0]);
    for (a = 0; a < 2; a++) {
        __m512i r = a ? rb : ra;

        /* a wrapped lane's word at w - 1 would reach two bytes past its
         * row (past VRAM for the last row of a texture at its end): only
         * the other lanes read it */
        raw[a] = _mm512_mask_i32gather_epi32(
            _mm512_setzero_si512(), (__mmask16)~wrapped,
            _mm512_add_epi32(r, ca), tex, 1);
        if (wrapped) {
            /*
             * A wrapped lane's columns are the last, w - 1, and 0 (the
             * wrap is a mask): with w >= 2 the 32-bit words at columns
             * w - 2 and 0 lie in the row and hold them, t00 (t01) in the
             * first's high half, t10 (t11) in the second's low half
             */
            __m512i hi = _mm512_mask_i32gather_epi32(
                raw[a], wrapped, _mm512_add_epi32(r, _mm512_sub_epi32(
                                    ca, _mm512_set1_epi32(2))), tex, 1);
            __m512i lo = _mm512_mask_i32gather_epi32(
                raw[a], wrapped, _mm512_add_epi32(r, _mm512_add_epi32(
                                    i1[0], i1[0])), tex, 1);

            raw[a] = _mm512_mask_mov_epi32(
                raw[a], wrapped, _mm512_or_si512(_mm512_srli_epi32(hi, 16),
                                                 _mm512_slli_epi32(lo, 16)));
        }
    }
    rgb565_blend16(raw, frac, nfrac, out);
}

GlamoTexFetch16Fn *glamo_tex_fast16(const GlamoRenderState *rs, int unit)
{
    return glamo_lanes_avx512 && glamo_tex_fast8_avx2(rs, unit) ?
           fetch16_rgb565_wrap2 : NULL;
}
#endif

uint32_t glamo_tex_sample(const GlamoRenderState *rs, int unit,
                          const float uv[4][2], uint32_t mask,
                          float out[4][4])
{
    const GlamoTexUnit *t = &rs->tex[unit];
    float dux, dvx, duy, dvy, rho, lod, thresh, tw;
    uint32_t kill = 0;
    int i, k;

    if (!t->enabled) {
        for (i = 0; i < 4; i++) {
            out[i][0] = out[i][1] = out[i][2] = out[i][3] = 1.0f;
        }
        return 0;
    }
    /* texel-space derivatives across the quad */
    dux = (uv[1][0] - uv[0][0]) * t->w;
    dvx = (uv[1][1] - uv[0][1]) * t->h;
    duy = (uv[2][0] - uv[0][0]) * t->w;
    dvy = (uv[2][1] - uv[0][1]) * t->h;
    rho = fmaxf(sqrtf(dux * dux + dvx * dvx), sqrtf(duy * duy + dvy * dvy));
    lod = (rho > 0.0f ? log2f(rho) : -100.0f) + t->lod_bias;
    /* EGTXnmagminSWflg: 0 D3D (minify above 0), 1 OpenGL (above 0.5) */
    thresh = t->gl_magmin ? 0.5f : 0.0f;
    for (i = 0; i < 4; i++) {
        if (!(mask & (1u << i))) {
            continue;
        }
        if (lod <= thresh) {
            tw = sample_level(rs, t, 0, t->mag == 1, uv[i][0], uv[i][1],
                              out[i]);
        } else if (t->min <= 1 || t->levels == 1) {
            /* 0 nearest, 1 linear; a single level has nothing to mip */
            tw = sample_level(rs, t, 0, t->min == 1 || t->min >= 4, uv[i][0],
                              uv[i][1], out[i]);
        } else {
            /* 2 NMN, 3 NML, 4 LMN, 5 LML */
            bool lin = t->min >= 4, between = t->min == 3 || t->min == 5;
            float l = fminf(fmaxf(lod, 0.0f), (float)(t->levels - 1));
            if (!between) {
                tw = sample_level(rs, t, (int)floorf(l + 0.5f), lin, uv[i][0],
                                  uv[i][1], out[i]);
            } else {
                int l0 = (int)floorf(l), l1 = MIN(l0 + 1, t->levels - 1);
                float a = l - l0, o1[4], tw1;
                tw = sample_level(rs, t, l0, lin, uv[i][0], uv[i][1], out[i]);
                tw1 = sample_level(rs, t, l1, lin, uv[i][0], uv[i][1], o1);
                for (k = 0; k < 4; k++) {
                    out[i][k] = out[i][k] * (1 - a) + o1[k] * a;
                }
                tw = tw * (1 - a) + tw1 * a;
            }
        }
        /* "if the percentage of transparent part is over this ratio, this
         * pixel must be transparent" (EGTXTRSHratio, 32nds) */
        if (tw > 0.0f && tw * 32.0f > t->trs_ratio) {
            kill |= 1u << i;
        }
    }
    return kill;
}

/* ---- the combiner ------------------------------------------------------- */

typedef struct CombIn {
    const float *dif, *spec, *t0, *t1, *f0, *f1;
    float cur0[4], cur1[4];
} CombIn;

/* one argument, as four channels; `alpha_unit` takes channel 3 */
static void argument(const CombIn *in, uint8_t sel, uint8_t imod,
                     bool alpha_unit, float out[4])
{
    static const float zero[4];
    const float *s;
    int k;

    switch (sel & 0x1f) {
    case GLAMO_TXARG_CUR1: s = in->cur1; break;
    case GLAMO_TXARG_DIFFUSE: s = in->dif; break;
    case GLAMO_TXARG_SPECULAR: s = in->spec; break;
    case GLAMO_TXARG_CUR0: s = in->cur0; break;
    case GLAMO_TXARG_TEX0: s = in->t0; break;
    case GLAMO_TXARG_TEX1: s = in->t1; break;
    case GLAMO_TXARG_FACT0: s = in->f0; break;
    case GLAMO_TXARG_FACT1: s = in->f1; break;
    default: s = zero; break;
    }
    for (k = 0; k < 4; k++) {
        out[k] = s[k];
    }
    if (sel & GLAMO_TXARG_REPLICATE) {
        if (alpha_unit) {
            out[3] = s[2];           /* "replicate blue to alpha" */
        } else {
            out[0] = out[1] = out[2] = s[3];
        }
    }
    for (k = 0; k < 4; k++) {
        float x = out[k];
        x = (imod & 1) ? 1.0f - x : x;      /* complement */
        x = (imod & 8) ? x - 0.5f : x;      /* bias */
        x = (imod & 4) ? 2.0f * x : x;      /* scale */
        x = (imod & 2) ? -x : x;            /* negate */
        out[k] = x;
    }
}

static void op_ab(int op, const float a[4], const float b[4], bool alpha_unit,
                  float out[4])
{
    int k;

    if (op == GLAMO_TXOP_MUL || alpha_unit) {
        for (k = 0; k < 4; k++) {
            out[k] = a[k] * b[k];
        }
        return;
    }
    out[0] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] +
             (op == GLAMO_TXOP_DP4 ? a[3] * b[3] : 0.0f);
    out[1] = out[2] = out[3] = out[0];
}

static float omod(float x, uint8_t m)
{
    static const float scale[8] = { 1, 2, 4, 8, 1, 0.5f, 0.25f, 0.125f };

    x = (m & 0x10) ? x - 0.5f : x;
    x *= scale[(m >> 1) & 7];
    return (m & 1) ? g3d_clampf(x, 0.0f, 1.0f) : x;
}

/* run one unit (colour or alpha) of a stage; writes the currents */
static void unit(CombIn *in, const GlamoCombStage *s, bool alpha_unit,
                 float c0[4], float c1[4])
{
    float arg[4][4], ra[4], rb[4], rc[4];
    const float *pick;
    int i, k;

    for (i = 0; i < 4; i++) {
        argument(in, s->arg[i], s->imod[i], alpha_unit, arg[i]);
    }
    op_ab(s->opa, arg[0], arg[1], alpha_unit, ra);
    op_ab(s->opb, arg[2], arg[3], alpha_unit, rb);
    for (k = 0; k < 4; k++) {
        switch (s->opc) {
        case GLAMO_TXOPC_CND_A:
            rc[k] = in->cur0[3] >= 0.5f ? rb[k] : ra[k];
            break;
        case GLAMO_TXOPC_CMP:
            rc[k] = arg[0][k] >= 0.0f ? arg[2][k] : arg[3][k];
            break;
        case GLAMO_TXOPC_ADD:
            rc[k] = ra[k] + rb[k];
            break;
        case GLAMO_TXOPC_SUB:
            rc[k] = ra[k] - rb[k];
            break;
        case GLAMO_TXOPC_CND_B:
            rc[k] = (alpha_unit ? arg[0][3] : arg[0][k]) >= 0.5f ?
                    arg[2][k] : arg[3][k];
            break;
        case GLAMO_TXOPC_ADD_SAT:
            rc[k] = ra[k] + g3d_clampf(rb[k], 0.0f, 1.0f);
            break;
        case GLAMO_TXOPC_SUB_SAT:
            rc[k] = ra[k] - g3d_clampf(rb[k], 0.0f, 1.0f);
            break;
        default:                 /* NOP: operation A passes */
            rc[k] = ra[k];
            break;
        }
    }
    for (i = 0; i < 2; i++) {
        uint8_t w = i ? s->w1 : s->w0, m = i ? s->o1 : s->o0;
        float *dst = i ? c1 : c0;
        /* 100/101 ("to t0/t1", undefined targets) act as their operation */
        switch (w) {
        case GLAMO_TXW_OPA: pick = ra; break;
        case GLAMO_TXW_OPB: pick = rb; break;
        case GLAMO_TXW_OPC: pick = rc; break;
        case 4: case 5: pick = i ? rc : ra; break;
        default: pick = NULL; break;
        }
        if (pick) {
            for (k = 0; k < 4; k++) {
                dst[k] = omod(pick[k], m);
            }
        }
    }
}

void glamo_combine(const GlamoRenderState *rs, const float dif[4],
                   const float spec[4], const float t0[4], const float t1[4],
                   float out[4])
{
    CombIn in = { dif, spec, t0, t1, rs->tfact[0], rs->tfact[1] };
    int s, k;

    if (!rs->combiner) {
        /* texture blending off: textures modulate the diffuse colour */
        for (k = 0; k < 4; k++) {
            out[k] = dif[k] * t0[k] * (rs->ntex > 1 ? t1[k] : 1.0f);
        }
        return;
    }
    memcpy(in.cur0, dif, sizeof(in.cur0));
    memcpy(in.cur1, dif, sizeof(in.cur1));
    for (s = 0; s < rs->stages; s++) {
        float c0[4], c1[4], a0[4], a1[4];
        memcpy(c0, in.cur0, sizeof(c0));
        memcpy(c1, in.cur1, sizeof(c1));
        memcpy(a0, in.cur0, sizeof(a0));
        memcpy(a1, in.cur1, sizeof(a1));
        unit(&in, &rs->cstage[s], false, c0, c1);
        unit(&in, &rs->astage[s], true, a0, a1);
        for (k = 0; k < 3; k++) {
            in.cur0[k] = c0[k];
            in.cur1[k] = c1[k];
        }
        in.cur0[3] = a0[3];
        in.cur1[3] = a1[3];
    }
    for (k = 0; k < 4; k++) {
        out[k] = g3d_clampf(in.cur0[k], 0.0f, 1.0f);
    }
}

/*
 * Texture 0 alone reaches the colour as one product per channel: texture
 * blending off (the diffuse colour modulated, glamo_combine's first case)
 * or one combiner stage whose colour and alpha units each write
 * operation A = arg1 * arg2 to current 0 without bias or scale, the
 * arguments being texture 0, the diffuse colour or ZERO complemented
 * (1.0), unmodified and unreplicated: modulate and replace as a driver
 * sets them. The product is the same multiply the combiner does (1.0 *
 * x is x); the final clamp is the pack's (clamping twice changes nothing).
 */
static bool product_operand(uint8_t sel, uint8_t imod, uint8_t *op)
{
    if (sel == GLAMO_TXARG_TEX0 && imod == 0) {
        *op = GLAMO_COMB_TEX0;
    } else if (sel == GLAMO_TXARG_DIFFUSE && imod == 0) {
        *op = GLAMO_COMB_DIFFUSE;
    } else if (sel == GLAMO_TXARG_ZERO && imod == 1) {    /* complement */
        *op = GLAMO_COMB_ONE;
    } else {
        return false;
    }
    return true;
}

static bool product_unit(const GlamoCombStage *s, bool alpha_unit,
                         uint8_t *a, uint8_t *b)
{
    /* the alpha unit always multiplies (op_ab) */
    return s->w0 == GLAMO_TXW_OPA && (s->o0 & ~GLAMO_TXOMOD_SAT) == 0 &&
           (alpha_unit || s->opa == GLAMO_TXOP_MUL) &&
           product_operand(s->arg[0], s->imod[0], a) &&
           product_operand(s->arg[1], s->imod[1], b);
}

static bool product_channels(GlamoRenderState *rs)
{
    uint8_t a, b;
    int k;

    if (!rs->combiner) {
        for (k = 0; k < 4; k++) {
            rs->comb[0][k] = GLAMO_COMB_DIFFUSE;
            rs->comb[1][k] = GLAMO_COMB_TEX0;
        }
        return true;
    }
    if (rs->stages != 1 || !product_unit(&rs->cstage[0], false, &a, &b)) {
        return false;
    }
    for (k = 0; k < 3; k++) {
        rs->comb[0][k] = a;
        rs->comb[1][k] = b;
    }
    if (!product_unit(&rs->astage[0], true, &a, &b)) {
        return false;
    }
    rs->comb[0][3] = a;
    rs->comb[1][3] = b;
    return true;
}

bool glamo_tex_fast_combine(GlamoRenderState *rs)
{
    int n, o, k;

    if (!product_channels(rs)) {
        return false;
    }
    rs->comb_modulate = true;
    for (n = 0; n < 2; n++) {
        for (k = 0; k < 4; k++) {
            for (o = 0; o < 3; o++) {
                rs->comb_lanes[n][o][k] = rs->comb[n][k] == o ? ~0u : 0;
            }
            rs->comb_modulate &= rs->comb[n][k] ==
                                 (n ? GLAMO_COMB_TEX0 : GLAMO_COMB_DIFFUSE);
        }
    }
    return true;
}
