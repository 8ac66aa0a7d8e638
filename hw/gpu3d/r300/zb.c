/*
 * R300 HyperZ: the ZMASK RAM (Z compression and fast Z clear), the HiZ RAM
 * (hierarchical Z) and the RB3D's CMASK RAM (fast clear of a multisampled
 * colour buffer), on chip, one copy per pixel pipe (R300 has two).
 * Registers: ZB_BW_CNTL, ZB_DEPTHCLEARVALUE, ZB_HIZ_* and SC_HYPERZ_EN
 * [R3xx 3D ref. §1.11 ZB, §1.6 SC]; ZB_ZMASK_*, RB3D_CMASK_*, RB3D_CCTL's
 * CMASK_ENABLE and the 3D_CLEAR_ZMASK / _HIZ / _CMASK packets are not in
 * the reference (Mesa r300_reg.h, r300_emit.c, r300_blit.c,
 * r300_hyperz.c).
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
 *   X and Y are pixels: with multisampling a block covers all samples of
 *   its pixels (sample k of pixel x is surface column x * samples + k).
 *
 *   ZMASK (and CMASK, the same): 2 bits per 4x4 block, a dword per 16x16
 *   pixels (block (bx, by)
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
 * CMASK: with RB3D_CCTL.CMASK_ENABLE, target 0's cleared blocks get
 * RB3D_COLOR_CLEAR_VALUE before a fragment is written there or the AA
 * resolve reads them (quad.c); Mesa clears a multisampled colour buffer
 * only this way (r300_blit.c r300_clear).
 *
 * A RAM dword (8x8 or 16x16 pixels) lies in one render thread's 32x32
 * screen tile; its bits are still changed with atomics, which costs
 * nothing and keeps that assumption out of the RAMs' correctness.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"
#include "tile.h"
#include "gpu3d/r300-regs.h"

#define MASK_CLEARED        0
#define MASK_IN_MEMORY      3

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

/* the 2-bit code's dword of pixel (x, y) of a ZMASK / CMASK, or NULL */
static uint32_t *mask_word(const R300BlockMask *m, int x, int y,
                           unsigned *shift)
{
    uint32_t a = m->base + (uint32_t)(y >> 4) * m->pitch + (x >> 5);

    if (a >= R300_ZMASK_PIPE_DWORDS) {
        return NULL;        /* r300_zb_draw_setup refused such a draw */
    }
    *shift = 2 * (4 * ((y >> 2) & 3) + ((x >> 2) & 3));
    return &m->ram[ram_index(a, (x >> 4) & 1)];
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

static uint32_t px_load(const uint8_t *base, const R300Tiling *t, unsigned bpp,
                        int x, int y)
{
    const uint8_t *p = base + r300_tile_offset(t, x, y);
    uint32_t v = 0;
    unsigned i;

    for (i = 0; i < MIN(bpp, 4u); i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

static void px_store(uint8_t *base, const R300Tiling *t, unsigned bpp, int x,
                     int y, uint32_t v)
{
    uint8_t *p = base + r300_tile_offset(t, x, y);
    unsigned i;

    for (i = 0; i < bpp; i++) {
        p[i] = v >> (8 * (i & 3));
    }
}

static uint32_t zb_load(const R300DrawState *ds, int x, int y)
{
    return px_load(ds->zbase, &ds->ztiling, ds->zbpp, x, y);
}

/*
 * Before the first access to a cleared block: its pixels (every sample) get
 * the clear value and the block is marked "in memory". x is a surface
 * column: sample k of pixel px is column px * samples + k.
 */
void r300_mask_fetch(const R300BlockMask *m, int x, int y)
{
    unsigned shift, n = m->samples, k;
    uint32_t *w;
    int px = x / n, x0 = px & ~3, y0 = y & ~3, x1, y1, bx, by;

    if (!m->ram || !(w = mask_word(m, px, y, &shift)) ||
        ((ram_get(w) >> shift) & 3) != MASK_CLEARED) {
        return;
    }
    x1 = MIN(x0 + 4, (int)m->cols);
    y1 = MIN(y0 + 4, (int)m->rows);
    for (by = y0; by < y1; by++) {
        for (bx = x0; bx < x1; bx++) {
            for (k = 0; k < n; k++) {
                px_store(m->surf, m->tiling, m->bpp, bx * n + k, by,
                         m->clear);
            }
        }
    }
    ram_put(w, 3u << shift, (uint32_t)MASK_IN_MEMORY << shift);
}

static void mask_mark(const R300BlockMask *m, int x, int y)
{
    unsigned shift;
    uint32_t *w;

    if (m->ram && (w = mask_word(m, x / m->samples, y, &shift))) {
        ram_put(w, 3u << shift, (uint32_t)MASK_IN_MEMORY << shift);
    }
}

/* the 8 bits HiZ keeps of a stored depth word */
static unsigned hiz_bits(const R300DrawState *ds, uint32_t word)
{
    return ds->zbpp == 4 ? word >> 24 : (word >> 8) & 0xFF;
}

/* the 4x4 block of pixel (x, y), clipped to the mapped buffer's pixels */
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

    if (!ds->hz.hiz_reject || !(w = hiz_word(ds, x / ds->samples, y, &shift))) {
        return false;
    }
    hiz = (ram_get(w) >> shift) & 0xFF;
    z8 = ds->zbpp == 4 ? zin >> 16 : zin >> 8;
    return ds->hz.sc_max ? z8 < hiz : z8 > hiz;
}

void r300_zb_fetch(const R300DrawState *ds, int x, int y)
{
    if (ds->hz.zmask_rd) {
        r300_mask_fetch(&ds->hz.zmask, x, y);
    }
}

void r300_zb_written(const R300DrawState *ds, int x, int y)
{
    unsigned shift, ext, v, n = ds->samples;
    uint32_t *w;
    int x0, y0, x1, y1, bx, by;

    if (ds->hz.zmask_wr) {
        mask_mark(&ds->hz.zmask, x, y);
    }
    if (!ds->hz.hiz_update ||
        !(w = hiz_word(ds, x / ds->samples, y, &shift))) {
        return;
    }
    /* the block's new extreme, as the Z cache holds the whole block */
    block_of(ds, x / ds->samples, y, &x0, &y0, &x1, &y1);
    ext = ds->hz.hiz_min ? 0xFF : 0;
    for (by = y0; by < y1; by++) {
        for (bx = x0 * n; bx < x1 * n; bx++) {
            v = hiz_bits(ds, zb_load(ds, bx, by));
            ext = ds->hz.hiz_min ? MIN(ext, v) : MAX(ext, v);
        }
    }
    ram_put(w, 0xFFu << shift, ext << shift);
}

/* the highest pipe address an *_OFFSET and pitch reach over a surface */
static uint64_t last_addr(uint32_t base, uint32_t pitch, uint32_t rows,
                          unsigned yshift, uint32_t cols)
{
    return (uint64_t)base + (uint64_t)((MAX(rows, 1u) - 1) >> yshift) * pitch +
           cols;
}

/*
 * A ZMASK or CMASK over a surface from its OFFSET (18:4, Mesa r300_reg.h)
 * and PITCH (pixels, 13:4 as ZB_HIZ_PITCH's) registers, which are outside
 * the reference's table and stored unmasked; false (logged) when it does
 * not fit the RAM
 */
static bool mask_setup(R300Core *c, R300BlockMask *m, uint32_t *ram,
                       const char *name, uint32_t off_reg, uint32_t pitch_reg,
                       uint8_t *surf, const R300Tiling *t, unsigned bpp,
                       uint32_t cols, uint32_t rows, uint32_t clear)
{
    uint32_t off = R300_REG(c, off_reg), pitch = R300_REG(c, pitch_reg);

    m->base = (off & 0x7FFF0) >> 3;
    m->pitch = (pitch & 0x3FF0) >> 5;
    if (m->pitch * 32 < MIN(cols, 4096u) ||
        last_addr(m->base, m->pitch, rows, 4, (cols - 1) >> 5) >=
        R300_ZMASK_PIPE_DWORDS) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s offset 0x%x / pitch %u do not fit a %ux%u "
                  "surface in the RAM; off for the draw", name, off, pitch,
                  cols, rows);
        return false;
    }
    m->ram = ram;
    m->samples = c->draw->samples;
    m->surf = surf;
    m->tiling = t;
    m->bpp = bpp;
    m->cols = cols;
    m->rows = rows;
    m->clear = bpp >= 4 ? clear : clear & ((1u << (8 * bpp)) - 1);
    return true;
}

void r300_zb_draw_setup(R300Core *c, R300DrawState *ds)
{
    R300HyperZ *hz = &ds->hz;
    R300Target *cb = &ds->cb[0];
    uint32_t bw = R300_REG(c, A_ZB_BW_CNTL);
    uint32_t sc = R300_REG(c, A_SC_HYPERZ_EN);
    uint32_t w = ds->zpitch;

    memset(hz, 0, sizeof(*hz));
    memset(&ds->cmask, 0, sizeof(ds->cmask));
    /*
     * RB3D_CCTL.CMASK_ENABLE (Mesa r300_reg.h): target 0's cleared blocks
     * read as RB3D_COLOR_CLEAR_VALUE, Mesa's fast clear of a multisampled
     * colour buffer (r300_blit.c r300_clear, r300_emit.c)
     */
    if ((R300_REG(c, A_RB3D_CCTL) & R300_RB3D_CCTL_CMASK_ENABLE) &&
        ds->ncb && cb->base && cb->bpp <= 4 &&
        !mask_setup(c, &ds->cmask, c->cmask_ram, "RB3D_CMASK",
                    A_RB3D_CMASK_OFFSET0, A_RB3D_CMASK_PITCH0, cb->base,
                    &cb->tiling, cb->bpp, cb->pitch, cb->rows,
                    R300_REG(c, A_RB3D_COLOR_CLEAR_VALUE))) {
        memset(&ds->cmask, 0, sizeof(ds->cmask));
    }
    /* "ZB_CB_CLEAR does not interact with zbuffer compression" (Mesa
     * r300_blit.c) */
    if (!ds->zbase || ds->zb_cb_clear) {
        return;
    }
    hz->hiz_ram = c->hiz_ram;
    hz->zmask_rd = (bw & R_ZB_BW_CNTL_FAST_FILL_MASK) &&
                   (bw & R_ZB_BW_CNTL_RD_COMP_ENABLE_MASK);
    hz->zmask_wr = bw & R_ZB_BW_CNTL_WR_COMP_ENABLE_MASK;
    hz->hiz_update = bw & R_ZB_BW_CNTL_HIZ_ENABLE_MASK;
    hz->hiz_reject = hz->hiz_update && (sc & R_SC_HYPERZ_EN_HZ_EN_MASK);
    hz->hiz_min = bw & R_ZB_BW_CNTL_HIZ_MIN_MASK;
    hz->sc_max = sc & R_SC_HYPERZ_EN_HZ_MAX_MASK;
    hz->hiz_base = R300_REG(c, A_ZB_HIZ_OFFSET) >> 3;
    hz->hiz_pitch = R300_REG(c, A_ZB_HIZ_PITCH) >> 4;

    if ((hz->zmask_rd || hz->zmask_wr) &&
        !mask_setup(c, &hz->zmask, c->zmask_ram, "ZB_ZMASK",
                    A_ZB_ZMASK_OFFSET, A_ZB_ZMASK_PITCH, ds->zbase,
                    &ds->ztiling, ds->zbpp, w, ds->zrows, ds->zclear)) {
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

static const struct {
    const char *name;
    uint32_t wrindex, rdindex;
    uint32_t pipe_dwords;
} ram_info[] = {
    [R300_RAM_HIZ] = { "ZB_HIZ", A_ZB_HIZ_WRINDEX, A_ZB_HIZ_RDINDEX,
                       R300_HIZ_PIPE_DWORDS },
    [R300_RAM_ZMASK] = { "ZB_ZMASK", A_ZB_ZMASK_WRINDEX, A_ZB_ZMASK_RDINDEX,
                         R300_ZMASK_PIPE_DWORDS },
    [R300_RAM_CMASK] = { "RB3D_CMASK", A_RB3D_CMASK_WRINDEX,
                         A_RB3D_CMASK_RDINDEX, R300_ZMASK_PIPE_DWORDS },
};

static uint32_t *ram_of(R300Core *c, R300RamId id)
{
    return id == R300_RAM_HIZ ? c->hiz_ram :
           id == R300_RAM_ZMASK ? c->zmask_ram : c->cmask_ram;
}

/*
 * 3D_CLEAR_HIZ / 3D_CLEAR_ZMASK / 3D_CLEAR_CMASK: `count` pipe addresses
 * from `start` set to `val` in both pipes (Mesa r300_emit.c: start 0, the
 * surface's dwords per pipe, the value)
 */
void r300_zb_clear_ram(R300Core *c, R300RamId id, const uint32_t *b)
{
    uint32_t *ram = ram_of(c, id);
    uint32_t size = ram_info[id].pipe_dwords;
    uint32_t start = b[0], count = b[1], a;

    r300_flush_render(c);
    if (start > size || count > size - start) {
        g3d_error(&c->errors, 0, 0,
                  "r300: clear of %u %s dwords at %u past the %u-dword "
                  "RAM; clipped", count, ram_info[id].name, start, size);
        start = MIN(start, size);
        count = size - start;
    }
    for (a = start; a < start + count; a++) {
        ram[ram_index(a, 0)] = b[2];
        ram[ram_index(a, 1)] = b[2];
    }
}

/*
 * *_DWORD: a write goes to both pipes at WRINDEX and advances it two
 * dwords; a read returns RDINDEX's dword and advances it two [R3xx 3D ref.
 * ZB_HIZ_WRINDEX, ZB_HIZ_RDINDEX; the ZMASK's and CMASK's the same, Mesa
 * r300_reg.h]
 */
static uint32_t *port_ram(R300Core *c, R300RamId id, uint32_t idx)
{
    uint32_t i = idx >> 2;

    if (i >= 2 * ram_info[id].pipe_dwords) {
        g3d_error(&c->errors, 0, 0, "r300: %s index 0x%x past the RAM; "
                  "access skipped", ram_info[id].name, idx);
        return NULL;
    }
    return ram_of(c, id) + i;
}

void r300_zb_port_write(R300Core *c, R300RamId id, uint32_t val)
{
    uint32_t reg = ram_info[id].wrindex;
    uint32_t idx = R300_REG(c, reg) & R300_ZB_RAM_INDEX_MASK;
    uint32_t *p;

    r300_flush_render(c);
    p = port_ram(c, id, idx & ~4u);
    if (p) {
        p[0] = p[1] = val;
    }
    R300_REG(c, reg) = (idx + 8) & R300_ZB_RAM_INDEX_MASK;
}

uint32_t r300_zb_port_read(R300Core *c, R300RamId id)
{
    uint32_t reg = ram_info[id].rdindex;
    uint32_t idx = R300_REG(c, reg) & R300_ZB_RAM_INDEX_MASK;
    uint32_t *p;

    r300_flush_render(c);
    p = port_ram(c, id, idx);
    R300_REG(c, reg) = (idx + 8) & R300_ZB_RAM_INDEX_MASK;
    return p ? *p : 0;
}
