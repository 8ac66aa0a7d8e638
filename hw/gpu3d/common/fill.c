/*
 * Long pattern fills (fill.h): aligned stores, 32 bytes wide where the CPU
 * has AVX2. GCC and Clang compile the AVX2 loop for that target alone
 * (__attribute__((target("avx2")))) and __builtin_cpu_supports picks it at
 * run time, so a baseline x86-64 build still runs everywhere; the loops
 * store the same bytes either way.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fill.h"

#include <stdbool.h>

bool g3d_fill_no_avx2;

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define G3D_FILL_AVX2 1

/* bytes >= 64 */
__attribute__((target("avx2")))
static void fill_avx2(uint8_t *p, size_t bytes, uint64_t pat)
{
    uint8_t *end = p + bytes;
    uint8_t *a = (uint8_t *)(((uintptr_t)p + 31) & ~(uintptr_t)31);
    uint8_t *e = (uint8_t *)((uintptr_t)end & ~(uintptr_t)31);
    __m256i v;

    /* the unaligned head, then aligned stores from a; 32 = 4 periods */
    _mm256_storeu_si256((__m256i *)p, _mm256_set1_epi64x((int64_t)pat));
    v = _mm256_set1_epi64x((int64_t)g3d_fill_rotate(pat, a - p));
    for (; a + 128 <= e; a += 128) {
        _mm256_store_si256((__m256i *)a, v);
        _mm256_store_si256((__m256i *)(a + 32), v);
        _mm256_store_si256((__m256i *)(a + 64), v);
        _mm256_store_si256((__m256i *)(a + 96), v);
    }
    for (; a < e; a += 32) {
        _mm256_store_si256((__m256i *)a, v);
    }
    if (e < end) {
        _mm256_storeu_si256((__m256i *)(end - 32),
                            _mm256_set1_epi64x((int64_t)
                                               g3d_fill_rotate(pat, bytes)));
    }
}
#endif

void g3d_fill_long(uint8_t *p, size_t bytes, uint64_t pat)
{
#ifdef __SSE2__
    uint8_t *end = p + bytes, *a, *e;
    __m128i v;

#ifdef G3D_FILL_AVX2
    if (bytes >= 64 && !g3d_fill_no_avx2 &&
        __builtin_cpu_supports("avx2")) {
        fill_avx2(p, bytes, pat);
        return;
    }
#endif
    if (bytes < 32) {
        g3d_fill_pattern(p, bytes, pat);
        return;
    }
    a = (uint8_t *)(((uintptr_t)p + 15) & ~(uintptr_t)15);
    e = (uint8_t *)((uintptr_t)end & ~(uintptr_t)15);
    _mm_storeu_si128((__m128i *)p, _mm_set1_epi64x((int64_t)pat));
    v = _mm_set1_epi64x((int64_t)g3d_fill_rotate(pat, a - p));
    for (; a + 64 <= e; a += 64) {
        _mm_store_si128((__m128i *)a, v);
        _mm_store_si128((__m128i *)(a + 16), v);
        _mm_store_si128((__m128i *)(a + 32), v);
        _mm_store_si128((__m128i *)(a + 48), v);
    }
    for (; a < e; a += 16) {
        _mm_store_si128((__m128i *)a, v);
    }
    if (e < end) {
        _mm_storeu_si128((__m128i *)(end - 16),
                         _mm_set1_epi64x((int64_t)g3d_fill_rotate(pat, bytes)));
    }
#else
    for (; bytes >= 8; bytes -= 8, p += 8) {
        memcpy(p, &pat, 8);
    }
    if (bytes) {
        /* fewer than 8 bytes: the inline tail */
        g3d_fill_pattern(p, bytes, pat);
    }
#endif
}
