/*
 * R300 host-interface blocks a KMS driver meets before any drawing: the
 * memory size registers, the MC idle bit, the PLL register file behind
 * CLOCK_CNTL_INDEX/DATA and the MM_INDEX/MM_DATA window. The expected values
 * are what Linux's radeon driver computes from them (radeon_clocks.c,
 * r100.c r100_vram_init_sizes, r300-core.c r300_mc_init).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "r300-rig.h"
#include "common/scanout.h"
#include "r300/tile.h"

#define VRAM_SIZE   (16u << 20)

static unsigned errs(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

static uint32_t pll_rd(R300Rig *d, unsigned idx)
{
    /* as r100_pll_rreg: a byte write of the index, then the data */
    r300_reg_write(d->core, A_CLOCK_CNTL_INDEX, idx & 0x3F, 1);
    return r300_rig_rd(d, A_CLOCK_CNTL_DATA);
}

static void pll_wr(R300Rig *d, unsigned idx, uint32_t v)
{
    r300_reg_write(d->core, A_CLOCK_CNTL_INDEX,
                   (idx & 0x3F) | R_CLOCK_CNTL_INDEX_PLL_WR_EN_MASK, 1);
    r300_rig_wr(d, A_CLOCK_CNTL_DATA, v);
}

static void test_memory_sizes(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);

    /* 0 here made the driver fail with -ENOMEM (no CPU-visible VRAM) */
    g_assert_cmphex(r300_rig_rd(d, A_CONFIG_APER_SIZE), ==, VRAM_SIZE);
    g_assert_cmphex(r300_rig_rd(d, A_CONFIG_MEMSIZE), ==, VRAM_SIZE);
    /* r300_mc_init: NUM_CHANNELS 2 is a 256-bit bus */
    g_assert_cmpuint(G3D_FIELD_EX32(r300_rig_rd(d, A_MEM_CNTL), MEM_CNTL,
                                    NUM_CHANNELS), ==, 2);
    /* read-only */
    r300_rig_wr(d, A_CONFIG_APER_SIZE, 0);
    r300_rig_wr(d, A_CONFIG_MEMSIZE, 0);
    g_assert_cmphex(r300_rig_rd(d, A_CONFIG_APER_SIZE), ==, VRAM_SIZE);
    g_assert_cmphex(r300_rig_rd(d, A_CONFIG_MEMSIZE), ==, VRAM_SIZE);
    /* r300_mc_wait_for_idle polls R300_MC_IDLE */
    g_assert_true(r300_rig_rd(d, A_MC_STATUS) & R_MC_STATUS_MC_IDLE_MASK);
    r300_rig_free(d);
}

static void test_pll_clocks(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    uint32_t spll = pll_rd(d, R300_PLL_M_SPLL_REF_FB_DIV);
    uint32_t ref = spll & 0xFF, sclk, mclk;

    /* radeon_legacy_get_engine/memory_clock, 10 kHz units, 27 MHz crystal */
    g_assert_cmpuint(ref, >=, 2);
    sclk = (((spll >> 16) & 0xFF) << 1) * 2700 / ref;
    mclk = (((spll >> 8) & 0xFF) << 1) * 2700 / ref;
    switch (pll_rd(d, R300_PLL_SCLK_CNTL) & 7) {
    case 2: sclk >>= 1; break;
    case 3: sclk >>= 2; break;
    case 4: sclk >>= 3; break;
    }
    g_assert_cmpuint(sclk, >=, 20000);      /* 200-400 MHz: a 9700's */
    g_assert_cmpuint(sclk, <=, 40000);
    g_assert_cmpuint(mclk, >=, 20000);
    g_assert_cmpuint(mclk, <=, 40000);
    /* the generic clock info takes the pixel PLL reference divider */
    g_assert_cmpuint(pll_rd(d, R300_PLL_PPLL_REF_DIV) & 0x3FF, >=, 2);
    /* each index is its own register */
    g_assert_cmphex(pll_rd(d, R300_PLL_PPLL_DIV_0), !=, spll);
    r300_rig_free(d);
}

static void test_pll_file(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    unsigned e = errs(), i;

    for (i = 0; i < 64; i++) {
        pll_wr(d, i, 0x1000 + i);
    }
    for (i = 0; i < 64; i++) {
        uint32_t want = 0x1000 + i;
        if (i == R300_PLL_PPLL_REF_DIV || i == R300_PLL_P2PLL_REF_DIV) {
            want &= ~R300_PPLL_ATOMIC_UPDATE;
        }
        g_assert_cmphex(pll_rd(d, i), ==, want);
    }
    g_assert_cmpuint(errs(), ==, e);

    /* radeon_pll_write_update: the atomic update is taken, reads 0 */
    pll_wr(d, R300_PLL_PPLL_REF_DIV, 12u << 18 | R300_PPLL_ATOMIC_UPDATE);
    g_assert_cmphex(pll_rd(d, R300_PLL_PPLL_REF_DIV), ==, 12u << 18);

    /* a data write without PLL_WR_EN is ignored and logged */
    r300_rig_wr(d, A_CLOCK_CNTL_INDEX, R300_PLL_HTOTAL_CNTL);
    r300_rig_wr(d, A_CLOCK_CNTL_DATA, 0xDEAD);
    g_assert_cmpuint(errs(), ==, e + 1);
    g_assert_cmphex(pll_rd(d, R300_PLL_HTOTAL_CNTL), ==,
                    0x1000 + R300_PLL_HTOTAL_CNTL);

    /* an index past the 6-bit field wraps into it, touching nothing else */
    r300_rig_wr(d, A_CLOCK_CNTL_INDEX, 0xFFFFFF7F | R_CLOCK_CNTL_INDEX_PLL_WR_EN_MASK);
    g_assert_cmphex(r300_rig_rd(d, A_CLOCK_CNTL_INDEX), ==, 0x3BF);
    r300_rig_wr(d, A_CLOCK_CNTL_DATA, 0xBEEF);
    g_assert_cmphex(pll_rd(d, 0x3F), ==, 0xBEEF);
    g_assert_cmphex(pll_rd(d, 0x3E), ==, 0x103E);

    /* WREG8 of the index keeps PPLL_DIV_SEL in the byte above */
    r300_rig_wr(d, A_CLOCK_CNTL_INDEX, 3u << 8);
    pll_rd(d, R300_PLL_SCLK_CNTL);
    g_assert_cmpuint(G3D_FIELD_EX32(r300_rig_rd(d, A_CLOCK_CNTL_INDEX),
                                    CLOCK_CNTL_INDEX, PPLL_DIV_SEL), ==, 3);
    r300_rig_free(d);
}

static void test_mm_index(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    unsigned e = errs();

    r300_rig_wr(d, A_MM_INDEX, A_CONFIG_MEMSIZE);
    g_assert_cmphex(r300_rig_rd(d, A_MM_DATA), ==, VRAM_SIZE);
    r300_rig_wr(d, A_MM_INDEX, A_CRTC_PITCH);
    r300_rig_wr(d, A_MM_DATA, 0x50);
    g_assert_cmphex(r300_rig_rd(d, A_CRTC_PITCH), ==, 0x50);
    /* the PLL file through both windows */
    r300_rig_wr(d, A_MM_INDEX, A_CLOCK_CNTL_INDEX);
    r300_rig_wr(d, A_MM_DATA, R300_PLL_M_SPLL_REF_FB_DIV);
    r300_rig_wr(d, A_MM_INDEX, A_CLOCK_CNTL_DATA);
    g_assert_cmphex(r300_rig_rd(d, A_MM_DATA), ==,
                    pll_rd(d, R300_PLL_M_SPLL_REF_FB_DIV));
    g_assert_cmpuint(errs(), ==, e);
    /* MM_DATA naming itself, unaligned or past the BAR: logged, no effect */
    r300_rig_wr(d, A_MM_INDEX, A_MM_DATA);
    g_assert_cmphex(r300_rig_rd(d, A_MM_DATA), ==, 0);
    r300_rig_wr(d, A_MM_INDEX, 0x10002);
    r300_rig_wr(d, A_MM_DATA, 1);
    g_assert_cmpuint(errs(), ==, e + 2);
    r300_rig_free(d);
}

/* 640x480 at 60 Hz as radeon_legacy_crtc.c programs it: 25.175 MHz from
 * 27 MHz * fb / (ref * post), 800 x 525 total */
static void mode_640x480(R300Rig *d)
{
    pll_wr(d, R300_PLL_PPLL_REF_DIV, 12u << R300_PPLL_REF_DIV_ACC_SHIFT);
    /* 27000 * 179 / (12 * 16) = 25171.9 kHz */
    pll_wr(d, R300_PLL_PPLL_DIV_0 + 3, 179 | 5u << R300_PPLL_POST_DIV_SHIFT);
    r300_reg_write(d->core, A_CLOCK_CNTL_INDEX, 3u << 8, 2);
    r300_rig_wr(d, A_CRTC_H_TOTAL_DISP, (640 / 8 - 1) << 16 | (800 / 8 - 1));
    r300_rig_wr(d, A_CRTC_V_TOTAL_DISP, (480 - 1) << 16 | (525 - 1));
    r300_rig_wr(d, A_CRTC_PITCH, 640 / 8);
    r300_rig_wr(d, A_CRTC_GEN_CNTL, R300_CRTC_PIX_WIDTH_32BPP << 8 |
                R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK | R_CRTC_GEN_CNTL_EN_MASK);
}

static void test_vblank(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    uint64_t period;
    uint32_t line, st;

    /* off: no vblanks */
    g_assert_cmpuint(r300_crtc_vblank(d->core, 0), ==, 0);
    g_assert_cmpuint(r300_rig_rd(d, A_CRTC_CRNT_FRAME), ==, 0);

    mode_640x480(d);
    period = r300_crtc_frame_ns(d->core);
    /* 800 * 525 / 25.1719 MHz = 16.685 ms: 59.93 Hz */
    g_assert_cmpuint(period, >=, 16680000);
    g_assert_cmpuint(period, <=, 16690000);

    r300_rig_wr(d, A_GEN_INT_CNTL, R_GEN_INT_CNTL_CRTC_VBLANK_MASK_MASK);
    d->now_ns = 1000000;
    g_assert_cmpuint(r300_crtc_vblank(d->core, d->now_ns), ==, period);
    g_assert_cmpuint(r300_rig_rd(d, A_CRTC_CRNT_FRAME), ==, 1);
    g_assert_true(r300_rig_rd(d, A_GEN_INT_STATUS) &
                  R_GEN_INT_STATUS_CRTC_VBLANK_STAT_MASK);
    g_assert_true(r300_irq_level(d->core));
    /* at the vblank the CRTC is past the last visible line */
    line = r300_rig_rd(d, A_CRTC_VLINE_CRNT_VLINE) >> 16;
    g_assert_cmpuint(line, ==, 480);
    st = r300_rig_rd(d, A_CRTC_STATUS);
    g_assert_true(st & R_CRTC_STATUS_VBLANK_CUR_MASK);
    g_assert_true(st & R_CRTC_STATUS_VBLANK_SAVE_MASK);
    /* ack: the interrupt drops, VBLANK_SAVE clears by writing 1 */
    r300_rig_wr(d, A_GEN_INT_STATUS, R_GEN_INT_STATUS_CRTC_VBLANK_STAT_MASK);
    g_assert_false(r300_irq_level(d->core));
    r300_rig_wr(d, A_CRTC_STATUS, R_CRTC_STATUS_VBLANK_SAVE_MASK);
    g_assert_false(r300_rig_rd(d, A_CRTC_STATUS) &
                   R_CRTC_STATUS_VBLANK_SAVE_MASK);
    /* half a frame later: 480 + 262 lines, wrapped past 525 */
    d->now_ns += period / 2;
    line = r300_rig_rd(d, A_CRTC_VLINE_CRNT_VLINE) >> 16;
    g_assert_cmpuint(line, ==, (480 + 525 / 2) % 525);
    g_assert_false(r300_rig_rd(d, A_CRTC_STATUS) &
                   R_CRTC_STATUS_VBLANK_CUR_MASK);
    /* masked: counted, no interrupt */
    r300_rig_wr(d, A_GEN_INT_CNTL, 0);
    d->now_ns = 1000000 + period;
    r300_crtc_vblank(d->core, d->now_ns);
    g_assert_cmpuint(r300_rig_rd(d, A_CRTC_CRNT_FRAME), ==, 2);
    g_assert_false(r300_irq_level(d->core));
    /* called three frames late: the counter still counts each frame */
    d->now_ns += 3 * period;
    r300_crtc_vblank(d->core, d->now_ns);
    g_assert_cmpuint(r300_rig_rd(d, A_CRTC_CRNT_FRAME), ==, 5);
    r300_rig_free(d);
}

static uint64_t scanout_addr(R300Rig *d)
{
    G3DScanout so;
    g_assert_true(r300_scanout(d->core, 0, &so));
    return so.addr;
}

static void test_page_flip(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    const uint32_t mc_base = 0xE0000000u;

    /* VRAM at an MC address like the BAR's, as r300_mc_init places it */
    r300_rig_wr(d, A_MC_FB_LOCATION, (mc_base >> 16) |
                ((mc_base + VRAM_SIZE - 1) & 0xFFFF0000u));
    r300_rig_wr(d, A_DISPLAY_BASE_ADDR, mc_base);
    mode_640x480(d);
    r300_rig_wr(d, A_CRTC_OFFSET, 0x1000);
    g_assert_cmphex(scanout_addr(d), ==, 0x1000);

    /* r100_page_flip: write with OFFSET_LOCK, wait for GUI_TRIG_OFFSET */
    r300_rig_wr(d, A_CRTC_OFFSET, 0x200000 | R_CRTC_OFFSET_OFFSET_LOCK_MASK);
    g_assert_true(r300_rig_rd(d, A_CRTC_OFFSET) &
                  R_CRTC_OFFSET_GUI_TRIG_OFFSET_MASK);
    r300_rig_wr(d, A_CRTC_OFFSET, 0x200000);
    /* pending until the vblank; the old picture stays */
    g_assert_true(r300_rig_rd(d, A_CRTC_OFFSET) &
                  R_CRTC_OFFSET_GUI_TRIG_OFFSET_MASK);
    g_assert_cmphex(scanout_addr(d), ==, 0x1000);
    r300_crtc_vblank(d->core, 0);
    g_assert_false(r300_rig_rd(d, A_CRTC_OFFSET) &
                   R_CRTC_OFFSET_GUI_TRIG_OFFSET_MASK);
    g_assert_cmphex(r300_rig_rd(d, A_CRTC_OFFSET), ==, 0x200000);
    g_assert_cmphex(scanout_addr(d), ==, 0x200000);

    /* still locked at the vblank: not taken */
    r300_rig_wr(d, A_CRTC_OFFSET, 0x300000 | R_CRTC_OFFSET_OFFSET_LOCK_MASK);
    r300_crtc_vblank(d->core, 0);
    g_assert_cmphex(scanout_addr(d), ==, 0x200000);
    r300_rig_wr(d, A_CRTC_OFFSET, 0x300000);
    r300_crtc_vblank(d->core, 0);
    g_assert_cmphex(scanout_addr(d), ==, 0x300000);

    /* DPMS off blanks the screen */
    r300_rig_wr(d, A_CRTC_EXT_CNTL, R_CRTC_EXT_CNTL_DISPLAY_DIS_MASK);
    {
        G3DScanout so;
        g_assert_false(r300_scanout(d->core, 0, &so));
    }
    r300_rig_free(d);
}

static void test_dac_ddc_palette(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    uint32_t v;

    /* the load comparator reports the monitor only while enabled */
    g_assert_false(r300_rig_rd(d, A_DAC_CNTL) & R_DAC_CNTL_CMP_OUTPUT_MASK);
    r300_rig_wr(d, A_DAC_CNTL, R_DAC_CNTL_CMP_EN_MASK);
    g_assert_true(r300_rig_rd(d, A_DAC_CNTL) & R_DAC_CNTL_CMP_OUTPUT_MASK);

    /* nothing on the bus (no cfg.ddc): Y follows what the chip drives */
    v = r300_rig_rd(d, A_GPIO_VGA_DDC);
    g_assert_cmphex(v & (R300_GPIO_Y_0 | R300_GPIO_Y_1), ==,
                    R300_GPIO_Y_0 | R300_GPIO_Y_1);
    r300_rig_wr(d, A_GPIO_VGA_DDC, R300_GPIO_EN_1);      /* clock low */
    v = r300_rig_rd(d, A_GPIO_VGA_DDC);
    g_assert_cmphex(v & (R300_GPIO_Y_0 | R300_GPIO_Y_1), ==, R300_GPIO_Y_0);
    /* Y is read-only */
    r300_rig_wr(d, A_GPIO_DVI_DDC, R300_GPIO_EN_0 | R300_GPIO_EN_1);
    g_assert_cmphex(r300_rig_rd(d, A_GPIO_DVI_DDC) &
                    (R300_GPIO_Y_0 | R300_GPIO_Y_1), ==, 0);

    /* legacy_crtc_load_lut: 30-bit entries from index 0, auto-increment */
    r300_reg_write(d->core, A_PALETTE_INDEX, 0, 1);
    r300_rig_wr(d, A_PALETTE_30_DATA, 0x3FF00000);      /* red */
    r300_rig_wr(d, A_PALETTE_30_DATA, 0x000FFC00);      /* green */
    r300_rig_wr(d, A_PALETTE_INDEX, 0);                 /* read from 0 */
    g_assert_cmphex(r300_rig_rd(d, A_PALETTE_30_DATA), ==, 0x3FF00000);
    g_assert_cmphex(r300_rig_rd(d, A_PALETTE_DATA), ==, 0x0000FF00);
    r300_rig_free(d);
}

/* the hardware cursor blended over a 32 bpp picture (radeon_cursor.c) */
static void test_cursor(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    const uint32_t cur = 0x300000;
    static uint32_t out[640 * 480];
    G3DScanout so;
    uint32_t i, px;

    mode_640x480(d);
    /* screen: mid grey; cursor: opaque red except a half-transparent
     * blue column 1 and transparent from column 8 */
    for (i = 0; i < 640 * 480; i++) {
        memcpy(d->vram + 4 * i, &(uint32_t){ 0x00808080 }, 4);
    }
    for (i = 0; i < 64 * 64; i++) {
        px = i % 64 == 1 ? 0x800000FF : i % 64 < 8 ? 0xFFFF0000 : 0;
        memcpy(d->vram + cur + 4 * i, &px, 4);
    }
    r300_rig_wr(d, A_CUR_OFFSET, cur);
    r300_rig_wr(d, A_CUR_HORZ_VERT_POSN, 100u << 16 | 50);
    r300_rig_wr(d, A_CRTC_GEN_CNTL, r300_rig_rd(d, A_CRTC_GEN_CNTL) |
                R_CRTC_GEN_CNTL_CUR_EN_MASK | 2u << 20);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_true(g3d_scanout_copy(&so, r300_scanout_mem(d->core), out, 640,
                                   "test"));
    g_assert_cmphex(out[50 * 640 + 100], ==, 0xFFFF0000);
    g_assert_cmphex(out[113 * 640 + 107], ==, 0xFFFF0000);     /* row 63 */
    g_assert_cmphex(out[50 * 640 + 101], ==, 0xFF4040C0);      /* 50% blue */
    g_assert_cmphex(out[50 * 640 + 108], ==, 0xFF808080);      /* clear */
    g_assert_cmphex(out[49 * 640 + 100], ==, 0xFF808080);
    g_assert_cmphex(out[114 * 640 + 100], ==, 0xFF808080);
    g_assert_cmphex(out[50 * 640 + 99], ==, 0xFF808080);

    /* clipped at the left edge: 3 columns hidden (HORZ_VERT_OFF) */
    r300_rig_wr(d, A_CUR_HORZ_VERT_POSN, 0u << 16 | 50);
    r300_rig_wr(d, A_CUR_HORZ_VERT_OFF, 3u << 16);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_true(g3d_scanout_copy(&so, r300_scanout_mem(d->core), out, 640,
                                   "test"));
    g_assert_cmphex(out[50 * 640 + 4], ==, 0xFFFF0000);        /* column 7 */
    g_assert_cmphex(out[50 * 640 + 5], ==, 0xFF808080);        /* column 8 */

    /* off: the plain picture */
    r300_rig_wr(d, A_CRTC_GEN_CNTL, r300_rig_rd(d, A_CRTC_GEN_CNTL) &
                ~R_CRTC_GEN_CNTL_CUR_EN_MASK);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_null(so.convert);
    r300_rig_free(d);
}

/* a pixel value no two (x, y) of the test surfaces share */
static uint32_t tile_px(uint32_t x, uint32_t y)
{
    return 0x00000000u | (y & 0xFFF) << 12 | (x & 0xFFF);
}

/*
 * Tiled scanout as radeon_crtc_do_set_base programs a macro tiled front
 * buffer (X_Y_MODE_EN | MACRO_TILE_EN, the start in CRTC_TILE_X0_Y0): the
 * CRTC reads the layout r300_tile_offset gives, the one RB3D and TX use.
 */
static void check_tiled_scanout(R300Rig *d, uint32_t bpp, unsigned micro,
                                uint32_t x0, uint32_t y0)
{
    const uint32_t base = 0x100000, pitch = 1024, w = 640, h = 480;
    static uint32_t out[640 * 480];
    R300Tiling t;
    G3DScanout so;
    uint32_t x, y, gen;
    unsigned e = errs();

    g_assert_true(r300_tile_setup(&t, bpp, pitch, true, micro));
    memset(d->vram + base, 0, r300_tile_bytes(&t, 1024));
    for (y = 0; y < 1024; y++) {
        for (x = 0; x < pitch; x++) {
            uint32_t v = tile_px(x, y);
            /* 16 bpp as RGB565 keeps 5:6:5 of it: compare those bits */
            memcpy(d->vram + base + r300_tile_offset(&t, x, y), &v, bpp);
        }
    }
    gen = r300_rig_rd(d, A_CRTC_GEN_CNTL) & ~(0xFu << 8);
    r300_rig_wr(d, A_CRTC_GEN_CNTL, gen | (bpp == 4 ? R300_CRTC_PIX_WIDTH_32BPP
                                          : R300_CRTC_PIX_WIDTH_16BPP) << 8);
    r300_rig_wr(d, A_CRTC_PITCH, pitch / 8);
    r300_rig_wr(d, A_CRTC_OFFSET_CNTL,
                R_CRTC_OFFSET_CNTL_X_Y_MODE_EN_MASK |
                R_CRTC_OFFSET_CNTL_MACRO_TILE_EN_MASK |
                (micro ? R_CRTC_OFFSET_CNTL_MICRO_TILE_EN_MASK : 0));
    r300_rig_wr(d, A_CRTC_TILE_X0_Y0, x0 | y0 << 16);
    r300_rig_wr(d, A_CRTC_OFFSET, base);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_true(g3d_scanout_copy(&so, r300_scanout_mem(d->core), out, w,
                                   "test"));
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            uint32_t v = tile_px(x + x0, y + y0), want;
            if (bpp == 4) {
                want = 0xFF000000u | v;
            } else {
                uint8_t b[2] = { v & 0xFF, (v >> 8) & 0xFF };
                g3d_fmt_row_to_argb(G3D_FMT_RGB565, b, &want, 1);
            }
            if (out[y * w + x] != want) {
                g_error("%u bpp micro %u at (%u, %u): 0x%08x, not 0x%08x",
                        bpp * 8, micro, x, y, out[y * w + x], want);
            }
        }
    }
    g_assert_cmpuint(errs(), ==, e);
}

static void test_tiled_scanout(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    G3DScanout so;
    unsigned e;

    mode_640x480(d);
    check_tiled_scanout(d, 4, R300_MICROTILE_LINEAR, 0, 0);
    /* panned by a start that is not tile aligned */
    check_tiled_scanout(d, 4, R300_MICROTILE_LINEAR, 37, 21);
    check_tiled_scanout(d, 4, R300_MICROTILE_TILED, 3, 5);
    check_tiled_scanout(d, 2, R300_MICROTILE_LINEAR, 130, 9);
    check_tiled_scanout(d, 2, R300_MICROTILE_TILED, 1, 1);

    /* a start that leaves the pitch: logged, nothing shown */
    e = errs();
    r300_rig_wr(d, A_CRTC_TILE_X0_Y0, 1024 - 639);
    g_assert_false(r300_scanout(d->core, 0, &so));
    g_assert_cmpuint(errs(), ==, e + 1);
    /* the tiled picture's last tile row past VRAM: the check refuses it */
    r300_rig_wr(d, A_CRTC_TILE_X0_Y0, 0);
    r300_rig_wr(d, A_CRTC_OFFSET, VRAM_SIZE - 0x800);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_false(g3d_scanout_check(&so, r300_scanout_mem(d->core), "test"));
    g_assert_cmpuint(errs(), ==, e + 2);

    /* X_Y_MODE_EN alone: a linear picture from pixel (x0, y0) */
    r300_rig_wr(d, A_CRTC_OFFSET_CNTL, R_CRTC_OFFSET_CNTL_X_Y_MODE_EN_MASK);
    r300_rig_wr(d, A_CRTC_TILE_X0_Y0, 3 | 2u << 16);
    r300_rig_wr(d, A_CRTC_OFFSET, 0x1000);
    g_assert_true(r300_scanout(d->core, 0, &so));
    g_assert_null(so.fetch);
    g_assert_cmphex(so.addr, ==, 0x1000 + 2 * 2048 + 3 * 2);
    r300_rig_free(d);
}

/* the glue's copy of the surface registers follows every way of writing
 * them: BAR2, byte writes, MM_INDEX/MM_DATA; the tiled range is the union */
static void test_surface_regs(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    R300Surfaces s = { 0 }, core;
    uint64_t lo, hi;

    g_assert_false(r300_surfaces_tiled_range(&s, &lo, &hi));
    g_assert_true(r300_surfaces_write(&s, A_SURFACE0_INFO + 0x20,
                                      R_SURFACE0_INFO_TILE_MACRO_MASK | 64, 4));
    g_assert_false(r300_surfaces_write(&s, A_SURFACE0_INFO + 0x20,
                                       R_SURFACE0_INFO_TILE_MACRO_MASK | 64, 4));
    /* bound 2 by MM_INDEX/MM_DATA, bound 1's top byte by a byte write */
    g_assert_false(r300_surfaces_write(&s, A_MM_INDEX,
                                       A_SURFACE0_UPPER_BOUND + 0x20, 4));
    g_assert_true(r300_surfaces_write(&s, A_MM_DATA, 0x3FFFFF, 4));
    g_assert_true(r300_surfaces_write(&s, A_SURFACE0_LOWER_BOUND + 0x20 + 2,
                                      0x20, 1));
    g_assert_cmphex(s.lower[2], ==, 0x200000);
    g_assert_cmphex(s.upper[2], ==, 0x3FFFFF);
    /* the core stores them the same way */
    r300_rig_wr(d, A_SURFACE0_INFO + 0x20, R_SURFACE0_INFO_TILE_MACRO_MASK | 64);
    r300_rig_wr(d, A_MM_INDEX, A_SURFACE0_UPPER_BOUND + 0x20);
    r300_rig_wr(d, A_MM_DATA, 0x3FFFFF);
    r300_reg_write(d->core, A_SURFACE0_LOWER_BOUND + 0x20 + 2, 0x20, 1);
    r300_surfaces_get(d->core, &core);
    g_assert_cmpint(memcmp(&core, &s, sizeof(s)), ==, 0);

    g_assert_true(r300_surfaces_tiled_range(&s, &lo, &hi));
    g_assert_cmphex(lo, ==, 0x200000);
    g_assert_cmphex(hi, ==, 0x3FFFFF);
    /* an untiled surface adds nothing; a second tiled one widens it */
    r300_surfaces_write(&s, A_SURFACE0_LOWER_BOUND, 0x100000, 4);
    r300_surfaces_write(&s, A_SURFACE0_UPPER_BOUND, 0x1FFFFF, 4);
    r300_surfaces_write(&s, A_SURFACE0_INFO, 64, 4);
    g_assert_true(r300_surfaces_tiled_range(&s, &lo, &hi));
    g_assert_cmphex(lo, ==, 0x200000);
    r300_surfaces_write(&s, A_SURFACE0_INFO,
                        R_SURFACE0_INFO_TILE_MICRO_MASK | 64, 4);
    g_assert_true(r300_surfaces_tiled_range(&s, &lo, &hi));
    g_assert_cmphex(lo, ==, 0x100000);
    g_assert_cmphex(hi, ==, 0x3FFFFF);
    /* outside every surface, and with translation off: unchanged */
    g_assert_cmphex(r300_surface_translate(&s, 0x400000), ==, 0x400000);
    /* row 1 of a 512-byte pitch, macro tiled 256 x 8 bytes: tile 0, row 1 */
    g_assert_cmphex(r300_surface_translate(&s, 0x200000 + 512 + 4), ==,
                    0x200000 + 256 + 4);
    r300_surfaces_write(&s, A_SURFACE_CNTL,
                        R_SURFACE_CNTL_SURF_TRANSLATION_DIS_MASK, 4);
    g_assert_false(r300_surfaces_tiled_range(&s, &lo, &hi));
    g_assert_cmphex(r300_surface_translate(&s, 0x200000 + 512 + 4), ==,
                    0x200000 + 512 + 4);
    /* an empty range (lower above upper) or no pitch: not a surface */
    memset(&s, 0, sizeof(s));
    r300_surfaces_write(&s, A_SURFACE0_INFO, R_SURFACE0_INFO_TILE_MACRO_MASK, 4);
    r300_surfaces_write(&s, A_SURFACE0_UPPER_BOUND, 0xFFFF, 4);
    g_assert_false(r300_surfaces_tiled_range(&s, &lo, &hi));
    r300_surfaces_write(&s, A_SURFACE0_INFO,
                        R_SURFACE0_INFO_TILE_MACRO_MASK | 8, 4);
    r300_surfaces_write(&s, A_SURFACE0_LOWER_BOUND, 0x10000, 4);
    g_assert_false(r300_surfaces_tiled_range(&s, &lo, &hi));
    r300_rig_free(d);
}

/* ---- 2D engine and GUI DMA ------------------------------------------- */

#define GMC_COPY    (R_DP_GUI_MASTER_CNTL_SRC_PITCH_OFFSET_CNTL_MASK | \
                     R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK | \
                     R_DP_GUI_MASTER_CNTL_SRC_CLIPPING_MASK | \
                     R_DP_GUI_MASTER_CNTL_DST_CLIPPING_MASK | \
                     R300_GMC_BRUSH_NONE << 4 | R300_GMC_DST_32BPP << 8 | \
                     3u << 12 | (uint32_t)R300_ROP3_S << 16 | 2u << 24 | \
                     1u << 28 | R_DP_GUI_MASTER_CNTL_WR_MSK_DIS_MASK)

static void fill_bytes(R300Rig *d, uint32_t at, uint32_t n, uint32_t seed)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        d->vram[at + i] = (uint8_t)(i * 7 + seed + (i >> 8));
    }
}

/* r100_copy_blit: pages as rows of 1024 ARGB8888 pixels */
static void test_copy_blit(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    const uint32_t src = 0x100000, dst = 0x200000, pages = 3;
    uint32_t pitch = 4096 / 64, pk[11];
    unsigned e = errs();

    r300_rig_ring_init(d);
    fill_bytes(d, src, pages * 4096, 5);
    pk[0] = R300_PACKET3(R300_PKT3_BITBLT_MULTI, 8);
    pk[1] = GMC_COPY;
    pk[2] = pitch << 22 | src >> 10;
    pk[3] = pitch << 22 | dst >> 10;
    pk[4] = 0x1FFF | 0x1FFF << 16;
    pk[5] = 0;
    pk[6] = 0x1FFF | 0x1FFF << 16;
    pk[7] = 0;
    pk[8] = 0;
    pk[9] = pages | 1024u << 16;
    pk[10] = R300_PACKET0(A_DSTCACHE_CTLSTAT, 0);
    r300_rig_ring_run(d, pk, 10);
    g_assert_cmpint(memcmp(d->vram + src, d->vram + dst, pages * 4096), ==, 0);
    g_assert_cmpuint(d->vram[dst + pages * 4096], ==, 0);
    g_assert_cmpuint(errs(), ==, e);

    /* a blit past the end of VRAM: logged, nothing written beyond */
    pk[3] = pitch << 22 | (VRAM_SIZE - 4096) >> 10;
    r300_rig_ring_run(d, pk, 10);
    g_assert_cmpuint(errs(), >, e);
    g_assert_cmpint(memcmp(d->vram + src, d->vram + VRAM_SIZE - 4096, 4096),
                    ==, 0);
    r300_rig_free(d);
}

/* PAINT_MULTI: a solid RGB565 rectangle, nothing outside it */
static void test_solid_fill(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    const uint32_t dst = 0x300000, pitch = 128;    /* 64 pixels of 2 bytes */
    uint32_t pk[6], x, y;

    r300_rig_ring_init(d);
    pk[0] = R300_PACKET3(R300_PKT3_PAINT_MULTI, 4);
    pk[1] = R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK |
            R300_GMC_BRUSH_SOLID_COLOR << 4 | R300_GMC_DST_16BPP << 8 |
            (uint32_t)R300_ROP3_P << 16 | R_DP_GUI_MASTER_CNTL_WR_MSK_DIS_MASK;
    pk[2] = (pitch / 64) << 22 | dst >> 10;
    pk[3] = 0xF800;                                /* red */
    pk[4] = 3u << 16 | 2;                          /* x 3, y 2 */
    pk[5] = 5u << 16 | 4;                          /* 5 x 4 */
    r300_rig_ring_run(d, pk, 6);
    for (y = 0; y < 8; y++) {
        for (x = 0; x < 10; x++) {
            uint16_t v = d->vram[dst + y * pitch + 2 * x] |
                         d->vram[dst + y * pitch + 2 * x + 1] << 8;
            bool in = x >= 3 && x < 8 && y >= 2 && y < 6;
            g_assert_cmphex(v, ==, in ? 0xF800 : 0);
        }
    }
    r300_rig_free(d);
}

/* registers: an overlapping scroll with SRCCOPY, then S xor D, write mask */
static void test_register_blit(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    const uint32_t surf = 0x400000, pitch = 256;   /* 64 ARGB pixels */
    uint32_t po = (pitch / 64) << 22 | surf >> 10, ref[16 * 64], y;

    fill_bytes(d, surf, sizeof(ref), 9);
    memcpy(ref, d->vram + surf, sizeof(ref));
    r300_rig_wr(d, A_DP_GUI_MASTER_CNTL,
                R_DP_GUI_MASTER_CNTL_SRC_PITCH_OFFSET_CNTL_MASK |
                R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK |
                R300_GMC_BRUSH_NONE << 4 | R300_GMC_DST_32BPP << 8 |
                (uint32_t)R300_ROP3_S << 16 | 2u << 24 |
                R_DP_GUI_MASTER_CNTL_WR_MSK_DIS_MASK);
    r300_rig_wr(d, A_SRC_PITCH_OFFSET, po);
    r300_rig_wr(d, A_DST_PITCH_OFFSET, po);
    /* rows 0..9 down to 3..12: overlapping, as a console scroll */
    r300_rig_wr(d, A_SRC_Y_X, 0);
    r300_rig_wr(d, A_DST_Y_X, 3u << 16);
    r300_rig_wr(d, A_DST_HEIGHT_WIDTH, 10u << 16 | 64);
    for (y = 0; y < 10; y++) {
        g_assert_cmpint(memcmp(d->vram + surf + (y + 3) * pitch,
                               (uint8_t *)ref + y * pitch, pitch), ==, 0);
    }
    /* S xor D (0x66) through a write mask of the low byte */
    memcpy(d->vram + surf, ref, sizeof(ref));
    r300_rig_wr(d, A_DP_WRITE_MASK, 0x000000FF);
    r300_rig_wr(d, A_DP_GUI_MASTER_CNTL,
                R_DP_GUI_MASTER_CNTL_SRC_PITCH_OFFSET_CNTL_MASK |
                R_DP_GUI_MASTER_CNTL_DST_PITCH_OFFSET_CNTL_MASK |
                R300_GMC_BRUSH_NONE << 4 | R300_GMC_DST_32BPP << 8 |
                0x66u << 16 | 2u << 24);
    r300_rig_wr(d, A_SRC_Y_X, 0);
    r300_rig_wr(d, A_DST_Y_X, 8u << 16);
    r300_rig_wr(d, A_DST_HEIGHT_WIDTH, 1u << 16 | 2);
    {
        uint32_t got[2], s0 = ref[0], s1 = ref[1], d0 = ref[8 * 64],
                 d1 = ref[8 * 64 + 1];
        memcpy(got, d->vram + surf + 8 * pitch, 8);
        g_assert_cmphex(got[0], ==, (d0 & ~0xFFu) | ((s0 ^ d0) & 0xFF));
        g_assert_cmphex(got[1], ==, (d1 & ~0xFFu) | ((s1 ^ d1) & 0xFF));
    }
    r300_rig_free(d);
}

/* r200_copy_dma, and a copy running off the end of VRAM */
static void test_gui_dma(void)
{
    R300Rig *d = r300_rig_new(1, VRAM_SIZE, 12);
    uint32_t pk[6];
    unsigned e = errs();

    r300_rig_ring_init(d);
    fill_bytes(d, 0x500000, 3 * 65536 + 4096, 3);
    pk[0] = R300_PACKET0(A_WAIT_UNTIL, 0);
    pk[1] = 1u << 16;
    pk[2] = R300_PACKET0(A_DMA_GUI_SRC_ADDR, 2);
    pk[3] = 0x500000;
    pk[4] = 0x600000;
    pk[5] = (3 * 65536 + 4096) | 1u << 31 | 1u << 30;
    r300_rig_ring_run(d, pk, 6);
    g_assert_cmpint(memcmp(d->vram + 0x500000, d->vram + 0x600000,
                           3 * 65536 + 4096), ==, 0);
    g_assert_cmpuint(errs(), ==, e);
    pk[4] = VRAM_SIZE - 4096;
    pk[5] = 8192;
    r300_rig_ring_run(d, pk, 6);
    g_assert_cmpuint(errs(), ==, e + 1);
    r300_rig_free(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/host/memory-sizes", test_memory_sizes);
    g_test_add_func("/r300/host/pll-clocks", test_pll_clocks);
    g_test_add_func("/r300/host/pll-file", test_pll_file);
    g_test_add_func("/r300/host/mm-index", test_mm_index);
    g_test_add_func("/r300/host/vblank", test_vblank);
    g_test_add_func("/r300/host/page-flip", test_page_flip);
    g_test_add_func("/r300/host/dac-ddc-palette", test_dac_ddc_palette);
    g_test_add_func("/r300/host/cursor", test_cursor);
    g_test_add_func("/r300/host/tiled-scanout", test_tiled_scanout);
    g_test_add_func("/r300/host/surface-regs", test_surface_regs);
    g_test_add_func("/r300/host/copy-blit", test_copy_blit);
    g_test_add_func("/r300/host/solid-fill", test_solid_fill);
    g_test_add_func("/r300/host/register-blit", test_register_blit);
    g_test_add_func("/r300/host/gui-dma", test_gui_dma);
    return g_test_run();
}
