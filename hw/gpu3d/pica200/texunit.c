/*
 * Texture units 0-2 (reference "GPUREG_TEXUNIT*", 3dbrew GPU/Internal Registers
 * 0x080-0x0B7; Citra): the fourteen texel formats in the 8x8-tiled Morton
 * layout, ETC1/ETC1A4 blocks, wrap modes, border colour, nearest/linear
 * filters, mipmaps with the level of detail taken per 2x2 quad, and unit 0's
 * projection, cube-map and shadow types.
 *
 * Image rows: texel row t = v * H counts from the bottom as in OpenGL and
 * lives in memory row H - 1 - t (3dbrew GPU/Internal Registers 0x080-0x0B7;
 * Citra). Wrapping and filtering work on (s, t) texel coordinates as OpenGL
 * defines them (the reference has no equations); linear weights are 8-bit
 * fractions.
 *
 * Bad setup (size not a multiple of 8 or over 1024, undefined format, image
 * outside memory) is logged when the render state is built; such a unit
 * samples 0.
 *
 * Cube maps (3dbrew GPU/Internal Registers 0x080-0x0B7; Citra's
 * ConvertCubeCoord, which is OpenGL's table with (u, v, w) = (rx, ry, rz)): the
 * major axis of (u, v, w) picks the face, ADDR1-6 = +X, -X, +Y, -Y, +Z, -Z
 * (ADDR2-6 b0-21, b22-27 from ADDR1), s = x / z / 2 + 1/2, t = y / z / 2 + 1/2
 * with the face's x, y and z = the major component.
 *
 * Shadow textures (types 2 and 4; 3dbrew GPU/Internal Registers 0x080-0x0B7;
 * Citra): the texel at (u, v) (divided by w unless TEXUNIT0_SHADOW b0 says
 * orthographic) or at the cube coordinates, nearest, holds a 24-bit depth in G
 * (low), B, A (high); with z = min(|w|, 1) · 0xFFFFFF (the cube's |major
 * component| for type 4) less the bias (SHADOW b1-23, a 0.24 value without its
 * bit 0), the result is R where depth >= z, else 0, in all four channels.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <math.h>
#include <string.h>
#include "texfilter.h"
#include "texlanes8.h"

#include "common/texaddr.h"

/* bits per texel of each format (3dbrew GPU/Internal Registers 0x080-0x0B7;
 * Citra table) */
static const uint8_t texfmt_bits[PICA_TEXFMT_COUNT] = {
    32, 24, 16, 16, 16, 16, 16, 8, 8, 8, 4, 4, 4, 8,
};

unsigned pica_texfmt_bits(unsigned fmt)
{
    return fmt < PICA_TEXFMT_COUNT ? texfmt_bits[fmt] : 0;
}

uint64_t pica_tex_level_size(unsigned fmt, uint32_t w, uint32_t h)
{
    return (uint64_t)w * h * pica_texfmt_bits(fmt) / 8;
}

/* ---- ETC1 (Khronos OES_compressed_ETC1_RGB8_texture) --------------------- */

static const int16_t etc1_modifier[8][2] = {
    { 2, 8 }, { 5, 17 }, { 9, 29 }, { 13, 42 },
    { 18, 60 }, { 24, 80 }, { 33, 106 }, { 47, 183 },
};

static inline uint8_t clamp8(int v)
{
    return v < 0 ? 0 : v > 255 ? 255 : v;
}

/*
 * Texel (x, y) of a block (x column, y row in memory order), the block read
 * as a little-endian u64, which puts the Khronos big-endian word's bit 63
 * at bit 63.
 */
void pica_etc1_texel(uint64_t blk, unsigned x, unsigned y, uint8_t rgb[3])
{
    bool flip = blk >> 32 & 1, diff = blk >> 33 & 1;
    unsigned sub = flip ? y >= 2 : x >= 2;
    unsigned table = (unsigned)(blk >> (sub ? 34 : 37)) & 7;
    unsigned k = x * 4 + y;
    unsigned idx = (unsigned)(blk >> (k + 16) & 1) << 1 | (unsigned)(blk >> k & 1);
    int mod = etc1_modifier[table][idx & 1];
    int ch;

    if (idx & 2) {
        mod = -mod;
    }
    for (ch = 0; ch < 3; ch++) {
        unsigned shift = 59 - 8 * ch;   /* R 63.., G 55.., B 47.. */
        int base;

        if (diff) {
            int b5 = (int)(blk >> shift) & 0x1F;
            if (sub) {
                /* 3-bit signed delta (the second colour's) */
                b5 += g3d_sextract32((uint32_t)(blk >> (shift - 3)), 0, 3);
                b5 &= 0x1F;
            }
            base = b5 << 3 | b5 >> 2;
        } else {
            int b4 = (int)(blk >> (sub ? shift - 3 : shift + 1)) & 0xF;
            base = b4 << 4 | b4;
        }
        rgb[ch] = clamp8(base + mod);
    }
}

static inline uint64_t load_le64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return GUINT64_FROM_LE(v);
}

/* ---- texel decode ---------------------------------------------------------- */

static inline unsigned ext5(unsigned v)
{
    return v << 3 | v >> 2;
}

/* written out rather than through formats.h: this is the sampler's inner loop */
static inline void texel(unsigned fmt, const uint8_t *data, uint32_t width,
                         uint32_t x, uint32_t ym, uint8_t rgba[4])
{
    uint32_t idx, v;
    const uint8_t *p;

    if (fmt >= PICA_TEXFMT_ETC1) {
        /* 8x8 tile: four 4x4 blocks (0,0), (4,0), (0,4), (4,4) */
        unsigned blk_bytes = fmt == PICA_TEXFMT_ETC1A4 ? 16 : 8;
        uint32_t tile = (ym >> 3) * (width >> 3) + (x >> 3);
        unsigned sub = (ym & 4 ? 2 : 0) + (x & 4 ? 1 : 0);

        p = data + ((size_t)tile * 4 + sub) * blk_bytes;
        if (fmt == PICA_TEXFMT_ETC1A4) {
            /* alpha nibble 4x + y of the u64 before the colour block */
            unsigned a = (unsigned)(load_le64(p) >> (4 * ((x & 3) * 4 + (ym & 3)))) & 0xF;
            rgba[3] = a * 17;
            p += 8;
        } else {
            rgba[3] = 255;
        }
        pica_etc1_texel(load_le64(p), x & 3, ym & 3, rgba);
        return;
    }
    idx = pica_tiled_index(x, ym, width);
    switch (fmt) {
    case PICA_TEXFMT_RGBA8:        /* bytes A, B, G, R */
        p = data + (size_t)idx * 4;
        rgba[0] = p[3];
        rgba[1] = p[2];
        rgba[2] = p[1];
        rgba[3] = p[0];
        return;
    case PICA_TEXFMT_RGB8:         /* bytes B, G, R */
        p = data + (size_t)idx * 3;
        rgba[0] = p[2];
        rgba[1] = p[1];
        rgba[2] = p[0];
        rgba[3] = 255;
        return;
    case PICA_TEXFMT_RGBA5551:     /* R5 << 11 | G5 << 6 | B5 << 1 | A1 */
        p = data + (size_t)idx * 2;
        v = p[0] | p[1] << 8;
        rgba[0] = ext5(v >> 11);
        rgba[1] = ext5(v >> 6 & 31);
        rgba[2] = ext5(v >> 1 & 31);
        rgba[3] = v & 1 ? 255 : 0;
        return;
    case PICA_TEXFMT_RGB565:
        p = data + (size_t)idx * 2;
        v = p[0] | p[1] << 8;
        rgba[0] = ext5(v >> 11);
        rgba[1] = (v >> 5 & 63) << 2 | (v >> 9 & 3);
        rgba[2] = ext5(v & 31);
        rgba[3] = 255;
        return;
    case PICA_TEXFMT_RGBA4:        /* R4 << 12 | G4 << 8 | B4 << 4 | A4 */
        p = data + (size_t)idx * 2;
        v = p[0] | p[1] << 8;
        rgba[0] = (v >> 12) * 17;
        rgba[1] = (v >> 8 & 15) * 17;
        rgba[2] = (v >> 4 & 15) * 17;
        rgba[3] = (v & 15) * 17;
        return;
    case PICA_TEXFMT_IA8:          /* byte 0 alpha, byte 1 intensity */
        p = data + (size_t)idx * 2;
        rgba[0] = rgba[1] = rgba[2] = p[1];
        rgba[3] = p[0];
        return;
    case PICA_TEXFMT_HILO8:        /* byte 0 G (lo), byte 1 R (hi) */
        p = data + (size_t)idx * 2;
        rgba[0] = p[1];
        rgba[1] = p[0];
        rgba[2] = 0;
        rgba[3] = 255;
        return;
    case PICA_TEXFMT_I8:
        rgba[0] = rgba[1] = rgba[2] = data[idx];
        rgba[3] = 255;
        return;
    case PICA_TEXFMT_A8:
        rgba[0] = rgba[1] = rgba[2] = 0;
        rgba[3] = data[idx];
        return;
    case PICA_TEXFMT_IA4:          /* I << 4 | A */
        v = data[idx];
        rgba[0] = rgba[1] = rgba[2] = (v >> 4) * 17;
        rgba[3] = (v & 0xF) * 17;
        return;
    default:                       /* I4, A4: the low nibble is the even texel */
        v = (data[idx >> 1] >> (idx & 1 ? 4 : 0)) & 0xF;
        if (fmt == PICA_TEXFMT_I4) {
            rgba[0] = rgba[1] = rgba[2] = v * 17;
            rgba[3] = 255;
        } else {
            rgba[0] = rgba[1] = rgba[2] = 0;
            rgba[3] = v * 17;
        }
        return;
    }
}

void pica_texel_decode(unsigned fmt, const uint8_t *data, uint32_t width,
                       uint32_t x, uint32_t ym, uint8_t rgba[4])
{
    texel(fmt, data, width, x, ym, rgba);
}

/* ---- setup ------------------------------------------------------------------ */

static void unit_setup(Pica200Core *c, unsigned i, PicaTexUnit *u)
{
    const uint32_t *r = c->regs;
    unsigned base = PICA_TEXUNIT_BASE(i);
    uint32_t dim = r[base + PICA_TEXUNIT_DIM], param = r[base + PICA_TEXUNIT_PARAM];
    uint32_t lod = r[base + PICA_TEXUNIT_LOD];
    uint64_t addr = (uint64_t)G3D_FIELD_EX32(r[base + PICA_TEXUNIT_ADDR],
                                             GPUREG_TEXUNIT0_ADDR1, ADDR) << 3;
    uint64_t size = 0;
    unsigned type = i == 0 ? G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, TYPE)
                           : PICA_TEXTYPE_2D;
    int k, last;

    memset(u, 0, sizeof(*u));
    u->fmt = r[PICA_TEXUNIT_TYPE_REG(i)] & 0xF;
    u->w = G3D_FIELD_EX32(dim, GPUREG_TEXUNIT0_DIM, WIDTH);
    u->h = G3D_FIELD_EX32(dim, GPUREG_TEXUNIT0_DIM, HEIGHT);
    u->wrap_s = G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, WRAP_S);
    u->wrap_t = G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, WRAP_T);
    u->mag_linear = G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, MAG_FILTER);
    u->min_linear = G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, MIN_FILTER);
    u->mip_linear = G3D_FIELD_EX32(param, GPUREG_TEXUNIT0_PARAM, MIP_FILTER);
    u->projection = type == PICA_TEXTYPE_PROJECTION;
    u->bias = g3d_sextract32(lod, 0, 13) / 256.0f;     /* fixed1.4.8 */
    u->min_level = G3D_FIELD_EX32(lod, GPUREG_TEXUNIT0_LOD, MIN_LEVEL);
    u->max_level = G3D_FIELD_EX32(lod, GPUREG_TEXUNIT0_LOD, MAX_LEVEL);
    for (k = 0; k < 4; k++) {
        u->border[k] = r[base + PICA_TEXUNIT_BORDER] >> (8 * k);
    }

    switch (type) {
    case PICA_TEXTYPE_2D:
    case PICA_TEXTYPE_PROJECTION:
        break;
    case PICA_TEXTYPE_CUBE:
        u->cube = true;
        break;
    case PICA_TEXTYPE_SHADOW_CUBE:
        u->cube = true;
        /* fall through */
    case PICA_TEXTYPE_SHADOW_2D:
        u->shadow = true;
        u->shadow_persp = !(r[GPUREG_TEXUNIT0_SHADOW] & 1);
        u->shadow_bias = r[GPUREG_TEXUNIT0_SHADOW] & 0xFFFFFE;
        break;
    case PICA_TEXTYPE_DISABLED:
        return;
    default:
        g3d_guest_error("pica200: texture unit 0 type %u is undefined; it "
                        "samples 0", type);
        return;
    }
    if (u->fmt >= PICA_TEXFMT_COUNT) {
        g3d_guest_error("pica200: texture unit %u format 0x%x is undefined; "
                        "it samples 0", i, u->fmt);
        return;
    }
    if (u->w < 8 || u->h < 8 || (u->w & 7) || (u->h & 7) ||
        u->w > 1024 || u->h > 1024) {
        g3d_guest_error("pica200: texture unit %u is %ux%u, not 8x8 tiles "
                        "of at most 1024; it samples 0", i, u->w, u->h);
        return;
    }
    /* levels are whole 8x8 tiles (citro3d stops there) */
    last = 0;
    while (last < 10 && (u->w >> (last + 1)) >= 8 && (u->h >> (last + 1)) >= 8 &&
           (((u->w >> (last + 1)) | (u->h >> (last + 1))) & 7) == 0) {
        last++;
    }
    if (u->max_level > last) {
        g3d_guest_error("pica200: texture unit %u max level %d, but a %ux%u "
                        "image has whole-tile levels 0-%d; clamped", i,
                        u->max_level, u->w, u->h, last);
        u->max_level = last;
    }
    if (u->min_level > u->max_level) {
        u->min_level = u->max_level;
    }
    for (k = 0; k <= u->max_level; k++) {
        u->level_offset[k] = (uint32_t)size;
        size += pica_tex_level_size(u->fmt, u->w >> k, u->h >> k);
    }
    for (k = 0; k < (u->cube ? 6 : 1); k++) {
        uint64_t a = addr;

        if (k > 0) {
            /* ADDR2-6: b0-21, with b22-27 of ADDR1 (reference L1179-1203) */
            uint32_t lo = r[GPUREG_TEXUNIT0_ADDR1 + k] & 0x3FFFFF;
            a = (uint64_t)((G3D_FIELD_EX32(r[GPUREG_TEXUNIT0_ADDR1],
                                           GPUREG_TEXUNIT0_ADDR1, ADDR) &
                            0xFC00000u) | lo) << 3;
        }
        u->face[k] = pica_mem_map(c, a, size, false);
        if (!u->face[k]) {
            g3d_guest_error("pica200: texture unit %u image 0x%" G_GINT64_MODIFIER
                            "x + 0x%" G_GINT64_MODIFIER "x (face %d) is outside "
                            "memory; it samples 0", i, a, size, k);
            return;
        }
    }
    u->data = u->face[0];
}

void pica_texunit_setup(Pica200Core *c, const PicaTevState *tev, PicaTexState *ts)
{
    uint32_t cfg = c->regs[GPUREG_TEXUNIT_CONFIG];
    unsigned enabled = G3D_FIELD_EX32(cfg, GPUREG_TEXUNIT_CONFIG, ENABLE);
    unsigned i;

    memset(ts, 0, sizeof(*ts));
    if (G3D_FIELD_EX32(cfg, GPUREG_TEXUNIT_CONFIG, TEX3_ENABLE) &&
        (tev->uses_tex & 8)) {
        ts->proctex = g3d_raster_alloc(c->raster, sizeof(PicaProcTex));
        pica_proctex_setup(c, ts->proctex);
        if (ts->proctex->enabled) {
            ts->active |= 8;
        }
    }
    for (i = 0; i < 3; i++) {
        /* a unit nobody reads costs nothing; a disabled one reads 0 */
        if (!(enabled & tev->uses_tex & (1u << i))) {
            continue;
        }
        unit_setup(c, i, &ts->unit[i]);
        if (ts->unit[i].data) {
            ts->active |= 1u << i;
        }
    }
    ts->unit[0].coord = 0;
    ts->unit[1].coord = 1;
    ts->unit[2].coord = G3D_FIELD_EX32(cfg, GPUREG_TEXUNIT_CONFIG, TEX2_COORDS) ? 1 : 2;
}

/* ---- sampling ------------------------------------------------------------- */

/* texel index along one axis after wrapping; -1 means the border colour */
static inline int wrap(int i, int size, unsigned mode)
{
    static const G3DTexWrap modes[4] = {
        [PICA_WRAP_CLAMP_TO_EDGE] = G3D_TEX_CLAMP,
        [PICA_WRAP_CLAMP_TO_BORDER] = G3D_TEX_BORDER,
        [PICA_WRAP_REPEAT] = G3D_TEX_REPEAT,
        [PICA_WRAP_MIRRORED_REPEAT] = G3D_TEX_MIRROR,
    };

    if (mode >= 4) {
        /* Citra: 4/5 edge/border for i >= 0 and repeat below; 6/7 repeat */
        mode = mode >= 6 || i < 0 ? PICA_WRAP_REPEAT : mode - 4;
    }
    return g3d_tex_wrap(i, size, modes[mode & 3]);
}

/*
 * texel (s, t) already wrapped; -1 on either axis is the border colour.
 * `fmt` is u->fmt, passed apart so that the per-draw samplers below
 * instantiate this for one format.
 */
static inline void fetch_wrapped(const PicaTexUnit *u, unsigned fmt,
                                 const uint8_t *data, int w, int h, int s,
                                 int t, uint8_t out[4])
{
    if (s < 0 || t < 0) {
        memcpy(out, u->border, 4);
        return;
    }
    texel(fmt, data, w, s, h - 1 - t, out);
}

static inline void fetch(const PicaTexUnit *u, const uint8_t *data, int w, int h,
                         int s, int t, uint8_t out[4])
{
    fetch_wrapped(u, u->fmt, data, w, h, wrap(s, w, u->wrap_s),
                  wrap(t, h, u->wrap_t), out);
}

/* a texel coordinate as an int that wrapping can take (NaN and far ones tamed) */
static inline int to_texel(float f)
{
    if (!(f > -1048576.0f)) {
        return -1048576;
    }
    return f < 1048576.0f ? (int)floorf(f) : 1048576;
}

static inline __attribute__((always_inline)) void
sample_level_fmt(const PicaTexUnit *u, unsigned fmt, unsigned wrap_s,
                 unsigned wrap_t, const uint8_t *image, int level, bool linear,
                 float s, float t, uint8_t out[4])
{
    const uint8_t *data = image + u->level_offset[level];
    int w = u->w >> level, h = u->h >> level;

    if (!linear) {
        fetch_wrapped(u, fmt, data, w, h, wrap(to_texel(s * w), w, wrap_s),
                      wrap(to_texel(t * h), h, wrap_t), out);
    } else {
        float x = s * w - 0.5f, y = t * h - 0.5f;
        int i0 = to_texel(x), j0 = to_texel(y);
        /* 8-bit fractions; a tamed coordinate's fraction is meaningless */
        float fx = x - (float)i0, fy = y - (float)j0;
        int ax = fx >= 0.0f && fx < 1.0f ? (int)(fx * 256.0f) : 0;
        int ay = fy >= 0.0f && fy < 1.0f ? (int)(fy * 256.0f) : 0;
        int s0 = wrap(i0, w, wrap_s), s1 = wrap(i0 + 1, w, wrap_s);
        int t0 = wrap(j0, h, wrap_t), t1 = wrap(j0 + 1, h, wrap_t);
        uint8_t c00[4], c10[4], c01[4], c11[4];
        int k;

        fetch_wrapped(u, fmt, data, w, h, s0, t0, c00);
        fetch_wrapped(u, fmt, data, w, h, s1, t0, c10);
        fetch_wrapped(u, fmt, data, w, h, s0, t1, c01);
        fetch_wrapped(u, fmt, data, w, h, s1, t1, c11);
        for (k = 0; k < 4; k++) {
            int top = c00[k] * (256 - ax) + c10[k] * ax;
            int bot = c01[k] * (256 - ax) + c11[k] * ax;
            out[k] = (uint8_t)((top * (256 - ay) + bot * ay + 32768) >> 16);
        }
    }
}

static void sample_level(const PicaTexUnit *u, const uint8_t *image, int level,
                         bool linear, float s, float t, uint8_t out[4])
{
    sample_level_fmt(u, u->fmt, u->wrap_s, u->wrap_t, image, level, linear,
                     s, t, out);
}

/* one sample of `image` (level 0 of the unit's picture or cube face) */
static void sample(const PicaTexUnit *u, const uint8_t *image, float s,
                   float t, float lod, uint8_t out[4])
{
    int level;

    /* OpenGL: lod <= 0 magnifies (from the base level) */
    if (lod <= 0.0f && u->min_level == 0) {
        sample_level(u, image, 0, u->mag_linear, s, t, out);
        return;
    }
    if (!(lod >= (float)u->min_level)) {
        lod = (float)u->min_level;
    }
    if (lod > (float)u->max_level) {
        lod = (float)u->max_level;
    }
    if (!u->mip_linear || u->max_level == u->min_level) {
        /* nearest level: ceil(lod + 1/2) - 1 */
        level = lod <= 0.5f ? 0 : (int)ceilf(lod + 0.5f) - 1;
        sample_level(u, image, MIN(level, u->max_level), u->min_linear, s, t, out);
    } else {
        uint8_t a[4], b[4];
        int f, k;

        level = (int)floorf(lod);
        f = (int)((lod - (float)level) * 256.0f);
        sample_level(u, image, level, u->min_linear, s, t, a);
        if (level >= u->max_level || f == 0) {
            memcpy(out, a, 4);
            return;
        }
        sample_level(u, image, level + 1, u->min_linear, s, t, b);
        for (k = 0; k < 4; k++) {
            out[k] = (uint8_t)((a[k] * (256 - f) + b[k] * f + 128) >> 8);
        }
    }
}

void pica_tex_sample(const PicaTexUnit *u, float s, float t, float lod,
                     uint8_t out[4])
{
    if (!u->data) {
        memset(out, 0, 4);
        return;
    }
    sample(u, u->data, s, t, lod, out);
}

/* the face (0-5: +X, -X, +Y, -Y, +Z, -Z) and (s, t) of direction (u, v, w) */
unsigned pica_cube_coord(float u, float v, float w, float *s, float *t,
                         float *major)
{
    float au = fabsf(u), av = fabsf(v), aw = fabsf(w), x, y, z;
    unsigned face;

    if (au > av && au > aw) {
        face = u > 0.0f ? 0 : 1;
        x = -w;
        y = u > 0.0f ? -v : v;
        z = u;
    } else if (av > aw) {
        face = v > 0.0f ? 2 : 3;
        x = v > 0.0f ? u : -u;
        y = w;
        z = v;
    } else {
        face = w > 0.0f ? 4 : 5;
        x = u;
        y = w > 0.0f ? -v : v;
        z = w;
    }
    *major = fabsf(z);
    *s = x / z * 0.5f + 0.5f;       /* z = 0 (all zero): NaN, tamed later */
    *t = y / z * 0.5f + 0.5f;
    return face;
}

/* a shadow texture's density at (s, t) for depth z (nearest) */
static void shadow_sample(const PicaTexUnit *u, const uint8_t *image, float s,
                          float t, float z, uint8_t out[4])
{
    int64_t zi = (int64_t)(MIN(z, 1.0f) * (float)0xFFFFFF) - u->shadow_bias;
    uint8_t c[4];
    uint32_t ref;

    fetch(u, image, u->w, u->h, to_texel(s * u->w), to_texel(t * u->h), c);
    ref = (uint32_t)c[3] << 16 | c[2] << 8 | c[1];
    memset(out, (int64_t)ref >= zi ? c[0] : 0, 4);
}

/*
 * The texture colours of a quad's covered pixels: coordinates perspective
 * correct per pixel, the level of detail from the quad's differences
 * (pixel 1 - pixel 0 across, pixel 2 - pixel 0 down), as one 2x2 unit of the
 * hardware would.
 */
void pica_texunit_quad(const PicaTexState *ts, const PicaTri *tri,
                       const G3DQuad *q, uint8_t tex[4][4][4])
{
    unsigned i, p;

    for (i = 0; i < 3; i++) {
        const PicaTexUnit *u = &ts->unit[i];
        float s[4], t[4], z[4] = { 0, 0, 0, 0 }, lod = 0.0f;
        unsigned cs = 2 * u->coord, face[4] = { 0, 0, 0, 0 };

        if (!(ts->active & (1u << i))) {
            for (p = 0; p < 4; p++) {
                memset(tex[p][i], 0, 4);
            }
            continue;
        }
        for (p = 0; p < 4; p++) {
            const float *b = q->bary[p];
            s[p] = g3d_interp(b, tri->tc[0][cs], tri->tc[1][cs], tri->tc[2][cs]);
            t[p] = g3d_interp(b, tri->tc[0][cs + 1], tri->tc[1][cs + 1],
                              tri->tc[2][cs + 1]);
            if (u->projection || u->cube || u->shadow) {
                float w = g3d_interp(b, tri->tc[0][6], tri->tc[1][6], tri->tc[2][6]);

                if (u->cube) {
                    face[p] = pica_cube_coord(s[p], t[p], w, &s[p], &t[p], &z[p]);
                } else {
                    if (u->projection || u->shadow_persp) {
                        s[p] /= w;
                        t[p] /= w;
                    }
                    z[p] = fabsf(w);
                }
            }
        }
        if (u->max_level > 0 || u->min_linear != u->mag_linear ||
            u->bias != 0.0f) {
            float dsx = (s[1] - s[0]) * u->w, dtx = (t[1] - t[0]) * u->h;
            float dsy = (s[2] - s[0]) * u->w, dty = (t[2] - t[0]) * u->h;
            float rho2 = MAX(dsx * dsx + dtx * dtx, dsy * dsy + dty * dty);

            lod = rho2 > 0.0f ? 0.5f * log2f(rho2) + u->bias : -128.0f;
        }
        for (p = 0; p < 4; p++) {
            if (!(q->mask & (1u << p))) {
                continue;
            }
            if (u->shadow) {
                shadow_sample(u, u->face[face[p]], s[p], t[p], z[p], tex[p][i]);
            } else {
                sample(u, u->face[face[p]], s[p], t[p], lod, tex[p][i]);
            }
        }
    }
    if (ts->active & 8) {
        const PicaProcTex *pt = ts->proctex;
        unsigned cs = 2 * pt->coord;
        float u[4], v[4], lod = 0.0f;

        for (p = 0; p < 4; p++) {
            const float *b = q->bary[p];
            u[p] = g3d_interp(b, tri->tc[0][cs], tri->tc[1][cs], tri->tc[2][cs]);
            v[p] = g3d_interp(b, tri->tc[0][cs + 1], tri->tc[1][cs + 1],
                              tri->tc[2][cs + 1]);
        }
        if (pt->mip) {
            /* the larger of the quad's differences across and down, of |u|, |v| */
            float du = MAX(fabsf(fabsf(u[1]) - fabsf(u[0])),
                           fabsf(fabsf(u[2]) - fabsf(u[0])));
            float dv = MAX(fabsf(fabsf(v[1]) - fabsf(v[0])),
                           fabsf(fabsf(v[2]) - fabsf(v[0])));
            lod = pica_proctex_lod(pt, du, dv);
        }
        for (p = 0; p < 4; p++) {
            if (q->mask & (1u << p)) {
                pica_proctex_sample(pt, u[p], v[p], lod, tex[p][3]);
            }
        }
    } else {
        for (p = 0; p < 4; p++) {
            memset(tex[p][3], 0, 4);
        }
    }
}

#ifdef __SSE2__
/*
 * ---- the bilinear sampler with the quad's four pixels in SSE2 lanes --------
 *
 * sample_level_fmt's linear branch for level 0, lane p being pixel p, with
 * its operations per lane: the coordinate as g3d_interp sums it, x = s * w
 * - 0.5, to_texel (NaN and coordinates beyond +-2^20 tamed the same way:
 * maxps returns its second operand for a NaN), the 8-bit weights, the
 * wrap, then the four texel reads and the weighted sums. The sums are
 * integers below 2^24 (255 * 256 * 256 + 32768), which single precision
 * holds exactly, so summing them as floats gives the integer result.
 * Lanes of uncovered pixels are computed too (their texels are inside the
 * image) and written to tex[] like the others; nobody reads them.
 */

/* floor of four coordinates as to_texel gives it: as floats and as ints */
static inline __attribute__((always_inline)) __m128
lanes_to_texel(__m128 f, __m128i *i)
{
    __m128 c = _mm_min_ps(_mm_max_ps(f, _mm_set1_ps(-1048576.0f)),
                          _mm_set1_ps(1048576.0f));
    __m128i t = _mm_cvttps_epi32(c);
    __m128 ft = _mm_cvtepi32_ps(t), below = _mm_cmplt_ps(c, ft);

    /* truncation rounds negative non-integers up: one less for those */
    *i = _mm_add_epi32(t, _mm_castps_si128(below));
    return _mm_sub_ps(ft, _mm_and_ps(below, _mm_set1_ps(1.0f)));
}

/* (int)(f * 256) where 0 <= f < 1, else 0 (NaN included) */
static inline __attribute__((always_inline)) __m128i lanes_weight(__m128 f)
{
    __m128 in = _mm_and_ps(_mm_cmpge_ps(f, _mm_setzero_ps()),
                           _mm_cmplt_ps(f, _mm_set1_ps(1.0f)));
    __m128i a = _mm_cvttps_epi32(_mm_mul_ps(f, _mm_set1_ps(256.0f)));

    return _mm_and_si128(a, _mm_castps_si128(in));
}

/*
 * g3d_tex_repeat or g3d_tex_clamp of texel indices i (exact integers as
 * floats, |i| <= 2^20 + 1) for an axis of n texels. The repeat's quotient
 * i / n rounded to single precision has the floor of the exact one: an
 * integer quotient is exact, and any other lies at least 1 / n from an
 * integer, more than half a step of |i / n| (|i / n| 2^-24 < 1 / n as
 * |i| < 2^24). So i - floor(i / n) n (integers below 2^22, exact) is the
 * remainder in [0, n) that g3d_tex_repeat gives.
 */
static inline __attribute__((always_inline)) __m128i
lanes_wrap(__m128 i, int n, unsigned mode)
{
    __m128 nf = _mm_set1_ps((float)n), m, q;
    __m128i qi;

    if (mode == PICA_WRAP_CLAMP_TO_EDGE) {
        m = _mm_min_ps(_mm_max_ps(i, _mm_setzero_ps()),
                       _mm_set1_ps((float)(n - 1)));
        return _mm_cvttps_epi32(m);
    }
    if (!(n & (n - 1))) {
        /* two's complement: i & (n - 1) for negative i too */
        return _mm_and_si128(_mm_cvttps_epi32(i), _mm_set1_epi32(n - 1));
    }
    q = lanes_to_texel(_mm_div_ps(i, nf), &qi);
    m = _mm_sub_ps(i, _mm_mul_ps(q, nf));
    return _mm_cvttps_epi32(m);
}

/* wrap() of four texel indices for the unit's own mode (one lane at a time) */
static inline __attribute__((always_inline)) __m128i
lanes_wrap_any(__m128i i, int add, int n, unsigned mode)
{
    int32_t v[4] __attribute__((aligned(16)));
    int p;

    _mm_store_si128((__m128i *)v, i);
    for (p = 0; p < 4; p++) {
        v[p] = wrap(v[p] + add, n, mode);
    }
    return _mm_load_si128((const __m128i *)v);
}

/* the part of pica_tiled_index that depends on x */
static inline __attribute__((always_inline)) __m128i lanes_tiled_x(__m128i x)
{
    __m128i one = _mm_set1_epi32(1);

    return _mm_or_si128(
        _mm_or_si128(_mm_slli_epi32(_mm_srli_epi32(x, 3), 6),
                     _mm_and_si128(x, one)),
        _mm_or_si128(_mm_and_si128(_mm_slli_epi32(x, 1), _mm_set1_epi32(4)),
                     _mm_and_si128(_mm_slli_epi32(x, 2), _mm_set1_epi32(16))));
}

/* the part that depends on the memory row (w texels wide, so w * 8 < 2^15) */
static inline __attribute__((always_inline)) __m128i
lanes_tiled_row(__m128i row, int w)
{
    __m128i tiles = _mm_madd_epi16(_mm_srli_epi32(row, 3),
                                   _mm_set1_epi32(w * 8));

    return _mm_or_si128(
        _mm_or_si128(tiles, _mm_and_si128(_mm_slli_epi32(row, 1),
                                          _mm_set1_epi32(2))),
        _mm_or_si128(_mm_and_si128(_mm_slli_epi32(row, 2), _mm_set1_epi32(8)),
                     _mm_and_si128(_mm_slli_epi32(row, 3),
                                   _mm_set1_epi32(32))));
}


/*
 * Texel words of four lanes to the components texel() decodes, 8 bits each
 * (RGB565 and RGBA4 widened as texel() widens them), in bytes 0-3 in the
 * order lanes_order says: RGBA8 as the word holds them (A, B, G, R), RGB8
 * B, G, R, 0, the others R, G, B and A or 0
 */
static inline __attribute__((always_inline)) __m128i
lanes_decode(__m128i v, unsigned fmt)
{
    __m128i r, g, b, a;

    switch (fmt) {
    case PICA_TEXFMT_RGBA8:
    case PICA_TEXFMT_RGB8:
        return v;
    case PICA_TEXFMT_RGB565:        /* ext5 of R and B; G6 << 2 | G6 >> 4 */
        r = _mm_srli_epi32(v, 11);
        r = _mm_or_si128(_mm_slli_epi32(r, 3), _mm_srli_epi32(r, 2));
        g = _mm_and_si128(_mm_srli_epi32(v, 5), _mm_set1_epi32(63));
        g = _mm_or_si128(_mm_slli_epi32(g, 2), _mm_srli_epi32(g, 4));
        b = _mm_and_si128(v, _mm_set1_epi32(31));
        b = _mm_or_si128(_mm_slli_epi32(b, 3), _mm_srli_epi32(b, 2));
        return _mm_or_si128(_mm_or_si128(r, _mm_slli_epi32(g, 8)),
                            _mm_slli_epi32(b, 16));
    default:                        /* RGBA4: n * 17 = n << 4 | n */
        r = _mm_srli_epi32(v, 12);
        g = _mm_and_si128(_mm_srli_epi32(v, 8), _mm_set1_epi32(15));
        b = _mm_and_si128(_mm_srli_epi32(v, 4), _mm_set1_epi32(15));
        a = _mm_and_si128(v, _mm_set1_epi32(15));
        v = _mm_or_si128(_mm_or_si128(r, _mm_slli_epi32(g, 8)),
                         _mm_or_si128(_mm_slli_epi32(b, 16),
                                      _mm_slli_epi32(a, 24)));
        return _mm_or_si128(v, _mm_slli_epi32(v, 4));
    }
}


/*
 * The linear filter of unit 0's level 0 at the quad's four pixels; false
 * (nothing written) when a wrap gave the border colour, which the
 * per-pixel code then fetches.
 */
static inline __attribute__((always_inline)) bool
lanes_linear(const PicaTexUnit *u, const PicaTri *tri, __m128 b0, __m128 b1,
             __m128 b2, uint8_t tex[4][4], unsigned fmt, unsigned ws,
             unsigned wt, bool any)
{
    const int w = u->w, h = u->h;
    __m128 s = _mm_add_ps(_mm_add_ps(_mm_mul_ps(b0, _mm_set1_ps(tri->tc[0][0])),
                                     _mm_mul_ps(b1, _mm_set1_ps(tri->tc[1][0]))),
                          _mm_mul_ps(b2, _mm_set1_ps(tri->tc[2][0])));
    __m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(b0, _mm_set1_ps(tri->tc[0][1])),
                                     _mm_mul_ps(b1, _mm_set1_ps(tri->tc[1][1]))),
                          _mm_mul_ps(b2, _mm_set1_ps(tri->tc[2][1])));
    __m128 x = _mm_sub_ps(_mm_mul_ps(s, _mm_set1_ps((float)w)),
                          _mm_set1_ps(0.5f));
    __m128 y = _mm_sub_ps(_mm_mul_ps(t, _mm_set1_ps((float)h)),
                          _mm_set1_ps(0.5f));
    __m128i i0, j0, s0, s1, t0, t1, x0, x1, r0, r1;
    __m128 fi0 = lanes_to_texel(x, &i0), fj0 = lanes_to_texel(y, &j0);
    __m128i ax = lanes_weight(_mm_sub_ps(x, fi0));
    __m128i ay = lanes_weight(_mm_sub_ps(y, fj0));
    __m128i c[4], v, hm1 = _mm_set1_epi32(h - 1);
    uint32_t idx[4][4] __attribute__((aligned(16)));
    const uint8_t *data = u->data;
    int k;

    if (any) {
        s0 = lanes_wrap_any(i0, 0, w, ws);
        s1 = lanes_wrap_any(i0, 1, w, ws);
        t0 = lanes_wrap_any(j0, 0, h, wt);
        t1 = lanes_wrap_any(j0, 1, h, wt);
        if (_mm_movemask_ps(_mm_castsi128_ps(
                _mm_or_si128(_mm_or_si128(s0, s1), _mm_or_si128(t0, t1))))) {
            return false;
        }
    } else {
        __m128 one = _mm_set1_ps(1.0f);

        s0 = lanes_wrap(fi0, w, ws);
        s1 = lanes_wrap(_mm_add_ps(fi0, one), w, ws);
        t0 = lanes_wrap(fj0, h, wt);
        t1 = lanes_wrap(_mm_add_ps(fj0, one), h, wt);
    }
    /* texel row t is memory row h - 1 - t */
    x0 = lanes_tiled_x(s0);
    x1 = lanes_tiled_x(s1);
    r0 = lanes_tiled_row(_mm_sub_epi32(hm1, t0), w);
    r1 = lanes_tiled_row(_mm_sub_epi32(hm1, t1), w);
    _mm_store_si128((__m128i *)idx[0], _mm_add_epi32(x0, r0));
    _mm_store_si128((__m128i *)idx[1], _mm_add_epi32(x1, r0));
    _mm_store_si128((__m128i *)idx[2], _mm_add_epi32(x0, r1));
    _mm_store_si128((__m128i *)idx[3], _mm_add_epi32(x1, r1));
    for (k = 0; k < 4; k++) {
        c[k] = lanes_decode(_mm_setr_epi32(lanes_word(data, fmt, idx[k][0]),
                                           lanes_word(data, fmt, idx[k][1]),
                                           lanes_word(data, fmt, idx[k][2]),
                                           lanes_word(data, fmt, idx[k][3])),
                            fmt);
    }
    /* c[0..3]: texels (s0, t0), (s1, t0), (s0, t1), (s1, t1) */
    v = pica_filter8_lanes(c[0], c[1], c[2], c[3], ax, ay, lanes_order(fmt));
    if (fmt != PICA_TEXFMT_RGBA8 && fmt != PICA_TEXFMT_RGBA4) {
        /* four texels of alpha 255 filter to (255 * 65536 + 32768) >> 16 */
        v = _mm_or_si128(v, _mm_set1_epi32((int32_t)0xFF000000u));
    }
    _mm_storeu_si128((__m128i *)tex, v);
    return true;
}

/* lanes_linear at a quad's pixels, from the rasteriser's weights */
static inline __attribute__((always_inline)) bool
quad_linear_lanes(const PicaTexUnit *u, const PicaTri *tri, const G3DQuad *q,
                  uint8_t tex[4][4], unsigned fmt, unsigned ws, unsigned wt,
                  bool any)
{
    return lanes_linear(u, tri,
                        _mm_setr_ps(q->bary[0][0], q->bary[1][0],
                                    q->bary[2][0], q->bary[3][0]),
                        _mm_setr_ps(q->bary[0][1], q->bary[1][1],
                                    q->bary[2][1], q->bary[3][1]),
                        _mm_setr_ps(q->bary[0][2], q->bary[1][2],
                                    q->bary[2][2], q->bary[3][2]),
                        tex, fmt, ws, wt, any);
}
#endif

/*
 * ---- per-draw samplers ------------------------------------------------------
 *
 * The common case of one plain 2D texture in unit 0 whose filter cannot
 * change with the level of detail (one level, the same filter for
 * magnification and minification: sample() then always reads level 0 with
 * it) in one of the common formats. The same code as pica_texunit_quad's
 * path for it, instantiated per format and filter so that no per-texel
 * switch, level choice or unit loop remains.
 */
static inline __attribute__((always_inline)) void
quad_unit0(const PicaTexUnit *u, const PicaTri *tri, const G3DQuad *q,
           uint8_t tex[4][4], unsigned fmt, bool linear, unsigned wrap_st)
{
    unsigned ws = wrap_st < 4 ? wrap_st : u->wrap_s;
    unsigned wt = wrap_st < 4 ? wrap_st : u->wrap_t;
    unsigned p;

#ifdef __SSE2__
    if (linear && quad_linear_lanes(u, tri, q, tex, fmt, ws, wt,
                                    wrap_st >= 4)) {
        return;
    }
#endif
    for (p = 0; p < 4; p++) {
        const float *b = q->bary[p];

        if (q->mask & (1u << p)) {
            float s = g3d_interp(b, tri->tc[0][0], tri->tc[1][0], tri->tc[2][0]);
            float t = g3d_interp(b, tri->tc[0][1], tri->tc[1][1], tri->tc[2][1]);

            sample_level_fmt(u, fmt, ws, wt, u->data, 0, linear, s, t, tex[p]);
        }
    }
}


/*
 * One sampler per format, filter and wrap mode (the same on both axes:
 * REPEAT or CLAMP_TO_EDGE; ANY: the unit's own, whatever they are).
 */
#define QU_nearest false
#define QU_linear true
#define QU_WRAP_REPEAT PICA_WRAP_REPEAT
#define QU_WRAP_EDGE PICA_WRAP_CLAMP_TO_EDGE
#define QU_WRAP_ANY 4

#define QUAD_UNIT0(fmt, filt, wrap)                                         \
    static void quad_##fmt##_##filt##_##wrap(const PicaTexUnit *u,         \
                                             const PicaTri *tri,           \
                                             const G3DQuad *q,             \
                                             uint8_t tex[4][4])            \
    {                                                                      \
        quad_unit0(u, tri, q, tex, PICA_TEXFMT_##fmt, QU_##filt,           \
                   QU_WRAP_##wrap);                                        \
    }
#define QUAD_UNIT0_WRAPS(fmt, filt)                                         \
    QUAD_UNIT0(fmt, filt, REPEAT)                                          \
    QUAD_UNIT0(fmt, filt, EDGE)                                            \
    QUAD_UNIT0(fmt, filt, ANY)
#define QUAD_UNIT0_FORMAT(fmt)                                              \
    QUAD_UNIT0_WRAPS(fmt, nearest)                                         \
    QUAD_UNIT0_WRAPS(fmt, linear)

QUAD_UNIT0_FORMAT(RGBA8)
QUAD_UNIT0_FORMAT(RGB8)
QUAD_UNIT0_FORMAT(RGB565)
QUAD_UNIT0_FORMAT(RGBA4)

#define QUAD_ROW(fmt) {                                                     \
    { quad_##fmt##_nearest_REPEAT, quad_##fmt##_nearest_EDGE,              \
      quad_##fmt##_nearest_ANY },                                          \
    { quad_##fmt##_linear_REPEAT, quad_##fmt##_linear_EDGE,                \
      quad_##fmt##_linear_ANY } }

/*
 * The bilinear samplers again for AVX: the same instructions in their
 * three-operand (VEX) forms, which save the register copies; no FMA, so
 * every product and sum is rounded as in the SSE2 ones. Chosen when
 * g3d_use_avx() says so.
 */
#if defined(__SSE2__) && defined(__x86_64__) && defined(__GNUC__)
#define PICA_TEXUNIT_AVX 1
#define QUAD_UNIT0_AVX(fmt, wrap)                                           \
    __attribute__((target("avx")))                                         \
    static void quad_##fmt##_linear_##wrap##_avx(const PicaTexUnit *u,     \
                                                 const PicaTri *tri,       \
                                                 const G3DQuad *q,         \
                                                 uint8_t tex[4][4])        \
    {                                                                      \
        quad_unit0(u, tri, q, tex, PICA_TEXFMT_##fmt, true,                \
                   QU_WRAP_##wrap);                                        \
    }
#define QUAD_UNIT0_AVX_FORMAT(fmt)                                          \
    QUAD_UNIT0_AVX(fmt, REPEAT)                                            \
    QUAD_UNIT0_AVX(fmt, EDGE)                                              \
    QUAD_UNIT0_AVX(fmt, ANY)

QUAD_UNIT0_AVX_FORMAT(RGBA8)
QUAD_UNIT0_AVX_FORMAT(RGB8)
QUAD_UNIT0_AVX_FORMAT(RGB565)
QUAD_UNIT0_AVX_FORMAT(RGBA4)

#define QUAD_ROW_AVX(fmt) {                                                 \
    quad_##fmt##_linear_REPEAT_avx, quad_##fmt##_linear_EDGE_avx,          \
    quad_##fmt##_linear_ANY_avx }
#endif

#ifdef __SSE2__
/*
 * The bilinear samplers of REPEAT and CLAMP_TO_EDGE (which never reach the
 * border colour) for spans: the weights in lanes (pica_texunit_choose_lanes)
 */
#define LANES_UNIT0(fmt, wrap, suffix, attr)                                \
    attr static void lanes_##fmt##_##wrap##suffix(const PicaTexUnit *u,    \
                                                  const PicaTri *tri,      \
                                                  const __m128 bar[3],     \
                                                  uint8_t tex[4][4])       \
    {                                                                      \
        lanes_linear(u, tri, bar[0], bar[1], bar[2], tex,                  \
                     PICA_TEXFMT_##fmt, QU_WRAP_##wrap, QU_WRAP_##wrap,    \
                     false);                                               \
    }
#define LANES_UNIT0_FORMAT(fmt, suffix, attr)                               \
    LANES_UNIT0(fmt, REPEAT, suffix, attr)                                 \
    LANES_UNIT0(fmt, EDGE, suffix, attr)
#define LANES_UNIT0_ALL(suffix, attr)                                       \
    LANES_UNIT0_FORMAT(RGBA8, suffix, attr)                                \
    LANES_UNIT0_FORMAT(RGB8, suffix, attr)                                 \
    LANES_UNIT0_FORMAT(RGB565, suffix, attr)                               \
    LANES_UNIT0_FORMAT(RGBA4, suffix, attr)
#define LANES_ROW(fmt, suffix) {                                            \
    lanes_##fmt##_REPEAT##suffix, lanes_##fmt##_EDGE##suffix }

LANES_UNIT0_ALL(, )
#ifdef PICA_TEXUNIT_AVX
LANES_UNIT0_ALL(_avx, __attribute__((target("avx"))))
#endif
#endif

#ifdef PICA_TEXLANES8
#define PICA_TEXUNIT_AVX2 1
#define LANES8_UNIT0(fmt, wrap)                                             \
    __attribute__((target("avx2")))                                        \
    static __m256i lanes8_##fmt##_##wrap(const PicaTexUnit *u,             \
                                         const PicaTri *tri,               \
                                         const __m256 bar[3])              \
    {                                                                      \
        return lanes8_linear(u, tri, bar, PICA_TEXFMT_##fmt,               \
                             QU_WRAP_##wrap);                              \
    }
#define LANES8_UNIT0_FORMAT(fmt)                                            \
    LANES8_UNIT0(fmt, REPEAT)                                              \
    LANES8_UNIT0(fmt, EDGE)
LANES8_UNIT0_FORMAT(RGBA8)
LANES8_UNIT0_FORMAT(RGB8)
LANES8_UNIT0_FORMAT(RGB565)
LANES8_UNIT0_FORMAT(RGBA4)
#define LANES8_ROW(fmt) { lanes8_##fmt##_REPEAT, lanes8_##fmt##_EDGE }
#endif

PicaTexQuadFn *pica_texunit_choose_unit0(const PicaTexState *ts)
{
    static PicaTexQuadFn *const fns[5][2][3] = {
        [PICA_TEXFMT_RGBA8] = QUAD_ROW(RGBA8),
        [PICA_TEXFMT_RGB8] = QUAD_ROW(RGB8),
        [PICA_TEXFMT_RGB565] = QUAD_ROW(RGB565),
        [PICA_TEXFMT_RGBA4] = QUAD_ROW(RGBA4),
    };
#ifdef PICA_TEXUNIT_AVX
    static PicaTexQuadFn *const fns_avx[5][3] = {
        [PICA_TEXFMT_RGBA8] = QUAD_ROW_AVX(RGBA8),
        [PICA_TEXFMT_RGB8] = QUAD_ROW_AVX(RGB8),
        [PICA_TEXFMT_RGB565] = QUAD_ROW_AVX(RGB565),
        [PICA_TEXFMT_RGBA4] = QUAD_ROW_AVX(RGBA4),
    };
#endif
    const PicaTexUnit *u = &ts->unit[0];
    unsigned wrap = 2;

    if (ts->active != 1 || u->projection || u->cube || u->shadow ||
        u->min_level != 0 || u->max_level != 0 ||
        u->min_linear != u->mag_linear || u->fmt >= G_N_ELEMENTS(fns) ||
        !fns[u->fmt][0][0]) {
        return NULL;
    }
    if (u->wrap_s == u->wrap_t && u->wrap_s == PICA_WRAP_REPEAT) {
        wrap = 0;
    } else if (u->wrap_s == u->wrap_t &&
               u->wrap_s == PICA_WRAP_CLAMP_TO_EDGE) {
        wrap = 1;
    }
#ifdef PICA_TEXUNIT_AVX
    if (u->mag_linear && g3d_use_avx()) {
        return fns_avx[u->fmt][wrap];
    }
#endif
    return fns[u->fmt][u->mag_linear][wrap];
}

#ifdef G3D_WEIGHTS_AVX
PicaTexLanes8Fn *pica_texunit_choose_lanes8(const PicaTexState *ts)
{
#ifdef PICA_TEXUNIT_AVX2
    static PicaTexLanes8Fn *const fns[5][2] = {
        [PICA_TEXFMT_RGBA8] = LANES8_ROW(RGBA8),
        [PICA_TEXFMT_RGB8] = LANES8_ROW(RGB8),
        [PICA_TEXFMT_RGB565] = LANES8_ROW(RGB565),
        [PICA_TEXFMT_RGBA4] = LANES8_ROW(RGBA4),
    };
    const PicaTexUnit *u = &ts->unit[0];

    /* pica_texunit_choose_lanes's samplers, where the CPU has AVX2 */
    if (!g3d_use_avx2() || !pica_texunit_choose_lanes(ts)) {
        return NULL;
    }
    return fns[u->fmt][u->wrap_s == PICA_WRAP_CLAMP_TO_EDGE];
#else
    return NULL;
#endif
}
#endif

#ifdef __SSE2__
PicaTexLanesFn *pica_texunit_choose_lanes(const PicaTexState *ts)
{
    static PicaTexLanesFn *const fns[2][5][2] = { {
        [PICA_TEXFMT_RGBA8] = LANES_ROW(RGBA8, ),
        [PICA_TEXFMT_RGB8] = LANES_ROW(RGB8, ),
        [PICA_TEXFMT_RGB565] = LANES_ROW(RGB565, ),
        [PICA_TEXFMT_RGBA4] = LANES_ROW(RGBA4, ),
#ifdef PICA_TEXUNIT_AVX
    }, {
        [PICA_TEXFMT_RGBA8] = LANES_ROW(RGBA8, _avx),
        [PICA_TEXFMT_RGB8] = LANES_ROW(RGB8, _avx),
        [PICA_TEXFMT_RGB565] = LANES_ROW(RGB565, _avx),
        [PICA_TEXFMT_RGBA4] = LANES_ROW(RGBA4, _avx),
#endif
    } };
    const PicaTexUnit *u = &ts->unit[0];

    /* pica_texunit_choose_unit0's bilinear REPEAT and CLAMP_TO_EDGE ones */
    if (!pica_texunit_choose_unit0(ts) || !u->mag_linear ||
        u->wrap_s != u->wrap_t || (u->wrap_s != PICA_WRAP_REPEAT &&
                                   u->wrap_s != PICA_WRAP_CLAMP_TO_EDGE)) {
        return NULL;
    }
    return fns[g3d_use_avx()][u->fmt]
              [u->wrap_s == PICA_WRAP_CLAMP_TO_EDGE];
}
#endif
