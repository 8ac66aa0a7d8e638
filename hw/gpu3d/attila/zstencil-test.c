/*
 * The Z Stencil Test unit: the stencil algorithm of the reference
 * (L1797-L1808, ATTILA ref. Registers) and the 24-bit depth test, on the 32-bit
 * z/stencil word of a pixel or sample (depth bits 0-23, stencil 24-31),
 * and the z/stencil clears. The test itself is inline in attila-int.h
 * (attila_zstencil_test), where the rasteriser calls it per sample.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include "common/fill.h"
#include "common/fragment.h"

#include <glib.h>

/* the z/stencil words of a run: words[0] where words[1] keeps nothing */
static void clear_run(uint8_t *p, uint32_t slots, const void *arg)
{
    const uint32_t *words = arg;

    g3d_fill32_keep(p, slots, words[0], words[1]);
}

bool attila_clear_zstencil_target(AttilaCore *c, bool clear_z,
                                  bool clear_stencil, AttilaClear *cl)
{
    uint32_t addr = attila_rf_u32(c, ATTILA_REG_ZSTENCILBUFFER_ADDR, 0);
    uint32_t zc = attila_rf_u32(c, ATTILA_REG_Z_BUFFER_CLEAR, 0) & 0x00ffffff;
    /* the simulator writes (clear && 0xff) << 24; the intent is & 0xff */
    uint32_t sc = (attila_rf_u32(c, ATTILA_REG_STENCIL_BUFFER_CLEAR, 0) & 0xff) << 24;

    cl->base = attila_map_render_buffer(c, &cl->pm, addr, 4, true,
                                        "z/stencil clear");
    if (!cl->base) {
        return false;
    }
    /* whole stamps, as the clear writes them; a run of stamps and an
     * over-scan tile are consecutive (attila_surface_runs) */
    cl->value[0] = (clear_z ? zc : 0) | (clear_stencil ? sc : 0);
    cl->value[1] = (clear_z ? 0 : 0x00ffffff) | (clear_stencil ? 0 : 0xff000000);
    cl->fn = clear_run;
    return true;
}
