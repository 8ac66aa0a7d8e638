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
#include "r300/tx.h"

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

/* one triangle covering the whole target: colour `rgba` at clip depth z */
static void draw_full(Dev *d, float z, float r, float g, float b, float a)
{
    static const float corner[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } };
    float v[3 * 8];
    int k;

    for (k = 0; k < 3; k++) {
        const float vk[8] = { corner[k][0], corner[k][1], z, 1, r, g, b, a };
        memcpy(v + 8 * k, vk, sizeof(vk));
    }
    draw(d, R300_PRIM_TRIANGLES, v, 3);
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

/* CPU access to VRAM offsets [at, at + n) through the surface registers */
static void surface_copy(Dev *d, const R300Surfaces *s, uint32_t at,
                         uint8_t *buf, uint32_t n, bool write)
{
    uint32_t i;

    for (i = 0; i < n; i++) {
        uint64_t t = r300_surface_translate(s, at + i);
        g_assert_cmpuint(t, <, VRAM_SIZE);
        if (write) {
            d->vram[t] = buf[i];
        } else {
            buf[i] = d->vram[t];
        }
    }
}

/* a surface register write as the guest makes it: the glue's copy and the
 * core's registers must agree */
static void surface_wr(Dev *d, R300Surfaces *s, uint32_t reg, uint32_t v)
{
    r300_rig_wr(d, reg, v);
    r300_surfaces_write(s, reg, v, 4);
}

/*
 * A colour buffer RB3D draws tiled, read by the CPU through a surface
 * register programmed as r100_set_surface_reg does (pitch in bytes / 8,
 * the buffer's VRAM range), is the buffer RB3D draws linear; and what the
 * CPU writes through the surface, RB3D blends onto as the tiled buffer.
 */
static void test_surface_cpu_view(void)
{
    static const uint32_t modes[][2] = {
        { R_RB3D_COLORPITCH_0_COLORTILE_MASK, R_SURFACE0_INFO_TILE_MACRO_MASK },
        { 1u << R_RB3D_COLORPITCH_0_COLORMICROTILE_SHIFT,
          R_SURFACE0_INFO_TILE_MICRO_MASK },
        { R_RB3D_COLORPITCH_0_COLORTILE_MASK |
          1u << R_RB3D_COLORPITCH_0_COLORMICROTILE_SHIFT,
          R_SURFACE0_INFO_TILE_MACRO_MASK | R_SURFACE0_INFO_TILE_MICRO_MASK },
    };
    const uint32_t bytes = W * H * 4, span = 2 * bytes;
    uint8_t *lin = g_malloc(bytes), *view = g_malloc(bytes);
    uint8_t *gour = g_malloc(bytes);
    unsigned m;

    for (m = 0; m < G_N_ELEMENTS(modes); m++) {
        Dev *d = dev_new(1);
        unsigned errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
        R300Surfaces s = { 0 }, core;
        uint32_t pitch, i;

        r300_rig_ring_init(d);
        setup(d, R300_COLOR_FORMAT_ARGB8888, false);
        draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
        memcpy(lin, d->vram + CB_ADDR, bytes);
        memcpy(gour, lin, bytes);

        memset(d->vram + CB_ADDR, 0, span);
        pitch = r300_rig_rd(d, A_RB3D_COLORPITCH_0);
        r300_rig_wr(d, A_RB3D_COLORPITCH_0, pitch | modes[m][0]);
        draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
        /* the tiled bytes are not the linear picture ... */
        g_assert_cmpint(memcmp(d->vram + CB_ADDR, lin, bytes), !=, 0);

        surface_wr(d, &s, A_SURFACE0_INFO, modes[m][1] | W * 4 / 8);
        surface_wr(d, &s, A_SURFACE0_LOWER_BOUND, CB_ADDR);
        surface_wr(d, &s, A_SURFACE0_UPPER_BOUND, CB_ADDR + span - 1);
        r300_surfaces_get(d->core, &core);
        g_assert_cmpint(memcmp(&core, &s, sizeof(s)), ==, 0);
        /* ... but the CPU sees it through the surface */
        surface_copy(d, &s, CB_ADDR, view, bytes, false);
        g_assert_cmpint(memcmp(view, lin, bytes), ==, 0);

        /* translation off: the CPU sees the tiled bytes */
        surface_wr(d, &s, A_SURFACE_CNTL,
                   R_SURFACE_CNTL_SURF_TRANSLATION_DIS_MASK);
        surface_copy(d, &s, CB_ADDR, view, bytes, false);
        g_assert_cmpint(memcmp(view, d->vram + CB_ADDR, bytes), ==, 0);
        surface_wr(d, &s, A_SURFACE_CNTL, 0);

        /* the reverse: a picture written linear through the surface ... */
        for (i = 0; i < bytes; i++) {
            view[i] = (uint8_t)(i * 13 + (i >> 9));
        }
        for (i = 3; i < bytes; i += 4) {
            view[i] = 0xFF;
        }
        surface_copy(d, &s, CB_ADDR, view, bytes, true);
        /* ... is the tiled buffer RB3D blends onto: ONE + ONE adds the
         * triangle pixel by pixel, so each sum shows where RB3D read */
        {
            static uint32_t buf[256];
            R300Cmd c;

            r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
            r300_cmd_reg(&c, A_RB3D_BLENDCNTL,
                         R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK |
                         R_RB3D_BLENDCNTL_READ_ENABLE_MASK |
                         R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_SRCBLEND_SHIFT |
                         R300_BLEND_GL_ONE << R_RB3D_BLENDCNTL_DESTBLEND_SHIFT);
            g_assert_false(c.overflow);
            r300_rig_ring_run(d, buf, c.n);
        }
        draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
        surface_copy(d, &s, CB_ADDR, lin, bytes, false);
        for (i = 0; i < bytes; i++) {
            uint32_t want = MIN(255u, (uint32_t)gour[i] + view[i]);
            if (lin[i] != want) {
                g_error("mode %u byte %u: %u + %u gave %u", m, i, gour[i],
                        view[i], lin[i]);
            }
        }
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs);
        r300_rig_free(d);
    }
    g_free(lin);
    g_free(view);
    g_free(gour);
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

/*
 * Two-sided colour as Mesa's r300 driver sets it up for GL two-sided
 * lighting (r300_vs.c set_vertex_inputs_outputs, r300_state_derived.c
 * r300_update_rs_block): the vertex program writes colours 0 and 1 and the
 * back colours 2 and 3, VAP_OUT_VTX_FMT_0 declares all four, the RS
 * rasterises colours 0 and 1 only, and "the rasterizer will do the color
 * selection automatically": a back-facing triangle gets colour 2 where a
 * front-facing one gets colour 0. Without colours 2 and 3 in the output
 * (two-sided lighting off) both faces get colour 0.
 */
static void test_two_sided_colour(void)
{
    static const float back_colour[4] = { 0.0f, 0.0f, 1.0f, 1.0f };
    static uint32_t buf[1024];
    float left[3 * 8], right[3 * 8];
    uint32_t prog[8][4];
    R300Cmd c;
    int pass, i;

    /* the Gouraud triangle squeezed into the left half (front-facing) and
     * its mirror image in the right half (the mirror turns it back-facing) */
    memcpy(left, gouraud, sizeof(left));
    memcpy(right, gouraud, sizeof(right));
    for (i = 0; i < 3; i++) {
        left[8 * i] = 0.5f * gouraud[8 * i] - 0.5f;
        right[8 * i] = 0.5f - 0.5f * gouraud[8 * i];
    }
    /* out0 = position, out1/out2 = in1 (front colours 0/1),
     * out3/out4 = constant 4 (back colours 2/3) */
    r300_pvs_transform(prog);
    for (i = 4; i < 8; i++) {
        prog[i][0] = R300_PVS_DST(R300_VE_ADD, 0, R300_PVS_DST_REG_OUT,
                                  1 + (i - 4) / 2 * 2 + (i & 1), 0xF);
        prog[i][1] = i < 6 ? R300_PVS_SRC_XYZW(R300_PVS_SRC_REG_INPUT, 1)
                           : R300_PVS_SRC_XYZW(R300_PVS_SRC_REG_CONSTANT, 4);
        prog[i][2] = R300_PVS_SRC_ZERO;
        prog[i][3] = R300_PVS_SRC_ZERO;
    }
    for (pass = 0; pass < 2; pass++) {
        bool two_sided = pass == 0;
        Dev *d = dev_new(2);
        int x, y, front = 0, back = 0;

        r300_rig_ring_init(d);
        setup(d, R300_COLOR_FORMAT_ARGB8888, false);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_reg(&c, A_VAP_PVS_STATE_FLUSH_REG, 0);
        r300_cmd_reg(&c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CODE_START);
        r300_cmd_dw(&c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 31));
        for (i = 0; i < 32; i++) {
            r300_cmd_dw(&c, prog[i / 4][i % 4]);
        }
        r300_cmd_reg(&c, A_VAP_PVS_CODE_CNTL_0, 7u << 20 | 3u << 10);
        r300_cmd_reg(&c, A_VAP_PVS_CODE_CNTL_1, 7);
        r300_cmd_reg(&c, A_VAP_PVS_VECTOR_INDX_REG, R300_PVS_CONST_START + 4);
        r300_cmd_dw(&c, R300_PACKET0_ONE(A_VAP_PVS_VECTOR_DATA_REG_128, 3));
        for (i = 0; i < 4; i++) {
            r300_cmd_dw(&c, r300_f2u(back_colour[i]));
        }
        /* position and colours 0-3, or position and colours 0-1 */
        r300_cmd_reg(&c, A_VAP_OUT_VTX_FMT_0, two_sided ? 0x1F : 0x07);
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, left, 3);
        r300_cmd_draw(&c, R300_PRIM_TRIANGLES, right, 3);
        r300_cmd_finish(&c);
        g_assert_false(c.overflow);
        r300_rig_ring_run(d, buf, c.n);
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                uint32_t p = px32(d, x, y);
                if (!p) {
                    continue;
                }
                if (x < W / 2) {
                    /* front: the interpolated vertex colour, never blue
                     * alone */
                    g_assert_cmphex(p & 0xFFFF00, !=, 0);
                    front++;
                } else if (two_sided) {
                    g_assert_cmphex(p, ==, 0xFF0000FF);   /* colour 2 */
                    back++;
                } else {
                    g_assert_cmphex(p, !=, 0xFF0000FF);   /* colour 0 */
                    back++;
                }
            }
        }
        g_assert_cmpint(front, >, 500);
        g_assert_cmpint(back, >, 500);
        r300_rig_free(d);
    }
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
 * A polygon of one depth stores that depth at every pixel, converted to
 * fixed point to nearest: "SU_DEPTH_SCALE ... applied to depth before
 * conversion to FXP" (R3xx 3D register reference, SU); with Mesa's scale
 * 2^24 - 1 (r300_context.c: SU_DEPTH_SCALE 0x4B7FFFFF) window depth k/2^24
 * is k - k/2^24, rounded. The depths are above 2^23, where a float has no
 * fractional bits left (k/2^24 itself is exact in float all the way to
 * the conversion), and odd where the rounding lands on an odd value.
 * gl-1.4-polygon-offset measures the
 * depth resolution and reads a face-on quad's slope from three of its
 * pixels; it failed while odd depths rounded up one step and the
 * three-way weighted sum put some pixels one step off.
 */
static void test_depth_face_on(void)
{
    static const uint32_t ks[] = { 0xC00001, 0x800003, 0xFFFFF1, 0x9ABCDF,
                                   0xA00002 };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(ks); i++) {
        Dev *d = dev_new(2);
        /* clip z such that the viewport's 0.5 z + 0.5 is k / 2^24 */
        float z = (float)ks[i] / 8388608.0f - 1.0f;
        const float tri[3 * 8] = {
            -1, -1, z, 1, 1, 1, 1, 1,   1, -0.8f, z, 1, 1, 1, 1, 1,
            -0.3f, 1, z, 1, 1, 1, 1, 1,
        };
        uint32_t want = (uint32_t)llround(ks[i] * (16777215.0 / 16777216.0));
        int x, y, covered = 0;

        r300_rig_ring_init(d);
        for (y = 0; y < H * W; y++) {
            uint32_t far = 0xFFFFFF00u;
            memcpy(d->vram + ZB_ADDR + 4 * y, &far, 4);
        }
        setup(d, R300_COLOR_FORMAT_ARGB8888, true);
        draw(d, R300_PRIM_TRIANGLES, tri, 3);
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                uint32_t zs;
                if (px32(d, x, y) != 0xFFFFFFFFu) {
                    continue;
                }
                memcpy(&zs, d->vram + ZB_ADDR + 4 * (y * W + x), 4);
                g_assert_cmphex(zs >> 8, ==, want);
                covered++;
            }
        }
        g_assert_cmpint(covered, >, W * H / 4);
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

/*
 * The one- and two-byte colour formats, programmed as Mesa programs an R8
 * and an R8G8 render target (r300_texture.c r300_translate_out_fmt:
 * "COLORFORMAT_I8 stores the Z component (C2)", R8 -> C2_SEL_R;
 * "COLORFORMAT_UV88 stores ZX (C2 and C0)", R8G8 -> C0_SEL_G | C2_SEL_R),
 * so that TX_FMT_8 / TX_FMT_8_8 read R (and G) back as X (and Y): the byte
 * of I8 is red, UV88 holds red in its low byte and green in its high one.
 */
static void test_i8_uv88(void)
{
    /* red 0.25 -> 0x40, green 0.75 -> 0xBF (rounded) */
    static const float colour[3 * 8] = {
        -1, -1, 0, 1, 0.25f, 0.75f, 0.5f, 1,
         3, -1, 0, 1, 0.25f, 0.75f, 0.5f, 1,
        -1,  3, 0, 1, 0.25f, 0.75f, 0.5f, 1,
    };
    static const struct {
        uint32_t format, out_fmt, bpp, expect;
    } cases[] = {
        /* C4_8, C0..C3 = A, A, R, A (Mesa's R8: only C2 matters) */
        { R300_COLOR_FORMAT_I8, 0x00001000, 1, 0x40 },
        /* C4_8, C0 = G, C2 = R */
        { R300_COLOR_FORMAT_UV88, 0x00001200, 2, 0xBF40 },
        /*
         * 16- and 32-bit components in a 16- or 32-bit target, C0 at the
         * lowest address: "these formats work fine with ARGB8888 / UV88 if
         * US_OUT_FMT is set correctly" (Mesa r300_translate_colorformat).
         * C2_16, C0 = R, C1 = A (Mesa's L16A16): 0.25 -> 0x4000, 1 ->
         * 0xFFFF.
         */
        { R300_COLOR_FORMAT_ARGB8888, 4 | 1 << 8, 4, 0xFFFF4000 },
        /* C2_16_FP, C0 = R, C1 = G (RG16F): halves 0x3400, 0x3A00 */
        { R300_COLOR_FORMAT_ARGB8888, 17 | 1 << 8 | 2 << 10, 4, 0x3A003400 },
        /* C_32_FP, C0 = R (R32F): the single 0.25 */
        { R300_COLOR_FORMAT_ARGB8888, 19 | 1 << 8, 4, 0x3E800000 },
        /* C_16, C0 = G (a 16-bit target): 0.75 * 65535 -> 0xBFFF */
        { R300_COLOR_FORMAT_UV88, 3 | 2 << 8, 2, 0xBFFF },
        /* C_16_FP, C0 = R (R16F) */
        { R300_COLOR_FORMAT_UV88, 16 | 1 << 8, 2, 0x3400 },
        /*
         * OUT_SIGN, "whether components C3, C2, C1 and C0 are signed (C4_8,
         * C_16, C2_16 and C4_16 formats only)", as Mesa programs SNORM
         * targets: v * (2^(n-1) - 1) rounded, two's complement. R8_SNORM:
         * 0.25 * 127 -> 0x20; R16_SNORM: 0.75 * 32767 -> 0x5FFF; L16A16_SNORM:
         * 0.25 * 32767 -> 0x2000, 1 -> 0x7FFF. C_16_FP has no sign field.
         */
        { R300_COLOR_FORMAT_I8, 0x00001000 | 0xF << 16, 1, 0x20 },
        { R300_COLOR_FORMAT_UV88, 3 | 2 << 8 | 0xF << 16, 2, 0x5FFF },
        { R300_COLOR_FORMAT_ARGB8888, 4 | 1 << 8 | 0xF << 16, 4, 0x7FFF2000 },
        { R300_COLOR_FORMAT_UV88, 16 | 1 << 8 | 0xF << 16, 2, 0x3400 },
    };
    unsigned i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        Dev *d = dev_new(1);
        uint32_t p = 0, outside = 0;

        r300_rig_ring_init(d);
        setup(d, cases[i].format, false);
        r300_rig_wr(d, A_US_OUT_FMT_0, cases[i].out_fmt);
        draw(d, R300_PRIM_TRIANGLES, colour, 3);
        memcpy(&p, d->vram + CB_ADDR + cases[i].bpp * (10 * W + 10),
               cases[i].bpp);
        g_assert_cmphex(p, ==, cases[i].expect);
        /* the pitch in pixels of this size: nothing past W*H of them */
        memcpy(&outside, d->vram + CB_ADDR + cases[i].bpp * W * H,
               cases[i].bpp);
        g_assert_cmphex(outside, ==, 0);
        r300_rig_free(d);
    }
}

/*
 * RB3D_CCTL.NUM_MULTIWRITES: "a quad is replicated and written to this
 * many buffers" [R3xx 3D ref. RB3D_CCTL]. Mesa programs it for a shader
 * whose gl_FragColor goes to every draw buffer, with US_OUT_FMT_1..3
 * unused (r300_emit.c r300_emit_fb_state, r300_emit_fb_state_pipelined):
 * colour buffers 0-2 all receive output 0; buffer 3 (not counted) keeps
 * what it held.
 */
static void test_multiwrite(void)
{
    static const float white[3 * 8] = {
        -1, -1, 0, 1, 1, 1, 1, 1,   3, -1, 0, 1, 1, 1, 1, 1,
        -1, 3, 0, 1, 1, 1, 1, 1,
    };
    const uint32_t cb_size = 4 * W * H;
    Dev *d = dev_new(1);
    unsigned t;

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    for (t = 1; t < 4; t++) {
        r300_rig_wr(d, R300_RB3D_COLOROFFSET(t), CB_ADDR + t * cb_size);
        r300_rig_wr(d, R300_RB3D_COLORPITCH(t),
                    W | R300_COLOR_FORMAT_ARGB8888
                        << R_RB3D_COLORPITCH_0_COLORFORMAT_SHIFT);
        r300_rig_wr(d, R300_US_OUT_FMT(t), 15);        /* unused */
    }
    r300_rig_wr(d, A_RB3D_CCTL, 2u << R_RB3D_CCTL_NUM_MULTIWRITES_SHIFT);
    draw(d, R300_PRIM_TRIANGLES, white, 3);
    for (t = 0; t < 4; t++) {
        uint32_t p;
        memcpy(&p, d->vram + CB_ADDR + t * cb_size + 4 * (10 * W + 10), 4);
        g_assert_cmphex(p, ==, t < 3 ? 0xFFFFFFFF : 0);
    }
    /* NUM_MULTIWRITES 0: one buffer */
    r300_rig_wr(d, A_RB3D_CCTL, 0);
    memset(d->vram + CB_ADDR + cb_size, 0, cb_size);
    draw(d, R300_PRIM_TRIANGLES, white, 3);
    g_assert_cmphex(*(uint32_t *)(d->vram + CB_ADDR + cb_size +
                                  4 * (10 * W + 10)), ==, 0);
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

/*
 * 13E3 Z, written here from its description (docs/r300-3d.md "Decisions"):
 * the exponent is the position of the leading 1 above bit 16, the mantissa
 * the 13 bits after it; INVERT encodes the distance from 1 and flips it.
 */
static uint32_t ref_13e3(uint32_t z, bool invert)
{
    unsigned e = 7;

    if (invert) {
        return 0xFFFF - ref_13e3(0xFFFFFF - z, false);
    }
    while (e > 0 && !(z & (1u << (16 + e)))) {
        e--;
    }
    return e == 0 ? (z >> 4) & 0x1FFF : e << 13 | ((z >> (3 + e)) & 0x1FFF);
}

static void test_depth_13e3(void)
{
    /* window depth 0.75 and 0.25 (clip z 0.5 and -0.5); blue 1/65536
     * behind green: 256 steps of 24-bit Z, one 13E3 code */
    int invert;

    for (invert = 0; invert < 2; invert++) {
        Dev *d = dev_new(1);
        uint32_t z_near = (uint32_t)floor(0.25 * 16777215.0 + 0.5);
        uint32_t z_tie = (uint32_t)floor((0.25 + 1.0 / 65536) * 16777215.0 +
                                         0.5);
        uint16_t z;
        static uint32_t buf[64];
        R300Cmd c;
        int i;

        r300_rig_ring_init(d);
        for (i = 0; i < W * H; i++) {
            memcpy(d->vram + ZB_ADDR + 2 * i, "\xff\xff", 2);
        }
        setup(d, R300_COLOR_FORMAT_ARGB8888, true);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_reg(&c, A_ZB_FORMAT, R300_DEPTHFORMAT_16BIT_13E3 |
                     (invert ? R_ZB_FORMAT_INVERT_MASK : 0));
        r300_rig_ring_run(d, buf, c.n);
        draw_full(d, -0.5f, 0, 1, 0, 1);        /* green, near */
        draw_full(d, 0.5f, 1, 0, 0, 1);         /* red, far */
        g_assert_cmphex(px32(d, 10, 10), ==, 0xFF00FF00);
        memcpy(&z, d->vram + ZB_ADDR + 2 * (10 * W + 10), 2);
        g_assert_cmphex(z, ==, ref_13e3(z_near, invert));
        /*
         * LEQUAL: blue is behind green in 24 bits but has its 13E3 code,
         * so it passes only because Z was stored as 13E3.
         */
        g_assert_cmphex(ref_13e3(z_tie, invert), ==, ref_13e3(z_near, invert));
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_depth(&c, 1, R300_ZS_LEQUAL);
        r300_rig_ring_run(d, buf, c.n);
        draw_full(d, -0.5f + 2.0f / 65536, 0, 0, 1, 1);
        g_assert_cmphex(px32(d, 10, 10), ==, 0xFF0000FF);
        /* nothing beyond the 16-bit buffer */
        memcpy(&z, d->vram + ZB_ADDR + 2 * W * H, 2);
        g_assert_cmphex(z, ==, 0);
        r300_rig_free(d);
    }
    /* the encoding rises with Z over the whole range, both ways */
    for (invert = 0; invert < 2; invert++) {
        uint32_t zz, prev = 0;
        for (zz = 0; zz < (1u << 24); zz += 37) {
            uint32_t code = ref_13e3(zz, invert);
            g_assert_cmpuint(code, >=, prev);
            prev = code;
        }
    }
}

/* IEEE binary16 of a float that is a multiple of 2^-10 in [2^-4, 2] */
static uint16_t ref_half(float f)
{
    int e = 0;
    double m = frexp(f, &e);        /* f = m 2^e, m in [0.5, 1) */

    return (uint16_t)((e - 1 + 15) << 10 | (int)((m * 2 - 1) * 1024));
}

/*
 * The colour buffer at CB_ADDR read back as a W x H texture of TXFORMAT
 * `txfmt` (point sampled, components in order): texel (x, y) of every
 * sampled pixel is `want` for its first `ncomp` components.
 */
static void tx_readback(Dev *d, uint32_t txfmt, unsigned ncomp,
                        const float *want)
{
    uint32_t *regs = g_new0(uint32_t, R300_MMIO_SIZE / 4);
    R300TexUnit *u = g_new0(R300TexUnit, 1);
    G3DFlatMem flat;
    G3DMem m;
    int x, y, px;
    unsigned k;

    g3d_flat_mem_init(&m, &flat, d->vram, 0, VRAM_SIZE);
    regs[A_TX_ENABLE / 4] = 1;
    regs[R300_TX_FILTER0(0) / 4] = 1u << 9 | 1u << 11;     /* point */
    regs[R300_TX_FORMAT0(0) / 4] = (W - 1) | (H - 1) << 11;
    /* R, G, B, A from components 0, 1, 2, 3 */
    regs[R300_TX_FORMAT1(0) / 4] = txfmt | 3u << 9 | 1u << 15 | 2u << 18;
    regs[R300_TX_OFFSET(0) / 4] = CB_ADDR;
    g_assert_true(r300_tx_load(u, regs, 0, &m));
    for (y = 1; y < H; y += 9) {
        for (x = 1; x < W; x += 11) {
            float coord[4][4] = { { 0 } }, out[4][4];
            for (px = 0; px < 4; px++) {
                coord[px][0] = (x + 0.5f) / W;
                coord[px][1] = (y + 0.5f) / H;
            }
            r300_tx_sample_quad(u, R300_US_TEX_LD,
                                (const float (*)[4])coord, out);
            for (k = 0; k < ncomp; k++) {
                g_assert_cmpfloat(fabsf(out[0][k] - want[k]), <, 1e-3);
            }
        }
    }
    r300_tx_release(u);
    g_free(u);
    g_free(regs);
}

/*
 * ARGB16161616 and ARGB32323232 targets: US_OUT_FMT says what the bits
 * are (C4_16, C4_16_FP, C2_32_FP; C4_32_FP), components C0..C3 from the
 * lowest address as TX reads them (test-r300-tx.c checks that side). So
 * for the 32- and 16-bit targets Mesa gives 16- and 32-bit components
 * (r300_texture.c: RG16, LA16 and RG16F as ARGB8888 with C2_16(_FP), R32F
 * as ARGB8888 with C_32_FP, R16 and R16F as UV88 with C_16(_FP); the
 * _SNORM ones with OUT_SIGN set). fbo-clear-formats' LUMINANCE16_ALPHA16
 * read 1/255 for 1.0 while ARGB8888 was packed as four bytes whatever
 * US_OUT_FMT said.
 */
static void test_wide_formats(void)
{
    static const float rgba[4] = { 0.25f, 0.5f, 0.75f, 1.0f };
    /* C0 = R, C1 = G, C2 = B, C3 = A */
    const uint32_t rgba_sel = 1u << 8 | 2u << 10 | 3u << 12;
    static const struct {
        uint32_t format, out_fmt;
        unsigned bytes, ncomp;
        uint32_t txfmt;             /* the TXFORMAT that reads it back */
    } cases[] = {
        { R300_COLOR_FORMAT_ARGB16161616, R300_US_OUT_FMT_C4_16, 8, 4,
          R300_TX_FMT_16_16_16_16 },
        { R300_COLOR_FORMAT_ARGB16161616, R300_US_OUT_FMT_C4_16_FP, 8, 4,
          R300_TX_FMT_16F_16F_16F_16F },
        { R300_COLOR_FORMAT_ARGB16161616, R300_US_OUT_FMT_C2_32_FP, 8, 2,
          R300_TX_FMT_32F_32F },
        { R300_COLOR_FORMAT_ARGB32323232, R300_US_OUT_FMT_C4_32_FP, 16, 4,
          R300_TX_FMT_32F_32F_32F_32F },
        { R300_COLOR_FORMAT_ARGB8888, R300_US_OUT_FMT_C2_16, 4, 2,
          R300_TX_FMT_16_16 },
        { R300_COLOR_FORMAT_ARGB8888, R300_US_OUT_FMT_C2_16 | 0xFu << 16,
          4, 2, 0 },
        { R300_COLOR_FORMAT_ARGB8888, R300_US_OUT_FMT_C2_16_FP, 4, 2,
          R300_TX_FMT_16F_16F },
        { R300_COLOR_FORMAT_ARGB8888, R300_US_OUT_FMT_C_32_FP, 4, 1,
          R300_TX_FMT_32F },
        { R300_COLOR_FORMAT_UV88, R300_US_OUT_FMT_C_16, 2, 1,
          R300_TX_FMT_16 },
        { R300_COLOR_FORMAT_UV88, R300_US_OUT_FMT_C_16_FP, 2, 1,
          R300_TX_FMT_16F },
    };
    unsigned n;

    for (n = 0; n < G_N_ELEMENTS(cases); n++) {
        Dev *d = dev_new(2);
        static uint32_t buf[64];
        R300Cmd c;
        unsigned size = cases[n].bytes / cases[n].ncomp, k, errs;
        int x, y, pass;

        r300_rig_ring_init(d);
        memset(d->vram + CB_ADDR, 0xAB, cases[n].bytes * W * H + 64);
        setup(d, cases[n].format, false);
        for (pass = 0; pass < 2; pass++) {
            /* pass 1: C3 masked off and blending on (R300 cannot blend
             * these: logged, written unblended) */
            r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
            r300_cmd_reg(&c, A_US_OUT_FMT_0, cases[n].out_fmt | rgba_sel);
            if (pass) {
                r300_cmd_reg(&c, A_RB3D_COLOR_CHANNEL_MASK, 0x7);
                r300_cmd_reg(&c, A_RB3D_BLENDCNTL,
                             R_RB3D_BLENDCNTL_ALPHA_BLEND_ENABLE_MASK);
            }
            r300_rig_ring_run(d, buf, c.n);
            if (pass) {
                memset(d->vram + CB_ADDR, 0xAB, cases[n].bytes * W * H);
            }
            errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
            draw_full(d, 0, rgba[0], rgba[1], rgba[2], rgba[3]);
            g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==,
                             errs + pass);
            for (y = 0; y < H; y += 7) {
                for (x = 0; x < W; x += 5) {
                    const uint8_t *p = d->vram + CB_ADDR +
                                       cases[n].bytes * (y * W + x);
                    for (k = 0; k < cases[n].ncomp; k++) {
                        uint32_t got = 0;
                        memcpy(&got, p + k * size, size);
                        if (pass && k == 3) {
                            g_assert_cmphex(got, ==,
                                            0xABABABABu >> (32 - 8 * size));
                        } else if (size == 4) {
                            float f;
                            memcpy(&f, &got, 4);
                            g_assert_cmpfloat(fabs(f - rgba[k]), <, 1e-4);
                        } else if (cases[n].out_fmt >> 16) {
                            /* OUT_SIGN: signed normalised, 1 ulp */
                            g_assert_cmpint(abs((int)got -
                                                (int)floor(rgba[k] * 32767.0 +
                                                           0.5)), <=, 1);
                        } else if (cases[n].out_fmt == R300_US_OUT_FMT_C4_16 ||
                                   cases[n].out_fmt == R300_US_OUT_FMT_C2_16 ||
                                   cases[n].out_fmt == R300_US_OUT_FMT_C_16) {
                            /* the interpolated colour may be 1 ulp off */
                            g_assert_cmpint(abs((int)got -
                                                (int)floor(rgba[k] * 65535.0 +
                                                           0.5)), <=, 1);
                        } else {
                            g_assert_cmpint(abs((int)got -
                                                (int)ref_half(rgba[k])), <=, 1);
                        }
                    }
                }
            }
            /* nothing past the surface */
            g_assert_cmphex(d->vram[CB_ADDR + cases[n].bytes * W * H], ==,
                            0xAB);
            if (!pass && cases[n].txfmt) {
                /* TX samples what RB3D wrote */
                tx_readback(d, cases[n].txfmt, cases[n].ncomp, rgba);
            }
        }
        r300_rig_free(d);
    }
}

/*
 * US_OUT_FMT.OUT_SIGN with C4_8: "whether components C3, C2, C1 and C0 are
 * signed" (R3xx register reference, US_OUT_FMT); Mesa sets all four for
 * its _SNORM targets (r300_texture.c r300_translate_out_fmt,
 * uniform_sign). 0.25, 0.6, 0.75, 1.0 are 32, 76, 95, 127 of 127 (not
 * 64, 153, 191, 255); the 8-bit I8 target (R8_SNORM) the same in C2.
 */
static void test_snorm8(void)
{
    static const struct {
        uint32_t format, sel;
        unsigned bpp;
        uint32_t want;
    } cases[] = {
        { R300_COLOR_FORMAT_ARGB8888, 1u << 8 | 2u << 10 | 3u << 12, 4,
          0x7F5F4C20 },
        /* R8_SNORM: C2 = R, the byte I8 stores */
        { R300_COLOR_FORMAT_I8, 1u << 12, 1, 0x20 },
    };
    unsigned n;

    for (n = 0; n < G_N_ELEMENTS(cases); n++) {
        static uint32_t buf[64];
        Dev *d = dev_new(2);
        R300Cmd c;
        int x, y;

        r300_rig_ring_init(d);
        setup(d, cases[n].format, false);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_reg(&c, A_US_OUT_FMT_0,
                     R300_US_OUT_FMT_C4_8 | cases[n].sel | 0xFu << 16);
        r300_rig_ring_run(d, buf, c.n);
        draw_full(d, 0, 0.25f, 0.6f, 0.75f, 1.0f);
        for (y = 0; y < H; y += 7) {
            for (x = 0; x < W; x += 5) {
                uint32_t got = 0;
                memcpy(&got, d->vram + CB_ADDR + cases[n].bpp * (y * W + x),
                       cases[n].bpp);
                g_assert_cmphex(got, ==, cases[n].want);
            }
        }
        r300_rig_free(d);
    }
}

/*
 * RB3D_DITHER_CTL into ARGB4444: 0.52 * 15 = 7.8 truncates to 7, rounds to
 * 8; DITHER_MODE for R, G, B, ALPHA_DITHER_MODE for A. LUT dither has no
 * public table: logged as unimplemented and rounded; mode 3 is reserved.
 */
static void test_dither_modes(void)
{
    static const struct {
        uint32_t ctl;
        unsigned rgb, a, unimp, err;
    } cases[] = {
        { 0x0, 7, 7, 0, 0 }, { 0x1, 8, 7, 0, 0 }, { 0x4, 7, 8, 0, 0 },
        { 0x5, 8, 8, 0, 0 }, { 0x2, 8, 7, 1, 0 }, { 0x3, 7, 7, 0, 1 },
    };
    unsigned n;

    for (n = 0; n < G_N_ELEMENTS(cases); n++) {
        Dev *d = dev_new(1);
        static uint32_t buf[64];
        R300Cmd c;
        unsigned unimp, err;
        uint16_t p;

        r300_rig_ring_init(d);
        setup(d, R300_COLOR_FORMAT_ARGB4444, false);
        r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
        r300_cmd_reg(&c, A_RB3D_DITHER_CTL, cases[n].ctl);
        r300_rig_ring_run(d, buf, c.n);
        unimp = g3d_log_count(G3D_LOG_UNIMP);
        err = g3d_log_count(G3D_LOG_GUEST_ERROR);
        draw_full(d, 0, 0.52f, 0.52f, 0.52f, 0.52f);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_UNIMP), ==,
                         unimp + cases[n].unimp);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==,
                         err + cases[n].err);
        memcpy(&p, d->vram + CB_ADDR + 2 * (20 * W + 30), 2);
        g_assert_cmphex(p, ==, cases[n].a << 12 | cases[n].rgb << 8 |
                               cases[n].rgb << 4 | cases[n].rgb);
        r300_rig_free(d);
    }
}

/*
 * Multisampling: GB_AA_CONFIG 4 samples at Mesa's 4x positions (r300_emit.c,
 * 1/12 pixel), each sample covered where the test's own edge functions say
 * it is inside the triangle, stored as pixel (4x + k, y); then the AA
 * resolve into a separate buffer: the mean of the samples (gamma 1.0 and
 * 2.2), alpha from sample 0 or averaged.
 */
#define MS_N 4
#define RESOLVE_ADDR (CB_ADDR + 0x40000u)

static const unsigned ms_pos[MS_N][2] = { { 4, 4 }, { 8, 8 }, { 2, 10 },
                                          { 10, 2 } };

/* -1 outside, 1 inside, 0 within `margin` pixels of an edge */
static int ms_inside(const double (*v)[2], double px, double py)
{
    double a = (v[1][0] - v[0][0]) * (v[2][1] - v[0][1]) -
               (v[1][1] - v[0][1]) * (v[2][0] - v[0][0]);
    int k, in = 1;

    for (k = 0; k < 3; k++) {
        const double *p0 = v[(k + 1) % 3], *p1 = v[(k + 2) % 3];
        double e = ((p1[0] - p0[0]) * (py - p0[1]) -
                    (p1[1] - p0[1]) * (px - p0[0])) / (a > 0 ? 1 : -1);
        double len = hypot(p1[0] - p0[0], p1[1] - p0[1]);
        if (fabs(e / len) < 0.02) {
            in = 0;
        } else if (e < 0) {
            return -1;
        }
    }
    return in;
}

/*
 * The triangle into 4x multisampled target 0, then a resolve draw. With
 * `depth`: Z per sample too, and a transparent black screen-filling
 * triangle behind the first one drawn after it, which must land on exactly
 * the samples the first one left uncovered.
 */
static void ms_draw(Dev *d, uint32_t resolve_ctl, bool depth)
{
    /* window (10, 5), (80, 20), (30, 60): clip x = wx / 48 - 1, y = 1 - wy / 32 */
    static const float tri[3 * 8] = {
        10.0f / 48 - 1, 1 - 5.0f / 32, 0, 1, 1, 1, 1, 0.6f,
        80.0f / 48 - 1, 1 - 20.0f / 32, 0, 1, 1, 1, 1, 0.6f,
        30.0f / 48 - 1, 1 - 60.0f / 32, 0, 1, 1, 1, 1, 0.6f,
    };
    static uint32_t buf[64];
    uint32_t ms0 = 0, ms1 = 0;
    R300Cmd c;
    unsigned k;

    for (k = 0; k < 6; k++) {
        const unsigned *p = ms_pos[k < MS_N ? k : MS_N - 1];
        uint32_t nib = p[0] | p[1] << 4;
        if (k < 3) {
            ms0 |= nib << (8 * k);
        } else {
            ms1 |= nib << (8 * (k - 3));
        }
    }
    memset(d->vram + CB_ADDR, 0, 4 * W * H * MS_N);
    memset(d->vram + RESOLVE_ADDR, 0x55, 4 * W * H + 64);
    /* Z cleared to the far plane, stencil 0 */
    memset(d->vram + ZB_ADDR, 0xFF, 4 * W * H * MS_N);
    for (k = 0; k < W * H * MS_N; k++) {
        d->vram[ZB_ADDR + 4 * k] = 0;
    }
    setup(d, R300_COLOR_FORMAT_ARGB8888, depth);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_GB_AA_CONFIG, R_GB_AA_CONFIG_AA_ENABLE_MASK |
                 2u << R_GB_AA_CONFIG_NUM_AA_SUBSAMPLES_SHIFT);
    r300_cmd_reg(&c, A_GB_MSPOS0, ms0);
    r300_cmd_reg(&c, A_GB_MSPOS1, ms1);
    r300_rig_ring_run(d, buf, c.n);
    draw(d, R300_PRIM_TRIANGLES, tri, 3);
    if (depth) {
        draw_full(d, 0.5f, 0, 0, 0, 0);     /* transparent black, behind */
    }
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_CNTL, 0);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_OFFSET, RESOLVE_ADDR);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_PITCH, W);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, resolve_ctl);
    r300_rig_ring_run(d, buf, c.n);
    draw_full(d, 0, 0, 0, 0, 0);
}

static void test_msaa_resolve(void)
{
    static const double v[3][2] = { { 10, 5 }, { 80, 20 }, { 30, 60 } };
    /* gamma 1.0; gamma 2.2; alpha averaged; gamma 1.0 with Z */
    static const uint32_t ctls[4] = { 1, 1 | 2, 1 | 4, 1 };
    const uint32_t z_tri = (uint32_t)floor(0.5 * 16777215.0 + 0.5);
    const uint32_t z_behind = (uint32_t)floor(0.75 * 16777215.0 + 0.5);
    unsigned n, checked[MS_N + 1] = { 0 };

    for (n = 0; n < G_N_ELEMENTS(ctls); n++) {
        Dev *d = dev_new(2);
        bool depth = n == 3;
        int x, y;

        r300_rig_ring_init(d);
        ms_draw(d, ctls[n], depth);
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                unsigned k, covered = 0, ch;
                bool clear = true;
                uint32_t got;
                for (k = 0; k < MS_N; k++) {
                    int in = ms_inside(v, x + ms_pos[k][0] / 12.0,
                                       y + ms_pos[k][1] / 12.0);
                    uint32_t sp;
                    memcpy(&sp, d->vram + CB_ADDR +
                           4 * ((size_t)y * W * MS_N + x * MS_N + k), 4);
                    if (in == 0) {
                        clear = false;
                        continue;
                    }
                    /* white, alpha 0.6 (153) where covered */
                    g_assert_cmphex(sp, ==, in > 0 ? 0x99FFFFFFu : 0);
                    covered += in > 0;
                    if (depth) {
                        uint32_t z;
                        memcpy(&z, d->vram + ZB_ADDR +
                               4 * ((size_t)y * W * MS_N + x * MS_N + k), 4);
                        /* the float depth path may be 1 off */
                        g_assert_cmpint(abs((int)(z >> 8) -
                                            (int)(in > 0 ? z_tri : z_behind)),
                                        <=, 1);
                    }
                }
                if (!clear) {
                    continue;
                }
                memcpy(&got, d->vram + RESOLVE_ADDR + 4 * (y * W + x), 4);
                for (ch = 0; ch < 3; ch++) {
                    unsigned want = n == 1
                        ? (unsigned)floor(pow(covered / (double)MS_N, 1 / 2.2) *
                                          255 + 0.5)
                        : (covered * 255 + MS_N / 2) / MS_N;
                    g_assert_cmpuint((got >> (8 * ch)) & 0xFF, ==, want);
                }
                /* alpha: sample 0's, or the mean with AARESOLVE_ALPHA */
                {
                    int in0 = ms_inside(v, x + ms_pos[0][0] / 12.0,
                                        y + ms_pos[0][1] / 12.0);
                    unsigned want = n == 2 ? (covered * 153 + MS_N / 2) / MS_N
                                           : (in0 > 0 ? 153 : 0);
                    g_assert_cmpuint(got >> 24, ==, want);
                }
                checked[covered]++;
            }
        }
        /* nothing past the resolve target */
        g_assert_cmphex(d->vram[RESOLVE_ADDR + 4 * W * H], ==, 0x55);
        r300_rig_free(d);
    }
    /* every coverage count occurred: partial pixels along the edges */
    for (n = 0; n <= MS_N; n++) {
        g_assert_cmpuint(checked[n], >, 0);
    }
}

/*
 * Bad surface state: a reserved ZB_FORMAT, resolve mode without
 * multisampling, a resolve target outside memory: each draw is logged and
 * skipped, nothing is written.
 */
static void test_bad_targets(void)
{
    Dev *d = dev_new(1);
    static uint32_t buf[64];
    R300Cmd c;
    unsigned errs;
    int i;

    r300_rig_ring_init(d);
    setup(d, R300_COLOR_FORMAT_ARGB8888, true);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_ZB_FORMAT, 3);
    r300_rig_ring_run(d, buf, c.n);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);

    setup(d, R300_COLOR_FORMAT_ARGB8888, false);
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_OFFSET, RESOLVE_ADDR);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_PITCH, W);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_CTL, 1);
    r300_rig_ring_run(d, buf, c.n);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    /* a resolve target past the end of VRAM */
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_GB_AA_CONFIG, R_GB_AA_CONFIG_AA_ENABLE_MASK);
    r300_cmd_reg(&c, A_RB3D_AARESOLVE_OFFSET, VRAM_SIZE - 256);
    r300_rig_ring_run(d, buf, c.n);
    errs = g3d_log_count(G3D_LOG_GUEST_ERROR);
    draw(d, R300_PRIM_TRIANGLES, gouraud, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errs + 1);
    for (i = 0; i < 4 * W * H * 2; i++) {
        g_assert_cmpuint(d->vram[CB_ADDR + i], ==, 0);
    }
    for (i = 0; i < 256; i++) {
        g_assert_cmpuint(d->vram[VRAM_SIZE - 256 + i], ==, 0);
    }
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

/* A packet whose body runs past the ring's end continues at its start. */
static void test_cp_ring_wrap(void)
{
    Dev *d = dev_new(1);
    uint32_t dwords, pad[256], cmd[5], k, left;

    r300_rig_ring_init(d);
    dwords = r300_rig_ring_size(d) / 4;
    for (k = 0; k < G_N_ELEMENTS(pad); k++) {
        pad[k] = R300_PACKET2;
    }
    /* Type-2 fillers up to two dwords before the end */
    for (left = dwords - 2 - r300_rig_rd(d, A_CP_RB_WPTR); left; ) {
        uint32_t n = MIN(left, G_N_ELEMENTS(pad));
        r300_rig_ring_run(d, pad, n);
        left -= n;
    }
    g_assert_cmpuint(r300_rig_rd(d, A_CP_RB_WPTR), ==, dwords - 2);
    /* header and one value before the end, three values after it */
    cmd[0] = R300_PACKET0(R300_SCRATCH_REG(0), 3);
    for (k = 0; k < 4; k++) {
        cmd[1 + k] = 0x5C0000u + k;
    }
    r300_rig_ring_run(d, cmd, 5);
    for (k = 0; k < 4; k++) {
        g_assert_cmphex(r300_rig_rd(d, R300_SCRATCH_REG(k)), ==, 0x5C0000u + k);
    }
    g_assert_cmpuint(r300_rig_rd(d, A_CP_RB_WPTR), ==, 3);
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

/*
 * A draw's front end on the render threads (vap.c assemble_parallel):
 * random meshes of every triangle primitive type, immediate, from vertex
 * arrays and through indices in the GART, clipped, culled and
 * depth-tested, give the same colour and depth bytes and the same guest
 * errors with 1, 2 and 3 render threads. Some indexed draws reach an
 * unmapped GART page part way: the draw runs again serially, which logs
 * the error once and draws the triangles before it.
 */
#define FT_POS  0x1000u             /* GART offsets: positions, colours, */
#define FT_COL  0x2000u             /* indices; page 3 maps nowhere */
#define FT_IDX  0x3000u
#define FT_MAXV 200

static uint32_t ft_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float ft_unit(uint32_t *s)
{
    return (ft_rand(s) & 0xFFFF) / 65535.0f;
}

static void ft_draw(Dev *d, uint32_t seed)
{
    static const uint32_t prims[] = {
        R300_PRIM_TRIANGLES, R300_PRIM_TRIANGLE_STRIP, R300_PRIM_TRIANGLE_FAN,
        R300_PRIM_QUADS, R300_PRIM_QUAD_STRIP, R300_PRIM_POLYGON,
    };
    static float v[FT_MAXV * 8];
    static uint32_t buf[FT_MAXV * 8 + 64];
    uint32_t s = seed, prim = prims[ft_rand(&s) % 6];
    uint32_t n = 32 + ft_rand(&s) % (FT_MAXV - 32), kind = ft_rand(&s) % 3;
    uint32_t *pt = (uint32_t *)d->sysram, i;
    uint16_t *idx = (uint16_t *)(d->sysram + FT_IDX);
    R300Cmd c;

    for (i = 0; i < n; i++) {
        float w = 0.5f + 1.5f * ft_unit(&s);
        float *p = v + 8 * i;

        p[0] = (ft_unit(&s) * 2.6f - 1.3f) * w;
        p[1] = (ft_unit(&s) * 2.6f - 1.3f) * w;
        p[2] = (ft_unit(&s) * 1.4f - 0.2f) * w;
        p[3] = w;
        p[4] = ft_unit(&s), p[5] = ft_unit(&s);
        p[6] = ft_unit(&s), p[7] = ft_unit(&s);
        memcpy(d->sysram + FT_POS + 16 * i, p, 16);
        memcpy(d->sysram + FT_COL + 16 * i, p + 4, 16);
    }
    pt[1] = 0x1000, pt[2] = 0x2000, pt[3] = 0x3000;
    r300_rig_cmd_begin(&c, buf, G_N_ELEMENTS(buf));
    r300_cmd_reg(&c, A_SU_CULL_MODE, ft_rand(&s) % 8);
    /* without the depth test the triangles' order shows */
    r300_cmd_reg(&c, A_ZB_CNTL, ft_rand(&s) % 2 ? 0 :
                 R_ZB_CNTL_Z_ENABLE_MASK | R_ZB_CNTL_ZWRITEENABLE_MASK);
    if (kind == 0) {
        r300_cmd_draw(&c, prim, v, n);
    } else {
        /* two arrays of 4 floats, stride 4 dwords */
        r300_cmd_dw(&c, R300_PACKET3(R300_PKT3_3D_LOAD_VBPNTR, 3));
        r300_cmd_dw(&c, 2);
        r300_cmd_dw(&c, 4 | 4 << 8 | 4u << 16 | 4u << 24);
        r300_cmd_dw(&c, GART_BASE + FT_POS);
        r300_cmd_dw(&c, GART_BASE + FT_COL);
        r300_cmd_reg(&c, A_VAP_VF_MIN_VTX_INDX, 0);
        /* an index past the arrays' last page now and then */
        r300_cmd_reg(&c, A_VAP_VF_MAX_VTX_INDX, 1024);
    }
    if (kind == 1) {
        r300_cmd_dw(&c, R300_PACKET3(R300_PKT3_3D_DRAW_VBUF_2, 0));
        r300_cmd_dw(&c, prim | R300_PRIM_WALK_LIST << 4 | n << 16);
    } else if (kind == 2) {
        bool bad = ft_rand(&s) % 4 == 0;

        for (i = 0; i < n; i++) {
            idx[i] = ft_rand(&s) % n;
        }
        if (bad) {
            idx[n / 2 + ft_rand(&s) % (n / 2)] = 900;   /* past GART page 3 */
        }
        r300_cmd_dw(&c, R300_PACKET3(R300_PKT3_3D_DRAW_INDX_2, 0));
        r300_cmd_dw(&c, prim | R300_PRIM_WALK_INDICES << 4 | n << 16);
        r300_cmd_dw(&c, R300_PACKET3(R300_PKT3_INDX_BUFFER, 2));
        r300_cmd_dw(&c, R300_PM4_PKT0_ONE_REG_WR << 16 |
                        A_VAP_PORT_IDX_0 >> 2);
        r300_cmd_dw(&c, GART_BASE + FT_IDX);
        r300_cmd_dw(&c, (n + 1) / 2);
    }
    r300_cmd_finish(&c);
    g_assert_false(c.overflow);
    r300_rig_ring_run(d, buf, c.n);
}

static void test_front_threads(void)
{
    Dev *devs[3];
    unsigned errs[3], bad = 0;
    uint32_t seed;
    int i;

    for (i = 0; i < 3; i++) {
        uint32_t *pt;

        devs[i] = dev_new(i + 1);
        pt = (uint32_t *)devs[i]->sysram;
        memset(devs[i]->sysram, 0, sizeof(devs[i]->sysram));
        r300_rig_ring_init(devs[i]);
        setup(devs[i], R300_COLOR_FORMAT_ARGB8888, true);
        pt[0] = 0;
        r300_rig_wr(devs[i], A_AIC_PT_BASE, 0);
        r300_rig_wr(devs[i], A_AIC_LO_ADDR, GART_BASE);
        r300_rig_wr(devs[i], A_AIC_HI_ADDR, GART_BASE + 4 * 4096 - 1);
        r300_rig_wr(devs[i], A_AIC_CNTL, R_AIC_CNTL_PCIGART_TRANSLATE_EN_MASK);
        r300_rig_wr(devs[i], A_ZB_ZSTENCILCNTL, R300_ZS_LESS);
    }
    for (seed = 1; seed <= 60; seed++) {
        for (i = 0; i < 3; i++) {
            errs[i] = g3d_log_count(G3D_LOG_GUEST_ERROR);
            ft_draw(devs[i], seed * 0x9E3779B9u);
            errs[i] = g3d_log_count(G3D_LOG_GUEST_ERROR) - errs[i];
        }
        g_assert_cmpuint(errs[1], ==, errs[0]);
        g_assert_cmpuint(errs[2], ==, errs[0]);
        bad += errs[0];
        for (i = 1; i < 3; i++) {
            g_assert_cmpmem(devs[i]->vram + CB_ADDR, 4 * W * H,
                            devs[0]->vram + CB_ADDR, 4 * W * H);
            g_assert_cmpmem(devs[i]->vram + ZB_ADDR, 4 * W * H,
                            devs[0]->vram + ZB_ADDR, 4 * W * H);
        }
    }
    /* some draws failed part way; the threads did set the others up */
    g_assert_cmpuint(bad, >, 2);
    g_assert_cmpuint(r300_parallel_draws(devs[0]->core), ==, 0);
    g_assert_cmpuint(r300_parallel_draws(devs[1]->core), >, 20);
    g_assert_cmpuint(r300_parallel_draws(devs[2]->core), >, 20);
    for (i = 0; i < 3; i++) {
        r300_rig_free(devs[i]);
    }
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
    g_test_add_func("/r300/core/surface-cpu-view", test_surface_cpu_view);
    g_test_add_func("/r300/core/port-draw", test_port_draw);
    g_test_add_func("/r300/core/shared-edge", test_shared_edge);
    g_test_add_func("/r300/core/depth", test_depth);
    g_test_add_func("/r300/core/depth-face-on", test_depth_face_on);
    g_test_add_func("/r300/core/two-sided-colour", test_two_sided_colour);
    g_test_add_func("/r300/core/cbzb-clear", test_cbzb_clear);
    g_test_add_func("/r300/core/rgb565", test_rgb565);
    g_test_add_func("/r300/core/multiwrite", test_multiwrite);
    g_test_add_func("/r300/core/i8-uv88", test_i8_uv88);
    g_test_add_func("/r300/core/depth-13e3", test_depth_13e3);
    g_test_add_func("/r300/core/wide-formats", test_wide_formats);
    g_test_add_func("/r300/core/snorm8", test_snorm8);
    g_test_add_func("/r300/core/dither-modes", test_dither_modes);
    g_test_add_func("/r300/core/msaa-resolve", test_msaa_resolve);
    g_test_add_func("/r300/bad/targets", test_bad_targets);
    g_test_add_func("/r300/core/cp", test_cp_features);
    g_test_add_func("/r300/core/cp-ring-wrap", test_cp_ring_wrap);
    g_test_add_func("/r300/core/threads", test_threads);
    g_test_add_func("/r300/core/front-threads", test_front_threads);
    g_test_add_func("/r300/core/gart-arrays", test_gart_arrays);
    g_test_add_func("/r300/core/gart-colour-buffer", test_gart_colour_buffer);
    g_test_add_func("/r300/bad/ring", test_bad_ring);
    g_test_add_func("/r300/bad/draws", test_bad_draws);
    return g_test_run();
}
