/*
 * The DAC: what is on screen. At GPU_SWAPBUFFERS it takes the
 * just-rendered back buffer (command-processor.c latches its address,
 * size, format and sample count), reads it through the render buffer tiling
 * (pixel-mapper.c), resolves multisampling, converts to 8-bit RGB and, with
 * OpenGL pixel coordinates (GPU_D3D9_PIXEL_COORDINATES FALSE), shows memory
 * row 0 at the bottom (ATTILA ref. Render Buffer Tiling, GPUEmulator
 * dumpFrame). The picture is kept in the DAC (attila_scanout_mem) until the
 * next swap.
 *
 * MSAA resolve (dumpFrame): a pixel whose samples all have sample 0's RGB
 * shows sample 0; otherwise the samples are averaged in linear space
 * (x^2.2, mean, ^(1/2.2)).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"
#include "common/fpformat.h"

#include <glib.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define HAVE_AVX_PATH 1
#endif

static inline uint8_t to8(float v)
{
    /* u8bit(GPU_MIN(GPU_MAX(v, 0), 1) * 255) */
    v = v > 0.0f ? v : 0.0f;
    v = v < 1.0f ? v : 1.0f;
    return (uint8_t)(v * 255.0f);
}

/* the DAC divides by 255 where the color write multiplies by 1/255 */
static void dac_read(uint32_t format, const uint8_t *p, float out[4])
{
    int k;

    if (format != ATTILA_FMT_RGBA8888) {
        attila_color_read(format, p, out);
        return;
    }
    for (k = 0; k < 4; k++) {
        out[k] = (float)p[k] / 255.0f;
    }
}

/*
 * (float)pow(b / 255.0f, 2.2f) for every byte b: the linear value of an
 * RGBA8888 sample in the resolve, the same float the formula gives, from
 * a table (the resolve asks it for every channel of every sample of a pixel
 * whose samples differ).
 */
static const float *linear8(void)
{
    static float table[256];
    static gsize done;
    int b;

    if (g_once_init_enter(&done)) {
        for (b = 0; b < 256; b++) {
            table[b] = (float)pow((double)((float)b / 255.0f), (double)2.2f);
        }
        g_once_init_leave(&done, 1);
    }
    return table;
}

/* not inlined, as resolve_rgba8 */
static __attribute__((noinline)) uint32_t
pixel_argb(const AttilaDisplay *d, const uint8_t *p, uint32_t bytes)
{
    float ref[4], cur[4], sum[3] = { 0, 0, 0 };
    bool full = true;
    uint32_t s;
    int k;

    if (d->samples <= 1 && d->format == ATTILA_FMT_RGBA8888) {
        return 0xff000000u | p[0] << 16 | p[1] << 8 | p[2];
    }
    dac_read(d->format, p, ref);
    if (d->samples > 1) {
        /* the gamma-space average only matters when the samples differ */
        for (s = 1; s < d->samples && full; s++) {
            dac_read(d->format, p + s * bytes, cur);
            full = ref[0] == cur[0] && ref[1] == cur[1] && ref[2] == cur[2];
        }
        if (!full) {
            const float *lin = d->format == ATTILA_FMT_RGBA8888 &&
                               !g3d_general_path ? linear8() : NULL;
            for (s = 0; s < d->samples; s++) {
                dac_read(d->format, p + s * bytes, cur);
                for (k = 0; k < 3; k++) {
                    sum[k] += lin ? lin[p[s * bytes + k]] :
                              (float)pow((double)cur[k], (double)2.2f);
                }
            }
            for (k = 0; k < 3; k++) {
                ref[k] = (float)pow((double)(sum[k] / (float)d->samples),
                                    (double)(1.0f / 2.2f));
            }
        }
    }
    if (d->format == ATTILA_FMT_RG16F || d->format == ATTILA_FMT_R32F) {
        /* the missing channels show as 0 (dumpFrame) */
        ref[2] = 0.0f;
        if (d->format == ATTILA_FMT_R32F) {
            ref[1] = 0.0f;
        }
    }
    return 0xff000000u | to8(ref[0]) << 16 | to8(ref[1]) << 8 | to8(ref[2]);
}

/* the resolve's byte of a channel from its gamma-space average q */
static uint8_t gamma_formula(float q)
{
    return to8((float)pow((double)q, (double)(1.0f / 2.2f)));
}

/*
 * gamma_formula on [0, 1] without pow: it never decreases there (floats
 * a unit apart differ by 2^-24 relative, their powers by more than 2^-26,
 * pow's error is below 2^-52; the rounding to float and to8 keep the
 * order), so the byte of q is the count of the steps' first floats at
 * or below it: first[b], the least float of byte b or above (to8
 * truncates), found once from (b / 255)^2.2 a unit at a time. The bits
 * of q above the 16 low ones give the byte of their bucket's first float
 * (bucket[]); the steps within the bucket are counted from first[]. q
 * above 1, negative or NaN takes the formula.
 */
typedef struct GammaSteps {
    uint32_t first[257];        /* as bits; first[0] 0, first[256] past 1 */
    uint8_t bucket[(0x3f800000 >> 16) + 1];
} GammaSteps;

static uint32_t gamma_first(int b)
{
    float q = (float)pow((double)b / 255.0, 2.2);
    uint32_t bits;

    memcpy(&bits, &q, 4);
    while (bits > 0 && gamma_formula(g3d_u2f(bits - 1)) >= b) {
        bits--;
    }
    while (gamma_formula(g3d_u2f(bits)) < b) {
        bits++;
    }
    return bits;
}

/* not inlined: the resolve's loop keeps its registers */
static __attribute__((noinline)) void gamma_steps_make(GammaSteps *g)
{
    uint32_t i;
    int b;

    g->first[0] = 0;
    g->first[256] = 0x3f800001;
    for (b = 1; b < 256; b++) {
        g->first[b] = gamma_first(b);
    }
    for (i = 0, b = 0; i < G_N_ELEMENTS(g->bucket); i++) {
        while (g->first[b + 1] <= i << 16) {
            b++;
        }
        g->bucket[i] = b;
    }
}

static inline const GammaSteps *gamma_steps(void)
{
    static GammaSteps g;
    static gsize done;

    if (g_once_init_enter(&done)) {
        gamma_steps_make(&g);
        g_once_init_leave(&done, 1);
    }
    return &g;
}

static inline uint8_t gamma_byte(float q)
{
    const GammaSteps *g = gamma_steps();
    uint32_t bits, b;

    memcpy(&bits, &q, 4);
    if (bits > 0x3f800000 || g3d_general_path) {
        return gamma_formula(q);
    }
    for (b = g->bucket[bits >> 16]; bits >= g->first[b + 1]; b++) {
    }
    return b;
}

uint8_t attila_dac_gamma_byte(float q)
{
    return gamma_byte(q);
}

/*
 * pixel_argb of an RGBA8888 pixel whose samples differ (not under
 * g3d_general_path): the same float sums of the linear values from the
 * table, in sample order, divided by the sample count, and each channel's
 * byte from gamma_byte; without pixel_argb's float reads of the samples,
 * which the table makes unused. An instance for any count and one for
 * 4 samples, whose sums the compiler unrolls (the loops were about a
 * third of a resolve); neither inlined: in the one-sample rows' loop it
 * would cost their registers.
 */
static inline __attribute__((always_inline)) uint32_t
resolve_samples(const uint8_t *p, uint32_t samples)
{
    const float *lin = linear8();
    uint32_t out = 0xff000000u, s;
    int k;

    for (k = 0; k < 3; k++) {
        float sum = 0;
        for (s = 0; s < samples; s++) {
            sum += lin[p[s * 4 + k]];
        }
        out |= (uint32_t)gamma_byte(sum / (float)samples) << (16 - 8 * k);
    }
    return out;
}

static __attribute__((noinline)) uint32_t
resolve_rgba8(const AttilaDisplay *d, const uint8_t *p)
{
    return resolve_samples(p, d->samples);
}

static __attribute__((noinline)) uint32_t resolve_rgba8x4(const uint8_t *p)
{
    return resolve_samples(p, 4);
}

/*
 * pixel_argb for RGBA8888 without the float round trip: to8(b / 255.0f)
 * is b for every byte b, and samples with equal RGB bytes are samples with
 * equal RGB after dac_read (b / 255.0f is one to one), so only a pixel
 * whose samples differ needs the gamma-space average.
 */
static inline uint32_t pixel_rgba8(const AttilaDisplay *d, const uint8_t *p)
{
    uint32_t s;

#ifdef __SSE2__
    if (d->samples == 2 || d->samples == 4 || d->samples == 8) {
        /* every sample's RGB against sample 0's, four words a compare */
        const __m128i rgb = _mm_set1_epi32(0x00ffffff);
        __m128i s0 = _mm_and_si128(_mm_set1_epi32((int)(p[0] | p[1] << 8 |
                                                        p[2] << 16)), rgb);
        __m128i eq;
        int bits;

        if (d->samples == 2) {
            eq = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadl_epi64((const __m128i *)p),
                                               rgb), s0);
            bits = _mm_movemask_epi8(eq) & 0xff;
            if (bits != 0xff) {
                return resolve_rgba8(d, p);
            }
        } else {
            for (s = 0; s < d->samples; s += 4) {
                eq = _mm_cmpeq_epi32(_mm_and_si128(_mm_loadu_si128((const __m128i *)(p + 4 * s)),
                                                   rgb), s0);
                bits = _mm_movemask_epi8(eq);
                if (bits != 0xffff) {
                    return resolve_rgba8(d, p);
                }
            }
        }
        return 0xff000000u | p[0] << 16 | p[1] << 8 | p[2];
    }
#endif

    uint32_t rgb0 = p[0] | p[1] << 8 | p[2] << 16;

    for (s = 1; s < d->samples; s++) {
        const uint8_t *q = p + 4 * s;
        if ((uint32_t)(q[0] | q[1] << 8 | q[2] << 16) != rgb0) {
            return resolve_rgba8(d, p);
        }
    }
    return 0xff000000u | p[0] << 16 | p[1] << 8 | p[2];
}

#ifdef __SSE2__
/*
 * pixel_rgba8 of a 4-sample RGBA8888 pixel (not under g3d_general_path):
 * its four RGB words against sample 0's in one compare
 */
static inline uint32_t pixel_rgba8x4(const uint8_t *px)
{
    __m128i w = _mm_and_si128(_mm_loadu_si128((const __m128i *)px),
                              _mm_set1_epi32(0x00ffffff));
    __m128i eq = _mm_cmpeq_epi32(w, _mm_shuffle_epi32(w, 0));
    uint32_t s0 = (uint32_t)_mm_cvtsi128_si32(w);

    return _mm_movemask_epi8(eq) == 0xffff ?
           0xff000000u | (s0 & 0xff) << 16 | (s0 & 0xff00) |
           (s0 >> 16 & 0xff) :
           resolve_rgba8x4(px);
}

/*
 * The m pixels of a row's run of stamps (two every four) of a 4-sample
 * RGBA8888 surface (not under g3d_general_path):
 * pixel_rgba8 with the sample count known. Not inlined: the one-sample
 * rows keep their registers.
 */
static __attribute__((noinline)) void
run_rgba8x4(const uint8_t *p, uint32_t *dst, uint32_t m)
{
    uint32_t k;

    for (k = 0; k < m; k++) {
        dst[k] = pixel_rgba8x4(p + ((k >> 1) * 4 + (k & 1)) * 16);
    }
}
#endif

#ifdef HAVE_AVX_PATH
/*
 * run_rgba8x4 two pixels at a time (AVX2): a stamp's pixels 2j and 2j + 1
 * of the row are its consecutive 32 bytes at px (ATTILA ref. Render Buffer
 * Tiling), each pixel's four RGB words against its sample 0's in one
 * 256-bit compare; when both pixels' samples are equal, one byte shuffle
 * puts each one's R, G, B in place (the top byte cleared, which the OR
 * sets) and their two words are stored together; otherwise each pixel
 * as run_rgba8x4 does.
 */
__attribute__((target("avx2"), always_inline))
static inline void pair_rgba8x4_avx2(const uint8_t *px, uint32_t *dst)
{
    const __m256i pick = _mm256_setr_epi8(
        2, 1, 0, -128, -128, -128, -128, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, 2, 1, 0, -128, -128, -128, -128, -128,
        -128, -128, -128, -128, -128, -128, -128, -128);
    __m256i w = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)px),
                                 _mm256_set1_epi32(0x00ffffff));
    __m256i eq = _mm256_cmpeq_epi32(w, _mm256_shuffle_epi32(w, 0));

    if (_mm256_movemask_epi8(eq) == -1) {
        __m256i o = _mm256_or_si256(_mm256_shuffle_epi8(w, pick),
                                    _mm256_set1_epi32((int)0xff000000u));

        o = _mm256_permutevar8x32_epi32(
            o, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
        _mm_storel_epi64((__m128i *)dst, _mm256_castsi256_si128(o));
    } else {
        dst[0] = pixel_rgba8x4(px);
        dst[1] = pixel_rgba8x4(px + 16);
    }
}

/* a run's m pixels two at a time (pair_rgba8x4_avx2); an odd last one as
 * run_rgba8x4 does */
__attribute__((target("avx2")))
static void run_rgba8x4_avx2(const uint8_t *p, uint32_t *dst, uint32_t m)
{
    uint32_t k;

    for (k = 0; k + 2 <= m; k += 2) {
        pair_rgba8x4_avx2(p + (k >> 1) * 64, dst + k);
    }
    if (k < m) {
        dst[k] = pixel_rgba8x4(p + (k >> 1) * 64);
    }
}

#endif

#ifdef HAVE_AVX_PATH
/*
 * Four pixels of a one-sample RGBA8888 row (the row's two words of two
 * consecutive stamps, at p and p + 16) as 0xffRRGGBB: one byte shuffle
 * (PSHUFB, in the AVX instruction set) puts R, G, B in place and clears
 * the top byte, which the OR sets. The SSE2 loop's result with fewer
 * operations.
 */
__attribute__((target("avx"), always_inline))
static inline void words4_rgba8_avx(const uint8_t *p, uint32_t *dst)
{
    const __m128i rgb = _mm_setr_epi8(2, 1, 0, -128, 6, 5, 4, -128,
                                      10, 9, 8, -128, 14, 13, 12, -128);
    __m128i w = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p),
                                   _mm_loadl_epi64((const __m128i *)(p + 16)));

    _mm_storeu_si128((__m128i *)dst,
                     _mm_or_si128(_mm_shuffle_epi8(w, rgb),
                                  _mm_set1_epi32((int)0xff000000u)));
}

/*
 * A one-sample RGBA8888 run's pixels four at a time (words4_rgba8_avx);
 * the number of pixels done (the rest, fewer than four, are the caller's).
 */
__attribute__((target("avx")))
static uint32_t run_rgba8_avx(const uint8_t *p, uint32_t *dst, uint32_t m)
{
    uint32_t k;

    for (k = 0; k + 4 <= m; k += 4) {
        words4_rgba8_avx(p + k * 8, dst + k);
    }
    return k;
}

/* a one-sample RGBA8888 pixel as 0xffRRGGBB */
static inline uint32_t word_rgba8(const uint8_t *px)
{
    return 0xff000000u | px[0] << 16 | px[1] << 8 | px[2];
}

/*
 * An RGBA8888 row whole, from its y part's address (row) and the stamp
 * columns' x parts (attila_address_table): `group` pixels an iteration
 * from the stamp at column x (fn), the pixels of the group's stamps lying
 * one after the other; the last ones (fewer than `group`) one at a time
 * (one), a stamp's second pixel `pixel` bytes after its first. A run
 * (attila_stamp_run) is only a generation tile's row (8 pixels at one
 * sample, 4 at four), so this saves a run's set-up and call that often.
 */
typedef void DacGroupFn(const uint8_t *p, uint32_t *dst);
typedef uint32_t DacPixelFn(const uint8_t *px);

static inline __attribute__((always_inline)) void
row_whole(const uint8_t *row, const uint32_t *ax, uint32_t *dst,
          uint32_t width, uint32_t group, uint32_t pixel, DacGroupFn *fn,
          DacPixelFn *one)
{
    uint32_t x;

    for (x = 0; x + group <= width; x += group) {
        fn(row + ax[x >> 1], dst + x);
    }
    for (; x < width; x++) {
        dst[x] = one(row + ax[x >> 1] + (x & 1) * pixel);
    }
}

/*
 * One sample: four pixels an iteration from stamps x / 2 and x / 2 + 1
 * with x a multiple of four, which lie one after the other (a generation
 * tile's row holds gen_w >= 2 stamps, the caller's test; ATTILA ref.
 * Render Buffer Tiling)
 */
__attribute__((target("avx")))
static void row_rgba8_avx(const uint8_t *row, const uint32_t *ax,
                          uint32_t *dst, uint32_t width)
{
    row_whole(row, ax, dst, width, 4, 4, words4_rgba8_avx, word_rgba8);
}

/* four samples: a stamp's two pixels an iteration (pair_rgba8x4_avx2) */
__attribute__((target("avx2")))
static void row_rgba8x4_avx2(const uint8_t *row, const uint32_t *ax,
                             uint32_t *dst, uint32_t width)
{
    row_whole(row, ax, dst, width, 2, 16, pair_rgba8x4_avx2, pixel_rgba8x4);
}
#endif

void attila_dac_row(const AttilaDisplay *d, const uint8_t *surface,
                    uint32_t *dst, uint32_t row,
                    const AttilaAddressTable *tab)
{
    AttilaPixelMapper pm;
    uint32_t bytes = attila_rt_bytes(d->format), x, y, n, ay;
    bool rgba8, avx = false, avx2 = false;
    const uint32_t *ax = NULL;

    if (!attila_pixel_mapper_init(&pm, d->width, d->height, d->samples,
                                  bytes) || row >= d->height) {
        return;
    }
    y = d->d3d9_pixel ? row : d->height - 1 - row;
    rgba8 = d->format == ATTILA_FMT_RGBA8888 && !g3d_general_path;
#ifdef HAVE_AVX_PATH
    avx = rgba8 && g3d_use_avx();
    avx2 = avx && d->samples == 4 && g3d_use_avx2();
#endif
    /* by runs of consecutive stamps: the row's two pixels of stamp k are
     * at k * 4 and k * 4 + 1 pixels from the run's first */
    /* the address is a sum of fields of x alone and of y alone
     * (attila_address_table), so the row's y part is found once; the
     * general path keeps the whole address a run */
    ay = attila_pixel_address(&pm, 0, y);
    if (tab && tab->width == pm.width && tab->height == pm.height &&
        tab->samples == pm.samples && tab->bytes == pm.bytes) {
        ax = tab->x;        /* the x parts looked up (stamp columns) */
    }
#ifdef HAVE_AVX_PATH
    if (avx && ax && d->samples <= 1 && pm.gen_w >= 2) {
        row_rgba8_avx(surface + ay, ax, dst, d->width);
        return;
    }
    if (avx2 && ax) {
        row_rgba8x4_avx2(surface + ay, ax, dst, d->width);
        return;
    }
#endif
    for (x = 0; x < d->width; x += 2 * n) {
        const uint8_t *p = surface + (g3d_general_path ?
                                      attila_pixel_address(&pm, x, y) :
                                      ay + (ax ? ax[x >> 1] :
                                            attila_pixel_address(&pm, x, 0)));
        uint32_t spb = pm.samples * bytes, k;
        n = attila_stamp_run(&pm, x);
        if (rgba8 && d->samples <= 1) {
            /* the run's pixels of this row: two words every four */
            uint32_t m = MIN(2 * n, d->width - x);
            k = 0;
#ifdef HAVE_AVX_PATH
            if (avx) {
                k = run_rgba8_avx(p, dst + x, m);
            }
#endif
#ifdef __SSE2__
            /* two stamps' two words at once: RGBA bytes to 0xffRRGGBB */
            for (; k + 4 <= m; k += 4) {
                __m128i w = _mm_unpacklo_epi64(
                    _mm_loadl_epi64((const __m128i *)(p + k * 8)),
                    _mm_loadl_epi64((const __m128i *)(p + k * 8 + 16)));
                __m128i ga = _mm_and_si128(w, _mm_set1_epi32(0x0000ff00));
                __m128i r = _mm_slli_epi32(_mm_and_si128(w, _mm_set1_epi32(0xff)),
                                           16);
                __m128i b = _mm_and_si128(_mm_srli_epi32(w, 16),
                                          _mm_set1_epi32(0xff));
                w = _mm_or_si128(_mm_or_si128(ga, r), b);
                w = _mm_or_si128(w, _mm_set1_epi32((int)0xff000000u));
                _mm_storeu_si128((__m128i *)(dst + x + k), w);
            }
#endif
            for (; k < m; k++) {
                const uint8_t *px = p + ((k >> 1) * 4 + (k & 1)) * 4;
                dst[x + k] = 0xff000000u | px[0] << 16 | px[1] << 8 | px[2];
            }
            continue;
        }
#ifdef __SSE2__
        if (rgba8 && d->samples == 4) {
            uint32_t m = MIN(2 * n, d->width - x);

#ifdef HAVE_AVX_PATH
            if (avx2) {
                run_rgba8x4_avx2(p, dst + x, m);
                continue;
            }
#endif
            run_rgba8x4(p, dst + x, m);
            continue;
        }
#endif
        for (k = 0; k < 2 * n && x + k < d->width; k++) {
            const uint8_t *px = p + ((k >> 1) * 4 + (k & 1)) * spb;
            dst[x + k] = rgba8 ? pixel_rgba8(d, px) : pixel_argb(d, px, bytes);
        }
    }
}

/*
 * GPU_SWAPBUFFERS: the DAC takes the frame just rendered, as the
 * simulator's DAC does when it outputs the frame (ATTILA ref. Render Buffer
 * Tiling, dumpFrame): de-tiled, resolved and converted once, into the DAC's own
 * picture. What the screen shows is that picture until the next swap, however
 * the guest reuses the buffer afterwards (the corpus traces render the next
 * frame into the same buffer).
 */
/*
 * The latch's rows on every render thread (the pool is idle between a
 * swap's draws): each row is attila_dac_row's alone, so bands of rows are
 * independent and the picture is the same whoever converts them.
 */
#define DAC_BAND_ROWS 16

typedef struct DacJob {
    AttilaCore *c;
    const uint8_t *base;
    uint32_t bands;
    int threads;
    uint64_t *next;             /* g3d_claim's counters */
} DacJob;

static void dac_job(void *arg, int thread)
{
    DacJob *j = arg;
    const AttilaDisplay *d = &j->c->display;
    uint32_t band, row;
    int at = 0;

    while (g3d_claim(j->next, j->bands, j->threads, thread, &at, &band)) {
        for (row = band * DAC_BAND_ROWS;
             row < MIN(d->height, (band + 1) * DAC_BAND_ROWS); row++) {
            attila_dac_row(d, j->base, j->c->screen + (size_t)row * d->width,
                           row, &j->c->dac_tab);
        }
    }
}

void attila_dac_latch(AttilaCore *c)
{
    AttilaDisplay *d = &c->display;
    AttilaPixelMapper pm;
    const uint8_t *base;
    DacJob job;
    uint32_t row;

    d->shown = false;
    if (d->width == 0 || d->height == 0 || d->width > G3D_SCANOUT_MAX_DIM ||
        d->height > G3D_SCANOUT_MAX_DIM ||
        !attila_pixel_mapper_init(&pm, d->width, d->height, d->samples,
                                  attila_rt_bytes(d->format))) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_DISPLAY_X_RES,
                  "swap of a %ux%u front buffer, format %u, %u samples: "
                  "nothing to show", d->width, d->height, d->format,
                  d->samples);
        return;
    }
    base = attila_mem_map(c, d->address, pm.surface, false);
    if (!base) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, d->address,
                  "front buffer 0x%08x + %" G_GUINT64_FORMAT
                  " bytes outside memory", d->address, pm.surface);
        return;
    }
    attila_dac_screen_alloc(c, d->width, d->height);
    /* the x parts of the runs' addresses (kept while the geometry is) */
    attila_address_table(&c->dac_tab, &pm);
    job.c = c;
    job.base = base;
    job.bands = (d->height + DAC_BAND_ROWS - 1) / DAC_BAND_ROWS;
    job.threads = attila_raster_threads(c->raster);
    if (job.threads > 1 && job.bands > 1) {
        job.next = g_new0(uint64_t, G3D_CLAIM_STRIDE * job.threads);
        attila_raster_run_shared(c->raster, dac_job, &job);
        g_free(job.next);
    } else {
        for (row = 0; row < d->height; row++) {
            attila_dac_row(d, base, c->screen + (size_t)row * d->width, row,
                           &c->dac_tab);
        }
    }
    d->shown = true;
}

void attila_dac_screen_alloc(AttilaCore *c, uint32_t w, uint32_t h)
{
    if (c->screen_words < (size_t)w * h) {
        c->screen_words = (size_t)w * h;
        c->screen = g_renew(uint32_t, c->screen, c->screen_words);
    }
    g3d_flat_mem_init(&c->screen_mem, &c->screen_flat, (uint8_t *)c->screen,
                      0, (uint64_t)w * h * 4);
}

bool attila_dac_scanout(AttilaCore *c, G3DScanout *out)
{
    const AttilaDisplay *d = &c->display;

    if (!d->shown) {
        return false;
    }
    out->enabled = true;
    out->addr = 0;
    out->width = d->width;
    out->height = d->height;
    out->pitch = d->width * 4;
    out->format = G3D_FMT_XRGB8888;
    return true;
}
