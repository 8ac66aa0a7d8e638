/*
 * The guest demo's scene (guest/attila-scene.h) through the core alone:
 * the same records the demo puts in its ring, vertices in system memory.
 * Shared by the scene test and the benchmark.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_TESTS_ATTILA_SCENE_RUN_H
#define GPU3D_TESTS_ATTILA_SCENE_RUN_H

#include <glib.h>

#include "attila-run.h"
#include "attila-scene.h"

#define ATTILA_SCENE_SYS_SIZE (1u << 20)

/* a core of gpu_size bytes of GPU memory with the scene set up: vertices
 * at system memory 0 */
static inline AttilaRun *attila_scene_run_sized(uint64_t gpu_size, uint32_t w,
                                                uint32_t h, int threads)
{
    AttilaRun *run = attila_run_new(gpu_size, ATTILA_SCENE_SYS_SIZE, threads);
    uint8_t *buf = g_malloc(16384);
    AttilaRecBuf b = { buf, 0, 16384, 0 };

    scene_vertices((float *)run->sys);
    attila_scene_setup(&b, w, h, 0x80000000u);
    g_assert_false(b.overflow);
    g_assert_true(attila_run_records(run, b.buf, b.n));
    g_free(buf);
    return run;
}

static inline AttilaRun *attila_scene_run_new(uint32_t w, uint32_t h,
                                              int threads)
{
    return attila_scene_run_sized(ATTILA_MEM_SIZE_DEFAULT, w, h, threads);
}

/* one frame of the scene, as the demo sends it */
static inline void attila_scene_run_frame(AttilaRun *run, int f, uint32_t w,
                                          uint32_t h)
{
    uint8_t buf[1024];
    AttilaRecBuf b = { buf, 0, sizeof(buf), 0 };

    attila_scene_frame(&b, f, w, h);
    g_assert_false(b.overflow);
    g_assert_true(attila_run_records(run, b.buf, b.n));
}

#endif
