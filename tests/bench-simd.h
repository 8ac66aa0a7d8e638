/*
 * The benchmarks' choice of the fast functions' instruction set level
 * (common/g3d-core.h g3d_simd_max), from the environment:
 *   GPU3D_BENCH_SIMD=sse2|avx|avx2|avx512  at most that level
 *   GPU3D_BENCH_NO_AVX=1                   SSE2 (as GPU3D_BENCH_SIMD=sse2)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_BENCH_SIMD_H
#define TESTS_BENCH_SIMD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/g3d-core.h"

static inline void bench_simd_from_env(void)
{
    static const char *const names[] = { "sse2", "avx", "avx2", "avx512" };
    const char *s = getenv("GPU3D_BENCH_SIMD");
    unsigned i;

    g3d_no_avx = getenv("GPU3D_BENCH_NO_AVX") != NULL;
    for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(s, names[i])) {
            g3d_simd_max = (G3DSimdLevel)i;
            return;
        }
    }
    if (s) {
        fprintf(stderr, "GPU3D_BENCH_SIMD: sse2, avx, avx2 or avx512\n");
        exit(1);
    }
}

#endif
