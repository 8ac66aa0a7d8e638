/*
 * glamo-3d command-queue builder: header-only, freestanding (stdint only),
 * shared by the guest demo, the qtests and the core's unit tests.
 *
 * The command queue (1600h) reads a ring of little-endian 16-bit words in
 * VRAM, as the Linux glamo driver fills it ([EXT] glamo-cmdq.c):
 *   reg, value                          one register write
 *   0x8000 | reg, count, v0..vN-1 [,0]  count writes to reg, reg + 2, ...
 * every packet a multiple of 32 bits. Register numbers are written as
 * given (tests write bad ones on purpose). A 32-bit 3D register is its two
 * 16-bit halves, low half (D[15:0], the lower address) first (L415-L416).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GLAMO_CMD_H
#define GPU3D_GLAMO_CMD_H

#include <stdint.h>
#include "gpu3d/glamo-regs.h"

typedef struct GlamoCmd {
    uint16_t *buf;
    uint32_t n, cap;            /* words used, words available */
    int overflow;               /* set when a packet did not fit */
} GlamoCmd;

/* ---- number formats ------------------------------------------------------ */

static inline uint32_t glamo_fbits(float f)
{
    union { float f; uint32_t u; } x = { f };
    return x.u;
}

/*
 * s[7].16 (docs/glamo-3d.md "Number formats"): sign D23, exponent D22:16
 * biased by 63, 16-bit mantissa; round to nearest even, no denormals
 * (signed zero), saturate to the largest magnitude, NaN -> 0. Matches the
 * core's glamo_f24_from_float (checked by the core's unit test).
 */
static inline uint32_t glamo_f24(float f)
{
    uint32_t u = glamo_fbits(f), s = (u >> 31) << 23, m = u & 0x7fffff;
    int32_t e = (int32_t)((u >> 23) & 0xff);
    uint32_t q, rem;

    if (e == 0xff) {
        return m ? 0 : s | 0x7fffff;
    }
    e = e - 127 + 63;
    if (((u >> 23) & 0xff) == 0 || e <= 0) {
        return s;
    }
    q = (m | 0x800000) >> 7;
    rem = m & 0x7f;
    if (rem > 0x40 || (rem == 0x40 && (q & 1))) {
        q++;
    }
    if (q > 0x1ffff) {
        q >>= 1;
        e++;
    }
    if (e > 127) {
        return s | 0x7fffff;
    }
    return s | (uint32_t)e << 16 | (q & 0xffff);
}

/* ---- packets -------------------------------------------------------------- */

static inline int glamo_cmd_room(GlamoCmd *c, uint32_t words)
{
    if (c->overflow || c->cap - c->n < words) {
        c->overflow = 1;
        return 0;
    }
    return 1;
}

static inline void glamo_cmd_reg(GlamoCmd *c, uint32_t reg, uint16_t val)
{
    if (glamo_cmd_room(c, 2)) {
        c->buf[c->n++] = (uint16_t)reg;
        c->buf[c->n++] = val;
    }
}

static inline void glamo_cmd_burst(GlamoCmd *c, uint32_t reg,
                                   const uint16_t *vals, uint32_t count)
{
    uint32_t i;

    if (!glamo_cmd_room(c, 2 + count + (count & 1))) {
        return;
    }
    c->buf[c->n++] = (uint16_t)(GLAMO_CMDQ_BURST | reg);
    c->buf[c->n++] = (uint16_t)count;
    for (i = 0; i < count; i++) {
        c->buf[c->n++] = vals[i];
    }
    if (count & 1) {
        c->buf[c->n++] = 0;         /* packets are multiples of 32 bits */
    }
}

/* the 3D engine's 16-bit registers (the rest are 32-bit L/H pairs) */
static inline int glamo_reg_is16(uint32_t reg)
{
    switch (reg) {
    case A_MGBufCBMFire: case A_MGBufCMSFire: case A_EGPrim0: case A_EGPrim1:
    case A_EGFIRE: case A_EGZWrMASK: case A_EGZdstInitValue: case A_EGSTIPSEL:
    case A_EGEND: case A_EGPASEND:
        return 1;
    default:
        return 0;
    }
}

/* a 3D register by its A_ address: one write, or the L and H halves */
static inline void glamo_cmd_wr(GlamoCmd *c, uint32_t reg, uint32_t val)
{
    glamo_cmd_reg(c, reg, (uint16_t)val);
    if (!glamo_reg_is16(reg)) {
        glamo_cmd_reg(c, reg + 2, (uint16_t)(val >> 16));
    }
}

/*
 * One vertex through the G/L input registers: position as one burst of
 * RGPXa..RGPWa (s[8].23), packed ARGB8888 diffuse colour (so MGVtxColorfmt
 * 0 and no float diffuse stream declared), then EGFIRE.
 */
static inline void glamo_cmd_vertex(GlamoCmd *c, float x, float y, float z,
                                    float w, uint32_t argb)
{
    uint32_t v[4] = { glamo_fbits(x), glamo_fbits(y), glamo_fbits(z),
                      glamo_fbits(w) };
    uint16_t words[8];
    int k;

    for (k = 0; k < 4; k++) {
        words[2 * k] = (uint16_t)v[k];
        words[2 * k + 1] = (uint16_t)(v[k] >> 16);
    }
    glamo_cmd_burst(c, A_RGPXa, words, 8);
    glamo_cmd_wr(c, A_RGPDIFFa, argb);
    glamo_cmd_wr(c, A_EGFIRE, 0);
}

/*
 * An RGB565 destination at VRAM `fb` (pitch in bytes), clip rectangle
 * 0..w x 0..h, Gouraud shading, solid fill, no culling; a Z16 buffer at
 * `zb` with Z test mode `ztmd` (GLAMO_ZT_*) and Z write, or none when
 * zb is 0. Vertices are screen coordinates (T&L off) until a caller turns
 * RGXScrCoor off.
 */
enum {
    GLAMO_ZT_NEVER = 0, GLAMO_ZT_LESS = 1, GLAMO_ZT_EQUAL = 2,
    GLAMO_ZT_LEQUAL = 3, GLAMO_ZT_GREATER = 4, GLAMO_ZT_NOTEQUAL = 5,
    GLAMO_ZT_GEQUAL = 6, GLAMO_ZT_ALWAYS = 7,
};

static inline void glamo_cmd_target(GlamoCmd *c, uint32_t fb, uint32_t pitch,
                                    uint32_t w, uint32_t h, uint32_t zb,
                                    uint32_t ztmd)
{
    glamo_cmd_wr(c, A_EGDST0SET, (uint32_t)GLAMO_ROP_COPY_PEN << 24 |
                 (uint32_t)GLAMO_CFM_RGB565 << 16 | (pitch / 2));
    glamo_cmd_wr(c, A_EGDST0BAS, fb);
    glamo_cmd_wr(c, A_EGCLTB, h);
    glamo_cmd_wr(c, A_EGCLLR, w);
    glamo_cmd_wr(c, A_EGEN1, 0);
    if (zb) {
        glamo_cmd_wr(c, A_EGZSET, (uint32_t)GLAMO_ZFMT_Z16 << 20 |
                     ztmd << 16 | (pitch / 2));
        glamo_cmd_wr(c, A_EGZBAS, zb);
        glamo_cmd_wr(c, A_EGEN0, R_EGEN0_EGenZT_MASK | R_EGEN0_EGenZW_MASK);
    } else {
        glamo_cmd_wr(c, A_EGEN0, 0);
    }
    glamo_cmd_wr(c, A_RGXFEN3, (uint32_t)GLAMO_SHADE_GOURAUD << 11);
    glamo_cmd_wr(c, A_EGPrim0, GLAMO_FILL_SOLID << 12 | GLAMO_FILL_SOLID);
    glamo_cmd_wr(c, A_RGXFEN0, R_RGXFEN0_RGXScrCoor_MASK |
                 R_RGXFEN0_RGXDisableCull_MASK);
}

/*
 * Clear the target's colour to `argb` and its Z to the far value (1.0 =
 * 0xffff): two screen-space triangles with the Z test ALWAYS. Leaves the Z
 * test mode at `ztmd` for what follows.
 */
static inline void glamo_cmd_clear(GlamoCmd *c, uint32_t fb, uint32_t pitch,
                                   uint32_t w, uint32_t h, uint32_t zb,
                                   uint32_t ztmd, uint32_t argb)
{
    const float fw = (float)w, fh = (float)h;

    glamo_cmd_target(c, fb, pitch, w, h, zb, GLAMO_ZT_ALWAYS);
    glamo_cmd_wr(c, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    glamo_cmd_vertex(c, 0, 0, 1, 1, argb);
    glamo_cmd_vertex(c, fw, 0, 1, 1, argb);
    glamo_cmd_vertex(c, fw, fh, 1, 1, argb);
    glamo_cmd_vertex(c, 0, 0, 1, 1, argb);
    glamo_cmd_vertex(c, fw, fh, 1, 1, argb);
    glamo_cmd_vertex(c, 0, fh, 1, 1, argb);
    if (zb) {
        glamo_cmd_wr(c, A_EGZSET, (uint32_t)GLAMO_ZFMT_Z16 << 20 |
                     ztmd << 16 | (pitch / 2));
    }
}

/* show VRAM `fb` on the LCD: queued, so it waits for the draws before it */
static inline void glamo_cmd_lcd_base(GlamoCmd *c, uint32_t fb)
{
    glamo_cmd_reg(c, A_GLAMO_LCD_A_BASE1, (uint16_t)fb);
    glamo_cmd_reg(c, A_GLAMO_LCD_A_BASE2, (fb >> 16) & GLAMO_LCD_BASE2_MASK);
}

/*
 * Register writes (offset, 16-bit value) done over the host bus, for
 * callers to apply in order with their own 16-bit write.
 */
typedef struct GlamoRegWrite {
    uint16_t off, val;
} GlamoRegWrite;

/* 3D clocks on, both engine resets pulsed, MMIO to the 3D engine and CQ */
static inline unsigned glamo_seq_enable_3d(GlamoRegWrite *w)
{
    w[0] = (GlamoRegWrite){ A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_RUN |
                            GLAMO_CLOCK_3D_FRONT_RESET |
                            GLAMO_CLOCK_3D_BACK_RESET };
    w[1] = (GlamoRegWrite){ A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_RUN };
    w[2] = (GlamoRegWrite){ A_GLAMO_HOSTBUS2, GLAMO_HOSTBUS2_MMIO_EN_3D |
                            GLAMO_HOSTBUS2_MMIO_EN_CQ };
    return 3;
}

/*
 * glamo_cmdq_init() of the driver: the command-queue clock on and its
 * reset pulsed, a ring of `size` bytes (a multiple of 1 KiB) at VRAM
 * `base`, both pointers 0, CONTROL with D[10:8] = `irq` (5: no interrupt).
 */
static inline unsigned glamo_seq_cmdq_init(GlamoRegWrite *w, uint32_t base,
                                           uint32_t size, unsigned irq)
{
    w[0] = (GlamoRegWrite){ A_GLAMO_CLOCK_2D, GLAMO_CLOCK_2D_EN_M6CLK |
                            GLAMO_CLOCK_2D_CQ_RESET };
    w[1] = (GlamoRegWrite){ A_GLAMO_CLOCK_2D, GLAMO_CLOCK_2D_EN_M6CLK };
    w[2] = (GlamoRegWrite){ A_GLAMO_CMDQ_BASE_ADDRL, (uint16_t)base };
    w[3] = (GlamoRegWrite){ A_GLAMO_CMDQ_BASE_ADDRH,
                            (base >> 16) & GLAMO_CMDQ_ADDRH_MASK };
    w[4] = (GlamoRegWrite){ A_GLAMO_CMDQ_LEN, (uint16_t)((size >> 10) - 1) };
    w[5] = (GlamoRegWrite){ A_GLAMO_CMDQ_WRITE_ADDRH, 0 };
    w[6] = (GlamoRegWrite){ A_GLAMO_CMDQ_WRITE_ADDRL, 0 };
    w[7] = (GlamoRegWrite){ A_GLAMO_CMDQ_READ_ADDRH, 0 };
    w[8] = (GlamoRegWrite){ A_GLAMO_CMDQ_READ_ADDRL, 0 };
    w[9] = (GlamoRegWrite){ A_GLAMO_CMDQ_CONTROL,
                            (uint16_t)(1 << 12 | (irq & 7) << 8 | 8 << 4) };
    return 10;
}

/* the LCD: RGB565 at VRAM `fb`, w x h, pitch in bytes, pixel clock on */
static inline unsigned glamo_seq_lcd(GlamoRegWrite *w, uint32_t fb,
                                     uint32_t pitch, uint32_t width,
                                     uint32_t height)
{
    w[0] = (GlamoRegWrite){ A_GLAMO_CLOCK_LCD, GLAMO_CLOCK_LCD_EN_DCLK };
    w[1] = (GlamoRegWrite){ A_GLAMO_LCD_MODE3, GLAMO_LCD_SRC_RGB565 | 0x0b40 };
    w[2] = (GlamoRegWrite){ A_GLAMO_LCD_WIDTH, (uint16_t)width };
    w[3] = (GlamoRegWrite){ A_GLAMO_LCD_HEIGHT, (uint16_t)height };
    w[4] = (GlamoRegWrite){ A_GLAMO_LCD_PITCH, (uint16_t)pitch };
    w[5] = (GlamoRegWrite){ A_GLAMO_LCD_A_BASE1, (uint16_t)fb };
    w[6] = (GlamoRegWrite){ A_GLAMO_LCD_A_BASE2,
                            (fb >> 16) & GLAMO_LCD_BASE2_MASK };
    return 7;
}

/* the write pointer after `n` words at byte offset `wptr` of a ring */
static inline uint32_t glamo_ring_advance(uint32_t wptr, uint32_t n,
                                          uint32_t size)
{
    return (wptr + 2 * n) % size;
}

/* CMDQ_STATUS as glamo_cmdq_wait() of the driver waits for it: queue
 * empty, no packet in flight, 3D engine not busy */
static inline int glamo_cmdq_idle(uint16_t status)
{
    return (status & (GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE |
                      GLAMO_CMDQ_STATUS_3D_BUSY)) ==
           (GLAMO_CMDQ_STATUS_EMPTY | GLAMO_CMDQ_STATUS_IDLE);
}

#endif
