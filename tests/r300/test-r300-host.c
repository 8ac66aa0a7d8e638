/*
 * R300 host-interface blocks a KMS driver meets before any drawing: the
 * memory size registers, the MC idle bit, the PLL register file behind
 * CLOCK_CNTL_INDEX/DATA and the MM_INDEX/MM_DATA window. The expected values
 * are what Linux's radeon driver computes from them (radeon_clocks.c,
 * r100.c r100_vram_init_sizes, r300.c r300_mc_init).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>

#include "r300-rig.h"

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

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/host/memory-sizes", test_memory_sizes);
    g_test_add_func("/r300/host/pll-clocks", test_pll_clocks);
    g_test_add_func("/r300/host/pll-file", test_pll_file);
    g_test_add_func("/r300/host/mm-index", test_mm_index);
    return g_test_run();
}
