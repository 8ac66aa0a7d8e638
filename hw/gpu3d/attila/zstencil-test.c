/*
 * The Z Stencil Test unit: the stencil algorithm of the reference
 * (L1797-L1808, ATTILA ref. Registers) and the 24-bit depth test, on the 32-bit
 * z/stencil word of a pixel or sample (depth bits 0-23, stencil 24-31),
 * and the z/stencil clears.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include "common/fragment.h"

#include <glib.h>

/* ATTILA CompareMode (ALWAYS = 1) to the shared compare functions */
static const G3DCompare cmp_map[8] = {
    G3D_CMP_NEVER, G3D_CMP_ALWAYS, G3D_CMP_LESS, G3D_CMP_LEQUAL,
    G3D_CMP_EQUAL, G3D_CMP_GEQUAL, G3D_CMP_GREATER, G3D_CMP_NOTEQUAL,
};

/* ATTILA StencilUpdateFunction, same order as the shared stencil ops */
static const G3DStencilOp sop_map[8] = {
    G3D_SOP_KEEP, G3D_SOP_ZERO, G3D_SOP_REPLACE, G3D_SOP_INCR_SAT,
    G3D_SOP_DECR_SAT, G3D_SOP_INVERT, G3D_SOP_INCR_WRAP, G3D_SOP_DECR_WRAP,
};

bool attila_zstencil_test(const AttilaDrawState *ds, uint32_t zin,
                          uint32_t *zbuf)
{
    uint32_t buf = *zbuf, depth = buf & 0x00ffffff;
    uint8_t stencil = buf >> 24;
    bool spass = true, zpass = true;

    if (ds->depth_test) {
        /* fragment FUNC buffer */
        zpass = g3d_compare_u(cmp_map[ds->depth_func], zin, depth);
    }
    if (ds->stencil_test) {
        uint32_t op;
        /* (reference & mask) FUNC (buffer & mask) */
        spass = g3d_compare_u(cmp_map[ds->stencil_func],
                              ds->stencil_ref & ds->stencil_mask,
                              stencil & ds->stencil_mask);
        op = !spass ? ds->stencil_fail : zpass ? ds->depth_pass :
             ds->depth_fail;
        if (ds->stencil_wmask) {
            /* masked-off bits are written as 0 (doc L1849) */
            uint8_t s = g3d_stencil_op(sop_map[op], stencil, ds->stencil_ref);
            buf = (buf & 0x00ffffff) | (uint32_t)(s & ds->stencil_wmask) << 24;
        }
    }
    if (ds->depth_test && spass && zpass && ds->depth_mask) {
        buf = (buf & 0xff000000) | (zin & 0x00ffffff);
    }
    *zbuf = buf;
    return spass && zpass;
}

void attila_clear_zstencil(AttilaCore *c, bool clear_z, bool clear_stencil)
{
    uint32_t addr = attila_rf_u32(c, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0);
    uint32_t zc = attila_rf_u32(c, ATTILA_REG_Z_BUFFER_CLEAR, 0) & 0x00ffffff;
    /* the simulator writes (clear && 0xff) << 24; the intent is & 0xff */
    uint32_t sc = (attila_rf_u32(c, ATTILA_REG_STENCIL_BUFFER_CLEAR, 0) & 0xff) << 24;
    AttilaPixelMapper pm;
    uint8_t *base;
    uint32_t x, y, s, n;

    base = attila_map_render_buffer(c, &pm, addr, 4, true, "z/stencil clear");
    if (!base) {
        return;
    }
    /* whole stamps, as the clear writes them; a run of stamps
     * (attila_stamp_run) is consecutive, 4 pixels x samples each */
    for (y = 0; y < pm.height && !g3d_yield(); y += 2) {
        for (x = 0; x < pm.width; x += 2 * n) {
            uint8_t *p = base + attila_pixel_address(&pm, x, y);
            n = attila_stamp_run(&pm, x);
            for (s = 0; s < 4 * pm.samples * n; s++) {
                uint32_t v;
                memcpy(&v, p + 4 * s, 4);
                v = (clear_z ? zc : (v & 0x00ffffff)) |
                    (clear_stencil ? sc : (v & 0xff000000));
                memcpy(p + 4 * s, &v, 4);
            }
        }
    }
}
