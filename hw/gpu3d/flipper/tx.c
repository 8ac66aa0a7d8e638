/*
 * TX: the texture unit. Texture maps 0-7 (BP TX_SETMODE0/1, SETIMAGE0-3,
 * SETTLUT), TLUT loads into the TMEM high bank (BP LOADTLUT0/1), texel
 * decoding of every format from its tiled big-endian layout in MEM1,
 * wrapping, nearest/bilinear filtering, mipmaps and the LOD (doc 5.11.1
 * 0x64/0x65, 0x80-0xBB; YAGCD §5.11.1 BP registers; Dolphin
 * TextureDecoder_Generic.cpp).
 *
 * The arithmetic is that of Dolphin's software renderer (the reference the
 * image tests compare against):
 * - coordinates arrive as s17.7 texels of level 0; bilinear sampling
 *   subtracts half a texel, weights the four texels by 7-bit fractions
 *   and drops 14 bits; trilinear weights two levels by the 4-bit LOD
 *   fraction;
 * - wrap: clamp to [0, size-1]; repeat = coord & (size-1); mirror = the
 *   same after complementing coordinates whose `size` bit is set (the
 *   hardware's AND, so non-power-of-two sizes wrap oddly, as on the
 *   console); wrap mode 3 clamps;
 * - LOD (s28.4) = the float exponent and top 4 mantissa bits of the
 *   largest texel delta across the 2x2 quad (edge: max of the x and y
 *   neighbours; diagonal: their sum), + LODBIAS / 2, linear if the LOD is
 *   above 0 and MIN_FILTER is linear or at/below 0 and MAG_FILTER is;
 *   then clamped: above MAX_LOD to MAX_LOD, else below MIN_LOD to MIN_LOD;
 * - mip mode (MIN_FILTER bits 0-1): 1 nearest (LOD fraction >= 1/2 picks
 *   the next level), 2 linear; level n has (size-1) >> n + 1 texels a side
 *   and follows the previous levels' tiles.
 * Decisions: a level's bytes are whole tiles (libogc GX_GetTexBufferSize;
 * the same as Dolphin's sum for sizes that are multiples of the tile);
 * MAXANISO and LODCLAMP are not modelled (Dolphin ignores them too); mip
 * mode 3 (reserved) samples level LOD >> 4 without blending.
 *
 * TMEM (1 MiB) holds preloaded textures and, in its high bank, TLUTs. A
 * preload (BP PRELOAD_MODE written non-zero) copies COUNT 32-byte lines
 * from PRELOAD_ADDR to the even TMEM address, or for type 3 (RGBA8)
 * COUNT 64-byte tiles whose AR halves go to the even and GB halves to the
 * odd address; a map whose SETIMAGE1.IMAGE_TYPE is 1 reads TMEM from its
 * even address (RGBA8: GB from SETIMAGE2's odd address), its mip levels
 * following level 0 there as in MEM1 (Dolphin's software renderer: the
 * odd half does not advance).
 *
 * Bad input: a texture or mip chain outside MEM1 or TMEM, an unknown
 * format or TLUT format — logged and the map reads (0, 0, 0, 0). A TLUT
 * load or preload from outside MEM1, or one running past its TMEM bank,
 * is logged and skipped (a preload keeps the lines that fit, as Dolphin);
 * TLUT entries past the bank read 0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <math.h>

#include "common/texaddr.h"

/* tile shape: log2 of the tile's width and height in texels, bytes */
static bool tile_shape(unsigned fmt, int *bw, int *bh, int *bytes)
{
    *bytes = 32;
    *bw = *bh = 0;
    switch (fmt) {
    case TX_FMT_I4: case TX_FMT_C4: case TX_FMT_CMPR:
        *bw = 3; *bh = 3;
        return true;
    case TX_FMT_I8: case TX_FMT_IA4: case TX_FMT_C8:
        *bw = 3; *bh = 2;
        return true;
    case TX_FMT_IA8: case TX_FMT_RGB565: case TX_FMT_RGB5A3: case TX_FMT_C14X2:
        *bw = 2; *bh = 2;
        return true;
    case TX_FMT_RGBA8:
        *bw = 2; *bh = 2; *bytes = 64;   /* AR and GB halves */
        return true;
    default:
        return false;
    }
}

static bool is_paletted(unsigned fmt)
{
    return fmt == TX_FMT_C4 || fmt == TX_FMT_C8 || fmt == TX_FMT_C14X2;
}

/* bytes of one level whose sides are wm1 + 1 and hm1 + 1 texels */
static uint32_t level_bytes(unsigned fmt, int wm1, int hm1)
{
    int bw, bh, bytes;

    tile_shape(fmt, &bw, &bh, &bytes);
    return (uint32_t)((wm1 >> bw) + 1) * (uint32_t)((hm1 >> bh) + 1) *
           (uint32_t)bytes;
}

static bool tx_setup(FlipperCore *c, int map, TxMap *m)
{
    uint32_t mode0 = c->bp[BP_TX_REG(BP_TX_SETMODE0, map)];
    uint32_t mode1 = c->bp[BP_TX_REG(BP_TX_SETMODE1, map)];
    uint32_t img0 = c->bp[BP_TX_REG(BP_TX_SETIMAGE0, map)];
    uint32_t img1 = c->bp[BP_TX_REG(BP_TX_SETIMAGE1, map)];
    uint32_t img3 = c->bp[BP_TX_REG(BP_TX_SETIMAGE3, map)];
    uint32_t img2 = c->bp[BP_TX_REG(BP_TX_SETIMAGE2, map)];
    uint32_t tlut = c->bp[BP_TX_REG(BP_TX_SETTLUT, map)];
    uint32_t base, total = 0;
    int bw, bh, bytes, levels = 1, l, maxlod;
    unsigned minf;

    memset(m, 0, sizeof(*m));
    m->fmt = G3D_FIELD_EX32(img0, BP_TX_SETIMAGE0_R, FORMAT);
    m->wm1 = G3D_FIELD_EX32(img0, BP_TX_SETIMAGE0_R, WIDTH_M1);
    m->hm1 = G3D_FIELD_EX32(img0, BP_TX_SETIMAGE0_R, HEIGHT_M1);
    m->wrap_s = G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, WRAP_S);
    m->wrap_t = G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, WRAP_T);
    m->mag_linear = G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, MAG_FILTER);
    minf = G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, MIN_FILTER);
    m->min_linear = (minf >> 2) & 1;
    m->mip = minf & 3;
    m->diag = G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, DIAGLOAD);
    m->lod_bias = (int8_t)G3D_FIELD_EX32(mode0, BP_TX_SETMODE0_R, LODBIAS) >> 1;
    m->min_lod = G3D_FIELD_EX32(mode1, BP_TX_SETMODE1_R, MIN_LOD);
    m->max_lod = G3D_FIELD_EX32(mode1, BP_TX_SETMODE1_R, MAX_LOD);
    m->tlut_fmt = G3D_FIELD_EX32(tlut, BP_TX_SETTLUT_R, FORMAT);

    if (!tile_shape(m->fmt, &bw, &bh, &bytes)) {
        g3d_guest_error("flipper: TX: map %d: format %u is not a texture "
                        "format", map, m->fmt);
        return false;
    }
    if (is_paletted(m->fmt)) {
        uint32_t off = G3D_FIELD_EX32(tlut, BP_TX_SETTLUT_R, TMEM_OFFSET) << 9;
        if (m->tlut_fmt > TLUT_FMT_RGB5A3) {
            g3d_guest_error("flipper: TX: map %d: TLUT format 3", map);
            return false;
        }
        m->tlut = c->tmem + FLIPPER_TMEM_TLUT_BASE + off;
        m->tlut_len = FLIPPER_TMEM_TLUT_SIZE - off;
    }
    if (m->mip) {
        maxlod = MAX(m->max_lod, m->min_lod);
        levels = MIN((maxlod >> 4) + 2, TX_MAX_LEVELS);
    }
    for (l = 0; l < levels; l++) {
        m->level_off[l] = total;
        total += level_bytes(m->fmt, m->wm1 >> l, m->hm1 >> l);
    }
    if (G3D_FIELD_EX32(img1, BP_TX_SETIMAGE1_R, IMAGE_TYPE)) {
        uint32_t even = G3D_FIELD_EX32(img1, BP_TX_SETIMAGE1_R, TMEM_OFFSET) << 5;
        uint32_t odd = G3D_FIELD_EX32(img2, BP_TX_SETIMAGE2_R, TMEM_OFFSET) << 5;
        /* RGBA8: each half holds 32 of a tile's 64 bytes */
        uint32_t gb = m->fmt == TX_FMT_RGBA8 ? level_bytes(m->fmt, m->wm1,
                                                           m->hm1) / 2 : 0;
        if (!g3d_range_ok(even, total, 0, FLIPPER_TMEM_SIZE) ||
            !g3d_range_ok(odd, gb, 0, FLIPPER_TMEM_SIZE)) {
            g3d_guest_error("flipper: TX: map %d: preloaded texture at TMEM "
                            "0x%05x/0x%05x (%u bytes) is outside TMEM", map,
                            even, odd, total);
            return false;
        }
        m->src = c->tmem + even;
        m->src_gb = gb ? c->tmem + odd : NULL;
        return true;
    }
    base = G3D_FIELD_EX32(img3, BP_TX_SETIMAGE3_R, IMAGE_BASE) << 5;
    if (!flipper_mem1_ok(c, base, total)) {
        g3d_guest_error("flipper: TX: map %d: texture at 0x%08x (%u bytes) "
                        "is outside MEM1", map, base, total);
        return false;
    }
    m->src = g3d_mem_map(&c->cfg.vram, base, total, false);
    if (!m->src) {
        g3d_guest_error("flipper: TX: map %d: texture at 0x%08x cannot be "
                        "mapped", map, base);
        return false;
    }
    return true;
}

bool flipper_tx_setup(FlipperCore *c, int map, TxMap *m)
{
    bool ok = tx_setup(c, map, m);

    flipper_tx_choose(m);
    return ok;
}

/* ---- texels -------------------------------------------------------------- */

static inline uint8_t x3to8(unsigned v) { return (uint8_t)(v << 5 | v << 2 | v >> 1); }
static inline uint8_t x4to8(unsigned v) { return (uint8_t)(v << 4 | v); }
static inline uint8_t x5to8(unsigned v) { return (uint8_t)(v << 3 | v >> 2); }
static inline uint8_t x6to8(unsigned v) { return (uint8_t)(v << 2 | v >> 4); }

static inline void set4(uint8_t o[4], uint8_t r, uint8_t g, uint8_t b,
                        uint8_t a)
{
    o[0] = r;
    o[1] = g;
    o[2] = b;
    o[3] = a;
}

static void decode_rgb565(uint16_t v, uint8_t o[4])
{
    set4(o, x5to8(v >> 11), x6to8((v >> 5) & 63), x5to8(v & 31), 255);
}

static void decode_rgb5a3(uint16_t v, uint8_t o[4])
{
    if (v & 0x8000) {
        set4(o, x5to8((v >> 10) & 31), x5to8((v >> 5) & 31), x5to8(v & 31),
             255);
    } else {
        set4(o, x4to8((v >> 8) & 15), x4to8((v >> 4) & 15), x4to8(v & 15),
             x3to8((v >> 12) & 7));
    }
}

/* IA8: first (high) byte alpha, second intensity (Dolphin
 * TextureDecoder_Generic.cpp) */
static void decode_ia8(uint16_t v, uint8_t o[4])
{
    set4(o, v & 0xFF, v & 0xFF, v & 0xFF, v >> 8);
}

static void decode_tlut(const TxMap *m, unsigned index, uint8_t o[4])
{
    uint16_t v;

    if (2 * index + 2 > m->tlut_len) {
        set4(o, 0, 0, 0, 0);
        return;
    }
    v = be16(m->tlut + 2 * index);
    switch (m->tlut_fmt) {
    case TLUT_FMT_IA8:    decode_ia8(v, o); break;
    case TLUT_FMT_RGB565: decode_rgb565(v, o); break;
    default:              decode_rgb5a3(v, o); break;
    }
}

/* byte offset of the tile holding texel (s, t), tiles of 2^bw x 2^bh */
static inline uint32_t tile_at(int s, int t, int wm1, int bw, int bh,
                               int bytes)
{
    return ((uint32_t)(t >> bh) * (uint32_t)((wm1 >> bw) + 1) +
            (uint32_t)(s >> bw)) * (uint32_t)bytes;
}

/* texel (s, t) of the level at p whose width is wm1 + 1; s, t in range */
static inline __attribute__((always_inline))
void texel(const TxMap *m, unsigned fmt, const uint8_t *p, int s, int t,
           int wm1, uint8_t o[4])
{
    uint32_t off;
    uint8_t v;

    switch (fmt) {
    case TX_FMT_I4:
    case TX_FMT_C4:
        off = tile_at(s, t, wm1, 3, 3, 32) + (uint32_t)(((t & 7) << 3) + (s & 7)) / 2;
        v = s & 1 ? p[off] & 15 : p[off] >> 4;   /* first texel high */
        if (fmt == TX_FMT_C4) {
            decode_tlut(m, v, o);
        } else {
            set4(o, x4to8(v), x4to8(v), x4to8(v), x4to8(v));
        }
        return;
    case TX_FMT_I8:
    case TX_FMT_IA4:
    case TX_FMT_C8:
        off = tile_at(s, t, wm1, 3, 2, 32) + (uint32_t)(((t & 3) << 3) + (s & 7));
        v = p[off];
        if (fmt == TX_FMT_I8) {
            set4(o, v, v, v, v);
        } else if (fmt == TX_FMT_IA4) {
            /* alpha in the high nibble, intensity in the low */
            set4(o, x4to8(v & 15), x4to8(v & 15), x4to8(v & 15), x4to8(v >> 4));
        } else {
            decode_tlut(m, v, o);
        }
        return;
    case TX_FMT_IA8:
    case TX_FMT_RGB565:
    case TX_FMT_RGB5A3:
    case TX_FMT_C14X2: {
        uint16_t w;
        off = tile_at(s, t, wm1, 2, 2, 32) + 2 * (uint32_t)(((t & 3) << 2) + (s & 3));
        w = be16(p + off);
        switch (fmt) {
        case TX_FMT_IA8:    decode_ia8(w, o); break;
        case TX_FMT_RGB565: decode_rgb565(w, o); break;
        case TX_FMT_RGB5A3: decode_rgb5a3(w, o); break;
        default:            decode_tlut(m, w & 0x3FFF, o); break;
        }
        return;
    }
    case TX_FMT_RGBA8:
        if (m->src_gb) {
            /* preloaded: 32-byte AR tiles at p, GB tiles in the odd half */
            off = tile_at(s, t, wm1, 2, 2, 32) + 2 * (uint32_t)(((t & 3) << 2) + (s & 3));
            set4(o, p[off + 1], m->src_gb[off], m->src_gb[off + 1], p[off]);
            return;
        }
        /* 64-byte tiles: 16 AR pairs, then 16 GB pairs */
        off = tile_at(s, t, wm1, 2, 2, 64) + 2 * (uint32_t)(((t & 3) << 2) + (s & 3));
        set4(o, p[off + 1], p[off + 32], p[off + 33], p[off]);
        return;
    case TX_FMT_CMPR: {
        /* 8x8 tiles of four 4x4 blocks TL, TR, BL, BR (Dolphin
         * TextureDecoder_Generic.cpp) */
        const uint8_t *b = p + tile_at(s, t, wm1, 3, 3, 32) +
                           8 * (uint32_t)(((t >> 2) & 1) * 2 + ((s >> 2) & 1));
        uint16_t c0 = be16(b), c1 = be16(b + 2);
        uint8_t r0 = x5to8(c0 >> 11), g0 = x6to8((c0 >> 5) & 63), b0 = x5to8(c0 & 31);
        uint8_t r1 = x5to8(c1 >> 11), g1 = x6to8((c1 >> 5) & 63), b1 = x5to8(c1 & 31);
        unsigned sel = (b[4 + (t & 3)] >> (6 - 2 * (s & 3))) & 3;

        switch (sel | (c0 > c1 ? 0 : 4)) {
        case 0: case 4: set4(o, r0, g0, b0, 255); break;
        case 1: case 5: set4(o, r1, g1, b1, 255); break;
        /* c0 > c1: 3/8 blends */
        case 2: set4(o, (3 * r1 + 5 * r0) >> 3, (3 * g1 + 5 * g0) >> 3,
                     (3 * b1 + 5 * b0) >> 3, 255); break;
        case 3: set4(o, (3 * r0 + 5 * r1) >> 3, (3 * g0 + 5 * g1) >> 3,
                     (3 * b0 + 5 * b1) >> 3, 255); break;
        /* otherwise the average, opaque and transparent (not black) */
        case 6: set4(o, (r0 + r1) / 2, (g0 + g1) / 2, (b0 + b1) / 2, 255); break;
        default: set4(o, (r0 + r1) / 2, (g0 + g1) / 2, (b0 + b1) / 2, 0); break;
        }
        return;
    }
    default:
        set4(o, 0, 0, 0, 0);
        return;
    }
}

void flipper_tx_texel(const TxMap *m, const uint8_t *p, int s, int t, int wm1,
                      uint8_t o[4])
{
    texel(m, m->fmt, p, s, t, wm1, o);
}

/* ---- sampling ------------------------------------------------------------ */

/* GX wraps by masking: sizes that repeat are powers of two (YAGCD 5.9) */
static inline int wrap(int coord, unsigned mode, int size)
{
    static const G3DTexWrap modes[4] = {    /* CLAMP, REPEAT, MIRROR, - */
        G3D_TEX_CLAMP, G3D_TEX_REPEAT_POW2, G3D_TEX_MIRROR_POW2, G3D_TEX_CLAMP,
    };

    return g3d_tex_wrap(coord, size, mode < 4 ? modes[mode] : G3D_TEX_CLAMP);
}

static inline __attribute__((always_inline))
void sample_level_fmt(const TxMap *m, unsigned fmt, int32_t s, int32_t t,
                      int level, bool linear, uint8_t out[4])
{
    const uint8_t *p = m->src + m->level_off[level];
    int wm1 = m->wm1 >> level, hm1 = m->hm1 >> level;
    int k;

    s >>= level;
    t >>= level;
    if (linear) {
        int is, it, is1, it1, fs, ft;
        uint8_t tx[4][4];
        uint32_t w[4];

        /* half a texel back; wraps like the hardware's 32-bit adder */
        s = (int32_t)((uint32_t)s - 64u);
        t = (int32_t)((uint32_t)t - 64u);
        is = s >> 7;
        it = t >> 7;
        fs = s & 0x7F;
        ft = t & 0x7F;
        is1 = wrap(is + 1, m->wrap_s, wm1 + 1);
        it1 = wrap(it + 1, m->wrap_t, hm1 + 1);
        is = wrap(is, m->wrap_s, wm1 + 1);
        it = wrap(it, m->wrap_t, hm1 + 1);
        texel(m, fmt, p, is, it, wm1, tx[0]);
        texel(m, fmt, p, is1, it, wm1, tx[1]);
        texel(m, fmt, p, is, it1, wm1, tx[2]);
        texel(m, fmt, p, is1, it1, wm1, tx[3]);
        w[0] = (uint32_t)((128 - fs) * (128 - ft));
        w[1] = (uint32_t)(fs * (128 - ft));
        w[2] = (uint32_t)((128 - fs) * ft);
        w[3] = (uint32_t)(fs * ft);
        for (k = 0; k < 4; k++) {
            out[k] = (uint8_t)((tx[0][k] * w[0] + tx[1][k] * w[1] +
                                tx[2][k] * w[2] + tx[3][k] * w[3]) >> 14);
        }
    } else {
        texel(m, fmt, p, wrap(s >> 7, m->wrap_s, wm1 + 1),
                         wrap(t >> 7, m->wrap_t, hm1 + 1), wm1, out);
    }
}

/*
 * sample_level for one texture format, the format's decode inlined in the
 * texel fetch (chosen per map in flipper_tx_setup); sample_level_any
 * decodes m->fmt per texel and is the general path.
 */
#define SAMPLE_LEVEL_FMT(name, fmt)                                          \
    static void name(const TxMap *m, int32_t s, int32_t t, int level,       \
                     bool linear, uint8_t out[4])                          \
    {                                                                       \
        sample_level_fmt(m, fmt, s, t, level, linear, out);                 \
    }
SAMPLE_LEVEL_FMT(sample_level_i4, TX_FMT_I4)
SAMPLE_LEVEL_FMT(sample_level_i8, TX_FMT_I8)
SAMPLE_LEVEL_FMT(sample_level_ia4, TX_FMT_IA4)
SAMPLE_LEVEL_FMT(sample_level_ia8, TX_FMT_IA8)
SAMPLE_LEVEL_FMT(sample_level_rgb565, TX_FMT_RGB565)
SAMPLE_LEVEL_FMT(sample_level_rgb5a3, TX_FMT_RGB5A3)
SAMPLE_LEVEL_FMT(sample_level_rgba8, TX_FMT_RGBA8)
SAMPLE_LEVEL_FMT(sample_level_c4, TX_FMT_C4)
SAMPLE_LEVEL_FMT(sample_level_c8, TX_FMT_C8)
SAMPLE_LEVEL_FMT(sample_level_c14x2, TX_FMT_C14X2)
SAMPLE_LEVEL_FMT(sample_level_cmpr, TX_FMT_CMPR)

static void sample_level_any(const TxMap *m, int32_t s, int32_t t, int level,
                             bool linear, uint8_t out[4])
{
    sample_level_fmt(m, m->fmt, s, t, level, linear, out);
}


#ifdef __SSE2__
/*
 * Four pixels of a quad at once, for the formats whose texel is one 8- or
 * 16-bit word (I8, IA4, IA8, RGB565, RGB5A3) or an AR and a GB word
 * (RGBA8): the wrap, the tile addresses, the decode and the bilinear
 * weights and blend of sample_level_fmt in SSE2 lanes, each the scalar
 * integer operation on the lane's pixel, so every byte is the scalar one.
 * Words are gathered by address one at a time.
 */

/* wrap() of four coordinates; n = size */
static inline __m128i wrap4(__m128i i, unsigned mode, int n)
{
    __m128i nm1 = _mm_set1_epi32(n - 1);

    switch (mode) {
    case 1:                     /* g3d_tex_repeat_pow2 */
        return _mm_and_si128(i, nm1);
    case 2: {                   /* g3d_tex_mirror_pow2 */
        __m128i z = _mm_cmpeq_epi32(_mm_and_si128(i, _mm_set1_epi32(n)),
                                    _mm_setzero_si128());
        return _mm_and_si128(_mm_xor_si128(i, _mm_xor_si128(
                                 z, _mm_set1_epi32(-1))), nm1);
    }
    default: {                  /* g3d_tex_clamp */
        __m128i over;
        i = _mm_andnot_si128(_mm_srai_epi32(i, 31), i);
        over = _mm_cmpgt_epi32(i, nm1);
        return _mm_or_si128(_mm_and_si128(over, nm1),
                            _mm_andnot_si128(over, i));
    }
    }
}

/* the byte offset of a texel row (t) and column (s) in tiles of 2^bw x
 * 2^bh texels of `size` bytes (1 or 2 bytes a texel in the tile's rows) */
static inline __m128i row_off4(__m128i t, int bh, int bw, int tile_bytes,
                               int texel_bytes, int wm1)
{
    /* (t >> bh) * tiles a row * tile bytes: both factors below 2^15 */
    __m128i tiles = _mm_madd_epi16(_mm_srli_epi32(t, bh),
                                   _mm_set1_epi32(((wm1 >> bw) + 1) *
                                                  tile_bytes));
    __m128i in = _mm_slli_epi32(_mm_and_si128(t, _mm_set1_epi32((1 << bh) - 1)),
                                bw + (texel_bytes == 2));

    return _mm_add_epi32(tiles, in);
}

static inline __m128i col_off4(__m128i s, int bw, int tile_bytes,
                               int texel_bytes)
{
    __m128i tiles = _mm_mullo_epi16(_mm_srli_epi32(s, bw),
                                    _mm_set1_epi32(tile_bytes));
    __m128i in = _mm_and_si128(s, _mm_set1_epi32((1 << bw) - 1));

    if (texel_bytes == 2) {
        in = _mm_slli_epi32(in, 1);
    }
    /* s >> bw < 2^8 and tile_bytes <= 64: the 16-bit product is exact */
    return _mm_add_epi32(tiles, in);
}

static inline __m128i x5to8_4(__m128i v)
{
    return _mm_or_si128(_mm_slli_epi16(v, 3), _mm_srli_epi16(v, 2));
}

static inline __m128i x4to8_4(__m128i v)
{
    return _mm_or_si128(_mm_slli_epi16(v, 4), v);
}

/*
 * Decode eight texel words (16-bit lanes) into R, G, B, A (8-bit values in
 * 16-bit lanes), as texel() does; RGBA8: v is the AR word, gb the GB word.
 */
static inline void decode8(unsigned fmt, __m128i v, __m128i gb, __m128i c[4])
{
    const __m128i m5 = _mm_set1_epi16(31), m4 = _mm_set1_epi16(15);
    const __m128i ff = _mm_set1_epi16(255);

    switch (fmt) {
    case TX_FMT_I8:
        c[0] = c[1] = c[2] = c[3] = v;
        break;
    case TX_FMT_IA4:
        c[0] = c[1] = c[2] = x4to8_4(_mm_and_si128(v, m4));
        c[3] = x4to8_4(_mm_srli_epi16(v, 4));
        break;
    case TX_FMT_IA8:
        c[0] = c[1] = c[2] = _mm_and_si128(v, ff);
        c[3] = _mm_srli_epi16(v, 8);
        break;
    case TX_FMT_RGB565:
        c[0] = x5to8_4(_mm_srli_epi16(v, 11));
        c[1] = _mm_and_si128(_mm_srli_epi16(v, 5), _mm_set1_epi16(63));
        c[1] = _mm_or_si128(_mm_slli_epi16(c[1], 2), _mm_srli_epi16(c[1], 4));
        c[2] = x5to8_4(_mm_and_si128(v, m5));
        c[3] = ff;
        break;
    case TX_FMT_RGB5A3: {
        __m128i opaque = _mm_srai_epi16(v, 15);     /* bit 15: all ones */
        __m128i a3 = _mm_and_si128(_mm_srli_epi16(v, 12), _mm_set1_epi16(7));
        __m128i o[4], t[4];
        int k;

        o[0] = x5to8_4(_mm_and_si128(_mm_srli_epi16(v, 10), m5));
        o[1] = x5to8_4(_mm_and_si128(_mm_srli_epi16(v, 5), m5));
        o[2] = x5to8_4(_mm_and_si128(v, m5));
        o[3] = ff;
        t[0] = x4to8_4(_mm_and_si128(_mm_srli_epi16(v, 8), m4));
        t[1] = x4to8_4(_mm_and_si128(_mm_srli_epi16(v, 4), m4));
        t[2] = x4to8_4(_mm_and_si128(v, m4));
        t[3] = _mm_or_si128(_mm_or_si128(_mm_slli_epi16(a3, 5),
                                         _mm_slli_epi16(a3, 2)),
                            _mm_srli_epi16(a3, 1));
        for (k = 0; k < 4; k++) {
            c[k] = _mm_or_si128(_mm_and_si128(opaque, o[k]),
                                _mm_andnot_si128(opaque, t[k]));
        }
        break;
    }
    default:                    /* RGBA8 */
        c[0] = _mm_and_si128(v, ff);
        c[3] = _mm_srli_epi16(v, 8);
        c[1] = _mm_srli_epi16(gb, 8);
        c[2] = _mm_and_si128(gb, ff);
        break;
    }
}

/* words at p + off[i] (big-endian 16-bit, or bytes), i < n, into lanes */
static inline __m128i gather8(const uint8_t *p, const uint32_t *off, int n,
                              int bytes)
{
    __m128i v = _mm_setzero_si128();

    /* straight into the lanes (pinsrw): no stores to reload as a vector */
#define GATHER_LANE(i) \
    if (i < n) { \
        uint16_t w_; \
        if (bytes == 2) { \
            memcpy(&w_, p + off[i], 2); \
        } else { \
            w_ = p[off[i]]; \
        } \
        v = _mm_insert_epi16(v, w_, i); \
    }
    GATHER_LANE(0) GATHER_LANE(1) GATHER_LANE(2) GATHER_LANE(3)
    GATHER_LANE(4) GATHER_LANE(5) GATHER_LANE(6) GATHER_LANE(7)
#undef GATHER_LANE
    /* big-endian words: swap the bytes of every lane at once */
    return bytes == 2 ? _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8))
                      : v;
}

/*
 * The 32-bit words at p + off[i], i < 4, into the four 32-bit lanes, each
 * byte-swapped as two big-endian 16-bit words: a pixel's texel pair (s, t),
 * (s + 1, t) of a tile row, as (tap 0, tap 1) in its two 16-bit lanes.
 */
static inline __m128i gather_pairs4(const uint8_t *p, const uint32_t *off)
{
    uint32_t w[4];
    __m128i v;
    int i;

    for (i = 0; i < 4; i++) {
        memcpy(&w[i], p + off[i], 4);
    }
    v = _mm_setr_epi32((int)w[0], (int)w[1], (int)w[2], (int)w[3]);
    return _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
}

/* R, G, B, A of four pixels (32-bit lanes, 8-bit values) to their bytes */
static inline void store4(__m128i r, __m128i g, __m128i b, __m128i a,
                          uint8_t *out, size_t stride)
{
    __m128i w = _mm_or_si128(_mm_or_si128(r, _mm_slli_epi32(g, 8)),
                             _mm_or_si128(_mm_slli_epi32(b, 16),
                                          _mm_slli_epi32(a, 24)));
    uint32_t v[4];
    int i;

    _mm_storeu_si128((__m128i *)v, w);
    for (i = 0; i < 4; i++) {
        memcpy(out + i * stride, &v[i], 4);
    }
}

static inline __attribute__((always_inline))
void sample4_fmt(const TxMap *m, unsigned fmt, const int32_t s4[4],
                 const int32_t t4[4], int level, bool linear, uint8_t *out,
                 size_t stride)
{
    const uint8_t *p = m->src + m->level_off[level];
    int wm1 = m->wm1 >> level, hm1 = m->hm1 >> level;
    bool rgba8 = fmt == TX_FMT_RGBA8;
    int texel_bytes = fmt == TX_FMT_I8 || fmt == TX_FMT_IA4 ? 1 : 2;
    int bw = texel_bytes == 1 ? 3 : 2, bh = 2;
    int tile_bytes = rgba8 && !m->src_gb ? 64 : 32;
    /* RGBA8: the GB word 32 bytes on in the tile, or in the odd TMEM half */
    const uint8_t *gbp = !rgba8 ? NULL : m->src_gb ? m->src_gb : p + 32;
    __m128i s = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)s4),
                              _mm_cvtsi32_si128(level));
    __m128i t = _mm_sra_epi32(_mm_loadu_si128((const __m128i *)t4),
                              _mm_cvtsi32_si128(level));
    uint32_t off[16];
    __m128i v[2], gb[2] = { _mm_setzero_si128(), _mm_setzero_si128() };
    __m128i c[2][4];
    int k;

    if (linear) {
        __m128i is, it, is1, it1, fs, ft, r0, r1, c0, c1, w[4], w01, w23;
        const __m128i m7 = _mm_set1_epi32(0x7F), n128 = _mm_set1_epi32(128);

        /* half a texel back; the 32-bit adder wraps */
        s = _mm_sub_epi32(s, _mm_set1_epi32(64));
        t = _mm_sub_epi32(t, _mm_set1_epi32(64));
        is = _mm_srai_epi32(s, 7);
        it = _mm_srai_epi32(t, 7);
        fs = _mm_and_si128(s, m7);
        ft = _mm_and_si128(t, m7);
        is1 = wrap4(_mm_add_epi32(is, _mm_set1_epi32(1)), m->wrap_s, wm1 + 1);
        it1 = wrap4(_mm_add_epi32(it, _mm_set1_epi32(1)), m->wrap_t, hm1 + 1);
        is = wrap4(is, m->wrap_s, wm1 + 1);
        it = wrap4(it, m->wrap_t, hm1 + 1);
        r0 = row_off4(it, bh, bw, tile_bytes, texel_bytes, wm1);
        r1 = row_off4(it1, bh, bw, tile_bytes, texel_bytes, wm1);
        c0 = col_off4(is, bw, tile_bytes, texel_bytes);
        /* weights below 2^15: 16-bit products */
        w[0] = _mm_mullo_epi16(_mm_sub_epi32(n128, fs), _mm_sub_epi32(n128, ft));
        w[1] = _mm_mullo_epi16(fs, _mm_sub_epi32(n128, ft));
        w[2] = _mm_mullo_epi16(_mm_sub_epi32(n128, fs), ft);
        w[3] = _mm_mullo_epi16(fs, ft);
        w01 = _mm_or_si128(w[0], _mm_slli_epi32(w[1], 16));
        w23 = _mm_or_si128(w[2], _mm_slli_epi32(w[3], 16));
        if (texel_bytes == 2 &&
            _mm_movemask_epi8(_mm_and_si128(
                _mm_cmpeq_epi32(is1, _mm_add_epi32(is, _mm_set1_epi32(1))),
                _mm_cmpgt_epi32(_mm_set1_epi32(3),
                                _mm_and_si128(is, _mm_set1_epi32(3))))) ==
            0xFFFF) {
            /*
             * Every pixel's second column is the next texel of the same
             * tile row (no wrap, not the tile's last column): its word
             * follows the first, so one 32-bit read gives both taps of a
             * row, already paired for pmaddwd
             */
            __m128i p01[4], p23[4];

            _mm_storeu_si128((__m128i *)&off[0], _mm_add_epi32(r0, c0));
            _mm_storeu_si128((__m128i *)&off[4], _mm_add_epi32(r1, c0));
            v[0] = gather_pairs4(p, &off[0]);
            v[1] = gather_pairs4(p, &off[4]);
            if (rgba8) {
                gb[0] = gather_pairs4(gbp, &off[0]);
                gb[1] = gather_pairs4(gbp, &off[4]);
            }
            decode8(fmt, v[0], gb[0], p01);
            decode8(fmt, v[1], gb[1], p23);
            for (k = 0; k < 4; k++) {
                c[0][k] = _mm_srli_epi32(_mm_add_epi32(
                                             _mm_madd_epi16(p01[k], w01),
                                             _mm_madd_epi16(p23[k], w23)),
                                         14);
            }
            store4(c[0][0], c[0][1], c[0][2], c[0][3], out, stride);
            return;
        }
        c1 = col_off4(is1, bw, tile_bytes, texel_bytes);
        /* taps (s, t), (s + 1, t), (s, t + 1), (s + 1, t + 1) */
        _mm_storeu_si128((__m128i *)&off[0], _mm_add_epi32(r0, c0));
        _mm_storeu_si128((__m128i *)&off[4], _mm_add_epi32(r0, c1));
        _mm_storeu_si128((__m128i *)&off[8], _mm_add_epi32(r1, c0));
        _mm_storeu_si128((__m128i *)&off[12], _mm_add_epi32(r1, c1));
        v[0] = gather8(p, &off[0], 8, texel_bytes);
        v[1] = gather8(p, &off[8], 8, texel_bytes);
        if (rgba8) {
            gb[0] = gather8(gbp, &off[0], 8, 2);
            gb[1] = gather8(gbp, &off[8], 8, 2);
        }
        decode8(fmt, v[0], gb[0], c[0]);
        decode8(fmt, v[1], gb[1], c[1]);
        for (k = 0; k < 4; k++) {
            /* each pixel's (tap 0, tap 1) and (tap 2, tap 3) pairs */
            __m128i p01 = _mm_unpacklo_epi16(c[0][k], _mm_srli_si128(c[0][k], 8));
            __m128i p23 = _mm_unpacklo_epi16(c[1][k], _mm_srli_si128(c[1][k], 8));
            c[0][k] = _mm_srli_epi32(_mm_add_epi32(_mm_madd_epi16(p01, w01),
                                                   _mm_madd_epi16(p23, w23)),
                                     14);
        }
    } else {
        __m128i is = wrap4(_mm_srai_epi32(s, 7), m->wrap_s, wm1 + 1);
        __m128i it = wrap4(_mm_srai_epi32(t, 7), m->wrap_t, hm1 + 1);

        _mm_storeu_si128((__m128i *)off,
                         _mm_add_epi32(row_off4(it, bh, bw, tile_bytes,
                                                texel_bytes, wm1),
                                       col_off4(is, bw, tile_bytes,
                                                texel_bytes)));
        v[0] = gather8(p, off, 4, texel_bytes);
        if (rgba8) {
            gb[0] = gather8(gbp, off, 4, 2);
        }
        decode8(fmt, v[0], gb[0], c[1]);
        for (k = 0; k < 4; k++) {
            c[0][k] = _mm_unpacklo_epi16(c[1][k], _mm_setzero_si128());
        }
    }
    store4(c[0][0], c[0][1], c[0][2], c[0][3], out, stride);
}

#define SAMPLE4_FMT(name, fmt)                                              \
    static void name(const TxMap *m, const int32_t s[4], const int32_t t[4], \
                     int level, bool linear, uint8_t *out, size_t stride)  \
    {                                                                       \
        sample4_fmt(m, fmt, s, t, level, linear, out, stride);              \
    }
SAMPLE4_FMT(sample4_i8, TX_FMT_I8)
SAMPLE4_FMT(sample4_ia4, TX_FMT_IA4)
SAMPLE4_FMT(sample4_ia8, TX_FMT_IA8)
SAMPLE4_FMT(sample4_rgb565, TX_FMT_RGB565)
SAMPLE4_FMT(sample4_rgb5a3, TX_FMT_RGB5A3)
SAMPLE4_FMT(sample4_rgba8, TX_FMT_RGBA8)
#endif

#ifdef FLIPPER_HAVE_AVX2
/*
 * The RGBA8 sampler eight pixels a vector (AVX2) and sixteen (AVX-512):
 * one body, tx-rgba8-lanes.h, over each width's primitives below.
 */

/*
 * The 32-bit words at p + off (byte offsets): eight scalar loads, which
 * ran about 1.15x faster on this project's AMD EPYC (Zen 4) than
 * VPGATHERDD of the same words
 */
static inline __attribute__((always_inline, target("avx2")))
__m256i load_at8(const uint8_t *p, __m256i off)
{
    uint32_t o[8], w[8];
    int i;

    _mm256_storeu_si256((__m256i *)o, off);
    for (i = 0; i < 8; i++) {
        memcpy(&w[i], p + o[i], 4);
    }
    /* into the lanes straight: eight stores read back as one vector would
     * miss store forwarding */
    return _mm256_setr_epi32((int)w[0], (int)w[1], (int)w[2], (int)w[3],
                             (int)w[4], (int)w[5], (int)w[6], (int)w[7]);
}

#define TXV __m256i
#define TXM __m256i
#define TX_TARGET "avx2"
#define TXI(op) _mm256_##op
#define TXS(op) _mm256_##op##_si256
#define TXN(name) name##8
#define TX_CMPEQ(a, b) _mm256_cmpeq_epi32(a, b)
#define TX_CMPGT(a, b) _mm256_cmpgt_epi32(a, b)
#define TX_BLEND(m, a, b) _mm256_blendv_epi8(a, b, m)
#define TX_NONZERO(v) _mm256_xor_si256(_mm256_cmpeq_epi32( \
        v, _mm256_setzero_si256()), _mm256_set1_epi32(-1))
#define TX_ALL(m) (_mm256_movemask_epi8(m) == -1)
#include "tx-rgba8-lanes.h"

/*
 * Sixteen pixels: the words by VPGATHERDD. On this project's Intel Xeon
 * (Sapphire Rapids) a gather of sixteen is a few instructions where scalar
 * loads into the lanes are about three a word (docs/performance.md,
 * "Branch flip11").
 */
#define TX_AVX512 "avx2,avx512f,avx512bw,avx512vl"

static inline __attribute__((always_inline, target(TX_AVX512)))
__m512i load_at16(const uint8_t *p, __m512i off)
{
    return _mm512_i32gather_epi32(off, p, 1);
}

#define TXV __m512i
#define TXM __mmask16
#define TX_TARGET TX_AVX512
#define TXI(op) _mm512_##op
#define TXS(op) _mm512_##op##_si512
#define TXN(name) name##16
#define TX_CMPEQ(a, b) _mm512_cmpeq_epi32_mask(a, b)
#define TX_CMPGT(a, b) _mm512_cmpgt_epi32_mask(a, b)
#define TX_BLEND(m, a, b) _mm512_mask_blend_epi32(m, a, b)
#define TX_NONZERO(v) _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(v, v), \
                                          _mm512_set1_epi32(-1))
#define TX_ALL(m) ((m) == 0xFFFF)
#include "tx-rgba8-lanes.h"

/* the AVX2 sampler's interface (n groups of eight), two groups a vector;
 * an odd last group fills both halves, so it reads no other words */
__attribute__((target(TX_AVX512)))
static void sample8_rgba8_avx512(const TxMap *m, const __m256i *s8,
                                 const __m256i *t8, int n, int level,
                                 bool linear, __m256i *out)
{
    int i;

    for (i = 0; i < n; i += 2) {
        int j = i + 1 < n ? i + 1 : i;
        __m512i s = _mm512_inserti64x4(_mm512_castsi256_si512(s8[i]),
                                       s8[j], 1);
        __m512i t = _mm512_inserti64x4(_mm512_castsi256_si512(t8[i]),
                                       t8[j], 1);
        __m512i r = linear ? rgba8_sample16(m, s, t, level, true)
                           : rgba8_sample16(m, s, t, level, false);

        out[i] = _mm512_castsi512_si256(r);
        if (j != i) {
            out[j] = _mm512_extracti64x4_epi64(r, 1);
        }
    }
}

/* n groups of eight pixels a call: a span's row in one call, so that its
 * vectors need not be saved around a call a group */
__attribute__((target("avx2")))
static void sample8_rgba8_avx2(const TxMap *m, const __m256i *s8,
                               const __m256i *t8, int n, int level,
                               bool linear, __m256i *out)
{
    int i;

    if (linear) {
        for (i = 0; i < n; i++) {
            out[i] = rgba8_sample8(m, s8[i], t8[i], level, true);
        }
    } else {
        for (i = 0; i < n; i++) {
            out[i] = rgba8_sample8(m, s8[i], t8[i], level, false);
        }
    }
}
#endif

void flipper_tx_choose(TxMap *m)
{
#ifdef __SSE2__
    static TxSampleLevel4 *const by_fmt4[16] = {
        [TX_FMT_I8] = sample4_i8, [TX_FMT_IA4] = sample4_ia4,
        [TX_FMT_IA8] = sample4_ia8, [TX_FMT_RGB565] = sample4_rgb565,
        [TX_FMT_RGB5A3] = sample4_rgb5a3, [TX_FMT_RGBA8] = sample4_rgba8,
    };
#endif
    static TxSampleLevel *const by_fmt[16] = {
        [TX_FMT_I4] = sample_level_i4, [TX_FMT_I8] = sample_level_i8,
        [TX_FMT_IA4] = sample_level_ia4, [TX_FMT_IA8] = sample_level_ia8,
        [TX_FMT_RGB565] = sample_level_rgb565,
        [TX_FMT_RGB5A3] = sample_level_rgb5a3,
        [TX_FMT_RGBA8] = sample_level_rgba8, [TX_FMT_C4] = sample_level_c4,
        [TX_FMT_C8] = sample_level_c8, [TX_FMT_C14X2] = sample_level_c14x2,
        [TX_FMT_CMPR] = sample_level_cmpr,
    };

    m->level = m->fmt < 16 && by_fmt[m->fmt] && !flipper_force_general
               ? by_fmt[m->fmt] : sample_level_any;
    m->level4 = NULL;
    /* mip_level reads level 0 alone without a mip mode, and
     * flipper_tx_lod's filter is MAG's at every LOD when MIN's is the same */
    m->lod_fixed = !flipper_force_general && !m->mip &&
                   m->min_linear == m->mag_linear;
#ifdef __SSE2__
    if (m->fmt < 16 && !flipper_force_general) {
        m->level4 = by_fmt4[m->fmt];
    }
#endif
#ifdef FLIPPER_HAVE_AVX2
    m->level8 = NULL;
    if (m->fmt == TX_FMT_RGBA8 && !flipper_force_general && g3d_use_avx() &&
        __builtin_cpu_supports("avx2")) {
        m->level8 = sample8_rgba8_avx2;
        /* sixteen pixels a vector where the CPU has AVX-512 (BW too) */
        if (g3d_simd_level() >= G3D_SIMD_AVX512 &&
            __builtin_cpu_supports("avx512bw")) {
            m->level8 = sample8_rgba8_avx512;
        }
    }
#endif
}

/* the level a LOD (s28.4) samples; true: blend it with the next by the
 * LOD's fraction (linear mip mode) */
static bool mip_level(const TxMap *m, int lod, int *base)
{
    int fract = lod & 15;

    *base = 0;
    if (lod <= 0 || !m->mip) {
        return false;
    }
    *base = lod >> 4;
    if (m->mip == 1 && fract >= 8) {
        (*base)++;
    }
    return fract && m->mip == 2;
}

void flipper_tx_sample(const TxMap *m, int32_t s, int32_t t, int lod,
                       bool linear, uint8_t out[4])
{
    int base, fract = lod & 15;
    bool mip_linear;

    if (!m->src) {
        memset(out, 0, 4);
        return;
    }
    mip_linear = mip_level(m, lod, &base);
    if (mip_linear) {
        uint8_t a[4], b[4];
        int k;

        m->level(m, s, t, base, linear, a);
        m->level(m, s, t, base + 1, linear, b);
        for (k = 0; k < 4; k++) {
            out[k] = (uint8_t)((a[k] * (16 - fract) + b[k] * fract) >> 4);
        }
    } else {
        m->level(m, s, t, base, linear, out);
    }
}

void flipper_tx_sample4(const TxMap *m, const int32_t s[4], const int32_t t[4],
                        int lod, bool linear, unsigned mask, uint8_t *out,
                        size_t stride)
{
    int base, fract = lod & 15, i, k;
    bool mip_linear;

    if (!m->level4 || !m->src) {
        for (i = 0; i < 4; i++) {
            if (mask & (1u << i)) {
                flipper_tx_sample(m, s[i], t[i], lod, linear, out + i * stride);
            }
        }
        return;
    }
    /* one level choice for the quad */
    mip_linear = mip_level(m, lod, &base);
    if (mip_linear) {
        uint8_t a[4][4], b[4][4];

        m->level4(m, s, t, base, linear, a[0], 4);
        m->level4(m, s, t, base + 1, linear, b[0], 4);
#ifdef __SSE2__
        {
            /* the same sums, eight components in 16-bit lanes at a time */
            const __m128i z = _mm_setzero_si128();
            const __m128i wa = _mm_set1_epi16(16 - fract);
            const __m128i wb = _mm_set1_epi16(fract);
            __m128i va = _mm_loadu_si128((const __m128i *)a);
            __m128i vb = _mm_loadu_si128((const __m128i *)b);
            __m128i lo = _mm_srli_epi16(_mm_add_epi16(
                _mm_mullo_epi16(_mm_unpacklo_epi8(va, z), wa),
                _mm_mullo_epi16(_mm_unpacklo_epi8(vb, z), wb)), 4);
            __m128i hi = _mm_srli_epi16(_mm_add_epi16(
                _mm_mullo_epi16(_mm_unpackhi_epi8(va, z), wa),
                _mm_mullo_epi16(_mm_unpackhi_epi8(vb, z), wb)), 4);
            uint8_t v[16];

            _mm_storeu_si128((__m128i *)v, _mm_packus_epi16(lo, hi));
            for (i = 0; i < 4; i++) {
                memcpy(out + i * stride, v + 4 * i, 4);
            }
        }
        return;
#endif
        for (i = 0; i < 4; i++) {
            for (k = 0; k < 4; k++) {
                out[i * stride + k] = (uint8_t)((a[i][k] * (16 - fract) +
                                                 b[i][k] * fract) >> 4);
            }
        }
    } else {
        m->level4(m, s, t, base, linear, out, stride);
    }
}

/* log2 in s28.4 from the float's exponent and top mantissa bits */
static int fixed_log2(float f)
{
    uint32_t x;

    memcpy(&x, &f, 4);
    return (int)((x & 0x7F800000) >> 19) - 2032 + (int)((x & 0x7FFFFF) >> 19);
}

void flipper_tx_lod(const TxMap *m, const float uv00[2], const float uv10[2],
                    const float uv01[2], int *lodp, bool *linear)
{
    float dudx = fabsf(uv00[0] - uv10[0]), dvdx = fabsf(uv00[1] - uv10[1]);
    float dudy = fabsf(uv00[0] - uv01[0]), dvdy = fabsf(uv00[1] - uv01[1]);
    float sd, td;
    int lod;

    if (m->diag) {
        sd = dudx + dudy;
        td = dvdx + dvdy;
    } else {
        sd = MAX(dudx, dudy);
        td = MAX(dvdx, dvdy);
    }
    lod = fixed_log2(MAX(sd, td)) + m->lod_bias;
    *linear = (lod > 0 && m->min_linear) || (lod <= 0 && m->mag_linear);
    if (lod > m->max_lod) {
        lod = m->max_lod;
    } else if (lod < m->min_lod) {
        lod = m->min_lod;
    }
    *lodp = lod;
}

/* ---- TLUT loads ---------------------------------------------------------- */

void flipper_tx_load_tlut(FlipperCore *c)
{
    uint32_t l0 = c->bp[BP_LOADTLUT0], l1 = c->bp[BP_LOADTLUT1];
    uint32_t src = G3D_FIELD_EX32(l0, BP_LOADTLUT0_R, BASE) << 5;
    uint32_t dst = G3D_FIELD_EX32(l1, BP_LOADTLUT1_R, TMEM_OFFSET) << 9;
    uint32_t len = G3D_FIELD_EX32(l1, BP_LOADTLUT1_R, COUNT) * 32;

    if (!flipper_mem1_ok(c, src, len)) {
        g3d_guest_error("flipper: BP: TLUT load from 0x%08x (%u bytes) is "
                        "outside MEM1", src, len);
        return;
    }
    if (!g3d_range_ok(dst, len, 0, FLIPPER_TMEM_TLUT_SIZE)) {
        g3d_guest_error("flipper: BP: TLUT load of %u bytes at TMEM offset "
                        "0x%05x runs past the high bank", len, dst);
        return;
    }
    if (len && !g3d_mem_read(&c->cfg.vram, src,
                             c->tmem + FLIPPER_TMEM_TLUT_BASE + dst, len)) {
        g3d_guest_error("flipper: BP: TLUT load from 0x%08x failed", src);
    }
}

/* ---- TMEM preloads --------------------------------------------------------- */

void flipper_tx_preload(FlipperCore *c)
{
    uint32_t mode = c->bp[BP_PRELOAD_MODE];
    uint32_t src = (c->bp[BP_PRELOAD_ADDR] & 0xFFFFFF) << 5;
    uint32_t even = (c->bp[BP_PRELOAD_TMEMEVEN] & 0xFFFFFF) * 32;
    uint32_t odd = (c->bp[BP_PRELOAD_TMEMODD] & 0xFFFFFF) * 32;
    uint32_t count = G3D_FIELD_EX32(mode, BP_PRELOAD_MODE_R, COUNT);
    bool split = G3D_FIELD_EX32(mode, BP_PRELOAD_MODE_R, TYPE) == 3;
    uint32_t len = count * (split ? 64 : 32), fit, i;

    if (!flipper_mem1_ok(c, src, len)) {
        g3d_guest_error("flipper: BP: TMEM preload from 0x%08x (%u bytes) "
                        "is outside MEM1", src, len);
        return;
    }
    if (!split) {
        fit = even < FLIPPER_TMEM_SIZE ? MIN(len, FLIPPER_TMEM_SIZE - even) : 0;
        if (fit < len) {
            g3d_guest_error("flipper: BP: TMEM preload of %u bytes at 0x%05x "
                            "runs past TMEM", len, even);
        }
        if (fit) {
            g3d_mem_read(&c->cfg.vram, src, c->tmem + even, fit);
        }
        return;
    }
    for (i = 0; i < count; i++, even += 32, odd += 32, src += 64) {
        if (even > FLIPPER_TMEM_SIZE - 32 || odd > FLIPPER_TMEM_SIZE - 32) {
            g3d_guest_error("flipper: BP: RGBA8 TMEM preload runs past TMEM "
                            "after %u tiles", i);
            return;
        }
        g3d_mem_read(&c->cfg.vram, src, c->tmem + even, 32);
        g3d_mem_read(&c->cfg.vram, src + 32, c->tmem + odd, 32);
    }
}
