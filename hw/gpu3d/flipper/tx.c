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

void flipper_tx_choose(TxMap *m)
{
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
}

void flipper_tx_sample(const TxMap *m, int32_t s, int32_t t, int lod,
                       bool linear, uint8_t out[4])
{
    int base = 0, fract = lod & 15;
    bool mip_linear = false;

    if (!m->src) {
        memset(out, 0, 4);
        return;
    }
    if (lod > 0 && m->mip) {
        base = lod >> 4;
        mip_linear = fract && m->mip == 2;
        if (m->mip == 1 && fract >= 8) {
            base++;
        }
    }
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
