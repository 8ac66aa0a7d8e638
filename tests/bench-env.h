/*
 * Benchmark settings from the environment:
 *   GPU3D_BENCH_SIMD=sse2|avx|avx2|avx512  the fast functions' instruction
 *                 set level at most that (common/g3d-core.h g3d_simd_max,
 *                 and g3d_simd_textured_max)
 *   GPU3D_BENCH_TEX_WIDE=0|1               the textured spans' AVX-512
 *                 weights in 512-bit vectors or not (g3d_simd_textured_zmm;
 *                 without it, not on an Intel CPU)
 *   GPU3D_BENCH_NO_AVX=1                   SSE2 (as GPU3D_BENCH_SIMD=sse2)
 *   GPU3D_BENCH_CPU_CLOCK=1                time by the process's CPU time
 *                 instead of the wall clock: on a shared machine, time
 *                 spent waiting for a core is not counted (one render
 *                 thread only: the threads' times would add up)
 *   GPU3D_BENCH_SPIN_US=N                  the render threads poll N us
 *                 between jobs before sleeping (common/raster.h
 *                 g3d_pool_spin_us)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef TESTS_BENCH_ENV_H
#define TESTS_BENCH_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <glib.h>

#include "common/g3d-core.h"
#include "common/raster.h"

static inline void bench_simd_from_env(void)
{
    static const char *const names[] = { "sse2", "avx", "avx2", "avx512" };
    const char *s = getenv("GPU3D_BENCH_SIMD");
    const char *spin = getenv("GPU3D_BENCH_SPIN_US");
    const char *wide = getenv("GPU3D_BENCH_TEX_WIDE");
    unsigned i;

    if (wide) {
        g3d_simd_textured_zmm = atoi(wide) != 0;
    }

    if (spin) {
        g3d_pool_spin_us = (unsigned)strtoul(spin, NULL, 10);
    }

    g3d_no_avx = getenv("GPU3D_BENCH_NO_AVX") != NULL;
    for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(s, names[i])) {
            /* that level for every span, the textured ones too */
            g3d_simd_max = (G3DSimdLevel)i;
            g3d_simd_textured_max = (int)i;
            return;
        }
    }
    if (s) {
        fprintf(stderr, "GPU3D_BENCH_SIMD: sse2, avx, avx2 or avx512\n");
        exit(1);
    }
}

/* seconds: the monotonic clock, or the process's CPU time */
static inline double bench_now(void)
{
    static int cpu = -1;
    struct timespec ts;

    if (cpu < 0) {
        cpu = getenv("GPU3D_BENCH_CPU_CLOCK") != NULL;
    }
    if (cpu && !clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)) {
        return ts.tv_sec + ts.tv_nsec / 1e9;
    }
    return g_get_monotonic_time() / 1e6;
}

#endif
