/*
 * flipper-gx VI scanout modes (vi.c): the horizontal scaler (HSR.HS_EN,
 * STP as U1.8 source pixels per shown pixel, FBWIDTH 0x70 source pixels,
 * YAGCD §5.3 HSR/HSW and libogc's __setScalingRegs) with and without XOF,
 * up- and down-scaling; interlaced double-field, interlaced with a field
 * buffer elsewhere, non-interlaced and progressive frames; the XFB
 * address forms (POFF); the 3D mode logged as unimplemented; bad scaler
 * settings logged once and shown unscaled.
 *
 * Every pixel of an XFB whose luma differs from pixel to pixel is checked
 * against the conversion of the source pixel the closed form picks
 * (source = XOF + (x * STP) >> 8; line y at TFBL + y * pitch).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"
#include "scenes.h"

#define XFB 0x00300000u
#define LINE_PX 640

/* a YUV 4:2:2 XFB of `lines` lines of LINE_PX pixels, `pitch` bytes apart:
 * luma unique along a line, chroma varying with the line */
static void fill_xfb(FlipperRig *r, uint32_t addr, int lines, uint32_t pitch,
                     int salt)
{
    int x, y;

    for (y = 0; y < lines; y++) {
        uint8_t *p = r->mem1 + addr + (size_t)y * pitch;
        for (x = 0; x < LINE_PX; x += 2) {
            p[2 * x + 0] = (uint8_t)(16 + (x + salt) % 219);
            p[2 * x + 1] = (uint8_t)(16 + (y * 7 + x / 2) % 224);
            p[2 * x + 2] = (uint8_t)(16 + (x + 1 + salt) % 219);
            p[2 * x + 3] = (uint8_t)(240 - (y * 5 + x) % 224);
        }
    }
}

/* the shown picture */
static uint32_t *show(FlipperRig *r, G3DScanout *so)
{
    uint32_t *px;

    g_assert_true(flipper_scanout(r->core, 0, so));
    px = g_new(uint32_t, (size_t)so->width * so->height);
    g_assert_true(g3d_scanout_copy(so, &r->mem, px, so->width, "test"));
    return px;
}

/* every pixel of line y against source line `src_line` (pixels from XOF
 * on, stepped by stp; stp 0 = one to one) */
static void check_line(FlipperRig *r, const G3DScanout *so, const uint32_t *px,
                       int y, uint32_t src_addr, int xof, uint32_t stp)
{
    uint32_t src[LINE_PX];
    uint32_t x;

    flipper_xfb_to_argb(r->mem1 + src_addr, src, LINE_PX);
    for (x = 0; x < so->width; x++) {
        uint32_t sx = xof + (stp ? (x * stp) >> 8 : x);
        g_assert_cmphex(px[(size_t)y * so->width + x], ==, src[sx]);
    }
}

static void vi_setup(FlipperRig *r, uint32_t wpl, uint32_t std)
{
    rig_vi_init(r, XFB);
    rig_w16(r, A_VI_HSW, wpl << 8 | std);
}

static void scaled(FlipperRig *r, int xof, uint32_t srcw, uint32_t stp,
                   uint32_t want_width)
{
    G3DScanout so;
    uint32_t *px;
    int y;

    vi_setup(r, 40, 80);
    fill_xfb(r, XFB, 480, 1280, xof);
    rig_w32(r, A_VI_TFBL, XFB | (uint32_t)xof << 24);
    rig_w32(r, A_VI_BFBL, XFB + 1280);
    rig_w16(r, A_VI_FBWIDTH, srcw);
    rig_w16(r, A_VI_HSR, R_VI_HSR_HS_EN_MASK | stp);
    px = show(r, &so);
    g_assert_cmpuint(so.width, ==, want_width);
    g_assert_cmpuint(so.height, ==, 480);
    for (y = 0; y < 480; y += 37) {
        check_line(r, &so, px, y, XFB + (uint32_t)y * 1280, xof, stp);
    }
    g_free(px);
}

static void test_scaler(void)
{
    FlipperRig *r = rig_new(1);
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);

    /* libogc: a 320-pixel panel on a 640-pixel display, STP 0x80 */
    scaled(r, 0, 320, (320 * 256 + 639) / 640, 640);
    /* from XOF 3, 300 pixels to 640: STP 120 */
    scaled(r, 3, 300, 120, 640);
    /* down: 600 pixels at 1.5 a step, 400 shown; an odd step */
    scaled(r, 0, 600, 0x180, 400);
    scaled(r, 1, 517, 0x0D3, (517 * 256 + 0xD2) / 0xD3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors);
    rig_free(r);
}

/* step 0 or a source wider than the line: logged once, shown unscaled */
static void test_scaler_bad(void)
{
    FlipperRig *r = rig_new(1);
    unsigned errors;
    G3DScanout so;
    uint32_t *px;

    vi_setup(r, 40, 80);
    fill_xfb(r, XFB, 480, 1280, 0);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    rig_w16(r, A_VI_FBWIDTH, 320);
    rig_w16(r, A_VI_HSR, R_VI_HSR_HS_EN_MASK);          /* STP 0 */
    px = show(r, &so);
    g_free(px);
    px = show(r, &so);
    g_assert_cmpuint(so.width, ==, 640);
    check_line(r, &so, px, 5, XFB + 5 * 1280, 0, 0);
    g_free(px);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    rig_w16(r, A_VI_HSR, R_VI_HSR_HS_EN_MASK | 0x80);
    rig_w16(r, A_VI_FBWIDTH, 641);                      /* past the line */
    px = show(r, &so);
    g_assert_cmpuint(so.width, ==, 640);
    g_free(px);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 2);
    rig_free(r);
}

/*
 * Frames: interlaced double-field (libogc: bottom field one line below the
 * top, fields 2 lines apart) woven into 2 * ACV lines; interlaced with the
 * bottom field elsewhere, non-interlaced ("double strike") and progressive
 * (NIN, VICLK 54 MHz, ACV 480): the top field's ACV lines, STD * 32 apart.
 */
static void test_modes(void)
{
    FlipperRig *r = rig_new(1);
    G3DScanout so;
    uint32_t *px;
    int y;

    /* interlaced, double-field XFB */
    vi_setup(r, 40, 80);
    fill_xfb(r, XFB, 480, 1280, 9);
    px = show(r, &so);
    g_assert_cmpuint(so.width, ==, 640);
    g_assert_cmpuint(so.height, ==, 480);
    for (y = 0; y < 480; y += 59) {
        check_line(r, &so, px, y, XFB + (uint32_t)y * 1280, 0, 0);
    }
    g_free(px);

    /* interlaced, bottom field elsewhere: the top field's 240 lines */
    rig_w32(r, A_VI_BFBL, 0x00600000);
    px = show(r, &so);
    g_assert_cmpuint(so.height, ==, 240);
    for (y = 0; y < 240; y += 31) {
        check_line(r, &so, px, y, XFB + (uint32_t)y * 2560, 0, 0);
    }
    g_free(px);

    /* non-interlaced: 240 lines at the field stride */
    rig_w32(r, A_VI_BFBL, XFB + 1280);
    rig_w16(r, A_VI_DCR, 0x0005);                       /* NIN, ENB */
    px = show(r, &so);
    g_assert_cmpuint(so.height, ==, 240);
    check_line(r, &so, px, 239, XFB + 239 * 2560, 0, 0);
    g_free(px);

    /* progressive: 480 active lines, one line per STD (40 words) */
    rig_w16(r, A_VI_VTR, 480 << 4 | 6);
    rig_w16(r, A_VI_HSW, 40 << 8 | 40);
    rig_w16(r, A_VI_CLK, 1);
    rig_w16(r, A_VI_DCR, 0x0005);
    px = show(r, &so);
    g_assert_cmpuint(so.height, ==, 480);
    g_assert_cmpuint(so.pitch, ==, 1280);
    for (y = 0; y < 480; y += 43) {
        check_line(r, &so, px, y, XFB + (uint32_t)y * 1280, 0, 0);
    }
    g_free(px);

    /* POFF: both field addresses as address >> 5 */
    rig_w32(r, A_VI_TFBL, R_VI_TFBL_POFF_MASK | (XFB + 64 * 1280) >> 5);
    px = show(r, &so);
    check_line(r, &so, px, 0, XFB + 64 * 1280, 0, 0);
    check_line(r, &so, px, 100, XFB + 164 * 1280, 0, 0);
    g_free(px);
    rig_free(r);
}

/* the 3D mode: logged as unimplemented when selected, the left picture */
static void test_3d(void)
{
    FlipperRig *r = rig_new(1);
    unsigned unimp;
    G3DScanout so;
    uint32_t *px;

    vi_setup(r, 40, 80);
    fill_xfb(r, XFB, 480, 1280, 4);
    unimp = g3d_log_count(G3D_LOG_UNIMP);
    rig_w32(r, A_VI_TFBR, 0x00600000);
    rig_w16(r, A_VI_DCR, 0x0009);                       /* DLR, ENB */
    g_assert_cmpuint(g3d_log_count(G3D_LOG_UNIMP), ==, unimp + 1);
    px = show(r, &so);
    check_line(r, &so, px, 10, XFB + 10 * 1280, 0, 0);
    g_free(px);
    rig_free(r);
}

/*
 * The scanout cache the glue shows flipper's XFB through
 * (g3d_scanout_copy_cached, common/scanout.c): a refresh with nothing
 * changed converts nothing, and whatever changes after a skipped refresh
 * still shows: a display copy of a new frame into the XFB (through the GX
 * FIFO), a CPU write of one XFB byte, the XFB address and the scaler. After
 * every refresh the picture is what an uncached conversion gives.
 */
static void cached_refresh(FlipperRig *r, G3DScanoutCache *cache,
                           uint32_t *dst, bool want_changed)
{
    G3DScanout so;
    uint32_t *want;
    bool changed = !want_changed;

    want = show(r, &so);
    g_assert_true(g3d_scanout_copy_cached(cache, &so, &r->mem, dst, so.width,
                                          "test", &changed));
    g_assert_cmpint(changed, ==, want_changed);
    g_assert_cmpmem(dst, so.width * so.height * 4, want,
                    so.width * so.height * 4);
    g_free(want);
}

static void frame(FlipperRig *r, uint32_t clear_rgba, uint32_t rgb)
{
    GByteArray *b = g_byte_array_new();

    gx_begin_frame(b, clear_rgba);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, -0.5f, 0.5f, -0.5f, rgb << 8 | 0xFF);
    scene_vtx(b, 0.5f, 0.5f, -0.5f, 0xFF);
    scene_vtx(b, 0.0f, -0.5f, -0.5f, rgb << 8 | 0xFF);
    gx_copy_to_xfb(b, XFB);
    flipper_gx_exec(r->core, b->data, b->len);
    g_byte_array_unref(b);
}

static void test_scanout_cache(void)
{
    FlipperRig *r = rig_new(1);
    G3DScanoutCache cache = { 0 };
    uint32_t *dst = g_new0(uint32_t, 1024 * 1024);

    rig_vi_init(r, XFB);
    frame(r, 0x102030FF, 0xFF0000);
    cached_refresh(r, &cache, dst, true);
    cached_refresh(r, &cache, dst, false);      /* skipped */
    frame(r, 0x102030FF, 0x00FF00);             /* a new frame */
    cached_refresh(r, &cache, dst, true);
    cached_refresh(r, &cache, dst, false);
    r->mem1[XFB + 1280 * 200 + 640] ^= 0x40;    /* one luma byte */
    cached_refresh(r, &cache, dst, true);
    cached_refresh(r, &cache, dst, false);
    fill_xfb(r, XFB + 0x100000, 480, 1280, 3);
    rig_w32(r, A_VI_TFBL, XFB + 0x100000);      /* another XFB */
    rig_w32(r, A_VI_BFBL, XFB + 0x100000 + 1280);
    cached_refresh(r, &cache, dst, true);
    cached_refresh(r, &cache, dst, false);
    rig_w16(r, A_VI_FBWIDTH, 320);              /* the scaler: 2x */
    rig_w16(r, A_VI_HSR, R_VI_HSR_HS_EN_MASK | 128);
    cached_refresh(r, &cache, dst, true);
    cached_refresh(r, &cache, dst, false);
    g3d_scanout_cache_reset(&cache);
    g_free(dst);
    rig_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/flipper/vi/scaler", test_scaler);
    g_test_add_func("/flipper/vi/scaler-bad", test_scaler_bad);
    g_test_add_func("/flipper/vi/modes", test_modes);
    g_test_add_func("/flipper/vi/3d", test_3d);
    g_test_add_func("/flipper/vi/scanout-cache", test_scanout_cache);
    return g_test_run();
}
