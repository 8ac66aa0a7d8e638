/*
 * R300 core through its command processor: rings of PM4 packets built as a
 * driver builds them (guest/lib/r300-cmd.h), checked against pixel values
 * computed here from the documented transform and plane equations.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "r300-rig.h"

#define VRAM_SIZE   (8u << 20)
#define RING_BUFSZ  13              /* 8 << 13 = 64 KiB ring at 0 */
#define WB_ADDR     0x00010000u     /* rptr and scratch write-back */
#define IB_ADDR     0x00020000u
#define CB_ADDR     0x00100000u
#define ZB_ADDR     0x00300000u
#define W 96
#define H 64

typedef R300Rig Dev;

static Dev *dev_new(int threads)
{
    Dev *d = r300_rig_new(threads, VRAM_SIZE, RING_BUFSZ);

    g_assert_cmphex(r300_rig_wb_addr(d), ==, WB_ADDR);
    return d;
}

static uint32_t px32(Dev *d, int x, int y)
{
    uint32_t v;
    memcpy(&v, d->vram + CB_ADDR + 4 * (y * W + x), 4);
    return v;
}

static const float identity[16] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                                    0, 0, 0, 1 };

static void setup(Dev *d, uint32_t format, bool depth)
{
    static uint32_t buf[4096];
    R300Cmd c;
    R300Surface cb = { CB_ADDR, W, format };
    R300Surface zb = { ZB_ADDR, depth ? W : 0,
                       R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL };

    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_pipeline(&c, &cb, &zb, W, H);
    r300_cmd_matrix(&c, identity);
    g_assert_false(c.overflow);
    r300_rig_ring_run(d, buf, c.n);
}

static void draw(Dev *d, uint32_t prim, const float *v, unsigned n)
{
    static uint32_t buf[4096];
    R300Cmd c;

    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_draw(&c, prim, v, n);
    r300_cmd_finish(&c);
    r300_rig_ring_run(d, buf, c.n);
}

/* window position of a clip-space vertex (x, y) with w = 1 */
static void to_window(const float *v, double *wx, double *wy)
{
    *wx = (v[0] + 1.0) * W / 2.0;
    *wy = (1.0 - v[1]) * H / 2.0;
}

/* barycentrics of pixel centre (px, py) in the window triangle; false if
 * it is not clearly inside (at least `margin` pixels from every edge) */
static bool bary(const float *v, int px, int py, double margin, double l[3])
{
    double x[3], y[3], a, sx = px + 0.5, sy = py + 0.5;
    int k;

    for (k = 0; k < 3; k++) {
        to_window(v + 8 * k, &x[k], &y[k]);
    }
    a = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    for (k = 0; k < 3; k++) {
        int i = (k + 1) % 3, j = (k + 2) % 3;
        double e = (x[j] - x[i]) * (sy - y[i]) - (y[j] - y[i]) * (sx - x[i]);
        double len = hypot(x[j] - x[i], y[j] - y[i]);
        l[k] = e / a;
        if (l[k] * fabs(a) / len < margin) {
            return false;
        }
    }
    return true;
}

static const float gouraud[3 * 8] = {
    -0.8f, -0.7f, 0.0f, 1.0f, 1.0f, 0.0f, 0.0f, 1.0f,
     0.9f, -0.6f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f,
    -0.1f,  0.8f, 0.0f, 1.0f, 0.0f, 0.0f, 1.0f, 1.0f,
};

static void check_gouraud(Dev *d)
{
    int x, y, inside = 0, outside = 0, k;

    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            double l[3], neg[3];
            uint32_t p = px32(d, x, y);
            /* the same triangle with reversed winding tells "clearly out" */
            float rev[3 * 8];
            memcpy(rev, gouraud + 16, 32);
            memcpy(rev + 8, gouraud + 8, 32);
            memcpy(rev + 16, gouraud, 32);
            if (bary(gouraud, x, y, 0.75, l)) {
                for (k = 0; k < 3; k++) {
                    /* channel k of the colour is vertex k's weight */
                    int expect = (int)floor(l[k] * 255.0 + 0.5);
                    int got = (p >> (k == 0 ? 16 : k == 1 ? 8 : 0)) & 0xFF;
                    if (abs(got - expect) > 1) {
                        g_test_message("pixel %d,%d ch %d: %d vs %d (px %08x)", x, y, k,
                                       got, expect, p);
                        g_assert_cmpint(abs(got - expect), <=, 1);
                    }
                }
                g_assert_cmphex(p >> 24, ==, 0xFF);
                inside++;
            } else if (!bary(gouraud, x, y, -0.75, neg) &&
                       !bary(rev, x, y, -0.75, neg)) {
                g_assert_cmphex(p, ==, 0);
                outside++;
            }
        }
    }
    g_assert_cmpint(inside, >, 1000);
    g_assert_cmpint(outside, >, 1000);
}

static void test_gouraud(void)
{
    Dev *d = dev_new(2);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    check_gouraud(d);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs);
    /* the CP consumed everything and wrote its read pointer back */
    g_assert_cmpuint(r300_rig_rd(d, A_CP_RB_RPTR), ==, r300_rig_rd(d, A_CP_RB_WPTR));
    g_assert_cmpuint(*(uint32_t *)(d->vram + WB_ADDR), ==, r300_rig_rd(d, A_CP_RB_RPTR));
    g_assert_false(r300_rig_rd(d, A_RBBM_STATUS) & R_RBBM_STATUS_GUI_ACTIVE_MASK);
    r300_rig_free(d);
}

/* the same triangle fed through the VAP data port instead of a packet */
static void test_port_draw(void)
{
    Dev *d = dev_new(1);
    unsigned i;

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    r300_rig_wr(d, A_VAP_VF_MAX_VTX_INDX, 2);
    r300_rig_wr(d, A_VAP_VF_CNTL, R300_PRIM_TRIANGLES |
                          R300_PRIM_WALK_RING << R_VAP_VF_CNTL_PRIM_WALK_SHIFT |
                          3u << R_VAP_VF_CNTL_NUM_VERTICES_SHIFT);
    for (i = 0; i < 24; i++) {
        uint32_t u;
        memcpy(&u, &gouraud[i], 4);
        r300_rig_wr(d, A_VAP_PORT_DATA_0 + 4 * (i % 16), u);
    }
    check_gouraud(d);
    r300_rig_free(d);
}

/*
 * A rectangle of two triangles sharing a diagonal, drawn with additive
 * blending: a pixel on the shared edge drawn twice would be 0x80.
 */
static void test_shared_edge(void)
{
    /*
     * Corners on pixel centres (window 10.5..70.5 x 8.5..50.5), so samples
     * lie exactly on all four sides and on the shared diagonal (every 10
     * pixels): the edge rule alone decides them.
     */
    static const float quad[6 * 8] = {
        -0.78125f, -0.578125f, 0, 1, 0.25f, 0, 0, 1,
         0.46875f, -0.578125f, 0, 1, 0.25f, 0, 0, 1,
         0.46875f,  0.734375f, 0, 1, 0.25f, 0, 0, 1,
        -0.78125f, -0.578125f, 0, 1, 0.25f, 0, 0, 1,
         0.46875f,  0.734375f, 0, 1, 0.25f, 0, 0, 1,
        -0.78125f,  0.734375f, 0, 1, 0.25f, 0, 0, 1,
    };
    Dev *d = dev_new(2);
    double x0, y0, x1, y1;
    int x, y, drawn = 0;

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    r300_rig_wr(d, A_RB3D_BLENDCNTL, R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                             R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                             R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
    draw(d, R300_PRIM_TRIANGLES, quad, 6);
    to_window(quad, &x0, &y1);
    to_window(quad + 16, &x1, &y0);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            /* top-left rule on pixel centres [SC_EDGERULE 0x2DA49525] */
            bool in = x + 0.5 >= x0 && x + 0.5 < x1 && y + 0.5 >= y0 &&
                      y + 0.5 < y1;
            uint32_t r = (px32(d, x, y) >> 16) & 0xFF;
            g_assert_cmphex(r, ==, in ? 0x40 : 0);
            drawn += in;
        }
    }
    g_assert_cmpint(drawn, >, 2000);
    r300_rig_free(d);
}

/* Nearer wins whatever the drawing order; LESS keeps the first of equals. */
static void test_depth(void)
{
    static const float far_red[3 * 8] = {
        -1, -1, 0.5f, 1, 1, 0, 0, 1,   1, -1, 0.5f, 1, 1, 0, 0, 1,
        0, 1, 0.5f, 1, 1, 0, 0, 1,
    };
    static const float near_green[3 * 8] = {
        -1, 1, -0.5f, 1, 0, 1, 0, 1,   1, 1, -0.5f, 1, 0, 1, 0, 1,
        0, -1, -0.5f, 1, 0, 1, 0, 1,
    };
    uint32_t first[W * H];
    int order;

    for (order = 0; order < 2; order++) {
        Dev *d = dev_new(2);
        int x, y;
        r300_rig_ring_init(d);
        /* clear depth to far: 24-bit Z 0xFFFFFF, stencil 0 */
        for (y = 0; y < H * W; y++) {
            uint32_t z = 0xFFFFFF00u;
            memcpy(d->vram + ZB_ADDR + 4 * y, &z, 4);
        }
        setup(d, R300_COLOR_FORMAT_ARGB8888, true);
        draw(d, R300_PRIM_TRIANGLES, order ? near_green : far_red, 3);
        draw(d, R300_PRIM_TRIANGLES, order ? far_red : near_green, 3);
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                uint32_t p = px32(d, x, y), z;
                if (order == 0) {
                    first[y * W + x] = p;
                } else {
                    g_assert_cmphex(p, ==, first[y * W + x]);
                }
                memcpy(&z, d->vram + ZB_ADDR + 4 * (y * W + x), 4);
                /* wherever green is, its depth (0.25 * (2^24-1)) is stored */
                if (p == 0xFF00FF00) {
                    g_assert_cmphex(z >> 8, ==, 0x3FFFFF + 1);
                }
            }
        }
        /* the centre is covered by both: green */
        g_assert_cmphex(px32(d, W / 2, H / 2), ==, 0xFF00FF00);
        r300_rig_free(d);
    }
}

/*
 * Mesa's CBZB clear (r300_blit.c, r300_emit.c, r300_hyperz.c): a colour
 * buffer is cleared by drawing its upper half while the ZB, Z test off,
 * has ZB_BW_CNTL.ZB_CB_CLEAR set (R300_ZB_CB_CLEAR_CACHE_LINE_WRITE_ONLY,
 * r300_reg.h), ZB_DEPTHOFFSET at the buffer's midpoint, the colour buffer's
 * pitch, a 24-bit Z format and the packed clear colour in
 * ZB_DEPTHCLEARVALUE. The register reference (ZB_BW_CNTL.ZB_CB_CLEAR: "the
 * Z buffer is used to help the CB in clearing a region ... The color value
 * is supplied through the ZB_DEPTHCLEARVALUE register") makes the lower
 * half the clear value, pixel for pixel.
 */
static void test_cbzb_clear(void)
{
    static const float top_red[6 * 8] = {
        -1, 1, 0, 1, 1, 0, 0, 1,   1, 1, 0, 1, 1, 0, 0, 1,
        -1, 0, 0, 1, 1, 0, 0, 1,   1, 1, 0, 1, 1, 0, 0, 1,
         1, 0, 0, 1, 1, 0, 0, 1,  -1, 0, 0, 1, 1, 0, 0, 1,
    };
    static uint32_t buf[256];
    const uint32_t clear = 0xFF204060u, stale = 0x12345678u;
    Dev *d = dev_new(2);
    R300Cmd c;
    int x, y;

    r300_rig_ring_init(d);
    for (y = 0; y < W * H; y++) {
        memcpy(d->vram + CB_ADDR + 4 * y, &stale, 4);
    }
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_FORMAT, R300_DEPTHFORMAT_24BIT_INT_Z_8BIT_STENCIL);
    r300_cmd_reg(&c, A_ZB_DEPTHOFFSET, CB_ADDR + 4 * W * (H / 2));
    r300_cmd_reg(&c, A_ZB_DEPTHPITCH, W);
    r300_cmd_reg(&c, A_ZB_DEPTHCLEARVALUE, clear);
    r300_cmd_reg(&c, A_ZB_BW_CNTL, R_ZB_BW_CNTL_ZB_CB_CLEAR_MASK);
    g_assert_false(c.overflow);
    r300_rig_ring_run(d, buf, c.n);
    draw(d, R300_PRIM_TRIANGLES, top_red, 6);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            g_assert_cmphex(px32(d, x, y), ==, y < H / 2 ? 0xFFFF0000u : clear);
        }
    }
    r300_rig_free(d);
}

static void test_rgb565(void)
{
    static const float white[3 * 8] = {
        -1, -1, 0, 1, 1, 1, 1, 1,   3, -1, 0, 1, 1, 1, 1, 1,
        -1, 3, 0, 1, 1, 1, 1, 1,
    };
    Dev *d = dev_new(1);
    uint16_t p;

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_RGB565, false);
    draw(d, R300_PRIM_TRIANGLES, white, 3);
    memcpy(&p, d->vram + CB_ADDR + 2 * (10 * W + 10), 2);
    g_assert_cmphex(p, ==, 0xFFFF);
    /* the 16-bit pitch: nothing beyond the first W*H*2 bytes */
    memcpy(&p, d->vram + CB_ADDR + 2 * W * H, 2);
    g_assert_cmphex(p, ==, 0);
    r300_rig_free(d);
}

/* Scratch write-back, software interrupt, indirect buffer. */
static void test_cp_features(void)
{
    Dev *d = dev_new(1);
    uint32_t cmd[16], ib[4];
    uint32_t n = 0;

    r300_rig_ring_init(d);
    r300_rig_wr(d, A_SCRATCH_ADDR, WB_ADDR + 0x100);
    r300_rig_wr(d, A_SCRATCH_UMSK, 0x3F);
    r300_rig_wr(d, A_GEN_INT_CNTL, R_GEN_INT_CNTL_SW_INT_ENABLE_MASK);
    /* an indirect buffer that writes scratch 2 */
    ib[0] = R300_PACKET0(R300_SCRATCH_REG(2), 0);
    ib[1] = 0xC0FFEE;
    memcpy(d->vram + IB_ADDR, ib, 8);
    cmd[n++] = R300_PACKET0(A_CP_IB_BASE, 1);
    cmd[n++] = IB_ADDR;
    cmd[n++] = 2;
    cmd[n++] = R300_PACKET0(R300_SCRATCH_REG(1), 0);
    cmd[n++] = 0x12345678;
    cmd[n++] = R300_PACKET2;
    cmd[n++] = R300_PACKET3(R300_PKT3_NOP, 0);
    cmd[n++] = 0;
    cmd[n++] = R300_PACKET0(A_GEN_INT_STATUS, 0);
    cmd[n++] = R_GEN_INT_STATUS_SW_INT_FIRE_MASK;
    r300_rig_ring_run(d, cmd, n);
    g_assert_cmphex(*(uint32_t *)(d->vram + WB_ADDR + 0x104), ==, 0x12345678);
    g_assert_cmphex(*(uint32_t *)(d->vram + WB_ADDR + 0x108), ==, 0xC0FFEE);
    g_assert_cmphex(r300_rig_rd(d, R300_SCRATCH_REG(1)), ==, 0x12345678);
    g_assert_true(r300_rig_rd(d, A_GEN_INT_STATUS) & R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    g_assert_true(r300_irq_level(d->core));
    g_assert_cmpint(d->irqs, ==, 1);
    /* acknowledge */
    r300_rig_wr(d, A_GEN_INT_STATUS, R_GEN_INT_STATUS_SW_INT_TEST_MASK);
    g_assert_false(r300_irq_level(d->core));
    r300_rig_free(d);
}

/* Reset values, write masks, access rules of a sample of registers. */
static void test_registers(void)
{
    Dev *d = dev_new(1);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);

    g_assert_cmphex(r300_rig_rd(d, A_RB3D_COLORPITCH_0), ==, 0x00C00000);
    g_assert_cmphex(r300_rig_rd(d, A_RB3D_COLOR_CHANNEL_MASK), ==, 0xF);
    g_assert_cmphex(r300_rig_rd(d, A_GB_TILE_CONFIG), ==, 0x11);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_CNTL), ==, 0x00240000);
    g_assert_cmphex(r300_rig_rd(d, A_RB3D_BLENDCNTL), ==, 0x4);
    g_assert_cmphex(r300_rig_rd(d, A_CONFIG_MEMSIZE), ==, VRAM_SIZE);
    /* undocumented bits read back as 0 */
    r300_rig_wr(d, A_SU_CULL_MODE, 0xFFFFFFFF);
    g_assert_cmphex(r300_rig_rd(d, A_SU_CULL_MODE), ==, 7);
    /* the viewport aliases */
    r300_rig_wr(d, R300_VAP_VPORT_XSCALE_ALIAS, 0x3F800000);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_VPORT_XSCALE), ==, 0x3F800000);
    /* write-only registers read 0 */
    r300_rig_wr(d, A_VAP_VTX_ST_POS_0_X_2, 5);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_VTX_ST_POS_0_X_2), ==, 0);
    /* byte writes merge outside VAP; VAP is dword-only */
    r300_reg_write(d->core, A_RB3D_CONSTANT_COLOR + 1, 0xAB, 1);
    g_assert_cmphex(r300_rig_rd(d, A_RB3D_CONSTANT_COLOR), ==, 0xAB00);
    r300_reg_write(d->core, A_VAP_VTX_SIZE, 3, 2);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_VTX_SIZE), ==, 0);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    /* read-only busy bits */
    r300_rig_wr(d, A_VAP_CNTL_STATUS, 0xFFFFFFFF);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_CNTL_STATUS), ==, 0x103);
    /* undocumented 3D dwords store whole (VAP_VSM_VTX_ASSM) */
    r300_rig_wr(d, A_VAP_VSM_VTX_ASSM, 0xDEADBEEF);
    g_assert_cmphex(r300_rig_rd(d, A_VAP_VSM_VTX_ASSM), ==, 0xDEADBEEF);
    /* HiZ data port with auto-increment by two dwords */
    r300_rig_wr(d, A_ZB_HIZ_WRINDEX, 0);
    r300_rig_wr(d, A_ZB_HIZ_DWORD, 0x11);
    r300_rig_wr(d, A_ZB_HIZ_DWORD, 0x22);
    g_assert_cmphex(r300_rig_rd(d, A_ZB_HIZ_WRINDEX), ==, 16);
    r300_rig_wr(d, A_ZB_HIZ_RDINDEX, 8);
    g_assert_cmphex(r300_rig_rd(d, A_ZB_HIZ_DWORD), ==, 0x22);
    /* reset restores */
    r300_core_reset(d->core);
    g_assert_cmphex(r300_rig_rd(d, A_SU_CULL_MODE), ==, 0);
    r300_rig_free(d);
}

/* ---- bad input ---------------------------------------------------------- */

static void test_bad_ring(void)
{
    Dev *d = dev_new(1);
    unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    uint32_t cmd[4];

    /* a ring size out of range */
    r300_rig_ring_init(d);
    r300_rig_wr(d, A_CP_RB_CNTL, 40);
    r300_rig_wr(d, A_CP_RB_WPTR, 8);
    g_assert_false(r300_core_work(d->core, 64));
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errs);

    /* a packet whose count can never fit the ring: dropped, then recovered */
    r300_core_reset(d->core);
    r300_rig_ring_init(d);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    cmd[0] = R300_PACKET3(R300_PKT3_NOP, 0x3FFF);
    cmd[1] = cmd[2] = cmd[3] = 0;
    r300_rig_ring_run(d, cmd, 4);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    g_assert_cmpuint(r300_rig_rd(d, A_CP_RB_RPTR), ==, r300_rig_rd(d, A_CP_RB_WPTR));
    /* an unknown opcode is skipped; the next packet still runs */
    r300_rig_wr(d, A_SCRATCH_UMSK, 0);
    cmd[0] = R300_PACKET3(0x7E, 0);
    cmd[1] = 0;
    cmd[2] = R300_PACKET0(R300_SCRATCH_REG(0), 0);
    cmd[3] = 77;
    r300_rig_ring_run(d, cmd, 4);
    g_assert_cmpuint(r300_rig_rd(d, R300_SCRATCH_REG(0)), ==, 77);
    /* an indirect buffer in unmapped space */
    cmd[0] = R300_PACKET0(A_CP_IB_BASE, 1);
    cmd[1] = 0xF0000000u;
    cmd[2] = 16;
    r300_rig_ring_run(d, cmd, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 3);
    /* after all that, a draw works */
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    check_gouraud(d);
    r300_rig_free(d);
}

static void test_bad_draws(void)
{
    Dev *d = dev_new(1);
    unsigned errs;
    uint32_t cmd[8], i;

    /* a draw with no vertex program: nothing uploaded since reset */
    r300_rig_ring_init(d);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    r300_rig_wr(d, A_VAP_PVS_CODE_CNTL_0, 4u << 20);
    r300_rig_wr(d, A_VAP_PROG_STREAM_CNTL_0, 0x21030003);
    r300_rig_wr(d, A_VAP_PROG_STREAM_CNTL_EXT_0, 0xF688F688);
    r300_rig_wr(d, A_VAP_VTX_SIZE, 8);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);

    /* a colour buffer past the end of VRAM */
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    r300_rig_wr(d, R300_RB3D_COLOROFFSET(0), VRAM_SIZE - 4096);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    for (i = 0; i < 4096; i++) {
        g_assert_cmpuint(d->vram[VRAM_SIZE - 4096 + i], ==, 0);
    }
    r300_rig_wr(d, R300_RB3D_COLOROFFSET(0), CB_ADDR);

    /* an immediate draw with fewer dwords than its vertices need */
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    cmd[0] = R300_PACKET3(R300_PKT3_3D_DRAW_IMMD_2, 2);
    cmd[1] = R300_PRIM_TRIANGLES | 3u << 4 | 3u << 16;
    cmd[2] = cmd[3] = 0;
    r300_rig_ring_run(d, cmd, 4);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);

    /* vertex arrays outside memory */
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    cmd[0] = R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 3);
    cmd[1] = 2;
    cmd[2] = 4 | 8 << 8 | 4u << 16 | 8u << 24;
    cmd[3] = 0xF0000000u;
    cmd[4] = 0xF0000010u;
    cmd[5] = R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0);
    cmd[6] = R300_PRIM_TRIANGLES | 2u << 4 | 3u << 16;
    r300_rig_ring_run(d, cmd, 7);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    /* a VBPNTR body too short for its arrays */
    cmd[0] = R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 1);
    r300_rig_ring_run(d, cmd, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 2);
    /* nothing of that reached the colour buffer; a good draw still works */
    for (i = 0; i < 4 * W * H; i++) {
        g_assert_cmpuint(d->vram[CB_ADDR + i], ==, 0);
    }
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    check_gouraud(d);
    r300_rig_free(d);
}

/*
 * Vertex arrays and an index buffer in system memory through the PCI GART,
 * drawn with 3D_LOAD_VBPNTR + 3D_DRAW_VBUF_2 and 3D_DRAW_INDX_2 +
 * INDX_BUFFER: the same picture as the immediate draw.
 */
#define GART_BASE 0x40000000u       /* GPU address of the GART aperture */
static void test_gart_arrays(void)
{
    Dev *d = dev_new(1);
    uint32_t *pt = (uint32_t *)d->sysram;      /* page table at bus 0 */
    uint32_t cmd[32], n = 0, i;
    float pos[3][4], col[3][4];

    /* "system memory" behind the GART: the table maps GART page 0 to bus
     * address 0 (the table itself) and page 1 nowhere (past its end) */
    g_assert_cmpuint(sizeof(d->sysram), <, 0x10000);
    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    for (i = 0; i < 3; i++) {
        memcpy(pos[i], gouraud + 8 * i, 16);
        memcpy(col[i], gouraud + 8 * i + 4, 16);
    }
    memset(d->sysram, 0, sizeof(d->sysram));
    pt[0] = 0;                                 /* page 0 -> bus 0 */
    memcpy(d->sysram + 0x100, pos, sizeof(pos));
    memcpy(d->sysram + 0x200, col, sizeof(col));
    pt[0x300 / 4] = 2 | 1u << 16;               /* indices 2, 1 */
    pt[0x304 / 4] = 0;                          /* index 0 */
    r300_rig_wr(d, A_AIC_PT_BASE, 0);
    r300_rig_wr(d, A_AIC_LO_ADDR, GART_BASE);
    r300_rig_wr(d, A_AIC_HI_ADDR, GART_BASE + 2 * 4096 - 1);
    r300_rig_wr(d, A_AIC_CNTL, R_AIC_CNTL_PCIGART_TRANSLATE_EN_MASK);
    /* two arrays of 4 floats, stride 4 dwords */
    cmd[n++] = R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 3);
    cmd[n++] = 2;
    cmd[n++] = 4 | 4 << 8 | 4u << 16 | 4u << 24;
    cmd[n++] = GART_BASE + 0x100;
    cmd[n++] = GART_BASE + 0x200;
    cmd[n++] = R300_PACKET0(A_VAP_VF_MAX_VTX_INDX, 0);
    cmd[n++] = 2;
    cmd[n++] = R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0);
    cmd[n++] = R300_PRIM_TRIANGLES | R300_PRIM_WALK_LIST << 4 | 3u << 16;
    r300_rig_ring_run(d, cmd, n);
    check_gouraud(d);

    /* the same through indices 2, 1, 0 from an index buffer in the GART */
    memset(d->vram + CB_ADDR, 0, 4 * W * H);
    n = 0;
    cmd[n++] = R300_PACKET3(R300_PKT3_3D_DRAW_INDX_2, 0);
    cmd[n++] = R300_PRIM_TRIANGLES | R300_PRIM_WALK_INDICES << 4 | 3u << 16;
    cmd[n++] = R300_PACKET3(R300_PKT3_INDX_BUFFER, 2);
    cmd[n++] = R300_PM4_PKT0_ONE_REG_WR << 16 | A_VAP_PORT_IDX_0 >> 2;
    cmd[n++] = GART_BASE + 0x300;
    cmd[n++] = 2;
    r300_rig_ring_run(d, cmd, n);
    check_gouraud(d);

    /* GART page 1 maps to bus 0x10000, outside memory: a logged failure */
    pt[1] = 0x10000;
    {
        unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
        n = 0;
        cmd[n++] = R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 3);
        cmd[n++] = 2;
        cmd[n++] = 4 | 4 << 8 | 4u << 16 | 4u << 24;
        cmd[n++] = GART_BASE + 4096;
        cmd[n++] = GART_BASE + 4096;
        cmd[n++] = R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0);
        cmd[n++] = R300_PRIM_TRIANGLES | R300_PRIM_WALK_LIST << 4 | 3u << 16;
        r300_rig_ring_run(d, cmd, n);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    }
    r300_rig_free(d);
}

/* The same frame, byte for byte, with 1 and 3 render threads. */
/*
 * A colour buffer in system memory through the PCI GART, over pages that
 * are not one host block (Mesa renders into staging buffers in GTT to read
 * pixels back): drawn in a copy and written back page by page.
 */
static void test_gart_colour_buffer(void)
{
    static uint32_t buf[1024];
    Dev *d = dev_new(1);
    uint32_t *pt = (uint32_t *)d->sysram;
    R300Surface cb = { GART_BASE + 4096, 32, R300_COLOR_FORMAT_ARGB8888 };
    R300Surface zb = { 0, 0, 0 };
    R300Cmd c;
    unsigned i;

    g_assert_cmpuint(sizeof(d->sysram), >=, 4 * 4096);
    memset(d->sysram, 0, sizeof(d->sysram));
    /* GART page 1 -> bus page 3, page 2 -> bus page 1: 32 x 64 pixels of
     * 4 bytes over two pages in reverse order */
    pt[1] = 3 * 4096;
    pt[2] = 1 * 4096;
    r300_rig_ring_init(d);
    r300_rig_wr(d, A_AIC_PT_BASE, 0);
    r300_rig_wr(d, A_AIC_LO_ADDR, GART_BASE);
    r300_rig_wr(d, A_AIC_HI_ADDR, GART_BASE + 3 * 4096 - 1);
    r300_rig_wr(d, A_AIC_CNTL, R_AIC_CNTL_PCIGART_TRANSLATE_EN_MASK);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_pipeline(&c, &cb, &zb, 32, 64);
    r300_cmd_clear(&c, 1.0f, 0.5f, 0.0f, 1.0f);
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    r300_rig_ring_run(d, buf, c.n);
    for (i = 0; i < 1024; i++) {
        uint32_t top, bottom;
        memcpy(&top, d->sysram + 3 * 4096 + 4 * i, 4);
        memcpy(&bottom, d->sysram + 1 * 4096 + 4 * i, 4);
        g_assert_cmphex(top, ==, 0xFFFF8000);
        g_assert_cmphex(bottom, ==, 0xFFFF8000);
    }
    /* bus page 2 is no page of the surface: untouched */
    for (i = 0; i < 4096; i++) {
        g_assert_cmpuint(d->sysram[2 * 4096 + i], ==, 0);
    }
    r300_rig_free(d);
}

static void test_threads(void)
{
    Dev *a = dev_new(1), *b = dev_new(3);
    Dev *devs[2] = { a, b };
    int i;

    for (i = 0; i < 2; i++) {
        r300_rig_ring_init(devs[i]);
        setup(devs[i], R300_COLOR_FORMAT_ARGB8888, false);
        draw(devs[i], R300_PRIM_TRIANGLES, gouraud, 3);
        draw(devs[i], R300_PRIM_TRIANGLE_FAN, gouraud, 3);
    }
    g_assert_cmpmem(a->vram + CB_ADDR, 4 * W * H, b->vram + CB_ADDR, 4 * W * H);
    r300_rig_free(a);
    r300_rig_free(b);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/r300/core/registers", test_registers);
    g_test_add_func("/r300/core/gouraud", test_gouraud);
    g_test_add_func("/r300/core/port-draw", test_port_draw);
    g_test_add_func("/r300/core/shared-edge", test_shared_edge);
    g_test_add_func("/r300/core/depth", test_depth);
    g_test_add_func("/r300/core/cbzb-clear", test_cbzb_clear);
    g_test_add_func("/r300/core/rgb565", test_rgb565);
    g_test_add_func("/r300/core/cp", test_cp_features);
    g_test_add_func("/r300/core/threads", test_threads);
    g_test_add_func("/r300/core/gart-arrays", test_gart_arrays);
    g_test_add_func("/r300/core/gart-colour-buffer", test_gart_colour_buffer);
    g_test_add_func("/r300/bad/ring", test_bad_ring);
    g_test_add_func("/r300/bad/draws", test_bad_draws);
    return g_test_run();
}
