/*
 * Scenes for the pica200 core tests, benchmark and fuzzer seeds: the
 * command lists come from gpu3d/pica200-cmd.h (the builder the guest demo
 * and the qtests use); this adds putting vertices into the test's RAM.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef PICA_SCENE_H
#define PICA_SCENE_H

#include "pica-test.h"
#include "pica200-scene.h"

/* vertices as (x, y, z, w, r, g, b, a) floats, little-endian, in guest RAM */
static inline void pt_put_vertices(PicaTest *t, uint32_t off, const float *v,
                                   unsigned n)
{
    memcpy(t->ram + off, v, n * 8 * sizeof(float));
}


/*
 * The demo's scene as the scene test checks it, driven over `bus` (BAR0
 * accessors whose reads work the core): the cube's vertices in guest RAM
 * at PT_SCENE_VB, its lists built at PT_SCENE_LIST where the GPU reads
 * them; the bottom screen shows frame 0 at 320x240, the top one the last
 * frame at 400x240. Leaves the interrupt line low.
 */
#define PT_SCENE_LIST 0x10000u
#define PT_SCENE_LIST_WORDS 4096u
#define PT_SCENE_VB 0x20000u
#define PT_VPA(off) (PICA200_PHYS_VRAM + (off))

static inline void pt_demo_scene(PicaTest *t, const PicaBus *bus)
{
    PicaCmd c = { 0 };
    const uint32_t color = PT_VPA(PICA_SCENE_COLOR_VRAM);
    const uint32_t depth = PT_VPA(PICA_SCENE_DEPTH_VRAM);
    const uint32_t vb = PICA200_PHYS_FCRAM + PT_SCENE_VB;
    const uint32_t list = PICA200_PHYS_FCRAM + PT_SCENE_LIST;

    scene_vertices((float *)(t->ram + PT_SCENE_VB));
    c.buf = (uint32_t *)(t->ram + PT_SCENE_LIST);
    c.cap = PT_SCENE_LIST_WORDS;
    g_assert_cmpint(pica_scene_clear(bus, 320, 240, color, depth), ==, 0);
    g_assert_cmpint(pica_scene_draw(bus, &c, list, 0, 320, 240, color, depth,
                                    vb), ==, 0);
    g_assert_cmpint(pica_scene_show(bus, 1, 0, 320, 240, color,
                                    PT_VPA(PICA_SCENE_BOTTOM_VRAM)), ==, 0);
    g_assert_cmpint(pica_scene_clear(bus, 400, 240, color, depth), ==, 0);
    g_assert_cmpint(pica_scene_draw(bus, &c, list, SCENE_FRAMES - 1, 400,
                                    240, color, depth, vb), ==, 0);
    g_assert_cmpint(pica_scene_show(bus, 0, 1, 400, 240, color,
                                    PT_VPA(PICA_SCENE_TOP_VRAM(1))), ==, 0);
    g_assert_false(pica200_irq_level(t->core));
}

#endif
