/*
 * R300 display: the primary CRTC as Linux's radeon KMS driver programs it
 * (drivers/gpu/drm/radeon/radeon_legacy_crtc.c, r100.c; QEMU's ati.c for
 * the same registers): timings, scanout base, pitch and depth, DPMS
 * blanking, the palette, vblank (frame counter, current line, interrupt),
 * the page-flip lock, the primary DAC's load comparator and the DDC pins.
 *
 * Time comes from the glue: r300_crtc_vblank() is called at each vblank
 * (from a timer at the mode's refresh rate) and cfg.now_ns gives the time
 * between two for the current line.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

#define DEFAULT_FRAME_NS    16666667    /* 60 Hz when the PLL is not set */

static bool crtc_running(R300Core *c)
{
    uint32_t gen = R300_REG(c, A_CRTC_GEN_CNTL);
    return (gen & R_CRTC_GEN_CNTL_EN_MASK) &&
           (gen & R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK);
}

static uint32_t h_total(R300Core *c)
{
    return (G3D_FIELD_EX32(R300_REG(c, A_CRTC_H_TOTAL_DISP), CRTC_H_TOTAL_DISP,
                           H_TOTAL) + 1) * 8;
}

static uint32_t v_total(R300Core *c)
{
    return G3D_FIELD_EX32(R300_REG(c, A_CRTC_V_TOTAL_DISP), CRTC_V_TOTAL_DISP,
                          V_TOTAL) + 1;
}

static uint32_t v_disp(R300Core *c)
{
    return G3D_FIELD_EX32(R300_REG(c, A_CRTC_V_TOTAL_DISP), CRTC_V_TOTAL_DISP,
                          V_DISP) + 1;
}

uint64_t r300_crtc_frame_ns(R300Core *c)
{
    uint32_t khz = r300_pll_pixel_khz(c);
    uint64_t ns;

    if (!crtc_running(c)) {
        return 0;
    }
    if (!khz) {
        return DEFAULT_FRAME_NS;
    }
    ns = (uint64_t)h_total(c) * v_total(c) * 1000000ull / khz;
    /* keep a mad mode from flooding the guest or stalling it: 10-250 Hz */
    return MIN(MAX(ns, 4000000ull), 100000000ull);
}

uint64_t r300_crtc_vblank(R300Core *c, int64_t now_ns)
{
    R300Crtc *k = &c->crtc;
    uint64_t period = r300_crtc_frame_ns(c), frames = 1;

    if (!crtc_running(c)) {
        k->vblank_ns = 0;
        return 0;
    }
    /*
     * A late call (the host was busy) still counts every frame that
     * passed, as the real counter would: drm_vblank reads CRTC_CRNT_FRAME
     * to account for interrupts it did not get.
     */
    if (k->vblank_ns && now_ns > k->vblank_ns) {
        frames = MAX((now_ns - k->vblank_ns + period / 2) / period, 1);
        frames = MIN(frames, 1000);
    }
    k->frame += frames;
    k->vblank_ns = now_ns;
    if (k->flip_pending && !k->flip_locked) {
        /* the double-buffered offset is taken in the vertical blank */
        k->offset = k->offset_next;
        k->flip_pending = false;
        if (c->cfg.hooks.display_update) {
            c->cfg.hooks.display_update(c->cfg.hooks.opaque);
        }
    }
    R300_REG(c, A_CRTC_STATUS) |= R_CRTC_STATUS_VBLANK_SAVE_MASK;
    R300_REG(c, A_GEN_INT_STATUS) |= R_GEN_INT_STATUS_CRTC_VBLANK_STAT_MASK;
    r300_update_irq(c);
    return r300_crtc_frame_ns(c);
}

/* the line the CRTC scans now: vblank starts after the last visible line */
static uint32_t current_line(R300Core *c)
{
    uint64_t frame = r300_crtc_frame_ns(c), line_ns;
    int64_t now;

    if (!frame || !c->cfg.now_ns) {
        return 0;
    }
    now = c->cfg.now_ns(c->cfg.hooks.opaque);
    line_ns = MAX(frame / v_total(c), 1);
    return (uint32_t)((v_disp(c) + (uint64_t)MAX(now - c->crtc.vblank_ns, 0) /
                       line_ns) % v_total(c));
}

static void ddc_write(R300Core *c, uint32_t offset, uint32_t val)
{
    unsigned port = (offset - A_GPIO_VGA_DDC) / 4;
    /* an enabled pin drives its A level; a released one floats high */
    bool scl = !(val & R300_GPIO_EN_1) || (val & R300_GPIO_A_1);
    bool sda = !(val & R300_GPIO_EN_0) || (val & R300_GPIO_A_0);

    if (port == R300_DDC_VGA) {
        sda = r300_ddc_step(c, scl, sda);
    }
    val &= ~(R300_GPIO_Y_0 | R300_GPIO_Y_1);
    R300_REG(c, offset) = val | (scl ? R300_GPIO_Y_1 : 0) |
                          (sda ? R300_GPIO_Y_0 : 0);
}

static void palette_write(R300Core *c, uint32_t rgb30)
{
    uint32_t idx = R300_REG(c, A_PALETTE_INDEX);

    c->crtc.palette[idx & 0xFF] = rgb30 & 0x3FFFFFFF;
    /* the write index advances */
    R300_REG(c, A_PALETTE_INDEX) = (idx & ~0xFFu) | ((idx + 1) & 0xFF);
}

static uint32_t palette_read(R300Core *c, bool wide)
{
    uint32_t idx = R300_REG(c, A_PALETTE_INDEX);
    uint32_t v = c->crtc.palette[(idx >> 16) & 0xFF];

    R300_REG(c, A_PALETTE_INDEX) = (idx & ~0xFF0000u) |
                                   (((idx >> 16) + 1) & 0xFF) << 16;
    if (wide) {
        return v;
    }
    return ((v >> 22) & 0xFF) << 16 | ((v >> 12) & 0xFF) << 8 | ((v >> 2) & 0xFF);
}

bool r300_crtc_write(R300Core *c, uint32_t offset, uint32_t val)
{
    R300Crtc *k = &c->crtc;

    switch (offset) {
    case A_CRTC_OFFSET:
        k->offset_next = val & R_CRTC_OFFSET_OFFSET_MASK;
        k->flip_locked = val & R_CRTC_OFFSET_OFFSET_LOCK_MASK;
        if (k->flip_locked) {
            /* r100_page_flip waits for GUI_TRIG_OFFSET, then unlocks */
            k->flip_pending = true;
        } else if (!k->flip_pending || !crtc_running(c)) {
            /* no flip in flight (or no vblank to wait for): at once */
            k->offset = k->offset_next;
            k->flip_pending = false;
        }
        break;
    case A_CRTC_STATUS:
        R300_REG(c, offset) &= ~(val & R_CRTC_STATUS_VBLANK_SAVE_MASK);
        return true;
    case A_DAC_CNTL:
        R300_REG(c, offset) = val & ~R_DAC_CNTL_CMP_OUTPUT_MASK;
        return true;
    case A_GPIO_VGA_DDC:
    case A_GPIO_DVI_DDC:
    case A_GPIO_MONID:
    case A_GPIO_CRT2_DDC:
        ddc_write(c, offset, val);
        return true;
    case A_PALETTE_DATA:
        /* 8 bits per channel, widened to the 10 of the 30-bit entries */
        palette_write(c, ((val >> 16) & 0xFF) << 22 | ((val >> 8) & 0xFF) << 12 |
                         (val & 0xFF) << 2);
        return true;
    case A_PALETTE_30_DATA:
        palette_write(c, val);
        return true;
    case A_CRTC_VLINE_CRNT_VLINE:
    case A_CRTC_CRNT_FRAME:
        return true;                    /* read-only */
    case A_CRTC_GEN_CNTL:
    case A_CRTC_EXT_CNTL:
    case A_CRTC_H_TOTAL_DISP:
    case A_CRTC_V_TOTAL_DISP:
    case A_CRTC_OFFSET_CNTL:
    case A_CRTC_TILE_X0_Y0:
    case A_CRTC_PITCH:
    case A_DISPLAY_BASE_ADDR:
        break;
    default:
        return false;
    }
    R300_REG(c, offset) = val;
    if (c->cfg.hooks.display_update) {
        c->cfg.hooks.display_update(c->cfg.hooks.opaque);
    }
    return true;
}

bool r300_crtc_read(R300Core *c, uint32_t offset, uint32_t *val)
{
    R300Crtc *k = &c->crtc;
    uint32_t line;

    switch (offset) {
    case A_CRTC_OFFSET:
        *val = k->offset_next |
               (k->flip_pending ? R_CRTC_OFFSET_GUI_TRIG_OFFSET_MASK : 0) |
               (k->flip_locked ? R_CRTC_OFFSET_OFFSET_LOCK_MASK : 0);
        return true;
    case A_CRTC_CRNT_FRAME:
        *val = k->frame & 0x1FFFFF;
        return true;
    case A_CRTC_VLINE_CRNT_VLINE:
        *val = current_line(c) << R_CRTC_VLINE_CRNT_VLINE_CRNT_VLINE_SHIFT;
        return true;
    case A_CRTC_STATUS:
        line = current_line(c);
        *val = R300_REG(c, offset) |
               (crtc_running(c) && line >= v_disp(c) ?
                R_CRTC_STATUS_VBLANK_CUR_MASK : 0);
        return true;
    case A_DAC_CNTL:
        /* the comparator sees the monitor's 75-ohm load on the primary DAC
         * (radeon_legacy_primary_dac_detect) */
        *val = R300_REG(c, offset);
        if ((*val & R_DAC_CNTL_CMP_EN_MASK) && c->cfg.vga_monitor) {
            *val |= R_DAC_CNTL_CMP_OUTPUT_MASK;
        }
        return true;
    case A_PALETTE_DATA:
        *val = palette_read(c, false);
        return true;
    case A_PALETTE_30_DATA:
        *val = palette_read(c, true);
        return true;
    default:
        return false;
    }
}

void r300_crtc_reset(R300Core *c)
{
    unsigned i;

    memset(&c->crtc, 0, sizeof(c->crtc));
    for (i = 0; i < 256; i++) {
        /* an identity ramp, 10 bits per channel */
        uint32_t v = i << 2 | i >> 6;
        c->crtc.palette[i] = v << 20 | v << 10 | v;
    }
    r300_ddc_reset(&c->ddc);
    /* nothing drives the DDC pins: both float high */
    for (i = 0; i < R300_DDC_PORTS; i++) {
        R300_REG(c, A_GPIO_VGA_DDC + 4 * i) = R300_GPIO_Y_0 | R300_GPIO_Y_1;
    }
}

static void convert_8bpp(const G3DScanout *so, const uint8_t *src,
                         uint32_t *dst, int row)
{
    const uint32_t *pal = so->convert_opaque;
    uint32_t x;

    for (x = 0; x < so->width; x++) {
        uint32_t v = pal[src[x]];
        dst[x] = 0xFF000000u | ((v >> 22) & 0xFF) << 16 |
                 ((v >> 12) & 0xFF) << 8 | ((v >> 2) & 0xFF);
    }
}

/* 32 bpp with the hardware cursor blended over it (alpha, not premultiplied) */
static void convert_cursor(const G3DScanout *so, const uint8_t *src,
                           uint32_t *dst, int row)
{
    const R300Crtc *k = so->convert_opaque;
    int32_t v = row - k->cursor_y;
    uint32_t x, u;

    for (x = 0; x < so->width; x++) {
        const uint8_t *b = src + 4 * x;
        dst[x] = 0xFF000000u | b[2] << 16 | b[1] << 8 | b[0];
    }
    if (v < 0 || v >= (int32_t)k->cursor_rows) {
        return;
    }
    for (u = k->cursor_x0; u < R300_CURSOR_SIZE; u++) {
        int32_t sx = k->cursor_x + (int32_t)u;
        uint32_t p = k->cursor[v * R300_CURSOR_SIZE + u], a = p >> 24, d, o;
        unsigned ch;

        if (sx < 0 || sx >= (int32_t)so->width || !a) {
            continue;
        }
        d = dst[sx];
        o = 0xFF000000u;
        for (ch = 0; ch < 24; ch += 8) {
            uint32_t cc = (p >> ch) & 0xFF, dc = (d >> ch) & 0xFF;
            o |= ((cc * a + dc * (255 - a) + 127) / 255) << ch;
        }
        dst[sx] = o;
    }
}

/* copy the cursor image for the scanout; false if it is off or unreachable */
static bool cursor_load(R300Core *c)
{
    R300Crtc *k = &c->crtc;
    uint32_t posn = R300_REG(c, A_CUR_HORZ_VERT_POSN);
    uint32_t off = R300_REG(c, A_CUR_HORZ_VERT_OFF);
    uint64_t mc = (uint64_t)R300_REG(c, A_DISPLAY_BASE_ADDR) +
                  (R300_REG(c, A_CUR_OFFSET) & 0x7FFFFFFu);
    uint32_t xoff = MIN((off >> 16) & 0x3F, R300_CURSOR_SIZE - 1);
    uint32_t yoff = MIN(off & 0x3F, R300_CURSOR_SIZE - 1);
    unsigned i;

    if (!(R300_REG(c, A_CRTC_GEN_CNTL) & R_CRTC_GEN_CNTL_CUR_EN_MASK)) {
        return false;
    }
    /* the image starts yoff rows in: CUR_OFFSET already points there */
    k->cursor_rows = R300_CURSOR_SIZE - yoff;
    if (!g3d_mem_read(&c->gpu, mc, k->cursor, 4ull * R300_CURSOR_SIZE *
                      k->cursor_rows)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: cursor at MC 0x%08" G_GINT64_MODIFIER "x is "
                  "outside memory", mc);
        return false;
    }
    for (i = 0; i < R300_CURSOR_SIZE * k->cursor_rows; i++) {
        k->cursor[i] = GUINT32_FROM_LE(k->cursor[i]);
    }
    k->cursor_x0 = xoff;
    k->cursor_x = (int32_t)((posn >> 16) & 0x3FFF) - (int32_t)xoff;
    k->cursor_y = posn & 0x3FFF;
    return true;
}

/* one line of a tiled picture: runs of whole micro tile rows */
static void fetch_tiled(const G3DScanout *so, const uint8_t *base,
                        uint8_t *line, uint32_t row)
{
    const R300Crtc *k = so->fetch_opaque;
    const R300Tiling *t = &k->tiling;
    uint32_t mask = (1u << t->uw) - 1, y = k->tile_y0 + row, x = 0;

    while (x < so->width) {
        uint32_t sx = k->tile_x0 + x;
        uint32_t n = MIN(so->width - x, mask + 1 - (sx & mask));

        memcpy(line + (size_t)x * t->bpp, base + r300_tile_offset(t, sx, y),
               (size_t)n * t->bpp);
        x += n;
    }
}

/*
 * CRTC_OFFSET_CNTL: X_Y_MODE_EN starts the picture at pixel
 * CRTC_TILE_X0_Y0 of the surface at CRTC_OFFSET; MACRO_TILE_EN and
 * MICRO_TILE_EN read that surface in the layout RB3D writes (tile.h) with
 * CRTC_PITCH as its pitch. Linux only scans out macro tiled buffers
 * (radeon_crtc_do_set_base refuses micro tiled ones); the bit is honoured
 * the same way. False if the picture leaves the surface's pitch.
 */
static bool crtc_layout(R300Core *c, G3DScanout *so, uint32_t bpp)
{
    R300Crtc *k = &c->crtc;
    uint32_t cntl = R300_REG(c, A_CRTC_OFFSET_CNTL);
    uint32_t xy = R300_REG(c, A_CRTC_TILE_X0_Y0);
    bool macro = cntl & R_CRTC_OFFSET_CNTL_MACRO_TILE_EN_MASK;
    bool micro = cntl & R_CRTC_OFFSET_CNTL_MICRO_TILE_EN_MASK;
    uint32_t pitch_px = so->pitch / bpp;

    k->tile_x0 = k->tile_y0 = 0;
    if (cntl & R_CRTC_OFFSET_CNTL_X_Y_MODE_EN_MASK) {
        k->tile_x0 = G3D_FIELD_EX32(xy, CRTC_TILE_X0_Y0, X0);
        k->tile_y0 = G3D_FIELD_EX32(xy, CRTC_TILE_X0_Y0, Y0);
    }
    if ((uint64_t)k->tile_x0 + so->width > pitch_px) {
        g3d_guest_error("r300: scanout x %u + width %u past the pitch of %u "
                        "pixels", k->tile_x0, so->width, pitch_px);
        return false;
    }
    if (!macro && !micro) {
        /* linear: only the start moves, rows stay pitch apart */
        so->addr += (uint64_t)k->tile_y0 * so->pitch + k->tile_x0 * bpp;
        return true;
    }
    if (!r300_tile_setup(&k->tiling, bpp, pitch_px, macro,
                         micro ? R300_MICROTILE_TILED
                               : R300_MICROTILE_LINEAR)) {
        g3d_unimp("r300: micro tiled scanout at %u bpp shown linear", bpp * 8);
    }
    so->fetch = fetch_tiled;
    so->fetch_opaque = k;
    so->bytes_per_line = so->width * bpp;
    so->span = r300_tile_bytes(&k->tiling, k->tile_y0 + so->height);
    return true;
}

bool r300_crtc_scanout(R300Core *c, G3DScanout *so)
{
    uint32_t gen = R300_REG(c, A_CRTC_GEN_CNTL);
    uint32_t h = R300_REG(c, A_CRTC_H_TOTAL_DISP);
    uint32_t v = R300_REG(c, A_CRTC_V_TOTAL_DISP);
    uint32_t fb = R300_REG(c, A_MC_FB_LOCATION);
    uint64_t mc, fb_start = (uint64_t)(fb & 0xFFFF) << 16;
    uint32_t bpp;

    memset(so, 0, sizeof(*so));
    if (!crtc_running(c) || (gen & R_CRTC_GEN_CNTL_DISP_REQ_EN_B_MASK) ||
        (R300_REG(c, A_CRTC_EXT_CNTL) & R_CRTC_EXT_CNTL_DISPLAY_DIS_MASK)) {
        return false;                   /* off, or blanked by DPMS */
    }
    switch (G3D_FIELD_EX32(gen, CRTC_GEN_CNTL, PIX_WIDTH)) {
    case R300_CRTC_PIX_WIDTH_8BPP:
        so->convert = convert_8bpp;
        so->convert_opaque = c->crtc.palette;
        so->bytes_per_line = 0;
        bpp = 1;
        break;
    case R300_CRTC_PIX_WIDTH_15BPP:
        so->format = G3D_FMT_ARGB1555;
        bpp = 2;
        break;
    case R300_CRTC_PIX_WIDTH_16BPP:
        so->format = G3D_FMT_RGB565;
        bpp = 2;
        break;
    case R300_CRTC_PIX_WIDTH_32BPP:
        so->format = G3D_FMT_XRGB8888;
        bpp = 4;
        if (cursor_load(c)) {
            so->format = G3D_FMT_INVALID;
            so->convert = convert_cursor;
            so->convert_opaque = &c->crtc;
        }
        break;
    default:
        g3d_unimp("r300: CRTC pixel width %u not modelled",
                  G3D_FIELD_EX32(gen, CRTC_GEN_CNTL, PIX_WIDTH));
        return false;
    }
    so->enabled = true;
    so->width = (G3D_FIELD_EX32(h, CRTC_H_TOTAL_DISP, H_DISP) + 1) * 8;
    so->height = G3D_FIELD_EX32(v, CRTC_V_TOTAL_DISP, V_DISP) + 1;
    so->pitch = G3D_FIELD_EX32(R300_REG(c, A_CRTC_PITCH), CRTC_PITCH, PITCH) *
                8 * bpp;
    if (so->convert) {
        so->bytes_per_line = so->width * bpp;
    }
    /* DISPLAY_BASE_ADDR + CRTC_OFFSET is an MC address; VRAM starts at
     * MC_FB_LOCATION (radeon_legacy_crtc.c radeon_crtc_do_set_base) */
    mc = (uint64_t)R300_REG(c, A_DISPLAY_BASE_ADDR) + c->crtc.offset;
    if (mc < fb_start) {
        g3d_error(&c->errors, 0, 0,
                  "r300: scanout at MC 0x%08" G_GINT64_MODIFIER "x is "
                  "below VRAM", mc);
        return false;
    }
    so->addr = mc - fb_start;
    return crtc_layout(c, so, bpp);
}

bool r300_scanout(R300Core *c, int head, G3DScanout *out)
{
    if (head != 0) {
        return false;
    }
    /* the caller checks it against VRAM (g3d_scanout_check) */
    return r300_crtc_scanout(c, out);
}

const G3DMem *r300_scanout_mem(R300Core *c)
{
    return &c->cfg.vram;
}
