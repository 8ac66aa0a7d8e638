/*
 * qtests of r300-3d through its PCI BARs: identity and BARs, reset values
 * and read-only bits of registers from every block, the CP consuming a ring
 * (scratch and rptr write-back, software interrupt in PCI status), a Gouraud
 * triangle drawn through the ring and checked by screendump pixels (also 4x
 * multisampled and resolved), and bad input followed by recovery.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqtest.h"
#include <math.h>
#include "gpu3d-qtest-util.h"
#include "gpu3d/r300-regs.h"
#include "gpu3d/r300-cmd.h"

#define VRAM    R300_VRAM_BAR
#define MMIO    R300_MMIO_BAR
#define RING_ADDR   0x00000000u
#define RING_BUFSZ  12              /* 32 KiB */
#define WB_ADDR     0x00010000u
#define CB_ADDR     0x00100000u
#define W 320
#define H 240

static G3DQDev *open_r300(void)
{
    return g3dq_open("-device r300-3d,id=gpu,render-threads=2",
                     R300_PCI_VENDOR_ID, R300_PCI_DEVICE_ID);
}

static uint32_t rd(G3DQDev *d, uint32_t reg)
{
    return g3dq_rd32(d, MMIO, reg);
}

static void wr(G3DQDev *d, uint32_t reg, uint32_t v)
{
    g3dq_wr32(d, MMIO, reg, v);
}

/* the ring at GPU address `base` (VRAM or the GART) */
static void ring_init_at(G3DQDev *d, uint32_t base)
{
    uint32_t seq[R300_RING_START_WRITES][2];
    unsigned i;

    r300_ring_start(seq, base, RING_BUFSZ, WB_ADDR);
    for (i = 0; i < R300_RING_START_WRITES; i++) {
        wr(d, seq[i][0], seq[i][1]);
    }
}

static void ring_init(G3DQDev *d)
{
    ring_init_at(d, RING_ADDR);
}

static bool ring_drained(G3DQDev *d, void *opaque)
{
    return rd(d, A_CP_RB_RPTR) == rd(d, A_CP_RB_WPTR);
}

/* copy into the ring at WPTR, advance WPTR, wait for the CP */
static void ring_submit(G3DQDev *d, const uint32_t *dw, uint32_t n)
{
    uint32_t size = 2u << RING_BUFSZ, wptr = rd(d, A_CP_RB_WPTR), i;

    for (i = 0; i < n; i++) {
        g3dq_write(d, VRAM, RING_ADDR + 4 * ((wptr + i) & (size - 1)),
                   &dw[i], 4);
    }
    wr(d, A_CP_RB_WPTR, (wptr + n) & (size - 1));
    g_assert_true(g3dq_wait(d, ring_drained, NULL));
}

static void crtc_show(G3DQDev *d, uint32_t offset)
{
    wr(d, A_CRTC_H_TOTAL_DISP, (W / 8 - 1) << 16);
    wr(d, A_CRTC_V_TOTAL_DISP, (H - 1) << 16);
    wr(d, A_CRTC_PITCH, W / 8);
    wr(d, A_CRTC_OFFSET, offset);
    wr(d, A_CRTC_GEN_CNTL, R300_CRTC_PIX_WIDTH_32BPP << 8 |
                            R_CRTC_GEN_CNTL_EXT_DISP_EN_MASK |
                            R_CRTC_GEN_CNTL_EN_MASK);
}

/* ---- identity, BARs, registers ---------------------------------------- */

static void test_identity(void)
{
    G3DQDev *d = open_r300();

    g_assert_cmphex(qpci_config_readw(d->dev, PCI_VENDOR_ID), ==, 0x1002);
    g_assert_cmphex(qpci_config_readw(d->dev, PCI_DEVICE_ID), ==, 0x4E44);
    /* a VGA-compatible display controller, as the real card */
    g_assert_cmphex(qpci_config_readw(d->dev, PCI_CLASS_DEVICE), ==, 0x0300);
    g_assert_cmpuint(d->bar_size[VRAM], ==, R300_VRAM_SIZE_DEFAULT);
    g_assert_cmpuint(d->bar_size[MMIO], ==, R300_MMIO_SIZE);
    g_assert_cmpuint(d->bar_size[R300_IO_BAR], ==, R300_IO_SIZE);
    g_assert_false(qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0) &
                   PCI_BASE_ADDRESS_MEM_TYPE_64);
    g_assert_true(qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0) &
                  PCI_BASE_ADDRESS_MEM_PREFETCH);
    g_assert_true(qpci_config_readl(d->dev, PCI_BASE_ADDRESS_0 +
                                    4 * R300_IO_BAR) &
                  PCI_BASE_ADDRESS_SPACE_IO);
    /* the I/O BAR: the low registers directly, the rest via MM_INDEX */
    g_assert_cmphex(g3dq_rd32(d, R300_IO_BAR, A_CONFIG_MEMSIZE), ==,
                    R300_VRAM_SIZE_DEFAULT);
    g3dq_wr32(d, R300_IO_BAR, A_MM_INDEX, A_SCRATCH_REG0);
    g3dq_wr32(d, R300_IO_BAR, A_MM_DATA, 0x5CA7C400);
    g_assert_cmphex(rd(d, A_SCRATCH_REG0), ==, 0x5CA7C400);
    g3dq_wr32(d, R300_IO_BAR, A_MM_INDEX, A_CONFIG_APER_SIZE);
    g_assert_cmphex(g3dq_rd32(d, R300_IO_BAR, A_MM_DATA), ==,
                    R300_VRAM_SIZE_DEFAULT);
    g3dq_close(d);
}

static void test_registers(void)
{
    /* reset values from the reference's Default column, one or more per block */
    static const struct { uint32_t reg, reset; } resets[] = {
        { A_VAP_CNTL, 0x00240000 },             /* VAP: VF_MAX_VTX_NUM 9 */
        { A_VAP_VF_CNTL, 0 },
        { A_GB_TILE_CONFIG, 0x00000011 },       /* GB: ENABLE, 16px tiles */
        { A_GA_COLOR_CONTROL, 0 },              /* GA */
        { A_SU_CULL_MODE, 0 },                  /* SU */
        { A_RS_COUNT, 0 },                      /* RS */
        { A_SC_EDGERULE, 0 },                   /* SC */
        { A_TX_ENABLE, 0 },                     /* TX */
        { A_US_CONFIG, 0 },                     /* US */
        { A_FG_ALPHA_FUNC, 0 },                 /* FG */
        { A_RB3D_BLENDCNTL, 0x00000004 },       /* CB: READ_ENABLE */
        { A_RB3D_COLOR_CHANNEL_MASK, 0xF },
        { A_RB3D_COLORPITCH_0, 0x00C00000 },    /* COLORFORMAT 6 */
        { A_ZB_CNTL, 0 },                       /* ZB */
        { A_CONFIG_MEMSIZE, R300_VRAM_SIZE_DEFAULT },
        { A_MC_FB_LOCATION, ((R300_VRAM_SIZE_DEFAULT - 1) >> 16) << 16 },
    };
    G3DQDev *d = open_r300();
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(resets); i++) {
        g_assert_cmphex(rd(d, resets[i].reg), ==, resets[i].reset);
    }
    /* read-only: busy bits of VAP_CNTL_STATUS, CONFIG_MEMSIZE, CP_RB_RPTR */
    wr(d, A_VAP_CNTL_STATUS, 0xFFFFFFFF);
    g_assert_cmphex(rd(d, A_VAP_CNTL_STATUS), ==, 0x103);
    wr(d, A_CONFIG_MEMSIZE, 1);
    g_assert_cmphex(rd(d, A_CONFIG_MEMSIZE), ==, R300_VRAM_SIZE_DEFAULT);
    wr(d, A_CP_RB_RPTR, 5);
    g_assert_cmphex(rd(d, A_CP_RB_RPTR), ==, 0);
    /* reserved bits read back as zero; documented bits store */
    wr(d, A_SU_CULL_MODE, 0xFFFFFFFF);
    g_assert_cmphex(rd(d, A_SU_CULL_MODE), ==, 7);
    wr(d, A_ZB_STENCILREFMASK, 0xFFFFFFFF);
    g_assert_cmphex(rd(d, A_ZB_STENCILREFMASK), ==, 0x00FFFFFF);
    /* byte access outside VAP merges */
    qpci_io_writeb(d->dev, d->bar[MMIO], A_RB3D_CONSTANT_COLOR + 2, 0x5A);
    g_assert_cmphex(rd(d, A_RB3D_CONSTANT_COLOR), ==, 0x005A0000);
    /* the viewport alias pair */
    wr(d, R300_VAP_VPORT_YOFFSET_ALIAS, 0x40000000);
    g_assert_cmphex(rd(d, A_VAP_VPORT_YOFFSET), ==, 0x40000000);
    /* RBBM: idle, FIFO room */
    g_assert_cmphex(rd(d, A_RBBM_STATUS), ==, 64);
    g3dq_close(d);
}

/* ---- the CP ------------------------------------------------------------ */

static bool intx_on(G3DQDev *d, void *opaque)
{
    return g3dq_intx(d);
}

static void test_cp_ring(void)
{
    G3DQDev *d = open_r300();
    uint32_t cmd[8], v;

    ring_init(d);
    wr(d, A_SCRATCH_ADDR, WB_ADDR + 0x100);
    wr(d, A_SCRATCH_UMSK, 1u << 3);
    wr(d, A_GEN_INT_CNTL, R_GEN_INT_CNTL_SW_INT_ENABLE_MASK);
    g_assert_false(g3dq_intx(d));
    cmd[0] = R300_PACKET0(R300_SCRATCH_REG(3), 0);
    cmd[1] = 0xFEED0003;
    cmd[2] = R300_PACKET2;
    cmd[3] = R300_PACKET0(A_GEN_INT_STATUS, 0);
    cmd[4] = R_GEN_INT_STATUS_SW_INT_FIRE_MASK;
    ring_submit(d, cmd, 5);
    /* scratch 3 and the read pointer written back to VRAM */
    g3dq_read(d, VRAM, WB_ADDR + 0x10C, &v, 4);
    g_assert_cmphex(v, ==, 0xFEED0003);
    g3dq_read(d, VRAM, WB_ADDR, &v, 4);
    g_assert_cmpuint(v, ==, 5);
    /* the software interrupt, seen in PCI status, acknowledged */
    g_assert_true(g3dq_wait(d, intx_on, NULL));
    g_assert_true(rd(d, A_GEN_INT_STATUS) & R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    wr(d, A_GEN_INT_STATUS, R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    rd(d, A_GEN_INT_STATUS);
    qtest_clock_step(d->qts, 1000000);
    g_assert_false(g3dq_intx(d));
    g3dq_close(d);
}

/* ---- a triangle on the screen ----------------------------------------- */

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                    0, 0, 0, 1 };

/*
 * Two triangles sharing the diagonal of a square whose corners lie on pixel
 * centres (window 40.5..200.5 x 30.5..190.5), Gouraud red -> green along x,
 * blended ONE + ONE onto black so a pixel drawn twice would show.
 */
#define MS_ADDR     0x00400000u     /* a 4x multisampled colour buffer */

/* Mesa's 4x sample positions in 1/12 pixel (r300_emit.c sample_locs_4x) */
static const uint8_t ms4[6][2] = { { 4, 4 }, { 8, 8 }, { 2, 10 }, { 10, 2 },
                                   { 10, 2 }, { 10, 2 } };

static uint32_t mspos(int first)
{
    uint32_t v = 0;
    int k;

    for (k = 0; k < 3; k++) {
        v |= (uint32_t)(ms4[first + k][0] | ms4[first + k][1] << 4) << (8 * k);
    }
    return v;
}

/*
 * With `msaa`: drawn 4x multisampled into MS_ADDR, then resolved into
 * CB_ADDR (RB3D_AARESOLVE_*) by a rectangle drawn in resolve mode.
 */
static void draw_scene(G3DQDev *d, bool msaa, uint32_t tiling)
{
    static uint32_t buf[8192];
    R300Cmd c = { buf, 0, G_N_ELEMENTS(buf), 0 };
    R300Surface cb = { msaa ? MS_ADDR : CB_ADDR, W,
                       R300_COLOR_FORMAT_ARGB8888, tiling };
    float x0 = 40.5f / (W / 2) - 1, x1 = 200.5f / (W / 2) - 1;
    float y0 = 1 - 30.5f / (H / 2), y1 = 1 - 190.5f / (H / 2);
    const float tris[6 * 8] = {
        x0, y1, 0, 1, 1, 0, 0, 1,   x1, y1, 0, 1, 0, 1, 0, 1,
        x1, y0, 0, 1, 0, 1, 0, 1,   x0, y1, 0, 1, 1, 0, 0, 1,
        x1, y0, 0, 1, 0, 1, 0, 1,   x0, y0, 0, 1, 1, 0, 0, 1,
    };

    r300_cmd_pipeline(&c, &cb, NULL, W, H);
    r300_cmd_matrix(&c, identity);
    if (msaa) {
        r300_cmd_reg(&c, A_GB_AA_CONFIG, R_GB_AA_CONFIG_AA_ENABLE_MASK |
                     2u << R_GB_AA_CONFIG_NUM_AA_SUBSAMPLES_SHIFT);
        r300_cmd_reg(&c, A_GB_MSPOS0, mspos(0));
        r300_cmd_reg(&c, A_GB_MSPOS1, mspos(3));
    }
    r300_cmd_reg(&c, A_RB3D_BLENDCNTL,
                 R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                 R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    r300_cmd_draw(&c, R300_PRIM_TRIANGLES, tris, 6);
    if (msaa) {
        const float screen[3 * 8] = {
            -1, -1, 0, 1, 0, 0, 0, 0,   3, -1, 0, 1, 0, 0, 0, 0,
            -1, 3, 0, 1, 0, 0, 0, 0,
        };
        r300_cmd_reg(&c, A_RB3D_AARESOLVE_OFFSET, CB_ADDR);
        r300_cmd_reg(&c, A_RB3D_AARESOLVE_PITCH, W);
        r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, 1);
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, screen, 3);
        r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, 0);
        r300_cmd_reg(&c, A_GB_AA_CONFIG, 0);
    }
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    ring_submit(d, buf, c.n);
}

/*
 * Multisampled, the left and top sides cover the samples beyond the pixel
 * centre (2 of Mesa's 4): half of red there; the right and bottom sides'
 * pixels (x 200, y 190) the other half.
 */
static void check_scene(G3DQDev *d, bool msaa)
{
    G3DQImage img;
    int x, y;

    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    g_assert_cmpint(img.width, ==, W);
    g_assert_cmpint(img.height, ==, H);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            const uint8_t *p = g3dq_px(&img, x, y);
            /* top-left rule: left/top sides in, right/bottom out */
            bool in = x >= 40 && x < 200 && y >= 30 && y < 190;
            if (msaa && (x == 40 || y == 30 || x == 200 || y == 190) &&
                x >= 40 && x <= 200 && y >= 30 && y <= 190) {
                continue;       /* partly covered: checked below */
            }
            if (!in) {
                g_assert_cmpuint(p[0] | p[1] | p[2], ==, 0);
                continue;
            }
            /* Gouraud across x: red = 1 - t, green = t, t = (x-40)/160,
             * the same on both triangles; +-1 for rounding */
            {
                /* multisampled: the mean of 4 rounded samples, +-2 */
                int tol = msaa ? 2 : 1;
                double t = (x - 40) / 160.0;
                g_assert_cmpint(abs(p[0] - (int)floor((1 - t) * 255 + 0.5)), <=, tol);
                g_assert_cmpint(abs(p[1] - (int)floor(t * 255 + 0.5)), <=, tol);
                g_assert_cmpuint(p[2], ==, 0);
            }
        }
    }
    /* on the shared diagonal (x - 40 == 190 - y, e.g. (120, 110)):
     * once, not twice */
    g_assert_cmpint(abs(g3dq_px(&img, 120, 110)[0] - 128), <=, msaa ? 2 : 1);
    if (msaa) {
        /* left side, red ~1: two of four samples; top side (y 30) the
         * same; the top-left corner pixel: one sample (8/12, 8/12) */
        for (y = 60; y < 180; y += 20) {
            g_assert_cmpint(abs(g3dq_px(&img, 40, y)[0] - 127), <=, 2);
            g_assert_cmpint(abs(g3dq_px(&img, 200, y)[1] - 127), <=, 2);
        }
        g_assert_cmpint(abs(g3dq_px(&img, 40, 30)[0] - 64), <=, 2);
    }
    g3dq_image_free(&img);
}

static void test_triangle(void)
{
    G3DQDev *d = open_r300();

    ring_init(d);
    crtc_show(d, CB_ADDR);
    draw_scene(d, false, 0);
    check_scene(d, false);
    g3dq_close(d);
}

/*
 * Tiled surfaces as a guest sees them. The scene drawn into a macro tiled
 * colour buffer and scanned out tiled (X_Y_MODE_EN | MACRO_TILE_EN, as
 * Linux's radeon_crtc_do_set_base shows a RADEON_TILING_MACRO front
 * buffer) looks as drawn linear; through a surface register programmed as
 * r100_set_surface_reg does, the CPU reads the linear picture from BAR0,
 * and what it writes there the CRTC shows.
 */
static void test_tiled_surfaces(void)
{
    static uint32_t lin[W * H], buf[W * H];
    G3DQDev *d = open_r300();
    G3DQImage img;
    int x, y;

    ring_init(d);
    crtc_show(d, CB_ADDR);
    draw_scene(d, false, 0);
    g3dq_read(d, VRAM, CB_ADDR, lin, sizeof(lin));

    memset(buf, 0, sizeof(buf));
    g3dq_write(d, VRAM, CB_ADDR, buf, sizeof(buf));
    draw_scene(d, false, R_RB3D_COLORPITCH_0_COLORTILE_MASK);
    g3dq_read(d, VRAM, CB_ADDR, buf, sizeof(buf));
    g_assert_cmpint(memcmp(buf, lin, sizeof(lin)), !=, 0);
    wr(d, A_CRTC_TILE_X0_Y0, 0);
    wr(d, A_CRTC_OFFSET_CNTL, R_CRTC_OFFSET_CNTL_X_Y_MODE_EN_MASK |
                              R_CRTC_OFFSET_CNTL_MACRO_TILE_EN_MASK);
    check_scene(d, false);

    wr(d, A_SURFACE0_INFO, R_SURFACE0_INFO_TILE_MACRO_MASK | W * 4 / 8);
    wr(d, A_SURFACE0_LOWER_BOUND, CB_ADDR);
    wr(d, A_SURFACE0_UPPER_BOUND, CB_ADDR + sizeof(lin) - 1);
    g3dq_read(d, VRAM, CB_ADDR, buf, sizeof(buf));
    g_assert_cmpint(memcmp(buf, lin, sizeof(lin)), ==, 0);

    /* the scene mirrored left to right, written linear by the CPU */
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            buf[y * W + x] = lin[y * W + (W - 1 - x)];
        }
    }
    g3dq_write(d, VRAM, CB_ADDR, buf, sizeof(buf));
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            const uint8_t *p = g3dq_px(&img, x, y);
            uint32_t v = buf[y * W + x];
            g_assert_cmphex(p[0] << 16 | p[1] << 8 | p[2], ==, v & 0xFFFFFF);
        }
    }
    g3dq_image_free(&img);

    /* the surface gone, the CPU sees the tiled bytes */
    wr(d, A_SURFACE0_INFO, 0);
    g3dq_read(d, VRAM, CB_ADDR, lin, sizeof(lin));
    g_assert_cmpint(memcmp(buf, lin, sizeof(lin)), !=, 0);
    /* a surface that reaches past VRAM: logged, the guest runs on */
    wr(d, A_SURFACE0_LOWER_BOUND, d->bar_size[VRAM] - 4096);
    wr(d, A_SURFACE0_UPPER_BOUND, 0xFFFFFFFF);
    wr(d, A_SURFACE0_INFO, R_SURFACE0_INFO_TILE_MACRO_MASK | 4096 / 8);
    g3dq_write(d, VRAM, d->bar_size[VRAM] - 2048, buf, 2048);
    g3dq_read(d, VRAM, d->bar_size[VRAM] - 2048, buf, 2048);
    g_assert_true(g3dq_logged(d, "past VRAM"));
    g_assert_cmphex(rd(d, A_CONFIG_MEMSIZE), ==, d->bar_size[VRAM]);
    g3dq_close(d);
}

/* The same scene 4x multisampled and resolved into the scanned-out buffer. */
static void test_msaa(void)
{
    G3DQDev *d = open_r300();

    ring_init(d);
    crtc_show(d, CB_ADDR);
    draw_scene(d, true, 0);
    check_scene(d, true);
    g3dq_close(d);
}

/* ---- bad input, then recovery ------------------------------------------ */

static void test_bad_input(void)
{
    G3DQDev *d = open_r300();
    G3DQImage img;
    uint32_t cmd[4];
    int i;

    /* a ring size out of range: the CP refuses it, nothing hangs */
    ring_init(d);
    wr(d, A_CP_RB_CNTL, 40);
    wr(d, A_CP_RB_WPTR, 4);
    g_assert_cmphex(rd(d, A_CONFIG_MEMSIZE), ==, R300_VRAM_SIZE_DEFAULT);

    /* a packet with a huge count: dropped */
    ring_init(d);
    cmd[0] = R300_PACKET3(R300_PKT3_NOP, 0x3FFF);
    cmd[1] = cmd[2] = cmd[3] = 0;
    ring_submit(d, cmd, 4);

    /* a draw with no vertex program (nothing uploaded): skipped */
    wr(d, A_VAP_PVS_CODE_CNTL_0, 3u << 20);
    cmd[0] = R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0);
    cmd[1] = R300_PRIM_TRIANGLES | 2u << 4 | 3u << 16;
    ring_submit(d, cmd, 2);

    /* a CRTC pitch past VRAM: the screen is blank, QEMU keeps running */
    crtc_show(d, R300_VRAM_SIZE_DEFAULT - 4096);
    g_assert_true(g3dq_screendump(d, "gpu", 0, &img));
    for (i = 0; i < img.width * img.height * 3; i++) {
        g_assert_cmpuint(img.rgb[i], ==, 0);
    }
    g3dq_image_free(&img);

    /* a ring that jumps into itself: an indirect buffer that is the ring */
    cmd[0] = R300_PACKET0(A_CP_IB_BASE, 1);
    cmd[1] = RING_ADDR;
    cmd[2] = 0x7FFFFF;
    ring_submit(d, cmd, 3);

    /* after a reset the device works */
    g3dq_system_reset(d);
    ring_init(d);
    crtc_show(d, CB_ADDR);
    draw_scene(d, false, 0);
    check_scene(d, false);
    g3dq_close(d);
}

/* ---- the kernel's GPU reset ------------------------------------------ */

/*
 * The ring in system memory behind the PCI GART, as radeon puts it: GPU
 * addresses GART_BASE.. map page by page to guest RAM at SYS_RING.., the
 * page table at SYS_PT (drivers/gpu/drm/radeon/r100.c r100_pci_gart_enable)
 */
#define GART_BASE   0xD8000000u
#define SYS_PT      0x00800000u
#define SYS_RING    0x00900000u
#define GART_PAGES  16

static void gart_init(G3DQDev *d)
{
    uint32_t i, e;

    for (i = 0; i < GART_PAGES; i++) {
        e = SYS_RING + i * R300_GART_PAGE_SIZE;
        qtest_memwrite(d->qts, SYS_PT + 4 * i, &e, 4);
    }
    wr(d, A_AIC_PT_BASE, SYS_PT);
    wr(d, A_AIC_LO_ADDR, GART_BASE);
    wr(d, A_AIC_HI_ADDR, GART_BASE + GART_PAGES * R300_GART_PAGE_SIZE - 1);
    wr(d, A_AIC_CNTL, R_AIC_CNTL_PCIGART_TRANSLATE_EN_MASK);
}

/* radeon's ring test (r100_ring_test): a scratch register through the ring */
static bool gart_ring_test(G3DQDev *d, uint32_t magic)
{
    uint32_t size = 2u << RING_BUFSZ, wptr = rd(d, A_CP_RB_WPTR), i;
    const uint32_t cmd[2] = { R300_PACKET0(R300_SCRATCH_REG(2), 0), magic };

    for (i = 0; i < 2; i++) {
        qtest_memwrite(d->qts, SYS_RING + 4 * ((wptr + i) & (size - 1)),
                       &cmd[i], 4);
    }
    wr(d, A_CP_RB_WPTR, (wptr + 2) & (size - 1));
    for (i = 0; i < 100 && rd(d, R300_SCRATCH_REG(2)) != magic; i++) {
        qtest_clock_step(d->qts, 1000000);
    }
    return rd(d, R300_SCRATCH_REG(2)) == magic;
}

#define RADEON_BUS_CNTL         0x0030      /* Linux radeon_reg.h */
#define RADEON_BUS_MASTER_DIS   (1u << 6)

/*
 * drivers/gpu/drm/radeon/r300.c r300_asic_reset and r100.c r100_bm_disable /
 * r100_enable_bm, register for register, with the PCI command register
 * saved, bus mastering cleared and the saved value restored as
 * pci_save_state / pci_clear_master / pci_restore_state do; then
 * r100_cp_init's ring start and its ring test.
 */
static void test_gpu_reset(void)
{
    G3DQDev *d = open_r300();
    uint16_t cmd;
    uint32_t tmp;

    gart_init(d);
    ring_init_at(d, GART_BASE);
    g_assert_true(gart_ring_test(d, 0xCAFE0001));

    /* a lockup as the kernel sees one: work queued that the CP cannot
     * fetch while bus mastering is off */
    cmd = qpci_config_readw(d->dev, PCI_COMMAND);
    g_assert_true(cmd & PCI_COMMAND_MASTER);
    qpci_config_writew(d->dev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
    g_assert_false(gart_ring_test(d, 0xCAFE0002));
    g_assert_true(g3dq_logged(d, "outside memory"));
    qpci_config_writew(d->dev, PCI_COMMAND, cmd);

    /* stop CP */
    wr(d, A_CP_CSQ_CNTL, 0);
    tmp = rd(d, A_CP_RB_CNTL);
    wr(d, A_CP_RB_CNTL, tmp | R_CP_RB_CNTL_RB_RPTR_WR_ENA_MASK);
    wr(d, A_CP_RB_RPTR_WR, 0);
    wr(d, A_CP_RB_WPTR, 0);
    wr(d, A_CP_RB_CNTL, tmp);
    /* pci_save_state; r100_bm_disable */
    cmd = qpci_config_readw(d->dev, PCI_COMMAND);
    tmp = rd(d, RADEON_BUS_CNTL);
    wr(d, RADEON_BUS_CNTL, tmp | 0x44);
    wr(d, RADEON_BUS_CNTL, tmp | 0x42);
    wr(d, RADEON_BUS_CNTL, tmp | 0x40);
    rd(d, RADEON_BUS_CNTL);
    qpci_config_writew(d->dev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
    /* VAP and GA, then CP */
    wr(d, A_RBBM_SOFT_RESET, 1u << 2 | 1u << 13);
    rd(d, A_RBBM_SOFT_RESET);
    wr(d, A_RBBM_SOFT_RESET, 0);
    wr(d, A_RBBM_SOFT_RESET, R_RBBM_SOFT_RESET_CP_MASK);
    rd(d, A_RBBM_SOFT_RESET);
    wr(d, A_RBBM_SOFT_RESET, 0);
    /* the kernel's "GPU reset succeed": GA and VAP idle */
    g_assert_false(rd(d, A_RBBM_STATUS) & R_RBBM_STATUS_GUI_ACTIVE_MASK);
    /* pci_restore_state; r100_enable_bm */
    qpci_config_writew(d->dev, PCI_COMMAND, cmd);
    wr(d, RADEON_BUS_CNTL, rd(d, RADEON_BUS_CNTL) & ~RADEON_BUS_MASTER_DIS);
    g_assert_true(qpci_config_readw(d->dev, PCI_COMMAND) & PCI_COMMAND_MASTER);

    /* radeon_resume: the GART and the ring started again, the ring test */
    gart_init(d);
    ring_init_at(d, GART_BASE);
    g_assert_true(gart_ring_test(d, 0xCAFE0003));
    g3dq_close(d);
}

/* VM stop with work queued, registers still readable, work done on cont */
static void test_stop_cont(void)
{
    G3DQDev *d = open_r300();
    uint32_t cmd[2] = { R300_PACKET0(R300_SCRATCH_REG(5), 0), 0xAB };

    ring_init(d);
    qtest_qmp_assert_success(d->qts, "{'execute': 'stop'}");
    g3dq_write(d, VRAM, RING_ADDR, cmd, sizeof(cmd));
    wr(d, A_CP_RB_WPTR, 2);
    /* the write is applied for the read; the stopped worker runs nothing */
    g_assert_cmpuint(rd(d, A_CP_RB_WPTR), ==, 2);
    g_assert_cmpuint(rd(d, A_CP_RB_RPTR), ==, 0);
    qtest_qmp_assert_success(d->qts, "{'execute': 'cont'}");
    g_assert_true(g3dq_wait(d, ring_drained, NULL));
    g_assert_cmphex(rd(d, R300_SCRATCH_REG(5)), ==, 0xAB);
    g3dq_close(d);
}

/* Hot-plug and unplug while the worker is busy: threads join, QEMU lives. */
static void test_hotplug(void)
{
    QTestState *qts = qtest_init("-machine pc");
    int i;

    for (i = 0; i < 3; i++) {
        qtest_qmp_device_add(qts, "r300-3d", "hp", "{'addr': '0x06', "
                             "'render-threads': 3}");
        qpci_unplug_acpi_device_test(qts, "hp", 0x06);
    }
    qtest_quit(qts);
}

/* ---- DDC: the monitor's EDID over bit-banged I2C on GPIO_VGA_DDC ------ */

/* drive SCL/SDA as radeon_i2c.c does: EN pulls low, released floats high */
static void ddc_set(G3DQDev *d, bool scl, bool sda)
{
    wr(d, A_GPIO_VGA_DDC, (scl ? 0 : R300_GPIO_EN_1) | (sda ? 0 : R300_GPIO_EN_0));
}

static bool ddc_sda(G3DQDev *d)
{
    return rd(d, A_GPIO_VGA_DDC) & R300_GPIO_Y_0;
}

static void ddc_start(G3DQDev *d)
{
    ddc_set(d, true, true);
    ddc_set(d, true, false);
    ddc_set(d, false, false);
}

static void ddc_stop(G3DQDev *d)
{
    ddc_set(d, false, false);
    ddc_set(d, true, false);
    ddc_set(d, true, true);
}

/* one byte out; true when the device acknowledged it */
static bool ddc_put(G3DQDev *d, uint8_t b)
{
    bool ack;
    int i;

    for (i = 7; i >= 0; i--) {
        bool bit = (b >> i) & 1;
        ddc_set(d, false, bit);
        ddc_set(d, true, bit);
        ddc_set(d, false, bit);
    }
    ddc_set(d, false, true);
    ddc_set(d, true, true);
    ack = !ddc_sda(d);
    ddc_set(d, false, true);
    return ack;
}

static uint8_t ddc_get(G3DQDev *d, bool ack)
{
    uint8_t b = 0;
    int i;

    for (i = 0; i < 8; i++) {
        ddc_set(d, false, true);
        ddc_set(d, true, true);
        b = b << 1 | ddc_sda(d);
        ddc_set(d, false, true);
    }
    ddc_set(d, false, !ack);
    ddc_set(d, true, !ack);
    ddc_set(d, false, !ack);
    return b;
}

/* EDID bytes from `off`, as drm_do_probe_ddc_edid reads them */
static bool ddc_read_edid(G3DQDev *d, uint8_t off, uint8_t *buf, int n)
{
    int i;

    ddc_start(d);
    if (!ddc_put(d, 0x50 << 1) || !ddc_put(d, off)) {
        ddc_stop(d);
        return false;
    }
    ddc_start(d);
    if (!ddc_put(d, 0x50 << 1 | 1)) {
        ddc_stop(d);
        return false;
    }
    for (i = 0; i < n; i++) {
        buf[i] = ddc_get(d, i < n - 1);
    }
    ddc_stop(d);
    return true;
}

static void test_ddc(void)
{
    static const uint8_t header[8] = { 0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0 };
    G3DQDev *d = open_r300();
    uint8_t edid[128], sum = 0;
    GRand *r = g_rand_new_with_seed(9);
    int i;

    g_assert_true(ddc_read_edid(d, 0, edid, sizeof(edid)));
    g_assert_cmpmem(edid, 8, header, 8);
    for (i = 0; i < 128; i++) {
        sum += edid[i];
    }
    g_assert_cmpuint(sum, ==, 0);               /* EDID checksum */
    /* the preferred mode (first detailed timing): 1024 x 768 */
    g_assert_cmpuint(edid[54 + 2] | (edid[54 + 4] & 0xF0) << 4, ==, 1024);
    g_assert_cmpuint(edid[54 + 5] | (edid[54 + 7] & 0xF0) << 4, ==, 768);
    /* nothing on the DVI-I connector's pins: no acknowledge */
    wr(d, A_GPIO_DVI_DDC, R300_GPIO_EN_0);
    g_assert_false(rd(d, A_GPIO_DVI_DDC) & R300_GPIO_Y_0);
    wr(d, A_GPIO_DVI_DDC, 0);
    g_assert_true(rd(d, A_GPIO_DVI_DDC) & R300_GPIO_Y_0);

    /* garbage on the pins, then a clean read works again */
    for (i = 0; i < 2000; i++) {
        wr(d, A_GPIO_VGA_DDC, g_rand_int(r));
    }
    ddc_stop(d);
    memset(edid, 0, sizeof(edid));
    g_assert_true(ddc_read_edid(d, 0, edid, 8));
    g_assert_cmpmem(edid, 8, header, 8);
    g_rand_free(r);
    g3dq_close(d);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/r300/identity", test_identity);
    qtest_add_func("/r300/registers", test_registers);
    qtest_add_func("/r300/cp-ring", test_cp_ring);
    qtest_add_func("/r300/triangle", test_triangle);
    qtest_add_func("/r300/msaa", test_msaa);
    qtest_add_func("/r300/tiled-surfaces", test_tiled_surfaces);
    qtest_add_func("/r300/bad-input", test_bad_input);
    qtest_add_func("/r300/gpu-reset", test_gpu_reset);
    qtest_add_func("/r300/stop-cont", test_stop_cont);
    qtest_add_func("/r300/hotplug", test_hotplug);
    qtest_add_func("/r300/ddc", test_ddc);
    return g_test_run();
}
