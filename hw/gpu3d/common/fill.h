/*
 * Filling memory with a repeating 8-byte pattern, the store loop of every
 * chip's flat fill: a 32-bit pixel value (r300-3d, pica200-3d) is the
 * pattern v | v << 32, glamo-3d's RGB565 row is four 16-bit pens (its
 * dither pattern repeats every four pixels).
 *
 * Short runs (a triangle's edge, one row of a tile) are stored inline in
 * 16-byte SSE2 stores, the last one overlapping the one before it; long
 * ones go to g3d_fill_long, which peels to an aligned address and stores
 * 32 bytes at a time where the CPU has AVX2 (chosen at run time, so the
 * build runs on any x86-64 CPU), else 16. Other hosts store 8 bytes at a
 * time.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_FILL_H
#define GPU3D_COMMON_FILL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* from this many bytes on, g3d_fill_pattern calls g3d_fill_long */
#define G3D_FILL_LONG_BYTES 512

/* tests set it to run the 16-byte loop on an AVX2 host too */
extern bool g3d_fill_no_avx2;

/* `bytes` (even) from p on: byte i is byte (i & 7) of pat (little-endian) */
void g3d_fill_long(uint8_t *p, size_t bytes, uint64_t pat);

/* the pattern as seen from `off` bytes into the fill */
static inline uint64_t g3d_fill_rotate(uint64_t pat, size_t off)
{
    unsigned r = 8 * (off & 7);

    return r ? pat >> r | pat << (64 - r) : pat;
}

static inline void g3d_fill_pattern(uint8_t *p, size_t bytes, uint64_t pat)
{
    if (bytes >= G3D_FILL_LONG_BYTES) {
        g3d_fill_long(p, bytes, pat);
        return;
    }
#ifdef __SSE2__
    if (bytes >= 16) {
        const __m128i v = _mm_set1_epi64x((int64_t)pat);
        uint8_t *end = p + bytes, *q = p;

        for (; q + 64 <= end; q += 64) {
            _mm_storeu_si128((__m128i *)q, v);
            _mm_storeu_si128((__m128i *)(q + 16), v);
            _mm_storeu_si128((__m128i *)(q + 32), v);
            _mm_storeu_si128((__m128i *)(q + 48), v);
        }
        for (; q + 16 <= end; q += 16) {
            _mm_storeu_si128((__m128i *)q, v);
        }
        if (q < end) {
            /* the last 16 bytes again; 16 is a whole number of periods */
            _mm_storeu_si128((__m128i *)(end - 16),
                             _mm_set1_epi64x((int64_t)
                                             g3d_fill_rotate(pat, bytes)));
        }
        return;
    }
#endif
    for (; bytes >= 8; bytes -= 8, p += 8) {
        memcpy(p, &pat, 8);
    }
    if (bytes & 4) {
        uint32_t w = (uint32_t)pat;

        memcpy(p, &w, 4);
        p += 4;
        pat >>= 32;
    }
    if (bytes & 2) {
        uint16_t h = (uint16_t)pat;

        memcpy(p, &h, 2);
    }
}

/* n 32-bit words from p on become v */
static inline void g3d_fill32(void *p, size_t n, uint32_t v)
{
    g3d_fill_pattern(p, 4 * n, (uint64_t)v << 32 | v);
}

/*
 * n 32-bit words from p on become (word & keep) | v: a clear that keeps
 * some bits of every word (the stencil beside a depth value); no read
 * where keep is 0
 */
static inline void g3d_fill32_keep(void *p, size_t n, uint32_t v,
                                   uint32_t keep)
{
    uint8_t *b = p;
    size_t i = 0;

    if (!keep) {
        g3d_fill32(p, n, v);
        return;
    }
#ifdef __SSE2__
    {
        const __m128i vv = _mm_set1_epi32((int)v);
        const __m128i vk = _mm_set1_epi32((int)keep);

        for (; i + 4 <= n; i += 4) {
            __m128i o = _mm_loadu_si128((const __m128i *)(b + 4 * i));
            _mm_storeu_si128((__m128i *)(b + 4 * i),
                             _mm_or_si128(_mm_and_si128(o, vk), vv));
        }
    }
#endif
    for (; i < n; i++) {
        uint32_t o;

        memcpy(&o, b + 4 * i, 4);
        o = (o & keep) | v;
        memcpy(b + 4 * i, &o, 4);
    }
}

#ifdef __SSE2__
/*
 * The lanes of v whose bit is set in `mask` to the four consecutive 32-bit
 * words at p, the others untouched (they may be another thread's pixels
 * or lie past the buffer): a row of four pixels, or a quad whose pixels
 * are consecutive.
 */
static inline void g3d_store4_masked(void *p, __m128i v, unsigned mask)
{
    uint32_t w[4];
    unsigned i;

    if (mask == 0xF) {
        _mm_storeu_si128((__m128i *)p, v);
        return;
    }
    _mm_storeu_si128((__m128i *)w, v);
    for (i = 0; i < 4; i++) {
        if (mask & (1u << i)) {
            memcpy((uint8_t *)p + 4 * i, &w[i], 4);
        }
    }
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* g3d_store4_masked of eight consecutive words, in functions built for AVX2 */
static inline __attribute__((target("avx2"))) void
g3d_store8_masked(void *p, __m256i v, unsigned mask)
{
    if (mask == 0xFF) {
        _mm256_storeu_si256((__m256i *)p, v);
        return;
    }
    g3d_store4_masked(p, _mm256_castsi256_si128(v), mask & 0xF);
    g3d_store4_masked((uint8_t *)p + 16, _mm256_extracti128_si256(v, 1),
                      mask >> 4);
}
#endif
#endif

/* n 16-bit pixels from p on: pixel i is bits 16 (i & 3) .. of pens */
static inline void g3d_fill16x4(void *p, size_t n, uint64_t pens)
{
    g3d_fill_pattern(p, 2 * n, pens);
}

#endif
