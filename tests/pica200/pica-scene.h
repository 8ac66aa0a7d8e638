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

/* vertices as (x, y, z, w, r, g, b, a) floats, little-endian, in guest RAM */
static inline void pt_put_vertices(PicaTest *t, uint32_t off, const float *v,
                                   unsigned n)
{
    memcpy(t->ram + off, v, n * 8 * sizeof(float));
}


#endif
