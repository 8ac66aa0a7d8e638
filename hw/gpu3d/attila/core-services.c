/*
 * What every ATTILA unit may use of the core: its two memories (attila-sim
 * MemorySpace.h: bit 31 of an address selects system memory), the render
 * buffers in them (the display size, samples and pixel layout of
 * pixel-mapper.c) and the interrupt lines of BAR0. It calls no unit but the
 * pixel mapper, so the units stay below it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include <glib.h>

/* ---- interrupts ---------------------------------------------------------- */

void attila_irq_raise(AttilaCore *c, uint32_t bits)
{
    uint32_t old = c->int_status & c->int_mask;

    c->int_status |= bits;
    if ((c->int_status & c->int_mask) != old && c->cfg.hooks.irq_update) {
        c->cfg.hooks.irq_update(c->cfg.hooks.opaque);
    }
}

bool attila_irq_level(AttilaCore *c)
{
    return (c->int_status & c->int_mask) != 0;
}

/* ---- memory ------------------------------------------------------------- */

#define SPACE_SYSTEM 0x80000000u
#define SPACE_OFFSET 0x7fffffffu

/* Translate an ATTILA range to (memory, host-side address); false if out. */
static bool translate(AttilaCore *c, uint32_t addr, uint64_t len,
                      const G3DMem **mem, uint64_t *out)
{
    uint64_t off = addr & SPACE_OFFSET;

    if (addr & SPACE_SYSTEM) {
        if (!g3d_range_ok(off, len, 0, c->sysmem_size)) {
            return false;
        }
        *mem = &c->cfg.sys;
        *out = c->sysmem_base + off;
        return *out >= c->sysmem_base;      /* no wrap of the 64-bit sum */
    }
    if (!g3d_range_ok(off, len, 0, c->cfg.vram_size)) {
        return false;
    }
    *mem = &c->cfg.vram;
    *out = off;
    return true;
}

void *attila_mem_map(AttilaCore *c, uint32_t addr, uint64_t len,
                     bool is_write)
{
    const G3DMem *m;
    uint64_t a;

    if (len == 0 || !translate(c, addr, len, &m, &a)) {
        return NULL;
    }
    return g3d_mem_map(m, a, len, is_write);
}

bool attila_mem_read(AttilaCore *c, uint32_t addr, void *buf, uint32_t len)
{
    const G3DMem *m;
    uint64_t a;

    if (!translate(c, addr, len, &m, &a)) {
        return false;
    }
    return g3d_mem_read(m, a, buf, len);
}

bool attila_mem_write(AttilaCore *c, uint32_t addr, const void *buf,
                      uint32_t len)
{
    const G3DMem *m;
    uint64_t a;

    if (!translate(c, addr, len, &m, &a)) {
        return false;
    }
    return g3d_mem_write(m, a, buf, len);
}

/* ---- render buffers ------------------------------------------------------- */

/* the surface of a render target / z buffer; NULL (reported) if unusable */
uint32_t attila_samples(const AttilaCore *c)
{
    return attila_rf_bool(c, ATTILA_REG_MULTISAMPLING, 0) ?
           attila_rf_u32(c, ATTILA_REG_MSAA_SAMPLES, 0) : 1;
}

uint8_t *attila_map_render_buffer(AttilaCore *c, AttilaPixelMapper *pm,
                                  uint32_t addr, uint32_t bytes, bool write,
                                  const char *what)
{
    uint32_t w = attila_rf_u32(c, ATTILA_REG_DISPLAY_X_RES, 0);
    uint32_t h = attila_rf_u32(c, ATTILA_REG_DISPLAY_Y_RES, 0);
    uint8_t *p;

    if (!attila_pixel_mapper_init(pm, w, h, attila_samples(c), bytes)) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_DISPLAY_X_RES,
                  "%s: display %ux%u, %u samples, %u-byte pixels unusable",
                  what, w, h, attila_samples(c), bytes);
        return NULL;
    }
    p = attila_mem_map(c, addr, pm->surface, write);
    if (!p) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, addr,
                  "%s 0x%08x + %" G_GUINT64_FORMAT " bytes outside memory",
                  what, addr, pm->surface);
    }
    return p;
}
