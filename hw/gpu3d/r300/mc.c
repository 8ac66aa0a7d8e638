/*
 * R300 memory controller: the GPU address space the CP, VAP, TX, CB and ZB
 * use. VRAM sits at MC_FB_LOCATION; the PCI GART (AIC_*) maps the range
 * AIC_LO_ADDR..AIC_HI_ADDR page by page onto guest memory through a table of
 * 32-bit bus addresses at AIC_PT_BASE [Linux radeon radeon_reg.h, r300-core.c; Linux
 * r100 PCI GART]. Anything else (the AGP aperture of an AGP card) is not
 * reachable on this PCI device.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

typedef enum { MC_NONE, MC_FB, MC_GART } MCSpace;

static MCSpace mc_space(R300Core *c, uint64_t addr, uint64_t *off)
{
    uint32_t fb = R300_REG(c, A_MC_FB_LOCATION);
    uint64_t fb_start = (uint64_t)(fb & 0xFFFF) << 16;
    uint64_t fb_top = ((uint64_t)(fb >> 16) << 16) | 0xFFFF;

    if (addr >= fb_start && addr <= fb_top && addr - fb_start < c->cfg.vram_size) {
        *off = addr - fb_start;
        return MC_FB;
    }
    if ((R300_REG(c, A_AIC_CNTL) & R_AIC_CNTL_PCIGART_TRANSLATE_EN_MASK) &&
        addr >= R300_REG(c, A_AIC_LO_ADDR) &&
        addr <= R300_REG(c, A_AIC_HI_ADDR)) {
        *off = addr - R300_REG(c, A_AIC_LO_ADDR);
        return MC_GART;
    }
    return MC_NONE;
}

/* the bus address of GART offset `off`, or false */
static bool gart_translate(R300Core *c, uint64_t off, uint64_t *bus)
{
    uint32_t entry;
    uint64_t pte = R300_REG(c, A_AIC_PT_BASE) + (off / R300_GART_PAGE_SIZE) * 4;

    if (!g3d_mem_read32le(&c->cfg.sys, pte, &entry)) {
        return false;
    }
    *bus = (entry & ~(uint64_t)(R300_GART_PAGE_SIZE - 1)) +
           off % R300_GART_PAGE_SIZE;
    return true;
}

static void *mc_map(void *opaque, uint64_t addr, uint64_t len, bool is_write)
{
    R300Core *c = opaque;
    uint64_t off, bus;

    if (len == 0 || addr + len < addr) {
        return NULL;
    }
    switch (mc_space(c, addr, &off)) {
    case MC_FB:
        /* the whole range must stay in VRAM and inside the FB aperture */
        if (mc_space(c, addr + len - 1, &bus) != MC_FB) {
            return NULL;
        }
        return g3d_mem_map(&c->cfg.vram, off, len, is_write);
    case MC_GART:
        /* only within one page: pages need not be contiguous in the guest */
        if (off % R300_GART_PAGE_SIZE + len > R300_GART_PAGE_SIZE ||
            !gart_translate(c, off, &bus)) {
            return NULL;
        }
        return g3d_mem_map(&c->cfg.sys, bus, len, is_write);
    default:
        return NULL;
    }
}

/* With buf == NULL only check that every byte is reachable. */
static bool mc_access(R300Core *c, uint64_t addr, void *buf, uint64_t len,
                      bool is_write)
{
    uint8_t *p = buf;

    while (len) {
        uint64_t off, bus, n;
        bool ok;

        switch (mc_space(c, addr, &off)) {
        case MC_FB:
            n = MIN(len, c->cfg.vram_size - off);
            ok = !p || (is_write ? g3d_mem_write(&c->cfg.vram, off, p, n)
                                 : g3d_mem_read(&c->cfg.vram, off, p, n));
            break;
        case MC_GART:
            n = MIN(len, R300_GART_PAGE_SIZE - off % R300_GART_PAGE_SIZE);
            /* the dry pass checks the translation only */
            ok = gart_translate(c, off, &bus) &&
                 (!p || (is_write ? g3d_mem_write(&c->cfg.sys, bus, p, n)
                                  : g3d_mem_read(&c->cfg.sys, bus, p, n)));
            break;
        default:
            return false;
        }
        if (!ok) {
            return false;
        }
        addr += n;
        if (p) {
            p += n;
        }
        len -= n;
    }
    return true;
}

/* all or nothing: check the whole range before copying any of it */
static bool mc_read(void *opaque, uint64_t addr, void *buf, uint64_t len)
{
    return mc_access(opaque, addr, NULL, len, false) &&
           mc_access(opaque, addr, buf, len, false);
}

static bool mc_write(void *opaque, uint64_t addr, const void *buf,
                     uint64_t len)
{
    return mc_access(opaque, addr, NULL, len, true) &&
           mc_access(opaque, addr, (void *)buf, len, true);
}

void r300_mc_init(R300Core *c)
{
    c->gpu.opaque = c;
    c->gpu.map = mc_map;
    c->gpu.read = mc_read;
    c->gpu.write = mc_write;
}

const G3DMem *r300_gpu_mem(R300Core *c)
{
    return &c->gpu;
}
