/*
 * R300 ZB HyperZ: the ZMASK RAM (Z compression and fast Z clear) and the
 * HiZ RAM (hierarchical Z), both on chip, one copy per pixel pipe (R300
 * has two). Registers: ZB_BW_CNTL, ZB_DEPTHCLEARVALUE, ZB_HIZ_* and
 * SC_HYPERZ_EN [R3xx 3D ref. §1.11 ZB, §1.6 SC]; ZB_ZMASK_* and the
 * 3D_CLEAR_ZMASK / 3D_CLEAR_HIZ packets are not in the reference (Mesa
 * r300_reg.h, r300_emit.c, r300_blit.c, r300_hyperz.c).
 *
 * The RAMs' layout inside a pipe is not public; this is r300-3d's, and the
 * ZB, the clear packets and the register ports all use it
 * (docs/r300-3d.md "HyperZ"):
 *
 *   A RAM index (ZB_*_WRINDEX/RDINDEX, bytes, dword aligned) counts dwords
 *   of both pipes interleaved: dword index bit 0 is the pipe, the rest the
 *   pipe's address. The *_OFFSET registers are such an index too; the
 *   clear packets' start and count are pipe addresses, broadcast to both.
 *
 *   HiZ: 8 bits per 4x4 block, a dword per 8x8 pixels with the reference's
 *   byte order (BITPOS = 16 * X[2] + 8 * Y[2], ZB_HIZ_DWORD); pipe X[3],
 *   address HIZ_OFFSET / 8 + Y[11:3] * HIZ_PITCH[13:4] + X[11:4]. The
 *   reference's address (Y * HIZ_PITCH[13:5] + X[11:5]) leaves X[4:3] to
 *   the pipe, a 4-pipe split; with R300's 2 pipes X[4] stays in the
 *   address, which is also the 2-pipe size Mesa allocates
 *   (r300_texture_desc.c: hiz dwords = stride * height / (64 * pipes)).
 *
 *   ZMASK: 2 bits per 4x4 block, a dword per 16x16 pixels (block (bx, by)
 *   at bit 2 * (4 * (by & 3) + (bx & 3))); pipe X[4], address
 *   ZMASK_OFFSET / 8 + Y[11:4] * ZMASK_PITCH / 32 + X[11:5] (Mesa sizes
 *   the ZMASK of 2 pipes by 32x16 pixels per dword, r300_texture_desc.c).
 *   Code 0 is a cleared block: "when a block has a Z Mask value of 0, all
 *   Z values in that block are cleared to [ZB_DEPTHCLEARVALUE]"
 *   [R3xx 3D ref. ZB_DEPTHCLEARVALUE]. The compressed forms of codes 1 and
 *   2 are not public: the device never writes them and reads every non-zero
 *   code as "the block's values are in memory", writing 3.
 *
 * The Z unit consults the ZMASK with ZB_BW_CNTL.FAST_FILL and RD_COMP
 * ("look in the ZMASK RAM first", Mesa r300_blit.c r300_clear): the first
 * access to a cleared block writes ZB_DEPTHCLEARVALUE to its 16 pixels and
 * marks it 3, so reads return the clear value and nothing else changes.
 * That is also Mesa's decompression, a rectangle drawn with FAST_FILL and
 * RD_COMP and the Z test off (r300_decompress_zmask). WR_COMP alone marks
 * written blocks 3.
 *
 * HiZ keeps, per block, the top 8 bits of the block's largest stored Z
 * (ZB_BW_CNTL.HIZ_MIN clear) or smallest (set), recomputed over the block
 * after each Z write. With SC_HYPERZ_EN.HZ_EN and ZB_BW_CNTL.HIZ_ENABLE
 * the SC rejects a fragment whose top 8 Z bits are above that value (HZ_MAX
 * clear: a LESS/LEQUAL test cannot pass) or below it (HZ_MAX set). Both
 * bounds are floors of the same 8 bits and the compare is strict, so a
 * rejected fragment is one the Z test fails: the reject never changes an
 * image while the RAM matches the buffer (after 3D_CLEAR_HIZ with the
 * buffer's clear value, as Mesa does). HZ_ADJ widens the hardware's margin
 * for its own rounding; this exact compare needs none and ignores it. The
 * reject is per pixel where the chip rejects whole blocks: the same pixels
 * end up unwritten.
 *
 * The RAMs' bits are changed with atomics: a block belongs to one render
 * thread's screen tile, except with multisampling counts that do not
 * divide 4.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"
#include "tile.h"
#include "gpu3d/r300-regs.h"

#define ZMASK_CLEARED       0
#define ZMASK_IN_MEMORY     3

static uint32_t ram_get(const uint32_t *w)
{
    return __atomic_load_n(w, __ATOMIC_RELAXED);
}

/* the bits of `mask` in *w become those of `val` */
static void ram_put(uint32_t *w, uint32_t mask, uint32_t val)
{
    uint32_t old = ram_get(w), nw;

    do {
        nw = (old & ~mask) | (val & mask);
    } while (nw != old &&
             !__atomic_compare_exchange_n(w, &old, nw, true, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED));
}

/* global dword index of pipe `pipe`'s address `a` */
static inline uint32_t ram_index(uint32_t a, unsigned pipe)
{
    return a << 1 | pipe;
}

static uint32_t hiz_addr(const R300HyperZ *hz, int x, int y)
{
    return hz->hiz_base + (uint32_t)(y >> 3) * hz->hiz_pitch + (x >> 4);
}

static uint32_t zmask_addr(const R300HyperZ *hz, int x, int y)
{
    return hz->zmask_base + (uint32_t)(y >> 4) * hz->zmask_pitch + (x >> 5);
}

static uint32_t *zmask_word(const R300DrawState *ds, int x, int y,
                            unsigned *shift)
{
    const R300HyperZ *hz = &ds->hz;
    uint32_t a = zmask_addr(hz, x, y);

    if (a >= R300_ZMASK_PIPE_DWORDS) {
        return NULL;        /* r300_zb_draw_setup refused such a draw */
    }
    *shift = 2 * (4 * ((y >> 2) & 3) + ((x >> 2) & 3));
    return &hz->zmask_ram[ram_index(a, (x >> 4) & 1)];
}

static uint32_t *hiz_word(const R300DrawState *ds, int x, int y,
                          unsigned *shift)
{
    const R300HyperZ *hz = &ds->hz;
    uint32_t a = hiz_addr(hz, x, y);

    if (a >= R300_HIZ_PIPE_DWORDS) {
        return NULL;
    }
    *shift = 16 * ((x >> 2) & 1) + 8 * ((y >> 2) & 1);
    return &hz->hiz_ram[ram_index(a, (x >> 3) & 1)];
}

static uint32_t zb_load(const R300DrawState *ds, int x, int y)
{
    const uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);
    uint32_t v = p[0] | p[1] << 8;

    if (ds->zbpp == 4) {
        v |= p[2] << 16 | (uint32_t)p[3] << 24;
    }
    return v;
}

static void zb_store(const R300DrawState *ds, int x, int y, uint32_t v)
{
    uint8_t *p = ds->zbase + r300_tile_offset(&ds->ztiling, x, y);

    p[0] = v;
    p[1] = v >> 8;
    if (ds->zbpp == 4) {
        p[2] = v >> 16;
        p[3] = v >> 24;
    }
}

/* the 8 bits HiZ keeps of a stored depth word */
static unsigned hiz_bits(const R300DrawState *ds, uint32_t word)
{
    return ds->zbpp == 4 ? word >> 24 : (word >> 8) & 0xFF;
}

/* the 4x4 block of pixel (x, y), clipped to the mapped buffer */
static void block_of(const R300DrawState *ds, int x, int y, int *x0, int *y0,
                     int *x1, int *y1)
{
    *x0 = x & ~3;
    *y0 = y & ~3;
    *x1 = MIN(*x0 + 4, (int)ds->zpitch);
    *y1 = MIN(*y0 + 4, (int)ds->zrows);
}

bool r300_zb_hiz_reject(const R300DrawState *ds, int x, int y, uint32_t zin)
{
    unsigned shift, hiz, z8;
    uint32_t *w;

    if (!ds->hz.hiz_reject || !(w = hiz_word(ds, x, y, &shift))) {
        return false;
    }
    hiz = (ram_get(w) >> shift) & 0xFF;
    z8 = ds->zbpp == 4 ? zin >> 16 : zin >> 8;
    return ds->hz.sc_max ? z8 < hiz : z8 > hiz;
}

void r300_zb_fetch(const R300DrawState *ds, int x, int y)
{
    unsigned shift;
    uint32_t *w;
    int x0, y0, x1, y1, bx, by;

    if (!ds->hz.zmask_rd || !(w = zmask_word(ds, x, y, &shift)) ||
        ((ram_get(w) >> shift) & 3) != ZMASK_CLEARED) {
        return;
    }
    block_of(ds, x, y, &x0, &y0, &x1, &y1);
    for (by = y0; by < y1; by++) {
        for (bx = x0; bx < x1; bx++) {
            zb_store(ds, bx, by, ds->hz.clear);
        }
    }
    ram_put(w, 3u << shift, (uint32_t)ZMASK_IN_MEMORY << shift);
}

void r300_zb_written(const R300DrawState *ds, int x, int y)
{
    unsigned shift, ext, v;
    uint32_t *w;
    int x0, y0, x1, y1, bx, by;

    if (ds->hz.zmask_wr && (w = zmask_word(ds, x, y, &shift))) {
        ram_put(w, 3u << shift, (uint32_t)ZMASK_IN_MEMORY << shift);
    }
    if (!ds->hz.hiz_update || !(w = hiz_word(ds, x, y, &shift))) {
        return;
    }
    /* the block's new extreme, as the Z cache holds the whole block */
    block_of(ds, x, y, &x0, &y0, &x1, &y1);
    ext = ds->hz.hiz_min ? 0xFF : 0;
    for (by = y0; by < y1; by++) {
        for (bx = x0; bx < x1; bx++) {
            v = hiz_bits(ds, zb_load(ds, bx, by));
            ext = ds->hz.hiz_min ? MIN(ext, v) : MAX(ext, v);
        }
    }
    ram_put(w, 0xFFu << shift, ext << shift);
}

/* the highest pipe address a ZB_*_OFFSET and pitch reach over the buffer */
static uint64_t last_addr(uint32_t base, uint32_t pitch, uint32_t rows,
                          unsigned yshift, uint32_t cols)
{
    return (uint64_t)base + (uint64_t)((rows - 1) >> yshift) * pitch + cols;
}

void r300_zb_draw_setup(R300Core *c, R300DrawState *ds)
{
    R300HyperZ *hz = &ds->hz;
    uint32_t bw = R300_REG(c, A_ZB_BW_CNTL);
    uint32_t sc = R300_REG(c, A_SC_HYPERZ_EN);
    uint32_t w = ds->zpitch;

    memset(hz, 0, sizeof(*hz));
    /* "ZB_CB_CLEAR does not interact with zbuffer compression" (Mesa
     * r300_blit.c) */
    if (!ds->zbase || ds->zb_cb_clear) {
        return;
    }
    hz->zmask_ram = c->zmask_ram;
    hz->hiz_ram = c->hiz_ram;
    hz->clear = ds->zbpp == 4 ? ds->zclear : ds->zclear & 0xFFFF;
    hz->zmask_rd = (bw & R_ZB_BW_CNTL_FAST_FILL_MASK) &&
                   (bw & R_ZB_BW_CNTL_RD_COMP_ENABLE_MASK);
    hz->zmask_wr = bw & R_ZB_BW_CNTL_WR_COMP_ENABLE_MASK;
    hz->hiz_update = bw & R_ZB_BW_CNTL_HIZ_ENABLE_MASK;
    hz->hiz_reject = hz->hiz_update && (sc & R_SC_HYPERZ_EN_HZ_EN_MASK);
    hz->hiz_min = bw & R_ZB_BW_CNTL_HIZ_MIN_MASK;
    hz->sc_max = sc & R_SC_HYPERZ_EN_HZ_MAX_MASK;
    /* ZB_ZMASK_* are outside the reference's table, stored unmasked:
     * offset 18:4 (Mesa r300_reg.h), pitch as ZB_HIZ_PITCH's 13:4 */
    hz->zmask_base = (R300_REG(c, A_ZB_ZMASK_OFFSET) & 0x7FFF0) >> 3;
    hz->zmask_pitch = (R300_REG(c, A_ZB_ZMASK_PITCH) & 0x3FF0) >> 5;
    hz->hiz_base = R300_REG(c, A_ZB_HIZ_OFFSET) >> 3;
    hz->hiz_pitch = R300_REG(c, A_ZB_HIZ_PITCH) >> 4;

    if ((hz->zmask_rd || hz->zmask_wr) &&
        (hz->zmask_pitch * 32 < MIN(w, 4096u) ||
         last_addr(hz->zmask_base, hz->zmask_pitch, ds->zrows, 4,
                   (w - 1) >> 5) >= R300_ZMASK_PIPE_DWORDS)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: ZB_ZMASK_OFFSET 0x%x / ZB_ZMASK_PITCH %u do not fit "
                  "a %ux%u depth buffer in the ZMASK RAM; Z compression "
                  "off for the draw", R300_REG(c, A_ZB_ZMASK_OFFSET),
                  R300_REG(c, A_ZB_ZMASK_PITCH), w, ds->zrows);
        hz->zmask_rd = hz->zmask_wr = false;
    }
    if (hz->hiz_update &&
        (hz->hiz_pitch * 16 < MIN(w, 4096u) ||
         last_addr(hz->hiz_base, hz->hiz_pitch, ds->zrows, 3,
                   (w - 1) >> 4) >= R300_HIZ_PIPE_DWORDS)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: ZB_HIZ_OFFSET 0x%x / ZB_HIZ_PITCH %u do not fit a "
                  "%ux%u depth buffer in the HiZ RAM; HiZ off for the draw",
                  R300_REG(c, A_ZB_HIZ_OFFSET), R300_REG(c, A_ZB_HIZ_PITCH),
                  w, ds->zrows);
        hz->hiz_update = hz->hiz_reject = false;
    }
    hz->on = hz->zmask_rd || hz->zmask_wr || hz->hiz_update;
}

/*
 * 3D_CLEAR_ZMASK / 3D_CLEAR_HIZ: `count` pipe addresses from `start` set
 * to `val` in both pipes (Mesa r300_emit.c: start 0, the buffer's dwords per
 * pipe, the value)
 */
void r300_zb_clear_ram(R300Core *c, bool hiz, const uint32_t *b)
{
    uint32_t *ram = hiz ? c->hiz_ram : c->zmask_ram;
    uint32_t size = hiz ? R300_HIZ_PIPE_DWORDS : R300_ZMASK_PIPE_DWORDS;
    uint32_t start = b[0], count = b[1], a;

    r300_flush_render(c);
    if (start > size || count > size - start) {
        g3d_error(&c->errors, 0, 0,
                  "r300: 3D_CLEAR_%s of %u dwords at %u past the %u-dword "
                  "RAM; clipped", hiz ? "HIZ" : "ZMASK", count, start, size);
        start = MIN(start, size);
        count = size - start;
    }
    for (a = start; a < start + count; a++) {
        ram[ram_index(a, 0)] = b[2];
        ram[ram_index(a, 1)] = b[2];
    }
}

/*
 * ZB_{HIZ,ZMASK}_DWORD: a write goes to both pipes at WRINDEX and advances
 * it two dwords; a read returns RDINDEX's dword and advances it two
 * [R3xx 3D ref. ZB_HIZ_WRINDEX, ZB_HIZ_RDINDEX; the ZMASK's the same, Mesa
 * r300_reg.h]
 */
static uint32_t *port_ram(R300Core *c, bool hiz, uint32_t idx)
{
    uint32_t size = 2 * (hiz ? R300_HIZ_PIPE_DWORDS : R300_ZMASK_PIPE_DWORDS);
    uint32_t i = idx >> 2;

    if (i >= size) {
        g3d_error(&c->errors, 0, 0, "r300: ZB_%s index 0x%x past the RAM; "
                  "access skipped", hiz ? "HIZ" : "ZMASK", idx);
        return NULL;
    }
    return (hiz ? c->hiz_ram : c->zmask_ram) + i;
}

void r300_zb_port_write(R300Core *c, bool hiz, uint32_t val)
{
    uint32_t reg = hiz ? A_ZB_HIZ_WRINDEX : A_ZB_ZMASK_WRINDEX;
    uint32_t idx = R300_REG(c, reg) & R300_ZB_RAM_INDEX_MASK;
    uint32_t *p;

    r300_flush_render(c);
    p = port_ram(c, hiz, idx & ~4u);
    if (p) {
        p[0] = p[1] = val;
    }
    R300_REG(c, reg) = (idx + 8) & R300_ZB_RAM_INDEX_MASK;
}

uint32_t r300_zb_port_read(R300Core *c, bool hiz)
{
    uint32_t reg = hiz ? A_ZB_HIZ_RDINDEX : A_ZB_ZMASK_RDINDEX;
    uint32_t idx = R300_REG(c, reg) & R300_ZB_RAM_INDEX_MASK;
    uint32_t *p;

    r300_flush_render(c);
    p = port_ram(c, hiz, idx);
    R300_REG(c, reg) = (idx + 8) & R300_ZB_RAM_INDEX_MASK;
    return p ? *p : 0;
}
