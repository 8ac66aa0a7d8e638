/*
 * The Texture Unit (ATTILA ref. Texture Registers, Texture Formats,
 * Texture Tiling; attila-sim TextureEmulator.cpp):
 * LOD from the quad's derivatives, mip selection, wrap, texel addresses
 * (Morton tiling or render-buffer tiling), texel conversion, nearest /
 * bilinear / trilinear filtering, then PCF compare, D3D9 R<->B swap,
 * reverse order and sRGB. And LDA: a vertex attribute read by index.
 *
 * The arithmetic follows the simulator's TextureEmulator: coordinates and
 * weights in float (u = wrap(s) * width; i = floor(u - 0.5), a = frac(u -
 * 0.5)), texel indices as unsigned integers (so a negative index wraps to a
 * huge value: CLAMP then reads the black border texel), bilinear weights
 * applied as t * (1 - a) * (1 - b), left to right.
 *
 * Compressed 2D / cube textures (DXT1/3/5, LATC1/2) are read through the
 * decoded space of texture-compression.c.
 *
 * Not modelled: anisotropic filtering (max anisotropy > 1 samples as
 * isotropic), texture borders (never implemented by ATTILA).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include "common/fpformat.h"
#include "common/fragment.h"

#include <glib.h>
#include <math.h>

#define MAX_LOD_BIAS 1000.0f
/* GL's magnification threshold c (TextureEmulator C1, C2) */
#define C1 0.5f
#define C2 0.0f

static inline float clampf(float v, float lo, float hi)
{
    return (lo <= v && v <= hi) ? v : (v < lo ? lo : hi);
}

/* (u32bit) of a float floor, as x86 converts: negatives wrap */
static inline uint32_t to_u32(double f)
{
    if (!(f > -2147483648.0 && f < 4294967296.0)) {
        return 0x80000000u;
    }
    return (uint32_t)(int64_t)f;
}

static uint32_t texel_bytes(uint32_t format)
{
    switch (format) {
    case ATTILA_FMT_ALPHA8:
    case ATTILA_FMT_LUMINANCE8:
    case ATTILA_FMT_LUMINANCE8_SIGNED:
    case ATTILA_FMT_LUMINANCE4_ALPHA4:
    case ATTILA_FMT_LUMINANCE6_ALPHA2:
    case ATTILA_FMT_INTENSITY8:
    case ATTILA_FMT_RGB332:
    case ATTILA_FMT_RGBA2222:
        return 1;
    case ATTILA_FMT_ALPHA12:
    case ATTILA_FMT_ALPHA16:
    case ATTILA_FMT_DEPTH_COMPONENT16:
    case ATTILA_FMT_LUMINANCE12:
    case ATTILA_FMT_LUMINANCE16:
    case ATTILA_FMT_LUMINANCE8_ALPHA8:
    case ATTILA_FMT_LUMINANCE8_ALPHA8_SIGNED:
    case ATTILA_FMT_LUMINANCE12_ALPHA4:
    case ATTILA_FMT_INTENSITY12:
    case ATTILA_FMT_INTENSITY16:
    case ATTILA_FMT_RGB444:
    case ATTILA_FMT_RGB555:
    case ATTILA_FMT_RGB565:
    case ATTILA_FMT_RGBA4444:
    case ATTILA_FMT_RGBA5551:
    case ATTILA_FMT_R16:
    case ATTILA_FMT_R16F:
        return 2;
    case ATTILA_FMT_RGBA16:
    case ATTILA_FMT_RGBA16F:
    case ATTILA_FMT_RG32F:
        return 8;
    case ATTILA_FMT_RGBA32F:
        return 16;
    default:
        return 4;
    }
}

uint32_t attila_texture_bytes(uint32_t format)
{
    return texel_bytes(format);
}

/* texel value to (r, g, b, a), the formulas of ATTILA ref. Texture Formats */
static inline void texel_convert(uint32_t fmt, const uint8_t *d, float o[4])
{
    uint32_t v = d[0] | d[1] << 8 | d[2] << 16 | (uint32_t)d[3] << 24;
    uint32_t v16 = v & 0xffff;
    int k;

    o[0] = o[1] = o[2] = 0.0f;
    o[3] = 1.0f;
    switch (fmt) {
    case ATTILA_FMT_ALPHA8:
        o[3] = (float)d[0] / 255.0f;
        break;
    case ATTILA_FMT_ALPHA12:
        o[3] = (float)(v16 & 0xfff) / 4095.0f;
        break;
    case ATTILA_FMT_ALPHA16:
        o[3] = (float)v16 / 65535.0f;
        break;
    case ATTILA_FMT_DEPTH_COMPONENT24:
        o[0] = o[1] = o[2] = (float)(v & 0xffffff) / 16777215.0f;
        break;
    case ATTILA_FMT_LUMINANCE8:
        o[0] = o[1] = o[2] = (float)d[0] / 255.0f;
        break;
    case ATTILA_FMT_LUMINANCE8_SIGNED:
        o[0] = o[1] = o[2] = (float)(int8_t)d[0] / 127.0f;
        break;
    case ATTILA_FMT_LUMINANCE12:
        o[0] = o[1] = o[2] = (float)(v16 & 0xfff) / 4095.0f;
        break;
    case ATTILA_FMT_LUMINANCE16:
        o[0] = o[1] = o[2] = (float)v16 / 65535.0f;
        break;
    case ATTILA_FMT_LUMINANCE4_ALPHA4:
        o[0] = o[1] = o[2] = (float)(d[0] >> 4) / 15.0f;
        o[3] = (float)(d[0] & 15) / 15.0f;
        break;
    case ATTILA_FMT_LUMINANCE6_ALPHA2:
        o[0] = o[1] = o[2] = (float)(d[0] >> 2) / 63.0f;
        o[3] = (float)(d[0] & 3) / 3.0f;
        break;
    case ATTILA_FMT_LUMINANCE8_ALPHA8:
        o[0] = o[1] = o[2] = (float)d[0] / 255.0f;
        o[3] = (float)d[1] / 255.0f;
        break;
    case ATTILA_FMT_LUMINANCE8_ALPHA8_SIGNED:
        /* reference defect ATTILA-24, docs/references.md */
        o[0] = o[1] = o[2] = (float)(int8_t)d[0] / 127.0f;
        o[3] = (float)(int8_t)d[1] / 127.0f;
        break;
    case ATTILA_FMT_LUMINANCE12_ALPHA4:
        o[0] = o[1] = o[2] = (float)(v16 >> 4) / 4095.0f;
        o[3] = (float)(v16 & 15) / 15.0f;
        break;
    case ATTILA_FMT_LUMINANCE12_ALPHA12:
        o[0] = o[1] = o[2] = (float)((v >> 12) & 0xfff) / 4095.0f;
        o[3] = (float)(v & 0xfff) / 4095.0f;
        break;
    case ATTILA_FMT_LUMINANCE16_ALPHA16:
        o[0] = o[1] = o[2] = (float)v16 / 65535.0f;
        o[3] = (float)(v >> 16) / 65535.0f;
        break;
    case ATTILA_FMT_INTENSITY8:
        o[0] = o[1] = o[2] = o[3] = (float)d[0] / 255.0f;
        break;
    case ATTILA_FMT_INTENSITY12:
        o[0] = o[1] = o[2] = o[3] = (float)(v16 & 0xfff) / 4095.0f;
        break;
    case ATTILA_FMT_INTENSITY16:
        o[0] = o[1] = o[2] = o[3] = (float)v16 / 65535.0f;
        break;
    case ATTILA_FMT_RGB332:
        /* the standard layout (reference defect ATTILA-25, docs/references.md);
         * the simulator shifts g by 3 */
        o[0] = (float)(d[0] >> 5) / 7.0f;
        o[1] = (float)((d[0] >> 2) & 7) / 7.0f;
        o[2] = (float)(d[0] & 3) / 3.0f;
        break;
    case ATTILA_FMT_RGB444:
        o[0] = (float)((v16 >> 8) & 15) / 15.0f;
        o[1] = (float)((v16 >> 4) & 15) / 15.0f;
        o[2] = (float)(v16 & 15) / 15.0f;
        break;
    case ATTILA_FMT_RGB555:
        o[0] = (float)((v16 >> 10) & 31) / 31.0f;
        o[1] = (float)((v16 >> 5) & 31) / 31.0f;
        o[2] = (float)(v16 & 31) / 31.0f;
        break;
    case ATTILA_FMT_RGB565:
        o[0] = (float)(v16 >> 11) / 31.0f;
        o[1] = (float)((v16 >> 5) & 63) / 63.0f;
        o[2] = (float)(v16 & 31) / 31.0f;
        break;
    case ATTILA_FMT_RGB888:
        for (k = 0; k < 3; k++) {
            o[k] = (float)d[k] / 255.0f;
        }
        break;
    case ATTILA_FMT_RGB101010:
        o[0] = (float)((v >> 20) & 0x3ff) / 1023.0f;
        o[1] = (float)((v >> 10) & 0x3ff) / 1023.0f;
        o[2] = (float)(v & 0x3ff) / 1023.0f;
        break;
    case ATTILA_FMT_RGBA2222:
        for (k = 0; k < 4; k++) {
            o[k] = (float)((d[0] >> (6 - 2 * k)) & 3) / 3.0f;
        }
        break;
    case ATTILA_FMT_RGBA4444:
        for (k = 0; k < 4; k++) {
            o[k] = (float)((v16 >> (12 - 4 * k)) & 15) / 15.0f;
        }
        break;
    case ATTILA_FMT_RGBA5551:
        o[0] = (float)(v16 >> 11) / 31.0f;
        o[1] = (float)((v16 >> 6) & 31) / 31.0f;
        o[2] = (float)((v16 >> 1) & 31) / 31.0f;
        o[3] = (float)(v16 & 1);
        break;
    case ATTILA_FMT_RGBA8888:
        /* d / 255 from common/fpformat.h's table: the same quotients */
        for (k = 0; k < 4; k++) {
            o[k] = g3d_unorm2f(d[k], 8);
        }
        break;
    case ATTILA_FMT_RGBA1010102:
        o[0] = (float)(v >> 22) / 1023.0f;
        o[1] = (float)((v >> 12) & 0x3ff) / 1023.0f;
        o[2] = (float)((v >> 2) & 0x3ff) / 1023.0f;
        o[3] = (float)(v & 3) / 3.0f;
        break;
    case ATTILA_FMT_R16:
        o[0] = (float)v16 / 65535.0f;
        break;
    case ATTILA_FMT_RG16:
        o[0] = (float)v16 / 65535.0f;
        o[1] = (float)(v >> 16) / 65535.0f;
        break;
    case ATTILA_FMT_RGBA16:
        for (k = 0; k < 4; k++) {
            o[k] = (float)(d[2 * k] | d[2 * k + 1] << 8) / 65535.0f;
        }
        break;
    case ATTILA_FMT_R16F:
        o[0] = g3d_float_unpack(v16, &g3d_fp16_ieee);
        break;
    case ATTILA_FMT_RG16F:
        o[0] = g3d_float_unpack(v16, &g3d_fp16_ieee);
        o[1] = g3d_float_unpack(v >> 16, &g3d_fp16_ieee);
        break;
    case ATTILA_FMT_RGBA16F:
        for (k = 0; k < 4; k++) {
            o[k] = g3d_float_unpack(d[2 * k] | d[2 * k + 1] << 8, &g3d_fp16_ieee);
        }
        break;
    case ATTILA_FMT_R32F:
        memcpy(&o[0], d, 4);
        break;
    case ATTILA_FMT_RG32F:
        memcpy(o, d, 8);
        break;
    case ATTILA_FMT_RGBA32F:
        memcpy(o, d, 16);
        break;
    default:
        /* DEPTH_COMPONENT16/32, RGB121212: not implemented (ATTILA ref. Texture
         * Formats) */
        break;
    }
}

/*
 * How texels are read, chosen per texture when the draw is latched
 * (draw-state.c, AttilaTexState.rgba8_morton): any texture through the
 * general code, or uncompressed RGBA8888 2D/cube textures in Morton order
 * without compare or sRGB. The second is the same code (texel_fetch and
 * sample_level are inlined with the path a constant), so the compiler drops
 * the format, mode, layout and compression switches; g3d_general_path
 * keeps every texture on the first, for the tests that compare them.
 */
typedef enum TexelPath {
    TEXELS_ANY,
    TEXELS_RGBA8_MORTON,
} TexelPath;

#define TEXEL_PATH_INLINE static inline __attribute__((always_inline))

TEXEL_PATH_INLINE void texel_finish(const AttilaTexState *ts, TexelPath path,
                                    const uint8_t *p, float ref, float o[4]);

/* the texel at (i, j, k) of level l, face f: converted and post-processed */
TEXEL_PATH_INLINE void texel_fetch(const AttilaTexState *ts, TexelPath path,
                                   uint32_t l, uint32_t f, uint32_t i,
                                   uint32_t j, uint32_t k, float ref,
                                   float o[4])
{
    static const uint8_t zero[16];
    const bool rgba8 = path == TEXELS_RGBA8_MORTON;
    const uint32_t mode = rgba8 ? ATTILA_TEX_2D : ts->mode;
    const AttilaTexLevel *lv = &ts->level[l][f];
    uint8_t dec[64 + 16];       /* a decoded block and a texel past it */
    const uint8_t *p = zero;

    if (lv->ptr && i < lv->width && j < lv->height && k < lv->depth) {
        size_t off;

        if (mode == ATTILA_TEX_1D) {
            off = (size_t)i * ts->bytes;        /* 1D textures are linear */
        } else {
            /* 3D: slice k of the level starts k * w * h texels in */
            size_t slice = mode == ATTILA_TEX_3D ?
                           (size_t)k * lv->width * lv->height : 0;
            if (!rgba8 && ts->blocking == ATTILA_TXBLOCK_FRAMEBUFFER) {
                AttilaPixelMapper pm;
                attila_pixel_mapper_init(&pm, lv->width, lv->height, 1, 4);
                off = (slice + attila_pixel_address(&pm, i, j) / 4) * ts->bytes;
            } else {
                off = (slice + attila_texel_offset(i, j, ATTILA_TEX_BLOCK_DIM,
                                                   ATTILA_TEX_SBLOCK_DIM,
                                                   attila_log2_ceil(lv->width))) *
                      (rgba8 ? 4 : ts->bytes);
            }
        }
        if (rgba8 || !ts->tc_block) {
            p = lv->ptr + off;
        } else {
            /* the texel's bytes in the decoded space (ATTILA ref. Texture
             * Registers, TextureCompression): its block, decoded into dec[] at
             * its Morton positions */
            uint32_t blk_bytes = 16 * ts->tc_texel;
            uint64_t v = (uint64_t)lv->skew + off;
            uint32_t in = (uint32_t)(v % blk_bytes);

            /* cleared here only: a per-texel memset of an uncompressed
             * texture's fetch would be wasted */
            memset(dec, 0, sizeof(dec));
            attila_tc_decode(ts->compression,
                             lv->ptr + (v / blk_bytes) * ts->tc_block,
                             in / ts->tc_texel,
                             (in % ts->tc_texel + ts->bytes + ts->tc_texel - 1) /
                             ts->tc_texel, dec);
            p = dec + in;
        }
    }
    texel_finish(ts, path, p, ref, o);
}

/* texel_fetch's conversion and post-processing of the texel's bytes p */
TEXEL_PATH_INLINE void texel_finish(const AttilaTexState *ts, TexelPath path,
                                    const uint8_t *p, float ref, float o[4])
{
    const bool rgba8 = path == TEXELS_RGBA8_MORTON;
    int k;

    texel_convert(rgba8 ? ATTILA_FMT_RGBA8888 : ts->format, p, o);
    if (!rgba8 && ts->compare) {
        /* PCF: texel FUNC reference, 0 or 1 (ATTILA ref. Registers, L1571) */
        float r = g3d_compare_f(attila_cmp_map[ts->compare_func], o[0], ref) ?
                  1.0f : 0.0f;
        o[0] = o[1] = o[2] = r;
    }
    if (ts->d3d9_conv) {
        float t = o[0];     /* D3D9 A8R8G8B8 is stored B, G, R, A */
        o[0] = o[2];
        o[2] = t;
    }
    if (ts->reverse) {
        float t[4] = { o[3], o[2], o[1], o[0] };
        memcpy(o, t, sizeof(t));
    }
    if (!rgba8 && ts->srgb) {
        for (k = 0; k < 3; k++) {
            o[k] = (float)pow((double)o[k], 2.2);
        }
    }
}

/*
 * The bounds TextureEmulator::applyWrap clamps a normalized coordinate to,
 * for every mode but REPEAT (MIRRORED_REPEAT's are CLAMP_TO_EDGE's)
 */
static inline void wrap_bounds(uint32_t mode, uint32_t size, float *lo,
                               float *hi)
{
    switch (mode) {
    case ATTILA_CLAMP_TO_EDGE:
    case ATTILA_MIRRORED_REPEAT:
        *lo = 1.0f / (2.0f * (float)size);
        *hi = 1.0f - *lo;
        break;
    case ATTILA_CLAMP_TO_BORDER:
        *lo = -1.0f / (2.0f * (float)size);
        *hi = 1.0f - *lo;
        break;
    default:        /* CLAMP */
        *lo = 0.0f;
        *hi = 1.0f;
        break;
    }
}

/* TextureEmulator::applyWrap, normalized coordinate (inlined: a call
 * cost as much as REPEAT's wrap) */
TEXEL_PATH_INLINE float wrap_coord(uint32_t mode, float a, uint32_t size)
{
    float lo, hi;

    if (mode == ATTILA_REPEAT) {
        return a - floorf(a);
    }
    if (mode == ATTILA_MIRRORED_REPEAT) {
        a = (to_u32(floor((double)a)) & 1) ? 1.0f - (a - (float)floor((double)a)) :
            a - (float)floor((double)a);
    }
    wrap_bounds(mode, size, &lo, &hi);
    return clampf(a, lo, hi);
}

/* the largest texel index a clamping wrap mode leaves: CLAMP and
 * CLAMP_TO_BORDER keep the far border's (black) */
static inline uint32_t wrap_index_max(uint32_t mode, uint32_t size)
{
    return mode == ATTILA_CLAMP_TO_EDGE || mode == ATTILA_MIRRORED_REPEAT ?
           size - 1 : size;
}

/*
 * TextureEmulator::applyWrap, texel index. Not common/texaddr.h: the
 * simulator's indices are unsigned (a negative one is huge), so REPEAT
 * adds the size before the modulo and clamping keeps the far edge.
 */
static uint32_t wrap_index(uint32_t mode, uint32_t i, uint32_t size)
{
    if (mode == ATTILA_REPEAT) {
        /* a power of two divides 2^32: the same remainder without a
         * division */
        return (size & (size - 1)) ? (i + size) % size : i & (size - 1);
    }
    return MIN(i, wrap_index_max(mode, size));
}

#ifdef __SSE2__
/*
 * The bilinear sum of texels t[0] t[1] / t[2] t[3] with the weights a, b
 * and their complements na = 1 - a, nb = 1 - b, sample_level's products
 * and sums in its order; t and the weights are vectors of one width
 * (__m128 or __m256: GCC's vector operators give MULPS/ADDPS at either,
 * and no FMA, which none of these targets has), so every width's filter
 * shares it.
 */
#define BILINEAR_SUM(t, a, na, b, nb) \
    ((t)[0] * (na) * (nb) + (t)[1] * (a) * (nb) + (t)[2] * (na) * (b) + \
     (t)[3] * (a) * (b))

/*
 * The bilinear filter of four RGBA8888 texels (p: 0 1 / 2 3) with the
 * weights a, b, their four channels in the lanes of one vector: each
 * texel's bytes converted as g3d_unorm2f does (exact, see
 * g3d_unorm2f_sse2), the weights' products and sums in sample_level's
 * order. The D3D9 swap and the reversed order move channels only, so they
 * move the filtered channels once instead of each texel's.
 */
static inline void filter_rgba8(const AttilaTexState *ts,
                                const uint8_t *const p[4], float a, float b,
                                float o[4])
{
    __m128 tv[4], va = _mm_set1_ps(a), vb = _mm_set1_ps(b);
    __m128 na = _mm_set1_ps(1.0f - a), nb = _mm_set1_ps(1.0f - b);
    __m128 ov;
    int q;

    for (q = 0; q < 4; q++) {
        uint32_t word;
        __m128i z = _mm_setzero_si128(), bytes;

        memcpy(&word, p[q], 4);
        bytes = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)word), z);
        tv[q] = g3d_unorm2f_sse2(
            _mm_cvtepi32_ps(_mm_unpacklo_epi16(bytes, z)), 8);
    }
    ov = BILINEAR_SUM(tv, va, na, vb, nb);
    if (ts->d3d9_conv) {
        ov = _mm_shuffle_ps(ov, ov, _MM_SHUFFLE(3, 0, 1, 2));
    }
    if (ts->reverse) {
        ov = _mm_shuffle_ps(ov, ov, _MM_SHUFFLE(0, 1, 2, 3));
    }
    _mm_storeu_ps(o, ov);
}
#endif

TEXEL_PATH_INLINE void sample_level(const AttilaTexState *ts, TexelPath path,
                                    uint32_t l, uint32_t face, bool linear,
                                    const float s[3], float o[4])
{
    const uint32_t mode = path == TEXELS_RGBA8_MORTON ? ATTILA_TEX_2D :
                          ts->mode;
    const AttilaTexLevel *lv = &ts->level[l][face];
    uint32_t w = lv->width, h = lv->height, d = lv->depth;
    float u = s[0], v = s[1], r = s[2], ref = s[2];
    float t[8][4];
    int k;

    if (w == 0) {
        /* a level the draw could not describe (an empty or refused
         * texture): black, without the NaNs a zero size would give */
        memset(o, 0, 4 * sizeof(*o));
        return;
    }
    if (!ts->non_normalized) {
        u = wrap_coord(ts->wrap[0], u, w);
        v = wrap_coord(ts->wrap[1], v, h);
        r = wrap_coord(ts->wrap[2], r, d);
        if (ts->v_invert && mode != ATTILA_TEX_1D) {
            v = 1.0f - v;
        }
        u = u * (float)w;
        v = v * (float)h;
        r = r * (float)d;
    }
    if (!linear) {
        uint32_t i = to_u32(floor((double)u));
        uint32_t j = mode == ATTILA_TEX_1D ? 0 : to_u32(floor((double)v));
        uint32_t kk = mode == ATTILA_TEX_3D ? to_u32(floor((double)r)) : 0;
        /* point sampling addresses the unwrapped index (TextureEmulator) */
        texel_fetch(ts, path, l, face, i, j, kk, ref, o);
        return;
    }
    {
        uint32_t i = to_u32(floor((double)(u - 0.5f)));
        uint32_t j = to_u32(floor((double)(v - 0.5f)));
        uint32_t kk = to_u32(floor((double)(r - 0.5f)));
        float a = (u - 0.5f) - (float)floor((double)(u - 0.5f));
        float b = (v - 0.5f) - (float)floor((double)(v - 0.5f));
        float cw = (r - 0.5f) - (float)floor((double)(r - 0.5f));
        uint32_t i0 = wrap_index(ts->wrap[0], i, w);
        uint32_t i1 = wrap_index(ts->wrap[0], i + 1, w);

        if (mode == ATTILA_TEX_1D) {
            texel_fetch(ts, path, l, face, i0, 0, 0, ref, t[0]);
            texel_fetch(ts, path, l, face, i1, 0, 0, ref, t[1]);
            for (k = 0; k < 4; k++) {
                o[k] = t[1][k] * a + t[0][k] * (1.0f - a);
            }
            return;
        }
        {
            uint32_t j0 = wrap_index(ts->wrap[1], j, h);
            uint32_t j1 = wrap_index(ts->wrap[1], j + 1, h);
            uint32_t k0 = 0, k1 = 0;
            int n = 1;

            if (mode == ATTILA_TEX_3D) {
                k0 = wrap_index(ts->wrap[2], kk, d);
                k1 = wrap_index(ts->wrap[2], kk + 1, d);
                n = 2;
            }
            if (path == TEXELS_RGBA8_MORTON) {
                /*
                 * The Morton offset is a sum of fields of i alone and of
                 * j alone (attila_texel_offset: interleaved bits, block
                 * and superblock indices), so offset(i, j) = offset(i, 0)
                 * + offset(0, j) in its 32 bits: the two columns' and two
                 * rows' parts once for the four texels, which texel_fetch
                 * reads where they are in the level, else zero bytes.
                 */
                static const uint8_t zero[4];
                uint32_t lw = attila_log2_ceil(w);
                uint32_t x[2] = {
                    attila_texel_offset(i0, 0, ATTILA_TEX_BLOCK_DIM,
                                        ATTILA_TEX_SBLOCK_DIM, lw),
                    attila_texel_offset(i1, 0, ATTILA_TEX_BLOCK_DIM,
                                        ATTILA_TEX_SBLOCK_DIM, lw),
                };
                uint32_t y[2] = {
                    attila_texel_offset(0, j0, ATTILA_TEX_BLOCK_DIM,
                                        ATTILA_TEX_SBLOCK_DIM, lw),
                    attila_texel_offset(0, j1, ATTILA_TEX_BLOCK_DIM,
                                        ATTILA_TEX_SBLOCK_DIM, lw),
                };
                bool xin[2] = { i0 < w, i1 < w };
                bool yin[2] = { lv->ptr && d > 0 && j0 < h,
                                lv->ptr && d > 0 && j1 < h };
                int q;
#ifdef __SSE2__
                const uint8_t *p[4];

                for (q = 0; q < 4; q++) {
                    p[q] = xin[q & 1] && yin[q >> 1] ?
                        lv->ptr + (size_t)(x[q & 1] + y[q >> 1]) * 4 : zero;
                }
                filter_rgba8(ts, p, a, b, o);
                return;
#else
                for (q = 0; q < 4; q++) {
                    const uint8_t *p = xin[q & 1] && yin[q >> 1] ?
                        lv->ptr + (size_t)(x[q & 1] + y[q >> 1]) * 4 : zero;
                    texel_finish(ts, path, p, ref, t[q]);
                }
#endif
            } else {
                texel_fetch(ts, path, l, face, i0, j0, k0, ref, t[0]);
                texel_fetch(ts, path, l, face, i1, j0, k0, ref, t[1]);
                texel_fetch(ts, path, l, face, i0, j1, k0, ref, t[2]);
                texel_fetch(ts, path, l, face, i1, j1, k0, ref, t[3]);
            }
            if (n == 2) {
                texel_fetch(ts, path, l, face, i0, j0, k1, ref, t[4]);
                texel_fetch(ts, path, l, face, i1, j0, k1, ref, t[5]);
                texel_fetch(ts, path, l, face, i0, j1, k1, ref, t[6]);
                texel_fetch(ts, path, l, face, i1, j1, k1, ref, t[7]);
                for (k = 0; k < 4; k++) {
                    o[k] = t[0][k] * (1.0f - a) * (1.0f - b) * (1.0f - cw) +
                           t[1][k] * a * (1.0f - b) * (1.0f - cw) +
                           t[2][k] * (1.0f - a) * b * (1.0f - cw) +
                           t[3][k] * a * b * (1.0f - cw) +
                           t[4][k] * (1.0f - a) * (1.0f - b) * cw +
                           t[5][k] * a * (1.0f - b) * cw +
                           t[6][k] * (1.0f - a) * b * cw +
                           t[7][k] * a * b * cw;
                }
                return;
            }
            for (k = 0; k < 4; k++) {
                o[k] = t[0][k] * (1.0f - a) * (1.0f - b) +
                       t[1][k] * a * (1.0f - b) +
                       t[2][k] * (1.0f - a) * b +
                       t[3][k] * a * b;
            }
        }
    }
}

#ifdef __SSE2__
/*
 * floorf of four lanes, bit for bit: below 2^23 in magnitude the
 * truncation, less one where it rounded up, with x's sign (floorf(-0) is
 * -0); from 2^23 up a float is an integer and is its own floor, and so
 * are infinities and NaN (the compare is true for them: not less).
 */
static inline __m128 floor_lanes(__m128 x)
{
    const __m128 sign = _mm_set1_ps(-0.0f);
    __m128 whole = _mm_cmpnlt_ps(_mm_andnot_ps(sign, x),
                                 _mm_set1_ps(8388608.0f));
    __m128 t = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));

    t = _mm_sub_ps(t, _mm_and_ps(_mm_cmpgt_ps(t, x), _mm_set1_ps(1.0f)));
    t = _mm_or_ps(t, _mm_and_ps(x, sign));
    return _mm_or_ps(_mm_and_ps(whole, x), _mm_andnot_ps(whole, t));
}

/* wrap_coord in lanes for every mode but MIRRORED_REPEAT; clampf's
 * compares (NaN to the upper bound) */
static inline __m128 wrap_coord_lanes(uint32_t mode, __m128 a, uint32_t size)
{
    __m128 lo, hi, in, below;
    float flo, fhi;

    if (mode == ATTILA_REPEAT) {
        return _mm_sub_ps(a, floor_lanes(a));
    }
    wrap_bounds(mode, size, &flo, &fhi);
    lo = _mm_set1_ps(flo);
    hi = _mm_set1_ps(fhi);
    in = _mm_and_ps(_mm_cmple_ps(lo, a), _mm_cmple_ps(a, hi));
    below = _mm_cmplt_ps(a, lo);
    return _mm_or_ps(_mm_and_ps(in, a),
                     _mm_andnot_ps(in, _mm_or_ps(_mm_and_ps(below, lo),
                                                 _mm_andnot_ps(below, hi))));
}

/* unsigned a < b in lanes (SSE2 compares signed: flip the sign bits) */
static inline __m128i below_u32(__m128i a, __m128i b)
{
    const __m128i s = _mm_set1_epi32((int)0x80000000u);

    return _mm_cmplt_epi32(_mm_xor_si128(a, s), _mm_xor_si128(b, s));
}

/* wrap_index in lanes (REPEAT of a power-of-two size or a clamp) */
static inline __m128i wrap_index_lanes(uint32_t mode, __m128i i, uint32_t size)
{
    __m128i mx, big;

    if (mode == ATTILA_REPEAT) {
        return _mm_and_si128(i, _mm_set1_epi32((int)(size - 1)));
    }
    mx = _mm_set1_epi32((int)wrap_index_max(mode, size));
    big = below_u32(mx, i);
    return _mm_or_si128(_mm_and_si128(big, mx), _mm_andnot_si128(big, i));
}

/*
 * attila_texel_offset(i, 0) (col) or (0, j) (row) in lanes: the block's and
 * superblock's Morton bits are the index's low ATTILA_TEX_BLOCK_DIM +
 * ATTILA_TEX_SBLOCK_DIM bits spread to the even (column) or odd (row) bits,
 * the superblock's column adds i >> those bits shifted past them, its row
 * j >> them shifted past a padded row of superblocks (sb_shift)
 */
#define MORTON_BITS (ATTILA_TEX_BLOCK_DIM + ATTILA_TEX_SBLOCK_DIM)
G_STATIC_ASSERT(MORTON_BITS <= 8);
typedef uint32_t MortonU4 __attribute__((vector_size(16)));
typedef uint32_t MortonU8 __attribute__((vector_size(32)));
/*
 * The index's low MORTON_BITS bits (a byte at most) spread to every other
 * bit of 16, in lanes of uint32_t of either width (MortonU4, MortonU8:
 * GCC's vector operators give the SSE2 and the AVX2 forms alike)
 */
#define MORTON_SPREAD(i) ({ \
    __typeof__(i) s_ = (i) & ((1u << MORTON_BITS) - 1); \
    s_ = (s_ | s_ << 4) & 0x0f0fu; \
    s_ = (s_ | s_ << 2) & 0x3333u; \
    (s_ | s_ << 1) & 0x5555u; })

static inline __m128i morton_part_lanes(__m128i i, int odd, uint32_t sb_shift)
{
    __m128i x = (__m128i)MORTON_SPREAD((MortonU4)i);

    if (odd) {
        x = _mm_slli_epi32(x, 1);
    }
    return _mm_add_epi32(
        _mm_sll_epi32(_mm_srli_epi32(i, MORTON_BITS),
                      _mm_cvtsi32_si128((int)sb_shift)), x);
}

/*
 * a quad's filtered texels by channel (lane i fragment i of ch[c]) to its
 * four results, each moved by the D3D9 swap and the reversed order (false
 * for channels already in their places)
 */
static inline void store_quad(bool d3d9_conv, bool reverse, __m128 ch[4],
                              float *const out[4])
{
    int q;

    _MM_TRANSPOSE4_PS(ch[0], ch[1], ch[2], ch[3]);
    for (q = 0; q < 4; q++) {
        if (d3d9_conv) {
            ch[q] = _mm_shuffle_ps(ch[q], ch[q], _MM_SHUFFLE(3, 0, 1, 2));
        }
        if (reverse) {
            ch[q] = _mm_shuffle_ps(ch[q], ch[q], _MM_SHUFFLE(0, 1, 2, 3));
        }
        _mm_storeu_ps(out[q], ch[q]);
    }
}

/*
 * filter_rgba8 for a quad's four fragments, one lane a fragment: texel q
 * of each footprint in w[q], the weights a, b by fragment; channel by
 * channel the same conversion (g3d_unorm2f_sse2), products and sums in
 * the same order, then each fragment's four channels moved by the D3D9
 * swap and the reversed order
 */
static inline void filter_rgba8_quad(const AttilaTexState *ts,
                                     const __m128i w[4], __m128 a, __m128 b,
                                     float *const out[4])
{
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128i byte = _mm_set1_epi32(0xff);
    __m128 na = _mm_sub_ps(one, a), nb = _mm_sub_ps(one, b), ch[4], t[4];
    int c, q;

    for (c = 0; c < 4; c++) {
        for (q = 0; q < 4; q++) {
            __m128i v = _mm_and_si128(
                _mm_srl_epi32(w[q], _mm_cvtsi32_si128(8 * c)), byte);
            t[q] = g3d_unorm2f_sse2(_mm_cvtepi32_ps(v), 8);
        }
        ch[c] = BILINEAR_SUM(t, a, na, b, nb);
    }
    store_quad(ts->d3d9_conv, ts->reverse, ch, out);
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * filter_rgba8_quad with two channels a 256-bit vector (AVX2, where
 * AttilaTexState.filter_avx2): result channel 2h of the four fragments
 * in lanes 0-3, channel 2h + 1 in lanes 4-7, each texel word's two bytes
 * taken by one byte shuffle for the shift and mask. The shuffle's picks
 * (k->pick, quad_prepare's) take each result channel's byte after the
 * D3D9 swap and the reversed order, which only move channels, so the
 * results need no moves. Every lane the same conversion
 * (g3d_unorm2f_avx, g3d_unorm2f_sse2's operations), products and sums in
 * the same order, with 1 - a and 1 - b as filter_rgba8_quad computes them
 */
static inline __attribute__((always_inline, target("avx2"))) void
filter_rgba8_quad_avx2_body(const AttilaTexQuad *k, const __m128i w[4],
                            __m128 a, __m128 b, float *const out[4])
{
    const __m128 one = _mm_set1_ps(1.0f);
    const __m128 na = _mm_sub_ps(one, a), nb = _mm_sub_ps(one, b);
    const __m256 a8 = _mm256_set_m128(a, a), b8 = _mm256_set_m128(b, b);
    const __m256 na8 = _mm256_set_m128(na, na);
    const __m256 nb8 = _mm256_set_m128(nb, nb);
    __m256i wq[4];
    __m128 ch[4];
    int h, q;

    for (q = 0; q < 4; q++) {
        wq[q] = _mm256_broadcastsi128_si256(w[q]);
    }
    for (h = 0; h < 2; h++) {
        const __m256i pick = _mm256_loadu_si256((const __m256i *)k->pick[h]);
        __m256 t[4], v;

        for (q = 0; q < 4; q++) {
            t[q] = g3d_unorm2f_avx(_mm256_cvtepi32_ps(
                _mm256_shuffle_epi8(wq[q], pick)), 8);
        }
        v = BILINEAR_SUM(t, a8, na8, b8, nb8);
        ch[2 * h] = _mm256_castps256_ps128(v);
        ch[2 * h + 1] = _mm256_extractf128_ps(v, 1);
    }
    store_quad(false, false, ch, out);
}

/* the same as a call, for the SSE2 lanes' footprints (a level too wide
 * for the AVX2 instance's gathers) */
__attribute__((target("avx2")))
static void filter_rgba8_quad_avx2(const AttilaTexQuad *k,
                                   const __m128i w[4], __m128 a, __m128 b,
                                   float *const out[4])
{
    filter_rgba8_quad_avx2_body(k, w, a, b, out);
}

/*
 * sample_quad_linear_rgba8's footprints with AVX2 (filter_avx2): u's four
 * fragments in lanes 0-3 and v's in lanes 4-7 of one vector, so each step
 * is one operation for both axes, with each axis's constants in its half:
 * the wrap (REPEAT's a - floor(a), the clamps' compares), V inversion,
 * scale, - 0.5, floor (VROUNDPS toward minus infinity: floorf bit for bit,
 * -0, infinities and NaN included), weight and truncation as there; the
 * index wrap as one unsigned minimum (REPEAT's mask with no limit, a
 * clamp's limit with no mask); the Morton parts with per-half shifts
 * (VPSLLVD: a count past 31 gives 0, as PSLLD's); two texels of the four
 * fragments a gather. Levels of more than 2^14 texels a side are left to
 * the SSE2 lanes: below that every offset is under 2^29 (a 2^14 square's
 * last superblock starts at 2^28), so the gather's signed index holds it.
 * The per-axis constants and the checks are quad_prepare's (k), made with
 * the draw's state. Contraction off in case the build's CPU has FMA
 * (G3D_NO_CONTRACT).
 */
#define QUAD_GATHER_MAX (1u << 14)

__attribute__((target("avx2"))) G3D_NO_CONTRACT
static void sample_quad_linear_rgba8_avx2(const AttilaTexState *ts,
                                          const AttilaTexQuad *k,
                                          const float *const c[4],
                                          float *const out[4])
{
    const __m256i sign = _mm256_set1_epi32((int)0x80000000u);
    const __m256i am = _mm256_loadu_si256((const __m256i *)k->mask);
    const __m256i mx = _mm256_loadu_si256((const __m256i *)k->max);
    const __m256i dim = _mm256_loadu_si256((const __m256i *)k->dim);
    const __m256i shift = _mm256_loadu_si256((const __m256i *)k->shift);
    const __m256i rows = _mm256_loadu_si256((const __m256i *)k->rows);
    const __m256i odd = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
    __m128 t0, t1;
    __m256 uv, t, fl, wt;
    __m256i i, idx[2], part[2], in[2], tex[2];
    __m128i wq[4];
    int q;

    /* u and v of the four fragments */
    t0 = _mm_unpacklo_ps(_mm_loadu_ps(c[0]), _mm_loadu_ps(c[1]));
    t1 = _mm_unpacklo_ps(_mm_loadu_ps(c[2]), _mm_loadu_ps(c[3]));
    uv = _mm256_set_m128(_mm_movehl_ps(t1, t0), _mm_movelh_ps(t0, t1));

    /* wrap_coord_lanes: the clamps, REPEAT's fraction where an axis has it */
    if (k->rep_both) {
        t = _mm256_sub_ps(uv, _mm256_floor_ps(uv));
    } else {
        const __m256 lo = _mm256_loadu_ps(k->lo), hi = _mm256_loadu_ps(k->hi);
        __m256 inr, below;

        inr = _mm256_and_ps(_mm256_cmp_ps(lo, uv, _CMP_LE_OS),
                            _mm256_cmp_ps(uv, hi, _CMP_LE_OS));
        below = _mm256_cmp_ps(uv, lo, _CMP_LT_OS);
        t = _mm256_blendv_ps(_mm256_blendv_ps(hi, lo, below), uv, inr);
        if (k->rep_any) {
            t = _mm256_blendv_ps(t, _mm256_sub_ps(uv, _mm256_floor_ps(uv)),
                                 _mm256_loadu_ps((const float *)k->rep));
        }
    }
    if (ts->v_invert) {
        t = _mm256_blend_ps(t, _mm256_sub_ps(_mm256_set1_ps(1.0f), t), 0xf0);
    }
    t = _mm256_sub_ps(_mm256_mul_ps(t, _mm256_loadu_ps(k->scale)),
                      _mm256_set1_ps(0.5f));
    fl = _mm256_floor_ps(t);
    wt = _mm256_sub_ps(t, fl);
    /* to_u32 as in the SSE2 lanes: NaN gives 0x80000000 */
    i = _mm256_cvttps_epi32(fl);

    /* wrap_index_lanes: REPEAT's mask (no limit) or a clamp's limit (no
     * mask), each axis's in its half */
    for (q = 0; q < 2; q++) {
        __m256i j = q ? _mm256_add_epi32(i, _mm256_set1_epi32(1)) : i, x;

        idx[q] = _mm256_min_epu32(_mm256_and_si256(j, am), mx);
        /* morton_part_lanes: the low bits spread, v's to the odd bits */
        x = (__m256i)MORTON_SPREAD((MortonU8)idx[q]);
        x = _mm256_sllv_epi32(x, odd);
        part[q] = _mm256_add_epi32(
            _mm256_sllv_epi32(_mm256_srli_epi32(idx[q], MORTON_BITS), shift),
            x);
        /* below_u32(idx, dim), v's also by the level's mapping */
        in[q] = _mm256_and_si256(
            _mm256_cmpgt_epi32(_mm256_xor_si256(dim, sign),
                               _mm256_xor_si256(idx[q], sign)), rows);
    }
    /*
     * texels 0 and 1 (rows j0), 2 and 3 (rows j1) of the four fragments a
     * vector: the columns i0 | i1 with the row's part in both halves; an
     * outside texel reads the level's first word, then is cleared
     */
    {
        __m256i cols = _mm256_permute2x128_si256(part[0], part[1], 0x20);
        __m256i cin = _mm256_permute2x128_si256(in[0], in[1], 0x20);

        for (q = 0; q < 2; q++) {
            __m256i m = _mm256_and_si256(
                cin, _mm256_permute2x128_si256(in[q], in[q], 0x11));
            __m256i off = _mm256_and_si256(m, _mm256_add_epi32(
                cols, _mm256_permute2x128_si256(part[q], part[q], 0x11)));
            tex[q] = _mm256_and_si256(m, _mm256_i32gather_epi32(
                (const int *)k->base, off, 4));
        }
    }
    wq[0] = _mm256_castsi256_si128(tex[0]);
    wq[1] = _mm256_extracti128_si256(tex[0], 1);
    wq[2] = _mm256_castsi256_si128(tex[1]);
    wq[3] = _mm256_extracti128_si256(tex[1], 1);
    filter_rgba8_quad_avx2_body(k, wq, _mm256_castps256_ps128(wt),
                                _mm256_extractf128_ps(wt, 1), out);
}
#endif

/*
 * sample_level's bilinear RGBA8888 Morton read for a quad's four fragments
 * at once in SSE2 lanes, one lane a fragment (quad_prepare below has
 * checked the level, coordinates and wraps): the wrap, scale,
 * floors, weights, texel indices and their offsets with the same float
 * operations, then the footprints' filter (filter_rgba8_quad).
 */
static void sample_quad_linear_rgba8_sse2(const AttilaTexState *ts,
                                         const AttilaTexQuad *tq,
                                         const float *const c[4],
                                         float *const out[4])
{
    static const uint8_t zero[4];
    const AttilaTexLevel *lv = tq->lv;
    uint32_t w = lv->width, h = lv->height, dim[2] = { w, h };
    uint32_t lw = attila_log2_ceil(w), row_l2 = lw > MORTON_BITS ?
                  lw - MORTON_BITS : 0;
    const uint8_t *base;
    __m128 uv[4], wt[2];
    __m128i idx[2][2], part[2][2], in[2][2], rows, texels[4];
    uint32_t off[4];
    int k, q, f;

    for (k = 0; k < 4; k++) {
        uv[k] = _mm_loadu_ps(c[k]);
    }
    _MM_TRANSPOSE4_PS(uv[0], uv[1], uv[2], uv[3]);
    rows = _mm_set1_epi32(lv->ptr && lv->depth > 0 ? -1 : 0);
    for (k = 0; k < 2; k++) {
        __m128 t = wrap_coord_lanes(ts->wrap[k], uv[k], dim[k]), fl;
        __m128i i;

        if (k == 1 && ts->v_invert) {
            t = _mm_sub_ps(_mm_set1_ps(1.0f), t);
        }
        t = _mm_sub_ps(_mm_mul_ps(t, _mm_set1_ps((float)dim[k])),
                       _mm_set1_ps(0.5f));
        fl = floor_lanes(t);
        wt[k] = _mm_sub_ps(t, fl);
        /* to_u32: t is at most the size, so the floor is below 2^31 and
         * the truncation exact; NaN gives 0x80000000 as to_u32 does */
        i = _mm_cvttps_epi32(fl);
        idx[k][0] = wrap_index_lanes(ts->wrap[k], i, dim[k]);
        idx[k][1] = wrap_index_lanes(ts->wrap[k],
                                     _mm_add_epi32(i, _mm_set1_epi32(1)),
                                     dim[k]);
        for (q = 0; q < 2; q++) {
            part[k][q] = morton_part_lanes(idx[k][q], k,
                                           k ? row_l2 + 2 * MORTON_BITS :
                                               2 * MORTON_BITS);
            in[k][q] = below_u32(idx[k][q], _mm_set1_epi32((int)dim[k]));
            if (k) {
                in[k][q] = _mm_and_si128(in[k][q], rows);
            }
        }
    }
    /*
     * The texels' words by fragment, without a branch: a footprint texel
     * outside the level reads the level's first word (or a zero one when
     * the level is unmapped), then its word is cleared
     */
    base = lv->ptr && lv->depth > 0 ? lv->ptr : zero;
    for (q = 0; q < 4; q++) {
        __m128i m = _mm_and_si128(in[0][q & 1], in[1][q >> 1]);
        uint32_t word[4];

        _mm_storeu_si128((__m128i *)off,
                         _mm_and_si128(m, _mm_add_epi32(part[0][q & 1],
                                                        part[1][q >> 1])));
        for (f = 0; f < 4; f++) {
            memcpy(&word[f], base + (size_t)off[f] * 4, 4);
        }
        texels[q] = _mm_and_si128(m, _mm_loadu_si128((const __m128i *)word));
    }
#if defined(__x86_64__) && defined(__GNUC__)
    if (ts->filter_avx2) {
        filter_rgba8_quad_avx2(tq, texels, wt[0], wt[1], out);
        return;
    }
#endif
    filter_rgba8_quad(ts, texels, wt[0], wt[1], out);
}

/*
 * sample_level's bilinear RGBA8888 Morton read for a quad's four fragments
 * at once, by the path quad_prepare chose (k->path): false (nothing done)
 * for ATTILA_TEXQ_NONE. Inline: the shader's quad read
 * (attila_texture_sample_quad) calls it once a quad.
 */
static inline __attribute__((always_inline)) bool
sample_quad_linear_rgba8(const AttilaTexState *ts, const AttilaTexQuad *k,
                         const float *const c[4], float *const out[4])
{
#if defined(__x86_64__) && defined(__GNUC__)
    if (k->path == ATTILA_TEXQ_AVX2) {
        sample_quad_linear_rgba8_avx2(ts, k, c, out);
        return true;
    }
#endif
    if (k->path == ATTILA_TEXQ_SSE2) {
        sample_quad_linear_rgba8_sse2(ts, k, c, out);
        return true;
    }
    return false;
}
#endif

/*
 * sample_quad_linear_rgba8's checks and constants for level lv (the base
 * level's, ts->quad, once a draw; a cube face's once a quad):
 * ATTILA_TEXQ_NONE for what it leaves to sample_level (an undescribed
 * level, non-normalised coordinates, whose floors may pass 2^31,
 * MIRRORED_REPEAT, REPEAT of a size that is not a power of two); else the
 * AVX2 instance where the draw chose it (filter_avx2) and the level is
 * small enough for its gathers, the SSE2 lanes otherwise. The AVX2
 * footprints' constants, u's in lanes 0-3 and v's in 4-7: the clamps'
 * bounds (wrap_bounds; 0 and 1 for REPEAT, whose fraction replaces
 * them), the scale, REPEAT's index mask (no limit) or a clamp's limit
 * (no mask), the Morton row shifts, the mapping; and the AVX2 filter's
 * byte picks.
 */
static void quad_prepare(const AttilaTexState *ts, const AttilaTexLevel *lv,
                         AttilaTexQuad *k)
{
    memset(k, 0, sizeof(*k));
#ifdef __SSE2__
    {
        static const uint8_t zero[4];
        const uint32_t dim[2] = { lv->width, lv->height };
        const bool mapped = lv->ptr && lv->depth > 0;
        const bool rep[2] = { ts->wrap[0] == ATTILA_REPEAT,
                              ts->wrap[1] == ATTILA_REPEAT };
        uint8_t src[4] = { 0, 1, 2, 3 }, s;
        uint32_t lw, row_l2;
        int a, n;

        if (dim[0] == 0 || ts->non_normalized) {
            return;
        }
        for (a = 0; a < 2; a++) {
            if (ts->wrap[a] == ATTILA_MIRRORED_REPEAT ||
                (rep[a] && (dim[a] & (dim[a] - 1)))) {
                return;
            }
        }
        k->lv = lv;
        k->path = ATTILA_TEXQ_SSE2;
#if defined(__x86_64__) && defined(__GNUC__)
        if (ts->filter_avx2 && dim[0] <= QUAD_GATHER_MAX &&
            dim[1] <= QUAD_GATHER_MAX) {
            k->path = ATTILA_TEXQ_AVX2;
        }
#endif
        k->base = mapped ? lv->ptr : zero;
        k->rep_any = rep[0] || rep[1];
        k->rep_both = rep[0] && rep[1];
        lw = attila_log2_ceil(dim[0]);
        row_l2 = lw > MORTON_BITS ? lw - MORTON_BITS : 0;
        for (n = 0; n < 8; n++) {
            float lo = 0.0f, hi = 1.0f;

            a = n >> 2;
            if (!rep[a]) {
                wrap_bounds(ts->wrap[a], dim[a], &lo, &hi);
            }
            k->lo[n] = lo;
            k->hi[n] = hi;
            k->scale[n] = (float)dim[a];
            k->rep[n] = rep[a] ? ~0u : 0;
            k->mask[n] = rep[a] ? dim[a] - 1 : ~0u;
            k->max[n] = rep[a] ? ~0u : wrap_index_max(ts->wrap[a], dim[a]);
            k->dim[n] = dim[a];
            k->shift[n] = 2 * MORTON_BITS + (a ? row_l2 : 0);
            k->rows[n] = a && !mapped ? 0 : ~0u;
        }
        /*
         * result channel j is the texel's byte src[j]: the D3D9 swap
         * (store_quad's, channels 2 1 0 3), then the reversed order
         */
        if (ts->d3d9_conv) {
            s = src[0];
            src[0] = src[2];
            src[2] = s;
        }
        if (ts->reverse) {
            s = src[0];
            src[0] = src[3];
            src[3] = s;
            s = src[1];
            src[1] = src[2];
            src[2] = s;
        }
        /* channel 2h's byte of fragment f's word to lane f, channel
         * 2h + 1's to lane 4 + f (0x80 clears a byte) */
        memset(k->pick, 0x80, sizeof(k->pick));
        for (n = 0; n < 8; n++) {
            k->pick[0][4 * n] = 4 * (n & 3) + src[n >> 2];
            k->pick[1][4 * n] = 4 * (n & 3) + src[2 + (n >> 2)];
        }
    }
#endif
}

void attila_texture_prepare_quad(AttilaTexState *ts)
{
    /* sample_quad's conditions for its LOD-free LINEAR path at the base
     * level; a cube map's face is the quad's (sample_quad) */
    if (!ts->enabled || !ts->rgba8_morton || ts->mode == ATTILA_TEX_CUBEMAP ||
        ts->min_filter != ATTILA_LINEAR || ts->mag_filter != ATTILA_LINEAR) {
        ts->quad.path = ATTILA_TEXQ_NONE;    /* no other field is read */
        return;
    }
    quad_prepare(ts, &ts->level[MIN(ts->min_level,
                                    ATTILA_MAX_TEXTURE_SIZE - 1)][0],
                 &ts->quad);
}

/* the cube face for the quad and its 2D coordinates (selectCubeMapFace) */
static uint32_t cube_face(AttilaVec4 c[4])
{
    uint32_t votes[6] = { 0 }, face = 0, i;
    float rx[4], ry[4], rz[4];

    for (i = 0; i < 4; i++) {
        rx[i] = fabsf(c[i].f[0]);
        ry[i] = fabsf(c[i].f[1]);
        rz[i] = fabsf(c[i].f[2]);
        if (rx[i] >= ry[i]) {
            if (rx[i] > rz[i]) {
                votes[c[i].f[0] < 0 ? 1 : 0]++;
            } else {
                votes[c[i].f[2] < 0 ? 5 : 4]++;
            }
        } else if (ry[i] >= rz[i]) {
            votes[c[i].f[1] < 0 ? 3 : 2]++;
        } else {
            votes[c[i].f[2] < 0 ? 5 : 4]++;
        }
    }
    for (i = 1; i < 6; i++) {
        if (votes[i] > votes[face]) {
            face = i;
        }
    }
    for (i = 0; i < 4; i++) {
        float x = c[i].f[0], y = c[i].f[1], z = c[i].f[2], s, t;
        switch (face) {
        case 0:  s = -z / rx[i]; t = -y / rx[i]; break;
        case 1:  s = z / rx[i];  t = -y / rx[i]; break;
        case 2:  s = x / ry[i];  t = z / ry[i];  break;
        case 3:  s = x / ry[i];  t = -z / ry[i]; break;
        case 4:  s = x / rz[i];  t = -y / rz[i]; break;
        default: s = -x / rz[i]; t = -y / rz[i]; break;
        }
        c[i].f[0] = (s + 1.0f) * 0.5f;
        c[i].f[1] = (t + 1.0f) * 0.5f;
    }
    return face;
}

TEXEL_PATH_INLINE void sample_quad(const AttilaTexState *ts, TexelPath path,
                                   AttilaTexOp op,
                                   const AttilaVec4 coord_in[4],
                                   const float param[4], AttilaVec4 out[4])
{
    AttilaVec4 coord[4];
    uint32_t face = 0, q, base = ts->min_level, f;
    float scale = 1.0f;
    double scale_l2;
    int i;

    memcpy(coord, coord_in, sizeof(coord));
    if (ts->mode == ATTILA_TEX_CUBEMAP) {
        face = cube_face(coord);
    }
    if (path == TEXELS_RGBA8_MORTON && ts->min_filter == ts->mag_filter &&
        (ts->min_filter == ATTILA_NEAREST ||
         ts->min_filter == ATTILA_LINEAR)) {
        /*
         * One filter without mipmaps whether the quad minifies or
         * magnifies (ATTILA ref. Texture Registers, TEXTURE_MIN_FILTER /
         * MAG_FILTER): the LOD below would choose that filter at the base
         * level whatever it is, so this path leaves the LOD out.
         */
        uint32_t l = MIN(base, ATTILA_MAX_TEXTURE_SIZE - 1);

#ifdef __SSE2__
        const float *cp[4] = { coord[0].f, coord[1].f, coord[2].f, coord[3].f };
        float *op[4] = { out[0].f, out[1].f, out[2].f, out[3].f };

        if (ts->min_filter == ATTILA_LINEAR) {
            /* the base level's read was decided with the draw's state */
            AttilaTexQuad face_quad;
            const AttilaTexQuad *k = &ts->quad;

            if (ts->mode == ATTILA_TEX_CUBEMAP) {
                quad_prepare(ts, &ts->level[l][face], &face_quad);
                k = &face_quad;
            }
            if (sample_quad_linear_rgba8(ts, k, cp, op)) {
                return;
            }
        }
#endif
        for (i = 0; i < 4; i++) {
            float s[3] = { coord[i].f[0], coord[i].f[1], coord[i].f[2] };
            sample_level(ts, path, l, face, ts->min_filter == ATTILA_LINEAR,
                         s, out[i].f);
        }
        return;
    }
    if (op != ATTILA_TEXOP_READ_LOD) {
        /* derivatives from the quad (c0 c1 / c2 c3), in texels */
        float w = (float)ts->width, h = (float)ts->height, d = (float)ts->depth;
        float dudx = coord[1].f[0] * w - coord[0].f[0] * w;
        float dvdx = coord[1].f[1] * h - coord[0].f[1] * h;
        float dwdx = coord[1].f[2] * d - coord[0].f[2] * d;
        float dudy = coord[2].f[0] * w - coord[0].f[0] * w;
        float dvdy = coord[2].f[1] * h - coord[0].f[1] * h;
        float dwdy = coord[2].f[2] * d - coord[0].f[2] * d;

        if (ts->non_normalized) {
            dudx = coord[1].f[0] - coord[0].f[0];
            dvdx = coord[1].f[1] - coord[0].f[1];
            dwdx = coord[1].f[2] - coord[0].f[2];
            dudy = coord[2].f[0] - coord[0].f[0];
            dvdy = coord[2].f[1] - coord[0].f[1];
            dwdy = coord[2].f[2] - coord[0].f[2];
        }
        switch (ts->mode) {
        case ATTILA_TEX_1D:
            scale = (float)MAX(fabs((double)dudx), fabs((double)dudy));
            break;
        case ATTILA_TEX_3D:
            scale = (float)MAX(sqrt((double)(dudx * dudx + dvdx * dvdx + dwdx * dwdx)),
                               sqrt((double)(dudy * dudy + dvdy * dvdy + dwdy * dwdy)));
            break;
        default:
            scale = (float)MAX(sqrt((double)(dudx * dudx + dvdx * dvdx)),
                               sqrt((double)(dudy * dudy + dvdy * dvdy)));
            break;
        }
    }
    switch (ts->mode) {
    case ATTILA_TEX_1D:
        q = MIN(ts->width2 + base, ts->max_level);
        break;
    case ATTILA_TEX_3D:
        q = MIN(MAX(ts->width2, MAX(ts->height2, ts->depth2)) + base,
                ts->max_level);
        break;
    default:
        q = MIN(MAX(ts->width2, ts->height2) + base, ts->max_level);
        break;
    }
    q = MIN(q, ts->nlevels ? ts->nlevels - 1 : 0);

    /* calculateLOD: log2(scale) + clamped biases, then the LOD clamp;
     * TXL gives the lod as the bias of a scale of 1. The scale is the
     * quad's: its logarithm once for the four. */
    scale_l2 = log((double)scale) / log(2.0);
    for (i = 0; i < 4; i++) {
        float lod, s[3] = { coord[i].f[0], coord[i].f[1], coord[i].f[2] };
        uint32_t filter, d1 = base, d2 = base;
        bool minify;

        lod = (float)(scale_l2 +
                      clampf(ts->lod_bias + ts->unit_lod_bias + param[i],
                             -MAX_LOD_BIAS, MAX_LOD_BIAS));
        lod = clampf(lod, ts->min_lod, ts->max_lod);
        minify = (lod > C1 && ts->mag_filter == ATTILA_LINEAR &&
                  (ts->min_filter == ATTILA_NEAREST_MIPMAP_NEAREST ||
                   ts->min_filter == ATTILA_NEAREST_MIPMAP_LINEAR)) ||
                 lod > C2;
        filter = minify ? ts->min_filter : ts->mag_filter;
        if (minify) {
            switch (filter) {
            case ATTILA_NEAREST_MIPMAP_NEAREST:
            case ATTILA_LINEAR_MIPMAP_NEAREST:
                d1 = lod <= 0.5f ? base :
                     ((float)base + lod <= (float)q + 0.5f) ?
                     to_u32(ceil((double)((float)base + lod + 0.5f))) - 1 : q;
                break;
            case ATTILA_NEAREST_MIPMAP_LINEAR:
            case ATTILA_LINEAR_MIPMAP_LINEAR:
                d1 = base + to_u32(floor((double)lod));
                d1 = d1 <= q ? d1 : q;
                d2 = d1 < q ? d1 + 1 : q;
                break;
            default:
                break;
            }
        }
        d1 = MIN(d1, ATTILA_MAX_TEXTURE_SIZE - 1);
        d2 = MIN(d2, ATTILA_MAX_TEXTURE_SIZE - 1);
        if (filter == ATTILA_NEAREST_MIPMAP_LINEAR ||
            filter == ATTILA_LINEAR_MIPMAP_LINEAR) {
            bool lin = filter == ATTILA_LINEAR_MIPMAP_LINEAR;
            float fr = lod - (float)floor((double)lod);
            if (fr > 0.0f && fr < 1.0f) {
                float t1[4], t2[4];
                sample_level(ts, path, d1, face, lin, s, t1);
                sample_level(ts, path, d2, face, lin, s, t2);
                for (f = 0; f < 4; f++) {
                    out[i].f[f] = t1[f] * (1.0f - fr) + t2[f] * fr;
                }
            } else {
                sample_level(ts, path, fr <= 0.0f ? d1 : d2, face, lin, s,
                             out[i].f);
            }
        } else {
            sample_level(ts, path, d1, face,
                         filter == ATTILA_LINEAR ||
                         filter == ATTILA_LINEAR_MIPMAP_NEAREST, s, out[i].f);
        }
    }
}

bool attila_texture_sample_quad(void *opaque, uint32_t unit,
                                const float *const coord[4],
                                float *const result[4])
{
#ifdef __SSE2__
    AttilaRenderCtx *ctx = opaque;
    const AttilaTexState *ts;

    if (unit >= ATTILA_MAX_TEXTURES) {
        return false;
    }
    /* the checks were made with the draw's state (ts->quad.path) */
    ts = &ctx->ds->tex[unit];
    return sample_quad_linear_rgba8(ts, &ts->quad, coord, result);
#else
    return false;
#endif
}

void attila_texture_sample(void *opaque, AttilaTexOp op, uint32_t unit,
                           const AttilaVec4 coord[4], const float param[4],
                           AttilaVec4 result[4])
{
    AttilaRenderCtx *ctx = opaque;
    const AttilaDrawState *ds = ctx->ds;
    int i;

    if (op == ATTILA_TEXOP_ATTRIBUTE) {
        /* LDA: the index is the raw bits of coordinate x (calculateAddress) */
        for (i = 0; i < 4; i++) {
            if (!attila_streamer_fetch_attribute(ctx->core, ds, unit,
                                                 coord[i].u[0], &result[i])) {
                memset(&result[i], 0, sizeof(result[i]));
            }
        }
        return;
    }
    if (unit >= ATTILA_MAX_TEXTURES || !ds->tex[unit].enabled) {
        memset(result, 0, 4 * sizeof(*result));
        return;
    }
    if (ds->tex[unit].rgba8_morton) {
        sample_quad(&ds->tex[unit], TEXELS_RGBA8_MORTON, op, coord, param,
                    result);
    } else {
        sample_quad(&ds->tex[unit], TEXELS_ANY, op, coord, param, result);
    }
}
