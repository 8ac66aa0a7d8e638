/*
 * flipper-gx command builder: the bytes a GameCube program writes to the
 * write-gather pipe (GX FIFO packets with big-endian fields, YAGCD §5.11.5 GP
 * packets), the frame set-up and EFB -> XFB copy every picture of the project
 * uses, and the VI register sequence that shows a 640x480 XFB. Header-only and
 * freestanding: the guest demo, the qtests, the unit tests and the host
 * tools (scenes, Dolphin FIFO logs) all build their streams with it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_FLIPPER_CMD_H
#define GPU3D_FLIPPER_CMD_H

#include <stdint.h>
#include "gpu3d/flipper-regs.h"

/* A command buffer; bytes past `cap` are counted in `len` but dropped. */
typedef struct FlipperGX {
    uint8_t *buf;
    uint32_t len, cap;
} FlipperGX;

static inline void fgx_u8(FlipperGX *g, uint8_t v)
{
    if (g->len < g->cap) {
        g->buf[g->len] = v;
    }
    g->len++;
}

static inline void fgx_u16(FlipperGX *g, uint16_t v)
{
    fgx_u8(g, v >> 8);
    fgx_u8(g, (uint8_t)v);
}

static inline void fgx_u32(FlipperGX *g, uint32_t v)
{
    fgx_u16(g, v >> 16);
    fgx_u16(g, (uint16_t)v);
}

static inline uint32_t fgx_fbits(float f)
{
    union { float f; uint32_t u; } c;

    c.f = f;
    return c.u;
}

static inline void fgx_f32(FlipperGX *g, float f)
{
    fgx_u32(g, fgx_fbits(f));
}

/* BP load: 0x61, then addr << 24 | 24-bit value */
static inline void fgx_bp(FlipperGX *g, uint8_t reg, uint32_t val24)
{
    fgx_u8(g, GX_LOAD_BP_REG);
    fgx_u32(g, (uint32_t)reg << 24 | (val24 & 0xFFFFFF));
}

/* CP-internal load: 0x08 rr vvvvvvvv */
static inline void fgx_cp(FlipperGX *g, uint8_t reg, uint32_t val)
{
    fgx_u8(g, GX_LOAD_CP_REG);
    fgx_u8(g, reg);
    fgx_u32(g, val);
}

/* XF load: 0x10 (n - 1):16 addr:16, then n words (1 <= n <= 16) */
static inline void fgx_xf(FlipperGX *g, uint16_t addr, unsigned n,
                          const uint32_t *words)
{
    unsigned i;

    fgx_u8(g, GX_LOAD_XF_REG);
    fgx_u16(g, (uint16_t)(n - 1));
    fgx_u16(g, addr);
    for (i = 0; i < n; i++) {
        fgx_u32(g, words[i]);
    }
}

static inline void fgx_xf1(FlipperGX *g, uint16_t addr, uint32_t word)
{
    fgx_xf(g, addr, 1, &word);
}

static inline void fgx_xff(FlipperGX *g, uint16_t addr, unsigned n,
                           const float *f)
{
    unsigned i;

    fgx_u8(g, GX_LOAD_XF_REG);
    fgx_u16(g, (uint16_t)(n - 1));
    fgx_u16(g, addr);
    for (i = 0; i < n; i++) {
        fgx_f32(g, f[i]);
    }
}

/* indexed XF load A-D: XF[addr..addr+n) = array element idx */
static inline void fgx_xf_indexed(FlipperGX *g, int array, uint16_t idx,
                                  unsigned n, uint16_t addr)
{
    fgx_u8(g, (uint8_t)(GX_LOAD_INDX_A + 8 * array));
    fgx_u32(g, (uint32_t)idx << 16 | (n - 1) << 12 | (addr & 0xFFF));
}

/* draw header: opcode (GX_DRAW_*) | vat, u16 vertex count */
static inline void fgx_draw(FlipperGX *g, uint8_t prim, int vat, uint16_t n)
{
    fgx_u8(g, (uint8_t)(prim | vat));
    fgx_u16(g, n);
}

static inline void fgx_call_dl(FlipperGX *g, uint32_t addr, uint32_t size)
{
    fgx_u8(g, GX_CALL_DL);
    fgx_u32(g, addr);
    fgx_u32(g, size);
}

/* NOPs up to a 32-byte boundary (a whole gather-pipe burst) */
static inline void fgx_pad32(FlipperGX *g)
{
    while (g->len & 31) {
        fgx_u8(g, GX_NOP);
    }
}

/* a vertex of VAT 0 as fgx_begin_frame sets it: xyz f32, RGBA8888 */
static inline void fgx_vtx(FlipperGX *g, float x, float y, float z,
                           uint32_t rgba)
{
    fgx_f32(g, x);
    fgx_f32(g, y);
    fgx_f32(g, z);
    fgx_u32(g, rgba);
}

/* ---- a frame ------------------------------------------------------------- */

#define FGX_W 640
#define FGX_H 480
#define FGX_XFB_ADDR 0x00200000u        /* the display copy's XFB */
#define FGX_SCRATCH_ADDR 0x00800000u    /* the clearing copy's target */

/*
 * Frame state for a 640x480 EFB: one colour channel (vertex colour, no
 * lighting), one TEV stage passing it through, Z test LEQUAL with update,
 * the libogc copy filter and swap tables (a reset device has zeros there,
 * Dolphin's FIFO player), identity position matrix, viewport 640x480 with
 * depth 0..1, orthographic projection -1..1, VAT 0 = xyz f32 + RGBA8888;
 * then the EFB is cleared to clear_rgba (0xRRGGBBAA) and Z max by a
 * clearing texture copy to FGX_SCRATCH_ADDR.
 */
static inline void fgx_begin_frame(FlipperGX *g, uint32_t clear_rgba)
{
    /* libogc's TEV_KSEL defaults: swap table 0 is the identity */
    static const uint32_t ksel[8] = {
        0x018064, 0x01806E, 0x018060, 0x01806C,
        0x018065, 0x01806D, 0x01806A, 0x01806E,
    };
    static const float viewport[6] = {
        320.0f, -240.0f, 16777215.0f, 662.0f, 582.0f, 16777215.0f,
    };
    static const float identity[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };
    static const uint32_t ortho[7] = {
        0x3F800000, 0, 0x3F800000, 0, 0xBF800000, 0xBF800000, 1,
    };
    int i;

    fgx_bp(g, BP_GENMODE, 0x000010);             /* 1 colour, 1 stage */
    fgx_bp(g, BP_SCISSOR_TL, 342 << 12 | 342);
    fgx_bp(g, BP_SCISSOR_BR, (639 + 342) << 12 | (479 + 342));
    fgx_bp(g, BP_SCISSOR_OFFSET, 171 | 171 << 10);
    fgx_bp(g, BP_ZCOMPARE, 0x000040);            /* RGB8_Z24, Z before TEV */
    fgx_bp(g, BP_ZMODE, 0x000017);               /* test LEQUAL, update */
    fgx_bp(g, BP_BLENDMODE, 0x000018);           /* colour + alpha update */
    fgx_bp(g, BP_CONSTANTALPHA, 0);
    for (i = 0; i < 4; i++) {
        fgx_bp(g, (uint8_t)(BP_COPYFILTER0 + i), 0x666666);
    }
    fgx_bp(g, BP_COPYFILTER_A, 0x595000);        /* {0,0,21,22,21,0,0} */
    fgx_bp(g, BP_COPYFILTER_B, 0x000015);
    for (i = 0; i < 8; i++) {
        fgx_bp(g, (uint8_t)(BP_TEV_KSEL0 + i), ksel[i]);
    }
    fgx_bp(g, BP_TREF0, 0x380000);               /* stage 0: colour 0 */
    fgx_bp(g, BP_TEV_COLOR_ENV0, 0x08FFFA);      /* D = RASC */
    fgx_bp(g, BP_TEV_COLOR_ENV0 + 1, 0x08FFD0);  /* D = RASA */
    fgx_bp(g, BP_ALPHACOMPARE, 0x3F0000);        /* always */
    fgx_bp(g, BP_IND_CMD0, 0);
    fgx_bp(g, BP_CLEAR_AR, (clear_rgba & 0xFF) << 8 | clear_rgba >> 24);
    fgx_bp(g, BP_CLEAR_GB, (clear_rgba >> 8) & 0xFFFF);
    fgx_bp(g, BP_CLEAR_Z, 0xFFFFFF);

    fgx_xf1(g, XF_REG_INVTXSPEC, 1);
    fgx_xf1(g, XF_REG_NUMCOLORS, 1);
    fgx_xf1(g, XF_REG_COLOR0CNTRL, 1);           /* material = vertex colour */
    fgx_xf1(g, XF_REG_COLOR0CNTRL + 2, 1);
    fgx_xf1(g, XF_REG_NUMTEX, 0);
    fgx_xf1(g, XF_REG_MATINDEX_A, 0);
    fgx_cp(g, CPR_MATINDEX_A, 0);
    fgx_xff(g, XF_MEM_POSMTX, 12, identity);
    fgx_xff(g, XF_REG_VIEWPORT, 6, viewport);
    fgx_xf(g, XF_REG_PROJECTION, 7, ortho);
    fgx_cp(g, CPR_VCD_LO, 0x2200);               /* POS, COL0 direct */
    fgx_cp(g, CPR_VCD_HI, 0);
    fgx_cp(g, CPR_VAT_A, 0x40016009);            /* xyz f32, RGBA8888 */
    fgx_cp(g, CPR_VAT_B, 0x80000000);
    fgx_cp(g, CPR_VAT_C, 0);

    /* clear the EFB with a clearing texture copy (Appendix D.1) */
    fgx_bp(g, BP_EFB_TL, 0);
    fgx_bp(g, BP_EFB_WH, 639 | 479 << 10);
    fgx_bp(g, BP_EFB_ADDR, FGX_SCRATCH_ADDR >> 5);
    fgx_bp(g, BP_MIPMAP_STRIDE, 0x140);
    fgx_bp(g, BP_TRIGGER_EFB_COPY, 0x000860);    /* RGBA8, clear */
}

/* The display copy: the 640x480 EFB to the XFB at `xfb` (YUV 4:2:2),
 * clamped, gamma 1.0, clearing the EFB. Dolphin's FIFO player needs a
 * frame to end here (Appendix D.1): draw-done and tokens come after. */
static inline void fgx_copy_to_xfb(FlipperGX *g, uint32_t xfb)
{
    fgx_bp(g, BP_EFB_TL, 0);
    fgx_bp(g, BP_EFB_WH, 639 | 479 << 10);
    fgx_bp(g, BP_MIPMAP_STRIDE, FGX_W * 2 / 32);
    fgx_bp(g, BP_EFB_ADDR, xfb >> 5);
    fgx_bp(g, BP_DISPCOPYYSCALE, 0x100);
    fgx_bp(g, BP_TRIGGER_EFB_COPY, 0x004803);    /* to XFB, clear, clamp */
}

/* draw done (PE FINISH interrupt), then a token with its interrupt */
static inline void fgx_draw_done(FlipperGX *g, uint16_t token)
{
    fgx_bp(g, BP_SETDRAWDONE, 0x000002);
    fgx_bp(g, BP_PE_TOKEN_INT, token);
    fgx_bp(g, BP_PE_TOKEN, token);
}

/* ---- a textured frame ------------------------------------------------------ */

/*
 * A 32x24 RGB565 texture in MEM1 (FGX_TEX_ADDR) drawn twice: at 5x by
 * nearest sampling, clamped, the texel as the pixel (TEV D = TEXC), on
 * pixels FGX_TEX_X0..+160, FGX_TEX_Y0..+120 (positions whose NDC values
 * are exact binary fractions, so pixel (x, y) there shows texel
 * ((x - X0) / 5, (y - Y0) / 5)); then a turned quad, bilinear, repeated
 * 2.5 times, modulated by Gouraud-shaded vertex colours. The qtest draws
 * it through the BARs; the unit tests compare it with Dolphin's frame.
 */
#define FGX_TEX_ADDR 0x00500000u
#define FGX_TEX_W 32
#define FGX_TEX_H 24
#define FGX_TEX_BYTES (FGX_TEX_W * FGX_TEX_H * 2)
#define FGX_TEX_X0 40
#define FGX_TEX_Y0 30
#define FGX_TEX_SCALE 5

/* texel (s, t) as RGB565: red ramps along s, green along t, blue a
 * checkerboard of 4x4 texels */
static inline uint16_t fgx_tex_texel(int s, int t)
{
    uint16_t r = (uint16_t)s, g = (uint16_t)(t * 63 / (FGX_TEX_H - 1));
    uint16_t b = (((s >> 2) ^ (t >> 2)) & 1) ? 31 : 4;

    return (uint16_t)(r << 11 | g << 5 | b);
}

/* the texture in the texture unit's layout: 4x4 tiles of big-endian
 * 16-bit texels, rows of tiles (YAGCD §5.11 texture formats) */
static inline void fgx_tex_fill(uint8_t *dst)
{
    int s, t;

    for (t = 0; t < FGX_TEX_H; t++) {
        for (s = 0; s < FGX_TEX_W; s++) {
            uint32_t tile = (uint32_t)(t / 4) * (FGX_TEX_W / 4) + s / 4;
            uint8_t *p = dst + tile * 32 + ((t % 4) * 4 + s % 4) * 2;
            uint16_t v = fgx_tex_texel(s, t);

            p[0] = v >> 8;
            p[1] = (uint8_t)v;
        }
    }
}

/* a vertex of VAT 6 as fgx_tex_frame sets it: VAT 0's and (s, t) f32 */
static inline void fgx_tex_vtx(FlipperGX *g, float x, float y, uint32_t rgba,
                               float s, float t)
{
    fgx_vtx(g, x, y, -0.5f, rgba);
    fgx_f32(g, s);
    fgx_f32(g, t);
}

/* texture map 0: the FGX_TEX texture at `addr` with SETMODE0 `mode0` */
static inline void fgx_tex_map0(FlipperGX *g, uint32_t addr, uint32_t mode0)
{
    fgx_bp(g, BP_TX_SETMODE0, mode0);
    fgx_bp(g, BP_TX_SETMODE1, 0);                      /* LOD 0 only */
    fgx_bp(g, BP_TX_SETIMAGE0, (FGX_TEX_W - 1) | (FGX_TEX_H - 1) << 10 |
                               TX_FMT_RGB565 << 20);
    fgx_bp(g, BP_TX_SETIMAGE1, 3 << 15 | 3 << 18);     /* TMEM cache */
    fgx_bp(g, BP_TX_SETIMAGE2, 3 << 15 | 3 << 18 | 0x4000);
    fgx_bp(g, BP_TX_SETIMAGE3, addr >> 5);
}

/* the frame without its display copy (the EFB holds the picture) */
static inline void fgx_tex_draw(FlipperGX *g, uint32_t tex_addr)
{
    static const float ident[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0 };
    /* pixel p is NDC (p - 320) / 320 across, (240 - p) / 240 down */
    const float x0 = -0.875f, x1 = -0.375f, y0 = 0.875f, y1 = 0.375f;

    fgx_begin_frame(g, 0x304050FF);
    /* texgen 0 = TEX0 through the identity texture matrix (index 60) */
    fgx_xff(g, 0xF0, 12, ident);
    fgx_cp(g, CPR_MATINDEX_A, 60 << 6);
    fgx_xf1(g, XF_REG_MATINDEX_A, 60 << 6);
    fgx_cp(g, CPR_VCD_HI, VCD_DIRECT);                 /* TEX0 direct */
    fgx_cp(g, CPR_VAT_A + 6, 0x40016009 | 1u << 21 | VTX_F32 << 22);
    fgx_cp(g, CPR_VAT_B + 6, 0x80000000);
    fgx_xf1(g, XF_REG_INVTXSPEC, 1 | 1 << 4);
    fgx_xf1(g, XF_REG_NUMTEX, 1);
    fgx_xf1(g, XF_REG_TEXGEN0, 5 << 7);                /* source TEX0 */
    fgx_xf1(g, XF_REG_DUALTEX, 0);
    fgx_bp(g, BP_GENMODE, 1 | 1 << 4);                 /* 1 texcoord, 1 stage */
    fgx_bp(g, BP_SU_SSIZE0, FGX_TEX_W - 1);
    fgx_bp(g, BP_SU_SSIZE0 + 1, FGX_TEX_H - 1);
    fgx_bp(g, BP_TREF0, 0x380000 | 1 << 6);            /* map 0, coord 0 */

    /* nearest, clamped, colour = TEXC, alpha = TEXA */
    fgx_tex_map0(g, tex_addr, 0);
    fgx_bp(g, BP_TEV_COLOR_ENV0, 0x08FFF8);
    fgx_bp(g, BP_TEV_COLOR_ENV0 + 1, 0x08FFC0);
    fgx_draw(g, GX_DRAW_QUADS, 6, 4);
    fgx_tex_vtx(g, x0, y0, 0xFFFFFFFF, 0.0f, 0.0f);
    fgx_tex_vtx(g, x1, y0, 0xFFFFFFFF, 1.0f, 0.0f);
    fgx_tex_vtx(g, x1, y1, 0xFFFFFFFF, 1.0f, 1.0f);
    fgx_tex_vtx(g, x0, y1, 0xFFFFFFFF, 0.0f, 1.0f);

    /* bilinear, repeated, colour = TEXC x RASC */
    fgx_tex_map0(g, tex_addr, 0x05 | 1 << 4 | 4 << 5);
    fgx_bp(g, BP_TEV_COLOR_ENV0, 0x08F8AF);
    fgx_draw(g, GX_DRAW_QUADS, 6, 4);
    fgx_tex_vtx(g, 0.05f, 0.2f, 0xFF8040FF, -0.3f, -0.2f);
    fgx_tex_vtx(g, 0.75f, 0.55f, 0x40FF80FF, 2.2f, -0.2f);
    fgx_tex_vtx(g, 0.55f, -0.8f, 0x4080FFFF, 2.2f, 2.3f);
    fgx_tex_vtx(g, -0.3f, -0.6f, 0xFFFFFFFF, -0.3f, 2.3f);
}

static inline void fgx_tex_frame(FlipperGX *g, uint32_t tex_addr)
{
    fgx_tex_draw(g, tex_addr);
    fgx_copy_to_xfb(g, FGX_XFB_ADDR);
}

/* ---- register sequences -------------------------------------------------- */

typedef struct FlipperRegWrite {
    uint16_t off;
    uint8_t size;               /* 2 or 4 */
    uint32_t val;
} FlipperRegWrite;

/*
 * A GX FIFO ring of `size` bytes at `base` (32-byte aligned) linked to the
 * gather pipe, as libogc's GX_Init sets it up: END is the
 * last 32-byte block, high watermark size - 16 KiB, low watermark size / 2,
 * CP registers as lo/hi 16-bit halves, GP reading with link mode on and the
 * FIFO interrupts off. Fills `w` (20 entries); returns the count.
 */
#define FGX_FIFO_BASE 0x00100000u
#define FGX_FIFO_SIZE 0x00010000u
#define FGX_FIFO_INIT_WRITES 20
static inline unsigned fgx_fifo_init(FlipperRegWrite *w, uint32_t base,
                                     uint32_t size)
{
    const uint32_t end = base + size - 4;
    const uint16_t pair[7] = { A_CP_FIFO_BASE_LO, A_CP_FIFO_END_LO,
                               A_CP_FIFO_HIWM_LO, A_CP_FIFO_LOWM_LO,
                               A_CP_FIFO_DIST_LO, A_CP_FIFO_WPTR_LO,
                               A_CP_FIFO_RPTR_LO };
    const uint32_t val[7] = { base, end, size - 0x4000, (size / 2) & ~31u,
                              0, base, base };
    unsigned n = 0, i;

    w[n++] = (FlipperRegWrite){ A_CP_CR, 2, 0 };
    w[n++] = (FlipperRegWrite){ A_PI_FIFO_BASE, 4, base };
    w[n++] = (FlipperRegWrite){ A_PI_FIFO_END, 4, end };
    w[n++] = (FlipperRegWrite){ A_PI_FIFO_WPTR, 4, base };
    for (i = 0; i < 7; i++) {
        w[n++] = (FlipperRegWrite){ pair[i], 2, val[i] & 0xFFFF };
        w[n++] = (FlipperRegWrite){ (uint16_t)(pair[i] + 2), 2, val[i] >> 16 };
    }
    w[n++] = (FlipperRegWrite){ A_CP_CLEAR, 2, 3 };
    w[n++] = (FlipperRegWrite){ A_CP_CR, 2, R_CP_CR_GP_READ_ENABLE_MASK |
                                            R_CP_CR_GP_LINK_ENABLE_MASK };
    return n;
}

/*
 * The VI for a 640x480 double-field XFB at 0x00200000 (the doc's NTSC
 * snapshot, YAGCD §5.3.1 video modes, with libogc's full XFB addresses):
 * interlaced, 40 words per line, bottom field one line below the top field, the
 * pre- and post-retrace display interrupts DI0/DI1 armed.
 */
static const FlipperRegWrite fgx_vi_ntsc640[] = {
    { A_VI_DCR, 2, 0x0002 },                    /* reset */
    { A_VI_DCR, 2, 0x0000 },
    { A_VI_VTR, 2, 0x0F06 },
    { A_VI_HTR0, 4, 0x476901AD },
    { A_VI_HTR1, 4, 0x02EA5140 },
    { A_VI_VTO, 4, 0x00030018 },
    { A_VI_VTE, 4, 0x00020019 },
    { A_VI_BBEI, 4, 0x410C410C },
    { A_VI_BBOI, 4, 0x40ED40ED },
    { A_VI_HSR, 2, 0x0100 },
    { A_VI_HSW, 2, 0x2850 },                    /* 40 words, stride 80 */
    { A_VI_TFBL, 4, FGX_XFB_ADDR },
    { A_VI_BFBL, 4, FGX_XFB_ADDR + FGX_W * 2 },
    { A_VI_DI0, 4, 0x110701AE },
    { A_VI_DI1, 4, 0x10010001 },
    { A_VI_DCR, 2, 0x0001 },                    /* NTSC, interlaced, on */
};

#endif
