/*
 * R300 2D engine and GUI DMA: the buffer moves Linux's radeon driver makes
 * (r100.c r100_copy_blit: PACKET3 BITBLT_MULTI; r200.c r200_copy_dma:
 * registers 0x720-0x728) and the solid fills and screen-to-screen blits with
 * ROP3s that the fbdev/X drivers use (PAINT_MULTI, or DST_HEIGHT_WIDTH after
 * DP_GUI_MASTER_CNTL, SRC/DST_PITCH_OFFSET, SRC/DST_Y_X).
 *
 * Surfaces are MC addresses (VRAM or PCI GART) with a pitch in 64-byte
 * units. ROP3s are bitwise, so one row is computed as bytes whatever the
 * depth; the brush colour and write mask are repeated per pixel. Clipping
 * rectangles are read and not applied: every row is bounds-checked in the
 * MC instead, and a row outside memory ends the operation with a guest error.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

#define MAX_ROW_BYTES   (0x3FFF * 4)    /* 14-bit width, 32 bpp */

/* bytes per pixel of a DST_DATATYPE, 0 if not modelled */
static unsigned datatype_bpp(uint32_t dt)
{
    switch (dt) {
    case R300_GMC_DST_8BPP_CI:
    case R300_GMC_DST_8BPP_RGB:
    case R300_GMC_DST_Y8:
        return 1;
    case R300_GMC_DST_15BPP:
    case R300_GMC_DST_16BPP:
    case R300_GMC_DST_ARGB4444:
        return 2;
    case R300_GMC_DST_32BPP:
        return 4;
    default:
        return 0;
    }
}

/* the ROP3 of (P, S, D), bitwise over n bytes into d */
static void rop3(uint8_t rop, const uint8_t *p, const uint8_t *s, uint8_t *d,
                 uint32_t n)
{
    uint32_t i;
    unsigned k;

    for (i = 0; i < n; i++) {
        uint8_t r = 0;
        for (k = 0; k < 8; k++) {
            if (rop & (1u << k)) {
                r |= (k & 4 ? p[i] : (uint8_t)~p[i]) &
                     (k & 2 ? s[i] : (uint8_t)~s[i]) &
                     (k & 1 ? d[i] : (uint8_t)~d[i]);
            }
        }
        d[i] = r;
    }
}

static void fill_pattern(uint8_t *row, uint32_t n, uint32_t v, unsigned bpp)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        row[i] = v >> (8 * (i % bpp));
    }
}

void r300_2d_run(R300Core *c, const R300Blit *b)
{
    uint8_t rop = G3D_FIELD_EX32(b->gmc, DP_GUI_MASTER_CNTL, ROP3);
    unsigned bpp = datatype_bpp(G3D_FIELD_EX32(b->gmc, DP_GUI_MASTER_CNTL,
                                               DST_DATATYPE));
    bool use_s = ((rop >> 2) ^ rop) & 0x33;
    bool use_d = ((rop >> 1) ^ rop) & 0x55;
    bool mask = !(b->gmc & R_DP_GUI_MASTER_CNTL_WR_MSK_DIS_MASK) &&
                R300_REG(c, A_DP_WRITE_MASK) != 0xFFFFFFFFu;
    uint64_t sbase = R300_PITCH_OFFSET_ADDR(b->src_po);
    uint64_t dbase = R300_PITCH_OFFSET_ADDR(b->dst_po);
    uint32_t spitch = R300_PITCH_OFFSET_PITCH(b->src_po);
    uint32_t dpitch = R300_PITCH_OFFSET_PITCH(b->dst_po);
    uint32_t n, i;
    uint8_t *prow, *srow, *drow, *orig, *mrow;
    bool up;

    /* the 2D engine reads and writes what queued draws may write */
    r300_flush_render(c);
    if (!b->w || !b->h) {
        return;
    }
    if (!bpp) {
        g3d_unimp("r300: 2D destination type %u not modelled",
                  G3D_FIELD_EX32(b->gmc, DP_GUI_MASTER_CNTL, DST_DATATYPE));
        return;
    }
    n = b->w * bpp;
    if (n > MAX_ROW_BYTES) {
        g3d_error(&c->errors, 0, 0,
                  "r300: 2D width %u too large", b->w);
        return;
    }
    prow = g_malloc(5 * (size_t)n);
    srow = prow + n;
    drow = srow + n;
    orig = drow + n;
    mrow = orig + n;
    /* the brush: a solid colour, else none (P reads as 0) */
    fill_pattern(prow, n, G3D_FIELD_EX32(b->gmc, DP_GUI_MASTER_CNTL,
                                         BRUSH_DATATYPE) ==
                          R300_GMC_BRUSH_SOLID_COLOR ? b->fg : 0, bpp);
    fill_pattern(mrow, n, R300_REG(c, A_DP_WRITE_MASK), bpp);
    memset(srow, 0, n);
    /* overlapping copies within a surface: walk rows away from the overlap */
    up = use_s && sbase == dbase && b->dy > b->sy;
    for (i = 0; i < b->h; i++) {
        uint32_t row = up ? b->h - 1 - i : i;
        uint64_t sa = sbase + (uint64_t)(b->sy + row) * spitch +
                      (uint64_t)b->sx * bpp;
        uint64_t da = dbase + (uint64_t)(b->dy + row) * dpitch +
                      (uint64_t)b->dx * bpp;

        if (use_s && !g3d_mem_read(&c->gpu, sa, srow, n)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: 2D source row at MC 0x%08" G_GINT64_MODIFIER
                      "x (%u bytes) outside memory", sa, n);
            break;
        }
        if ((use_d || mask) && !g3d_mem_read(&c->gpu, da, drow, n)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: 2D destination row at MC 0x%08"
                      G_GINT64_MODIFIER "x (%u bytes) outside memory",
                      da, n);
            break;
        }
        if (rop == R300_ROP3_S) {
            memcpy(drow, srow, n);
        } else {
            if (mask) {
                memcpy(orig, drow, n);
            }
            rop3(rop, prow, srow, drow, n);
        }
        if (mask) {
            uint32_t k;
            for (k = 0; k < n; k++) {
                drow[k] = (drow[k] & mrow[k]) | (orig[k] & ~mrow[k]);
            }
        }
        if (!g3d_mem_write(&c->gpu, da, drow, n)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: 2D destination row at MC 0x%08"
                      G_GINT64_MODIFIER "x (%u bytes) outside memory",
                      da, n);
            break;
        }
    }
    g_free(prow);
}

/* the pitch/offset and clip dwords that DP_GUI_MASTER_CNTL says follow */
static bool packet_head(R300Core *c, R300Blit *b, const uint32_t *d,
                        uint32_t n, uint32_t *pos, bool src)
{
    uint32_t p = 1;

    b->gmc = d[0];
    b->src_po = R300_REG(c, A_SRC_PITCH_OFFSET);
    b->dst_po = R300_REG(c, A_DST_PITCH_OFFSET);
    if (src && (b->gmc & R_DP_GUI_MASTER_CNTL_SRC_PITCH_OFFSET_CNTL_MASK)) {
        b->src_po = p < n ? d[p] : 0;
        p++;
    }
    if (b->gmc & R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK) {
        b->dst_po = p < n ? d[p] : 0;
        p++;
    }
    if (src && (b->gmc & R_DP_GUI_MASTER_CNTL_SRC_CLIPPING_MASK)) {
        p++;                                /* SRC_SC_BOTTOM_RIGHT */
    }
    if (b->gmc & R_DP_GUI_MASTER_CNTL_DST_CLIPPING_MASK) {
        p += 2;                             /* SC_TOP_LEFT, SC_BOTTOM_RIGHT */
    }
    b->fg = R300_REG(c, A_DP_BRUSH_FRGD_CLR);
    if (G3D_FIELD_EX32(b->gmc, DP_GUI_MASTER_CNTL, BRUSH_DATATYPE) ==
        R300_GMC_BRUSH_SOLID_COLOR) {
        b->fg = p < n ? d[p] : 0;
        p++;
    }
    if (p > n) {
        g3d_error(&c->errors, 0, 0,
                  "r300: 2D packet of %u dwords, its header needs %u",
                  n, p);
        return false;
    }
    *pos = p;
    return true;
}

void r300_2d_packet(R300Core *c, uint32_t op, const uint32_t *d, uint32_t n)
{
    bool blit = op == R300_PKT3_BITBLT_MULTI;
    unsigned per = blit ? 3 : 2;
    R300Blit b;
    uint32_t p;

    if (n < 1 || !packet_head(c, &b, d, n, &p, blit)) {
        return;
    }
    if ((n - p) % per) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s packet with a partial rectangle",
                  blit ? "BITBLT_MULTI" : "PAINT_MULTI");
    }
    /* rectangles: [src x << 16 | y] dst x << 16 | y, w << 16 | h */
    for (; p + per <= n; p += per) {
        const uint32_t *r = d + p;
        if (blit) {
            b.sx = r[0] >> 16;
            b.sy = r[0] & 0xFFFF;
            r++;
        } else {
            b.sx = b.sy = 0;
        }
        b.dx = r[0] >> 16;
        b.dy = r[0] & 0xFFFF;
        b.w = r[1] >> 16;
        b.h = r[1] & 0xFFFF;
        r300_2d_run(c, &b);
    }
}

/* DST_HEIGHT_WIDTH written: the operation the 2D registers describe */
static void run_registers(R300Core *c, uint32_t hw)
{
    uint32_t gmc = R300_REG(c, A_DP_GUI_MASTER_CNTL);
    uint32_t def = R300_REG(c, A_DEFAULT_PITCH_OFFSET);
    R300Blit b = {
        .gmc = gmc,
        .src_po = gmc & R_DP_GUI_MASTER_CNTL_SRC_PITCH_OFFSET_CNTL_MASK ?
                  R300_REG(c, A_SRC_PITCH_OFFSET) : def,
        .dst_po = gmc & R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK ?
                  R300_REG(c, A_DST_PITCH_OFFSET) : def,
        .sx = R300_REG(c, A_SRC_Y_X) & 0x3FFF,
        .sy = (R300_REG(c, A_SRC_Y_X) >> 16) & 0x3FFF,
        .dx = R300_REG(c, A_DST_Y_X) & 0x3FFF,
        .dy = (R300_REG(c, A_DST_Y_X) >> 16) & 0x3FFF,
        .w = hw & 0x3FFF,
        .h = (hw >> 16) & 0x3FFF,
        .fg = R300_REG(c, A_DP_BRUSH_FRGD_CLR),
    };
    r300_2d_run(c, &b);
}

/* the GUI DMA: BYTE_COUNT bytes from DMA_GUI_SRC_ADDR to DMA_GUI_DST_ADDR */
static void dma_copy(R300Core *c, uint32_t cmd)
{
    uint64_t src = R300_REG(c, A_DMA_GUI_SRC_ADDR);
    uint64_t dst = R300_REG(c, A_DMA_GUI_DST_ADDR);
    uint32_t left = G3D_FIELD_EX32(cmd, DMA_GUI_COMMAND, BYTE_COUNT);
    uint8_t *buf = g_malloc(MIN(left, 65536u) + 1);

    r300_flush_render(c);
    while (left) {
        uint32_t k = MIN(left, 65536u);
        if (!g3d_mem_read(&c->gpu, src, buf, k) ||
            !g3d_mem_write(&c->gpu, dst, buf, k)) {
            g3d_error(&c->errors, 0, 0,
                      "r300: GUI DMA of %u bytes from MC 0x%08"
                      G_GINT64_MODIFIER "x to 0x%08" G_GINT64_MODIFIER
                      "x leaves memory", left, src, dst);
            break;
        }
        src += k;
        dst += k;
        left -= k;
    }
    g_free(buf);
}

bool r300_2d_write(R300Core *c, uint32_t offset, uint32_t val)
{
    switch (offset) {
    case A_DST_HEIGHT_WIDTH:
        R300_REG(c, offset) = val;
        run_registers(c, val);
        return true;
    case A_DMA_GUI_COMMAND:
        R300_REG(c, offset) = val;
        dma_copy(c, val);
        return true;
    case A_DSTCACHE_CTLSTAT:
        /* the flush is done at once; nothing reads as busy */
        R300_REG(c, offset) = 0;
        return true;
    default:
        return false;
    }
}
