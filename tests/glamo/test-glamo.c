/*
 * Unit tests of the glamo-3d core: register reset values and masks, the
 * number formats and 32-bit L/H halves, the fire sequence and status bits,
 * a command-queue ring that draws Gouraud depth-tested triangles checked
 * pixel by pixel through the LCD scan-out, the vertex streams, bad input,
 * and the reference scene against Mesa llvmpipe.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/fragment.h"
#include "rig.h"
#include "scene.h"
#include "image.h"
#include "../float-sweep.h"

#define FB      0x000000
#define ZB      0x040000
#define FB2     0x080000
#define VB      0x100000
#define RING    0x200000
#define RINGSZ  0x4000

static unsigned errors(void)
{
    return g3d_log_count(G3D_LOG_GUEST_ERROR);
}

/* a core with its 3D clocks running, and the command queue set up */
static void start(GlamoRig *r, bool cmdq)
{
    rig_init(r, 1);
    rig_enable_3d(r);
    if (cmdq) {
        rig_cmdq_init(r, RING, RINGSZ);
    }
}

/* ---- registers ---------------------------------------------------------- */

static void test_reset_values(void)
{
    GlamoRig r;

    rig_init(&r, 1);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_DEVICE_ID), ==, GLAMO_CHIP_ID);
    /* the reference's stated defaults (L3071, L3381, L2411, L2505) */
    g_assert_cmphex(rig_r32(&r, A_EGTX0SET), ==, 0x00030000);
    g_assert_cmphex(rig_r32(&r, A_EGTX1SET), ==, 0x00030000);
    g_assert_cmphex(rig_r32(&r, A_EGEN0), ==, 0);
    g_assert_cmphex(rig_r32(&r, A_EGEN1), ==, 0);
    g_assert_cmphex(rig_r32(&r, A_EGTXBLDFACT0), ==, 0);
    /* an idle engine: every idle bit set, draw direction 0 */
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA), ==, GLAMO_EGSTATUSA_ALL_IDLE);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 7, ==, 7);

    /* a CLOCK_3D back reset puts the back end's registers back */
    rig_w32(&r, A_EGTX0SET, 0x12345678);
    rig_w32(&r, A_RGXScaleX, 0x00abcdef);
    rig_w16(&r, A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_BACK_RESET);
    g_assert_cmphex(rig_r32(&r, A_EGTX0SET), ==, 0x00030000);
    g_assert_cmphex(rig_r32(&r, A_RGXScaleX), ==, 0x00abcdef);  /* front */
    glamo_core_reset(r.core);
    g_assert_cmphex(rig_r32(&r, A_RGXScaleX), ==, 0);
    rig_free(&r);
}

static void test_masks(void)
{
    static const struct { uint32_t reg, mask; } m[] = {
        { A_RGPXa, 0xffffffff }, { 0x1b1c, 0 }, { A_EGSXst, 0x800fffff },
        { A_EGSYcnt, 0x01ff01ff }, { A_MGVStrm0Desc, 0x00ff037f },
        { A_MGVStrm0BAS, 0x007fffff }, { A_EGEN0, 0xff7fffff },
        { A_EGEN1, 0xf7ffff03 }, { A_EGCLTB, 0x03ff03ff },
        { A_EGBLSET, 0x7f1ff1ff }, { A_EGBLCst, 0xfcf8fcf8 },
        { A_EGTX0SIZE, 0xdf1ff1ff }, { GLAMO_TX_BASE(1) + GLAMO_TX_SIZE, 0xf71ff1ff },
        { A_EGTX0L0BAS, 0x007ffffe }, { A_RGXFEN3, 0xdfd9fe00 },
        { A_RGXFEN4, 0x0f0f7f30 }, { GLAMO_RGXR0T1MAT(3, 3), 0x00ffffff },
        { A_RGXMATSRC, 0xfffcf300 }, { 0x2b2c, 0xff }, { 0x2bb0, 0 },
        { A_EGTXCBS0ARG, 0x7fffffff }, { 0x2800, 0 },
    };
    GlamoRig r;
    size_t i;

    rig_init(&r, 1);
    for (i = 0; i < G_N_ELEMENTS(m); i++) {
        rig_w32(&r, m[i].reg, 0xffffffff);
        g_assert_cmphex(rig_r32(&r, m[i].reg), ==, m[i].mask);
        rig_w32(&r, m[i].reg, 0);
        g_assert_cmphex(rig_r32(&r, m[i].reg), ==, 0);
    }
    /* the lights are Type W: written, but read as 0 */
    rig_w32(&r, GLAMO_LIGHT(7) + GLAMO_L_DIFF, 0x3f0000);
    g_assert_cmphex(rig_r32(&r, GLAMO_LIGHT(7) + GLAMO_L_DIFF), ==, 0);
    /* status registers ignore writes */
    rig_w16(&r, A_EGSTATUSA, 0);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA), ==, GLAMO_EGSTATUSA_ALL_IDLE);
    rig_free(&r);
}

static void test_halves(void)
{
    GlamoRig r;

    rig_init(&r, 1);
    /* a 32-bit value is D[15:0] at n and D[31:16] at n + 2 (L415-L416) */
    rig_w16(&r, A_RGPXa, 0x5678);
    rig_w16(&r, A_RGPXa + 2, 0x1234);
    g_assert_cmphex(rig_r32(&r, A_RGPXa), ==, 0x12345678);
    g_assert_cmphex(glamo_reg_read(r.core, A_RGPXa, 4), ==, 0x12345678);
    /* bytes: the even address holds D[7:0] (L410) */
    g_assert_cmphex(glamo_reg_read(r.core, A_RGPXa + 1, 1), ==, 0x56);
    glamo_reg_write(r.core, A_RGPXa + 3, 0xab, 1);
    g_assert_cmphex(rig_r32(&r, A_RGPXa), ==, 0xab345678);
    /* a 4-byte bus access is the two halves */
    glamo_reg_write(r.core, A_EGCLLR, 0x00050123, 4);
    g_assert_cmphex(rig_r16(&r, A_EGCLLR), ==, 0x0123);
    g_assert_cmphex(rig_r16(&r, A_EGCLLR + 2), ==, 0x0005);
    rig_free(&r);
}

/* glamo_f24_round's bit path equals the round trip through s[7].16 */
static float f24_round_ref(float f)
{
    return glamo_f24_to_float(glamo_f24_from_float(f));
}

static void test_f24_round(void)
{
    float_sweep(glamo_f24_round, f24_round_ref);
}

static void test_f24(void)
{
    /* s[7].16: sign D23, exponent D22:16 biased by 63, 16-bit mantissa */
    g_assert_cmphex(glamo_f24_from_float(1.0f), ==, 0x3f0000);
    g_assert_cmphex(glamo_f24_from_float(-2.5f), ==, 0xc04000);
    g_assert_cmphex(glamo_f24_from_float(0.0f), ==, 0);
    g_assert_cmphex(glamo_f24_from_float(0.75f), ==, 0x3e8000);
    /* round to nearest, ties to even */
    g_assert_cmphex(glamo_f24_from_float(1.0f + ldexpf(1, -17)), ==, 0x3f0000);
    g_assert_cmphex(glamo_f24_from_float(1.0f + 3 * ldexpf(1, -18)), ==,
                    0x3f0001);
    g_assert_cmphex(glamo_f24_from_float(1.0f + 3 * ldexpf(1, -17)), ==,
                    0x3f0002);
    /* no infinities: the largest number; nothing below 2^-62 */
    g_assert_cmphex(glamo_f24_from_float(1e30f), ==, 0x7fffff);
    g_assert_cmphex(glamo_f24_from_float(-INFINITY), ==, 0xffffff);
    g_assert_cmphex(glamo_f24_from_float(1e-30f), ==, 0);
    g_assert_cmpfloat(glamo_f24_to_float(0x3f0000), ==, 1.0f);
    g_assert_cmpfloat(glamo_f24_to_float(0x400001), ==, 2.0f + ldexpf(1, -15));
    g_assert_cmpfloat(glamo_f24_to_float(0x7fffff), ==,
                      ldexpf(2.0f - ldexpf(1, -16), 64));
    /* every f24 value survives f24 -> float -> f24 */
    for (uint32_t b = 0x010000; b < 0x1000000; b += 0x1235) {
        if (((b >> 16) & 0x7f) == 0) {
            continue;           /* exponent 0 is zero: no denormals */
        }
        g_assert_cmphex(glamo_f24_from_float(glamo_f24_to_float(b)), ==, b);
    }
    /* the guests' freestanding encoder (gpu3d/glamo-cmd.h) is the same */
    for (uint32_t u = 0; u < 0xffffffffu - 0x10001; u += 0x10001) {
        float f;
        memcpy(&f, &u, 4);
        g_assert_cmphex(glamo_f24(f), ==, glamo_f24_from_float(f));
    }
    g_assert_cmphex(glamo_f24(-0.0f), ==, glamo_f24_from_float(-0.0f));
    g_assert_cmphex(glamo_f24(NAN), ==, glamo_f24_from_float(NAN));
    /* s[7].10 (fog registers) */
    g_assert_cmphex(glamo_f18_from_float(1.0f), ==, 0xfc00);
    g_assert_cmpfloat(glamo_f18_to_float(0xfc00 | 0x200), ==, 1.5f);
}

/* ---- drawing helpers ---------------------------------------------------- */

typedef struct SVert {
    float x, y, z;
    uint8_t r, g, b;
} SVert;

/* one vertex through the G/L input registers, fired by EGFIRE */
static void fire_vertex(GlamoRig *r, RigWrite32 *wr, const SVert *v)
{
    wr(r, A_RGPXa, rig_fbits(v->x));
    wr(r, A_RGPYa, rig_fbits(v->y));
    wr(r, A_RGPZa, rig_fbits(v->z));
    wr(r, A_RGPWa, rig_fbits(1.0f));
    wr(r, A_RGPDIFFa, 0xffu << 24 | v->r << 16 | v->g << 8 | v->b);
    wr(r, A_EGFIRE, 0);
}

static uint16_t px(GlamoRig *r, uint32_t fb, int pitch, int x, int y)
{
    const uint8_t *p = r->vram + fb + y * pitch + x * 2;
    return p[0] | p[1] << 8;
}

/*
 * The test's own rasteriser: sample at the pixel centre, vertices on a
 * 1/16 grid, top-left rule, barycentric colour and depth in double, Z16
 * LESS, 565 by rounding. Returns the expected 565 picture.
 */
static void expect_draw(uint16_t *img, uint16_t *zbuf, int w, int h,
                        const SVert *t)
{
    int64_t X[3], Y[3];
    int k, x, y;

    for (k = 0; k < 3; k++) {
        X[k] = llround(t[k].x * 16);
        Y[k] = llround(t[k].y * 16);
    }
    double area = (double)((X[1] - X[0]) * (Y[2] - Y[0]) -
                           (Y[1] - Y[0]) * (X[2] - X[0]));
    if (area == 0) {
        return;
    }
    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            int64_t sx = x * 16 + 8, sy = y * 16 + 8;
            double l[3];
            bool in = true;
            for (k = 0; k < 3; k++) {
                int a = (k + 1) % 3, b = (k + 2) % 3;
                int64_t dx = X[b] - X[a], dy = Y[b] - Y[a];
                int64_t e = dx * (sy - Y[a]) - dy * (sx - X[a]);
                bool top_left;
                if (area < 0) {
                    e = -e;
                    dx = -dx;
                    dy = -dy;
                }
                /* for the positive winding (y down): left edges go up,
                 * top edges run right (dy == 0, dx > 0) */
                top_left = (dy == 0 && dx > 0) || dy < 0;
                if (e < 0 || (e == 0 && !top_left)) {
                    in = false;
                }
                l[k] = (double)e / fabs(area);
            }
            if (!in) {
                continue;
            }
            double z = l[0] * t[0].z + l[1] * t[1].z + l[2] * t[2].z;
            uint16_t zq = (uint16_t)lround(fmin(fmax(z, 0), 1) * 65535);
            if (zbuf) {
                if (!(zq < zbuf[y * w + x])) {
                    continue;
                }
                zbuf[y * w + x] = zq;
            }
            double rr = (l[0] * t[0].r + l[1] * t[1].r + l[2] * t[2].r) / 255;
            double gg = (l[0] * t[0].g + l[1] * t[1].g + l[2] * t[2].g) / 255;
            double bb = (l[0] * t[0].b + l[1] * t[1].b + l[2] * t[2].b) / 255;
            img[y * w + x] = (uint16_t)(lround(rr * 31) << 11 |
                                        lround(gg * 63) << 5 | lround(bb * 31));
        }
    }
}

/* channels of two 565 pixels differ by at most one step */
static bool near565(uint16_t a, uint16_t b)
{
    return abs((a >> 11) - (b >> 11)) <= 1 &&
           abs(((a >> 5) & 63) - ((b >> 5) & 63)) <= 1 &&
           abs((a & 31) - (b & 31)) <= 1;
}

/* ---- the fire sequence -------------------------------------------------- */

static void test_fire(void)
{
    static const SVert tri[3] = {
        { 4, 4, 0.5f, 255, 0, 0 }, { 60, 8, 0.5f, 0, 255, 0 },
        { 20, 40, 0.5f, 0, 0, 255 },
    };
    GlamoRig r;
    int i;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 48, 0);
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < 3; i++) {
        fire_vertex(&r, rig_direct32, &tri[i]);
    }
    /* fired but not yet executed: busy, queue not empty */
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 3, ==, 0);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) &
                    GLAMO_CMDQ_STATUS_3D_BUSY, ==, GLAMO_CMDQ_STATUS_3D_BUSY);
    g_assert_cmphex(px(&r, FB, 128, 20, 15), ==, 0);
    /* one work unit takes the first fire: still busy */
    g_assert_true(glamo_core_work(r.core, 1));
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 1, ==, 0);
    rig_run(&r);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA), ==,
                    GLAMO_EGSTATUSA_ALL_IDLE |
                    (rig_r16(&r, A_EGSTATUSA) & R_EGSTATUSA_EGDRAWDIR_MASK));
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 0x27, ==, 0x07);
    g_assert_cmphex(px(&r, FB, 128, 20, 15), !=, 0);
    /* setup wrote the vertices it was handed (1C00h, s[7].16 precision) */
    g_assert_cmphex(rig_r32(&r, GLAMO_RGX_VTX(1) + GLAMO_RGX_X), ==,
                    rig_fbits(60.0f));
    g_assert_cmphex(rig_r32(&r, GLAMO_RGX_VTX(2) + GLAMO_RGX_ARGB), ==,
                    0xff0000ff);
    g_assert_cmphex(rig_r32(&r, A_EGSYst), ==, 4);

    /* EGSETFIRE = 00001: the write of RGPWa's high half fires */
    memset(r.vram, 0, 128 * 48);
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES | 1 << 8);
    for (i = 0; i < 3; i++) {
        rig_w32(&r, A_RGPXa, rig_fbits(tri[i].x));
        rig_w32(&r, A_RGPYa, rig_fbits(tri[i].y));
        rig_w32(&r, A_RGPZa, rig_fbits(0.5f));
        rig_w32(&r, A_RGPDIFFa, 0xffffffff);
        rig_w32(&r, A_RGPWa, rig_fbits(1.0f));
    }
    rig_run(&r);
    g_assert_cmphex(px(&r, FB, 128, 20, 15), ==, 0xffff);

    /* with the 3D clocks stopped, a fire waits and says so */
    rig_w16(&r, A_GLAMO_CLOCK_3D, 0);
    rig_w16(&r, A_EGFIRE, 0);
    g_assert_false(glamo_core_work(r.core, 16));
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 3, ==, 0);
    rig_w16(&r, A_GLAMO_CLOCK_3D, GLAMO_CLOCK_3D_RUN);
    rig_run(&r);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 3, ==, 3);
    rig_free(&r);
}

/* ---- a command-queue ring ----------------------------------------------- */

static void queue_triangles(GlamoRig *r, const SVert *t, int n)
{
    int i;

    rig_cmd_reg(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < n; i++) {
        uint32_t v[5] = { rig_fbits(t[i].x), rig_fbits(t[i].y),
                          rig_fbits(t[i].z), rig_fbits(1.0f), 0 };
        uint16_t words[8];
        int k;
        for (k = 0; k < 4; k++) {
            words[2 * k] = (uint16_t)v[k];
            words[2 * k + 1] = (uint16_t)(v[k] >> 16);
        }
        /* position as one burst, colour as register writes */
        rig_cmd_burst(r, A_RGPXa, words, 8);
        rig_cmd_reg32(r, A_RGPDIFFa, 0xffu << 24 | t[i].r << 16 |
                      t[i].g << 8 | t[i].b);
        rig_cmd_reg(r, A_EGFIRE, 0);
    }
    rig_cmd_reg(r, A_EGEND, 0);
}

static void test_cmdq_triangles(void)
{
    enum { W = 96, H = 64 };
    static const SVert tris[6] = {
        /* a large triangle at depth 0.25 .. 0.75 */
        { 3.3f, 2.1f, 0.25f, 255, 0, 0 }, { 90.6f, 10.4f, 0.75f, 0, 255, 0 },
        { 30.2f, 60.8f, 0.5f, 0, 0, 255 },
        /* a second one cutting through it, clockwise on screen */
        { 10.0f, 50.0f, 0.9f, 255, 255, 0 }, { 50.5f, 5.25f, 0.1f, 0, 255, 255 },
        { 85.0f, 55.0f, 0.4f, 255, 0, 255 },
    };
    uint16_t *want = g_new0(uint16_t, W * H), *zb = g_new(uint16_t, W * H);
    uint32_t argb[W * H];
    G3DScanout so;
    GlamoRig r;
    int i, bad = 0, drawn = 0;

    for (i = 0; i < W * H; i++) {
        zb[i] = 0xffff;
    }
    expect_draw(want, zb, W, H, &tris[0]);
    expect_draw(want, zb, W, H, &tris[3]);

    rig_init(&r, 2);
    rig_enable_3d(&r);
    rig_cmdq_init(&r, RING, RINGSZ);
    memset(r.vram + ZB, 0xff, W * H * 2);
    rig_target(&r, rig_cmd32, FB, W * 2, W, H, ZB);
    queue_triangles(&r, tris, 6);
    rig_cmd_submit(&r);
    rig_lcd(&r, FB, W * 2, W, H);

    /* queued: the command queue is not empty, nothing drawn yet */
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 3, !=, 3);
    g_assert_cmpuint(rig_r16(&r, A_GLAMO_CMDQ_READ_ADDRL), ==, 0);
    /* part of the way: the 3D engine is busy */
    glamo_core_work(r.core, 40);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) &
                    GLAMO_CMDQ_STATUS_3D_BUSY, ==, GLAMO_CMDQ_STATUS_3D_BUSY);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 1, ==, 0);
    rig_run(&r);
    /* the driver's idle waits (glamo_cmdq_wait) are satisfied */
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 0x23, ==, 0x03);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 0x04, ==, 0x04);
    g_assert_cmpuint(rig_r16(&r, A_GLAMO_CMDQ_READ_ADDRL), ==, r.wptr);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 0xff, ==, 0xff);

    /* the LCD shows the picture: checked against the test's own raster */
    g_assert_true(glamo_scanout(r.core, 0, &so));
    g_assert_cmpuint(so.width, ==, W);
    g_assert_cmpuint(so.height, ==, H);
    {
        G3DMem m;
        G3DFlatMem f;
        g3d_flat_mem_init(&m, &f, r.vram, 0, GLAMO_VRAM_SIZE);
        g_assert_true(g3d_scanout_copy(&so, &m, argb, W, "test"));
    }
    for (i = 0; i < W * H; i++) {
        uint16_t got = px(&r, FB, W * 2, i % W, i / W);
        if (want[i]) {
            drawn++;
        }
        if (argb[i] != rig_565_to_argb(got) ||
            (want[i] == 0) != (got == 0) || !near565(got, want[i])) {
            bad++;
        }
    }
    g_test_message("cmdq triangles: %d pixels drawn, %d differ from the "
                   "test's own rasteriser (coverage exact, colour +-1 step)",
                   drawn, bad);
    g_assert_cmpint(drawn, >, 2000);
    g_assert_cmpint(bad, ==, 0);
    g_free(want);
    g_free(zb);
    rig_free(&r);
}

/* ---- the reference scene ------------------------------------------------ */

/* draw the scene through the command queue; the picture as RGB */
static void draw_scene(int threads, G3DImage *img, GlamoStats *st,
                       bool textured)
{
    GlamoRig r;
    G3DScanout so;
    G3DMem m;
    G3DFlatMem f;
    uint32_t *argb = g_new(uint32_t, SCENE_W * SCENE_H);

    rig_init(&r, threads);
    rig_enable_3d(&r);
    rig_cmdq_init(&r, RING, RINGSZ);
    rig_scene_ex(&r, rig_cmd32, FB, ZB, VB, textured);
    rig_cmd_submit(&r);
    rig_lcd(&r, FB, SCENE_W * 2, SCENE_W, SCENE_H);
    rig_run(&r);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 0x27, ==, 0x07);
    g_assert_true(glamo_scanout(r.core, 0, &so));
    g3d_flat_mem_init(&m, &f, r.vram, 0, GLAMO_VRAM_SIZE);
    g_assert_true(g3d_scanout_copy(&so, &m, argb, SCENE_W, "test"));
    g_assert_true(g3d_image_alloc(img, SCENE_W, SCENE_H));
    g3d_image_from_argb(img, argb, SCENE_W);
    if (st) {
        glamo_stats(r.core, st);
    }
    g_free(argb);
    rig_free(&r);
}

static void compare_reference(const char *name, bool textured,
                              double min_psnr, int max_far)
{
    const char *src = g_getenv("GPU3D_SRCDIR");
    char *file = g_strdup_printf("%s.png", name);
    char *path = g_build_filename(src ? src : ".", "tests", "glamo", "ref",
                                  file, NULL);
    char *out = g_strdup_printf("glamo-%s", file);
    G3DImage got, ref;
    G3DImageDiff d;
    GlamoStats st;
    unsigned e0 = errors(), u0 = g3d_log_count(G3D_LOG_UNIMP);
    int i, k, far = 0;

    draw_scene(2, &got, &st, textured);
    g3d_image_save(&got, out);
    g_assert_cmpuint(errors(), ==, e0);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_UNIMP), ==, u0);
    g_assert_cmpuint(st.primitives, >=, textured ? 2 : 5);
    g_assert_true(g3d_image_load(&ref, path));
    g_assert_true(g3d_image_compare(&got, &ref, &d));
    /* pixels off by more than 6 RGB565 steps: edge coverage */
    for (i = 0; i < SCENE_W * SCENE_H; i++) {
        for (k = 0; k < 3; k++) {
            if (abs(got.rgb[3 * i + k] - ref.rgb[3 * i + k]) > 48) {
                far++;
                break;
            }
        }
    }
    g_test_message("%s vs llvmpipe: PSNR %.2f dB, %ld of %d pixels differ "
                   "(%d by more than 6 steps), max channel delta %d", name,
                   d.psnr, d.differing, SCENE_W * SCENE_H, far, d.max_delta);
    g_assert_cmpfloat(d.psnr, >=, min_psnr);
    g_assert_cmpint(far, <=, max_far);
    g3d_image_free(&got);
    g3d_image_free(&ref);
    g_free(path);
    g_free(file);
    g_free(out);
}

/*
 * Independent reference: Mesa llvmpipe (tools/glamo-refscene.c), same
 * matrices, Gouraud, GL_LESS on 16-bit depth, RGB565. Differences come
 * from the chip's screen-linear colour (GL interpolates perspective-
 * correct), its 1/16-pixel vertex grid (llvmpipe: 1/256) and the s[7].16
 * precision of its T&L.
 */
static void test_reference_scene(void)
{
    compare_reference("scene", false, 30.0, SCENE_W * SCENE_H / 200);
}

/* the same with texture 0 (RGB565, bilinear, wrap) through the combiner */
static void test_reference_textured(void)
{
    compare_reference("textured", true, 30.0, SCENE_W * SCENE_H / 200);
}

static void test_threads_identical(void)
{
    G3DImage a, b;
    G3DImageDiff d;

    draw_scene(1, &a, NULL, false);
    draw_scene(3, &b, NULL, false);
    g_assert_true(g3d_image_compare(&a, &b, &d));
    g_assert_cmpint(d.differing, ==, 0);
    g3d_image_free(&a);
    g3d_image_free(&b);
}

/* ---- vertex streams ----------------------------------------------------- */

static const SVert strip[4] = {
    { 5, 5, 0, 255, 0, 0 }, { 70, 8, 0, 0, 255, 0 },
    { 10, 40, 0, 0, 0, 255 }, { 60, 45, 0, 255, 255, 255 },
};

static void put32(GlamoRig *r, uint32_t a, uint32_t v)
{
    r->vram[a] = (uint8_t)v;
    r->vram[a + 1] = (uint8_t)(v >> 8);
    r->vram[a + 2] = (uint8_t)(v >> 16);
    r->vram[a + 3] = (uint8_t)(v >> 24);
}

static void test_streams(void)
{
    enum { W = 80, H = 50, PITCH = 2 * W };
    uint8_t *img[3];
    GlamoRig r;
    int path, i;

    for (path = 0; path < 3; path++) {
        rig_init(&r, 1);
        rig_enable_3d(&r);
        rig_target(&r, rig_direct32, FB, PITCH, W, H, 0);
        if (path == 0) {
            /* the register vertex path, triangle strip */
            rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLE_STRIP);
            for (i = 0; i < 4; i++) {
                fire_vertex(&r, rig_direct32, &strip[i]);
            }
        } else if (path == 1) {
            /* buffer mode: short x,y (z, w defaulted) + ubyte ARGB words */
            for (i = 0; i < 4; i++) {
                uint8_t *p = r.vram + VB + 8 * i;
                int16_t x = (int16_t)strip[i].x, y = (int16_t)strip[i].y;
                memcpy(p, &x, 2);
                memcpy(p + 2, &y, 2);
                put32(&r, VB + 8 * i + 4, 0xffu << 24 | strip[i].r << 16 |
                      strip[i].g << 8 | strip[i].b);
            }
            rig_w32(&r, A_MGVStreamActive, 0x3);
            rig_w32(&r, A_MGVStrmCtl, 1 << 8);
            rig_w32(&r, GLAMO_MGVSTRM_DESC(0), 8 << 16 | 1 << 8 |
                    GLAMO_VTYPE_SHORT << 4 | GLAMO_VARRAY_POSITION);
            rig_w32(&r, GLAMO_MGVSTRM_BAS(0), VB);
            rig_w32(&r, GLAMO_MGVSTRM_DESC(1), 8 << 16 | 3 << 8 |
                    GLAMO_VTYPE_UBYTE << 4 | GLAMO_VARRAY_DIFFUSE);
            rig_w32(&r, GLAMO_MGVSTRM_BAS(1), VB + 4);
            rig_w32(&r, A_RGPDV, 4);
            rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLE_STRIP);
            rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
        } else {
            /* stream index mode, 8-bit indices, a triangle list; fixed
             * s15.16 positions, float colours; stride from RGPDVNum */
            static const uint8_t idx[6] = { 0, 1, 2, 2, 1, 3 };
            for (i = 0; i < 4; i++) {
                uint32_t b = VB + 32 * i;
                put32(&r, b, (uint32_t)(int32_t)(strip[i].x * 65536));
                put32(&r, b + 4, (uint32_t)(int32_t)(strip[i].y * 65536));
                put32(&r, b + 8, 0);
                put32(&r, b + 12, rig_fbits(strip[i].r / 255.0f));
                put32(&r, b + 16, rig_fbits(strip[i].g / 255.0f));
                put32(&r, b + 20, rig_fbits(strip[i].b / 255.0f));
                put32(&r, b + 24, rig_fbits(1.0f));
            }
            memcpy(r.vram + VB + 0x400, idx, 6);
            rig_w32(&r, A_MGVStreamActive, 0x3);
            rig_w32(&r, A_MGVStrmCtl, 1 << 8 |
                    R_MGVStrmCtl_MGVen8bitStrmIndex_MASK);
            rig_w32(&r, GLAMO_MGVSTRM_DESC(0), 2 << 8 |
                    GLAMO_VTYPE_FIXED << 4 | GLAMO_VARRAY_POSITION);
            rig_w32(&r, GLAMO_MGVSTRM_BAS(0), VB);
            rig_w32(&r, GLAMO_MGVSTRM_DESC(1), 3 << 8 |
                    GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_DIFFUSE);
            rig_w32(&r, GLAMO_MGVSTRM_BAS(1), VB + 12);
            rig_w32(&r, A_MGStrmIndexMDBAS, VB + 0x400);
            rig_w32(&r, A_RGPDV, 32 << 20 | 6);
            rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
            rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_STREAM_INDEX);
            /* the parser counts down the list (RGTDWNum) */
            g_assert_cmpuint(rig_r32(&r, A_RGTDWNum), ==, 0);
            glamo_core_work(r.core, 1);     /* the fire */
            g_assert_cmpuint(rig_r32(&r, A_RGTDWNum), ==, 6);
            g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) &
                            R_EGSTATUSA_EGAGPCMIDLE_MASK, ==, 0);
        }
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 0x2ff, ==, 0x2ff);
        img[path] = g_memdup2(r.vram + FB, PITCH * H);
        rig_free(&r);
    }
    for (i = 0; i < PITCH * H; i += 2) {
        if (img[0][i] || img[0][i + 1]) {
            break;
        }
    }
    g_assert_cmpint(i, <, PITCH * H);           /* something was drawn */
    g_assert_cmpmem(img[0], PITCH * H, img[1], PITCH * H);
    g_assert_cmpmem(img[0], PITCH * H, img[2], PITCH * H);
    for (i = 0; i < 3; i++) {
        g_free(img[i]);
    }
}

/* ---- bad input ---------------------------------------------------------- */

/* a white triangle covering (5, 5) */
static const SVert white_tri[3] = {
    { 2, 2, 0.5f, 255, 255, 255 }, { 30, 2, 0.5f, 255, 255, 255 },
    { 2, 30, 0.5f, 255, 255, 255 },
};

static void good_triangle(GlamoRig *r)
{
    const SVert *t = white_tri;
    memset(r->vram + FB, 0, 128 * 40);
    rig_target(r, rig_cmd32, FB, 128, 64, 40, 0);
    queue_triangles(r, t, 3);
    rig_cmd_submit(r);
    rig_run(r);
}

static void test_bad_queue_length(void)
{
    GlamoRig r;
    unsigned e0 = errors();

    start(&r, false);
    /* 8 KiB ring at 8 MiB - 4 KiB: past the end of VRAM */
    rig_cmdq_init(&r, RING, RINGSZ);
    rig_w16(&r, A_GLAMO_CMDQ_BASE_ADDRL, 0xf000);
    rig_w16(&r, A_GLAMO_CMDQ_BASE_ADDRH, 0x7f);
    rig_w16(&r, A_GLAMO_CMDQ_LEN, 7);
    rig_w16(&r, A_GLAMO_CMDQ_WRITE_ADDRL, 0x40);
    g_assert_cmpuint(errors(), >, e0);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & GLAMO_CMDQ_STATUS_ERROR,
                    ==, GLAMO_CMDQ_STATUS_ERROR);
    g_assert_false(glamo_core_work(r.core, 100));
    /* recovered by the command-queue reset and a proper ring */
    rig_cmdq_init(&r, RING, RINGSZ);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & GLAMO_CMDQ_STATUS_ERROR,
                    ==, 0);
    good_triangle(&r);
    g_assert_cmphex(px(&r, FB, 128, 5, 5), ==, 0xffff);
    rig_free(&r);
}

static void test_bad_burst(void)
{
    GlamoRig r;
    uint16_t words[6] = { 1, 2, 3, 4, 5, 6 };
    unsigned e0 = errors();

    start(&r, true);
    /* a burst that claims 200 words with only 6 behind it */
    rig_cmd_reg(&r, A_EGRerSRegA, 0x1234);
    rig_cmd_burst(&r, A_RGPXa, words, 6);
    r.cmd.buf[r.cmd.n - 7] = 200;
    rig_cmd_submit(&r);
    rig_run(&r);
    g_assert_cmpuint(errors(), >, e0);
    g_assert_cmphex(rig_r16(&r, A_EGRerSRegA), ==, 0x1234);  /* before it */
    g_assert_cmphex(rig_r16(&r, A_RGPXa), ==, 0);            /* skipped */
    g_assert_cmpuint(rig_r16(&r, A_GLAMO_CMDQ_READ_ADDRL), ==, r.wptr);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_CMDQ_STATUS) & 0x8003, ==, 0x8003);
    /* a burst running past the register space, and a register outside it */
    e0 = errors();
    rig_cmd_burst(&r, 0x3ffc, words, 6);
    rig_cmd_reg(&r, 0x4002, 1);
    rig_cmd_submit(&r);
    rig_run(&r);
    g_assert_cmpuint(errors(), >=, e0 + 1);
    /* the next submission works */
    good_triangle(&r);
    g_assert_cmphex(px(&r, FB, 128, 5, 5), ==, 0xffff);
    rig_free(&r);
}

static void test_bad_pitch(void)
{
    GlamoRig r;
    unsigned e0 = errors();

    start(&r, true);
    good_triangle(&r);
    memset(r.vram + FB, 0, 0x10000);
    /* pitch 4096 bytes: above the 2046-byte limit of EGDST0PIT */
    rig_cmd_reg(&r, A_EGDST0SET, 0x0800);
    rig_cmd_submit(&r);
    rig_run(&r);
    g_assert_cmpuint(errors(), ==, e0 + 1);
    g_assert_cmphex(rig_r16(&r, A_EGDST0SET) & 0x3ff, ==, 0);
    {
        const SVert *t = white_tri;
        queue_triangles(&r, t, 3);
        rig_cmd_submit(&r);
        rig_run(&r);
    }
    g_assert_cmpuint(errors(), >, e0 + 1);       /* the draw is refused */
    for (int i = 0; i < 0x10000; i++) {
        g_assert_cmpint(r.vram[FB + i], ==, 0);
    }
    good_triangle(&r);                             /* a good pitch again */
    g_assert_cmphex(px(&r, FB, 128, 5, 5), ==, 0xffff);
    rig_free(&r);
}

static void test_bad_coordinates(void)
{
    static const SVert t[6] = {
        { 2, 2, 0.5f, 255, 255, 255 }, { 600, 2, 0.5f, 255, 255, 255 },
        { 2, 30, 0.5f, 255, 255, 255 },
        { 40, 2, 0.5f, 0, 255, 0 }, { 60, 2, 0.5f, 0, 255, 0 },
        { 40, 30, 0.5f, 0, 255, 0 },
    };
    GlamoRig r;
    GlamoStats st;
    unsigned e0 = errors();

    start(&r, true);
    rig_target(&r, rig_cmd32, FB, 128, 64, 40, 0);
    queue_triangles(&r, t, 6);
    rig_cmd_submit(&r);
    rig_run(&r);
    glamo_stats(r.core, &st);
    g_assert_cmpuint(errors(), ==, e0 + 1);
    g_assert_cmpuint(st.primitives, ==, 1);
    g_assert_cmphex(px(&r, FB, 128, 5, 5), ==, 0);          /* skipped */
    g_assert_cmphex(px(&r, FB, 128, 42, 4), ==, 0x07e0);    /* drawn */
    rig_free(&r);
}

static void test_bad_streams(void)
{
    GlamoRig r;
    unsigned e0 = errors();

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
    /* a stream that reads past the end of VRAM, a million vertices */
    rig_w32(&r, A_MGVStreamActive, 1);
    rig_w32(&r, A_MGVStrmCtl, 0);
    rig_w32(&r, GLAMO_MGVSTRM_DESC(0), 12 << 16 | 2 << 8 |
            GLAMO_VTYPE_FLOAT << 4);
    rig_w32(&r, GLAMO_MGVSTRM_BAS(0), GLAMO_VRAM_SIZE - 0x100);
    rig_w32(&r, A_RGPDV, 0xfffff);
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
    rig_run(&r);
    g_assert_cmpuint(errors(), >, e0);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA) & 0x2ff, ==, 0x2ff);
    /* a reserved primitive type and a reserved data type */
    e0 = errors();
    rig_w32(&r, GLAMO_MGVSTRM_DESC(0), 12 << 16 | 2 << 8 | 7 << 4);
    rig_w32(&r, GLAMO_MGVSTRM_BAS(0), VB);
    rig_w32(&r, A_RGPDV, 3);
    rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
    rig_w16(&r, A_EGPrim1, 0x1f);
    rig_w16(&r, A_EGFIRE, 0);
    rig_w16(&r, A_MGBufCBMFire, 1);
    rig_run(&r);
    g_assert_cmpuint(errors(), >=, e0 + 3);
    rig_free(&r);
}

static void test_reset_recovers(void)
{
    GlamoRig r;
    GRand *rnd = g_rand_new_with_seed(7);
    int i;

    rig_init(&r, 2);
    rig_enable_3d(&r);
    rig_cmdq_init(&r, RING, RINGSZ);
    /* a ring of noise */
    for (i = 0; i < 2000; i++) {
        rig_cmd_reg(&r, g_rand_int(rnd) & 0x3ffe, g_rand_int(rnd));
    }
    rig_cmd_submit(&r);
    for (i = 0; i < 50 && glamo_core_work(r.core, 64); i++) {
    }
    glamo_core_reset(r.core);
    g_assert_cmphex(rig_r16(&r, A_EGSTATUSA), ==, GLAMO_EGSTATUSA_ALL_IDLE);
    rig_enable_3d(&r);
    rig_cmdq_init(&r, RING, RINGSZ);
    good_triangle(&r);
    g_assert_cmphex(px(&r, FB, 128, 5, 5), ==, 0xffff);
    g_rand_free(rnd);
    rig_free(&r);
}

/* ---- texel formats ------------------------------------------------------ */

#define TEX 0x300000

static uint16_t to565(double r, double g, double b)
{
    return (uint16_t)(lround(r * 31) << 11 | lround(g * 63) << 5 |
                      lround(b * 31));
}

static uint32_t tx0set_extra;     /* EGTX0SET D[1:0]: combiner stages */
static uint32_t tx0size_extra;    /* EGTX0SIZE D[31:24]: transparency */

/* a 32x32 screen-space quad showing a 4x4 texture, nearest, clamped */
static void draw_textured_quad(GlamoRig *r, uint8_t fmt, uint32_t pitch,
                               uint32_t en1)
{
    static const float q[6][4] = {
        { 0, 0, 0, 0 }, { 32, 0, 1, 0 }, { 0, 32, 0, 1 },
        { 32, 0, 1, 0 }, { 32, 32, 1, 1 }, { 0, 32, 0, 1 },
    };
    int i;

    memset(r->vram + FB, 0, 128 * 40);
    rig_target(r, rig_direct32, FB, 128, 64, 40, 0);
    rig_w32(r, A_EGEN1, en1);
    rig_w32(r, A_EGTX0SET, (uint32_t)fmt << 24 | tx0set_extra |
            (GLAMO_TXADDR_CLAMP << 3 | GLAMO_TXADDR_CLAMP) << 16);
    rig_w32(r, A_EGTX0FILT, 0);
    rig_w32(r, A_EGTX0SIZE, tx0size_extra | 4 << 12 | 4);
    rig_w32(r, A_EGTX0L0BAS, TEX);
    rig_w32(r, A_EGTX0L01PITCH, pitch);
    rig_w32(r, A_EGEN0, R_EGEN0_EGenTXMP_MASK | 1 << 12);
    rig_w16(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < 6; i++) {
        rig_w32(r, A_RGPXa, rig_fbits(q[i][0]));
        rig_w32(r, A_RGPYa, rig_fbits(q[i][1]));
        rig_w32(r, A_RGPZa, 0);
        rig_w32(r, A_RGPWa, rig_fbits(1.0f));
        rig_w32(r, A_RGPDIFFa, 0xffffffff);
        rig_w32(r, A_RGPUAa, rig_fbits(q[i][2]));
        rig_w32(r, A_RGPVAa, rig_fbits(q[i][3]));
        rig_w16(r, A_EGFIRE, 0);
    }
    rig_w16(r, A_EGEND, 0);
    rig_run(r);
}

static void test_texel_formats(void)
{
    GlamoRig r;
    int i, j;

    start(&r, false);

    /* Index8 -> RGB565 through the texture-0 palette at 2400h */
    for (i = 0; i < 16; i++) {
        r.vram[TEX + i] = (uint8_t)(200 + i);
        rig_w16(&r, GLAMO_TX0_PALETTE + 2 * (200 + i), (uint16_t)(i * 0x1111 + 3));
    }
    draw_textured_quad(&r, 0x09, 4, 0);
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                            (uint16_t)((i + 4 * j) * 0x1111 + 3));
        }
    }
    /* texture transparency: the texel equal to both thresholds vanishes */
    {
        uint16_t key = 5 * 0x1111 + 3;
        uint32_t th = (uint32_t)(key >> 11) << 19 |
                      (uint32_t)((key >> 5) & 63) << 10 | (key & 31u) << 3;
        rig_w32(&r, A_EGTX0TRSH, th);
        rig_w32(&r, A_EGTX0TRSL, th);
        draw_textured_quad(&r, 0x09, 4, R_EGEN1_EGenTX0TR_MASK);
        g_assert_cmphex(px(&r, FB, 128, 12, 12), ==, 0);
        g_assert_cmphex(px(&r, FB, 128, 4, 4), ==, 3);
        g_assert_cmphex(px(&r, FB, 128, 20, 12), ==, 6 * 0x1111 + 3);
    }
    /* I4: two texels a byte, the even one in the low nibble */
    for (i = 0; i < 8; i++) {
        r.vram[TEX + i] = (uint8_t)((2 * i) | (2 * i + 1) << 4);
    }
    draw_textured_quad(&r, 0x12, 2, 0);
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            double v = (i + 4 * j) / 15.0;
            g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                            to565(v, v, v));
        }
    }
    /* ARGB4444 and RGB332 */
    for (i = 0; i < 16; i++) {
        uint16_t t = (uint16_t)(0xf000 | (i * 0x0357 & 0x0fff));
        r.vram[TEX + 2 * i] = (uint8_t)t;
        r.vram[TEX + 2 * i + 1] = (uint8_t)(t >> 8);
    }
    draw_textured_quad(&r, 0x63, 8, 0);
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            unsigned t = (i + 4 * j) * 0x0357 & 0x0fff;
            g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                            to565((t >> 8) / 15.0, ((t >> 4) & 15) / 15.0,
                                  (t & 15) / 15.0));
        }
    }
    for (i = 0; i < 16; i++) {
        r.vram[TEX + i] = (uint8_t)(i * 37);
    }
    draw_textured_quad(&r, 0x50, 4, 0);
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            unsigned t = (i + 4 * j) * 37 & 0xff;
            g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                            to565((t >> 5) / 7.0, ((t >> 2) & 7) / 7.0,
                                  (t & 3) / 3.0));
        }
    }
    /* a reserved format is refused */
    {
        unsigned e0 = errors();
        draw_textured_quad(&r, 0x74, 8, 0);
        g_assert_cmpuint(errors(), >, e0);
    }
    rig_free(&r);
}

/* ---- lighting ------------------------------------------------------------ */

static void test_lighting(void)
{
    GlamoRig r;
    uint32_t argb;
    int i;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
    rig_w32(&r, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK);
    /* identity T1 and world*view, viewport to 64x40 */
    for (i = 0; i < 4; i++) {
        rig_w32(&r, GLAMO_RGXR0T1MAT(i, i), glamo_f24_from_float(1.0f));
    }
    for (i = 0; i < 3; i++) {
        rig_w32(&r, GLAMO_RGXR0MWV(i, i), glamo_f24_from_float(1.0f));
        rig_w32(&r, GLAMO_RGXR0INVMVW(i, i), glamo_f24_from_float(1.0f));
    }
    rig_w32(&r, A_RGXScaleX, glamo_f24_from_float(32));
    rig_w32(&r, A_RGXOffsetX, glamo_f24_from_float(32));
    rig_w32(&r, A_RGXScaleY, glamo_f24_from_float(-20));
    rig_w32(&r, A_RGXOffsetY, glamo_f24_from_float(20));
    rig_w32(&r, A_RGXScaleZ, glamo_f24_from_float(1));
    /* one directional light along -z, diffuse (1, 0.5, 0.25), material
     * diffuse and ambient from registers, global ambient 0.1 */
    rig_w32(&r, A_RGXFEN1, R_RGXFEN1_RGXenLighting_MASK | 1 << 15);
    rig_w32(&r, A_RGXLTYPE, (uint32_t)GLAMO_LIGHT_DIRECTIONAL << 30);
    rig_w32(&r, A_RGXMATSRC, 0xaau << 24 | 2u << 20 |
            R_RGXMATSRC_RGXNormNormal_MASK);
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_DIR + 8, glamo_f24_from_float(-1));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_DIFF, glamo_f24_from_float(1.0f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_DIFF + 4, glamo_f24_from_float(0.5f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_DIFF + 8, glamo_f24_from_float(0.25f));
    for (i = 0; i < 4; i++) {
        rig_w32(&r, GLAMO_MAT_CW + GLAMO_MAT_DIFF + 4 * i, rig_fbits(0.8f));
    }
    rig_w32(&r, GLAMO_MAT_CW + GLAMO_MAT_AMB, rig_fbits(1.0f));
    rig_w32(&r, A_RGXLaR, glamo_f24_from_float(0.1f));
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    /* normal (0, 0, 2): normalised to (0, 0, 1), facing the light fully */
    for (i = 0; i < 3; i++) {
        rig_w32(&r, A_RGPXa, rig_fbits(i == 1 ? 0.5f : -0.5f));
        rig_w32(&r, A_RGPYa, rig_fbits(i == 2 ? 0.5f : -0.5f));
        rig_w32(&r, A_RGPZa, rig_fbits(0.5f));
        rig_w32(&r, A_RGPWa, rig_fbits(1.0f));
        rig_w32(&r, A_RGPNZa, rig_fbits(2.0f));
        rig_w16(&r, A_EGFIRE, 0);
    }
    rig_run(&r);
    /* R = 0.1 * 1 + 0.8 * 1 = 0.9, G = 0.8 * 0.5, B = 0.8 * 0.25, A 0.8 */
    argb = rig_r32(&r, GLAMO_RGX_VTX(0) + GLAMO_RGX_ARGB);
    g_assert_cmphex(argb, ==, 204u << 24 | 230u << 16 | 102u << 8 | 51u);
    /* the triangle is CCW on the screen: without two-sided lighting it
     * shows the CW material, with it the CCW set of 2B60h */
    g_assert_cmphex(px(&r, FB, 128, 20, 26), ==, to565(0.9, 0.4, 0.2));
    rig_w32(&r, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK |
            R_RGXFEN0_RGXEnableTwoSide_MASK);
    rig_w32(&r, A_RGXLTYPE, (uint32_t)GLAMO_LIGHT_DIRECTIONAL << 30 |
            2 << 8 | 2 << 2 | 2);
    for (i = 0; i < 4; i++) {
        rig_w32(&r, GLAMO_MAT_CCW + GLAMO_MAT_DIFF + 4 * i, rig_fbits(0.4f));
    }
    for (i = 0; i < 3; i++) {
        rig_w32(&r, A_RGPXa, rig_fbits(i == 1 ? 0.5f : -0.5f));
        rig_w32(&r, A_RGPYa, rig_fbits(i == 2 ? 0.5f : -0.5f));
        rig_w16(&r, A_EGFIRE, 0);
    }
    rig_run(&r);
    g_assert_cmphex(px(&r, FB, 128, 20, 26), ==, to565(0.4, 0.2, 0.1));
    rig_free(&r);
}

/* ---- polygon offset ----------------------------------------------------- */

static void test_polygon_offset(void)
{
    static const SVert a[3] = {
        { 2, 2, 0.5f, 255, 0, 0 }, { 40, 2, 0.5f, 255, 0, 0 },
        { 2, 30, 0.5f, 255, 0, 0 },
    };
    SVert b[3];
    GlamoRig r;
    int i, pass;

    for (pass = 0; pass < 3; pass++) {
        rig_init(&r, 1);
        rig_enable_3d(&r);
        memset(r.vram + ZB, 0xff, 128 * 40);
        rig_target(&r, rig_direct32, FB, 128, 64, 40, ZB);
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
        for (i = 0; i < 3; i++) {
            fire_vertex(&r, rig_direct32, &a[i]);
        }
        rig_run(&r);
        /* the same triangle in green, pulled towards the eye or not */
        if (pass) {
            rig_w32(&r, A_RGXResCoeff, glamo_f24_from_float(-0.01f));
            rig_w32(&r, A_RGXSlopeCoeff, 0);
            /* pass 2: clamped to -0.0 - res: no net pull */
            rig_w32(&r, A_RGPZClamp, glamo_f24_from_float(0.01f));
            rig_w32(&r, A_RGXFEN3, GLAMO_SHADE_GOURAUD << 11 |
                    R_RGXFEN3_RGPenPolygonOffset_MASK |
                    (pass == 2 ? R_RGXFEN3_RGPenZClamp_MASK |
                                 R_RGXFEN3_RGPZClampSign_MASK : 0));
        }
        for (i = 0; i < 3; i++) {
            b[i] = a[i];
            b[i].r = 0;
            b[i].g = 255;
            fire_vertex(&r, rig_direct32, &b[i]);
        }
        rig_run(&r);
        g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, pass == 1 ? 0x07e0 : 0xf800);
        rig_free(&r);
    }
}

/* ---- interrupts and the LCD --------------------------------------------- */

static void test_irq_and_lcd(void)
{
    const SVert *t = white_tri;
    GlamoRig r;
    G3DScanout so;
    unsigned e0;

    start(&r, true);
    /* the driver's CONTROL (5 << 8) asks for no interrupt */
    good_triangle(&r);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_IRQ_STATUS), ==, 0);
    /* with the interrupt on, running dry raises IRQ_CMDQUEUE */
    rig_w16(&r, A_GLAMO_CMDQ_CONTROL, 1 << 12 | 8 << 4);
    rig_w16(&r, A_GLAMO_IRQ_ENABLE, GLAMO_IRQ_CMDQUEUE);
    rig_target(&r, rig_cmd32, FB, 128, 64, 40, 0);
    queue_triangles(&r, t, 3);
    rig_cmd_submit(&r);
    g_assert_false(glamo_irq_level(r.core));
    rig_run(&r);
    g_assert_cmphex(rig_r16(&r, A_GLAMO_IRQ_STATUS), ==, GLAMO_IRQ_CMDQUEUE);
    g_assert_true(glamo_irq_level(r.core));
    rig_w16(&r, A_GLAMO_IRQ_CLEAR, GLAMO_IRQ_CMDQUEUE);
    g_assert_false(glamo_irq_level(r.core));
    /* IRQ_SET raises a source by hand; a masked source keeps INTx low */
    rig_w16(&r, A_GLAMO_IRQ_SET, GLAMO_IRQ_2D);
    g_assert_false(glamo_irq_level(r.core));
    rig_w16(&r, A_GLAMO_IRQ_ENABLE, GLAMO_IRQ_2D);
    g_assert_true(glamo_irq_level(r.core));

    /* LCD: pixel clock off = blank; a picture past VRAM = blank + error */
    rig_lcd(&r, FB, 128, 64, 40);
    g_assert_true(glamo_scanout(r.core, 0, &so));
    g_assert_cmphex(so.addr, ==, FB);
    g_assert_cmpuint(so.pitch, ==, 128);
    g_assert_cmpint(so.format, ==, G3D_FMT_RGB565);
    rig_w16(&r, A_GLAMO_LCD_MODE3, GLAMO_LCD_SRC_ARGB4444);
    g_assert_true(glamo_scanout(r.core, 0, &so));
    g_assert_cmpint(so.format, ==, G3D_FMT_ARGB4444);
    e0 = errors();
    rig_w16(&r, A_GLAMO_LCD_MODE3, 0xc000);
    g_assert_false(glamo_scanout(r.core, 0, &so));
    g_assert_cmpuint(errors(), ==, e0 + 1);
    rig_w16(&r, A_GLAMO_LCD_MODE3, GLAMO_LCD_SRC_RGB565);
    rig_w16(&r, A_GLAMO_LCD_A_BASE2, 0x7f);
    rig_w16(&r, A_GLAMO_LCD_HEIGHT, 1000);
    g_assert_false(glamo_scanout(r.core, 0, &so));
    g_assert_cmpuint(errors(), ==, e0 + 2);
    rig_w16(&r, A_GLAMO_LCD_A_BASE2, 0);
    rig_w16(&r, A_GLAMO_CLOCK_LCD, 0);
    g_assert_false(glamo_scanout(r.core, 0, &so));
    g_assert_false(glamo_scanout(r.core, 1, &so));
    rig_free(&r);
}

/* ---- texture transform -------------------------------------------------- */

static void test_texture_transform(void)
{
    static const float q[6][4] = {
        { -1, -1, 0, 0 }, { 1, -1, 1, 0 }, { -1, 1, 0, 1 },
        { 1, -1, 1, 0 }, { 1, 1, 1, 1 }, { -1, 1, 0, 1 },
    };
    GlamoRig r;
    int i, j;

    start(&r, false);
    for (i = 0; i < 16; i++) {
        r.vram[TEX + i] = (uint8_t)i;
        rig_w16(&r, GLAMO_TX0_PALETTE + 2 * i, (uint16_t)(i * 0x0841 + 0x1000));
    }
    /* the 4x4 texture of test_texel_formats, drawn through T&L */
    draw_textured_quad(&r, 0x09, 4, 0);
    rig_w32(&r, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK |
            R_RGXFEN0_RGPenTexTransform_MASK);
    rig_w32(&r, A_RGXFEN4, R_RGXFEN4_RGPTexTransTXAflg_MASK);
    rig_w32(&r, A_RGXFEN2, 0);
    for (i = 0; i < 4; i++) {
        rig_w32(&r, GLAMO_RGXR0T1MAT(i, i), glamo_f24_from_float(1.0f));
        /* texture-0 matrix: scale u and v by 1/2 */
        rig_w32(&r, GLAMO_RGXTXMAT(0, i, i),
                glamo_f24_from_float(i < 2 ? 0.5f : 1.0f));
    }
    rig_w32(&r, A_RGXScaleX, glamo_f24_from_float(16));
    rig_w32(&r, A_RGXOffsetX, glamo_f24_from_float(16));
    rig_w32(&r, A_RGXScaleY, glamo_f24_from_float(16));
    rig_w32(&r, A_RGXOffsetY, glamo_f24_from_float(16));
    rig_w32(&r, A_RGXScaleZ, glamo_f24_from_float(1));
    memset(r.vram + FB, 0, 128 * 40);
    for (i = 0; i < 6; i++) {
        rig_w32(&r, A_RGPXa, rig_fbits(q[i][0]));
        rig_w32(&r, A_RGPYa, rig_fbits(q[i][1]));
        rig_w32(&r, A_RGPZa, rig_fbits(0.5f));
        rig_w32(&r, A_RGPWa, rig_fbits(1.0f));
        rig_w32(&r, A_RGPUAa, rig_fbits(q[i][2]));
        rig_w32(&r, A_RGPVAa, rig_fbits(q[i][3]));
        rig_w16(&r, A_EGFIRE, 0);
    }
    rig_w16(&r, A_EGEND, 0);
    rig_run(&r);
    for (j = 0; j < 4; j++) {
        for (i = 0; i < 4; i++) {
            int idx = i / 2 + 4 * (j / 2);
            g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                            (uint16_t)(idx * 0x0841 + 0x1000));
        }
    }
    rig_free(&r);
}

/* ---- the combiner ------------------------------------------------------- */

static void test_combiner(void)
{
    /* stage 0: current 0 = tex0 * diffuse (op A, MUL)
     * stage 1: current 0 = current 0 * 1 + factor 0 * 1 (op C, ADD),
     *          "1" = the zero argument with the complement modifier */
    uint32_t s0arg = GLAMO_TXARG_TEX0 << 25 | GLAMO_TXARG_DIFFUSE << 16 |
                     GLAMO_TXOP_MUL << 6;
    uint32_t s0mod = GLAMO_TXW_OPA << 13 | GLAMO_TXOMOD_SAT << 8;
    uint32_t s1arg = GLAMO_TXARG_CUR0 << 25 | GLAMO_TXOPC_ADD << 22 |
                     GLAMO_TXARG_ZERO << 16 | GLAMO_TXOP_MUL << 14 |
                     GLAMO_TXARG_FACT0 << 8 | GLAMO_TXOP_MUL << 6 |
                     GLAMO_TXARG_ZERO;
    uint32_t s1mod = 1u << 24 | 1u << 16 | GLAMO_TXW_OPC << 13 |
                     GLAMO_TXOMOD_SAT << 8;
    /* alpha: diffuse * 1 in both stages */
    uint32_t aarg = GLAMO_TXARG_DIFFUSE << 25 | GLAMO_TXOP_MUL << 6;
    uint32_t amod = 1u << 24 | GLAMO_TXW_OPA << 13 | GLAMO_TXOMOD_SAT << 8;
    GlamoRig r;
    int i;

    start(&r, false);
    for (i = 0; i < 16; i++) {
        r.vram[TEX + 2 * i] = 0x10;
        r.vram[TEX + 2 * i + 1] = 0x84;              /* 0x8410 */
    }
    rig_w32(&r, GLAMO_TXCB(0), s0mod);
    rig_w32(&r, GLAMO_TXCB(0) + 4, s0arg);
    rig_w32(&r, GLAMO_TXCB(1), s1mod);
    rig_w32(&r, GLAMO_TXCB(1) + 4, s1arg);
    for (i = 0; i < 2; i++) {
        rig_w32(&r, GLAMO_TXAB(i), amod);
        rig_w32(&r, GLAMO_TXAB(i) + 4, aarg);
    }
    /* factor 0: R 8/31 (s.5), G 16/63 (s.6), B 8/31 (s.5) */
    rig_w32(&r, A_EGTXBLDFACT0, 8u << 18 | 16u << 9 | 8u << 2);
    tx0set_extra = 1;                                /* two stages */
    draw_textured_quad(&r, 0x61, 8, R_EGEN1_EGenTXBl_MASK);
    g_assert_cmphex(px(&r, FB, 128, 10, 10), ==,
                    to565(16 / 31.0 + 8 / 31.0, 32 / 63.0 + 16 / 63.0,
                          16 / 31.0 + 8 / 31.0));
    /* texture-blending transparency (EGTXTRSMOD x1): thresholds equal to
     * the blend output (R 24, G 48, B 24) remove the pixel; as a texel
     * key (mode 00) they leave the texel 0x8410 (R 16, G 32, B 16) be */
    rig_w32(&r, A_EGTX0TRSH, 24u << 19 | 48u << 10 | 24u << 3);
    rig_w32(&r, A_EGTX0TRSL, 24u << 19 | 48u << 10 | 24u << 3);
    tx0size_extra = 1u << 30;
    draw_textured_quad(&r, 0x61, 8, R_EGEN1_EGenTXBl_MASK |
                       R_EGEN1_EGenTX0TR_MASK);
    g_assert_cmphex(px(&r, FB, 128, 10, 10), ==, 0);
    tx0size_extra = 0;
    draw_textured_quad(&r, 0x61, 8, R_EGEN1_EGenTXBl_MASK |
                       R_EGEN1_EGenTX0TR_MASK);
    g_assert_cmphex(px(&r, FB, 128, 10, 10), ==,
                    to565(24 / 31.0, 48 / 63.0, 24 / 31.0));
    /* one stage: the factor is not added */
    tx0set_extra = 0;
    draw_textured_quad(&r, 0x61, 8, R_EGEN1_EGenTXBl_MASK);
    g_assert_cmphex(px(&r, FB, 128, 10, 10), ==, 0x8410);
    rig_free(&r);
}

/* ---- the back end's tests and operations -------------------------------- */

#define SB 0x0c0000

/* a flat triangle covering (8, 8) but not (60, 35), colour ARGB8888 */
static void flat_tri(GlamoRig *r, uint32_t argb)
{
    static const float v[3][2] = { { 2, 2 }, { 40, 2 }, { 2, 30 } };
    int i;

    rig_w16(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < 3; i++) {
        rig_w32(r, A_RGPXa, rig_fbits(v[i][0]));
        rig_w32(r, A_RGPYa, rig_fbits(v[i][1]));
        rig_w32(r, A_RGPZa, rig_fbits(0.5f));
        rig_w32(r, A_RGPWa, rig_fbits(1.0f));
        rig_w32(r, A_RGPDIFFa, argb);
        rig_w16(r, A_EGFIRE, 0);
    }
    rig_w16(r, A_EGEND, 0);
    rig_run(r);
}

static void fill(GlamoRig *r, uint16_t v)
{
    int i;
    for (i = 0; i < 64 * 40; i++) {
        r->vram[FB + 2 * i] = (uint8_t)v;
        r->vram[FB + 2 * i + 1] = (uint8_t)(v >> 8);
    }
}

static void test_back_end(void)
{
    GlamoRig r;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);

    /* alpha test GREATER 0x80, compared on A[7:2] */
    rig_w32(&r, A_EGEN0, R_EGEN0_EGenAT_MASK);
    rig_w32(&r, A_EGATEST, G3D_CMP_GREATER << 8 | 0x80);
    fill(&r, 0);
    flat_tri(&r, 0x40ffffff);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0);
    flat_tri(&r, 0xc0ffffff);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0xffff);

    /* blending SRC_ALPHA, INV_SRC_ALPHA: half red over blue */
    rig_w32(&r, A_EGEN0, R_EGEN0_EGenBLEND_MASK);
    rig_w32(&r, A_EGBLSET, GLAMO_BLEQ_ADD << 24 | 4 << 4 | 5);
    fill(&r, 0x001f);
    flat_tri(&r, 0x80ff0000);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==,
                    to565(128 / 255.0, 0, 127 / 255.0));
    g_assert_cmphex(px(&r, FB, 128, 60, 35), ==, 0x001f);

    /* ROP XOR_PEN (0110) and the colour write mask */
    rig_w32(&r, A_EGEN0, 0);
    rig_w32(&r, A_EGDST0SET, 0x6u << 24 | GLAMO_CFM_RGB565 << 16 | 64);
    fill(&r, 0x1234);
    flat_tri(&r, 0xffffffff);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0xedcb);
    rig_w32(&r, A_EGDST0SET, GLAMO_ROP_COPY_PEN << 24 | GLAMO_CFM_RGB565 << 16 | 64);
    rig_w32(&r, A_EGEN1, R_EGEN1_EGenCWrMask_MASK);
    rig_w32(&r, A_EGD0CWrMASK, 0xf800);
    fill(&r, 0x1234);
    flat_tri(&r, 0xffffffff);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0xfa34);
    rig_w32(&r, A_EGEN1, 0);

    /* stencil S8: the first triangle writes 5 (REPLACE on pass), a
     * full-screen pair then draws only where the stencil EQUALs 5 */
    memset(r.vram + SB, 0, 64 * 40);
    rig_w32(&r, A_EGEN0, R_EGEN0_EGenStT_MASK);
    rig_w32(&r, A_EGSTSET, 3u << 28 | G3D_CMP_ALWAYS << 24 | 5 << 8 | 0xff);
    rig_w32(&r, A_EGSTOP, 0xffu << 24 | G3D_SOP_REPLACE << 12 | 32);
    rig_w32(&r, A_EGStBAS, SB);
    fill(&r, 0);
    flat_tri(&r, 0xff000000);
    g_assert_cmpuint(r.vram[SB + 8 * 64 + 8], ==, 5);
    g_assert_cmpuint(r.vram[SB + 35 * 64 + 60], ==, 0);
    rig_w32(&r, A_EGSTSET, 3u << 28 | G3D_CMP_EQUAL << 24 | 5 << 8 | 0xff);
    rig_w32(&r, A_EGSTOP, 0xffu << 24 | 32);
    {
        static const SVert q[6] = {
            { 0, 0, 0.5f, 0, 255, 0 }, { 64, 0, 0.5f, 0, 255, 0 },
            { 0, 40, 0.5f, 0, 255, 0 }, { 64, 0, 0.5f, 0, 255, 0 },
            { 64, 40, 0.5f, 0, 255, 0 }, { 0, 40, 0.5f, 0, 255, 0 },
        };
        int i;
        for (i = 0; i < 6; i++) {
            fire_vertex(&r, rig_direct32, &q[i]);
        }
        rig_run(&r);
    }
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0x07e0);
    g_assert_cmphex(px(&r, FB, 128, 60, 35), ==, 0);
    rig_free(&r);
}

/* ---- lighting variants (2604h D[26], D[14], D[10], D[3:0]) -------------- */

/* identity T1, world*view and normal matrices, viewport 64x40, no cull */
static void tl_identity(GlamoRig *r)
{
    int i;

    rig_target(r, rig_direct32, FB, 128, 64, 40, 0);
    rig_w32(r, A_RGXFEN0, R_RGXFEN0_RGXDisableCull_MASK);
    for (i = 0; i < 4; i++) {
        rig_w32(r, GLAMO_RGXR0T1MAT(i, i), glamo_f24_from_float(1.0f));
    }
    for (i = 0; i < 3; i++) {
        rig_w32(r, GLAMO_RGXR0MWV(i, i), glamo_f24_from_float(1.0f));
        rig_w32(r, GLAMO_RGXR0INVMVW(i, i), glamo_f24_from_float(1.0f));
    }
    rig_w32(r, A_RGXScaleX, glamo_f24_from_float(32));
    rig_w32(r, A_RGXOffsetX, glamo_f24_from_float(32));
    rig_w32(r, A_RGXScaleY, glamo_f24_from_float(-20));
    rig_w32(r, A_RGXOffsetY, glamo_f24_from_float(20));
    rig_w32(r, A_RGXScaleZ, glamo_f24_from_float(1));
}

/*
 * A small triangle whose vertex a sits at eye (x, y, 0.5) with normal
 * (0, 0, 1); the colours setup received for it: 1C10h ARGB, 1C14h F SR SG
 * SB, as unit floats.
 */
static void lit_vertex_a(GlamoRig *r, float x, float y, float argb[4],
                         float spec[3])
{
    uint32_t a, s;
    int i;

    rig_w16(r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
    for (i = 0; i < 3; i++) {
        rig_w32(r, A_RGPXa, rig_fbits(x - (i == 1 ? 0.25f : 0.0f)));
        rig_w32(r, A_RGPYa, rig_fbits(y - (i == 2 ? 0.25f : 0.0f)));
        rig_w32(r, A_RGPZa, rig_fbits(0.5f));
        rig_w32(r, A_RGPWa, rig_fbits(1.0f));
        rig_w32(r, A_RGPNXa, 0);
        rig_w32(r, A_RGPNYa, 0);
        rig_w32(r, A_RGPNZa, rig_fbits(1.0f));
        rig_w32(r, A_RGPSPECa, 0x00204060);       /* F 0, SR SG SB */
        rig_w16(r, A_EGFIRE, 0);
    }
    rig_w16(r, A_EGEND, 0);
    rig_run(r);
    a = rig_r32(r, GLAMO_RGX_VTX(0) + GLAMO_RGX_ARGB);
    s = rig_r32(r, GLAMO_RGX_VTX(0) + GLAMO_RGX_FSPEC);
    for (i = 0; i < 3; i++) {
        argb[i] = ((a >> (16 - 8 * i)) & 0xff) / 255.0f;
        spec[i] = ((s >> (16 - 8 * i)) & 0xff) / 255.0f;
    }
    argb[3] = (a >> 24) / 255.0f;
}

#define NEAR8(got, want) g_assert_cmpfloat(fabs((got) - (want)), <=, 1.0 / 255)

/* 2604h = fen1, then lit_vertex_a at (x, 0) */
static void lit_with(GlamoRig *r, uint32_t fen1, float x, float col[4],
                     float spec[3])
{
    rig_w32(r, A_RGXFEN1, fen1);
    lit_vertex_a(r, x, 0, col, spec);
}

static void set_light_vec(GlamoRig *r, int l, int off, double x, double y,
                          double z)
{
    rig_w32(r, GLAMO_LIGHT(l) + off, glamo_f24_from_float((float)x));
    rig_w32(r, GLAMO_LIGHT(l) + off + 4, glamo_f24_from_float((float)y));
    rig_w32(r, GLAMO_LIGHT(l) + off + 8, glamo_f24_from_float((float)z));
}

static void test_lighting_variants(void)
{
    const uint32_t fen1 = R_RGXFEN1_RGXenLighting_MASK | 1 << 15;
    const uint32_t msrc = 0xaau << 24 | 2u << 20;   /* registers */
    float col[4], spec[3];
    double a = 60 * M_PI / 180, nh, rho, expect;
    GlamoRig r;
    int i;

    start(&r, false);
    tl_identity(&r);
    rig_w32(&r, A_RGXLTYPE, (uint32_t)GLAMO_LIGHT_DIRECTIONAL << 30);
    rig_w32(&r, A_RGXMATSRC, msrc);
    for (i = 0; i < 4; i++) {
        rig_w32(&r, GLAMO_MAT_CW + GLAMO_MAT_DIFF + 4 * i, rig_fbits(0.5f));
        rig_w32(&r, GLAMO_MAT_CW + GLAMO_MAT_SPEC + 4 * i, rig_fbits(1.0f));
    }
    rig_w32(&r, A_RGXCWMP, glamo_f24_from_float(4.0f));
    set_light_vec(&r, 0, GLAMO_L_DIFF, 1, 1, 1);
    set_light_vec(&r, 0, GLAMO_L_SPEC, 0.5, 0.5, 0.5);

    /* light along -z (towards the surface): N.L = 1, H = (0, 0, 1) */
    set_light_vec(&r, 0, GLAMO_L_DIR, 0, 0, -1);
    lit_with(&r, fen1 | R_RGXFEN1_RGXenSpecLight_MASK, 0, col, spec);
    NEAR8(col[0], 0.5);
    NEAR8(spec[0], 0.5);
    /* single colour: specular folded into the primary colour */
    lit_with(&r, fen1 | R_RGXFEN1_RGXenSpecLight_MASK |
            R_RGXFEN1_RGXSingleColor_MASK, 0, col, spec);
    NEAR8(col[0], 1.0);
    NEAR8(col[1], 1.0);
    NEAR8(spec[0], 0.0);

    /* specular lighting off with a vertex specular colour present:
     * DX8/DX9 pass it on, DX7 drops it */
    rig_w32(&r, A_RGXMATSRC, msrc | R_RGXMATSRC_RGXSpecPresent_MASK);
    lit_with(&r, fen1, 0, col, spec);
    NEAR8(spec[0], 0x20 / 255.0);
    NEAR8(spec[1], 0x40 / 255.0);
    NEAR8(spec[2], 0x60 / 255.0);
    lit_with(&r, fen1 | R_RGXFEN1_RGXenDX7Light_MASK, 0, col, spec);
    NEAR8(spec[0], 0.0);
    NEAR8(spec[2], 0.0);
    rig_w32(&r, A_RGXMATSRC, msrc);

    /* the light 60 degrees off the normal: N.L = 0.5, N.H = cos(30 deg) */
    set_light_vec(&r, 0, GLAMO_L_DIR, -sin(a), 0, -cos(a));
    nh = cos(a / 2);
    lit_with(&r, fen1 | R_RGXFEN1_RGXenSpecLight_MASK, 0, col, spec);
    NEAR8(col[0], 0.5 * 0.5);
    NEAR8(spec[0], 0.5 * pow(nh, 4));
    /* turbo specular T: N.H below the threshold 0.9 skips specular ... */
    rig_w32(&r, A_RGSCWSDTh, glamo_f24_from_float(0.9f));
    lit_vertex_a(&r, 0, 0, col, spec);
    NEAR8(spec[0], 0.0);
    /* ... unless the shortcut is disabled */
    lit_with(&r, fen1 | R_RGXFEN1_RGXenSpecLight_MASK |
            GLAMO_TURBO_OFF_NH, 0, col, spec);
    NEAR8(spec[0], 0.5 * pow(nh, 4));
    rig_w32(&r, A_RGSCWSDTh, 0);

    /* the light behind the surface (N.L = -0.5, N.H = cos(60 deg)): no
     * specular with turbo D, the D3D term (N.H)^P without it */
    set_light_vec(&r, 0, GLAMO_L_DIR, -sin(2 * a), 0, cos(2 * a) * -1);
    nh = cos(a);
    lit_vertex_a(&r, 0, 0, col, spec);
    NEAR8(col[0], 0.0);
    NEAR8(spec[0], 0.0);
    lit_with(&r, fen1 | R_RGXFEN1_RGXenSpecLight_MASK |
            GLAMO_TURBO_OFF_ND, 0, col, spec);
    NEAR8(col[0], 0.0);
    NEAR8(spec[0], 0.5 * pow(nh, 4));

    /* a spot light at eye (0, 0, 2.5) pointing down -z, cutoff
     * cos = 0.95, falloff 8; vertex a at (0.5, 0, 0.5): the spot axis
     * makes an angle with cos rho = 2 / sqrt(4.25) > 0.95 */
    rig_w32(&r, A_RGXLTYPE, (uint32_t)GLAMO_LIGHT_SPOT << 30);
    set_light_vec(&r, 0, GLAMO_L_POS, 0, 0, 2.5);
    set_light_vec(&r, 0, GLAMO_L_DIR, 0, 0, -1);
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_RANGE, glamo_f24_from_float(1e6f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_ATT0, glamo_f24_from_float(1.0f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_FALLOFF, glamo_f24_from_float(8.0f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_THETA, glamo_f24_from_float(0.95f));
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_PHI, 0);
    rig_w32(&r, GLAMO_LIGHT(0) + GLAMO_L_THETASUBPHI,
            glamo_f24_from_float(1.0f));
    rho = 2 / sqrt(4.25);
    rig_w32(&r, A_RGXFEN1, fen1);
    /* D3D: inside theta, the full light: diffuse 0.5 * N.L */
    lit_vertex_a(&r, 0.5f, 0, col, spec);
    NEAR8(col[0], 0.5 * rho);
    /* OpenGL: rho^falloff inside the cone */
    lit_with(&r, fen1 | R_RGXFEN1_RGXenOpenGLLight_MASK, 0.5f, col, spec);
    expect = 0.5 * rho * pow(rho, 8);
    NEAR8(col[0], expect);
    /* and nothing outside it: at (0.9, 0) cos = 2 / sqrt(4.81) < 0.95 */
    lit_vertex_a(&r, 0.9f, 0, col, spec);
    NEAR8(col[0], 0.0);
    rig_free(&r);
}

/* ---- point size scaling and point sprites ------------------------------- */

/* pixels of the 64x40 target that are not 0 */
static int lit_pixels(GlamoRig *r)
{
    int x, y, n = 0;

    for (y = 0; y < 40; y++) {
        for (x = 0; x < 64; x++) {
            n += px(r, FB, 128, x, y) != 0;
        }
    }
    return n;
}

/* one point at eye (0, 0, -2): clip (0, 0, 0.5, 1), screen (32, 20) */
static void draw_point(GlamoRig *r)
{
    memset(r->vram + FB, 0, 128 * 40);
    rig_w16(r, A_EGPrim1, GLAMO_PRIM_POINTS);
    rig_w32(r, A_RGPXa, 0);
    rig_w32(r, A_RGPYa, 0);
    rig_w32(r, A_RGPZa, rig_fbits(-2.0f));
    rig_w32(r, A_RGPWa, rig_fbits(1.0f));
    rig_w32(r, A_RGPDIFFa, 0xffffffff);
    rig_w16(r, A_EGFIRE, 0);
    rig_w16(r, A_EGEND, 0);
    rig_run(r);
}

static void test_point_size(void)
{
    GlamoRig r;
    unsigned e0;

    start(&r, false);
    tl_identity(&r);
    /* clip z = 0.5 whatever the eye z */
    rig_w32(&r, GLAMO_RGXR0T1MAT(2, 2), 0);
    rig_w32(&r, GLAMO_RGXR0T1MAT(3, 2), glamo_f24_from_float(0.5f));
    rig_w32(&r, A_RGXPtsize, glamo_f24_from_float(4.0f));
    rig_w32(&r, A_RGXPtSizeMin, glamo_f24_from_float(1.0f));
    rig_w32(&r, A_RGXPtSizeMax, glamo_f24_from_float(64.0f));
    /* unscaled: 4 x 4 */
    draw_point(&r);
    g_assert_cmpint(lit_pixels(&r), ==, 16);
    /* D3D: Vh * size * sqrt(1 / (A + B d + C d^2)), d = 2, C = 1:
     * 4 * 4 * sqrt(1 / 4) = 8 */
    rig_w32(&r, A_RGXPtScaleC, glamo_f24_from_float(1.0f));
    rig_w32(&r, A_RGXVPHeight, glamo_f24_from_float(4.0f));
    rig_w32(&r, A_RGXFEN1, R_RGXFEN1_RGXenPtScale_MASK);
    draw_point(&r);
    g_assert_cmpint(lit_pixels(&r), ==, 8 * 8);
    g_assert_cmphex(px(&r, FB, 128, 28, 16), ==, 0xffff);
    g_assert_cmphex(px(&r, FB, 128, 27, 16), ==, 0);
    /* clamped to RGXPtSizeMax */
    rig_w32(&r, A_RGXPtSizeMax, glamo_f24_from_float(6.0f));
    draw_point(&r);
    g_assert_cmpint(lit_pixels(&r), ==, 6 * 6);
    rig_w32(&r, A_RGXPtSizeMax, glamo_f24_from_float(64.0f));
    /* OpenGL: no viewport height: 4 * sqrt(1 / 4) = 2 */
    rig_w32(&r, A_RGXFEN1, R_RGXFEN1_RGXenOPenGLPtScale_MASK);
    draw_point(&r);
    g_assert_cmpint(lit_pixels(&r), ==, 2 * 2);
    /* below the fade threshold 4: drawn 4 x 4, alpha (2 / 4)^2 */
    rig_w32(&r, A_RGXPtThreshold, glamo_f24_from_float(4.0f));
    draw_point(&r);
    g_assert_cmpint(lit_pixels(&r), ==, 4 * 4);
    g_assert_cmpuint(rig_r32(&r, GLAMO_RGX_VTX(0) + GLAMO_RGX_ARGB) >> 24, ==,
                     lround(255 * 0.25));
    /* A + B d + C d^2 = 0 has no square root: logged, left unscaled */
    rig_w32(&r, A_RGXPtThreshold, 0);
    rig_w32(&r, A_RGXPtScaleC, 0);
    e0 = errors();
    draw_point(&r);
    g_assert_cmpuint(errors(), >, e0);
    g_assert_cmpint(lit_pixels(&r), ==, 4 * 4);
    rig_free(&r);
}

#define PAT 0x320000

/* texture 0 on: a 4x4 Index8 texture, texel i = palette colour
 * i * 0841h + 1000h, nearest, clamped */
static void index8_texture(GlamoRig *r)
{
    int i;

    for (i = 0; i < 16; i++) {
        r->vram[TEX + i] = (uint8_t)i;
        rig_w16(r, GLAMO_TX0_PALETTE + 2 * i, (uint16_t)(i * 0x0841 + 0x1000));
    }
    rig_w32(r, A_EGTX0SET, 0x09u << 24 |
            (GLAMO_TXADDR_CLAMP << 3 | GLAMO_TXADDR_CLAMP) << 16);
    rig_w32(r, A_EGTX0FILT, 0);
    rig_w32(r, A_EGTX0SIZE, 4 << 12 | 4);
    rig_w32(r, A_EGTX0L0BAS, TEX);
    rig_w32(r, A_EGTX0L01PITCH, 4);
    rig_w32(r, A_EGEN0, R_EGEN0_EGenTXMP_MASK | 1 << 12);
}

static void test_point_sprite(void)
{
    GlamoRig r;
    int i, j;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
    index8_texture(&r);
    rig_w32(&r, A_RGXFEN3, GLAMO_SHADE_GOURAUD << 11 |
            R_RGXFEN3_RGPenPtSprite_MASK);
    /* a screen-space point of size 16 at (24, 20): pixels 16..31 x 12..27 */
    memset(r.vram + FB, 0, 128 * 40);
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_POINTS);
    rig_w32(&r, A_RGPPSIZE, rig_fbits(16.0f));
    rig_w32(&r, A_RGXFEN0, R_RGXFEN0_RGXScrCoor_MASK |
            R_RGXFEN0_RGXDisableCull_MASK | R_RGXFEN0_RGPPtSizeSel_MASK);
    rig_w32(&r, A_RGPXa, rig_fbits(24.0f));
    rig_w32(&r, A_RGPYa, rig_fbits(20.0f));
    rig_w32(&r, A_RGPZa, 0);
    rig_w32(&r, A_RGPWa, rig_fbits(1.0f));
    rig_w32(&r, A_RGPDIFFa, 0xffffffff);
    rig_w32(&r, A_RGPUAa, rig_fbits(7.0f));     /* replaced by the sprite */
    rig_w32(&r, A_RGPVAa, rig_fbits(7.0f));
    rig_w16(&r, A_EGFIRE, 0);
    rig_w16(&r, A_EGEND, 0);
    rig_run(&r);
    /* (0, 0) at the top-left corner, (1, 1) at the bottom-right: each
     * texel covers 4x4 pixels, row 0 of the texture at the top */
    for (j = 0; j < 16; j++) {
        for (i = 0; i < 16; i++) {
            int idx = i / 4 + 4 * (j / 4);
            g_assert_cmphex(px(&r, FB, 128, 16 + i, 12 + j), ==,
                            (uint16_t)(idx * 0x0841 + 0x1000));
        }
    }
    g_assert_cmphex(px(&r, FB, 128, 15, 12), ==, 0);
    g_assert_cmphex(px(&r, FB, 128, 32, 27), ==, 0);
    rig_free(&r);
}

/* ---- stipple ------------------------------------------------------------ */

/* whether the polygon stipple pattern of the test has texel (x, y) on */
static bool pat_on(int x, int y)
{
    return ((x * 7 + y * 3) % 5) < 2 || x == y;
}

static void stipple_texture(GlamoRig *r, int unit, int w, int h,
                            bool (*on)(int x, int y))
{
    uint32_t b = GLAMO_TX_BASE(unit);
    int x, y;

    for (y = 0; y < h; y++) {
        for (x = 0; x < w; x++) {
            uint16_t t = on(x, y) ? 0xf123 : 0x0fff;   /* ARGB4444 */
            r->vram[PAT + y * 2 * w + 2 * x] = (uint8_t)t;
            r->vram[PAT + y * 2 * w + 2 * x + 1] = (uint8_t)(t >> 8);
        }
    }
    /* texture unit registers: 21A0h for unit 0, 2200h for unit 1 */
    rig_w32(r, b, 0x63u << 24 |
            (GLAMO_TXADDR_WRAP << 3 | GLAMO_TXADDR_WRAP) << 16);
    rig_w32(r, b + (A_EGTX0FILT - A_EGTX0SET), 0);
    rig_w32(r, b + (A_EGTX0SIZE - A_EGTX0SET), (uint32_t)w << 12 | h);
    rig_w32(r, b + (A_EGTX0L0BAS - A_EGTX0SET), PAT);
    rig_w32(r, b + (A_EGTX0L01PITCH - A_EGTX0SET), (uint32_t)(2 * w));
}

/* line pattern: 16 texels, R = 2 */
static bool line_on(int x, int y)
{
    (void)y;
    return (0xb1c5 >> x) & 1;
}

static void test_stipple(void)
{
    static const SVert q[6] = {
        { 0, 0, 0.5f, 255, 255, 255 }, { 64, 0, 0.5f, 255, 255, 255 },
        { 0, 40, 0.5f, 255, 255, 255 }, { 64, 0, 0.5f, 255, 255, 255 },
        { 64, 40, 0.5f, 255, 255, 255 }, { 0, 40, 0.5f, 255, 255, 255 },
    };
    GlamoRig r;
    int dir, x, y, i, pass;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
    /* polygon stipple through texture unit 1 (texturing itself off): a
     * pixel is drawn where the pattern's texel (x mod 32, y mod 32) has
     * alpha, rows counted downwards (dir 0) or upwards (dir 1) */
    stipple_texture(&r, 1, 32, 32, pat_on);
    for (dir = 0; dir < 2; dir++) {
        memset(r.vram + FB, 0, 128 * 40);
        rig_w16(&r, A_EGSTIPSEL, (uint16_t)(dir << 15 | 1 << 8));
        rig_w32(&r, A_EGEN1, R_EGEN1_EGenPolyStipple_MASK);
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
        for (i = 0; i < 6; i++) {
            fire_vertex(&r, rig_direct32, &q[i]);
        }
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        for (y = 0; y < 40; y++) {
            for (x = 0; x < 64; x++) {
                int ty = dir ? 31 - y % 32 : y % 32;
                g_assert_cmphex(px(&r, FB, 128, x, y), ==,
                                pat_on(x % 32, ty) ? 0xffff : 0);
            }
        }
    }
    /* line stipple through unit 0: RGPLnRepeat = 1 / (16 R), R = 2; a
     * strip of two horizontal segments along y = 10.5, x 2 -> 30 -> 60.
     * Pixel n along the strip (from 0) shows texel (n / 2) mod 16; with
     * RGPClrLineCnt the count restarts at the second segment. */
    stipple_texture(&r, 0, 16, 1, line_on);
    rig_w16(&r, A_EGSTIPSEL, 0);
    rig_w32(&r, A_RGPLnRepeat, glamo_f24_from_float(1.0f / 32));
    rig_w32(&r, A_EGEN1, R_EGEN1_EGenLineStipple_MASK);
    for (pass = 0; pass < 2; pass++) {
        static const SVert l[3] = {
            { 2, 10.5f, 0.5f, 255, 255, 255 },
            { 30, 10.5f, 0.5f, 255, 255, 255 },
            { 60, 10.5f, 0.5f, 255, 255, 255 },
        };
        memset(r.vram + FB, 0, 128 * 40);
        rig_w32(&r, A_RGPLINE, pass ? R_RGPLINE_RGPClrLineCnt_MASK : 0);
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_LINE_STRIP);
        for (i = 0; i < 3; i++) {
            fire_vertex(&r, rig_direct32, &l[i]);
        }
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        for (x = 2; x < 60; x++) {
            int n = pass && x >= 30 ? x - 30 : x - 2;
            g_assert_cmphex(px(&r, FB, 128, x, 10), ==,
                            line_on((n / 2) % 16, 0) ? 0xffff : 0);
        }
        /* polygons are not line-stippled */
        g_assert_cmphex(px(&r, FB, 128, 1, 10), ==, 0);
    }
    rig_free(&r);
}

/* ---- texture coordinate sets C and D ------------------------------------ */

/*
 * A 32x32 quad from vertex streams (buffer mode): float x y, texture set
 * C (u, v) and set D (1 - u, v). Texture 0 takes set C (EGT0FROM 10) or D
 * (11): the 4x4 Index8 texture shows upright or mirrored left to right.
 */
static void test_texture_sets_cd(void)
{
    static const float q[6][2] = {
        { 0, 0 }, { 32, 0 }, { 0, 32 }, { 32, 0 }, { 32, 32 }, { 0, 32 },
    };
    GlamoRig r;
    int set, i, j;

    start(&r, false);
    for (i = 0; i < 6; i++) {
        uint32_t b = VB + 24 * i;
        float u = q[i][0] / 32, v = q[i][1] / 32;
        put32(&r, b, rig_fbits(q[i][0]));
        put32(&r, b + 4, rig_fbits(q[i][1]));
        put32(&r, b + 8, rig_fbits(u));
        put32(&r, b + 12, rig_fbits(v));
        put32(&r, b + 16, rig_fbits(1 - u));
        put32(&r, b + 20, rig_fbits(v));
    }
    for (set = 2; set < 4; set++) {
        memset(r.vram + FB, 0, 128 * 40);
        rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
        index8_texture(&r);
        rig_w16(&r, A_EGPrim0, (uint16_t)(GLAMO_FILL_SOLID << 12 |
                                          set << 10 | GLAMO_FILL_SOLID));
        rig_w32(&r, A_MGVStreamActive, 0x7);
        rig_w32(&r, A_MGVStrmCtl, 2 << 8);
        rig_w32(&r, GLAMO_MGVSTRM_DESC(0), 24 << 16 | 1 << 8 |
                GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_POSITION);
        rig_w32(&r, GLAMO_MGVSTRM_BAS(0), VB);
        rig_w32(&r, GLAMO_MGVSTRM_DESC(1), 24 << 16 | 1 << 8 |
                GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_TEXC);
        rig_w32(&r, GLAMO_MGVSTRM_BAS(1), VB + 8);
        rig_w32(&r, GLAMO_MGVSTRM_DESC(2), 24 << 16 | 1 << 8 |
                GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_TEXD);
        rig_w32(&r, GLAMO_MGVSTRM_BAS(2), VB + 16);
        rig_w32(&r, A_RGPDV, 24 << 20 | 6);
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_TRIANGLES);
        rig_w16(&r, A_MGBufCBMFire, GLAMO_CBM_BUFFER);
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        for (j = 0; j < 4; j++) {
            for (i = 0; i < 4; i++) {
                int tx = set == 2 ? i : 3 - i;
                g_assert_cmphex(px(&r, FB, 128, 8 * i + 4, 8 * j + 4), ==,
                                (uint16_t)((tx + 4 * j) * 0x0841 + 0x1000));
            }
        }
    }
    rig_free(&r);
}

/* ---- AA lines and points ------------------------------------------------ */

/* the coverage ramp: 4 texels of alpha 15, 10, 5, 0 (ARGB4444, white) */
static bool ramp_unused(int x, int y)
{
    (void)x;
    (void)y;
    return true;
}

static void test_antialias(void)
{
    static const uint8_t ramp[4] = { 15, 10, 5, 0 };
    GlamoRig r;
    int x, y, i, at;

    start(&r, false);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, 0);
    stipple_texture(&r, 1, 4, 1, ramp_unused);
    for (i = 0; i < 4; i++) {
        uint16_t t = (uint16_t)(ramp[i] << 12 | 0x0fff);
        r.vram[PAT + 2 * i] = (uint8_t)t;
        r.vram[PAT + 2 * i + 1] = (uint8_t)(t >> 8);
    }
    /* both AA kinds read unit 1, clamped: past the edge stays alpha 0 */
    rig_w32(&r, GLAMO_TX_BASE(1), 0x63u << 24 |
            (GLAMO_TXADDR_CLAMP << 3 | GLAMO_TXADDR_CLAMP) << 16);
    rig_w16(&r, A_EGSTIPSEL, 1 << 4 | 1);
    rig_w32(&r, A_EGBLSET, GLAMO_BLEQ_ADD << 24 | 4 << 4 | 5);

    /* a line 4 pixels wide along y = 20: rows 18..21 lie 1.5, 0.5, 0.5,
     * 1.5 from its centre; RGRCpHalf = 1/2 makes u = 0.75, 0.25, 0.25,
     * 0.75: texels 3, 1, 1, 3. Without EGenAALineAT and blending, the
     * alpha-0 rows are still written; with it they are removed. */
    for (at = 0; at < 2; at++) {
        static const SVert l[2] = {
            { 4, 20, 0.5f, 255, 255, 255 }, { 60, 20, 0.5f, 255, 255, 255 },
        };
        fill(&r, 0x001f);
        rig_w32(&r, A_RGPLINE, 4 << 4);
        rig_w32(&r, A_RGRCpHalf, glamo_f24_from_float(0.5f));
        rig_w32(&r, A_EGEN0, R_EGEN0_EGenAALine_MASK);
        rig_w32(&r, A_EGEN1, at ? R_EGEN1_EGenAALineAT_MASK : 0);
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_LINES);
        for (i = 0; i < 2; i++) {
            fire_vertex(&r, rig_direct32, &l[i]);
        }
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
        g_assert_cmphex(px(&r, FB, 128, 30, 19), ==, 0xffff);
        g_assert_cmphex(px(&r, FB, 128, 30, 18), ==, at ? 0x001f : 0xffff);
        g_assert_cmphex(px(&r, FB, 128, 30, 17), ==, 0x001f);
    }
    /* with blending: rows 19 and 20 are 10/15 white over blue */
    rig_w32(&r, A_EGEN0, R_EGEN0_EGenAALine_MASK | R_EGEN0_EGenBLEND_MASK);
    rig_w32(&r, A_EGEN1, 0);
    fill(&r, 0);
    {
        static const SVert l[2] = {
            { 4, 20, 0.5f, 255, 255, 255 }, { 60, 20, 0.5f, 255, 255, 255 },
        };
        rig_w16(&r, A_EGPrim1, GLAMO_PRIM_LINES);
        for (i = 0; i < 2; i++) {
            fire_vertex(&r, rig_direct32, &l[i]);
        }
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
    }
    for (y = 17; y <= 22; y++) {
        double a = y == 19 || y == 20 ? 10 / 15.0 : 0;
        g_assert_cmphex(px(&r, FB, 128, 30, y), ==, to565(a, a, a));
    }

    /* an AA point of size 8 at (32, 20): each pixel's alpha is the ramp
     * texel at u = (distance of its centre from (32, 20)) / 4 */
    fill(&r, 0);
    rig_w32(&r, A_EGEN0, R_EGEN0_EGenBLEND_MASK);
    rig_w32(&r, A_EGEN1, R_EGEN1_EGenAAPoint_MASK);
    rig_w32(&r, A_RGXPtsize, glamo_f24_from_float(8.0f));
    rig_w16(&r, A_EGPrim1, GLAMO_PRIM_POINTS);
    {
        static const SVert p = { 32, 20, 0.5f, 255, 255, 255 };
        fire_vertex(&r, rig_direct32, &p);
        rig_w16(&r, A_EGEND, 0);
        rig_run(&r);
    }
    for (y = 14; y < 26; y++) {
        for (x = 26; x < 38; x++) {
            double d = hypot(x + 0.5 - 32, y + 0.5 - 20), a = 0;
            if (x >= 28 && x < 36 && y >= 16 && y < 24) {
                int k = (int)floor(d / 4 * 4);     /* texel of u = d / 4 */
                a = k > 3 ? 0 : ramp[k] / 15.0;
            }
            g_assert_cmphex(px(&r, FB, 128, x, y), ==, to565(a, a, a));
        }
    }
    rig_free(&r);
}

/* ---- features without public semantics: logged as unimplemented -------- */

static unsigned unimps(void)
{
    return g3d_log_count(G3D_LOG_UNIMP);
}

static void test_unimplemented(void)
{
    GlamoRig r;
    G3DScanout so;
    unsigned u0;

    start(&r, false);
    /* a swizzled texture is read linear, with a log */
    u0 = unimps();
    draw_textured_quad(&r, 0x61, 8, 0);
    g_assert_cmpuint(unimps(), ==, u0);
    tx0set_extra = R_EGTX0SET_EGTXSwizFlg_MASK;
    draw_textured_quad(&r, 0x61, 8, 0);
    tx0set_extra = 0;
    g_assert_cmpuint(unimps(), >, u0);
    /* F1Z15 Z: Z16 used, with a log */
    u0 = unimps();
    memset(r.vram + ZB, 0xff, 128 * 40);
    rig_target(&r, rig_direct32, FB, 128, 64, 40, ZB);
    rig_w32(&r, A_EGZSET, GLAMO_ZFMT_F1Z15 << 20 | 1 << 16 | 64);
    flat_tri(&r, 0xffffffff);
    g_assert_cmpuint(unimps(), >, u0);
    g_assert_cmphex(px(&r, FB, 128, 8, 8), ==, 0xffff);
    /* LCD rotation: shown unrotated, with a log */
    u0 = unimps();
    rig_lcd(&r, FB, 128, 64, 40);
    rig_w16(&r, A_GLAMO_LCD_MODE1, GLAMO_LCD_MODE1_ROTATE_EN);
    rig_w16(&r, A_GLAMO_LCD_WIDTH, 0x2000 | 64);
    g_assert_true(glamo_scanout(r.core, 0, &so));
    g_assert_cmpuint(so.width, ==, 64);
    g_assert_cmpuint(unimps(), ==, u0 + 1);
    rig_free(&r);
}

/* ---- the 2D engine ------------------------------------------------------ */

/* Windows' ternary raster operation, bit by bit from its definition */
static uint16_t ref_rop3(uint8_t rop, uint16_t p, uint16_t s, uint16_t d)
{
    uint16_t out = 0;
    int b;

    for (b = 0; b < 16; b++) {
        int idx = ((p >> b) & 1) << 2 | ((s >> b) & 1) << 1 | ((d >> b) & 1);
        out |= (uint16_t)(((rop >> idx) & 1) << b);
    }
    return out;
}

static void w2d(GlamoRig *r, RigWrite32 *wr, uint32_t off, uint16_t v)
{
    if (wr == rig_cmd32) {
        rig_cmd_reg(r, off, v);
    } else {
        rig_w16(r, off, v);
    }
}

/* one 2D operation on the 64x40 surface at FB, as glamo-exa.c sends it */
static void op2d(GlamoRig *r, RigWrite32 *wr, uint8_t rop, uint16_t fg,
                 int sx, int sy, int dx, int dy, int w, int h)
{
    w2d(r, wr, A_GLAMO_2D_SRC_ADDRL, FB & 0xffff);
    w2d(r, wr, A_GLAMO_2D_SRC_ADDRH, FB >> 16);
    w2d(r, wr, A_GLAMO_2D_SRC_PITCH, 128);
    w2d(r, wr, A_GLAMO_2D_DST_ADDRL, FB & 0xffff);
    w2d(r, wr, A_GLAMO_2D_DST_ADDRH, FB >> 16);
    w2d(r, wr, A_GLAMO_2D_DST_PITCH, 128);
    w2d(r, wr, A_GLAMO_2D_DST_HEIGHT, 40);
    w2d(r, wr, A_GLAMO_2D_PAT_FG, fg);
    w2d(r, wr, A_GLAMO_2D_COMMAND2, (uint16_t)(rop << 8));
    w2d(r, wr, A_GLAMO_2D_SRC_X, (uint16_t)sx);
    w2d(r, wr, A_GLAMO_2D_SRC_Y, (uint16_t)sy);
    w2d(r, wr, A_GLAMO_2D_DST_X, (uint16_t)dx);
    w2d(r, wr, A_GLAMO_2D_DST_Y, (uint16_t)dy);
    w2d(r, wr, A_GLAMO_2D_RECT_WIDTH, (uint16_t)w);
    w2d(r, wr, A_GLAMO_2D_RECT_HEIGHT, (uint16_t)h);
    w2d(r, wr, A_GLAMO_2D_COMMAND3, 0);
    if (wr == rig_cmd32) {
        rig_cmd_submit(r);
        rig_run(r);
    }
}

static void test_2d(void)
{
    /* fills and copies: PATCOPY, P XOR D, SRCCOPY, S AND D, NOT S, and
     * copies whose source and destination overlap, by MMIO and through
     * the command queue; the expected surface is computed here */
    static const struct {
        uint8_t rop;
        uint16_t fg;
        int sx, sy, dx, dy, w, h;
    } ops[] = {
        { 0xf0, 0xf800, 0, 0, 4, 3, 20, 10 },
        { 0x5a, 0x07ff, 0, 0, 10, 8, 30, 12 },
        { 0xcc, 0, 2, 1, 40, 20, 16, 9 },
        { 0x88, 0, 30, 5, 3, 25, 12, 7 },
        { 0x33, 0, 0, 0, 50, 0, 10, 5 },
        { 0xcc, 0, 5, 5, 8, 7, 30, 20 },     /* overlapping, right/down */
        { 0xcc, 0, 8, 7, 5, 5, 30, 20 },     /* overlapping, left/up */
    };
    static uint16_t want[40][64], tmp[40][64];
    GlamoRig r;
    unsigned e0;
    int i, x, y, path;

    for (path = 0; path < 2; path++) {
        RigWrite32 *wr = path ? rig_cmd32 : rig_direct32;
        start(&r, path == 1);
        for (y = 0; y < 40; y++) {
            for (x = 0; x < 64; x++) {
                want[y][x] = (uint16_t)(x * 0x0841 ^ y * 0x1234);
                r.vram[FB + y * 128 + 2 * x] = (uint8_t)want[y][x];
                r.vram[FB + y * 128 + 2 * x + 1] = (uint8_t)(want[y][x] >> 8);
            }
        }
        for (i = 0; i < (int)G_N_ELEMENTS(ops); i++) {
            op2d(&r, wr, ops[i].rop, ops[i].fg, ops[i].sx, ops[i].sy,
                 ops[i].dx, ops[i].dy, ops[i].w, ops[i].h);
            memcpy(tmp, want, sizeof(tmp));
            for (y = 0; y < ops[i].h; y++) {
                for (x = 0; x < ops[i].w; x++) {
                    want[ops[i].dy + y][ops[i].dx + x] =
                        ref_rop3(ops[i].rop, ops[i].fg,
                                 tmp[ops[i].sy + y][ops[i].sx + x],
                                 tmp[ops[i].dy + y][ops[i].dx + x]);
                }
            }
            for (y = 0; y < 40; y++) {
                for (x = 0; x < 64; x++) {
                    g_assert_cmphex(px(&r, FB, 128, x, y), ==, want[y][x]);
                }
            }
        }
        /* past DST_HEIGHT, or a source past VRAM: logged, nothing drawn */
        e0 = errors();
        op2d(&r, wr, 0xf0, 0, 0, 0, 0, 35, 10, 10);
        g_assert_cmpuint(errors(), ==, e0 + 1);
        w2d(&r, wr, A_GLAMO_2D_COMMAND2, GLAMO_ROP3_SRCCOPY << 8);
        w2d(&r, wr, A_GLAMO_2D_SRC_ADDRH, 0x7f);
        w2d(&r, wr, A_GLAMO_2D_SRC_Y, 0x7fff);
        w2d(&r, wr, A_GLAMO_2D_DST_Y, 0);
        w2d(&r, wr, A_GLAMO_2D_COMMAND3, 0);
        if (wr == rig_cmd32) {
            rig_cmd_submit(&r);
            rig_run(&r);
        }
        g_assert_cmpuint(errors(), ==, e0 + 2);
        for (y = 0; y < 40; y++) {
            for (x = 0; x < 64; x++) {
                g_assert_cmphex(px(&r, FB, 128, x, y), ==, want[y][x]);
            }
        }
        rig_free(&r);
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/glamo/regs/reset", test_reset_values);
    g_test_add_func("/glamo/regs/masks", test_masks);
    g_test_add_func("/glamo/regs/halves", test_halves);
    g_test_add_func("/glamo/f24", test_f24);
    g_test_add_func("/glamo/f24-round", test_f24_round);
    g_test_add_func("/glamo/fire", test_fire);
    g_test_add_func("/glamo/cmdq/triangles", test_cmdq_triangles);
    g_test_add_func("/glamo/parser/streams", test_streams);
    g_test_add_func("/glamo/texture/formats", test_texel_formats);
    g_test_add_func("/glamo/texture/sets-cd", test_texture_sets_cd);
    g_test_add_func("/glamo/render/back-end", test_back_end);
    g_test_add_func("/glamo/texture/combiner", test_combiner);
    g_test_add_func("/glamo/gl/lighting", test_lighting);
    g_test_add_func("/glamo/gl/texture-transform", test_texture_transform);
    g_test_add_func("/glamo/gl/lighting-variants", test_lighting_variants);
    g_test_add_func("/glamo/gl/point-size", test_point_size);
    g_test_add_func("/glamo/setup/point-sprite", test_point_sprite);
    g_test_add_func("/glamo/render/stipple", test_stipple);
    g_test_add_func("/glamo/render/antialias", test_antialias);
    g_test_add_func("/glamo/setup/polygon-offset", test_polygon_offset);
    g_test_add_func("/glamo/bad/queue-length", test_bad_queue_length);
    g_test_add_func("/glamo/bad/burst", test_bad_burst);
    g_test_add_func("/glamo/bad/pitch", test_bad_pitch);
    g_test_add_func("/glamo/bad/coordinates", test_bad_coordinates);
    g_test_add_func("/glamo/bad/streams", test_bad_streams);
    g_test_add_func("/glamo/bad/reset", test_reset_recovers);
    g_test_add_func("/glamo/irq-lcd", test_irq_and_lcd);
    g_test_add_func("/glamo/unimplemented", test_unimplemented);
    g_test_add_func("/glamo/2d/fill-copy", test_2d);
    g_test_add_func("/glamo/scene/reference", test_reference_scene);
    g_test_add_func("/glamo/scene/textured", test_reference_textured);
    g_test_add_func("/glamo/scene/threads", test_threads_identical);
    return g_test_run();
}
