/*
 * EFB copies (BP 0x52) and the clear that follows them (YAGCD §5.11.1 BP
 * registers; Dolphin Software/EfbCopy.cpp; libogc GX_CopyDisp).
 *
 * A display copy (bit 14) turns the source rectangle (BP 0x49/0x4A, width
 * and height stored minus one) into YUV 4:2:2 at BP 0x4B << 5, one line
 * every BP 0x4D * 32 bytes. Per pixel it applies the 7-tap vertical filter
 * of BP 0x53/0x54 (taps 0-1 on the line above, 2-4 on the line, 5-6 below;
 * the sum is divided by 64), the gamma of bits 7-8 (1.0, 1.7, 2.2, 2.2),
 * then BT.601 studio-range RGB -> YCbCr with the hardware-tested integer
 * coefficients (Y = 66R + 129G + 25B, ...; Dolphin's EfbInterface), and
 * averages chroma 1-2-1 around each even pixel. Clamp bits 0-1 keep the
 * filter inside the rectangle at its top and bottom.
 *
 * Decisions: Y scaling (BP 0x4E, bit 10) writes 1 + (h - 1) * scale lines,
 * nearest source line; the horizontal border repeats the edge pixel.
 *
 * A texture copy (bit 14 clear) writes the rectangle as a tiled texture at
 * BP 0x4B << 5, one row of tiles every BP 0x4D * 32 bytes (YAGCD §5.11.1 BP
 * registers, 0x4D/0x52). The 4-bit format of bits 3-6 is stored rotated (real =
 * v / 2 + (v & 1) * 8): 0 R4, 1 R8, 2 RA4, 3 RA8, 4 RGB565, 5 RGB5A3,
 * 6 RGBA8, 7 A8, 8 R8, 9 G8, 10 B8, 11 RG8, 12 GB8; 13-15 are logged and
 * skipped. Tiles are 8x8 (R4), 8x4 (one byte per texel), 4x4 (two bytes;
 * RGBA8 as an AR tile then a GB tile), the texture unit's layouts. Bit 15
 * (intensity) turns R into I = (4096 + 66R + 129G + 25B) >> 8 for formats
 * 0-3 and 8. Bit 9 halves both sides with a 2x2 box filter whose top-left
 * texel is the source texel: the sum of four 6-bit RGBA6 values s becomes
 * s + (s >> 6), four 8-bit values their sum >> 2. A Z copy is one made
 * while the PE pixel format is Z24 (libogc's GX_CopyTex switches to it
 * for the Z formats): formats R8/R4 take Z bits 16-23, G8 8-15, B8 0-7,
 * RGBA8 = (0xFF, Z high, mid, low), RA8 (libogc's Z16) = (high, mid),
 * RG8 = (mid, high), GB8 = (low, mid). Texels of partial tiles read the
 * EFB beyond the rectangle (clamped to the EFB). These are the rules of
 * Dolphin's software encoder, the core's reference; where it differs we
 * decide: Z16 (Dolphin leaves it unwritten) is the big-endian top 16 bits,
 * and the half-scale Z RG8/GB8 keep the full-scale byte order.
 * Texture copies also take the vertical filter and the gamma of bits 7-8,
 * as display copies do (Dolphin VideoCommon/TextureConverterShaderGen.cpp,
 * "verified on hardware": the filter acts on colour and Z copies, on R, G
 * and B only, alpha stays the current line's; the sum over 64 keeps 9 bits
 * and saturates at 255). Dolphin's software renderer applies neither, which
 * the default filter {0, 0, 21, 22, 21, 0, 0} and gamma 1.0 make invisible.
 * Each EFB line is filtered before the 2x2 box filter of bit 9 (the box
 * then averages filtered lines); a reset device's zero taps copy black.
 * The clear (bit 11) writes BP 0x4F-0x51 over the rectangle under the
 * colour/alpha/Z update masks, after the copy.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

#include <math.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { R = 0, G = 1, B = 2, A = 3 };

typedef struct YUV {
    int y, u, v;
} YUV;

static const float gamma_table[4] = { 1.0f, 1.7f, 2.2f, 2.2f };
/* out = 255 * (in / 255)^(1 / gamma), per 8-bit value: one powf per entry
 * once, not per pixel */
static uint8_t gamma_lut[4][256];

static void gamma_lut_init(void)
{
    static gsize done;
    int g, i;

    if (g_once_init_enter(&done)) {
        for (g = 0; g < 4; g++) {
            float rcp = 1.0f / gamma_table[g];
            for (i = 0; i < 256; i++) {
                float v = powf((float)i / 255.0f, rcp) * 255.0f;
                gamma_lut[g][i] = (uint8_t)g3d_clampf(v, 0.0f, 255.0f);
            }
        }
        g_once_init_leave(&done, 1);
    }
}

static YUV rgb_to_yuv(const uint8_t c[4])
{
    unsigned y = 66 * c[R] + 129 * c[G] + 25 * c[B];
    int u = -38 * c[R] - 74 * c[G] + 112 * c[B];
    int v = 112 * c[R] - 94 * c[G] - 18 * c[B];
    YUV r;

    /* round at bit 7 */
    r.y = (uint8_t)((y >> 8) + ((y >> 7) & 1));
    r.u = (int8_t)(int16_t)((u >> 8) + ((u >> 7) & 1));
    r.v = (int8_t)(int16_t)((v >> 8) + ((v >> 7) & 1));
    return r;
}

static void copy_filter(FlipperCore *c, uint8_t w[7])
{
    uint32_t a = c->bp[BP_COPYFILTER_A], b = c->bp[BP_COPYFILTER_B];

    w[0] = a & 63;
    w[1] = (a >> 6) & 63;
    w[2] = (a >> 12) & 63;
    w[3] = (a >> 18) & 63;
    w[4] = b & 63;
    w[5] = (b >> 6) & 63;
    w[6] = (b >> 12) & 63;
}

/* the filter's weights of the lines above, on and below: taps 0-1, 2-4,
 * 5-6 (Dolphin TextureCacheBase::GetRAMCopyFilterCoefficients) */
static void filter_weights(FlipperCore *c, int wt[3])
{
    uint8_t w[7];

    copy_filter(c, w);
    wt[0] = w[0] + w[1];
    wt[1] = w[2] + w[3] + w[4];
    wt[2] = w[5] + w[6];
}

/*
 * A weighted sum of three 8-bit values over 64: the hardware keeps 9 bits
 * of it and saturates at 255 (Dolphin TextureConverterShaderGen.cpp: sums
 * of weights from 128 on wrap), so weights past 64 brighten, past 128 wrap.
 */
static inline uint8_t filter_sum(int sum)
{
    sum = (sum >> 6) & 0x1FF;
    return sum > 255 ? 255 : sum;
}

/* the lines the filter reads around line y: clamp bits 0-1 of the copy
 * keep them inside the rectangle [top, bottom), else inside the EFB */
static void filter_lines(uint32_t trigger, int top, int bottom, int y,
                         int *prev, int *next)
{
    bool clamp_top = trigger & 1, clamp_bottom = (trigger >> 1) & 1;

    *prev = MAX(clamp_top ? top : 0, y - 1);
    *next = MIN((clamp_bottom ? bottom : EFB_H) - 1, y + 1);
}

/* R, G, B of the pixel at byte `i` of three lines (above, on, below),
 * filtered and gamma-corrected into f[0-2] */
static inline void filter_px(const uint8_t *const rows[3], int i,
                             const int wt[3], const uint8_t *gamma,
                             uint8_t f[4])
{
    int k;

    for (k = R; k <= B; k++) {
        f[k] = gamma[filter_sum(rows[0][i + k] * wt[0] +
                                rows[1][i + k] * wt[1] +
                                rows[2][i + k] * wt[2])];
    }
}

/*
 * Source rows of a copy as RGBA bytes, each converted from the EFB once:
 * the filter reads rows y - 1, y, y + 1, which never share a slot y % 3.
 */
typedef struct RowCache {
    int y[3];
    int left, width;
    uint8_t px[3][EFB_W * 4];
    /*
     * The filter's weights of the lines above, on and below (taps 0-1,
     * 2-4, 5-6) and its gamma; when only the middle line weighs, the
     * filtered, gamma-corrected value of a channel depends on that one
     * byte: `single` maps it, built once per copy.
     */
    int wt[3];
    const uint8_t *gamma;
    uint8_t single[256];
    bool identity;              /* single[i] == i for every byte */
} RowCache;

static const uint8_t *cached_row(FlipperCore *c, RowCache *rc, int y)
{
    uint8_t *p = rc->px[y % 3];

    if (rc->y[y % 3] != y) {
        flipper_pe_get_row(c, rc->left, y, rc->width, p);
        rc->y[y % 3] = y;
    }
    return p;
}

/* the copy's filter weights and gamma into rc (see RowCache) */
static void row_cache_filter(FlipperCore *c, RowCache *rc, uint32_t trigger)
{
    int i;

    filter_weights(c, rc->wt);
    rc->gamma = gamma_lut[(trigger >> 7) & 3];
    rc->identity = rc->wt[0] == 0 && rc->wt[2] == 0;
    for (i = 0; i < 256; i++) {
        rc->single[i] = rc->gamma[filter_sum(i * rc->wt[1])];
        rc->identity &= rc->single[i] == i;
    }
}

/*
 * rgb_to_yuv over n pixels of 16-bit lanes (r, g, b from 0 to 255) into y,
 * u, v. With SSE2 eight pixels at a time in 16-bit lanes: every product and
 * sum of rgb_to_yuv fits (Y below 65536 unsigned, U and V within +-28560),
 * so the lanes hold rgb_to_yuv's exact values; the arrays are read and
 * written up to n rounded up to 8. flipper_force_general: rgb_to_yuv
 * a pixel at a time.
 */
static void yuv_line(const int16_t *r, const int16_t *g, const int16_t *b,
                     int n, int16_t *y, int16_t *u, int16_t *v)
{
    int i = 0;

#ifdef __SSE2__
    const __m128i one = _mm_set1_epi16(1);

    for (; i < n && !flipper_force_general; i += 8) {
        __m128i R = _mm_loadu_si128((const __m128i *)(r + i));
        __m128i G = _mm_loadu_si128((const __m128i *)(g + i));
        __m128i B = _mm_loadu_si128((const __m128i *)(b + i));
        __m128i Y = _mm_add_epi16(
            _mm_add_epi16(_mm_mullo_epi16(R, _mm_set1_epi16(66)),
                          _mm_mullo_epi16(G, _mm_set1_epi16(129))),
            _mm_mullo_epi16(B, _mm_set1_epi16(25)));
        __m128i U = _mm_add_epi16(
            _mm_sub_epi16(_mm_mullo_epi16(B, _mm_set1_epi16(112)),
                          _mm_mullo_epi16(R, _mm_set1_epi16(38))),
            _mm_mullo_epi16(G, _mm_set1_epi16(-74)));
        __m128i V = _mm_sub_epi16(
            _mm_sub_epi16(_mm_mullo_epi16(R, _mm_set1_epi16(112)),
                          _mm_mullo_epi16(G, _mm_set1_epi16(94))),
            _mm_mullo_epi16(B, _mm_set1_epi16(18)));

        /* round at bit 7: Y unsigned, U and V arithmetic shifts */
        Y = _mm_add_epi16(_mm_srli_epi16(Y, 8),
                          _mm_and_si128(_mm_srli_epi16(Y, 7), one));
        U = _mm_add_epi16(_mm_srai_epi16(U, 8),
                          _mm_and_si128(_mm_srli_epi16(U, 7), one));
        V = _mm_add_epi16(_mm_srai_epi16(V, 8),
                          _mm_and_si128(_mm_srli_epi16(V, 7), one));
        _mm_storeu_si128((__m128i *)(y + i), Y);
        _mm_storeu_si128((__m128i *)(u + i), U);
        _mm_storeu_si128((__m128i *)(v + i), V);
    }
#endif
    for (; i < n; i++) {
        const uint8_t c[4] = { r[i], g[i], b[i], 0 };
        YUV p = rgb_to_yuv(c);

        y[i] = p.y;
        u[i] = p.u;
        v[i] = p.v;
    }
}

/*
 * R, G, B of n RGBA pixels (bytes) into 16-bit lanes, eight pixels at a
 * time: the identity filter's line (a RowCache whose `single` maps every
 * byte to itself). The arrays are read and written up to n rounded up to 8.
 */
static void split_rgb(const uint8_t *px, int n, int16_t *r, int16_t *g,
                      int16_t *b)
{
    int i = 0;

#ifdef __SSE2__
    const __m128i lo = _mm_set1_epi32(0xFF);

    for (; i < n; i += 8) {
        __m128i p0 = _mm_loadu_si128((const __m128i *)(px + 4 * i));
        __m128i p1 = _mm_loadu_si128((const __m128i *)(px + 4 * i + 16));

        _mm_storeu_si128((__m128i *)(r + i),
                         _mm_packs_epi32(_mm_and_si128(p0, lo),
                                         _mm_and_si128(p1, lo)));
        _mm_storeu_si128((__m128i *)(g + i),
                         _mm_packs_epi32(_mm_and_si128(_mm_srli_epi32(p0, 8), lo),
                                         _mm_and_si128(_mm_srli_epi32(p1, 8), lo)));
        _mm_storeu_si128((__m128i *)(b + i),
                         _mm_packs_epi32(_mm_and_si128(_mm_srli_epi32(p0, 16), lo),
                                         _mm_and_si128(_mm_srli_epi32(p1, 16), lo)));
    }
#endif
    for (; i < n; i++) {
        r[i] = px[4 * i + R];
        g[i] = px[4 * i + G];
        b[i] = px[4 * i + B];
    }
}

/*
 * The 4:2:2 line of `width` pixels from their Y, U and V: Y0 Cb Y1 Cr,
 * chroma 1-2-1 around the even pixel. u[-1], v[-1], u[width] and v[width]
 * hold the edge pixels' values repeated. With SSE2 (not under
 * flipper_force_general) eight pixels, sixteen bytes, at a time: lane k
 * holds pixel k's Y + 16 and its pair's Cb (k even) or Cr (k odd) as the
 * scalar loop computes them, little-endian; the arrays are read from
 * index -2 to width + 8.
 */
static void yuv422_line(const int16_t *y, const int16_t *u, const int16_t *v,
                        int width, uint8_t *out)
{
    int i = 0;

#ifdef __SSE2__
    const __m128i even = _mm_set1_epi32(0xFFFF), b16 = _mm_set1_epi16(16);
    const __m128i b128 = _mm_set1_epi16(128), lo = _mm_set1_epi16(0xFF);

    for (; i + 8 <= width && !flipper_force_general; i += 8) {
        /* lane k: Cb around pixel k, and Cr around pixel k - 1 */
        __m128i cb = _mm_add_epi16(
            _mm_add_epi16(_mm_loadu_si128((const __m128i *)(u + i - 1)),
                          _mm_loadu_si128((const __m128i *)(u + i + 1))),
            _mm_slli_epi16(_mm_loadu_si128((const __m128i *)(u + i)), 1));
        __m128i cr = _mm_add_epi16(
            _mm_add_epi16(_mm_loadu_si128((const __m128i *)(v + i - 2)),
                          _mm_loadu_si128((const __m128i *)(v + i))),
            _mm_slli_epi16(_mm_loadu_si128((const __m128i *)(v + i - 1)), 1));
        __m128i c = _mm_or_si128(_mm_and_si128(even, _mm_srai_epi16(cb, 2)),
                                 _mm_andnot_si128(even, _mm_srai_epi16(cr, 2)));
        __m128i l = _mm_add_epi16(_mm_loadu_si128((const __m128i *)(y + i)),
                                  b16);

        c = _mm_and_si128(_mm_add_epi16(c, b128), lo);
        _mm_storeu_si128((__m128i *)(out + 2 * i),
                         _mm_or_si128(_mm_and_si128(l, lo),
                                      _mm_slli_epi16(c, 8)));
    }
#endif
    for (; i < width; i += 2) {
        out[2 * i + 0] = (uint8_t)(y[i] + 16);
        out[2 * i + 1] = (uint8_t)(128 + ((u[i - 1] + 2 * u[i] + u[i + 1]) >> 2));
        if (i + 1 < width) {
            out[2 * i + 2] = (uint8_t)(y[i + 1] + 16);
            out[2 * i + 3] = (uint8_t)(128 + ((v[i - 1] + 2 * v[i] + v[i + 1]) >> 2));
        }
    }
}

/* one source line of the display copy, filtered, gamma-corrected, as YUV */
static void encode_line(FlipperCore *c, RowCache *rc, int y, int top,
                        int bottom, uint32_t trigger, uint8_t *out)
{
    const uint8_t *gamma = rc->gamma;
    int y_prev, y_next;
    const uint8_t *rows[3];
    const int *wt = rc->wt;
    int width = rc->width;
    /* a line's filtered R, G, B and its Y, U, V; U and V from index 2,
     * with the edge pixels repeated at 1 and width + 2 for the chroma
     * filter (yuv422_line reads from index 0 to width + 10) */
    int16_t fr[EFB_W + 8], fg[EFB_W + 8], fb[EFB_W + 8];
    int16_t ly[EFB_W + 8], lu[EFB_W + 12], lv[EFB_W + 12];
    int16_t *u = lu + 2, *v = lv + 2;
    int i;

    filter_lines(trigger, top, bottom, y, &y_prev, &y_next);
    rows[1] = cached_row(c, rc, y);
    if (rc->identity && !flipper_force_general) {
        split_rgb(rows[1], width, fr, fg, fb);
    } else if (wt[0] == 0 && wt[2] == 0) {
        /* the lines above and below weigh nothing: not even read */
        for (i = 0; i < width; i++) {
            const uint8_t *p = &rows[1][4 * i];
            fr[i] = rc->single[p[R]];
            fg[i] = rc->single[p[G]];
            fb[i] = rc->single[p[B]];
        }
    } else {
        rows[0] = cached_row(c, rc, y_prev);
        rows[2] = cached_row(c, rc, y_next);
        for (i = 0; i < width; i++) {
            uint8_t f[4] = { 0 };

            filter_px(rows, 4 * i, wt, gamma, f);
            fr[i] = f[R];
            fg[i] = f[G];
            fb[i] = f[B];
        }
    }
    for (i = width; i < ((width + 7) & ~7); i++) {
        fr[i] = fg[i] = fb[i] = 0;      /* lanes past the line: unused */
    }
    yuv_line(fr, fg, fb, width, ly, u, v);
    lu[0] = lv[0] = 0;                  /* read into an unused lane */
    u[-1] = u[0];
    v[-1] = v[0];
    u[width] = u[width - 1];
    v[width] = v[width - 1];
    yuv422_line(ly, u, v, width, out);
}

/*
 * The copies run on the render threads (g3d_raster_run_shared) by bands of
 * output lines (display) or rows of tiles (texture), claimed by whichever
 * thread is free: each output line depends only on the EFB lines it reads,
 * which nothing changes during the copy, so the bytes are the same for any
 * thread count. The bands fill a host buffer; the command processor's
 * thread then writes it to MEM1, so only that thread touches guest memory.
 */
enum {
    XFB_BAND_LINES = 16,
    TEX_BAND_ROWS = 4,
    CLEAR_BAND_ROWS = 16,
};

typedef struct CopyJob {
    FlipperCore *c;
    uint32_t trigger;
    int left, top, width, height;
    uint32_t units;             /* output lines or rows of tiles */
    uint32_t band;              /* units a band */
    uint32_t unit_bytes;
    uint8_t *out;               /* units * unit_bytes */
    uint32_t next;              /* atomic: the next band to claim */
    bool cancelled;             /* atomic: a g3d_yield() said abandon */
    /* the write to MEM1: units `stride` bytes apart from dest */
    uint32_t dest, stride;
    uint32_t wnext;             /* atomic: the next band to write */
    /* texture copies */
    int fmt, bh, span, tiles_x;
    bool half, six, depth, intens;
    const struct TexFilter *tf;
    /* the clear: colour words' kept bits and set bits, Z and its update */
    uint32_t keep, set, z;
    bool zupd;
} CopyJob;

/*
 * The next band [*u0, *u1) of job j, or false when none is left or the
 * copy was abandoned; counts the band's units in copy_units.
 */
static bool copy_band(CopyJob *j, uint32_t *u0, uint32_t *u1)
{
    uint32_t b = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);

    if (__atomic_load_n(&j->cancelled, __ATOMIC_RELAXED) ||
        (uint64_t)b * j->band >= j->units) {
        return false;
    }
    *u0 = b * j->band;
    *u1 = MIN(j->units, *u0 + j->band);
    __atomic_fetch_add(&j->c->copy_units, *u1 - *u0, __ATOMIC_RELAXED);
    return true;
}

/* a copy of `units` units of unit_bytes each, `band` units a band, from
 * the width x height rectangle at (left, top) */
static void copy_job_init(CopyJob *j, FlipperCore *c, uint32_t trigger,
                          int left, int top, int width, int height,
                          uint32_t units, uint32_t band, uint32_t unit_bytes)
{
    j->c = c;
    j->trigger = trigger;
    j->left = left;
    j->top = top;
    j->width = width;
    j->height = height;
    j->units = units;
    j->band = band;
    j->unit_bytes = unit_bytes;
    j->out = g_malloc((size_t)units * unit_bytes);
}

/* per output unit: false (and the copy abandoned) when g3d_yield() says so */
static bool copy_unit_yield(CopyJob *j)
{
    if (g3d_yield()) {
        __atomic_store_n(&j->cancelled, true, __ATOMIC_RELAXED);
        return false;
    }
    return true;
}

/* run job j's bands on the render threads; false when abandoned */
static bool copy_bands(CopyJob *j, G3DJobFn *fn)
{
    j->next = 0;
    j->cancelled = false;
    g3d_raster_run_shared(j->c->raster, fn, j);
    return !j->cancelled;
}

/* units [u0, u1) of job j to MEM1 */
static void copy_write(CopyJob *j, uint32_t u0, uint32_t u1)
{
    uint32_t u;

    for (u = u0; u < u1; u++) {
        g3d_mem_write(&j->c->cfg.vram, j->dest + u * j->stride,
                      j->out + (size_t)u * j->unit_bytes, j->unit_bytes);
    }
}

static void write_job(void *arg, int thread)
{
    CopyJob *j = arg;
    uint32_t b;

    while ((uint64_t)(b = __atomic_fetch_add(&j->wnext, 1,
                                             __ATOMIC_RELAXED)) * j->band <
           j->units) {
        copy_write(j, b * j->band, MIN(j->units, (b + 1) * j->band));
    }
}

/*
 * Run job j's bands, then write its units to MEM1 at dest, `stride` bytes
 * apart; false when the copy was abandoned (nothing written). MEM1 is
 * host memory to the core (G3DMem), so the render threads write the
 * bands too, unless units overlap there (a stride below a unit): then
 * the later unit must win, as one thread writing them in order gives.
 */
static bool copy_run(CopyJob *j, G3DJobFn *fn, uint32_t dest, uint32_t stride)
{
    if (!copy_bands(j, fn)) {
        return false;
    }
    j->dest = dest;
    j->stride = stride;
    j->wnext = 0;
    if (stride < j->unit_bytes || j->units <= j->band) {
        copy_write(j, 0, j->units);
    } else {
        g3d_raster_run_shared(j->c->raster, write_job, j);
    }
    return true;
}

/* a display copy's bands: each encodes the source line of its first line,
 * and of every line whose source line differs from the line before */
static void xfb_job(void *arg, int thread)
{
    CopyJob *j = arg;
    RowCache *rc = NULL;
    uint32_t u0, u1, l;

    while (copy_band(j, &u0, &u1)) {
        int prev = -1;

        if (!rc) {
            rc = g_new(RowCache, 1);
            rc->y[0] = rc->y[1] = rc->y[2] = -1;
            rc->left = j->left;
            rc->width = j->width;
            row_cache_filter(j->c, rc, j->trigger);
        }
        for (l = u0; l < u1; l++) {
            int src = (int)((uint64_t)l * j->height / j->units);
            uint8_t *out = j->out + (size_t)l * j->unit_bytes;

            if (!copy_unit_yield(j)) {
                break;
            }
            if (src != prev) {
                encode_line(j->c, rc, j->top + src, j->top,
                            j->top + j->height, j->trigger, out);
                prev = src;
            } else {
                memcpy(out, out - j->unit_bytes, j->unit_bytes);
            }
        }
    }
    g_free(rc);
}

static bool copy_to_xfb(FlipperCore *c, uint32_t trigger, int left, int top,
                        int width, int height)
{
    uint32_t dest = (c->bp[BP_EFB_ADDR] & 0xFFFFFF) << 5;
    uint32_t stride = (c->bp[BP_MIPMAP_STRIDE] & 0x3FF) << 5;
    uint32_t ys = c->bp[BP_DISPCOPYYSCALE] & 0x1FF;
    float scale;
    uint32_t lines, line_bytes = (uint32_t)width * 2;
    CopyJob j = { 0 };
    bool done;

    if (ys == 0) {
        g3d_guest_error("flipper: PE: display copy Y scale 0, using 1.0");
        ys = 256;
    }
    scale = ((trigger >> 10) & 1) ? 256.0f / (float)ys : (float)ys / 256.0f;
    lines = (uint32_t)(1.0f + (float)(height - 1) * scale);
    if (lines > 1024) {
        g3d_guest_error("flipper: PE: display copy of %u lines clamped to 1024",
                        lines);
        lines = 1024;
    }
    if (stride < line_bytes) {
        g3d_guest_error("flipper: PE: display copy stride %u below its line "
                        "of %u bytes", stride, line_bytes);
        return true;
    }
    if (!flipper_mem1_ok(c, dest, (uint64_t)stride * (lines - 1) + line_bytes)) {
        g3d_guest_error("flipper: PE: XFB 0x%08x (%u lines of %u bytes) "
                        "outside MEM1", dest, lines, stride);
        return true;
    }
    copy_job_init(&j, c, trigger, left, top, width, height, lines,
                  XFB_BAND_LINES, line_bytes);
    done = copy_run(&j, xfb_job, dest, stride);
    g_free(j.out);
    return done;
}

/* one row of the clear: the format and masks decided once per clear
 * (flipper_pe_set_color and flipper_pe_set_depth per pixel give the same
 * words) */
static void clear_row(FlipperCore *c, const CopyJob *j, int y)
{
    uint32_t *cp = &c->efb_color[y * EFB_W + j->left];
    uint32_t *zp = &c->efb_depth[y * EFB_W + j->left];
    /* locals: the rows' stores may not alias them, so the loops vectorise */
    const uint32_t keep = j->keep, set = j->set, z = j->z;
    const int width = j->width;
    int x;

    if (keep == 0) {
        for (x = 0; x < width; x++) {
            cp[x] = set;
        }
    } else if (keep != ~0u) {
        for (x = 0; x < width; x++) {
            cp[x] = (cp[x] & keep) | set;
        }
    }
    if (j->zupd) {
        for (x = 0; x < width; x++) {
            zp[x] = z;
        }
    }
}

/* the clear's bands of rows; each row is its own, so any thread may */
static void clear_job(void *arg, int thread)
{
    CopyJob *j = arg;
    uint32_t u0, u1, y;

    while (copy_band(j, &u0, &u1)) {
        for (y = u0; y < u1; y++) {
            if (!copy_unit_yield(j)) {
                break;
            }
            clear_row(j->c, j, j->top + (int)y);
        }
    }
}

static void clear_rect(FlipperCore *c, int left, int top, int width,
                       int height)
{
    uint32_t ar = c->bp[BP_CLEAR_AR], gb = c->bp[BP_CLEAR_GB];
    uint8_t col[4] = { ar & 0xFF, (gb >> 8) & 0xFF, gb & 0xFF, (ar >> 8) & 0xFF };
    CopyJob j = { 0 };

    copy_job_init(&j, c, 0, left, top, width, height, height,
                  CLEAR_BAND_ROWS, 0);
    j.z = flipper_pe_clear_depth(c, c->bp[BP_CLEAR_Z]);
    j.zupd = (c->bp[BP_ZMODE] >> 4) & 1;
    flipper_pe_store_masks(c, col, &j.keep, &j.set);
    copy_bands(&j, clear_job);
    g_free(j.out);
}

/* ---- copies to texture formats ------------------------------------------ */

enum {
    TC_R4 = 0, TC_R8_1 = 1, TC_RA4 = 2, TC_RA8 = 3, TC_RGB565 = 4,
    TC_RGB5A3 = 5, TC_RGBA8 = 6, TC_A8 = 7, TC_R8 = 8, TC_G8 = 9, TC_B8 = 10,
    TC_RG8 = 11, TC_GB8 = 12,
};

/* tile width and height (log2) and bytes per tile, by copy format */
static const struct {
    uint8_t bw, bh;
    uint8_t tile_bytes;
} tex_copy_tiles[13] = {
    [TC_R4] = { 3, 3, 32 },     [TC_R8_1] = { 3, 2, 32 },
    [TC_RA4] = { 3, 2, 32 },    [TC_RA8] = { 2, 2, 32 },
    [TC_RGB565] = { 2, 2, 32 }, [TC_RGB5A3] = { 2, 2, 32 },
    [TC_RGBA8] = { 2, 2, 64 },  [TC_A8] = { 3, 2, 32 },
    [TC_R8] = { 3, 2, 32 },     [TC_G8] = { 3, 2, 32 },
    [TC_B8] = { 3, 2, 32 },     [TC_RG8] = { 2, 2, 32 },
    [TC_GB8] = { 2, 2, 32 },
};

/*
 * Source rows of a texture copy as four 8-bit channels a pixel: RGBA, or
 * for a Z copy (Z high, mid, low, 0xFF); `span` pixels from x = left on,
 * rows from y = top on, both clamped to the EFB (texels of partial tiles
 * read beyond the rectangle). Each EFB pixel is converted once per tile
 * row, the format decided per row.
 */
/* one EFB line's `span` pixels from x = left on (see tex_copy_rows) */
static void tex_copy_line(FlipperCore *c, bool depth, int left, int sy,
                          int span, uint8_t *out)
{
    int n = MIN(span, EFB_W - left), i;

    if (depth) {
        const uint32_t *z = &c->efb_depth[sy * EFB_W + left];
        for (i = 0; i < n; i++) {
            out[4 * i + 0] = z[i] >> 16;
            out[4 * i + 1] = z[i] >> 8;
            out[4 * i + 2] = z[i];
            out[4 * i + 3] = 0xFF;
        }
    } else {
        flipper_pe_get_row(c, left, sy, n, out);
    }
    for (i = n; i < span; i++) {
        memcpy(out + 4 * i, out + 4 * (n - 1), 4);
    }
}

/*
 * The vertical filter and gamma of a texture copy; `identity` when they
 * change nothing (the middle line weighs 64, the others 0, gamma 1.0), so
 * lines are copied as they are.
 */
typedef struct TexFilter {
    int wt[3];
    const uint8_t *gamma;
    int top, bottom;            /* the source rectangle's lines */
    uint32_t trigger;
    bool identity;
    uint8_t *lines;             /* three lines of scratch */
} TexFilter;

static void tex_copy_rows(FlipperCore *c, bool depth, const TexFilter *tf,
                          int left, int top, int rows, int span, uint8_t *buf)
{
    int y, i;

    for (y = 0; y < rows; y++) {
        int sy = MIN(top + y, EFB_H - 1), prev, next;
        uint8_t *out = buf + (size_t)y * span * 4;
        uint8_t *above, *on, *below;

        if (tf->identity) {
            tex_copy_line(c, depth, left, sy, span, out);
            continue;
        }
        above = tf->lines;
        on = above + (size_t)span * 4;
        below = on + (size_t)span * 4;
        filter_lines(tf->trigger, tf->top, tf->bottom, sy, &prev, &next);
        tex_copy_line(c, depth, left, MIN(prev, EFB_H - 1), span, above);
        tex_copy_line(c, depth, left, sy, span, on);
        tex_copy_line(c, depth, left, MAX(next, 0), span, below);
        for (i = 0; i < span; i++) {
            const uint8_t *l[3] = { above, on, below };

            filter_px(l, 4 * i, tf->wt, tf->gamma, out + 4 * i);
            out[4 * i + A] = l[1][4 * i + A];
        }
    }
}

/* one texel's source from tex_copy_rows' buffer at (x, y); `half`
 * box-filters the 2x2 there */
static inline void tex_copy_source(const uint8_t *buf, int span, bool half,
                            bool six, int x, int y, uint8_t out[4])
{
    const uint8_t *p = buf + ((size_t)y * span + x) * 4;
    int k;

    if (!half) {
        memcpy(out, p, 4);
        return;
    }
    for (k = 0; k < 4; k++) {
        const uint8_t *q = p + (size_t)span * 4;
        unsigned sum;

        if (six) {
            /* RGBA6 sums its 6-bit values (the expansion's top bits) */
            sum = (p[k] >> 2) + (p[4 + k] >> 2) + (q[k] >> 2) + (q[4 + k] >> 2);
            out[k] = (uint8_t)(sum + (sum >> 6));
        } else {
            sum = p[k] + p[4 + k] + q[k] + q[4 + k];
            out[k] = (uint8_t)(sum >> 2);
        }
    }
}

static uint8_t intensity(const uint8_t c[4])
{
    return (uint8_t)((4096 + 66 * c[R] + 129 * c[G] + 25 * c[B]) >> 8);
}

/* a texel's bytes (one for the 8-bit formats, two big-endian for 16-bit;
 * RGBA8: A, R, G, B); R4 returns its 4 bits in the low nibble */
static inline void tex_copy_encode(int fmt, bool depth, bool intens,
                            const uint8_t c[4], uint8_t out[4])
{
    uint8_t r = intens && !depth ? intensity(c) : c[R];
    uint16_t v;

    switch (fmt) {
    case TC_R4:
        out[0] = r >> 4;
        break;
    case TC_R8_1:
    case TC_R8:
        out[0] = r;
        break;
    case TC_RA4:
        out[0] = (c[A] & 0xF0) | (r >> 4);
        break;
    case TC_RA8:
        if (depth) {
            out[0] = c[R];
            out[1] = c[G];
        } else {
            out[0] = c[A];
            out[1] = r;
        }
        break;
    case TC_RGB565:
        v = (uint16_t)((c[R] >> 3) << 11 | (c[G] >> 2) << 5 | c[B] >> 3);
        out[0] = v >> 8;
        out[1] = (uint8_t)v;
        break;
    case TC_RGB5A3:
        if (c[A] >= 0xE0) {
            v = (uint16_t)(0x8000 | (c[R] >> 3) << 10 | (c[G] >> 3) << 5 |
                           c[B] >> 3);
        } else {
            v = (uint16_t)((c[A] >> 5) << 12 | (c[R] >> 4) << 8 |
                           (c[G] >> 4) << 4 | c[B] >> 4);
        }
        out[0] = v >> 8;
        out[1] = (uint8_t)v;
        break;
    case TC_RGBA8:
        out[0] = c[A];
        out[1] = c[R];
        out[2] = c[G];
        out[3] = c[B];
        break;
    case TC_A8:
        out[0] = c[A];
        break;
    case TC_G8:
        out[0] = c[G];
        break;
    case TC_B8:
        out[0] = c[B];
        break;
    case TC_RG8:
        out[0] = c[G];
        out[1] = c[R];
        break;
    case TC_GB8:
        out[0] = c[B];
        out[1] = c[G];
        break;
    }
}

/*
 * One row of tiles of a texture copy from tex_copy_rows' buffer. Always
 * inlined with constant fmt and half (tex_copy_tile_row_any's switch), so
 * that each format's copy decides nothing per texel.
 */
static inline __attribute__((always_inline)) void
tex_copy_tile_row(int fmt, bool half, bool six, bool depth, bool intens,
                  const uint8_t *src, int span, int tiles_x, uint8_t *row)
{
    int bw = 1 << tex_copy_tiles[fmt].bw, bh = 1 << tex_copy_tiles[fmt].bh;
    int tx, x, y;

    for (tx = 0; tx < tiles_x; tx++) {
        uint8_t *tile = row + tx * tex_copy_tiles[fmt].tile_bytes;
        for (y = 0; y < bh; y++) {
            for (x = 0; x < bw; x++) {
                int i = y * bw + x;
                uint8_t texel[4], t[4] = { 0 };

                tex_copy_source(src, span, half, six, (tx * bw + x) << half,
                                y << half, texel);
                tex_copy_encode(fmt, depth, intens, texel, t);
                switch (fmt) {
                case TC_R4:
                    tile[i >> 1] |= (i & 1) ? t[0] : t[0] << 4;
                    break;
                case TC_RGBA8:
                    tile[2 * i] = t[0];
                    tile[2 * i + 1] = t[1];
                    tile[32 + 2 * i] = t[2];
                    tile[32 + 2 * i + 1] = t[3];
                    break;
                case TC_RA8: case TC_RGB565: case TC_RGB5A3:
                case TC_RG8: case TC_GB8:
                    tile[2 * i] = t[0];
                    tile[2 * i + 1] = t[1];
                    break;
                default:
                    tile[i] = t[0];
                    break;
                }
            }
        }
    }
}

/* the same with fmt and half decided per texel: flipper_force_general */
static void __attribute__((noinline))
tex_copy_tile_row_general(int fmt, bool half, bool six, bool depth,
                          bool intens, const uint8_t *src, int span,
                          int tiles_x, uint8_t *row)
{
    tex_copy_tile_row(fmt, half, six, depth, intens, src, span, tiles_x, row);
}

static void tex_copy_tile_row_any(int fmt, bool half, bool six, bool depth,
                                  bool intens, const uint8_t *src, int span,
                                  int tiles_x, uint8_t *row)
{
    if (flipper_force_general) {
        tex_copy_tile_row_general(fmt, half, six, depth, intens, src, span,
                                  tiles_x, row);
        return;
    }
#define TILE_ROW(f) \
    case f: \
        if (half) { \
            tex_copy_tile_row(f, true, six, depth, intens, src, span, \
                              tiles_x, row); \
        } else { \
            tex_copy_tile_row(f, false, six, depth, intens, src, span, \
                              tiles_x, row); \
        } \
        break;
    switch (fmt) {
    TILE_ROW(TC_R4) TILE_ROW(TC_R8_1) TILE_ROW(TC_RA4) TILE_ROW(TC_RA8)
    TILE_ROW(TC_RGB565) TILE_ROW(TC_RGB5A3) TILE_ROW(TC_RGBA8)
    TILE_ROW(TC_A8) TILE_ROW(TC_R8) TILE_ROW(TC_G8) TILE_ROW(TC_B8)
    TILE_ROW(TC_RG8) TILE_ROW(TC_GB8)
    }
#undef TILE_ROW
}

/* a texture copy's bands of rows of tiles, each thread with its own
 * source rows and filter scratch */
static void tex_job(void *arg, int thread)
{
    CopyJob *j = arg;
    TexFilter tf = *j->tf;
    int rows = j->bh << j->half;
    uint8_t *src = NULL;
    uint32_t u0, u1, ty;

    tf.lines = NULL;
    while (copy_band(j, &u0, &u1)) {
        if (!src) {
            src = g_malloc((size_t)j->span * rows * 4);
            if (!tf.identity) {
                tf.lines = g_malloc((size_t)j->span * 4 * 3);
            }
        }
        for (ty = u0; ty < u1; ty++) {
            uint8_t *row = j->out + (size_t)ty * j->unit_bytes;

            if (!copy_unit_yield(j)) {
                break;
            }
            memset(row, 0, j->unit_bytes);
            tex_copy_rows(j->c, j->depth, &tf, j->left,
                          j->top + (int)ty * rows, rows, j->span, src);
            tex_copy_tile_row_any(j->fmt, j->half, j->six, j->depth,
                                  j->intens, src, j->span, j->tiles_x, row);
        }
    }
    g_free(tf.lines);
    g_free(src);
}

static bool copy_to_texture(FlipperCore *c, uint32_t trigger, int left,
                            int top, int width, int height)
{
    uint32_t v = G3D_FIELD_EX32(trigger, BP_COPY_R, TARGET_FMT);
    int fmt = (int)(v >> 1 | (v & 1) << 3);
    bool half = G3D_FIELD_EX32(trigger, BP_COPY_R, HALF_SCALE);
    bool intens = G3D_FIELD_EX32(trigger, BP_COPY_R, INTENSITY);
    bool depth = (c->bp[BP_ZCOMPARE] & 7) == PE_FMT_Z24;
    uint32_t dest = (c->bp[BP_EFB_ADDR] & 0xFFFFFF) << 5;
    uint32_t stride = (c->bp[BP_MIPMAP_STRIDE] & 0x3FF) << 5;
    int tw, th, bw, bh, tiles_x, tiles_y, row_bytes, span;
    TexFilter tf;
    CopyJob j = { 0 };
    bool six, done;

    if (fmt > TC_GB8) {
        g3d_guest_error("flipper: PE: EFB copy to texture format %d", fmt);
        return true;
    }
    if (intens && fmt != TC_R4 && fmt != TC_R8_1 && fmt != TC_RA4 &&
        fmt != TC_RA8 && fmt != TC_R8) {
        intens = false;
    }
    /* the stored width/height minus one, halved, plus one (Dolphin) */
    tw = ((width - 1) >> half) + 1;
    th = ((height - 1) >> half) + 1;
    bw = 1 << tex_copy_tiles[fmt].bw;
    bh = 1 << tex_copy_tiles[fmt].bh;
    tiles_x = (tw + bw - 1) / bw;
    tiles_y = (th + bh - 1) / bh;
    row_bytes = tiles_x * tex_copy_tiles[fmt].tile_bytes;
    if (!flipper_mem1_ok(c, dest,
                         (uint64_t)stride * (tiles_y - 1) + row_bytes)) {
        g3d_guest_error("flipper: PE: texture copy to 0x%08x (%d rows of "
                        "%d bytes, stride %u) outside MEM1", dest, tiles_y,
                        row_bytes, stride);
        return true;
    }
    six = !depth && (c->bp[BP_ZCOMPARE] & 7) == PE_FMT_RGBA6_Z24;
    span = (tiles_x * bw) << half;
    filter_weights(c, tf.wt);
    tf.gamma = gamma_lut[G3D_FIELD_EX32(trigger, BP_COPY_R, GAMMA)];
    tf.top = top;
    tf.bottom = top + height;
    tf.trigger = trigger;
    tf.identity = tf.wt[0] == 0 && tf.wt[1] == 64 && tf.wt[2] == 0 &&
                  G3D_FIELD_EX32(trigger, BP_COPY_R, GAMMA) == 0;
    tf.lines = NULL;
    copy_job_init(&j, c, trigger, left, top, width, height, tiles_y,
                  TEX_BAND_ROWS, row_bytes);
    j.fmt = fmt;
    j.bh = bh;
    j.span = span;
    j.tiles_x = tiles_x;
    j.half = half;
    j.six = six;
    j.depth = depth;
    j.intens = intens;
    j.tf = &tf;
    done = copy_run(&j, tex_job, dest, stride);
    g_free(j.out);
    return done;
}

void flipper_pe_copy(FlipperCore *c, uint32_t trigger)
{
    uint32_t tl = c->bp[BP_EFB_TL], wh = c->bp[BP_EFB_WH];
    int left = tl & 0x3FF, top = (tl >> 10) & 0x3FF;
    int width = (wh & 0x3FF) + 1, height = ((wh >> 10) & 0x3FF) + 1;

    flipper_flush(c);
    gamma_lut_init();
    c->stats.efb_copies++;
    c->copy_units = 0;
    if (left >= EFB_W || top >= EFB_H) {
        g3d_guest_error("flipper: PE: EFB copy source (%d, %d) outside the EFB",
                        left, top);
        return;
    }
    if (left + width > EFB_W || top + height > EFB_H) {
        g3d_guest_error("flipper: PE: EFB copy %dx%d at (%d, %d) clipped to "
                        "the EFB", width, height, left, top);
        width = MIN(width, EFB_W - left);
        height = MIN(height, EFB_H - top);
    }
    c->work_px += (uint64_t)width * height;     /* its budget (cp-decode.c) */
    if ((trigger >> 14) & 1) {
        if ((left | width) & 1) {
            g3d_guest_error("flipper: PE: display copy at x %d width %d is not "
                            "pixel-pair aligned", left, width);
        }
        if (!copy_to_xfb(c, trigger, left, top, width, height)) {
            return;             /* abandoned: reset, unplug, quit */
        }
    } else if (!copy_to_texture(c, trigger, left, top, width, height)) {
        return;
    }
    if ((trigger >> 11) & 1) {
        clear_rect(c, left, top, width, height);
    }
}
