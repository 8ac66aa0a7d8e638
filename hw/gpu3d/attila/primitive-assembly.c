/*
 * Primitive Assembly: triangles from the draw's vertex list
 * (GPUEmulator::emulatePrimitiveAssembly; ATTILA ref. Primitive Types;
 * reference defect ATTILA-19, docs/references.md): strips swap the first two
 * vertices of every second triangle, fans share vertex 0, a quad is (0 1 3)(1 2
 * 3), a quad strip step is (n-3 n-2 n)(n-1 n-3 n). Lines and points are not
 * implemented by ATTILA (the caller reports them).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

void attila_primitive_assembly(uint32_t mode, uint32_t count,
                               AttilaTriangleFn *fn, void *opaque)
{
    uint32_t i;

    switch (mode) {
    case ATTILA_PRIM_TRIANGLE:
        for (i = 0; i + 3 <= count; i += 3) {
            fn(opaque, i, i + 1, i + 2);
        }
        break;
    case ATTILA_PRIM_TRIANGLE_STRIP:
        for (i = 2; i < count; i++) {
            if ((i - 2) % 2 == 0) {
                fn(opaque, i - 2, i - 1, i);
            } else {
                fn(opaque, i - 1, i - 2, i);
            }
        }
        break;
    case ATTILA_PRIM_TRIANGLE_FAN:
        for (i = 2; i < count; i++) {
            fn(opaque, 0, i - 1, i);
        }
        break;
    case ATTILA_PRIM_QUAD:
        for (i = 0; i + 4 <= count; i += 4) {
            fn(opaque, i, i + 1, i + 3);
            fn(opaque, i + 1, i + 2, i + 3);
        }
        break;
    case ATTILA_PRIM_QUAD_STRIP:
        for (i = 3; i < count; i += 2) {
            fn(opaque, i - 3, i - 2, i);
            fn(opaque, i - 1, i - 3, i);
        }
        break;
    default:
        break;
    }
}
