/*
 * Drawing, end to end through BAR0 and command lists built as a guest
 * builds them (citro3d order).
 *
 * The Gouraud test clears the colour buffer with PSC0, draws one triangle,
 * display-transfers the tiled buffer to a linear RGB8 top-screen framebuffer
 * and a cropped RGB565 bottom-screen one, and checks pica200_scanout of both
 * heads pixel by pixel against a reference computed here, independently of
 * the core: exact barycentric coordinates in double precision at pixel
 * centres, Citra's memory layout (8x8 Morton tiles, ym = H - 1 - y),
 * the LCDs' rotated layout (3Beans/3dbrew) and the formats' bit layouts. The
 * triangle's vertices sit on the 1/16 grid and no pixel centre lies on an
 * edge, so coverage does not depend on the fill rule; the fill rule has its
 * own test. Tolerance: 1 per 8-bit channel (interpolation rounding), one
 * 5/6-bit step after RGB565 quantisation; PSNR and differing pixels printed.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "image.h"
#include "pica-scene.h"
#include "common/g3d-core.h"
#include "common/scanout.h"

#define FBW 240
#define FBH 400
#define COLOR_VRAM 0x000000u
#define DEPTH_VRAM 0x080000u
#define TOP_VRAM 0x100000u
#define BOTTOM_VRAM 0x180000u
#define LIST_OFF 0x10000u
#define VB_OFF 0x100000u
#define PA(vram_off) (PICA200_PHYS_VRAM + (vram_off))
#define RAM_PA(off) (PICA200_PHYS_FCRAM + (off))

/* ---- independent reference ------------------------------------------------- */

typedef struct RefTri {
    double x[3], y[3];       /* window space, y up */
    double col[3][4];
} RefTri;

/*
 * Colour of window pixel (wx, wy) if the triangle covers its centre; false
 * otherwise. Asserts that no centre lies exactly on an edge.
 */
static bool ref_pixel(const RefTri *t, int wx, int wy, uint8_t out[4])
{
    double px = wx + 0.5, py = wy + 0.5, l[3], area;
    int k, c;

    area = (t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) -
           (t->y[1] - t->y[0]) * (t->x[2] - t->x[0]);
    for (k = 0; k < 3; k++) {
        int a = (k + 1) % 3, b = (k + 2) % 3;
        l[k] = ((t->x[b] - t->x[a]) * (py - t->y[a]) -
                (t->y[b] - t->y[a]) * (px - t->x[a])) / area;
        g_assert_true(l[k] != 0.0);
    }
    if (l[0] < 0 || l[1] < 0 || l[2] < 0) {
        return false;
    }
    for (c = 0; c < 4; c++) {
        double v = l[0] * t->col[0][c] + l[1] * t->col[1][c] + l[2] * t->col[2][c];
        out[c] = (uint8_t)floor(v * 255.0 + 0.5);
    }
    return true;
}

static int absdiff(int a, int b)
{
    return a > b ? a - b : b - a;
}

/* 8-bit -> RGB565 channel (truncation) -> 8-bit (bit replication) */
static int q5(int v)
{
    v >>= 3;
    return v << 3 | v >> 2;
}

static int q6(int v)
{
    v >>= 2;
    return v << 2 | v >> 4;
}

/* ---- the Gouraud triangle on both screens ----------------------------------- */

static const float tri_v[3][8] = {
    /* NDC positions on the 1/64 grid: window (30, 25), (225, 75), (105, 387.5) */
    { -48 / 64.0f, -56 / 64.0f, -0.5f, 1, 1, 0, 0, 1 },
    { 56 / 64.0f, -40 / 64.0f, -0.5f, 1, 0, 1, 0, 1 },
    { -8 / 64.0f, 60 / 64.0f, -0.5f, 1, 0, 0, 1, 1 },
};

static void ref_from_vertices(RefTri *r, const float (*v)[8], unsigned w,
                              unsigned h)
{
    int k, c;

    for (k = 0; k < 3; k++) {
        r->x[k] = (v[k][0] / v[k][3] + 1.0) * w / 2.0;
        r->y[k] = (v[k][1] / v[k][3] + 1.0) * h / 2.0;
        for (c = 0; c < 4; c++) {
            r->col[k][c] = v[k][4 + c];
        }
    }
}

static void draw_gouraud(PicaTest *t, int threads)
{
    CmdBuf b;

    pt_put_vertices(t, VB_OFF, &tri_v[0][0], 3);
    /* clear the colour buffer to (32, 32, 32, 255) with PSC0 */
    pt_fill(t, 0, PA(COLOR_VRAM), PA(COLOR_VRAM) + FBW * FBH * 4,
               0x202020FF, 2);
    g_assert_true(pt_run(t, 1000));
    g_assert_true(pica200_irq_level(t->core));
    g_assert_cmphex(pt_r32(t, A_PSC0_CONTROL), ==, 0x202);
    pt_w32(t, A_PSC0_CONTROL, 0x200);             /* clear "finished" */
    g_assert_false(pica200_irq_level(t->core));

    cb_init(&b);
    pica_cmd_basic_scene(&b, FBW, FBH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, RAM_PA(VB_OFF));
    pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(t, &b, LIST_OFF);
    g_assert_true(pt_run(t, 1000));
    g_assert_true(pica200_irq_level(t->core));
    pt_wreg(t, GPUREG_IRQ_ACK0, 0);
    g_assert_false(pica200_irq_level(t->core));
    cb_free(&b);
    (void)threads;
}

static void report(const char *what, const uint32_t *got, const uint32_t *want,
                   int w, int h)
{
    G3DImage a = { 0 }, bimg = { 0 };
    G3DImageDiff d;

    g_assert_true(g3d_image_alloc(&a, w, h));
    g_assert_true(g3d_image_alloc(&bimg, w, h));
    g3d_image_from_argb(&a, got, w);
    g3d_image_from_argb(&bimg, want, w);
    g_assert_true(g3d_image_compare(&a, &bimg, &d));
    printf("# %s: PSNR %.2f dB, %ld differing pixels, max channel delta %d\n",
           what, d.psnr, d.differing, d.max_delta);
    if (getenv("PICA200_TEST_PNG")) {
        char name[64];
        snprintf(name, sizeof(name), "pica200-%s.png", what);
        g3d_image_save(&a, name);
    }
    g3d_image_free(&a);
    g3d_image_free(&bimg);
}

static void test_gouraud_lcd(gconstpointer data)
{
    int threads = GPOINTER_TO_INT(data);
    PicaTest t;
    RefTri ref;
    G3DScanout so;
    uint32_t *top = g_new(uint32_t, 400 * 240), *bot = g_new(uint32_t, 320 * 240);
    uint32_t *want_top = g_new(uint32_t, 400 * 240), *want_bot = g_new(uint32_t, 320 * 240);
    int wx, wy, X, Y, covered = 0;
    long bad = 0;

    pt_init(&t, threads);
    ref_from_vertices(&ref, tri_v, FBW, FBH);
    draw_gouraud(&t, threads);

    /* the render target itself: tiled, rows top first, bytes A, B, G, R */
    for (wy = 0; wy < FBH; wy++) {
        for (wx = 0; wx < FBW; wx++) {
            uint8_t px[4] = { 32, 32, 32, 255 }, c;
            const uint8_t *m = t.vram + COLOR_VRAM +
                               pt_tiled_offset(wx, FBH - 1 - wy, FBW, 4);
            if (ref_pixel(&ref, wx, wy, px)) {
                covered++;
            }
            for (c = 0; c < 4; c++) {
                if (absdiff(m[3 - c], px[c]) > 1) {
                    bad++;
                }
            }
        }
    }
    g_assert_cmpint(bad, ==, 0);
    g_assert_cmpint(covered, >, 20000);

    /* display transfers: tiled RGBA8 -> linear RGB8 (top) and RGB565 (bottom) */
    pt_transfer(&t, PA(COLOR_VRAM), PA(TOP_VRAM), FBW | FBH << 16, FBW | FBH << 16,
             PICA_PIXFMT_RGBA8 << 8 | PICA_PIXFMT_RGB8 << 12);
    pt_transfer(&t, PA(COLOR_VRAM), PA(BOTTOM_VRAM), FBW | FBH << 16, FBW | 320 << 16,
             PICA_PIXFMT_RGBA8 << 8 | PICA_PIXFMT_RGB565 << 12);

    /* the LCD registers, as the GSP programs them */
    pt_w32(&t, A_PDC0_FRAMEBUF_A1, PA(TOP_VRAM));
    pt_w32(&t, A_PDC0_FRAMEBUF_FORMAT, PICA_PIXFMT_RGB8);
    pt_w32(&t, A_PDC0_FRAMEBUF_STRIDE, FBW * 3);
    pt_w32(&t, A_PDC0_FRAMEBUF_SELECT, 0);
    pt_w32(&t, A_PDC0_CONTROL, 1);
    pt_w32(&t, A_PDC1_FRAMEBUF_A2, PA(BOTTOM_VRAM));
    pt_w32(&t, A_PDC1_FRAMEBUF_FORMAT, PICA_PIXFMT_RGB565);
    pt_w32(&t, A_PDC1_FRAMEBUF_STRIDE, FBW * 2);
    pt_w32(&t, A_PDC1_FRAMEBUF_SELECT, 1);
    pt_w32(&t, A_PDC1_CONTROL, 1);

    g_assert_true(pica200_scanout(t.core, 0, &so));
    g_assert_cmpuint(so.width, ==, 400);
    g_assert_cmpuint(so.height, ==, 240);
    g_assert_true(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), top, 400, "test"));
    g_assert_true(pica200_scanout(t.core, 1, &so));
    g_assert_cmpuint(so.width, ==, 320);
    g_assert_true(g3d_scanout_copy(&so, pica200_scanout_mem(t.core), bot, 320, "test"));

    /*
     * The panels are rotated: screen column X is stored line X = transfer
     * output row X = memory row X = window row 399 - X; screen row Y is
     * pixel 239 - Y of the line = window column 239 - Y.
     */
    bad = 0;
    for (Y = 0; Y < 240; Y++) {
        for (X = 0; X < 400; X++) {
            uint8_t px[4] = { 32, 32, 32, 255 };
            uint32_t g = top[Y * 400 + X];
            wx = 239 - Y;
            wy = 399 - X;
            ref_pixel(&ref, wx, wy, px);
            want_top[Y * 400 + X] = 0xFF000000u | px[0] << 16 | px[1] << 8 | px[2];
            if (absdiff(g >> 16 & 0xFF, px[0]) > 1 || absdiff(g >> 8 & 0xFF, px[1]) > 1 ||
                absdiff(g & 0xFF, px[2]) > 1 || g >> 24 != 0xFF) {
                bad++;
            }
            if (X < 320) {
                uint32_t h = bot[Y * 320 + X];
                int ok = 0, d;
                want_bot[Y * 320 + X] = 0xFF000000u | q5(px[0]) << 16 |
                                        q6(px[1]) << 8 | q5(px[2]);
                for (d = -1; d <= 1; d++) {
                    int r = g3d_clampi(px[0] + d, 0, 255);
                    int gg = g3d_clampi(px[1] + d, 0, 255);
                    int bb = g3d_clampi(px[2] + d, 0, 255);
                    ok |= (int)(h >> 16 & 0xFF) == q5(r);
                    ok |= ((int)(h >> 8 & 0xFF) == q6(gg)) << 1;
                    ok |= ((int)(h & 0xFF) == q5(bb)) << 2;
                }
                if (ok != 7) {
                    bad++;
                }
            }
        }
    }
    report("top-screen", top, want_top, 400, 240);
    report("bottom-screen", bot, want_bot, 320, 240);
    g_assert_cmpint(bad, ==, 0);
    g_free(top);
    g_free(bot);
    g_free(want_top);
    g_free(want_bot);
    pt_free(&t);
}

/* ---- coverage, topologies and the fill rule, by counting with blending ---- */

#define CW 64
#define CH 64

/* draw into a CW x CH RGBA8 target with additive blending (ONE, ONE) */
static void count_setup(CmdBuf *b)
{
    pica_cmd_basic_scene(b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, RAM_PA(VB_OFF));
    pica_cmd_reg(b, GPUREG_BLEND_FUNC, 0x11110000);      /* add, ONE, ONE */
}

/* window (x, y) -> NDC for the CW x CH target */
static void vtx(float *v, double wx, double wy)
{
    v[0] = (float)(wx / (CW / 2.0) - 1.0);
    v[1] = (float)(wy / (CH / 2.0) - 1.0);
    v[2] = -0.5f;
    v[3] = 1;
    v[4] = 16 / 255.0f;   /* each draw adds 16 to red */
    v[5] = v[6] = 0;
    v[7] = 0;
}

/* clear the target and put vertices at window points p[0..n-1] */
static void put_points(PicaTest *t, const double (*p)[2], unsigned n)
{
    float v[8][8];
    unsigned i;

    g_assert_cmpuint(n, <=, 8);
    for (i = 0; i < n; i++) {
        vtx(v[i], p[i][0], p[i][1]);
    }
    pt_put_vertices(t, VB_OFF, &v[0][0], n);
    memset(t->vram, 0, CW * CH * 4);
}

/* red of window pixel (wx, wy) / 16 = how often it was drawn */
static int count_at(PicaTest *t, int wx, int wy)
{
    return t->vram[COLOR_VRAM + pt_tiled_offset(wx, CH - 1 - wy, CW, 4) + 3] / 16;
}

static void run_list(PicaTest *t, CmdBuf *b)
{
    pica_cmd_finalize(b);
    pt_kick(t, b, LIST_OFF);
    g_assert_true(pt_run(t, 1000));
    pt_wreg(t, GPUREG_IRQ_ACK0, 0);
}

/* draw n vertices of `topology` from the vertex buffer into the count scene */
static void count_draw(PicaTest *t, unsigned topology, unsigned n)
{
    CmdBuf b;

    cb_init(&b);
    count_setup(&b);
    pica_cmd_draw(&b, topology, n, 0, false, 0);
    run_list(t, &b);
    cb_free(&b);
}

static void test_fill_rule(void)
{
    PicaTest t;
    int x, y;

    pt_init(&t, 1);
    memset(t.vram, 0, CW * CH * 4);
    /*
     * A rectangle [5.5, 30.5] x [10.5, 20.5] in window space, edges through
     * pixel centres, as two triangles. The rule (Citra: right and top edges
     * out, in y-up window space): columns 5..29, rows 10..19, each once.
     */
    put_points(&t, (const double[][2]){ { 5.5, 10.5 }, { 30.5, 10.5 },
                                        { 30.5, 20.5 }, { 5.5, 10.5 },
                                        { 30.5, 20.5 }, { 5.5, 20.5 } }, 6);
    count_draw(&t, PICA_TOPOLOGY_TRIANGLES, 6);
    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            int want = x >= 5 && x <= 29 && y >= 10 && y <= 19;
            if (count_at(&t, x, y) != want) {
                g_error("pixel (%d, %d) drawn %d times, want %d", x, y,
                        count_at(&t, x, y), want);
            }
        }
    }
    pt_free(&t);
}

/* a 32x32 square [16, 48) x [8, 40) drawn with `topology` */
static void check_square(PicaTest *t, const char *what)
{
    int x, y;

    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            int want = x >= 16 && x < 48 && y >= 8 && y < 40;
            if (count_at(t, x, y) != want) {
                g_error("%s: pixel (%d, %d) drawn %d times, want %d", what, x,
                        y, count_at(t, x, y), want);
            }
        }
    }
}

static void draw_square(PicaTest *t, unsigned topology, unsigned count,
                        unsigned first, bool indexed, uint32_t index_cfg,
                        const char *what)
{
    CmdBuf b;

    memset(t->vram, 0, CW * CH * 4);
    cb_init(&b);
    count_setup(&b);
    pica_cmd_draw(&b, topology, count, first, indexed, index_cfg);
    run_list(t, &b);
    check_square(t, what);
    cb_free(&b);
}

static void test_topologies(void)
{
    static const double sq[4][2] = { { 16, 8 }, { 48, 8 }, { 16, 40 }, { 48, 40 } };
    PicaTest t;
    float v[8][8];
    uint8_t idx8[6] = { 0, 1, 3, 0, 3, 2 };
    uint16_t idx16[6] = { 3, 2, 0, 0, 1, 3 };
    int i;

    pt_init(&t, 2);
    for (i = 0; i < 4; i++) {
        vtx(v[i], sq[i][0], sq[i][1]);
    }
    pt_put_vertices(&t, VB_OFF, &v[0][0], 4);
    memcpy(t.ram + VB_OFF + 0x1000, idx8, sizeof(idx8));
    memcpy(t.ram + VB_OFF + 0x2000, idx16, sizeof(idx16));

    draw_square(&t, PICA_TOPOLOGY_STRIP, 4, 0, false, 0, "strip");
    /* fan of vertices 4..7 (VERTEX_OFFSET 4) */
    vtx(v[4], 16, 8);
    vtx(v[5], 48, 8);
    vtx(v[6], 48, 40);
    vtx(v[7], 16, 40);
    pt_put_vertices(&t, VB_OFF, &v[0][0], 8);
    draw_square(&t, PICA_TOPOLOGY_FAN, 4, 4, false, 0, "fan");
    /* indexed list, u8 indices (mode 3 "geometry primitive" without GS =
     * list, as citro3d draws indexed lists) */
    draw_square(&t, PICA_TOPOLOGY_GEOMETRY, 6, 0, true, 0x1000, "indexed-u8");
    /* indexed list, u16 indices */
    draw_square(&t, PICA_TOPOLOGY_TRIANGLES, 6, 0, true, 0x80002000, "indexed-u16");
    pt_free(&t);
}

static void test_culling(void)
{
    /* counter-clockwise, then clockwise, in window space (y up) */
    static const double tri[2][3][2] = {
        { { 8, 8 }, { 40, 8 }, { 8, 40 } },
        { { 8, 8 }, { 8, 40 }, { 40, 8 } },
    };
    /* the mode that culls each: 1 culls CCW, 2 culls CW, 0 and 3 none */
    static const unsigned culled_by[2] = { PICA_CULL_FRONT_CCW, PICA_CULL_BACK_CCW };
    PicaTest t;
    unsigned w, mode;

    pt_init(&t, 1);
    for (w = 0; w < 2; w++) {
        for (mode = 0; mode < 4; mode++) {
            CmdBuf b;
            put_points(&t, tri[w], 3);
            cb_init(&b);
            count_setup(&b);
            pica_cmd_reg(&b, GPUREG_FACECULLING_CONFIG, mode);
            pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
            run_list(&t, &b);
            g_assert_cmpint(count_at(&t, 12, 12), ==, mode != culled_by[w]);
            cb_free(&b);
        }
    }
    pt_free(&t);
}

static void test_clip_and_scissor(void)
{
    PicaTest t;
    CmdBuf b;
    float v[6][8];
    int x, y, n = 0;

    pt_init(&t, 1);
    memset(t.vram, 0, CW * CH * 4);
    /* a triangle reaching far outside the view volume on the right and in z */
    vtx(v[0], 8, 8);
    vtx(v[1], 400, 8);
    vtx(v[2], 8, 400);
    v[1][2] = 3.0f;                   /* behind z = 0 */
    pt_put_vertices(&t, VB_OFF, &v[0][0], 3);
    count_draw(&t, PICA_TOPOLOGY_TRIANGLES, 3);
    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            g_assert_cmpint(count_at(&t, x, y), <=, 1);
            n += count_at(&t, x, y);
        }
    }
    g_assert_cmpint(n, >, 100);
    g_assert_cmpint(count_at(&t, 9, 9), ==, 1);

    /* scissor: window x 20..29, y 30..39 inclusive of a full-screen quad */
    put_points(&t, (const double[][2]){ { 0, 0 }, { 64, 0 }, { 0, 64 }, { 64, 64 } }, 4);
    cb_init(&b);
    count_setup(&b);
    pica_cmd_reg(&b, GPUREG_SCISSORTEST_MODE, 3);
    pica_cmd_reg(&b, GPUREG_SCISSORTEST_POS, 20 | 30 << 16);
    pica_cmd_reg(&b, GPUREG_SCISSORTEST_DIM, 29 | 39 << 16);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    /* inverted scissor on a second pass: everything else */
    pica_cmd_reg(&b, GPUREG_SCISSORTEST_MODE, 1);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_reg(&b, GPUREG_SCISSORTEST_MODE, 0);
    run_list(&t, &b);
    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            g_assert_cmpint(count_at(&t, x, y), ==, 1);
        }
    }
    cb_free(&b);
    pt_free(&t);
}

/* ---- depth test into an RGB565 target ---------------------------------------- */

static void test_depth_rgb565(void)
{
    PicaTest t;
    CmdBuf b;
    /* a near red square and a far green one over it, green drawn second */
    float v[8][8];
    int i;
    const uint8_t *px;

    pt_init(&t, 1);
    for (i = 0; i < 8; i++) {
        static const double sq[4][2] = { { 8, 8 }, { 40, 8 }, { 8, 40 }, { 40, 40 } };
        vtx(v[i], sq[i & 3][0] + (i >> 2) * 16, sq[i & 3][1] + (i >> 2) * 16);
        v[i][2] = i < 4 ? -0.25f : -0.75f;    /* depth 0.25 and 0.75 */
        v[i][4] = i < 4 ? 1 : 0;
        v[i][5] = i < 4 ? 0 : 1;
        v[i][7] = 1;
    }
    pt_put_vertices(&t, VB_OFF, &v[0][0], 8);
    /* clear: colour 0 (16-bit fill), depth D24 to 0xFFFFFF (24-bit fill) */
    pt_fill(&t, 0, PA(COLOR_VRAM), PA(COLOR_VRAM) + CW * CH * 2, 0, 0);
    pt_fill(&t, 1, PA(DEPTH_VRAM), PA(DEPTH_VRAM) + CW * CH * 3, 0xFFFFFF, 1);
    g_assert_true(pt_run(&t, 100));
    pt_w32(&t, A_PSC0_CONTROL, 0);
    pt_w32(&t, A_PSC1_CONTROL, 0);
    cb_init(&b);
    pica_cmd_shader_passthrough(&b);
    pica_cmd_viewport(&b, CW, CH, 0, 0);
    pica_cmd_target(&b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGB565, PA(DEPTH_VRAM),
              PICA_DEPTH_D24);
    pica_cmd_fragment(&b, true, PICA_CMP_LESS, true);
    pica_cmd_attribs(&b, RAM_PA(VB_OFF), PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 0, false, 0);
    pica_cmd_draw(&b, PICA_TOPOLOGY_STRIP, 4, 4, false, 0);
    run_list(&t, &b);
    /* (30, 30): both, red (near) wins; (20, 20) red only; (44, 44) green
     * only; (4, 4) none */
    px = t.vram + COLOR_VRAM + pt_tiled_offset(30, CH - 1 - 30, CW, 2);
    g_assert_cmphex(px[0] | px[1] << 8, ==, 0xF800);
    px = t.vram + COLOR_VRAM + pt_tiled_offset(20, CH - 1 - 20, CW, 2);
    g_assert_cmphex(px[0] | px[1] << 8, ==, 0xF800);
    px = t.vram + COLOR_VRAM + pt_tiled_offset(44, CH - 1 - 44, CW, 2);
    g_assert_cmphex(px[0] | px[1] << 8, ==, 0x07E0);
    px = t.vram + COLOR_VRAM + pt_tiled_offset(4, CH - 1 - 4, CW, 2);
    g_assert_cmphex(px[0] | px[1] << 8, ==, 0);
    /* depth of the red square: 0.25 * 0xFFFFFF, truncated */
    px = t.vram + DEPTH_VRAM + pt_tiled_offset(20, CH - 1 - 20, CW, 3);
    g_assert_cmphex(px[0] | px[1] << 8 | px[2] << 16, ==, 0x3FFFFF);
    cb_free(&b);
    pt_free(&t);
}

/* ---- attribute formats, fixed attributes, immediate mode ---------------------- */

static void snapshot(PicaTest *t, uint8_t *out)
{
    memcpy(out, t->vram + COLOR_VRAM, CW * CH * 4);
}

/*
 * a scene for integer attributes: pos = v0 * (2/64, 2/64, 1, 1) +
 * (-1, -1, -0.5, 0) maps window coordinates to NDC, colour = v1 / 255
 */
static void int_setup(CmdBuf *b)
{
    const float c0[4] = { 2 / 64.0f, 2 / 64.0f, 1, 1 }, c1[4] = { -1, -1, -0.5f, 0 };
    const float c2[4] = { 1 / 255.0f, 1 / 255.0f, 1 / 255.0f, 1 };

    pica_cmd_shader(b, c0, c1, c2);
    pica_cmd_viewport(b, CW, CH, 0, 0);
    pica_cmd_target(b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, 0, 0);
    pica_cmd_fragment(b, false, PICA_CMP_ALWAYS, false);
}

/* draw the list's triangle and compare the target with `want` (within 1) */
static void draw_compare(PicaTest *t, CmdBuf *b, const uint8_t *want)
{
    int i;

    pica_cmd_draw(b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
    run_list(t, b);
    cb_free(b);
    for (i = 0; i < CW * CH * 4; i++) {
        g_assert_cmpint(absdiff(t->vram[COLOR_VRAM + i], want[i]), <=, 1);
    }
}

static void test_attribute_formats(void)
{
    PicaTest t;
    CmdBuf b;
    float v[3][8];
    uint8_t *want = g_malloc(CW * CH * 4), *got = g_malloc(CW * CH * 4);
    struct {
        int16_t pos[3];           /* window coordinates, s16 */
        uint8_t pad[6];           /* align to 4, then 4 bytes of padding */
        uint8_t col[3];           /* u8 colour */
    } __attribute__((packed)) sv[3];
    int i;

    pt_init(&t, 1);
    /* reference: the float draw */
    vtx(v[0], 4, 4);
    vtx(v[1], 60, 12);
    vtx(v[2], 24, 56);
    for (i = 0; i < 3; i++) {
        v[i][4] = (i == 0) * 200 / 255.0f;
        v[i][5] = (i == 1) * 100 / 255.0f;
        v[i][6] = (i == 2) * 255 / 255.0f;
        v[i][7] = 1;
    }
    pt_put_vertices(&t, VB_OFF, &v[0][0], 3);
    memset(t.vram, 0, CW * CH * 4);
    cb_init(&b);
    pica_cmd_basic_scene(&b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, RAM_PA(VB_OFF));
    pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
    run_list(&t, &b);
    cb_free(&b);
    snapshot(&t, want);

    /*
     * The same triangle from integers: s16 x/y/z (w defaults to 1), 4 bytes
     * of padding, u8 r/g/b (a defaults to 1 -> scaled by c2.w = 1). The
     * shader scales: pos = v0 * (2/64, 2/64, 1, 1) + (-1, -1, 0, 0).
     */
    for (i = 0; i < 3; i++) {
        sv[i].pos[0] = (int16_t)((v[i][0] + 1) * 32);
        sv[i].pos[1] = (int16_t)((v[i][1] + 1) * 32);
        sv[i].pos[2] = 0;
        memset(sv[i].pad, 0x77, sizeof(sv[i].pad));
        sv[i].col[0] = (uint8_t)(v[i][4] * 255 + 0.5f);
        sv[i].col[1] = (uint8_t)(v[i][5] * 255 + 0.5f);
        sv[i].col[2] = (uint8_t)(v[i][6] * 255 + 0.5f);
    }
    memcpy(t.ram + VB_OFF, sv, sizeof(sv));
    memset(t.vram, 0, CW * CH * 4);
    cb_init(&b);
    int_setup(&b);
    pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_LOC, RAM_PA(VB_OFF) >> 3);
    pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_FORMAT_LOW,
           PICA_ATTRIB_FORMAT(PICA_ATTR_S16, 3) |
           PICA_ATTRIB_FORMAT(PICA_ATTR_U8, 3) << 4);
    pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, 0x0FFCu << 16 | 1u << 28);
    {
        /* components: attr0, 4-byte pad (12), attr1; 15 bytes per vertex */
        uint32_t buf0[3] = { 0, 0x1C0, 15u << 16 | 3u << 28 };
        pica_cmd(&b, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, true, buf0, 3);
    }
    for (i = 1; i < 12; i++) {
        pica_cmd_reg(&b, PICA_ATTRIBBUFFER_CONFIG2(i), 0);
    }
    /*
     * the padding is 4-aligned (6 -> 8 -> 12); the colour scale arrives as
     * float24, so allow one step of rounding
     */
    draw_compare(&t, &b, want);

    /*
     * colour first, then position: u8 x3 at 0..2, the s16 position aligned
     * to 2 at 4..9 (Citra aligns each attribute to its element size)
     */
    {
        uint8_t raw[3][10];
        uint32_t buf0[3] = { 0, 0x01, 10u << 16 | 2u << 28 };
        for (i = 0; i < 3; i++) {
            memcpy(raw[i], sv[i].col, 3);
            raw[i][3] = 0xEE;
            memcpy(raw[i] + 4, sv[i].pos, 6);
        }
        memcpy(t.ram + VB_OFF, raw, sizeof(raw));
        memset(t.vram, 0, CW * CH * 4);
        cb_init(&b);
        int_setup(&b);
        pica_cmd_attribs(&b, RAM_PA(VB_OFF), PICA_ATTRIB_FORMAT(PICA_ATTR_S16, 3),
                   PICA_ATTRIB_FORMAT(PICA_ATTR_U8, 3), 10);
        pica_cmd(&b, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, true, buf0, 3);
        draw_compare(&t, &b, want);
    }

    /* a fixed colour attribute: attribute 1 marked fixed, set via FIXEDATTRIB */
    memset(t.vram, 0, CW * CH * 4);
    pt_put_vertices(&t, VB_OFF, &v[0][0], 3);
    cb_init(&b);
    pica_cmd_basic_scene(&b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, RAM_PA(VB_OFF));
    {
        uint32_t buf0[3] = { 0, 0x0, 32u << 16 | 1u << 28 };   /* attr0 only */
        const float col[4] = { 0.5f, 0.25f, 1, 1 };
        uint32_t p[4];
        pica_cmd(&b, PICA_ATTRIBBUFFER_OFFSET(0), 0xF, true, buf0, 3);
        pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, 0x0FFEu << 16 | 1u << 28);
        p[0] = 1;
        pica_pack_f24x4(col, p + 1);
        pica_cmd(&b, GPUREG_FIXEDATTRIB_INDEX, 0xF, true, p, 4);
    }
    pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
    run_list(&t, &b);
    cb_free(&b);
    {
        const uint8_t *px = t.vram + COLOR_VRAM + pt_tiled_offset(20, CH - 1 - 20, CW, 4);
        g_assert_cmpuint(px[3], ==, 128);    /* R = round(0.5 * 255) */
        g_assert_cmpuint(px[2], ==, 64);     /* G = round(0.25 * 255) */
        g_assert_cmpuint(px[1], ==, 255);
    }

    /* immediate mode: the float triangle through FIXEDATTRIB index 0xF */
    memset(t.vram, 0, CW * CH * 4);
    cb_init(&b);
    pica_cmd_basic_scene(&b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, RAM_PA(VB_OFF));
    pica_cmd_regm(&b, GPUREG_PRIMITIVE_CONFIG, 0x2, 0);
    pica_cmd_reg(&b, GPUREG_RESTART_PRIMITIVE, 1);
    pica_cmd_reg(&b, GPUREG_INDEXBUFFER_CONFIG, 0x80000000);
    pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG2, 0x1, 1);
    pica_cmd_regm(&b, GPUREG_START_DRAW_FUNC0, 0x1, 0);
    pica_cmd_reg(&b, GPUREG_FIXEDATTRIB_INDEX, PICA_FIXEDATTRIB_IMMEDIATE);
    for (i = 0; i < 3; i++) {
        uint32_t p[3];
        pica_pack_f24x4(&v[i][0], p);
        pica_cmd(&b, GPUREG_FIXEDATTRIB_DATA0, 0xF, true, p, 3);
        pica_pack_f24x4(&v[i][4], p);
        pica_cmd(&b, GPUREG_FIXEDATTRIB_DATA0, 0xF, true, p, 3);
    }
    pica_cmd_regm(&b, GPUREG_START_DRAW_FUNC0, 0x1, 1);
    pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG2, 0x1, 0);
    pica_cmd_reg(&b, GPUREG_VTX_FUNC, 1);
    run_list(&t, &b);
    cb_free(&b);
    snapshot(&t, got);
    /* colours arrive as f24 instead of f32: allow one step */
    for (i = 0; i < CW * CH * 4; i++) {
        g_assert_cmpint(absdiff(got[i], want[i]), <=, 1);
    }
    g_free(want);
    g_free(got);
    pt_free(&t);
}

/* ---- the geometry shader: one point in, a triangle out --------------------- */

/* the count scene with a geometry shader `gs` run on one point at (32, 32) */
static void gs_draw(PicaTest *t, const uint32_t *gs, unsigned n, uint8_t loops)
{
    static const float off[3][4] = {
        { -0.5f, -0.5f, 0, 0 }, { 0.5f, -0.5f, 0, 0 }, { -0.5f, 0.5f, 0, 0 },
    };
    CmdBuf b;
    unsigned i;

    put_points(t, (const double[][2]){ { 32, 32 } }, 1);
    cb_init(&b);
    count_setup(&b);
    /* geometry stage on, GS configuration separate */
    pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG, 0x1, 2);
    pica_cmd_regm(&b, GPUREG_VSH_COM_MODE, 0x1, 1);
    pica_cmd_reg(&b, GPUREG_GSH_CODETRANSFER_INDEX, 0);
    pica_cmd(&b, GPUREG_GSH_CODETRANSFER_DATA0, 0xF, false, gs, n);
    pica_cmd_reg(&b, GPUREG_GSH_CODETRANSFER_END, 1);
    pica_cmd_reg(&b, GPUREG_GSH_OPDESCS_INDEX, 0);
    pica_cmd_reg(&b, GPUREG_GSH_OPDESCS_DATA0,
           PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, 0));
    for (i = 0; i < 3; i++) {
        uint32_t p[4];
        p[0] = i;
        pica_pack_f24x4(off[i], p + 1);
        pica_cmd(&b, GPUREG_GSH_FLOATUNIFORM_INDEX, 0xF, true, p, 4);
    }
    pica_cmd_reg(&b, GPUREG_GSH_INTUNIFORM_I0, 1);
    pica_cmd_reg(&b, GPUREG_GSH_INTUNIFORM_I1, loops);
    pica_cmd_reg(&b, GPUREG_GSH_ENTRYPOINT, 0x7FFF0000);
    pica_cmd_reg(&b, GPUREG_GSH_OUTMAP_MASK, 0x3);
    pica_cmd_reg(&b, GPUREG_GSH_INPUTBUFFER_CONFIG, 0x08000001);   /* 2 inputs */
    pica_cmd_reg(&b, GPUREG_GSH_ATTRIBUTES_PERMUTATION_LOW, 0x76543210);
    pica_cmd_reg(&b, GPUREG_GSH_MISC0, 0);
    pica_cmd_draw(&b, PICA_TOPOLOGY_GEOMETRY, 1, 0, false, 0);
    run_list(t, &b);
    cb_free(&b);
}

/*
 * GS: v0 = the VS position, v1 = colour. Set up three corners around v0,
 * (v0 + c0), (v0 + c1), (v0 + c2) in colour v1, the third one emitting.
 */
#define GS_TRIANGLE                                                          \
    PICA_SH_FMT4(0, 0, 0),                                                   \
    PICA_SH_FMT1(PICA_SH_ADD, PICA_SH_O(0), PICA_SH_C(0), PICA_SH_V(0), 0, 0), \
    PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(1), PICA_SH_V(1), 0, 0, 0),         \
    (uint32_t)PICA_SH_EMIT << 26,                                            \
    PICA_SH_FMT4(1, 0, 0),                                                   \
    PICA_SH_FMT1(PICA_SH_ADD, PICA_SH_O(0), PICA_SH_C(1), PICA_SH_V(0), 0, 0), \
    (uint32_t)PICA_SH_EMIT << 26,                                            \
    PICA_SH_FMT4(2, 1, 0),                                                   \
    PICA_SH_FMT1(PICA_SH_ADD, PICA_SH_O(0), PICA_SH_C(2), PICA_SH_V(0), 0, 0)

static void test_geometry_shader(void)
{
    PicaTest t;
    static const uint32_t gs[] = {
        GS_TRIANGLE,
        (uint32_t)PICA_SH_EMIT << 26,
        (uint32_t)PICA_SH_END << 26,
    };
    /* the same triangle emitted 2 * 256 times in nested loops */
    static const uint32_t gs_many[] = {
        GS_TRIANGLE,
        PICA_SH_FMT3(PICA_SH_LOOP, 11, 0, 0),       /* i0.x = 1: twice */
        PICA_SH_FMT3(PICA_SH_LOOP, 11, 0, 1),       /* i1.x = 255: 256 times */
        (uint32_t)PICA_SH_EMIT << 26,
        (uint32_t)PICA_SH_END << 26,
    };
    Pica200Stats st;
    unsigned errors;
    int x, y, n = 0;

    pt_init(&t, 1);
    gs_draw(&t, gs, G_N_ELEMENTS(gs), 0);
    /* the triangle (16, 16), (48, 16), (16, 48): 32 * 32 / 2 pixels */
    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            g_assert_cmpint(count_at(&t, x, y), <=, 1);
            n += count_at(&t, x, y);
        }
    }
    g_assert_cmpint(n, >=, 32 * 31 / 2);
    g_assert_cmpint(n, <=, 32 * 33 / 2);
    g_assert_cmpint(count_at(&t, 17, 17), ==, 1);
    g_assert_cmpint(count_at(&t, 46, 46), ==, 0);

    /* one run may emit 256 primitives; the rest are dropped with a message */
    pica200_core_reset(t.core);
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    gs_draw(&t, gs_many, G_N_ELEMENTS(gs_many), 255);
    pica200_stats(t.core, &st);
    g_assert_cmpuint(st.triangles, ==, 256);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), ==, errors + 1);
    g_assert_cmpint(count_at(&t, 17, 17), ==, 255 / 16);   /* saturated */
    pt_free(&t);
}

/*
 * The geometry shader's fixed and variable primitive modes (Citra,
 * geometry_pipeline.cpp): vertex shader outputs land in GS float uniforms.
 * GS: a triangle from positions in c[p0], c[p1], c[p2] with the colour in
 * c[col]; the first vertex's uniforms are checked through what is drawn.
 */
static void gs_uniform_draw(PicaTest *t, unsigned mode, const unsigned pos[3],
                            unsigned col, uint32_t misc0, uint32_t misc1,
                            const uint8_t *indices, unsigned n)
{
    const uint32_t gs[] = {
        PICA_SH_FMT4(0, 0, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(0), PICA_SH_C(pos[0]), 0, 0, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(1), PICA_SH_C(col), 0, 0, 0),
        (uint32_t)PICA_SH_EMIT << 26,
        PICA_SH_FMT4(1, 0, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(0), PICA_SH_C(pos[1]), 0, 0, 0),
        (uint32_t)PICA_SH_EMIT << 26,
        PICA_SH_FMT4(2, 1, 0),
        PICA_SH_FMT1(PICA_SH_MOV, PICA_SH_O(0), PICA_SH_C(pos[2]), 0, 0, 0),
        (uint32_t)PICA_SH_EMIT << 26,
        (uint32_t)PICA_SH_END << 26,
    };
    CmdBuf b;

    cb_init(&b);
    count_setup(&b);
    pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG, 0x1, 2);
    pica_cmd_regm(&b, GPUREG_VSH_COM_MODE, 0x1, 1);
    pica_cmd_reg(&b, GPUREG_GSH_CODETRANSFER_INDEX, 0);
    pica_cmd(&b, GPUREG_GSH_CODETRANSFER_DATA0, 0xF, false, gs, G_N_ELEMENTS(gs));
    pica_cmd_reg(&b, GPUREG_GSH_CODETRANSFER_END, 1);
    pica_cmd_reg(&b, GPUREG_GSH_OPDESCS_INDEX, 0);
    pica_cmd_reg(&b, GPUREG_GSH_OPDESCS_DATA0,
                 PICA_OPDESC(0xF, 0, PICA_SWZ_XYZW, 0, PICA_SWZ_XYZW, 0, 0));
    pica_cmd_reg(&b, GPUREG_GSH_ENTRYPOINT, 0x7FFF0000);
    pica_cmd_reg(&b, GPUREG_GSH_OUTMAP_MASK, 0x3);
    pica_cmd_reg(&b, GPUREG_GSH_INPUTBUFFER_CONFIG, 0x08000100 | (mode ? 0x100 : 0));
    pica_cmd_reg(&b, GPUREG_GSH_MISC0, misc0);
    pica_cmd_reg(&b, GPUREG_GSH_MISC1, misc1);
    pica_cmd_reg(&b, GPUREG_GSH_BOOLUNIFORM, 0x7FFF0000);
    if (indices) {
        /* u8 indices 0x1000 after the attribute base */
        memcpy(t->ram + VB_OFF + 0x1000, indices, n);
        pica_cmd_draw(&b, PICA_TOPOLOGY_GEOMETRY, n, 0, true, 0x1000);
    } else {
        pica_cmd_draw(&b, PICA_TOPOLOGY_GEOMETRY, n, 0, false, 0);
    }
    run_list(t, &b);
    cb_free(&b);
}

static void test_geometry_shader_modes(void)
{
    PicaTest t;
    const double pts[6][2] = { { 8, 8 }, { 40, 8 }, { 8, 40 },
                               { 60, 60 }, { 44, 60 }, { 60, 44 } };
    unsigned errors;

    pt_init(&t, 1);
    /* fixed: 3 vertices of 2 outputs from c8 on: positions c8, c10, c12 */
    put_points(&t, pts, 6);
    gs_uniform_draw(&t, 1, (const unsigned[3]){ 8, 10, 12 }, 9,
                    PICA_GS_MODE_FIXED | 2u << 8 | 1u << 16 | 8u << 24, 0, NULL, 6);
    g_assert_cmpint(count_at(&t, 12, 12), ==, 1);   /* first triangle */
    g_assert_cmpint(count_at(&t, 56, 56), ==, 1);   /* second one */
    g_assert_cmpint(count_at(&t, 30, 30), ==, 0);
    /* b15 reads 1 after a run */
    g_assert_cmphex(pt_rreg(&t, GPUREG_GSH_BOOLUNIFORM) & 0x8000, ==, 0x8000);

    /* variable: count 3, one main vertex (c1 position, c2 colour), then the
     * positions of the other two in c3, c4; a second batch of 3 after it */
    put_points(&t, pts, 6);
    {
        static const uint8_t idx[8] = { 3, 0, 1, 2, 3, 3, 4, 5 };
        gs_uniform_draw(&t, 1, (const unsigned[3]){ 1, 3, 4 }, 2,
                        PICA_GS_MODE_VARIABLE, 0, idx, 8);
    }
    g_assert_cmpint(count_at(&t, 12, 12), ==, 1);
    g_assert_cmpint(count_at(&t, 56, 56), ==, 1);
    g_assert_cmpint(count_at(&t, 30, 30), ==, 0);
    /* c0 holds the count (3, 3, 3, 3): as the colour it saturates red */
    put_points(&t, pts, 3);
    {
        static const uint8_t idx[4] = { 3, 0, 1, 2 };
        gs_uniform_draw(&t, 1, (const unsigned[3]){ 1, 3, 4 }, 0,
                        PICA_GS_MODE_VARIABLE, 0, idx, 4);
    }
    g_assert_cmpint(count_at(&t, 12, 12), ==, 255 / 16);
    /* two main vertices: c1, c2 from vertex 0, c3, c4 from vertex 1, c5 */
    put_points(&t, pts, 3);
    {
        static const uint8_t idx[4] = { 3, 0, 1, 2 };
        gs_uniform_draw(&t, 1, (const unsigned[3]){ 1, 3, 5 }, 2,
                        PICA_GS_MODE_VARIABLE, 1, idx, 4);
    }
    g_assert_cmpint(count_at(&t, 12, 12), ==, 1);

    /* bad input: variable mode without indices, an undefined mode, and
     * fixed-mode uniforms past c95: logged, nothing drawn */
    errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    put_points(&t, pts, 3);
    gs_uniform_draw(&t, 1, (const unsigned[3]){ 1, 3, 4 }, 2,
                    PICA_GS_MODE_VARIABLE, 0, NULL, 3);
    gs_uniform_draw(&t, 1, (const unsigned[3]){ 1, 3, 4 }, 2, 3, 0, NULL, 3);
    gs_uniform_draw(&t, 1, (const unsigned[3]){ 90, 92, 94 }, 91,
                    PICA_GS_MODE_FIXED | 2u << 8 | 1u << 16 | 92u << 24, 0, NULL, 3);
    g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >=, errors + 3);
    g_assert_cmpint(count_at(&t, 12, 12), ==, 0);
    pt_free(&t);
}

/* ---- bad input: logged, skipped, the list carries on ----------------------------- */

static void expect_skip(PicaTest *t, CmdBuf *b, const char *what)
{
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    int x, y;

    memset(t->vram, 0, CW * CH * 4);
    pica_cmd_draw(b, PICA_TOPOLOGY_TRIANGLES, 3, 0, false, 0);
    run_list(t, b);
    if (g3d_log_count(G3D_LOG_GUEST_ERROR) == errors) {
        g_error("%s: no guest error logged", what);
    }
    for (y = 0; y < CH; y++) {
        for (x = 0; x < CW; x++) {
            g_assert_cmpint(count_at(t, x, y), ==, 0);
        }
    }
}

/* the count scene with registers (id, value) pairs set, expected skipped */
static void skip_with(PicaTest *t, const char *what, unsigned n,
                      const uint32_t (*regs)[2])
{
    CmdBuf b;
    unsigned i;

    cb_init(&b);
    count_setup(&b);
    for (i = 0; i < n; i++) {
        pica_cmd_reg(&b, regs[i][0], regs[i][1]);
    }
    expect_skip(t, &b, what);
    cb_free(&b);
}

static void test_bad_input(void)
{
    PicaTest t;
    CmdBuf b;
    float v[3][8];

    pt_init(&t, 1);
    vtx(v[0], 8, 8);
    vtx(v[1], 40, 8);
    vtx(v[2], 8, 40);
    pt_put_vertices(&t, VB_OFF, &v[0][0], 3);

    /* an attribute buffer past the end of memory */
    cb_init(&b);
    count_setup(&b);
    pica_cmd_attribs(&b, RAM_PA(PT_RAM_SIZE - 48), PICA_F32X4, PICA_F32X4, 32);
    expect_skip(&t, &b, "attribute buffer past memory");
    g_assert_true(pica200_irq_level(t.core) == false);  /* acked */
    cb_free(&b);

    /* a colour buffer past the end of VRAM */
    cb_init(&b);
    count_setup(&b);
    pica_cmd_target(&b, CW, CH, PA(PICA200_VRAM_SIZE - 4096), PICA_COLORFMT_RGBA8, 0, 0);
    expect_skip(&t, &b, "framebuffer past VRAM");
    cb_free(&b);

    /* a depth buffer outside memory with the depth test on */
    cb_init(&b);
    count_setup(&b);
    pica_cmd_target(&b, CW, CH, PA(COLOR_VRAM), PICA_COLORFMT_RGBA8, 0x10000000,
              PICA_DEPTH_D24S8);
    pica_cmd_fragment(&b, true, PICA_CMP_LESS, true);
    expect_skip(&t, &b, "depth buffer outside memory");
    cb_free(&b);

    /* a framebuffer that is not whole tiles */
    cb_init(&b);
    count_setup(&b);
    pica_cmd_reg(&b, GPUREG_FRAMEBUFFER_DIM, 60 | 63 << 12 | 1u << 24);
    expect_skip(&t, &b, "framebuffer of partial tiles");
    cb_free(&b);

    /* undefined colour format, 13 attributes, 13 components in a buffer */
    skip_with(&t, "undefined colour format", 1,
              (const uint32_t[][2]){ { GPUREG_COLORBUFFER_FORMAT, 5u << 16 | 2 } });
    skip_with(&t, "13 attributes", 1,
              (const uint32_t[][2]){ { GPUREG_ATTRIBBUFFERS_FORMAT_HIGH,
                                       0x0FFCu << 16 | 12u << 28 } });
    skip_with(&t, "13 components", 1,
              (const uint32_t[][2]){ { PICA_ATTRIBBUFFER_CONFIG2(0),
                                       32u << 16 | 13u << 28 } });
    /* a vertex shader that jumps out of its code memory */
    skip_with(&t, "shader jump out of range", 2,
              (const uint32_t[][2]){ { GPUREG_VSH_CODETRANSFER_INDEX, 0 },
                                     { GPUREG_VSH_CODETRANSFER_DATA0,
                                       PICA_SH_FMT3(PICA_SH_JMPU, 4000, 1, 0) } });
    /* a vertex shader that never ends (call depth: a call to itself) */
    skip_with(&t, "shader call depth", 2,
              (const uint32_t[][2]){ { GPUREG_VSH_CODETRANSFER_INDEX, 0 },
                                     { GPUREG_VSH_CODETRANSFER_DATA0,
                                       PICA_SH_FMT3(PICA_SH_CALL, 0, 2, 0) } });

    /* indices past memory */
    cb_init(&b);
    count_setup(&b);
    {
        unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
        pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_LOC, RAM_PA(PT_RAM_SIZE - 4096) >> 3);
        pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 0x10000, 0, true, 0x80000000);
        run_list(&t, &b);
        g_assert_cmpuint(g3d_log_count(G3D_LOG_GUEST_ERROR), >, errors);
    }
    cb_free(&b);

    /* the device still draws afterwards */
    memset(t.vram, 0, CW * CH * 4);
    count_draw(&t, PICA_TOPOLOGY_TRIANGLES, 3);
    g_assert_cmpint(count_at(&t, 12, 12), ==, 1);

    /* a huge draw of fixed attributes: bounded steps, reset recovers */
    cb_init(&b);
    count_setup(&b);
    pica_cmd_reg(&b, GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, 0x0FFFu << 16 | 1u << 28);
    pica_cmd_reg(&b, PICA_ATTRIBBUFFER_CONFIG2(0), 0);
    pica_cmd_draw(&b, PICA_TOPOLOGY_TRIANGLES, 0xFFFFFFF0u, 0, false, 0);
    pica_cmd_finalize(&b);
    pt_kick(&t, &b, LIST_OFF);
    g_assert_false(pt_run(&t, 50));
    pica200_core_reset(t.core);
    g_assert_false(pica200_core_work(t.core, 100));
    cb_free(&b);
    pt_free(&t);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_data_func("/pica200/draw/gouraud-lcd/1-thread",
                         GINT_TO_POINTER(1), test_gouraud_lcd);
    g_test_add_data_func("/pica200/draw/gouraud-lcd/4-threads",
                         GINT_TO_POINTER(4), test_gouraud_lcd);
    g_test_add_func("/pica200/draw/fill-rule", test_fill_rule);
    g_test_add_func("/pica200/draw/topologies", test_topologies);
    g_test_add_func("/pica200/draw/culling", test_culling);
    g_test_add_func("/pica200/draw/clip-scissor", test_clip_and_scissor);
    g_test_add_func("/pica200/draw/depth-rgb565", test_depth_rgb565);
    g_test_add_func("/pica200/draw/attribute-formats", test_attribute_formats);
    g_test_add_func("/pica200/draw/geometry-shader", test_geometry_shader);
    g_test_add_func("/pica200/draw/geometry-shader-modes", test_geometry_shader_modes);
    g_test_add_func("/pica200/draw/bad-input", test_bad_input);
    return g_test_run();
}
