/*
 * flipper-gx against Dolphin: every scene of scenes.c is rendered by the
 * core the way a guest drives the device (command stream through the
 * write-gather pipe into a linked FIFO, EFB -> XFB copy, VI scanout of the
 * YUV 4:2:2 XFB) and compared with tests/flipper/ref/SCENE.png.
 *
 * The references are independent: Debian's dolphin-emu 5.0-17995, software
 * renderer, playing the same scene written as a Dolphin FIFO log by
 * flipper-dff; its frame dump has been through the same YUYV XFB (Dolphin's
 * FIFO player). Regenerate with: scripts/flipper-dolphin-ref.sh --regen
 *
 * The tex-* scenes cover texturing: every direct format on maps 0-7 with
 * each wrap mode (tex-formats), C4/C8/C14X2 through IA8/RGB565/RGB5A3
 * TLUTs loaded with LOADTLUT (tex-tlut), bilinear, trilinear and
 * nearest-mip sampling on a perspective floor with LOD bias, clamps and
 * diagonal LOD (tex-filter), four TEV stages over two textures and two
 * texgens (projective from the position, post matrices) with konstants,
 * swap tables, compare modes and the alpha test (tex-tev), and the same
 * stages' alpha shown as colour (tex-tev-alpha), texgens from the normal,
 * colour 0 and emboss with the coordinate-number quirk and NTEX = 0
 * (tex-texgen), textured lines and points with and without their texture
 * coordinate offsets (tex-lines), textures preloaded into TMEM, RGBA8
 * split into its AR and GB halves (tex-preload), Z textures with Z
 * compared after and before the TEV (tex-ztex), indirect texturing with
 * static and dynamic matrices, wrap, add-previous and bump alpha
 * (tex-indirect). efb-copy copies a drawn picture to textures (RGB565,
 * RGBA8, RGB5A3, I8/IA4/I4 intensity, G8, RG8, the 2:1 box filter, Z as
 * Z24X8 and Z8) and draws each 1:1, efb-copy-rgba6 the same from an RGBA6
 * EFB with alpha, efb-copy-mip builds a mip chain with the box filter and
 * samples it trilinear (the Dolphin log is played with
 * EFB copies written to RAM, not deferred: its software renderer samples
 * textures from RAM).
 *
 * Measured: every scene matches Dolphin exactly (0 differing pixels), so
 * the test requires that; the gouraud and depth scenes are the two the
 * project requires to match. Each case prints its PSNR and differing pixels.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>

#include "flipper/flipper-int.h"   /* flipper_tev_fast */
#include "gx-build.h"
#include "rig.h"

static void render_scene(const char *name, int threads, G3DImage *img)
{
    FlipperScene *s = flipper_scene_build(name);
    FlipperRig *r = rig_new(threads);

    g_assert_nonnull(s);
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    rig_run_scene(r, s);
    g_assert_true(rig_scanout(r, img));
    g_assert_cmpint(img->width, ==, s->width);
    g_assert_cmpint(img->height, ==, s->height);
    rig_free(r);
    flipper_scene_free(s);
}

static void test_scene(gconstpointer data)
{
    const char *name = data;
    char *file = g_strdup_printf("ref/%s.png", name);
    char *path = rig_src_path(file);
    G3DImage ref, img, img4;
    G3DImageDiff d, d4;

    g_assert_true(g3d_image_load(&ref, path));
    render_scene(name, 1, &img);
    g_assert_true(g3d_image_compare(&img, &ref, &d));
    printf("# %-12s vs Dolphin: PSNR %.2f dB, %ld differing pixels "
           "(max channel delta %d)\n", name, d.psnr, d.differing, d.max_delta);
    g_assert_cmpint(d.differing, ==, 0);

    /* the picture does not depend on the number of render threads */
    render_scene(name, 4, &img4);
    g_assert_true(g3d_image_compare(&img4, &img, &d4));
    g_assert_cmpint(d4.differing, ==, 0);

    g3d_image_free(&ref);
    g3d_image_free(&img);
    g3d_image_free(&img4);
    g_free(path);
    g_free(file);
}

/*
 * The TEV's pass-through fast path (one stage, D = RASC/RASA) against the
 * general combiner: the same Gouraud triangle with a swap table that is not
 * the identity and an alpha test that always passes, once as one stage
 * (fast path) and once with a second stage copying PREV (general path).
 * The EFBs must be equal pixel for pixel, and the picture not empty.
 */
static void draw_swapped(FlipperRig *r, bool second_stage)
{
    GByteArray *b = g_byte_array_new();

    gx_begin_frame(b, 0x102030FF);
    gx_bp(b, BP_TEV_KSEL0 + 2, 0x018000 | 2 | 1 << 2);  /* table 1: B, G */
    gx_bp(b, BP_TEV_KSEL0 + 3, 0x018000 | 0 | 3 << 2);  /*          R, A */
    gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFD0 | 1);      /* RSWAP table 1 */
    gx_bp(b, BP_ALPHACOMPARE, 0x7F0000 | 0x40);         /* ALWAYS or ... */
    if (second_stage) {
        gx_bp(b, BP_GENMODE, 0x000410);                 /* 2 stages */
        gx_bp(b, BP_TREF0, 0x380000 | 0x380000 >> 12 << 12);
        gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x08FFF0);      /* D = CPREV */
        gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08FF80);      /* D = APREV */
    }
    gx_draw(b, GX_DRAW_TRIANGLES, 0, 3);
    scene_vtx(b, 0.05f, 0.83f, -0.5f, 0xFF000080);
    scene_vtx(b, -0.71f, -0.62f, -0.5f, 0x00FF00FF);
    scene_vtx(b, 0.78f, -0.45f, -0.5f, 0x0000FF40);
    flipper_gx_exec(r->core, b->data, b->len);
    g_byte_array_unref(b);
}

static void test_tev_fast_path(void)
{
    FlipperRig *fast = rig_new(1), *slow = rig_new(1);
    int x, y;
    long differing = 0, drawn = 0;

    draw_swapped(fast, false);
    draw_swapped(slow, true);
    for (y = 0; y < SCENE_H; y++) {
        for (x = 0; x < SCENE_W; x++) {
            uint32_t a = flipper_efb_color(fast->core, x, y);
            differing += a != flipper_efb_color(slow->core, x, y);
            drawn += a != 0x102030FF;
        }
    }
    printf("# TEV fast path vs general combiner: %ld differing pixels of "
           "%ld drawn\n", differing, drawn);
    g_assert_cmpint(differing, ==, 0);
    g_assert_cmpint(drawn, >, 50000);
    /* the two paths were taken */
    g_assert_true(flipper_tev_fast(fast->core)->on);
    g_assert_false(flipper_tev_fast(slow->core)->on);
    /* the swap really applied: red vertex shows as blue */
    g_assert_cmphex(flipper_efb_color(fast->core, 336, 50) >> 8 & 0xFF, >,
                    0xE0);
    rig_free(fast);
    rig_free(slow);
}

/*
 * The TEV stage kinds (replace, modulate: tev.c stage_kind) against the
 * general combiner over random states: random stage programs whose inputs
 * are often zero (so the specialised kinds are chosen) with random bias,
 * subtract, scale, clamp, compare modes, registers, konstants and pixels;
 * each state is prepared twice, once with flipper_force_general, and every
 * pixel must give the same bytes and the same alpha test result. The same
 * for quads through flipper_tev_shade4 (four pixels at once, some left
 * out), with a Z texture a third of the time: the Z too.
 */
static bool cmp_heavy;   /* compare modes and non-zero A, B: every stage */

static uint32_t rand_sel(GRand *rng, int bits, uint32_t zero)
{
    return g_rand_boolean(rng) && !cmp_heavy ? zero
                                             : g_rand_int_range(rng, 0, 1 << bits);
}

/* a combiner's bias, subtract and scale bits (16-21): none half the
 * time, else random, a compare mode (bias 3) a quarter of the time */
static uint32_t rand_mode(GRand *rng)
{
    switch (cmp_heavy ? 1 : g_rand_int_range(rng, 0, 4)) {
    case 0:
        return g_rand_int_range(rng, 0, 64) << 16;
    case 1:
        return 0x30000 | g_rand_int_range(rng, 0, 2) << 18 |
               g_rand_int_range(rng, 0, 4) << 20;
    default:
        return 0;
    }
}

/*
 * One stage close to GX_MODULATE (texel * rasterised colour, D zero, the
 * identity swaps: tev.c tex_mod) with one thing changed now and then: the
 * operand order, a C or D operand, A, the bias/subtract/scale bits, the
 * swap tables, the texture enable or the channel, a second stage.
 */
static void tex_mod_state(FlipperCore *c, GRand *rng)
{
    bool swap = g_rand_boolean(rng);
    uint32_t cb = swap ? 10 : 8, cc = swap ? 8 : 10;
    uint32_t ab = swap ? 5 : 4, ac = swap ? 4 : 5;
    int i;

#define ODD(n) (g_rand_int_range(rng, 0, n) == 0)
    c->bp[BP_GENMODE] = ODD(12) ? 1u << 10 : 0;
    c->bp[BP_TEV_COLOR_ENV0] = (ODD(12) ? rand_mode(rng) : 0) |
        (uint32_t)g_rand_boolean(rng) << 19 |
        (ODD(12) ? g_rand_int_range(rng, 0, 16) : 15) |
        (ODD(12) ? g_rand_int_range(rng, 0, 16) : cc) << 4 |
        cb << 8 | (ODD(12) ? g_rand_int_range(rng, 0, 16) : 15) << 12;
    c->bp[BP_TEV_COLOR_ENV0 + 1] = (ODD(12) ? rand_mode(rng) : 0) |
        (uint32_t)g_rand_boolean(rng) << 19 | g_rand_int_range(rng, 0, 16) |
        (ODD(12) ? g_rand_int_range(rng, 0, 8) : 7) << 4 |
        (ODD(12) ? g_rand_int_range(rng, 0, 8) : ac) << 7 |
        ab << 10 | (ODD(12) ? g_rand_int_range(rng, 0, 8) : 7) << 13;
    /* swap tables: the identity unless ODD */
    for (i = 0; i < 4; i++) {
        if (!ODD(8)) {
            c->bp[BP_TEV_KSEL0 + 2 * i] = 0 | 1 << 2;
            c->bp[BP_TEV_KSEL0 + 2 * i + 1] = 2 | 3 << 2;
        }
    }
    c->bp[BP_TREF0] = (ODD(12) ? 0 : 1u << 6) |
                      (ODD(12) ? g_rand_int_range(rng, 2, 8)
                               : g_rand_int_range(rng, 0, 2)) << 7;
    if (!ODD(3)) {
        c->bp[BP_ZTEX2] = 0;
    }
#undef ODD
}

static void test_tev_stage_kinds(void)
{
    FlipperRig *r = rig_new(1);
    FlipperCore *c = r->core;
    GRand *rng = g_rand_new_with_seed(11);
    static TevProgram fast, general;
    long kinds[3] = { 0 }, pixels = 0, bad = 0, passed = 0;
    long pixels4 = 0, bad4 = 0, passed4 = 0;
    long tex_mods = 0, tex_mod_ras = 0;
    int state, i, s, k;

    for (state = 0; state < 700; state++) {
        int nstages = g_rand_int_range(rng, 1, 17);

        /* states 400-499: compare modes with A, B read */
        cmp_heavy = state >= 400 && state < 500;
        c->bp[BP_GENMODE] = (uint32_t)(nstages - 1) << 10;
        for (s = 0; s < 16; s++) {
            uint32_t mode = rand_mode(rng);
            /* colour D, C, B, A at bits 0, 4, 8, 12; alpha D, C, B, A at
             * 4, 7, 10, 13 above the swap selects */
            c->bp[BP_TEV_COLOR_ENV0 + 2 * s] = mode |
                ((uint32_t)g_rand_int_range(rng, 0, 1 << 8) << 16 & 0xC80000) |
                rand_sel(rng, 4, 15) | g_rand_int_range(rng, 0, 16) << 4 |
                rand_sel(rng, 4, 15) << 8 | rand_sel(rng, 4, 15) << 12;
            mode = rand_mode(rng);
            c->bp[BP_TEV_COLOR_ENV0 + 2 * s + 1] = mode |
                ((uint32_t)g_rand_int_range(rng, 0, 1 << 8) << 16 & 0xC80000) |
                g_rand_int_range(rng, 0, 16) |
                rand_sel(rng, 3, 7) << 4 | g_rand_int_range(rng, 0, 8) << 7 |
                rand_sel(rng, 3, 7) << 10 | rand_sel(rng, 3, 7) << 13;
        }
        for (i = 0; i < 8; i++) {
            c->bp[BP_TREF0 + i] = g_rand_int(rng) & 0xFFFFFF;
            c->bp[BP_TEV_KSEL0 + i] = g_rand_int(rng) & 0xFFFFFF;
        }
        c->bp[BP_ALPHACOMPARE] = g_rand_int(rng) & 0xFFFFFF;
        c->bp[BP_FOGPARAM3] = 0;
        /* a Z texture (op add or replace, type u8/u16/u24) a third of the
         * time: it reads the last texel operand */
        c->bp[BP_ZTEX2] = g_rand_int_range(rng, 0, 3) ? 0 :
                          g_rand_int_range(rng, 1, 3) << 2 |
                          g_rand_int_range(rng, 0, 3);
        c->bp[BP_BIAS] = g_rand_int(rng) & 0xFFFFFF;
        if (state >= 500) {
            tex_mod_state(c, rng);
        }
        for (i = 0; i < 16; i++) {
            c->tev_reg[i / 4][i % 4] = g_rand_int_range(rng, -1024, 1024);
            c->tev_konst[i / 4][i % 4] = g_rand_int_range(rng, -1024, 1024);
        }
        flipper_force_general = false;
        flipper_tev_prepare(c, &fast);
        flipper_force_general = true;
        flipper_tev_prepare(c, &general);
        flipper_force_general = false;
        g_assert_cmpint(general.tex_mod, ==, TEV_MOD_NONE);
        tex_mods += fast.tex_mod != TEV_MOD_NONE;
        tex_mod_ras += fast.tex_mod == TEV_MOD_RAS_TEX;
        for (s = 0; s < general.nstages; s++) {
            g_assert_cmpint(general.st[s].ckind, ==, TEV_KIND_GENERAL);
            g_assert_cmpint(general.st[s].akind, ==, TEV_KIND_GENERAL);
            kinds[fast.st[s].ckind]++;
            kinds[fast.st[s].akind]++;
        }
        for (i = 0; i < 64; i++) {
            uint8_t tex[16][4], bump[16], a[4], b[4];
            TevPixel pa = { .x = i, .y = state, .tex = tex, .bump = bump };
            TevPixel pb;
            bool ra, rb;

            for (s = 0; s < 16; s++) {
                for (k = 0; k < 4; k++) {
                    tex[s][k] = g_rand_int(rng);
                }
                bump[s] = g_rand_int(rng);
            }
            for (k = 0; k < 4; k++) {
                pa.col[0][k] = g_rand_int(rng);
                pa.col[1][k] = g_rand_int(rng);
            }
            pa.z = g_rand_int(rng) & 0xFFFFFF;
            pb = pa;
            ra = flipper_tev_shade(c, &fast, &pa, a);
            rb = flipper_tev_shade(c, &general, &pb, b);
            bad += ra != rb || pa.z != pb.z || (ra && memcmp(a, b, 4));
            passed += ra;
            pixels++;
        }
        /* four pixels at once (flipper_tev_shade4) against the general
         * path pixel by pixel, random pixels left out */
        g_assert_true(fast.quad);
        g_assert_false(general.quad);
        for (i = 0; i < 16; i++) {
            uint8_t tex[4][16][4], bump[4][16], a[4][4], b[4];
            TevQuad q = { .x = 2 * i, .y = 2 * state, .tex = tex,
                          .bump = bump };
            unsigned pass;
            int p;

            for (p = 0; p < 4; p++) {
                for (s = 0; s < 16; s++) {
                    for (k = 0; k < 4; k++) {
                        tex[p][s][k] = g_rand_int(rng);
                    }
                    bump[p][s] = g_rand_int(rng);
                }
                for (k = 0; k < 4; k++) {
                    q.col[0][p][k] = g_rand_int(rng);
                    q.col[1][p][k] = g_rand_int(rng);
                }
                q.z[p] = g_rand_int(rng) & 0xFFFFFF;
            }
            q.live = g_rand_int_range(rng, 0, 4) ? 15
                                                 : g_rand_int_range(rng, 0, 16);
            {
                TevQuad q0 = q;
                pass = flipper_tev_shade4(c, &fast, &q, a);
                for (p = 0; p < 4; p++) {
                    TevPixel pb = {
                        .x = q0.x + (p & 1), .y = q0.y + (p >> 1),
                        .z = q0.z[p], .tex = tex[p], .bump = bump[p],
                    };
                    bool rb;

                    if (!(q0.live & (1u << p))) {
                        bad4 += (pass >> p) & 1;
                        continue;
                    }
                    memcpy(pb.col[0], q0.col[0][p], 4);
                    memcpy(pb.col[1], q0.col[1][p], 4);
                    rb = flipper_tev_shade(c, &general, &pb, b);
                    bad4 += rb != ((pass >> p) & 1) ||
                            (rb && (pb.z != q.z[p] || memcmp(a[p], b, 4)));
                    passed4 += rb;
                    pixels4++;
                }
            }
        }
    }
    printf("# TEV stage kinds: %ld general, %ld replace, %ld modulate; "
           "%ld of %ld pixels differ (%ld pass the alpha test); four at "
           "once: %ld of %ld differ (%ld pass)\n",
           kinds[TEV_KIND_GENERAL], kinds[TEV_KIND_REPLACE],
           kinds[TEV_KIND_MODULATE], bad, pixels, passed, bad4, pixels4,
           passed4);
    g_assert_cmpint(bad, ==, 0);
    g_assert_cmpint(bad4, ==, 0);
    /* the 16-bit-lane modulate (tev.c tex_mod4), both operand orders, and
     * near misses (states 500-699) */
    printf("# one-stage texel modulate: %ld states (%ld rasterised * texel)\n",
           tex_mods, tex_mod_ras);
    g_assert_cmpint(tex_mods, >, 40);
    g_assert_cmpint(tex_mods, <, 150);
    g_assert_cmpint(tex_mod_ras, >, 10);
    g_assert_cmpint(passed4, >, pixels4 / 10);
    g_assert_cmpint(passed4, <, pixels4);
    /* every kind was exercised, and the alpha test both ways */
    g_assert_cmpint(kinds[TEV_KIND_REPLACE], >, 200);
    g_assert_cmpint(kinds[TEV_KIND_MODULATE], >, 200);
    g_assert_cmpint(kinds[TEV_KIND_GENERAL], >, 200);
    g_assert_cmpint(passed, >, pixels / 10);
    g_assert_cmpint(passed, <, pixels);
    g_rand_free(rng);
    rig_free(r);
}

/*
 * The rasteriser's plain quad (ras.c ras_quad_plain: pass-through TEV, the
 * RGB8 word stored alone, plain Z) and ras_quad's per-triangle store and Z
 * decisions against the general per-pixel path over random states (a
 * second TEV stage a third of the time): Z test, function, update and early bit, pixel format,
 * blend mode and update masks, destination alpha, colour channel count
 * and channel, swap table, sometimes an alpha test that is not always
 * true; each state draws random overlapping triangles on two cores, one
 * under flipper_force_general, and the EFB colour and depth words, pixel
 * counts and bounding boxes must be equal after every state. Run with the
 * CPU's best instances (the spans eight pixels a vector and rows of
 * several tiles where it has AVX2), at most AVX2 (simd 2) and with
 * g3d_no_avx set (the four-pixel SSE2 spans, simd 1).
 */
/* the stream b on fast as chosen per draw and on slow under
 * flipper_force_general: the EFB colour and depth words and the bounding
 * boxes must be equal */
static void exec_both(FlipperRig *fast, FlipperRig *slow, GByteArray *b)
{
    flipper_force_general = false;
    flipper_gx_exec(fast->core, b->data, b->len);
    flipper_force_general = true;
    flipper_gx_exec(slow->core, b->data, b->len);
    flipper_force_general = false;
    g_assert_cmpmem(fast->core->efb_color, EFB_W * EFB_H * 4,
                    slow->core->efb_color, EFB_W * EFB_H * 4);
    g_assert_cmpmem(fast->core->efb_depth, EFB_W * EFB_H * 4,
                    slow->core->efb_depth, EFB_W * EFB_H * 4);
    g_assert_cmpmem(fast->core->pe.bbox, sizeof(fast->core->pe.bbox),
                    slow->core->pe.bbox, sizeof(slow->core->pe.bbox));
}

static void test_ras_plain(gconstpointer data)
{
    int threads = GPOINTER_TO_INT(data) & 0xFF;
    int simd = GPOINTER_TO_INT(data) >> 8;
    FlipperRig *fast = rig_new(threads), *slow = rig_new(threads);
    GRand *rng = g_rand_new_with_seed(15);
    FlipperStats sf, ss;
    G3DRasterStats rs;
    double pos[6][3], ext, cx, cy, prev_y = 0;
    int state, i, plain = 0, general = 0, tev2 = 0;
    uint32_t col = 0, cols[6];
    long drawn;

    if (simd == 2 && g3d_simd_level() < G3D_SIMD_AVX2) {
        g_test_skip("the CPU has no AVX2");
        g_rand_free(rng);
        rig_free(fast);
        rig_free(slow);
        return;
    }
    g3d_no_avx = simd == 1;
    g3d_simd_max = simd == 2 ? G3D_SIMD_AVX2 : G3D_SIMD_AVX512;
    for (state = 0; state < 200; state++) {
        GByteArray *b = g_byte_array_new();
        bool fmt_rgb8 = g_rand_int_range(rng, 0, 3) != 0;

        if (state == 0) {
            gx_begin_frame(b, 0x102030FF);
        }
        /* half the states test and update Z, any function */
        gx_bp(b, BP_ZMODE, g_rand_boolean(rng) ? g_rand_int_range(rng, 0, 32)
              : 0x11 | g_rand_int_range(rng, 0, 8) << 1);
        gx_bp(b, BP_ZCOMPARE, (fmt_rgb8 ? 0 : g_rand_int_range(rng, 1, 3)) |
              g_rand_int_range(rng, 0, 4) << 3 |
              g_rand_int_range(rng, 0, 2) << 6);
        gx_bp(b, BP_BLENDMODE, g_rand_int_range(rng, 0, 4) ?
              (g_rand_int_range(rng, 0, 32) & ~3) | 8 :
              g_rand_int(rng) & 0xFFFF);
        gx_bp(b, BP_CONSTANTALPHA, g_rand_int(rng) & 0x1FF);
        gx_bp(b, BP_GENMODE, g_rand_int_range(rng, 1, 3) << 4);
        gx_bp(b, BP_TREF0, 0x380000 | g_rand_int_range(rng, 0, 2) << 7);
        gx_bp(b, BP_TEV_COLOR_ENV0 + 1, 0x08FFD0 | g_rand_int_range(rng, 0, 4));
        gx_bp(b, BP_ALPHACOMPARE, g_rand_int_range(rng, 0, 8) ? 0x3F0000 :
              g_rand_int(rng) & 0xFFFFFF);
        if (g_rand_int_range(rng, 0, 3) == 0) {
            /* a second stage copying PREV: the general TEV, whose pixels
             * the per-triangle PE and Z decisions still store */
            gx_bp(b, BP_GENMODE, g_rand_int_range(rng, 1, 3) << 4 | 1 << 10);
            gx_bp(b, BP_TREF0, 0x380000 | g_rand_int_range(rng, 0, 2) << 7);
            gx_bp(b, BP_TEV_COLOR_ENV0 + 2, 0x08FFF0);  /* D = CPREV */
            gx_bp(b, BP_TEV_COLOR_ENV0 + 3, 0x08FF80);  /* D = APREV */
            tev2++;
        }
        /* the box of this state's pixels alone */
        gx_bp(b, BP_CLEARBBOX1, 0x3FF);
        gx_bp(b, BP_CLEARBBOX2, 0x3FF);
        /*
         * half the states: triangles 16-60 pixels wide somewhere, whose
         * box shows where their last pixels are; every triangle drawn
         * twice at the same depths, so the Z functions' equal case counts
         */
        ext = state & 1 ? 1.2 : g_rand_double_range(rng, 0.05, 0.2);
        cx = state & 1 ? 0.0 : g_rand_double_range(rng, -0.8, 0.8);
        cy = state & 1 ? 0.0 : g_rand_double_range(rng, -0.8, 0.8);
        for (i = 0; i < 6; i++) {
            pos[i][0] = cx + g_rand_double_range(rng, -ext, ext);
            pos[i][1] = cy + g_rand_double_range(rng, -ext, ext);
            pos[i][2] = g_rand_double_range(rng, -1.0, 0.0);
            /* one vertex in four at the depth range's ends, so that
             * pixels beside it reach ras_depth's clamps */
            if (g_rand_int_range(rng, 0, 4) == 0) {
                pos[i][2] = g_rand_boolean(rng) ? -1.5 : 0.5;
            }
            /* every other state: one colour a triangle (ras_fill_plain
             * where Z is not tested); in every fourth, the second
             * triangle's colour changes along y only (dfdx 0, dfdy not):
             * vertices 3 and 4 share their y and colour */
            if (!(state & 1) || i % 3 == 0 || (state % 4 == 3 && i == 5)) {
                col = g_rand_int(rng);
            }
            if (state % 4 == 3 && i == 4) {
                pos[i][1] = prev_y;
            }
            prev_y = pos[i][1];
            cols[i] = col;
        }
        gx_draw(b, GX_DRAW_TRIANGLES, 0, 12);
        for (i = 0; i < 12; i++) {
            scene_vtx(b, pos[i % 6][0], pos[i % 6][1], pos[i % 6][2],
                      cols[i % 6]);
        }
        exec_both(fast, slow, b);
        plain += flipper_tev_fast(fast->core)->on &&
                 flipper_pe_plain(fast->core);
        general += !flipper_pe_plain(fast->core);
        g_byte_array_unref(b);
    }
    g3d_no_avx = false;
    g3d_simd_max = G3D_SIMD_AVX512;
    flipper_core_stats(fast->core, &sf);
    flipper_core_stats(slow->core, &ss);
    drawn = (long)sf.pixels;
    g3d_raster_stats(fast->core->raster, &rs);
    printf("# plain quad vs general path (%s): %d plain states, %d "
           "general, %ld pixels drawn (%" G_GUINT64_FORMAT " by fills and "
           "spans), EFBs equal\n",
           simd == 1 ? "SSE2" : simd == 2 ? "at most AVX2" : "the CPU's best",
           plain, general, drawn, rs.filled);
    g_assert_cmpuint(sf.pixels, ==, ss.pixels);
    /* ras.c ras_span_plain: the plain states' wide triangles */
    g_assert_cmpuint(rs.filled, >, 200000);
    g_assert_cmpint(plain, >, 30);
    g_assert_cmpint(tev2, >, 30);
    g_assert_cmpint(general, >, 50);
    g_assert_cmpint(drawn, >, 1000000);
    g_assert_cmpuint(rs.filled, >, 100000);
    g_rand_free(rng);
    rig_free(fast);
    rig_free(slow);
}

/*
 * The four-pixel paths of textured triangles (ras.c quad_uv, quad_depth4,
 * quad_colour4; tx.c flipper_tx_sample4; tev.c flipper_tev_shade4) against
 * the general per-pixel path over random states: random bytes as textures
 * of every format, sizes (not only powers of two), wrap modes, filters, LOD
 * bias and clamps, mipmaps; 1-4 TEV stages with random texture maps,
 * coordinates and combiners; one to four indirect stages a quarter of
 * the time (their texels four at once through flipper_tx_sample4, pixel
 * by pixel on the general path); in perspective (1/w and q vary across each triangle), early or late Z.
 * Each state draws random triangles on two cores, one under
 * flipper_force_general; the EFB colour and depth words, bounding boxes
 * and pixel counts must be equal.
 */
#define RAS_TEX_ADDR 0x00600000u

static const uint8_t ras_tex_fmts[] = {
    TX_FMT_I8, TX_FMT_IA4, TX_FMT_IA8, TX_FMT_RGB565, TX_FMT_RGB5A3,
    TX_FMT_RGBA8, TX_FMT_I4, TX_FMT_C8, TX_FMT_CMPR,
};

/* random bytes as both rigs' textures; pw: a perspective projection's XF
 * words (60 degrees, 4:3, near 0.1, far 100) */
static void ras_tex_setup(FlipperRig *fast, FlipperRig *slow, GRand *rng,
                          uint32_t pw[7])
{
    float n = 0.1f, f = 100.0f, ct = 1.0f / tanf(30.0f * (float)M_PI / 180.0f);
    float proj[6] = { ct / (4.0f / 3.0f), 0.0f, ct, 0.0f, -n / (f - n),
                      -(f * n) / (f - n) };
    int i;

    for (i = 0; i < 0x40000; i++) {
        fast->mem1[RAS_TEX_ADDR + i] = slow->mem1[RAS_TEX_ADDR + i] =
            g_rand_int(rng);
    }
    for (i = 0; i < 6; i++) {
        pw[i] = gx_fbits(proj[i]);
    }
    pw[6] = 0;
}

static void test_ras_textured(void)
{
    FlipperRig *fast = rig_new(1), *slow = rig_new(1);
    GRand *rng = g_rand_new_with_seed(41);
    uint32_t pw[7];
    FlipperStats sf, ss;
    int state, i, k, indirect = 0;

    ras_tex_setup(fast, slow, rng, pw);
    for (state = 0; state < 120; state++) {
        GByteArray *b = g_byte_array_new();
        int ntex = g_rand_int_range(rng, 1, 3);
        int nstages = g_rand_int_range(rng, 1, 5);
        bool ind = g_rand_int_range(rng, 0, 4) == 0;

        if (state == 0) {
            gx_begin_frame(b, 0x102030FF);
            gx_xf(b, XF_REG_PROJECTION, 7, pw);
        }
        scene_tex_begin(b, ntex, nstages);
        /* one to four indirect stages (NBMP) */
        gx_bp(b, BP_GENMODE, (uint32_t)ntex | 1 << 4 |
              (uint32_t)(nstages - 1) << 10 |
              (uint32_t)(ind ? g_rand_int_range(rng, 1, 5) : 0) << 16);
        gx_bp(b, BP_ZMODE, g_rand_int_range(rng, 0, 32));
        gx_bp(b, BP_ZCOMPARE, g_rand_int_range(rng, 0, 2) << 6);
        gx_bp(b, BP_ALPHACOMPARE, g_rand_int_range(rng, 0, 4) ? 0x3F0000 :
              g_rand_int(rng) & 0xFFFFFF);
        for (k = 0; k < ntex; k++) {
            int w = g_rand_int_range(rng, 1, 65), h = g_rand_int_range(rng, 1, 65);
            gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * k), (uint32_t)(w - 1));
            gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * k + 1), (uint32_t)(h - 1));
        }
        for (k = 0; k < 4; k++) {
            bool pow2 = g_rand_boolean(rng);
            int w = pow2 ? 1 << g_rand_int_range(rng, 0, 7)
                         : g_rand_int_range(rng, 1, 65);
            int h = pow2 ? 1 << g_rand_int_range(rng, 0, 7)
                         : g_rand_int_range(rng, 1, 65);
            /* wrap S/T, filters, LOD bias; MIN/MAX LOD */
            uint32_t mode0 = g_rand_int_range(rng, 0, 1 << 9) |
                             (g_rand_int_range(rng, 0, 4) ? 0 :
                              g_rand_int_range(rng, 0, 256) << 9);
            uint32_t mode1 = g_rand_int_range(rng, 0, 1 << 16);

            gx_tex_map(b, k, ras_tex_fmts[g_rand_int_range(
                           rng, 0, G_N_ELEMENTS(ras_tex_fmts))],
                       w, h, RAS_TEX_ADDR + g_rand_int_range(rng, 0, 2048) * 32,
                       mode0, mode1, g_rand_int_range(rng, 0, 3) << 10);
        }
        for (k = 0; k < 8; k++) {
            /* texture map k & 3, coordinate, enable (mostly), channel 0 */
            uint32_t tref = (uint32_t)g_rand_int_range(rng, 0, 4) |
                            (uint32_t)g_rand_int_range(rng, 0, 2) << 3 |
                            (uint32_t)(g_rand_int_range(rng, 0, 5) != 0) << 6;
            gx_bp(b, BP_TREF0 + k, tref | tref << 12);
            gx_bp(b, BP_TEV_KSEL0 + k, g_rand_int(rng) & 0xFFFFFF);
        }
        for (k = 0; k < nstages; k++) {
            /* random combiners, the texel or the colour often in D */
            uint32_t cenv = g_rand_int(rng) & 0xFFFFFF;
            uint32_t aenv = g_rand_int(rng) & 0xFFFFFF;
            if (g_rand_boolean(rng)) {
                cenv = (cenv & ~0x30000u & ~0xFu) | 8;
                aenv = (aenv & ~0x30000u & ~0x70u) | 4 << 4;
            }
            gx_bp(b, BP_TEV_COLOR_ENV0 + 2 * k, cenv);
            gx_bp(b, BP_TEV_COLOR_ENV0 + 2 * k + 1, aenv);
            gx_bp(b, BP_IND_CMD0 + k, ind && g_rand_boolean(rng) ?
                  g_rand_int(rng) & 0x1FFFFF : 0);
        }
        if (ind) {
            indirect++;
            gx_bp(b, BP_IREF, g_rand_int(rng) & 0xFFFFFF);
            /* scales of 1-8 mostly: larger ones leave no coordinate */
            gx_bp(b, BP_RAS1_SS0, g_rand_int(rng) &
                  (g_rand_boolean(rng) ? 0x333333 : 0xFFFFFF));
            gx_bp(b, BP_RAS1_SS1, g_rand_int(rng) & 0x333333);
            for (k = 0; k < 9; k++) {
                gx_bp(b, BP_IND_MTXA0 + k, g_rand_int(rng) & 0xFFFFFF);
            }
        }
        gx_draw(b, GX_DRAW_TRIANGLES, 6, 6);
        for (i = 0; i < 6; i++) {
            float z = (float)g_rand_double_range(rng, -12.0, -1.2);
            scene_tex_vtx(b, (float)g_rand_double_range(rng, -1.3, 1.3) * -z,
                          (float)g_rand_double_range(rng, -1.0, 1.0) * -z, z,
                          g_rand_int(rng),
                          (float)g_rand_double_range(rng, -3.0, 3.0),
                          (float)g_rand_double_range(rng, -3.0, 3.0));
        }
        exec_both(fast, slow, b);
        g_byte_array_unref(b);
    }
    flipper_core_stats(fast->core, &sf);
    flipper_core_stats(slow->core, &ss);
    printf("# textured quads vs general path: %d states (%d indirect), "
           "%lu pixels drawn, EFBs equal\n", state, indirect,
           (unsigned long)sf.pixels);
    g_assert_cmpuint(sf.pixels, ==, ss.pixels);
    g_assert_cmpuint(sf.pixels, >, 1000000);
    g_assert_cmpint(indirect, >, 15);
    g_rand_free(rng);
    rig_free(fast);
    rig_free(slow);
}

/*
 * ras.c span_texmod (a textured triangle at least 16 pixels wide whose
 * TEV is one GX_MODULATE stage, texel times rasterised colour in either
 * order, every alpha passing, drawn as row spans) against the general
 * per-pixel path: random states near it with one thing changed now and
 * then (a second stage, a bias or scale, a swap table, the texture
 * disabled, channel 1 or a channel past NCOL, an alpha test that can
 * fail, a Z texture, a mip filter or MIN unlike MAG, an indirect stage,
 * an RGBA6 or RGB565_Z16 EFB, blending), textures of nine formats, sizes
 * and wraps, in perspective, Z tested or not with any function, early or
 * late, each triangle drawn twice at the same depths, wide and narrow
 * triangles; two cores, one under flipper_force_general: EFB colour and
 * depth words, boxes and pixel counts equal. Asserts that spans drew.
 * Run with the CPU's best instances (RGBA8 maps by the eight-pixel AVX2
 * span and sampler where the CPU has AVX2, the sixteen-pixel ones where
 * it has AVX-512), at most AVX2, and with g3d_no_avx set (the four-pixel
 * SSE2 ones); RGBA8 is half the maps. Every fourth state tests LEQUAL
 * and updates Z, so that the sixteen-pixel span's equal case is reached
 * (it failed with that case dropped). A quarter of the states project
 * coordinate 0 (STQ), half of them with q = 0 at every pixel (the span's
 * TM_PROJ keeps 1/w there).
 */
static void test_ras_texmod(gconstpointer data)
{
    int threads = GPOINTER_TO_INT(data) & 0xFF;
    bool sse2 = GPOINTER_TO_INT(data) >> 8 & 1;
    bool avx2 = GPOINTER_TO_INT(data) >> 9 & 1;
    FlipperRig *fast = rig_new(threads), *slow = rig_new(threads);
    GRand *rng = g_rand_new_with_seed(77);
    uint32_t pw[7];
    FlipperStats sf, ss;
    G3DRasterStats rs;
    int state, i, k, projected = 0;

    ras_tex_setup(fast, slow, rng, pw);
    g3d_no_avx = sse2;
    g3d_simd_max = avx2 ? G3D_SIMD_AVX2 : G3D_SIMD_AVX512;
#define ODD(n) (g_rand_int_range(rng, 0, n) == 0)
    for (state = 0; state < 160; state++) {
        GByteArray *b = g_byte_array_new();
        int ntex = g_rand_int_range(rng, 1, 3), nstages = ODD(12) ? 2 : 1;
        bool swap = g_rand_boolean(rng), mag = g_rand_boolean(rng);
        bool ind = ODD(12), narrow = ODD(4);
        uint32_t cb = swap ? 10 : 8, cc = swap ? 8 : 10;
        uint32_t ab = swap ? 5 : 4, ac = swap ? 4 : 5;
        uint32_t tref, mode0;
        int w = g_rand_boolean(rng) ? 1 << g_rand_int_range(rng, 0, 7)
                                    : g_rand_int_range(rng, 1, 65);
        int h = g_rand_boolean(rng) ? 1 << g_rand_int_range(rng, 0, 7)
                                    : g_rand_int_range(rng, 1, 65);
        float ext = narrow ? 0.03f : 1.3f;
        float cx = (float)g_rand_double_range(rng, -0.6, 0.6);
        float cy = (float)g_rand_double_range(rng, -0.6, 0.6);
        float vtx[6][5];
        uint32_t cols[6];

        if (state == 0) {
            gx_begin_frame(b, 0x102030FF);
            gx_xf(b, XF_REG_PROJECTION, 7, pw);
        }
        scene_tex_begin(b, ntex, nstages);
        if (ODD(4)) {
            /* coordinate 0 projected (STQ) by matrix 60, whose q row is
             * zero half the time: q = 0 at every pixel, where quad_uv
             * projects by 1/w alone; else q varies, near 1 */
            float m[12] = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0 };

            if (g_rand_boolean(rng)) {
                m[8] = (float)g_rand_double_range(rng, -0.2, 0.2);
                m[9] = (float)g_rand_double_range(rng, -0.2, 0.2);
                m[11] = (float)g_rand_double_range(rng, 0.5, 2.0);
            }
            gx_xff(b, 0xF0, 12, m);
            gx_xf1(b, XF_REG_TEXGEN0, 5 << 7 | 1 << 1);
            projected++;
        }
        gx_bp(b, BP_GENMODE, (uint32_t)ntex | g_rand_int_range(rng, 1, 3) << 4 |
              (uint32_t)(nstages - 1) << 10 | (uint32_t)ind << 16);
        /* every fourth state Z on, GX_LEQUAL (3), updating: the second draw
         * of a triangle passes only by the equal case */
        gx_bp(b, BP_ZMODE, state % 4 == 3 ? 1 | 3 << 1 | 1 << 4 :
              g_rand_int_range(rng, 0, 32));
        gx_bp(b, BP_ZCOMPARE, (ODD(6) ? g_rand_int_range(rng, 1, 3) : 0) |
              g_rand_int_range(rng, 0, 2) << 6);
        gx_bp(b, BP_BLENDMODE, ODD(8) ? g_rand_int(rng) & 0xFFFF :
              (g_rand_int_range(rng, 0, 32) & ~3) | 8);
        gx_bp(b, BP_ALPHACOMPARE, ODD(6) ? g_rand_int(rng) & 0xFFFFFF
                                         : 0x3F0000);
        gx_bp(b, BP_ZTEX2, ODD(12) ? 1 << 2 : 0);
        /* the box of this state's pixels alone */
        gx_bp(b, BP_CLEARBBOX1, 0x3FF);
        gx_bp(b, BP_CLEARBBOX2, 0x3FF);
        for (k = 0; k < ntex; k++) {
            gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * k),
                  (uint32_t)g_rand_int_range(rng, 0, 64));
            gx_bp(b, (uint8_t)(BP_SU_SSIZE0 + 2 * k + 1),
                  (uint32_t)g_rand_int_range(rng, 0, 64));
        }
        /* wrap S/T, MAG, MIN as MAG (no mip) unless ODD, LOD bias */
        mode0 = (uint32_t)g_rand_int_range(rng, 0, 16) | (uint32_t)mag << 4 |
                (ODD(6) ? g_rand_int_range(rng, 0, 8) : mag ? 4 : 0) << 5 |
                (ODD(4) ? g_rand_int_range(rng, 0, 256) << 9 : 0);
        k = g_rand_int_range(rng, 0, 4);
        gx_tex_map(b, k, g_rand_boolean(rng) ? TX_FMT_RGBA8 :
                   ras_tex_fmts[g_rand_int_range(
                       rng, 0, G_N_ELEMENTS(ras_tex_fmts))],
                   w, h, RAS_TEX_ADDR + g_rand_int_range(rng, 0, 2048) * 32,
                   mode0, g_rand_int_range(rng, 0, 1 << 16),
                   g_rand_int_range(rng, 0, 3) << 10);
        /* map k, a coordinate, enabled unless ODD, channel 0 or 1 */
        tref = (uint32_t)k | (uint32_t)g_rand_int_range(rng, 0, 2) << 3 |
               (uint32_t)!ODD(12) << 6 |
               (uint32_t)(ODD(12) ? g_rand_int_range(rng, 0, 8)
                                  : g_rand_int_range(rng, 0, 2)) << 7;
        gx_bp(b, BP_TREF0, tref | tref << 12);
        /* swap tables: the identity unless ODD */
        for (i = 0; i < 4; i++) {
            gx_bp(b, BP_TEV_KSEL0 + 2 * i, ODD(10) ?
                  g_rand_int(rng) & 0xFFFFFF : 0 | 1 << 2);
            gx_bp(b, BP_TEV_KSEL0 + 2 * i + 1, ODD(10) ?
                  g_rand_int(rng) & 0xFFFFFF : 2 | 3 << 2);
        }
        for (k = 0; k < nstages; k++) {
            /* D ZERO, C, B the texel and the colour, A ZERO, clamp; bias,
             * subtract or scale now and then */
            gx_bp(b, BP_TEV_COLOR_ENV0 + 2 * k,
                  (ODD(10) ? g_rand_int_range(rng, 0, 16) << 16 : 0) |
                  1 << 19 | 15 | cc << 4 | cb << 8 | 15 << 12);
            gx_bp(b, BP_TEV_COLOR_ENV0 + 2 * k + 1,
                  (ODD(10) ? g_rand_int_range(rng, 0, 16) << 16 : 0) |
                  1 << 19 | 7 << 4 | ac << 7 | ab << 10 | 7 << 13);
            gx_bp(b, BP_IND_CMD0 + k, ind ? g_rand_int(rng) & 0x1FFFFF : 0);
        }
        if (ind) {
            gx_bp(b, BP_IREF, g_rand_int(rng) & 0xFFFFFF);
            gx_bp(b, BP_RAS1_SS0, g_rand_int(rng) & 0xFFFFFF);
        }
        for (i = 0; i < 6; i++) {
            float z = (float)g_rand_double_range(rng, -12.0, -1.2);

            vtx[i][0] = (cx + (float)g_rand_double_range(rng, -ext, ext)) * -z;
            vtx[i][1] = (cy + (float)g_rand_double_range(rng, -ext, ext)) * -z;
            vtx[i][2] = z;
            vtx[i][3] = (float)g_rand_double_range(rng, -3.0, 3.0);
            vtx[i][4] = (float)g_rand_double_range(rng, -3.0, 3.0);
            cols[i] = g_rand_int(rng);
        }
        /* every triangle twice at the same depths: the equal cases */
        gx_draw(b, GX_DRAW_TRIANGLES, 6, 12);
        for (i = 0; i < 12; i++) {
            scene_tex_vtx(b, vtx[i % 6][0], vtx[i % 6][1], vtx[i % 6][2],
                          cols[i % 6], vtx[i % 6][3], vtx[i % 6][4]);
        }
        exec_both(fast, slow, b);
        g_byte_array_unref(b);
    }
#undef ODD
    g3d_no_avx = false;
    g3d_simd_max = G3D_SIMD_AVX512;
    flipper_core_stats(fast->core, &sf);
    flipper_core_stats(slow->core, &ss);
    g3d_raster_stats(fast->core->raster, &rs);
    printf("# GX_MODULATE spans (%s) vs general path: %d states, %lu pixels "
           "drawn, %" G_GUINT64_FORMAT " by spans, EFBs equal\n",
           sse2 ? "SSE2" : avx2 ? "at most AVX2" : "the CPU's best", state,
           (unsigned long)sf.pixels, rs.filled);
    g_assert_cmpuint(sf.pixels, ==, ss.pixels);
    g_assert_cmpuint(sf.pixels, >, 1000000);
    /* the spans drew, and the quads too */
    g_assert_cmpuint(rs.filled, >, 1000000);
    g_assert_cmpuint(rs.filled, <, rs.samples);
    g_assert_cmpint(projected, >, 20);
    g_rand_free(rng);
    rig_free(fast);
    rig_free(slow);
}

/*
 * The VI's YCbCr -> RGB conversion (table-driven for speed, four pixels a
 * vector with SSE2) against the formula Dolphin decodes its XFB with,
 * written out here in single precision, for every Y, Cb and Cr.
 */
static uint8_t clamp_trunc(float v)
{
    int i = v > -2147483648.0f && v < 2147483648.0f ? (int)v : 0;

    return (uint8_t)(i < 0 ? 0 : i > 255 ? 255 : i);
}

/* the pixels of an XFB line of n pixels against the formula: how many differ */
static long xfb_line_bad(const uint8_t *src, int n)
{
    uint32_t *out = g_new(uint32_t, n);     /* exactly n: overruns show */
    long bad = 0;
    int i;

    flipper_xfb_to_argb(src, out, n);
    for (i = 0; i < n; i++) {
        const uint8_t *pair = src + 4 * (i / 2);
        int y = src[2 * i] - 16;       /* Y0 or Y1 of its pair */
        int u = pair[1] - 128, v = pair[3] - 128;
        uint32_t want = 0xFF000000u |
            (uint32_t)clamp_trunc(1.164f * y + 1.596f * v) << 16 |
            (uint32_t)clamp_trunc(1.164f * y - 0.392f * u - 0.813f * v) << 8 |
            clamp_trunc(1.164f * y + 2.017f * u);
        bad += out[i] != want;
    }
    g_free(out);
    return bad;
}

static void test_xfb_conversion(void)
{
    GRand *rng = g_rand_new_with_seed(7);
    uint8_t src[512];
    long bad = 0;
    int Y, U, V, n, i;

    /*
     * Every (Y, U, V): lines of 256 pixels, one per Y; pair k (Y = 2k,
     * 2k + 1) has Cb = U + 2k and Cr = V + 6k, so over all U and V every
     * pair meets every Cb and Cr, and the pairs that one vector converts
     * differ in both.
     */
    for (U = 0; U < 256; U++) {
        for (V = 0; V < 256; V++) {
            for (Y = 0; Y < 256; Y += 2) {
                src[2 * Y + 0] = Y;
                src[2 * Y + 1] = (uint8_t)(U + Y);
                src[2 * Y + 2] = Y + 1;
                src[2 * Y + 3] = (uint8_t)(V + 3 * Y);
            }
            bad += xfb_line_bad(src, 256);
        }
    }
    /* random lines of every length up to 12: each way a line can end */
    for (i = 0; i < 2000; i++) {
        for (n = 0; n < 24; n++) {
            src[n] = g_rand_int(rng);
        }
        bad += xfb_line_bad(src, 1 + i % 12);
    }
    g_assert_cmpint(bad, ==, 0);
    g_rand_free(rng);
}

int main(int argc, char **argv)
{
    const char *const *n;

    g_test_init(&argc, &argv, NULL);
    for (n = flipper_scene_names(); *n; n++) {
        char *p = g_strdup_printf("/flipper/dolphin/%s", *n);
        g_test_add_data_func(p, *n, test_scene);
        g_free(p);
    }
    g_test_add_func("/flipper/tev-fast-path", test_tev_fast_path);
    g_test_add_func("/flipper/tev-stage-kinds", test_tev_stage_kinds);
    g_test_add_data_func("/flipper/ras-plain/1-thread", GINT_TO_POINTER(1),
                         test_ras_plain);
    g_test_add_data_func("/flipper/ras-plain/2-threads", GINT_TO_POINTER(2),
                         test_ras_plain);
    g_test_add_data_func("/flipper/ras-plain/avx2", GINT_TO_POINTER(1 | 2 << 8),
                         test_ras_plain);
    g_test_add_data_func("/flipper/ras-plain/sse2", GINT_TO_POINTER(1 | 1 << 8),
                         test_ras_plain);
    g_test_add_func("/flipper/ras-textured", test_ras_textured);
    g_test_add_data_func("/flipper/ras-texmod/1-thread", GINT_TO_POINTER(1),
                         test_ras_texmod);
    g_test_add_data_func("/flipper/ras-texmod/2-threads", GINT_TO_POINTER(2),
                         test_ras_texmod);
    g_test_add_data_func("/flipper/ras-texmod/sse2", GINT_TO_POINTER(1 | 256),
                         test_ras_texmod);
    g_test_add_data_func("/flipper/ras-texmod/avx2", GINT_TO_POINTER(1 | 512),
                         test_ras_texmod);
    g_test_add_func("/flipper/xfb-conversion", test_xfb_conversion);
    return g_test_run();
}
