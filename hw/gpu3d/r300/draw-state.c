/*
 * R300 per-draw snapshot of the registers that the render threads read:
 * scissor and clip rectangles, colour and depth surfaces (mapped, with the
 * shadows of surfaces that do not map), blending and fragment operations,
 * RS routing, edge rules and texture units, built in named stages.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

static G3DRect sc_rect(uint32_t tl, uint32_t br)
{
    /* inclusive corners with the R3xx origin at 1440 [R3xx 3D ref. §1.6 SC,
     * EXT] */
    G3DRect r = {
        (int32_t)R300_SC_X(tl) - R300_SC_ORIGIN,
        (int32_t)R300_SC_Y(tl) - R300_SC_ORIGIN,
        (int32_t)R300_SC_X(br) - R300_SC_ORIGIN + 1,
        (int32_t)R300_SC_Y(br) - R300_SC_ORIGIN + 1,
    };
    return r;
}

/* SC_EDGERULE field -> the rasteriser's rule [R3xx 3D ref. §1.6 SC] */
static void edge_rule(R300Core *c, uint32_t er, G3DRasterRules *r)
{
    uint32_t ms = R300_REG(c, A_GB_MSPOS0);

    r->subpixels = G3D_FIELD_EX32(R300_REG(c, A_GB_TILE_CONFIG),
                                  GB_TILE_CONFIG, SUBPIXEL) ? 16 : 12;
    /* single-sample rendering samples at multisample position 0 */
    r->sample_x = ms & 0xF;
    r->sample_y = (ms >> 4) & 0xF;
    if (er < 16) {
        /* bit set = out: 0 bottom, 1 top, 2 right, 3 left */
        r->vertical_first = false;
        r->edge_in = (er & 1 ? 0 : G3D_EDGE_BOTTOM) | (er & 2 ? 0 : G3D_EDGE_TOP) |
                     (er & 4 ? 0 : G3D_EDGE_RIGHT) | (er & 8 ? 0 : G3D_EDGE_LEFT);
    } else {
        /* bit set = out: 0 vertical right, 1 vertical left, 2 bottom, 3 top */
        r->vertical_first = true;
        r->edge_in = (er & 1 ? 0 : G3D_EDGE_RIGHT) | (er & 2 ? 0 : G3D_EDGE_LEFT) |
                     (er & 4 ? 0 : G3D_EDGE_BOTTOM) | (er & 8 ? 0 : G3D_EDGE_TOP);
    }
}

static unsigned colour_bpp(uint32_t format)
{
    switch (format) {
    case R300_COLOR_FORMAT_ARGB8888:
        return 4;
    case R300_COLOR_FORMAT_RGB565:
    case R300_COLOR_FORMAT_ARGB1555:
    case R300_COLOR_FORMAT_ARGB4444:
    case R300_COLOR_FORMAT_UV88:
        return 2;
    case R300_COLOR_FORMAT_I8:
        return 1;
    case R300_COLOR_FORMAT_ARGB16161616:
        return 8;
    case R300_COLOR_FORMAT_ARGB32323232:
        return 16;
    default:
        return 0;
    }
}

/*
 * Map the whole tiles of a surface of `rows` rows at GPU address `addr`.
 * One that is not a single host block (Mesa's staging buffers in GTT,
 * reached through the PCI GART page by page) is drawn in a copy that
 * r300_flush_render writes back when it retires the draw.
 */
static uint8_t *map_surface(R300Core *c, const char *what, uint32_t addr,
                            const R300Tiling *t, uint32_t rows)
{
    R300DrawState *ds = c->draw;
    uint64_t len = r300_tile_bytes(t, rows);
    uint8_t *p = g3d_mem_map(&c->gpu, addr, len, true);

    if (p) {
        return p;
    }
    if (len <= R300_TX_MAX_COPY && ds->nshadow < G_N_ELEMENTS(ds->shadow)) {
        p = g_try_malloc(len);
        if (p && g3d_mem_read(&c->gpu, addr, p, len)) {
            ds->shadow[ds->nshadow].addr = addr;
            ds->shadow[ds->nshadow].len = len;
            ds->shadow[ds->nshadow++].buf = p;
            return p;
        }
        g_free(p);
    }
    g3d_error(&c->errors, 0, 0,
              "r300: %s 0x%08x (%u x %u x %u bytes) is outside memory",
              what, addr, t->pitch, rows, t->bpp);
    return NULL;
}

/* A pitch register's tiling fields; a combination the chip lacks is
 * logged and drawn linear. */
static void surface_tiling(R300Tiling *t, const char *what, uint32_t bpp,
                           uint32_t pitch, bool macro, unsigned micro)
{
    if (!r300_tile_setup(t, bpp, pitch, macro, micro)) {
        g3d_guest_error("r300: %s: micro tiling %u with %u bytes per pixel "
                        "does not exist; drawn linear", what, micro, bpp);
    }
}

/*
 * The AA resolve target: RB3D_AARESOLVE_OFFSET/PITCH, target 0's format,
 * COLORPITCH0's tiling (Mesa r300_blit.c r300_simple_msaa_resolve).
 */
static bool resolve_target(R300Core *c)
{
    R300DrawState *ds = c->draw;
    R300Target *r = &ds->resolve;
    uint32_t pitch0 = R300_REG(c, R300_RB3D_COLORPITCH(0));
    uint32_t ctl = R300_REG(c, A_RB3D_AARESOLVE_CTL);

    if (ds->ncb == 0 || !ds->cb[0].base || !ds->cb[0].packable) {
        g3d_unimp("r300: AA resolve of colour format %u not modelled; "
                  "draw skipped", ds->cb[0].format);
        return false;
    }
    *r = ds->cb[0];
    r->pitch = R300_COLORPITCH_PIXELS(R300_REG(c, A_RB3D_AARESOLVE_PITCH));
    if (r->pitch == 0) {
        g3d_error(&c->errors, 0, 0,
                  "r300: RB3D_AARESOLVE_PITCH is 0; draw skipped");
        return false;
    }
    ds->scissor.x1 = MIN(ds->scissor.x1, (int32_t)r->pitch);
    surface_tiling(&r->tiling, "resolve buffer", r->bpp, r->pitch,
                   G3D_FIELD_EX32(pitch0, RB3D_COLORPITCH_0, COLORTILE),
                   G3D_FIELD_EX32(pitch0, RB3D_COLORPITCH_0, COLORMICROTILE));
    r->base = map_surface(c, "resolve buffer",
                          R300_REG(c, A_RB3D_AARESOLVE_OFFSET) & ~0x1Fu,
                          &r->tiling, r->rows);
    ds->resolve_gamma = ctl & R_RB3D_AARESOLVE_CTL_AARESOLVE_GAMMA_MASK;
    ds->resolve_alpha_avg = ctl & R_RB3D_AARESOLVE_CTL_AARESOLVE_ALPHA_MASK;
    return r->base != NULL;
}

/*
 * A draw's colour or depth surface: multisampled ones have a fixed layout
 * (samples side by side, linear), and their COLORPITCH tiling bits are the
 * resolve target's (Mesa r300_blit.c r300_simple_msaa_resolve: "the tiling
 * of the AA buffer isn't programmable").
 */
static void draw_surface_tiling(R300Core *c, R300Tiling *t, const char *what,
                                uint32_t bpp, uint32_t pitch, bool macro,
                                unsigned micro)
{
    unsigned n = c->draw->samples;

    if (n > 1) {
        surface_tiling(t, what, bpp, pitch * n, false, 0);
    } else {
        surface_tiling(t, what, bpp, pitch, macro, micro);
    }
}

/* ---- the draw-state snapshot, stage by stage ---------------------------- */

/* multisampling [R3xx 3D ref. §1.4 GB_AA_CONFIG, §1.1 RB3D_AARESOLVE_*] */
static bool draw_multisample(R300Core *c, R300DrawState *ds)
{
    if (R300_REG(c, A_GB_AA_CONFIG) & R_GB_AA_CONFIG_AA_ENABLE_MASK) {
        static const uint8_t nsamples[4] = { 2, 3, 4, 6 };
        ds->samples = nsamples[G3D_FIELD_EX32(R300_REG(c, A_GB_AA_CONFIG),
                                              GB_AA_CONFIG, NUM_AA_SUBSAMPLES)];
    } else {
        ds->samples = 1;
    }
    ds->resolving = R300_REG(c, A_RB3D_AARESOLVE_CTL) &
                    R_RB3D_AARESOLVE_CTL_AARESOLVE_MODE_MASK;
    if (ds->resolving && ds->samples == 1) {
        g3d_error(&c->errors, 0, 0,
                  "r300: RB3D_AARESOLVE_CTL resolve mode without "
                  "GB_AA_CONFIG multisampling; draw skipped");
        return false;
    }
    return true;
}

/* scissor and clip rectangles [R3xx 3D ref. SC]; false: nothing to draw */
static bool draw_scissor(R300Core *c, R300DrawState *ds)
{
    unsigned i;

    ds->scissor = sc_rect(R300_REG(c, A_SC_SCISSOR0), R300_REG(c, A_SC_SCISSOR1));
    ds->scissor.x0 = MAX(ds->scissor.x0, 0);
    ds->scissor.y0 = MAX(ds->scissor.y0, 0);
    if (ds->scissor.x0 >= ds->scissor.x1 || ds->scissor.y0 >= ds->scissor.y1) {
        return false;                       /* nothing can be drawn */
    }
    for (i = 0; i < 4; i++) {
        ds->clip[i] = sc_rect(R300_REG(c, A_SC_CLIP_0_A + 8 * i),
                              R300_REG(c, A_SC_CLIP_0_B + 8 * i));
    }
    ds->clip_rule = R300_REG(c, A_SC_CLIP_RULE) & 0xFFFF;
    return true;
}

/* colour buffers: the targets the US writes [R3xx 3D ref. §1.9 US, §1.1
 * RB3D] */
static bool draw_targets(R300Core *c, R300DrawState *ds)
{
    unsigned t;

    /*
     * NUM_MULTIWRITES: "a quad is replicated and written to this many
     * buffers" [R3xx 3D ref. §1.1 RB3D_CCTL]. Mesa uses it for a shader
     * whose gl_FragColor goes to every draw buffer and marks US_OUT_FMT_1..3
     * unused then (r300_emit.c: "NUM_MULTIWRITES replicates COLOR[0] to all
     * colorbuffers", "the colorbuffers 2,3,4 must be marked as UNUSED in the
     * US block"), so the replicas take output 0 in US_OUT_FMT_0's format.
     */
    ds->multiwrite = G3D_FIELD_EX32(R300_REG(c, A_RB3D_CCTL), RB3D_CCTL,
                                    NUM_MULTIWRITES);
    for (t = 0; t < 4; t++) {
        uint32_t of = R300_REG(c, R300_US_OUT_FMT(t <= ds->multiwrite ? 0
                                                                       : t));
        uint32_t pitch = R300_REG(c, R300_RB3D_COLORPITCH(t));
        R300Target *tg = &ds->cb[t];

        if (G3D_FIELD_EX32(of, US_OUT_FMT_0, OUT_FMT) == R300_US_OUT_FMT_UNUSED) {
            continue;
        }
        ds->ncb = t + 1;
        tg->out_fmt = of;
        tg->format = G3D_FIELD_EX32(pitch, RB3D_COLORPITCH_0, COLORFORMAT);
        tg->bpp = colour_bpp(tg->format);
        tg->pitch = R300_COLORPITCH_PIXELS(pitch);
        tg->endian = G3D_FIELD_EX32(pitch, RB3D_COLORPITCH_0, COLORENDIAN);
        if (!tg->bpp) {
            g3d_unimp("r300: colour format %u not modelled", tg->format);
            continue;
        }
        if (tg->pitch == 0) {
            g3d_error(&c->errors, 0, 0,
                      "r300: RB3D_COLORPITCH%u is 0", t);
            return false;
        }
        draw_surface_tiling(c, &tg->tiling, "colour buffer", tg->bpp,
                            tg->pitch,
                            G3D_FIELD_EX32(pitch, RB3D_COLORPITCH_0, COLORTILE),
                            G3D_FIELD_EX32(pitch, RB3D_COLORPITCH_0,
                                           COLORMICROTILE));
        /* the CB has no height: the scissor bounds it */
        tg->rows = ds->scissor.y1;
        ds->scissor.x1 = MIN(ds->scissor.x1, (int32_t)tg->pitch);
        tg->base = map_surface(c, "colour buffer",
                               R300_REG(c, R300_RB3D_COLOROFFSET(t)) & ~0x1Fu,
                               &tg->tiling, tg->rows);
        if (!tg->base) {
            return false;
        }
    }
    return true;
}

/* depth/stencil buffer [R3xx 3D ref. ZB] */
static bool draw_depth(R300Core *c, R300DrawState *ds)
{
    uint32_t zcntl = R300_REG(c, A_ZB_CNTL);

    /*
     * depth/stencil buffer; with ZB_BW_CNTL.ZB_CB_CLEAR the Z unit writes
     * ZB_DEPTHCLEARVALUE into it to help the CB clear a region, Z test off
     * [R3xx 3D ref. ZB_BW_CNTL, ZB_DEPTHCLEARVALUE]: Mesa's CBZB clear aims
     * ZB_DEPTHOFFSET at the lower half of a colour buffer and draws the
     * upper half (r300_blit.c, r300_emit.c)
     */
    ds->zb_cb_clear = R300_REG(c, A_ZB_BW_CNTL) & R_ZB_BW_CNTL_ZB_CB_CLEAR_MASK;
    ds->zclear = R300_REG(c, A_ZB_DEPTHCLEARVALUE);
    /*
     * and with FAST_FILL + RD_COMP, Z off: Mesa's ZMASK decompression writes
     * the cleared blocks it covers (r300_blit.c r300_decompress_zmask, zb.c)
     */
    if (ds->zb_cb_clear ||
        (zcntl & (R_ZB_CNTL_Z_ENABLE_MASK | R_ZB_CNTL_STENCIL_ENABLE_MASK)) ||
        (R300_REG(c, A_ZB_BW_CNTL) &
         (R_ZB_BW_CNTL_FAST_FILL_MASK | R_ZB_BW_CNTL_RD_COMP_ENABLE_MASK)) ==
        (R_ZB_BW_CNTL_FAST_FILL_MASK | R_ZB_BW_CNTL_RD_COMP_ENABLE_MASK)) {
        uint32_t zp = R300_REG(c, A_ZB_DEPTHPITCH);
        ds->zformat = G3D_FIELD_EX32(R300_REG(c, A_ZB_FORMAT), ZB_FORMAT,
                                     DEPTHFORMAT);
        switch (ds->zformat) {
        case R300_DEPTHFORMAT_16BIT_INT_Z:
            ds->zbpp = 2;
            break;
        case R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL:
            ds->zbpp = 4;
            break;
        case R300_DEPTHFORMAT_16BIT_13E3:
            ds->zbpp = 2;
            ds->zinvert = G3D_FIELD_EX32(R300_REG(c, A_ZB_FORMAT), ZB_FORMAT,
                                         INVERT);
            break;
        default:
            g3d_error(&c->errors, 0, 0,
                      "r300: ZB_FORMAT depth format %u is reserved; "
                      "draw skipped", ds->zformat);
            return false;
        }
        ds->zpitch = R300_DEPTHPITCH_PIXELS(zp);
        if (ds->zpitch == 0) {
            g3d_error(&c->errors, 0, 0,
                      "r300: ZB_DEPTHPITCH is 0 with Z enabled or "
                      "ZB_CB_CLEAR");
            return false;
        }
        ds->scissor.x1 = MIN(ds->scissor.x1, (int32_t)ds->zpitch);
        ds->zrows = ds->scissor.y1;
        draw_surface_tiling(c, &ds->ztiling, "depth buffer", ds->zbpp,
                            ds->zpitch,
                            G3D_FIELD_EX32(zp, ZB_DEPTHPITCH, DEPTHMACROTILE),
                            G3D_FIELD_EX32(zp, ZB_DEPTHPITCH, DEPTHMICROTILE));
        ds->zbase = map_surface(c, "depth buffer",
                                R300_REG(c, A_ZB_DEPTHOFFSET) &
                                R300_DEPTH_OFFSET_MASK,
                                &ds->ztiling, ds->zrows);
        if (!ds->zbase) {
            return false;
        }
    }
    r300_zb_draw_setup(c, ds);
    ds->zb_cntl = zcntl;
    return true;
}

/* stencil, blending and the fragment operations of US and FG */
static bool draw_blend(R300Core *c, R300DrawState *ds)
{
    unsigned t;

    ds->zstencil = R300_REG(c, A_ZB_ZSTENCILCNTL);
    ds->stencil_refmask = R300_REG(c, A_ZB_STENCILREFMASK);
    ds->blend = R300_REG(c, A_RB3D_BLENDCNTL);
    ds->ablend = R300_REG(c, A_RB3D_ABLENDCNTL);
    ds->chan_mask = R300_REG(c, A_RB3D_COLOR_CHANNEL_MASK);
    ds->rop = R300_REG(c, A_RB3D_ROPCNTL);
    ds->const_color = R300_REG(c, A_RB3D_CONSTANT_COLOR);
    ds->dither = R300_REG(c, A_RB3D_DITHER_CTL);
    for (t = 0; t < 4; t++) {
        r300_target_prepare(&ds->cb[t], ds);
    }
    if (ds->resolving && !resolve_target(c)) {
        return false;
    }
    ds->alpha_func = R300_REG(c, A_FG_ALPHA_FUNC);
    if (ds->alpha_func & R_FG_ALPHA_FUNC_AM_EN_MASK) {
        /* which samples an alpha keeps is not public [R3xx 3D ref. §1.2
         * FG_ALPHA_FUNC names AM_EN and AM_CFG only] */
        g3d_unimp("r300: FG_ALPHA_FUNC alpha to mask not modelled; "
                  "every sample kept");
    }
    ds->fog_blend = R300_REG(c, A_FG_FOG_BLEND);
    ds->fog_factor = R300_REG(c, A_FG_FOG_FACTOR);
    ds->fog_color[0] = R300_REG(c, A_FG_FOG_COLOR_R);
    ds->fog_color[1] = R300_REG(c, A_FG_FOG_COLOR_G);
    ds->fog_color[2] = R300_REG(c, A_FG_FOG_COLOR_B);
    ds->depth_from_shader = R300_REG(c, A_FG_DEPTH_SRC) &
                            R_FG_DEPTH_SRC_DEPTH_SRC_MASK;
    ds->perspective = !(R300_REG(c, A_GB_SELECT) & R_GB_SELECT_W_SELECT_MASK);
    return true;
}

/* interpolator routing and rasterisation rules */
static void draw_routing(R300Core *c, R300DrawState *ds)
{
    uint32_t rsi, er;
    unsigned i, ninst;

    /* RS routing: INST_COUNT + 1 instructions [R3xx 3D ref. §1.5 RS; reference
     * defect R300-26, docs/references.md] */
    ninst = G3D_FIELD_EX32(R300_REG(c, A_RS_INST_COUNT), RS_INST_COUNT,
                           INST_COUNT) + 1;
    for (i = 0; i < ninst; i++) {
        rsi = R300_REG(c, R300_RS_INST(i));
        if (rsi & R_RS_INST_0_TEX_CN_MASK) {
            ds->vec_src[ds->nvec] = 2 * i;
            ds->vec_dest[ds->nvec++] = G3D_FIELD_EX32(rsi, RS_INST_0, TEX_ADDR);
        }
        if (rsi & R_RS_INST_0_COL_CN_MASK) {
            ds->vec_src[ds->nvec] = 2 * i + 1;
            ds->vec_dest[ds->nvec++] = G3D_FIELD_EX32(rsi, RS_INST_0, COL_ADDR);
        }
    }
    ds->quad_temps = ds->us.temps_used;
    for (i = 0; i < ds->nvec; i++) {
        ds->quad_temps = MAX(ds->quad_temps, ds->vec_dest[i] + 1u);
    }

    er = R300_REG(c, A_SC_EDGERULE);
    edge_rule(c, G3D_FIELD_EX32(er, SC_EDGERULE, ER_TRI), &ds->rules_tri);
    edge_rule(c, G3D_FIELD_EX32(er, SC_EDGERULE, ER_POINT), &ds->rules_point);
    edge_rule(c, G3D_FIELD_EX32(er, SC_EDGERULE, ER_LINE_LR), &ds->rules_line);
    for (i = 0; i < ds->samples && ds->samples > 1; i++) {
        /* sample i at GB_MSPOS0/1 MS_Xi, MS_Yi (sub-pixels from the pixel's
         * top-left corner, as Mesa r300_emit.c r300_get_mspos programs) */
        uint32_t ms = R300_REG(c, i < 3 ? A_GB_MSPOS0 : A_GB_MSPOS1);
        unsigned sh = 8 * (i % 3);
        const G3DRasterRules *base[3] = {
            &ds->rules_tri, &ds->rules_point, &ds->rules_line,
        };
        unsigned kind;
        for (kind = 0; kind < 3; kind++) {
            ds->ms_rules[kind][i] = *base[kind];
            ds->ms_rules[kind][i].sample_x = (ms >> sh) & 0xF;
            ds->ms_rules[kind][i].sample_y = (ms >> (sh + 4)) & 0xF;
        }
    }
}

/* texture units: decoded once, texels host-readable for the threads */
static void draw_textures(R300Core *c, R300DrawState *ds)
{
    unsigned t;

    for (t = 0; t < R300_TX_UNITS; t++) {
        if (R300_REG(c, A_TX_ENABLE) & (1u << t)) {
            r300_tx_load(&ds->tx[t], c->regs, t, &c->gpu);
        }
    }
}

/* a surface the draw writes: its bytes and the layout of its pixels */
typedef struct DrawSurface {
    uintptr_t lo, hi;
    const R300Tiling *tiling;
} DrawSurface;

static bool same_layout(const R300Tiling *a, const R300Tiling *b)
{
    return a->bpp == b->bpp && a->pitch == b->pitch && a->uw == b->uw &&
           a->uh == b->uh && a->mw == b->mw && a->mh == b->mh &&
           a->linear == b->linear;
}

/*
 * Whether two of the draw's colour targets and depth buffer share bytes
 * other than each pixel's own (the same base and layout): a pixel's depth
 * or colour is then another pixel's, perhaps in another tile.
 */
static bool buffers_overlap(const R300DrawState *ds)
{
    DrawSurface s[G_N_ELEMENTS(ds->cb) + 1];
    unsigned t, n = 0, i, j;

    for (t = 0; t < ds->ncb && t < G_N_ELEMENTS(ds->cb); t++) {
        const R300Target *tg = &ds->cb[t];

        if (tg->base) {
            s[n].lo = (uintptr_t)tg->base;
            s[n].hi = s[n].lo + r300_tile_bytes(&tg->tiling, tg->rows);
            s[n++].tiling = &tg->tiling;
        }
    }
    /*
     * ZB_CB_CLEAR: Mesa's CBZB clear (r300_blit.c) points the depth buffer
     * at the lower half of a colour buffer and draws the upper half: the
     * mapped ranges meet, the pixels drawn share no bytes
     */
    if (ds->zbase && !ds->zb_cb_clear) {
        s[n].lo = (uintptr_t)ds->zbase;
        s[n].hi = s[n].lo + r300_tile_bytes(&ds->ztiling, ds->zrows);
        s[n++].tiling = &ds->ztiling;
    }
    for (i = 0; i < n; i++) {
        for (j = i + 1; j < n; j++) {
            if (s[i].lo < s[j].hi && s[j].lo < s[i].hi &&
                (s[i].lo != s[j].lo ||
                 !same_layout(s[i].tiling, s[j].tiling))) {
                return true;
            }
        }
    }
    return false;
}

/*
 * Whether a pixel's value can depend on the order in which the tiles are
 * drawn: buffers that overlap, or an enabled texture that shares bytes
 * with a target or the depth buffer (a texel may be a pixel the draw
 * writes). With several render threads that order changes from run to
 * run.
 */
static bool tile_order_shows(const R300DrawState *ds)
{
    unsigned t;

    if (ds->buffers_overlap) {
        return true;
    }
    for (t = 0; t < R300_TX_UNITS; t++) {
        if (ds->tx[t].enabled && ds->tx[t].texels &&
            r300_tex_overlaps(ds, &ds->tx[t], ~0u)) {
            return true;
        }
    }
    return false;
}

/* The draw state from the registers into ds; false: skip the draw. */
static bool draw_build(R300Core *c, R300DrawState *ds)
{
    memset(ds, 0, sizeof(*ds));
    ds->zpass_thread = c->zpass_thread;
    c->draw = ds;
    if (!draw_scissor(c, ds) || !r300_us_load(&ds->us, c->regs) ||
        !draw_multisample(c, ds) || !draw_targets(c, ds) ||
        !draw_depth(c, ds) || !draw_blend(c, ds)) {
        return false;
    }
    draw_routing(c, ds);
    draw_textures(c, ds);
    ds->buffers_overlap = buffers_overlap(ds);
    r300_draw_specialise(ds);
    /* after: ds->depth says whether the draw tests (and may write) depth */
    ds->serial_tiles = tile_order_shows(ds);
    return true;
}

/*
 * What the queued draws may not have written yet: ds reads memory at set-up
 * (texture copies, the copies of surfaces that do not map), or keeps HyperZ
 * state the rasteriser updates. Such a draw waits for the queue. So does
 * one whose pixels depend on the order of the tiles (serial_tiles), and
 * the queue waits for it: a batch of several draws is drawn tile by tile,
 * each tile all its draws, which such a draw would show, and only with
 * several threads are draws queued.
 */
static bool draw_waits(const R300DrawState *ds)
{
    unsigned t;

    if (ds->nshadow || ds->hz.on || ds->serial_tiles) {
        return true;
    }
    for (t = 0; t < R300_TX_UNITS; t++) {
        if (ds->tx[t].enabled) {
            return true;
        }
    }
    return false;
}

/* queued draw i (ndraws: the next free slot) */
static R300DrawState *draw_slot(R300Core *c, unsigned i)
{
    return &c->drawq[(c->draw_head + i) % R300_DRAW_QUEUE];
}

bool r300_draw_begin(R300Core *c)
{
    /* with one render thread there is no hand-over to save, and a draw's
     * triangles are still in the cache when it is finished at once */
    unsigned max = g3d_raster_threads(c->raster) > 1 ? R300_DRAW_QUEUE : 1;
    R300DrawState *ds;
    bool ok;

    /* a full queue, or one whose last draw has copies to write back */
    if (c->ndraws == max ||
        (c->ndraws && draw_waits(draw_slot(c, c->ndraws - 1)))) {
        r300_flush_render(c);
    }
    ds = draw_slot(c, c->ndraws);
    ok = draw_build(c, ds);
    if (ok && c->ndraws && draw_waits(ds)) {
        /* its copies were read before the queued draws wrote: again */
        r300_draw_release(c, ds, false);
        r300_flush_render(c);
        ds = draw_slot(c, 0);
        ok = draw_build(c, ds);
    }
    if (!ok) {
        r300_draw_release(c, ds, false);        /* a draw that never began */
        return false;
    }
    c->ndraws++;
    c->draw_open = true;
    return true;
}

void r300_draw_end(R300Core *c)
{
    c->draw_open = false;
}
