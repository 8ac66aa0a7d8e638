/*
 * R300 surfaces: the host interface's view of tiled VRAM. While
 * SURFACEn_INFO gives a range macro and/or micro tiling, CPU accesses to
 * the VRAM BAR inside it see the buffer as linear rows of PITCH * 8 bytes
 * (Linux r100.c r100_set_surface_reg; radeon_object.c maps a tiled buffer
 * for the CPU only through a surface register). The glue holds the
 * registers as the guest writes them and asks r300_surface_translate.
 *
 * The R300 surface has no pixel size (only the two tile bits), so the
 * layout is tile.h's at 32 bpp: 16 x 2 byte micro tiles in 128 x 16 byte
 * macro tiles, or 256 x 8 byte macro tiles without micro tiling. That is
 * byte for byte the layout RB3D, ZB and TX use at 16, 32 and 64 bpp, and
 * at every size for macro tiling alone; micro tiled 8 bpp and square 16 bpp
 * surfaces have other tile shapes and are not de-tiled correctly here.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

static uint32_t *surface_reg(R300Surfaces *s, uint32_t dword)
{
    unsigned i;

    if (dword == A_SURFACE_CNTL) {
        return &s->cntl;
    }
    if (dword < A_SURFACE0_LOWER_BOUND ||
        dword >= A_SURFACE0_LOWER_BOUND + R300_SURFACES * R300_SURFACE_STRIDE) {
        return NULL;
    }
    i = (dword - A_SURFACE0_LOWER_BOUND) / R300_SURFACE_STRIDE;
    switch ((dword - A_SURFACE0_LOWER_BOUND) % R300_SURFACE_STRIDE) {
    case A_SURFACE0_LOWER_BOUND - A_SURFACE0_LOWER_BOUND:
        return &s->lower[i];
    case A_SURFACE0_UPPER_BOUND - A_SURFACE0_LOWER_BOUND:
        return &s->upper[i];
    case A_SURFACE0_INFO - A_SURFACE0_LOWER_BOUND:
        return &s->info[i];
    default:
        return NULL;
    }
}

/* a 1, 2 or 4 byte write into a dword, as the register file merges it */
static bool merge(uint32_t *r, uint32_t offset, uint64_t val, unsigned size)
{
    unsigned shift = (offset & 3) * 8;
    uint32_t mask = size >= 4 ? 0xFFFFFFFFu : ((1u << (size * 8)) - 1) << shift;
    uint32_t old = *r;

    *r = (old & ~mask) | (((uint32_t)val << shift) & mask);
    return *r != old;
}

bool r300_surfaces_write(R300Surfaces *s, uint32_t offset, uint64_t val,
                         unsigned size)
{
    uint32_t *r;

    if ((offset & ~3u) == A_MM_INDEX) {
        merge(&s->mm_index, offset, val, size);
        return false;
    }
    if ((offset & ~3u) == A_MM_DATA) {
        offset = s->mm_index + (offset & 3);
    }
    r = surface_reg(s, offset & ~3u);
    return r && merge(r, offset, val, size);
}

void r300_surfaces_get(R300Core *c, R300Surfaces *s)
{
    unsigned i;

    memset(s, 0, sizeof(*s));
    s->cntl = R300_REG(c, A_SURFACE_CNTL);
    s->mm_index = R300_REG(c, A_MM_INDEX);
    for (i = 0; i < R300_SURFACES; i++) {
        uint32_t o = i * R300_SURFACE_STRIDE;
        s->lower[i] = R300_REG(c, A_SURFACE0_LOWER_BOUND + o);
        s->upper[i] = R300_REG(c, A_SURFACE0_UPPER_BOUND + o);
        s->info[i] = R300_REG(c, A_SURFACE0_INFO + o);
    }
}

static uint32_t surface_pitch(const R300Surfaces *s, unsigned i)
{
    return G3D_FIELD_EX32(s->info[i], SURFACE0_INFO, PITCH) * 8;
}

/* surface i translates: tiled, a pitch, a non-empty range */
static bool surface_tiled(const R300Surfaces *s, unsigned i)
{
    return (s->info[i] & (R_SURFACE0_INFO_TILE_MACRO_MASK |
                          R_SURFACE0_INFO_TILE_MICRO_MASK)) &&
           surface_pitch(s, i) && s->lower[i] <= s->upper[i];
}

bool r300_surfaces_tiled_range(const R300Surfaces *s, uint64_t *lo,
                               uint64_t *hi)
{
    bool any = false;
    unsigned i;

    if (s->cntl & R_SURFACE_CNTL_SURF_TRANSLATION_DIS_MASK) {
        return false;
    }
    for (i = 0; i < R300_SURFACES; i++) {
        if (!surface_tiled(s, i)) {
            continue;
        }
        if (!any || s->lower[i] < *lo) {
            *lo = s->lower[i];
        }
        if (!any || s->upper[i] > *hi) {
            *hi = s->upper[i];
        }
        any = true;
    }
    return any;
}

uint64_t r300_surface_translate(const R300Surfaces *s, uint64_t off)
{
    unsigned i;

    if (s->cntl & R_SURFACE_CNTL_SURF_TRANSLATION_DIS_MASK) {
        return off;
    }
    /* the lowest numbered surface that holds the address wins */
    for (i = 0; i < R300_SURFACES; i++) {
        uint64_t rel, pitch;
        R300Tiling t;

        if (!surface_tiled(s, i) || off < s->lower[i] || off > s->upper[i]) {
            continue;
        }
        rel = off - s->lower[i];
        pitch = surface_pitch(s, i);
        r300_tile_setup(&t, 4, pitch / 4,
                        s->info[i] & R_SURFACE0_INFO_TILE_MACRO_MASK,
                        s->info[i] & R_SURFACE0_INFO_TILE_MICRO_MASK ?
                        R300_MICROTILE_TILED : R300_MICROTILE_LINEAR);
        return s->lower[i] +
               r300_tile_offset(&t, (rel % pitch) / 4, rel / pitch) +
               rel % 4;
    }
    return off;
}
