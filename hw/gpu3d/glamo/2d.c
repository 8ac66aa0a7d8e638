/*
 * The 2D engine (1700h), as far as its public drivers describe it: the
 * X.org glamo driver (glamo-draw.c, glamo-exa.c) fills a rectangle with
 * DST_ADDRL/H, DST_PITCH, DST_HEIGHT, PAT_FG and COMMAND2 = a ternary ROP
 * << 8 from its pattern table (PATCOPY 0xF0, P AND D 0xA0, ...), copies one
 * with SRC_ADDRL/H, SRC_PITCH, SRC_X/Y and the source table (SRCCOPY 0xCC,
 * ...), sets DST_X/Y, RECT_WIDTH/HEIGHT and starts it by writing
 * COMMAND3; 16 bits a pixel only. The ROP code is Windows' ternary raster
 * operation: result bit = bit (P << 2 | S << 1 | D) of the code, P the
 * pattern (the solid PAT_FG: no driver loads a pattern), S the source, D
 * the destination. The operation is done at once; a copy reads the whole
 * source before writing, so overlapping copies move as memmove does (EXA
 * leaves the direction to the engine).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <glib.h>
#include <string.h>

static uint32_t reg(const GlamoCore *c, uint32_t off)
{
    return c->regs[off >> 1];
}

static uint32_t addr(const GlamoCore *c, uint32_t lo)
{
    return (reg(c, lo + 2) & GLAMO_2D_ADDRH_MASK) << 16 | reg(c, lo);
}

/* does the rectangle (x, y, w, h) of a 16 bpp surface fit VRAM? */
static bool fits(GlamoCore *c, const char *what, uint32_t base,
                 uint32_t pitch, uint32_t x, uint32_t y, uint32_t w,
                 uint32_t h)
{
    uint64_t end = base + (uint64_t)pitch * (y + h - 1) + 2ull * (x + w);

    if (pitch == 0 || 2ull * (x + w) > pitch || end > c->vram_size) {
        g3d_guest_error("glamo 2D: %s rectangle %ux%u at (%u, %u), base "
                        "0x%x pitch %u does not fit its surface or VRAM; "
                        "operation skipped", what, w, h, x, y, base, pitch);
        return false;
    }
    return true;
}

static inline uint16_t rop3(uint8_t rop, uint16_t p, uint16_t s, uint16_t d)
{
    uint16_t out = 0;
    int k;

    for (k = 0; k < 8; k++) {
        if (rop & (1u << k)) {
            /* the inputs' bits where (P, S, D) = the bits of k */
            out |= (k & 4 ? p : ~p) & (k & 2 ? s : ~s) & (k & 1 ? d : ~d);
        }
    }
    return out;
}

void glamo_2d_start(GlamoCore *c)
{
    uint8_t rop = reg(c, A_GLAMO_2D_COMMAND2) >> 8;
    bool use_src = ((rop >> 2) ^ rop) & 0x33;    /* depends on S */
    uint32_t w = reg(c, A_GLAMO_2D_RECT_WIDTH), h = reg(c, A_GLAMO_2D_RECT_HEIGHT);
    uint32_t dx = reg(c, A_GLAMO_2D_DST_X), dy = reg(c, A_GLAMO_2D_DST_Y);
    uint32_t sx = reg(c, A_GLAMO_2D_SRC_X), sy = reg(c, A_GLAMO_2D_SRC_Y);
    uint32_t dbase = addr(c, A_GLAMO_2D_DST_ADDRL);
    uint32_t sbase = addr(c, A_GLAMO_2D_SRC_ADDRL);
    uint32_t dpitch = reg(c, A_GLAMO_2D_DST_PITCH) & GLAMO_2D_PITCH_MASK;
    uint32_t spitch = reg(c, A_GLAMO_2D_SRC_PITCH) & GLAMO_2D_PITCH_MASK;
    uint16_t pat = reg(c, A_GLAMO_2D_PAT_FG);
    uint16_t *src = NULL;
    uint32_t x, y;

    if (w == 0 || h == 0 || !c->vram) {
        return;
    }
    if (dy + h > reg(c, A_GLAMO_2D_DST_HEIGHT)) {
        g3d_guest_error("glamo 2D: rectangle rows %u..%u beyond DST_HEIGHT "
                        "%u; operation skipped", dy, dy + h - 1,
                        reg(c, A_GLAMO_2D_DST_HEIGHT));
        glamo_error(c);
        return;
    }
    if (!fits(c, "destination", dbase, dpitch, dx, dy, w, h) ||
        (use_src && !fits(c, "source", sbase, spitch, sx, sy, w, h))) {
        glamo_error(c);
        return;
    }
    /* pixels the 3D engine still owes may be read or overwritten here */
    glamo_flush(c);
    if (use_src) {
        src = g_new(uint16_t, (size_t)w * h);
        for (y = 0; y < h; y++) {
            memcpy(src + (size_t)y * w,
                   c->vram + sbase + (size_t)(sy + y) * spitch + 2 * sx, 2 * w);
        }
    }
    for (y = 0; y < h; y++) {
        uint8_t *row = c->vram + dbase + (size_t)(dy + y) * dpitch + 2 * dx;
        for (x = 0; x < w; x++) {
            uint16_t d = row[2 * x] | row[2 * x + 1] << 8;
            uint16_t s = src ? src[(size_t)y * w + x] : 0;
            uint16_t v = rop3(rop, pat, s, d);
            row[2 * x] = (uint8_t)v;
            row[2 * x + 1] = (uint8_t)(v >> 8);
        }
    }
    g_free(src);
    c->stats.primitives++;
}
