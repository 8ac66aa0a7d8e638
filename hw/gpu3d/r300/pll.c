/*
 * R300 clock generator: the PLL register file reached through
 * CLOCK_CNTL_INDEX (index 5:0, PLL_WR_EN 7, PPLL_DIV_SEL 9:8) and
 * CLOCK_CNTL_DATA. Without a video BIOS Linux's radeon driver reads its
 * clocks from here (drivers/gpu/drm/radeon/radeon_clocks.c,
 * radeon_get_clock_info "Using generic clock info"), so the reset values are
 * those of a board with a 27 MHz reference crystal, and the pixel PLL
 * (radeon_legacy_crtc.c radeon_set_pll) gives the CRTC's pixel clock.
 *
 * Every one of the 64 indices stores what is written; nothing here changes
 * a real clock, the emulation runs at whatever speed the host has.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

/* reference divider 12: the PLLs step in 2.25 MHz */
#define REF_DIV         12u
/* engine 2 * 72 * 27 / 12 = 324 MHz, memory 2 * 69 * 27 / 12 = 310.5 MHz,
 * a 9700 Pro's clocks (radeon_legacy_get_engine/memory_clock) */
#define SPLL_FB_DIV     72u
#define MPLL_FB_DIV     69u

void r300_pll_reset(R300Core *c)
{
    memset(c->pll, 0, sizeof(c->pll));
    c->pll[R300_PLL_M_SPLL_REF_FB_DIV] =
        REF_DIV | MPLL_FB_DIV << 8 | SPLL_FB_DIV << 16;
    /* source select 1: the PLL undivided (2, 3, 4 divide by 2, 4, 8) */
    c->pll[R300_PLL_SCLK_CNTL] = 1;
    c->pll[R300_PLL_MCLK_CNTL] = 1;
    /* R300 keeps the pixel PLLs' reference divider in 27:18 too */
    c->pll[R300_PLL_PPLL_REF_DIV] =
        REF_DIV | REF_DIV << R300_PPLL_REF_DIV_ACC_SHIFT;
    c->pll[R300_PLL_P2PLL_REF_DIV] = REF_DIV;
}

uint32_t r300_pll_read(R300Core *c)
{
    unsigned idx = G3D_FIELD_EX32(R300_REG(c, A_CLOCK_CNTL_INDEX),
                                  CLOCK_CNTL_INDEX, PLL_ADDR);
    return c->pll[idx];
}

void r300_pll_write(R300Core *c, uint32_t val)
{
    uint32_t index = R300_REG(c, A_CLOCK_CNTL_INDEX);
    unsigned idx = G3D_FIELD_EX32(index, CLOCK_CNTL_INDEX, PLL_ADDR);

    if (!(index & R_CLOCK_CNTL_INDEX_PLL_WR_EN_MASK)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: CLOCK_CNTL_DATA write to PLL 0x%02x without "
                  "PLL_WR_EN, ignored", idx);
        return;
    }
    switch (idx) {
    case R300_PLL_PPLL_REF_DIV:
    case R300_PLL_P2PLL_REF_DIV:
        /* the atomic update is taken at once: ATOMIC_UPDATE_R reads 0
         * (radeon_pll_wait_for_read_update_complete polls for it) */
        val &= ~R300_PPLL_ATOMIC_UPDATE;
        break;
    default:
        break;
    }
    c->pll[idx] = val;
}

/* the CRTC's pixel clock in kHz from the selected PPLL_DIV_n, 0 if unset */
uint32_t r300_pll_pixel_khz(R300Core *c)
{
    static const uint8_t post_div[8] = { 1, 2, 4, 8, 3, 16, 6, 12 };
    unsigned sel = G3D_FIELD_EX32(R300_REG(c, A_CLOCK_CNTL_INDEX),
                                  CLOCK_CNTL_INDEX, PPLL_DIV_SEL);
    uint32_t refreg = c->pll[R300_PLL_PPLL_REF_DIV];
    uint32_t div = c->pll[R300_PLL_PPLL_DIV_0 + sel];
    uint32_t ref = (refreg >> R300_PPLL_REF_DIV_ACC_SHIFT) & R300_PPLL_REF_DIV_MASK;
    uint32_t fb = div & R300_PPLL_FB_DIV_MASK;

    if (!ref) {
        ref = refreg & R300_PPLL_REF_DIV_MASK;
    }
    if (!ref || !fb) {
        return 0;
    }
    return (uint32_t)((uint64_t)R300_PLL_REF_FREQ_KHZ * fb /
                      (ref * post_div[(div >> R300_PPLL_POST_DIV_SHIFT) & 7]));
}
