/*
 * The transfer engine "PPF" (3dbrew GPU/External Registers; Citra
 * DisplayTransfer/TextureCopy; 3Beans): display transfer (tiled to linear,
 * linear to tiled, or linear to linear with FLAGS b5; format conversion
 * through RGBA8; vertical flip; 2x1 / 2x2 box-filter downscale) and texture
 * copy (raw bytes with input/output line widths and gaps in 16-byte units).
 *
 * Decisions: the source line length is INPUT_SIZE's width (Citra), OUTPUT_SIZE
 * is the size before downscaling (Citra, 3Beans); b5 makes both sides linear
 * (3Beans); 32x32 blocks are treated as 8x8 tiles (reported once).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

#define PPF_TEXCOPY_CHUNK 1024u

static void finish(Pica200Core *c)
{
    c->ppf.busy = false;
    c->ppf_control |= R_PPF_CONTROL_FINISHED_MASK;
    pica_update_irq(c);
    pica_display_changed(c);
}

static uint32_t ext(Pica200Core *c, uint32_t off)
{
    return c->ext[off / 4];
}

static bool start_texcopy(Pica200Core *c)
{
    PicaPpf *p = &c->ppf;
    uint32_t in = ext(c, A_PPF_TEXCOPY_INPUT), out = ext(c, A_PPF_TEXCOPY_OUTPUT);

    p->texcopy = true;
    p->in_addr = (uint64_t)(ext(c, A_PPF_INPUT_ADDR) & 0x1FFFFFFF) << 3;
    p->out_addr = (uint64_t)(ext(c, A_PPF_OUTPUT_ADDR) & 0x1FFFFFFF) << 3;
    p->remaining = ext(c, A_PPF_TEXCOPY_SIZE) & ~0xFu;
    p->in_width = G3D_FIELD_EX32(in, PPF_TEXCOPY_INPUT, WIDTH) * 16;
    p->in_gap = G3D_FIELD_EX32(in, PPF_TEXCOPY_INPUT, GAP) * 16;
    p->out_width = G3D_FIELD_EX32(out, PPF_TEXCOPY_INPUT, WIDTH) * 16;
    p->out_gap = G3D_FIELD_EX32(out, PPF_TEXCOPY_INPUT, GAP) * 16;
    p->in_pos = p->out_pos = 0;
    if (p->remaining && (!p->in_width || !p->out_width)) {
        g3d_guest_error("pica200: texture copy with a zero line width; skipped");
        return false;
    }
    return true;
}

static bool start_display(Pica200Core *c)
{
    PicaPpf *p = &c->ppf;
    uint32_t flags = ext(c, A_PPF_FLAGS);
    uint32_t osize = ext(c, A_PPF_OUTPUT_SIZE), isize = ext(c, A_PPF_INPUT_SIZE);
    unsigned scale = G3D_FIELD_EX32(flags, PPF_FLAGS, DOWNSCALE);
    int ibpp, obpp;

    p->texcopy = false;
    p->in_fmt = G3D_FIELD_EX32(flags, PPF_FLAGS, INPUT_FORMAT);
    p->out_fmt = G3D_FIELD_EX32(flags, PPF_FLAGS, OUTPUT_FORMAT);
    ibpp = pica_pixfmt_bpp(p->in_fmt);
    obpp = pica_pixfmt_bpp(p->out_fmt);
    if (!ibpp || !obpp) {
        g3d_guest_error("pica200: display transfer formats %u -> %u; "
                        "undefined, skipped", p->in_fmt, p->out_fmt);
        return false;
    }
    if (scale == 3) {
        g3d_guest_error("pica200: display transfer downscale mode 3 is "
                        "undefined; skipped");
        return false;
    }
    if (G3D_FIELD_EX32(flags, PPF_FLAGS, BLOCK32)) {
        g3d_unimp_once(&c->errors, PICA_UNIMP_PPF_BLOCK32,
                       "display transfer of 32x32 blocks (treated as 8x8 "
                       "tiles) not modelled");
    }
    p->hs = scale ? 2 : 1;
    p->vs = scale == 2 ? 2 : 1;
    p->in_w = G3D_FIELD_EX32(isize, PPF_OUTPUT_SIZE, WIDTH);
    p->in_h = G3D_FIELD_EX32(isize, PPF_OUTPUT_SIZE, HEIGHT);
    p->out_w = G3D_FIELD_EX32(osize, PPF_OUTPUT_SIZE, WIDTH) / p->hs;
    p->out_h = G3D_FIELD_EX32(osize, PPF_OUTPUT_SIZE, HEIGHT) / p->vs;
    p->flip = G3D_FIELD_EX32(flags, PPF_FLAGS, FLIP_V);
    if (G3D_FIELD_EX32(flags, PPF_FLAGS, NO_TILING)) {
        p->in_tiled = p->out_tiled = false;
    } else if (G3D_FIELD_EX32(flags, PPF_FLAGS, LINEAR_TO_TILED)) {
        p->in_tiled = false;
        p->out_tiled = true;
    } else {
        p->in_tiled = true;
        p->out_tiled = false;
    }
    p->in_addr = (uint64_t)(ext(c, A_PPF_INPUT_ADDR) & 0x1FFFFFFF) << 3;
    p->out_addr = (uint64_t)(ext(c, A_PPF_OUTPUT_ADDR) & 0x1FFFFFFF) << 3;
    p->row = 0;
    if (p->out_w == 0 || p->out_h == 0) {
        return false;                /* nothing to do */
    }
    if ((uint64_t)p->out_w * p->hs > p->in_w ||
        (uint64_t)p->out_h * p->vs > p->in_h) {
        g3d_guest_error("pica200: display transfer reads %ux%u pixels from a "
                        "%ux%u input; skipped", p->out_w * p->hs,
                        p->out_h * p->vs, p->in_w, p->in_h);
        return false;
    }
    if ((p->in_tiled && ((p->in_w | p->in_h) & 7)) ||
        (p->out_tiled && ((p->out_w | p->out_h) & 7))) {
        g3d_guest_error("pica200: tiled display transfer surface is not a "
                        "whole number of 8x8 tiles; skipped");
        return false;
    }
    if (!pica_mem_map(c, p->in_addr, (uint64_t)p->in_w * p->in_h * ibpp, false) ||
        !pica_mem_map(c, p->out_addr, (uint64_t)p->out_w * p->out_h * obpp, true)) {
        g3d_guest_error("pica200: display transfer 0x%" G_GINT64_MODIFIER "x "
                        "-> 0x%" G_GINT64_MODIFIER "x is outside memory; "
                        "skipped", p->in_addr, p->out_addr);
        return false;
    }
    return true;
}

void pica_ppf_start(Pica200Core *c)
{
    c->ppf.busy = true;
    if (!(G3D_FIELD_EX32(ext(c, A_PPF_FLAGS), PPF_FLAGS, TEXTURE_COPY)
          ? start_texcopy(c) : start_display(c))) {
        finish(c);
    }
}

static bool texcopy_step(Pica200Core *c, unsigned budget)
{
    PicaPpf *p = &c->ppf;
    uint8_t buf[PPF_TEXCOPY_CHUNK];

    while (p->busy && c->budget_used < budget) {
        uint32_t n;

        if (!p->remaining) {
            finish(c);
            break;
        }
        n = MIN(MIN(p->in_width - p->in_pos, p->out_width - p->out_pos),
                PPF_TEXCOPY_CHUNK);
        n = MIN(n, p->remaining);
        if (!pica_mem_read(c, p->in_addr, buf, n) ||
            !g3d_mem_write(&c->phys, p->out_addr, buf, n)) {
            g3d_guest_error("pica200: texture copy 0x%" G_GINT64_MODIFIER "x -> "
                            "0x%" G_GINT64_MODIFIER "x left memory; stopped",
                            p->in_addr, p->out_addr);
            finish(c);
            break;
        }
        p->in_addr += n;
        p->out_addr += n;
        p->remaining -= n;
        if ((p->in_pos += n) == p->in_width) {
            p->in_pos = 0;
            p->in_addr += p->in_gap;
        }
        if ((p->out_pos += n) == p->out_width) {
            p->out_pos = 0;
            p->out_addr += p->out_gap;
        }
        c->budget_used++;
    }
    return p->busy;
}

static inline uint64_t surface_offset(bool tiled, uint32_t x, uint32_t row,
                                      uint32_t width, int bpp)
{
    uint64_t index = tiled ? pica_tiled_index(x, row, width)
                           : (uint64_t)row * width + x;
    return index * bpp;
}

bool pica_ppf_step(Pica200Core *c, unsigned budget)
{
    PicaPpf *p = &c->ppf;
    int ibpp, obpp;
    const uint8_t *src;
    uint8_t *dst;

    if (p->texcopy) {
        return texcopy_step(c, budget);
    }
    ibpp = pica_pixfmt_bpp(p->in_fmt);
    obpp = pica_pixfmt_bpp(p->out_fmt);
    src = pica_mem_map(c, p->in_addr, (uint64_t)p->in_w * p->in_h * ibpp, false);
    dst = pica_mem_map(c, p->out_addr, (uint64_t)p->out_w * p->out_h * obpp, true);
    if (!src || !dst) {
        g3d_guest_error("pica200: display transfer lost its memory; stopped");
        finish(c);
        return false;
    }
    while (p->busy && c->budget_used < budget) {
        uint32_t y = p->row, out_row, x;

        if (y >= p->out_h) {
            finish(c);
            break;
        }
        out_row = p->flip ? p->out_h - 1 - y : y;
        for (x = 0; x < p->out_w; x++) {
            unsigned sum[4] = { 0, 0, 0, 0 }, i, j, k, n = p->hs * p->vs;
            uint8_t px[4];

            for (j = 0; j < p->vs; j++) {
                for (i = 0; i < p->hs; i++) {
                    pica_pixel_decode(p->in_fmt,
                                      src + surface_offset(p->in_tiled,
                                                           x * p->hs + i,
                                                           y * p->vs + j,
                                                           p->in_w, ibpp),
                                      px);
                    for (k = 0; k < 4; k++) {
                        sum[k] += px[k];
                    }
                }
            }
            for (k = 0; k < 4; k++) {
                px[k] = sum[k] / n;
            }
            pica_pixel_encode(p->out_fmt,
                              dst + surface_offset(p->out_tiled, x, out_row,
                                                   p->out_w, obpp), px);
        }
        p->row++;
        c->budget_used += 1 + p->out_w / 1024;
    }
    return p->busy;
}
