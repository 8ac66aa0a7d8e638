/*
 * The attila-3d paths chosen per draw against the general ones
 * (g3d_general_path): the color write (attila_color_choose,
 * color-write.c) over random render-target states and pixels; the
 * rasteriser's stamps found far inside or outside the edges
 * (rasterizer.c box_inside, box_outside) over random triangles; vertices
 * shaded in batches (streamer.c shade_whole), on one render thread or
 * several, over random indexed draws. The
 * shader's all-lanes operations have their comparison in
 * test-attila-shader.c (/attila/shader/lanes-vs-general), the whole
 * pipeline's is the corpus replayed both ways (test-attila-corpus.c,
 * /attila/general/).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "attila/attila-int.h"
#include "common/fpformat.h"
#include "common/g3d-core.h"
#include "attila-scene-run.h"
#include "same-words.h"

static float random_float(GRand *rnd)
{
    static const uint32_t special[] = {
        0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u, 0x80000000u,
        0x00000000u, 0x00000001u, 0x3f800000u, 0x3f7fffffu, 0x3f800001u,
    };
    union { uint32_t u; float f; } v;

    switch (g_rand_int_range(rnd, 0, 8)) {
    case 0:
        v.u = special[g_rand_int_range(rnd, 0, G_N_ELEMENTS(special))];
        return v.f;
    case 1:
        return (float)g_rand_int_range(rnd, 0, 256) / 255.0f;
    default:
        return (float)g_rand_double_range(rnd, -0.25, 1.25);
    }
}

static uint32_t random_factor(GRand *rnd)
{
    static const uint32_t common[] = {
        ATTILA_BF_ZERO, ATTILA_BF_ONE, ATTILA_BF_SRC_ALPHA,
        ATTILA_BF_ONE_MINUS_SRC_ALPHA,
    };

    return g_rand_int_range(rnd, 0, 6) ?
           common[g_rand_int_range(rnd, 0, G_N_ELEMENTS(common))] :
           (uint32_t)g_rand_int_range(rnd, 0, 15);
}

/* the blend factors (source and destination RGB, source and destination
 * alpha) of the kinds the one-sample copy's write has instances for
 * (ATTILA_BY_BLEND_KIND): As and 1, As and 1 - As */
static const uint32_t copy_blend_kinds[2][4] = {
    { ATTILA_BF_SRC_ALPHA, ATTILA_BF_ONE, ATTILA_BF_SRC_ALPHA, ATTILA_BF_ONE },
    { ATTILA_BF_SRC_ALPHA, ATTILA_BF_ONE_MINUS_SRC_ALPHA,
      ATTILA_BF_SRC_ALPHA, ATTILA_BF_ONE_MINUS_SRC_ALPHA },
};

/* a random blend state and channel mask of rt (one equation in
 * other_eq is not ADD, one channel in mask_odds is masked off), and sRGB
 * and the logic operation on one draw in srgb_odds, logic_odds */
static void random_blend(GRand *rnd, AttilaDrawState *ds,
                         AttilaRenderTarget *rt, int other_eq, int mask_odds,
                         int srgb_odds, int logic_odds)
{
    int c;

    rt->blend = g_rand_int_range(rnd, 0, 3) != 0;
    rt->equation = g_rand_int_range(rnd, 0, other_eq) ? ATTILA_BLEND_ADD :
                   (uint32_t)g_rand_int_range(rnd, 0, 5);
    rt->src_rgb = random_factor(rnd);
    rt->dst_rgb = random_factor(rnd);
    rt->src_a = random_factor(rnd);
    rt->dst_a = random_factor(rnd);
    for (c = 0; c < 4; c++) {
        rt->blend_color[c] = random_float(rnd);
        rt->mask[c] = g_rand_int_range(rnd, 0, mask_odds) != 0;
    }
    ds->srgb_write = g_rand_int_range(rnd, 0, srgb_odds) == 0;
    ds->logic_op = g_rand_int_range(rnd, 0, logic_odds) == 0;
    ds->logic_func = g_rand_int_range(rnd, 0, 16);
}

static void test_color_write(void)
{
    static const uint32_t formats[] = {
        ATTILA_FMT_RGBA8888, ATTILA_FMT_RGBA8888, ATTILA_FMT_RGBA8888,
        ATTILA_FMT_RGBA8888, ATTILA_FMT_RG16F, ATTILA_FMT_R32F,
        ATTILA_FMT_RGBA16, ATTILA_FMT_RGBA16F,
    };
    GRand *rnd = g_rand_new_with_seed(0xC0105);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    unsigned taken[3] = { 0, 0, 0 };
    int n, c;

    for (n = 0; n < 200000; n++) {
        AttilaRenderTarget rt = { 0 };
        uint8_t fast[8], gen[8];
        float color[4];
        int index = g_rand_int_range(rnd, 0, 4) == 0;

        rt.format = formats[g_rand_int_range(rnd, 0, G_N_ELEMENTS(formats))];
        rt.bytes = attila_rt_bytes(rt.format);
        random_blend(rnd, ds, &rt, 4, 4, 10, 8);
        for (c = 0; c < 4; c++) {
            color[c] = random_float(rnd);
        }
        for (c = 0; c < 8; c++) {
            fast[c] = gen[c] = g_rand_int(rnd);
        }
        g3d_general_path = true;
        attila_color_choose(ds, &rt, index);
        g_assert_cmpuint(rt.path, ==, ATTILA_CW_GENERAL);
        attila_color_write(ds, &rt, gen, color, index);
        g3d_general_path = false;
        attila_color_choose(ds, &rt, index);
        taken[rt.path]++;
        attila_color_write(ds, &rt, fast, color, index);
        if (memcmp(fast, gen, sizeof(fast))) {
            g_test_message("case %d: path %u format %u blend %d eq %u "
                           "factors %u %u %u %u", n, rt.path, rt.format,
                           rt.blend, rt.equation, rt.src_rgb, rt.dst_rgb,
                           rt.src_a, rt.dst_a);
            g_assert_not_reached();
        }
    }
    g_test_message("general %u, RGBA8 %u, RGBA8 blend %u", taken[0], taken[1],
                   taken[2]);
    for (c = 0; c < 3; c++) {
        g_assert_cmpuint(taken[c], >, 200000 / 10);
    }
    g_free(ds);
    g_rand_free(rnd);
}

/*
 * rasterizer.c's color_write4 (four slots' colours by channel,
 * attila_channels4, then attila_color_write4_soa as one vector) against the general write slot by slot, over
 * random RGBA8888 states, colours, bytes and slot masks; each chosen path
 * taken by at least a tenth of the cases. Checked to fail when the vector
 * path reads slot j's destination for slot j ^ 1, and when the by-channel
 * blend reads green's destination from red's byte.
 */
static void test_color_write4(void)
{
    GRand *rnd = g_rand_new_with_seed(0xC0104);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    unsigned taken[3] = { 0, 0, 0 };
    int n, c, j;

    for (n = 0; n < 100000; n++) {
        AttilaRenderTarget rt = { 0 }, grt;
        uint8_t fast[16], gen[16];
        float color[4][4];
        const float *col[4];
        unsigned mask = g_rand_int_range(rnd, 0, 16);
        int index = g_rand_int_range(rnd, 0, 4) == 0;

        rt.format = ATTILA_FMT_RGBA8888;
        rt.bytes = 4;
        random_blend(rnd, ds, &rt, 8, 5, 20, 16);
        for (j = 0; j < 4; j++) {
            for (c = 0; c < 4; c++) {
                color[j][c] = random_float(rnd);
            }
            /* sometimes the same colour in every slot (a pixel's samples) */
            col[j] = g_rand_int_range(rnd, 0, 4) ? color[j] : color[0];
        }
        for (c = 0; c < 16; c++) {
            fast[c] = gen[c] = g_rand_int(rnd);
        }
        g3d_general_path = false;
        attila_color_choose(ds, &rt, index);
        taken[rt.path]++;
        if (rt.path == ATTILA_CW_GENERAL) {
            continue;
        }
#ifdef __SSE2__
        {
            /* rasterizer.c color_write4's two steps */
            __m128 ch[4];

            attila_channels4(col, ch);
            attila_color_write4_soa(&rt, fast, ch, mask);
        }
#else
        attila_color_write4(&rt, fast, col, mask);
#endif
        grt = rt;
        g3d_general_path = true;
        attila_color_choose(ds, &grt, index);
        g3d_general_path = false;
        for (j = 0; j < 4; j++) {
            if ((mask >> j) & 1) {
                attila_color_write(ds, &grt, gen + 4 * j, col[j], index);
            }
        }
        if (memcmp(fast, gen, sizeof(fast))) {
            g_test_message("case %d: path %u blend %d factors %u %u %u %u "
                           "mask %x", n, rt.path, rt.blend, rt.src_rgb,
                           rt.dst_rgb, rt.src_a, rt.dst_a, mask);
            g_assert_not_reached();
        }
    }
    g_test_message("general %u, RGBA8 %u, RGBA8 blend %u", taken[0], taken[1],
                   taken[2]);
    for (c = 0; c < 3; c++) {
        g_assert_cmpuint(taken[c], >, 100000 / 10);
    }
    g_free(ds);
    g_rand_free(rnd);
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The colour write of a 4-sample stamp (rasterizer.c copy4_tile_avx:
 * attila_color_write_stamp4_avx) with the write state rt against the
 * general one grt: four pixel colours (lane i of ch[c] pixel i's channel
 * c), random bytes and 16-bit sample coverage (whole pixels uncovered a
 * third of the time); each covered sample written by attila_color_write
 * with its pixel's colour. Checked to fail when pixel 3's colour was
 * taken for pixel 2's samples without blending, when the blend's second
 * pair of pixels read pixel 1's destination, when the blend factors were
 * spread from pixel i + 1 to pixel i's samples, and when a pixel's
 * coverage took the next pixel's bits. Where the CPU has AVX2 the 256-bit
 * instance (attila_color_write_stamp4_avx2) is checked on the same case
 * too: it failed with the second pixel of a pair given the first's word
 * without blending, the pair skipped when only its second pixel is
 * covered, and the second pixel's masks from the first's coverage.
 */
static void check_stamp4(GRand *rnd, const AttilaDrawState *ds,
                         const AttilaRenderTarget *rt,
                         const AttilaRenderTarget *grt, int index,
                         const __m128 ch[4], int n)
{
    uint8_t fast[64], ref[64];
    float col[4][4];
    unsigned cover = 0, i, j;
    int c;

    for (c = 0; c < 4; c++) {
        _mm_storeu_ps(col[c], ch[c]);
    }
    for (i = 0; i < 4; i++) {
        if (g_rand_int_range(rnd, 0, 3)) {
            cover |= (unsigned)g_rand_int_range(rnd, 0, 16) << 4 * i;
        }
    }
    for (c = 0; c < (int)sizeof(fast); c++) {
        fast[c] = ref[c] = g_rand_int(rnd);
    }
    if (g3d_use_avx2() && (n & 1)) {
        attila_color_write_stamp4_avx2(rt, fast, ch, cover);
    } else {
        attila_color_write_stamp4_avx(rt, fast, ch, cover);
    }
    for (i = 0; i < 4; i++) {
        float px[4] = { col[0][i], col[1][i], col[2][i], col[3][i] };
        for (j = 0; j < 4; j++) {
            if ((cover >> (4 * i + j)) & 1) {
                attila_color_write(ds, grt, ref + 16 * i + 4 * j, px, index);
            }
        }
    }
    if (memcmp(fast, ref, sizeof(fast))) {
        g_test_message("stamp4 case %d: cover %04x path %u", n, cover,
                       rt->path);
        g_assert_not_reached();
    }
}

/*
 * The AVX colour write of a row of the one-sample copy
 * (attila_color_write_row_avx: its pairs by attila_color_write_pair_avx,
 * which rasterizer.c's copy walk calls) against the general path: rows of 1 to 8 stamps at
 * shuffled slots of a line, random RGBA8888 write states, colours
 * (specials among them), bytes and coverage; the line against the general
 * write slot by slot. Checked to fail when the second stamp of a pair is
 * written whatever its pixel 3's coverage, when an odd last stamp is
 * written from its neighbour's colours, and when alpha blends with the
 * colour's factor. A third of the cases blend by one of the kinds the
 * write has instances for (copy_blend_kinds, ATTILA_BY_BLEND_KIND):
 * failed with the factor 1 taken as As, the source alpha's factor code
 * taken from the destination alpha's bits, and the As/1 kind written by
 * the As/1 - As instance. Each case also checks check_stamp4 with its
 * state.
 * (The row walk's interpolation is
 * attila_interp_weights_avx and _comps_avx, which /attila/fast/interpolate
 * checks through the AVX lanes; /attila/fast/stamp-rows draws with it.)
 */
static void test_copy_row(void)
{
    GRand *rnd = g_rand_new_with_seed(0xC09E);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    AttilaRowStamp row[8];
    unsigned taken[3] = { 0, 0, 0 };
    int n, c, j;

    if (!g3d_use_avx()) {
        g_test_skip("no AVX on this CPU");
        g_free(ds);
        g_rand_free(rnd);
        return;
    }
    for (n = 0; n < 40000; n++) {
        AttilaRenderTarget rt = { 0 }, grt;
        uint8_t fast[8 * 16], ref[8 * 16];
        uint32_t rtx[8];
        __m128 ch[8][4];
        unsigned m = g_rand_int_range(rnd, 1, 9), k;
        int index = g_rand_int_range(rnd, 0, 4) == 0;

        /* stamp k at slot rtx[k] of the line: a permutation */
        for (k = 0; k < 8; k++) {
            rtx[k] = 16 * k;
        }
        for (k = 7; k > 0; k--) {
            uint32_t i = g_rand_int_range(rnd, 0, k + 1), x = rtx[k];
            rtx[k] = rtx[i];
            rtx[i] = x;
        }
        for (k = 0; k < m; k++) {
            row[k].qx = 2 * k;
            row[k].cov = g_rand_int_range(rnd, 0, 16);
        }
        for (k = 0; k < m; k++) {
            for (c = 0; c < 4; c++) {
                ch[k][c] = _mm_setr_ps(random_float(rnd), random_float(rnd),
                                       random_float(rnd), random_float(rnd));
            }
        }
        rt.format = ATTILA_FMT_RGBA8888;
        rt.bytes = 4;
        random_blend(rnd, ds, &rt, 8, 5, 20, 16);
        if (g_rand_int_range(rnd, 0, 3) == 0) {
            /* a blend kind of the write (ATTILA_BY_BLEND_KIND) */
            const uint32_t *f = copy_blend_kinds[g_rand_int_range(rnd, 0, 2)];

            rt.src_rgb = f[0];
            rt.dst_rgb = f[1];
            rt.src_a = f[2];
            rt.dst_a = f[3];
        }
        attila_color_choose(ds, &rt, index);
        taken[rt.path]++;
        if (rt.path == ATTILA_CW_GENERAL) {
            continue;
        }
        for (c = 0; c < (int)sizeof(fast); c++) {
            fast[c] = ref[c] = g_rand_int(rnd);
        }
        attila_color_write_row_avx(&rt, fast, rtx, row, m,
                                   (const __m128 (*)[4])ch);
        grt = rt;
        g3d_general_path = true;
        attila_color_choose(ds, &grt, index);
        g3d_general_path = false;
        for (k = 0; k < m; k++) {
            float col[4][4];
            for (c = 0; c < 4; c++) {
                _mm_storeu_ps(col[c], ch[k][c]);
            }
            for (j = 0; j < 4; j++) {
                float px[4] = { col[0][j], col[1][j], col[2][j], col[3][j] };
                if ((row[k].cov >> j) & 1) {
                    attila_color_write(ds, &grt, ref + rtx[k] + 4 * j, px,
                                       index);
                }
            }
        }
        if (memcmp(fast, ref, sizeof(fast))) {
            g_test_message("case %d: m %u path %u blend %d factors %u %u %u "
                           "%u", n, m, rt.path, rt.blend, rt.src_rgb,
                           rt.dst_rgb, rt.src_a, rt.dst_a);
            g_assert_not_reached();
        }
        /* the same state and first stamp's colours as a 4-sample stamp */
        check_stamp4(rnd, ds, &rt, &grt, index, ch[0], n);
    }
    g_test_message("general %u, RGBA8 %u, RGBA8 blend %u", taken[0], taken[1],
                   taken[2]);
    for (c = 1; c < 3; c++) {
        g_assert_cmpuint(taken[c], >, 40000 / 10);
    }
    g_free(ds);
    g_rand_free(rnd);
}

#endif

/*
 * A vertex for the random triangles: a pixel position on a grid of 1/2,
 * 1/4 or any fraction (so that edges run exactly through pixel centres and
 * sample positions and the tie rule decides), to clip space with a random
 * w (sometimes negative), z around the near/far planes, random colour.
 */
static void random_vertex(GRand *rnd, uint32_t w, uint32_t h, float *v)
{
    static const double grid[3] = { 2.0, 4.0, 0.0 };
    double g = grid[g_rand_int_range(rnd, 0, 3)];
    double px = g_rand_double_range(rnd, -0.3 * w, 1.3 * w);
    double py = g_rand_double_range(rnd, -0.3 * h, 1.3 * h);
    double cw = g_rand_int_range(rnd, 0, 3) == 0 ? 1.0 :
                g_rand_double_range(rnd, -0.5, 3.0);
    int k;

    if (g != 0.0) {
        px = floor(px * g) / g;
        py = floor(py * g) / g;
    }
    v[0] = (float)((2.0 * px / w - 1.0) * cw);
    v[1] = (float)((2.0 * py / h - 1.0) * cw);
    v[2] = (float)(g_rand_double_range(rnd, -1.3, 1.3) * cw);
    v[3] = (float)cw;
    for (k = 4; k < 8; k++) {
        v[k] = (float)g_rand_double(rnd);
    }
}

/*
 * The Interpolator's SSE2 lanes, and its AVX lanes where the CPU has
 * them, against the scalar ones (g3d_general_path): random attributes
 * (NaN, infinities, -0, denormals among them), random edge values per
 * lane, every mix of interpolated, flat, disabled and unread inputs; the
 * four threads' inputs equal; and each read input 1-14 by channel
 * (attila_interpolate_soa, stamp1's copy) bit for bit against the scalar
 * threads. Checked to fail when the SSE2 path, or the AVX one, sums the
 * last two products first, and when the by-channel SSE2 lanes do (or
 * swap fragments 2 and 3).
 */
static void test_interpolate(void)
{
    GRand *rnd = g_rand_new_with_seed(21);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    AttilaTriangle *t = g_new0(AttilaTriangle, 1);
    AttilaShaderThread *fast = g_new0(AttilaShaderThread, 4);
    AttilaShaderThread *gen = g_new0(AttilaShaderThread, 4);
    int n, a, c, l, k, soa = 0;
    bool avx;

    attila_interpolate_init();
    avx = attila_interpolate_avx;
    for (n = 0; n < 20000; n++) {
        double v[4][4];
        const double *vp[4] = { v[0], v[1], v[2], v[3] };
        uint32_t z[4];

        ds->fs_inputs = g_rand_int(rnd);
        for (a = 0; a < ATTILA_MAX_FRAGMENT_ATTRIBUTES; a++) {
            ds->fs_input[a] = g_rand_int_range(rnd, 0, 8) != 0;
            ds->interpolate[a] = g_rand_int_range(rnd, 0, 4) != 0;
            for (c = 0; c < 4; c++) {
                for (l = 0; l < 3; l++) {
                    /* wide magnitudes too, where the order of the sums
                     * shows in the float */
                    t->attr[l][a][c] = g_rand_boolean(rnd) ?
                        random_float(rnd) :
                        (float)ldexp(g_rand_double_range(rnd, -1, 1),
                                     g_rand_int_range(rnd, -30, 30));
                }
                if (g_rand_int_range(rnd, 0, 4) == 0) {
                    /* the first two cancel: the sums' order shows */
                    t->attr[1][a][c] = -t->attr[0][a][c];
                }
            }
        }
        t->area = g_rand_double_range(rnd, -1e4, 1e4);
        for (l = 0; l < 4; l++) {
            for (c = 0; c < 4; c++) {
                v[l][c] = g_rand_int_range(rnd, 0, 20) ?
                          g_rand_double_range(rnd, -10, 10) :
                          (double)random_float(rnd);
            }
            if (g_rand_int_range(rnd, 0, 4) == 0) {
                v[l][1] = v[l][0];
            }
            z[l] = g_rand_int_range(rnd, 0, 1 << 24);
        }
        memset(gen, 0, 4 * sizeof(*gen));
        g3d_general_path = true;
        attila_interpolate(ds, t, vp, z, 10, 20, gen);
        g3d_general_path = false;
        /* the SSE2 lanes, then the AVX ones where the CPU has them */
        for (k = 0; k < 1 + avx; k++) {
            attila_interpolate_avx = k;
            memset(fast, 0, 4 * sizeof(*fast));
            attila_interpolate(ds, t, vp, z, 10, 20, fast);
            g_assert_true(attila_same_words(fast, gen, 4 * sizeof(*fast)));
#ifdef __SSE2__
            /* by channel (stamp1's copy): every input but 0 and 15 */
            for (a = 1; a < ATTILA_MAX_FRAGMENT_ATTRIBUTES - 1; a++) {
                __m128 ch[4];
                float got[4][4];

                if (!((ds->fs_inputs >> a) & 1)) {
                    continue;
                }
                attila_interpolate_soa(ds, t, v, a, ch);
                for (c = 0; c < 4; c++) {
                    _mm_storeu_ps(got[c], ch[c]);
                }
                for (l = 0; l < 4; l++) {
                    for (c = 0; c < 4; c++) {
                        g_assert_true(attila_same_words(&got[c][l],
                                                        &gen[l].in[a].f[c],
                                                        4));
                    }
                }
                soa++;
            }
#endif
        }
        attila_interpolate_avx = avx;
    }
    g_test_message("AVX lanes %s; %d inputs by channel", avx ? "tested" :
                   "not on this CPU", soa);
#ifdef __SSE2__
    g_assert_cmpint(soa, >, 100000);
#endif
    g_free(fast);
    g_free(gen);
    g_free(t);
    g_free(ds);
    g_rand_free(rnd);
}

/* a double of random sign, mantissa and magnitude (2^-40 .. 2^40) */
static double random_wide(GRand *rnd)
{
    return ldexp(g_rand_double_range(rnd, -1, 1), g_rand_int_range(rnd, -40, 40));
}

/*
 * The MSAA samples' and the centroid's edge and z values from the
 * per-triangle products (attila_sample_steps, attila_sample_values,
 * attila_centroid_values) against the general stamp's v + a sx + b sy,
 * bit for bit, over random planes and corner values of wide magnitudes
 * (where the additions' order shows in the last bit). Checked to fail
 * when a sample's value adds the two products first. The samples'
 * offsets are divided once a call (branch attila20): failed with the y
 * offsets taken from the x ones, and with sample 1's x offset taken from
 * sample 0's.
 */
static void test_sample_steps(void)
{
    static const uint32_t counts[3] = { 2, 4, 8 };
    GRand *rnd = g_rand_new_with_seed(0x5A3);
    AttilaTriangle *t = g_new0(AttilaTriangle, 1);
    int n, s, k;

    for (n = 0; n < 20000; n++) {
        uint32_t ns = counts[n % 3];
        const double (*pat)[2] = attila_msaa_pattern(ns);
        AttilaSampleSteps st;
        double v[4], got[4], want[4], ox = 0, oy = 0;

        for (k = 0; k < 3; k++) {
            t->e[k][0] = random_wide(rnd);
            t->e[k][1] = random_wide(rnd);
        }
        t->zeq[0] = random_wide(rnd);
        t->zeq[1] = random_wide(rnd);
        for (k = 0; k < 4; k++) {
            v[k] = random_wide(rnd);
        }
        attila_sample_steps(t, pat, ns, &st);
        for (s = 0; s < (int)ns; s++) {
            double sx = pat[s][0] / 128.0, sy = pat[s][1] / 128.0;
            for (k = 0; k < 3; k++) {
                want[k] = v[k] + t->e[k][0] * sx + t->e[k][1] * sy;
            }
            want[3] = v[3] + t->zeq[0] * sx + t->zeq[1] * sy;
            attila_sample_values(v, &st, s, true, got);
            g_assert_cmpmem(got, sizeof(got), want, sizeof(want));
            ox += pat[s][0];
            oy += pat[s][1];
        }
        ox /= 128.0 * ns;
        oy /= 128.0 * ns;
        for (k = 0; k < 3; k++) {
            want[k] = v[k] + t->e[k][0] * ox + t->e[k][1] * oy;
        }
        want[3] = v[3] + t->zeq[0] * ox + t->zeq[1] * oy;
        attila_centroid_values(v, &st, got);
        g_assert_cmpmem(got, sizeof(got), want, sizeof(want));
    }
    g_free(t);
    g_rand_free(rnd);
}

/*
 * attila_convert_z4 (stamp1's four pixels at once) against
 * attila_convert_z pixel by pixel, bit for bit: random depth ranges (the
 * D3D9 and OpenGL factors of random near/far, and wide ones) and z of
 * every kind: within and around [-1, 1], wide magnitudes, +-0, +-inf, NaN,
 * and those whose zc lands on 0 and 2^24 - 1 or next to them. Checked to
 * fail with pixels 1 and 2 swapped, with MAXPD for MINPD, without the
 * zc > 0 mask, and with the offset added after the 2^24 - 1 scale.
 */
static void test_convert_z4(void)
{
    GRand *rnd = g_rand_new_with_seed(0x2C4);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    int n, i;

    for (n = 0; n < 200000; n++) {
        double v[4][4] = { { 0 } };
        uint32_t got[4];
        float zn = (float)g_rand_double(rnd), zf = (float)g_rand_double(rnd);

        switch (n % 3) {
        case 0:     /* D3D9: far - near, near (draw-state.c) */
            ds->z_scale = (double)(zf - zn);
            ds->z_offset = (double)zn;
            break;
        case 1:     /* OpenGL: half the range, its middle */
            ds->z_scale = (double)((zf - zn) * 0.5f);
            ds->z_offset = (double)((zf + zn) * 0.5f);
            break;
        default:
            ds->z_scale = random_wide(rnd);
            ds->z_offset = random_wide(rnd);
            break;
        }
        for (i = 0; i < 4; i++) {
            double z;
            switch (g_rand_int_range(rnd, 0, 8)) {
            case 0:
                z = random_wide(rnd);
                break;
            case 1: {
                static const double special[] = {
                    0.0, -0.0, INFINITY, -INFINITY, NAN, 1.0, -1.0,
                };
                z = special[g_rand_int_range(rnd, 0, G_N_ELEMENTS(special))];
                break;
            }
            case 2: {
                /* zc at or next to 0 or 2^24 - 1 */
                double w = g_rand_boolean(rnd) ? 1.0 : 0.0;
                z = ds->z_scale != 0.0 ? (w - ds->z_offset) / ds->z_scale : 0.0;
                z = nextafter(z, g_rand_boolean(rnd) ? INFINITY : -INFINITY);
                if (g_rand_boolean(rnd)) {
                    z = nextafter(z, g_rand_boolean(rnd) ? INFINITY : -INFINITY);
                }
                break;
            }
            default:
                z = g_rand_double_range(rnd, -1.5, 1.5);
                break;
            }
            v[i][3] = z;
            v[i][0] = random_wide(rnd);
        }
        attila_convert_z4(ds, (const double (*)[4])v, got);
        for (i = 0; i < 4; i++) {
            g_assert_cmphex(got[i], ==, attila_convert_z(ds, v[i][3]));
        }
    }
    g_free(ds);
    g_rand_free(rnd);
}

/*
 * A stamp's edge and z values with the memo of its tile's 8x8 and 4x4
 * sub-tiles (attila_triangle_eval_stamp_memo's SSE2 pairs, the rasteriser's
 * path) against every level added for each stamp (no memo, as under
 * g3d_general_path): random planes of magnitudes 2^-40..2^40, top tiles
 * of 16 to 4096 pixels, every stamp of random tiles in row order and in a
 * random order; bit for bit. Checked to fail when the fourth pixel is the
 * third's plus a rather than the second's plus b.
 */
static void test_stamp_values(void)
{
    GRand *rnd = g_rand_new_with_seed(0x5AB1);
    int n, k, q;

    for (n = 0; n < 3000; n++) {
        AttilaTriangle t = { 0 };
        AttilaStampMemo memo = { 0 };
        double tile[4], fast[4][4], slow[4][4];
        int32_t tx, ty, tiles;

        for (k = 0; k < 3; k++) {
            t.e[k][0] = random_wide(rnd);
            t.e[k][1] = random_wide(rnd);
            t.e[k][2] = random_wide(rnd);
        }
        t.zeq[0] = random_wide(rnd);
        t.zeq[1] = random_wide(rnd);
        t.zeq[2] = random_wide(rnd);
        attila_triangle_pairs(&t);
        t.level = g_rand_int_range(rnd, 4, 13);
        t.start_x = 16 * g_rand_int_range(rnd, 0, 64);
        t.start_y = 16 * g_rand_int_range(rnd, 0, 64);
        for (k = 0; k < 4; k++) {
            t.start[k] = random_wide(rnd);
        }
        tiles = 1 << (t.level - 4);
        tx = t.start_x + 16 * g_rand_int_range(rnd, 0, tiles);
        ty = t.start_y + 16 * g_rand_int_range(rnd, 0, tiles);
        attila_triangle_eval_tile(&t, tx, ty, tile);
        for (q = 0; q < 64 + 32; q++) {
            /* the 64 stamps in row order, then 32 at random */
            int s = q < 64 ? q : g_rand_int_range(rnd, 0, 64);
            int32_t qx = tx + 2 * (s & 7), qy = ty + 2 * (s >> 3);
            if (!attila_triangle_eval_stamp_memo(&t, tile, qx, qy, &memo,
                                                 fast)) {
                attila_triangle_eval_stamp_add(&t, tile, qx, qy, &memo, fast);
            }
            attila_triangle_eval_stamp_add(&t, tile, qx, qy, NULL, slow);
            g_assert_cmpmem(fast, sizeof(fast), slow, sizeof(slow));
        }
    }
    g_rand_free(rnd);
}

/* a value for test_stamp_rows_values: wide, small whole, tie band, special */
static double random_edge_value(GRand *rnd)
{
    static const double special[] = {
        0.0, -0.0, 1e-12, -1e-12, 1.0 + 1e-12, -(1.0 + 1e-12), 1.0, -1.0,
        INFINITY, -INFINITY, NAN,
    };

    switch (g_rand_int_range(rnd, 0, 6)) {
    case 0:
        return special[g_rand_int_range(rnd, 0, G_N_ELEMENTS(special))];
    case 1:
    case 2:
        return g_rand_int_range(rnd, -64, 65) * 0.5;
    case 3:
        return g_rand_int_range(rnd, -4, 5) * 2.5e-13;
    default:
        return random_wide(rnd);
    }
}

/*
 * The row walk of one-sample draws (attila_stamp_row_fn: rasterizer.c
 * stamp_row_sse2 and, where the CPU has AVX, stamp_row_avx) against the
 * general stamp: every level added for each stamp
 * (attila_triangle_eval_stamp_add without memo), the simulator's edge
 * test (attila_triangle_inside) and the triangle's box per pixel. Random
 * planes of wide magnitudes, and planes of halves, values in the tie band
 * and at the near/far bounds, infinities and NaN, OpenGL and D3D9 depth,
 * boxes cutting the tile, random runs of a row; the stamps with a pixel
 * covered, their values bit for bit and their coverage must be equal.
 * Checked to fail when pixel 3 is pixel 2 + a instead of pixel 1 + b (in
 * either instance), when the box test of the row's columns lets qx = x1
 * through whole, and when the OpenGL near bound is -c itself (z = -c
 * then fails).
 */
static void test_stamp_rows_values(void)
{
    GRand *rnd = g_rand_new_with_seed(0x5AB2);
    int n, k, inst;
    uint64_t covered = 0;

    for (inst = 0; inst < 2; inst++) {
        AttilaStampRowFn *fn;

        g3d_no_avx = inst == 0;
        fn = attila_stamp_row_fn();
        g_assert_nonnull(fn);
        g_test_message("row walk: %s", g3d_use_avx() ? "AVX" : "SSE2");
        for (n = 0; n < 12000; n++) {
            AttilaTriangle t = { 0 };
            AttilaRowSteps rs;
            AttilaRowStamp out[8];
            bool d3d9 = g_rand_boolean(rnd);
            bool narrow = g_rand_boolean(rnd);
            double tile[4];
            int32_t tx, ty, tiles, r;

            for (k = 0; k < 3; k++) {
                t.e[k][0] = narrow ? random_edge_value(rnd) : random_wide(rnd);
                t.e[k][1] = narrow ? random_edge_value(rnd) : random_wide(rnd);
                t.inside_lo[k] = attila_inside_lo(t.e[k][0], t.e[k][1]);
            }
            /* z mostly near the near/far planes, or exactly at them */
            for (k = 0; k < 2; k++) {
                t.zeq[k] = g_rand_int_range(rnd, 0, 4) == 0 ? random_wide(rnd) :
                           g_rand_boolean(rnd) ? 0.0 :
                           g_rand_double_range(rnd, -1e-3, 1e-3);
            }
            attila_triangle_pairs(&t);
            t.level = g_rand_int_range(rnd, 4, 13);
            t.start_x = 16 * g_rand_int_range(rnd, 0, 64);
            t.start_y = 16 * g_rand_int_range(rnd, 0, 64);
            for (k = 0; k < 3; k++) {
                t.start[k] = narrow ? random_edge_value(rnd) :
                             random_wide(rnd);
                if (g_rand_boolean(rnd)) {
                    /* more stamps covered */
                    t.start[k] = fabs(t.start[k]);
                }
            }
            t.start[3] = g_rand_boolean(rnd) ? random_edge_value(rnd) :
                         g_rand_double_range(rnd, -1.05, 1.05);
            tiles = 1 << (t.level - 4);
            tx = t.start_x + 16 * g_rand_int_range(rnd, 0, tiles);
            ty = t.start_y + 16 * g_rand_int_range(rnd, 0, tiles);
            /* the triangle's pixel box: the tile, or cutting it */
            t.x0 = tx + (g_rand_boolean(rnd) ? 0 : g_rand_int_range(rnd, -3, 16));
            t.y0 = ty + (g_rand_boolean(rnd) ? 0 : g_rand_int_range(rnd, -3, 16));
            t.x1 = g_rand_boolean(rnd) ? tx + 15 : t.x0 + g_rand_int_range(rnd, 0, 18);
            t.y1 = g_rand_boolean(rnd) ? ty + 15 : t.y0 + g_rand_int_range(rnd, 0, 18);
            attila_triangle_eval_tile(&t, tx, ty, tile);
            attila_row_steps(&t, d3d9, &rs);
            for (r = 0; r < 8; r++) {
                int32_t qy = ty + 2 * r;
                int32_t qx0 = tx + 2 * g_rand_int_range(rnd, 0, 8);
                int32_t qx1 = tx + 2 * g_rand_int_range(rnd, 0, 8);
                unsigned got = fn(&t, tile, &rs, qy, qx0, qx1, out), want = 0;
                int32_t qx;

                for (qx = qx0; qx <= qx1; qx += 2) {
                    double v[4][4];
                    unsigned cov = 0, i;

                    attila_triangle_eval_stamp_add(&t, tile, qx, qy, NULL, v);
                    for (i = 0; i < 4; i++) {
                        int32_t x = qx + (i & 1), y = qy + (i >> 1);
                        bool in = x >= t.x0 && x <= t.x1 && y >= t.y0 &&
                                  y <= t.y1 &&
                                  attila_triangle_inside(&t, v[i], d3d9);
                        cov |= (unsigned)in << i;
                    }
                    if (!cov) {
                        continue;
                    }
                    g_assert_cmpuint(want, <, got);
                    g_assert_cmpint(out[want].qx, ==, qx);
                    g_assert_cmphex(out[want].cov, ==, cov);
                    g_assert_cmpmem(out[want].v, sizeof(v), v, sizeof(v));
                    want++;
                    covered++;
                }
                g_assert_cmpuint(got, ==, want);
            }
        }
    }
    g3d_no_avx = false;
    g_test_message("%" G_GUINT64_FORMAT " covered stamps", covered);
    g_assert_cmpuint(covered, >, 8000);
    g_rand_free(rnd);
}

/* call's value by the chosen paths (fast) and by g3d_general_path's */
#define BOTH_PATHS(fast, general, call)                                 \
    do {                                                                \
        (fast) = (call);                                                \
        g3d_general_path = true;                                        \
        (general) = (call);                                             \
        g3d_general_path = false;                                       \
    } while (0)

static void check_top_level(int64_t n)
{
    uint32_t fast, general;

    BOTH_PATHS(fast, general, attila_triangle_top_level(n));
    if (fast != general) {
        g_test_message("n %" G_GINT64_FORMAT ": %u against %u", (gint64)n,
                       fast, general);
    }
    g_assert_cmpuint(fast, ==, general);
}

/*
 * The top tile's level (triangle-setup.c attila_triangle_top_level: the
 * integer ceil(log2 n) up to 2^28) against the general path's formula
 * (the quotient of two logarithms, its ceiling, at least 4): every n to
 * 2^21, each power of two to 2^32 and its neighbours, 200000 random n up
 * to 2^33, and n of 0 and below. Checked to fail with the bound at 2^29
 * (2^29 gives one more by the formula), with the floor of 4 taken only
 * at n = 1, and with the bits of n counted rather than of n - 1.
 */
static void test_top_level(void)
{
    GRand *rnd = g_rand_new_with_seed(0x70B1);
    int64_t n;
    int k, d;

    for (n = -3; n <= (1 << 21); n++) {
        check_top_level(n);
    }
    for (k = 0; k <= 32; k++) {
        for (d = -2; d <= 2; d++) {
            check_top_level(((int64_t)1 << k) + d);
        }
    }
    for (k = 0; k < 200000; k++) {
        check_top_level((int64_t)(g_rand_double(rnd) * 8589934592.0));
    }
    g_rand_free(rnd);
}

static void check_lit_power(float y, float w)
{
    float fast, general;

    BOTH_PATHS(fast, general, attila_shader_lit_power(y, w));
    if (memcmp(&fast, &general, 4)) {
        g_test_message("%a ^ %a: %a against %a", y, w, fast, general);
    }
    g_assert_cmpmem(&fast, 4, &general, 4);
}

/*
 * LIT's power (shader.c lit_power: whole exponents by products in double,
 * where their rounding to float is sure) against the general path's pow:
 * for every exponent from 0 to 128, and halves and -1, bases around the
 * bounds of the products' range (2^-7, 2^7), of the floats from 0.25 to 1
 * a 6208th (the N.H of a specular highlight), zeros, infinity,
 * NaN, subnormals and 4000 random bit patterns.
 */
static void test_lit_power(void)
{
    static const float edge[] = {
        0.0f, -0.0f, 1.0f, 0x1p-7f, 0x1p7f, 0.5f, 2.0f, INFINITY, NAN,
        -1.0f, 0x1p-149f, 0x1p-126f, 0x1.fffffep127f, 0.418f, 0.48f,
    };
    GRand *rnd = g_rand_new_with_seed(0x117);
    uint32_t bits, k;
    float w, y;
    int n, d;

    for (n = -2; n <= 2 * 128 + 2; n++) {
        w = n % 2 ? (float)n * 0.5f : (float)(n / 2);
        for (k = 0; k < G_N_ELEMENTS(edge); k++) {
            for (d = -2; d <= 2; d++) {
                memcpy(&bits, &edge[k], 4);
                bits += d;
                memcpy(&y, &bits, 4);
                check_lit_power(y, w);
            }
        }
        for (bits = 0x3e800000; bits <= 0x3f800000; bits += 97 * 64) {
            memcpy(&y, &bits, 4);
            check_lit_power(y, w);
        }
        for (k = 0; k < 4000; k++) {
            bits = g_rand_int(rnd);
            memcpy(&y, &bits, 4);
            check_lit_power(y, w);
            y = (float)g_rand_double_range(rnd, 0.0, 1.0);
            check_lit_power(y, w);
        }
    }
    g_rand_free(rnd);
}

static void check_gamma_byte(float q)
{
    uint8_t fast, general;

    BOTH_PATHS(fast, general, attila_dac_gamma_byte(q));
    if (fast != general) {
        g_test_message("q %a: %u against %u", q, fast, general);
    }
    g_assert_cmpuint(fast, ==, general);
}

/*
 * The resolve's gamma byte (dac.c gamma_byte: the steps' first floats and
 * the buckets) against the general path's formula: the floats around
 * each of the 255 steps (four units either side), every float from 0 to
 * 1 in steps of 4093 units, each bucket's first and last float, the
 * averages of four random bytes' linear values, and above 1, negative,
 * NaN and infinity.
 */
static void test_gamma_byte(void)
{
    static const float edge[] = { 1.0f, 1.0001f, -0.0f, -1.0f, NAN,
                                  INFINITY, 4.0f };
    GRand *rnd = g_rand_new_with_seed(0x6A);
    uint32_t bits, lo, hi, k;
    int b, s;

    for (b = 1; b < 256; b++) {
        /* the least float of byte b or above, by bisection */
        lo = 0;
        hi = 0x3f800000;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            float q;

            memcpy(&q, &mid, 4);
            g3d_general_path = true;
            if (attila_dac_gamma_byte(q) >= b) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
            g3d_general_path = false;
        }
        for (bits = lo - 4; bits <= lo + 4; bits++) {
            check_gamma_byte(g3d_u2f(bits));
        }
    }
    for (bits = 0; bits <= 0x3f800000; bits += 4093) {
        check_gamma_byte(g3d_u2f(bits));
    }
    for (bits = 0; bits < 0x3f80; bits++) {
        check_gamma_byte(g3d_u2f(bits << 16));
        check_gamma_byte(g3d_u2f(bits << 16 | 0xffff));
    }
    for (k = 0; k < 200000; k++) {
        float sum = 0;

        for (s = 0; s < 4; s++) {
            sum += powf((float)g_rand_int_range(rnd, 0, 256) / 255.0f, 2.2f);
        }
        check_gamma_byte(sum / 4.0f);
    }
    for (k = 0; k < G_N_ELEMENTS(edge); k++) {
        check_gamma_byte(edge[k]);
    }
    g_rand_free(rnd);
}

static double edge_value(GRand *rnd);

/* a clip-space coordinate for test_triangle_setup: mostly within a few
 * w of the viewport, one in ten an edge_value (zeros, infinities, NaN,
 * wide magnitudes) */
static float setup_coordinate(GRand *rnd, float w)
{
    return g_rand_int_range(rnd, 0, 10) ?
           (float)g_rand_double_range(rnd, -1.6, 1.6) * w :
           (float)edge_value(rnd);
}

/* a and b the same bits, or both NaN */
static void same_doubles(const double *a, const double *b, int n)
{
    int k;

    for (k = 0; k < n; k++) {
        if (!(isnan(a[k]) && isnan(b[k]))) {
            g_assert_cmpmem(&a[k], sizeof(a[k]), &b[k], sizeof(b[k]));
        }
    }
}

/* two set-ups' triangles: the integers and the copied outputs byte-equal,
 * the planes' doubles too but for a NaN's sign and payload */
static void same_triangles(const AttilaTriangle *a, const AttilaTriangle *b)
{
    same_doubles(&a->e[0][0], &b->e[0][0], 9);
    same_doubles(a->zeq, b->zeq, 3);
    same_doubles(&a->area, &b->area, 1);
    same_doubles(a->start, b->start, 4);
    same_doubles(a->inside_lo, b->inside_lo, 3);
    same_doubles(a->ea, b->ea, 4);
    same_doubles(a->eb, b->eb, 4);
    g_assert_cmpint(a->x0, ==, b->x0);
    g_assert_cmpint(a->y0, ==, b->y0);
    g_assert_cmpint(a->x1, ==, b->x1);
    g_assert_cmpint(a->y1, ==, b->y1);
    g_assert_cmpint(a->start_x, ==, b->start_x);
    g_assert_cmpint(a->start_y, ==, b->start_y);
    g_assert_cmpuint(a->level, ==, b->level);
    g_assert_cmpmem(a->attr, sizeof(a->attr), b->attr, sizeof(b->attr));
}

/*
 * The triangle set-up's AVX build (triangle-setup.c setup_avx,
 * ds->setup_avx) and its SSE2 build against the general path (the SSE2
 * build under g3d_general_path: the outcodes one coordinate at a time,
 * the top level by logarithms):
 * 400000 random triangles (positions on and off the viewport, w of
 * either sign and wide magnitudes, zeros, infinities, NaN) under random
 * viewports, displays, scissors, face modes, culling, D3D9 rules and
 * pixel coordinates, MSAA, two-sided colours and copied outputs; the
 * result and the triangle equal (same_triangles: bit for bit but for a
 * NaN's sign and payload, which GCC's operand order for commutative
 * operations decides, differently in the two builds; the planes'
 * readers only compare them or convert them to integers). Checked to fail with the AVX
 * build given FMA (target "avx,fma", contraction on), and with its
 * bounding box one pixel wider on the left.
 */
static void test_triangle_setup(void)
{
    GRand *rnd = g_rand_new_with_seed(0x5E70);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    AttilaTriangle *t = g_new(AttilaTriangle, 3);
    AttilaVertex v[3];
    unsigned drawn = 0;
    int n, i, k, r;

    if (!g3d_use_avx()) {
        g_test_skip("no AVX: the set-up has one build");
        goto out;
    }
    for (n = 0; n < 400000; n++) {
        bool res[3];

        if (n % 64 == 0) {
            ds->vp_x = g_rand_int_range(rnd, -40, 40);
            ds->vp_y = g_rand_int_range(rnd, -40, 40);
            ds->vp_w = g_rand_int_range(rnd, 1, 900);
            ds->vp_h = g_rand_int_range(rnd, 1, 700);
            ds->disp_w = g_rand_int_range(rnd, 1, 1000);
            ds->disp_h = g_rand_int_range(rnd, 1, 800);
            ds->scissor = g_rand_boolean(rnd);
            ds->sc_x = g_rand_int_range(rnd, -20, 300);
            ds->sc_y = g_rand_int_range(rnd, -20, 300);
            ds->sc_w = g_rand_int_range(rnd, 0, 1000);
            ds->sc_h = g_rand_int_range(rnd, 0, 800);
            ds->face_mode = g_rand_boolean(rnd) ? ATTILA_FACE_CW :
                            ATTILA_FACE_CCW;
            ds->cull = g_rand_int_range(rnd, 0, 4);
            ds->d3d9_pixel = g_rand_boolean(rnd);
            ds->d3d9_rules = g_rand_boolean(rnd);
            ds->msaa = g_rand_boolean(rnd);
            ds->two_sided = g_rand_boolean(rnd);
            ds->setup_attrs = g_rand_int(rnd) & 0xfffe;
        }
        for (i = 0; i < 3; i++) {
            float w = g_rand_int_range(rnd, 0, 8) ? 1.0f :
                      setup_coordinate(rnd, 4.0f);

            for (k = 0; k < 3; k++) {
                v[i].out[0][k] = setup_coordinate(rnd, w);
            }
            v[i].out[0][3] = w;
            for (k = 1; k < ATTILA_SH_IO; k++) {
                for (r = 0; r < 4; r++) {
                    v[i].out[k][r] = (float)g_rand_double(rnd);
                }
            }
        }
        for (r = 0; r < 3; r++) {
            memset(&t[r], 0xA5, sizeof(t[r]));
            ds->setup_avx = r == 0;
            g3d_general_path = r == 2;
            res[r] = attila_triangle_setup(ds, &v[0], &v[1], &v[2], &t[r]);
        }
        ds->setup_avx = false;
        g3d_general_path = false;
        g_assert_cmpint(res[0], ==, res[1]);
        g_assert_cmpint(res[0], ==, res[2]);
        same_triangles(&t[0], &t[1]);
        same_triangles(&t[0], &t[2]);
        drawn += res[0];
    }
    g_test_message("%u of 400000 triangles drawn", drawn);
    g_assert_cmpuint(drawn, >, 100000);
out:
    g_free(t);
    g_free(ds);
    g_rand_free(rnd);
}

/* a value of one of wide magnitudes, or a zero of either sign, an
 * infinity or a NaN, for test_tile_edges */
static double edge_value(GRand *rnd)
{
    switch (g_rand_int_range(rnd, 0, 12)) {
    case 0:
        return g_rand_boolean(rnd) ? 0.0 : -0.0;
    case 1:
        return g_rand_boolean(rnd) ? INFINITY : -INFINITY;
    case 2:
        return NAN;
    case 3:     /* near the largest double: the products overflow */
        return g_rand_double_range(rnd, -1.0, 1.0) * 1.7e308;
    default:
        return g_rand_double_range(rnd, -1.0, 1.0) *
               ldexp(1.0, g_rand_int_range(rnd, -60, 60));
    }
}

/*
 * A scan tile's box-test bounds (rasterizer.c tile_edges: AVX lanes, the
 * three edges in one operation, where the CPU has AVX) against the scalar
 * code (g3d_general_path):
 * 300000 random edges and tile values of wide magnitudes, zeros of
 * either sign, infinities and NaN, the one-sample and MSAA box widths;
 * the outside flag and the twelve bounds bit for bit. Checked to fail
 * with edge 2's slack without its 1e-9, with hi's (a < 0 ? a w : 0) for
 * a > 0, with the tile's outside test by w for wt, and with hi left
 * finite where the slack is not.
 */
static void test_tile_edges(void)
{
    static const double wbox[3] = { 1.0, 1.0 + 120.0 / 128, 1.5 };
    GRand *rnd = g_rand_new_with_seed(0x7E1E);
    AttilaTriangle *t = g_new0(AttilaTriangle, 1);
    int n, k;

    for (n = 0; n < 300000; n++) {
        double tv[4], fast[12], general[12];
        double w = wbox[n % 3];
        bool of, og;

        for (k = 0; k < 3; k++) {
            t->e[k][0] = edge_value(rnd);
            t->e[k][1] = edge_value(rnd);
            t->e[k][2] = edge_value(rnd);
            tv[k] = edge_value(rnd);
        }
        tv[3] = edge_value(rnd);
        of = attila_tile_edges(t, tv, w, 18.0, 18.0, fast);
        g3d_general_path = true;
        og = attila_tile_edges(t, tv, w, 18.0, 18.0, general);
        g3d_general_path = false;
        if (of != og || memcmp(fast, general, sizeof(fast))) {
            for (k = 0; k < 12; k++) {
                g_test_message("%d: %a against %a", k, fast[k], general[k]);
            }
        }
        g_assert_cmpint(of, ==, og);
        g_assert_cmpmem(fast, sizeof(fast), general, sizeof(general));
    }
    g_free(t);
    g_rand_free(rnd);
}

/*
 * The 4-sample stamp's samples in AVX lanes (rasterizer.c
 * msaa_cover4_avx) against the same pixel's samples one by one
 * (msaa_cover with the per-triangle steps, as without AVX): random planes
 * of wide magnitudes and of halves, corner values in the tie band and at
 * the near/far bounds, infinities and NaN, OpenGL and D3D9 depth, depth
 * ranges, pixels found inside or not; the coverage and all eight window
 * z words must be equal. Checked to fail when a sample's z or edge value
 * adds its two products first, and when the lanes' z skips the factor's
 * product for the offset's (zw = z + offset).
 */
static void test_msaa_cover4(void)
{
    GRand *rnd = g_rand_new_with_seed(0x5AC4);
    AttilaDrawState *ds = g_new0(AttilaDrawState, 1);
    uint64_t covered = 0;
    int n, k;

    if (!g3d_use_avx()) {
        g_test_skip("no AVX: the lanes are not taken");
        g_free(ds);
        g_rand_free(rnd);
        return;
    }
    for (n = 0; n < 200000; n++) {
        AttilaTriangle t = { 0 };
        bool narrow = g_rand_boolean(rnd), inside = g_rand_int_range(rnd, 0, 4) == 0;
        double v[4];
        uint32_t zl[8], zo[8], cl, co;

        ds->d3d9_depth = g_rand_boolean(rnd);
        ds->z_scale = g_rand_boolean(rnd) ? 0.5 : g_rand_double_range(rnd, -1, 1);
        ds->z_offset = g_rand_boolean(rnd) ? 0.5 : g_rand_double_range(rnd, -1, 2);
        for (k = 0; k < 3; k++) {
            t.e[k][0] = narrow ? random_edge_value(rnd) : random_wide(rnd);
            t.e[k][1] = narrow ? random_edge_value(rnd) : random_wide(rnd);
            t.inside_lo[k] = attila_inside_lo(t.e[k][0], t.e[k][1]);
            v[k] = narrow ? random_edge_value(rnd) : random_wide(rnd);
            if (g_rand_boolean(rnd)) {
                v[k] = fabs(v[k]);
            }
        }
        for (k = 0; k < 2; k++) {
            t.zeq[k] = g_rand_int_range(rnd, 0, 4) == 0 ? random_wide(rnd) :
                       g_rand_boolean(rnd) ? 0.0 :
                       g_rand_double_range(rnd, -1e-3, 1e-3);
        }
        v[3] = g_rand_boolean(rnd) ? random_edge_value(rnd) :
               g_rand_double_range(rnd, -1.05, 1.05);
        /* a sample's value near the tie band or a near/far bound, where
         * the order of its two additions shows */
        for (k = 0; k < 4; k++) {
            static const double ties[] = {
                0.0, 1e-12, -1e-12, 2e-12, -2e-12, 1.0 + 1e-12,
                -(1.0 + 1e-12), 1.0, -1.0,
            };
            const double *pat = attila_msaa_pattern(4)[g_rand_int_range(rnd, 0, 4)];
            double a = k < 3 ? t.e[k][0] : t.zeq[0];
            double b = k < 3 ? t.e[k][1] : t.zeq[1];
            if (g_rand_boolean(rnd)) {
                v[k] = ties[g_rand_int_range(rnd, 0, G_N_ELEMENTS(ties))] -
                       a * (pat[0] / 128.0) - b * (pat[1] / 128.0);
            }
        }
        attila_triangle_pairs(&t);
        memset(zl, 0xa5, sizeof(zl));
        memset(zo, 0x5a, sizeof(zo));
        cl = attila_msaa_cover4(ds, &t, v, inside, true, zl);
        co = attila_msaa_cover4(ds, &t, v, inside, false, zo);
        g_assert_cmphex(cl, ==, co);
        g_assert_cmpmem(zl, sizeof(zl), zo, sizeof(zo));
        covered += cl != 0;
    }
    g_test_message("%" G_GUINT64_FORMAT " pixels covered", covered);
    g_assert_cmpuint(covered, >, 20000);
    g_free(ds);
    g_rand_free(rnd);
}

/*
 * attila_inside_lo's one comparison against attila_inside_edge (the
 * simulator's INSIDE_EQUATION): edge values at and one ulp either side of
 * +-ATTILA_MIN_BIAS, zeros, infinities, NaN and random ones, for edges
 * with a and b of every sign, zero and NaN. Checked to fail when lo for an
 * edge without ties is ATTILA_MIN_BIAS itself.
 */
static void test_inside_edge(void)
{
    static const double ab[] = { -1.5, -0.0, 0.0, 2.0, NAN, INFINITY };
    const double bias = ATTILA_MIN_BIAS;
    double vals[32] = {
        bias, -bias, 0.0, -0.0, NAN, INFINITY, -INFINITY,
        nextafter(bias, 1), nextafter(bias, 0), nextafter(-bias, 0),
        nextafter(-bias, -1), 2 * bias, bias / 2, -bias / 2, -2 * bias,
        1e-300, -1e-300, 1.0, -1.0,
    };
    GRand *rnd = g_rand_new_with_seed(3);
    int i, j, k, n = 19;

    while (n < (int)G_N_ELEMENTS(vals)) {
        vals[n++] = g_rand_double_range(rnd, -4 * bias, 4 * bias);
    }
    for (i = 0; i < (int)G_N_ELEMENTS(ab); i++) {
        for (j = 0; j < (int)G_N_ELEMENTS(ab); j++) {
            double lo = attila_inside_lo(ab[i], ab[j]);
            for (k = 0; k < n; k++) {
                g_assert_cmpint(vals[k] > lo, ==,
                                attila_inside_edge(vals[k], ab[i], ab[j]));
            }
        }
    }
    g_rand_free(rnd);
}

/* the scene's triangles from random_vertex, some sharing an edge with the
 * one before (its last two vertices) */
static void random_triangles(GRand *rnd, uint32_t w, uint32_t h,
                             float verts[SCENE_VERTS][8])
{
    int v;

    for (v = 0; v < SCENE_VERTS; v++) {
        if (v % 3 != 2 && v >= 3 && g_rand_int_range(rnd, 0, 3) == 0) {
            memcpy(verts[v], verts[v - 2 + (v % 3)], sizeof(verts[v]));
        } else {
            random_vertex(rnd, w, h, verts[v]);
        }
    }
}

/*
 * The scene's core (guest/attila-scene.h: the position and colour streams
 * at system memory 0, depth test LESS) with sys[] copied in and the
 * records recs run, once with the chosen paths and once with the general
 * ones (g3d_general_path): the back buffer, the z buffer of a w x h x ns
 * surface and the error registers must be equal. Returns the samples
 * whose depth was written.
 */
/* draw_twice's covered stamps since random_draws_end */
static uint64_t counted_quads;

static uint64_t draw_twice(AttilaRun *runs[2], uint32_t w, uint32_t h,
                           uint32_t ns, const void *sys, size_t sys_len,
                           const AttilaRecBuf *recs, uint32_t *errors)
{
    AttilaPixelMapper pm;
    uint8_t *img[2][2], setup[16384];
    AttilaRecBuf b = { setup, 0, sizeof(setup), 0 };
    uint32_t err[2][3];
    /* the raster's counts of the records: quads, fragments, work */
    uint64_t count[2][3], before[3];
    uint64_t drawn = 0;
    int pass, k;

    g_assert_false(recs->overflow);
    g_assert_true(attila_pixel_mapper_init(&pm, w, h, ns, 4));
    attila_scene_setup(&b, w, h, 0x80000000u);
    g_assert_false(b.overflow);
    for (pass = 0; pass < 2; pass++) {
        AttilaRun *run = runs[pass];

        /* the same core for every draw (a fresh one per draw costs a
         * GPU memory allocation and, under MALLOC_PERTURB_, its fill) */
        attila_reg_write(run->core, A_ATTILA_CONTROL,
                         R_ATTILA_CONTROL_RESET_MASK, 4);
        attila_reg_write(run->core, A_ATTILA_SYSMEM_SIZE,
                         (uint32_t)run->sys_size, 4);
        memcpy(run->sys, sys, sys_len);
        g3d_general_path = pass == 1;
        g_assert_true(attila_run_records(run, b.buf, b.n));
        attila_raster_stats(run->core->raster, &before[0], &before[1],
                            &before[2]);
        attila_run_records(run, recs->buf, recs->n);
        attila_raster_stats(run->core->raster, &count[pass][0],
                            &count[pass][1], &count[pass][2]);
        for (k = 0; k < 3; k++) {
            count[pass][k] -= before[k];
        }
        g3d_general_path = false;
        err[pass][0] = attila_reg_read(run->core, A_ATTILA_ERROR_COUNT, 4);
        err[pass][1] = attila_reg_read(run->core, A_ATTILA_ERROR_CODE, 4);
        err[pass][2] = attila_reg_read(run->core, A_ATTILA_ERROR_INFO, 4);
        img[pass][0] = g_memdup2(run->gpu + ATTILA_SCENE_FB(0), pm.surface);
        img[pass][1] = g_memdup2(run->gpu + ATTILA_SCENE_ZB, pm.surface);
    }
    g_assert_cmpmem(err[0], sizeof(err[0]), err[1], sizeof(err[1]));
    /*
     * The fast paths count as the general one (attila_raster_stats):
     * covered stamps, fragments, work. Checked to fail (stamp-rows,
     * stamp4-rows, stamp1, counts) with the one-sample copy walk's
     * fragments counted without pixel 3, with its program step left
     * uncounted, with a row's work one stamp short; with the 4-sample
     * walk's fragments taken as three at most, and its stamps counted
     * after the depth test; with copy_stamps (no AVX) counting a row's
     * stamps one short; with stamp1's fragments as two at most.
     */
    g_assert_cmpuint(count[0][0], ==, count[1][0]);
    g_assert_cmpuint(count[0][1], ==, count[1][1]);
    g_assert_cmpuint(count[0][2], ==, count[1][2]);
    *errors = err[0][0];
    for (k = 0; k < (int)pm.surface; k += 4) {
        uint32_t z;
        memcpy(&z, img[0][1] + k, 4);
        /* neither cleared (1.0) nor padding never written (0) */
        drawn += (z & 0xffffff) != 0xffffff && (z & 0xffffff) != 0;
    }
    /* the counts are the draws': a counted fragment is one of a counted
     * stamp's four pixels, a stamp one position of the work */
    g_assert_cmpuint(count[0][1], <=, 4 * count[0][0]);
    g_assert_cmpuint(count[0][0], <=, count[0][2]);
    counted_quads += count[0][0];
    for (k = 0; k < 2; k++) {
        g_assert_cmpmem(img[0][k], pm.surface, img[1][k], pm.surface);
        g_free(img[0][k]);
        g_free(img[1][k]);
    }
    return drawn;
}

/* the two cores of draw_twice: 32 MiB hold the scene's buffers
 * (ATTILA_SCENE_ZB and a surface) */
static void runs_new(AttilaRun *runs[2])
{
    runs[0] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 1);
    runs[1] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 1);
}

static void runs_free(AttilaRun *runs[2])
{
    attila_run_free(runs[0]);
    attila_run_free(runs[1]);
}

/* the end of a test of random draws: the samples whose depth was written,
 * at least `min` (the triangles reach the buffers), and the rigs freed */
static void random_draws_end(AttilaRun *runs[2], void *buf, GRand *rnd,
                             uint64_t drawn, uint64_t min)
{
    g_test_message("%" G_GUINT64_FORMAT " samples drawn, %" G_GUINT64_FORMAT
                   " stamps counted", drawn, counted_quads);
    g_assert_cmpuint(drawn, >, min);
    /* the counts compared were the draws' */
    g_assert_cmpuint(counted_quads, >, min / 16);
    counted_quads = 0;
    runs_free(runs);
    g_free(buf);
    g_rand_free(rnd);
}

/* the vertex program's matrix: identity, vertices are in clip space */
static void identity_records(AttilaRecBuf *b)
{
    int k;

    for (k = 0; k < 4; k++) {
        attila_rec_reg_vec4(b, ATTILA_REG_VERTEX_CONSTANT, k,
                            k == 0, k == 1, k == 2, k == 3);
    }
}

/* a scene's start: random triangles, the identity matrix, ns samples */
static void scene_begin(GRand *rnd, AttilaRecBuf *b, uint32_t w, uint32_t h,
                        uint32_t ns, float verts[SCENE_VERTS][8])
{
    random_triangles(rnd, w, h, verts);
    identity_records(b);
    attila_rec_reg_u32(b, ATTILA_REG_MULTISAMPLING, 0, ns > 1);
    attila_rec_reg_u32(b, ATTILA_REG_MSAA_SAMPLES, 0, ns > 1 ? ns : 2);
}

/*
 * Random triangles (some sharing edges, some huge, some thin) drawn with
 * the stamps' box tests (fast) and without (g3d_general_path): MSAA off
 * and 2, 4, 8 samples, OpenGL and D3D9 rules and depth ranges; the color
 * and z buffers byte-equal. Checked to fail when box_inside's box is half
 * as wide as the stamp's, and when a stamp found inside skips the near/far
 * test; and (raster_job's box of a stamp's pixels and samples, wbox) when
 * the box reaches half a pixel past the stamp's origin instead of one,
 * and half the samples' offsets past its second pixel (as did
 * /attila/fast/stamp-rows and /attila/fast/stamp4-rows).
 */
static void test_raster(void)
{
    static const uint32_t samples[4] = { 1, 2, 4, 8 };
    GRand *rnd = g_rand_new_with_seed(7);
    uint8_t *buf = g_malloc(65536);
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n;

    runs_new(runs);

    for (n = 0; n < 48; n++) {
        uint32_t w = g_rand_int_range(rnd, 8, 120);
        uint32_t h = g_rand_int_range(rnd, 8, 90);
        uint32_t ns = samples[n % 4];
        bool d3d9 = g_rand_boolean(rnd), d3d9_depth = g_rand_boolean(rnd);
        float verts[SCENE_VERTS][8];
        AttilaRecBuf b = { buf, 0, 65536, 0 };
        uint32_t err;

        scene_begin(rnd, &b, w, h, ns, verts);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_RASTERIZATION_RULES, 0, d3d9);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_PIXEL_COORDINATES, 0, d3d9);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_DEPTH_RANGE, 0, d3d9_depth);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        drawn += draw_twice(runs, w, h, ns, verts, sizeof(verts), &b,
                            &err);
        g_assert_cmpuint(err, ==, 0);
    }
    random_draws_end(runs, buf, rnd, drawn, 10000);
}

/* fragment programs for test_copy_program: some the rasteriser copies
 * itself (ds->fs_copy), some near misses it must leave to the shader */
static void copy_program(AttilaRecBuf *b, int which)
{
    const AttilaShSrc in1 = ATTILA_SRC(ATTILA_BANK_IN, 1);
    AttilaShIns p[2] = {
        { .opc = ATTILA_SH_MOV, .end = true, .rbank = ATTILA_BANK_OUT,
          .rreg = 1, .mask = 15, .s = { in1 } },
    };
    uint8_t code[2][16];
    int n = 1;

    switch (which) {
    case 1:     /* o0 (the depth output) and o1 written */
        p[1] = p[0];
        p[0].end = false;
        p[0].rreg = 0;
        n = 2;
        break;
    case 2:
        p[0].s[0].swz = ATTILA_SWZ(3, 2, 1, 0);
        break;
    case 3:
        p[0].s[0].neg = true;
        break;
    case 4:
        p[0].sat = true;
        break;
    case 5:
        p[0].mask = 0xd;
        break;
    case 6:     /* the window position */
        p[0].s[0] = ATTILA_SRC(ATTILA_BANK_IN, 0);
        break;
    case 7:     /* through a temporary */
        p[1] = p[0];
        p[0].end = false;
        p[0].rbank = ATTILA_BANK_TEMP;
        p[1].s[0] = ATTILA_SRC(ATTILA_BANK_TEMP, 0);
        n = 2;
        break;
    case 8:     /* a copy to o2: the colour output o1 stays as reset */
        p[0].rreg = 2;
        break;
    default:
        break;
    }
    attila_scene_ins(p, n, code);
    attila_rec_write(b, ATTILA_SCENE_FPROG, code, 16 * n);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, 16 * n);
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/*
 * The one-MOV fragment program copied by the rasteriser (ds->fs_copy)
 * against the shader running it (g3d_general_path): two draws a scene,
 * each with one of copy_program's programs, so that a copy draw follows
 * programs that wrote o0, o1 or a temporary; the depth from o0 or not,
 * early z or not, blending or not, MSAA off and 2/4 samples; colour and z
 * buffers and errors equal. Checked to fail when the copy draw's threads
 * are not reset at its start.
 */
static void test_copy_program(void)
{
    static const uint32_t samples[3] = { 1, 2, 4 };
    GRand *rnd = g_rand_new_with_seed(0xC0B1);
    uint8_t *buf = g_malloc(65536);
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n, d;

    runs_new(runs);
    for (n = 0; n < 60; n++) {
        uint32_t w = g_rand_int_range(rnd, 8, 64);
        uint32_t h = g_rand_int_range(rnd, 8, 48);
        uint32_t ns = samples[n % 3];
        float verts[SCENE_VERTS][8];
        AttilaRecBuf b = { buf, 0, 65536, 0 };
        uint32_t err;
        int v;

        for (v = 0; v < SCENE_VERTS; v++) {
            random_vertex(rnd, w, h, verts[v]);
        }
        identity_records(&b);
        attila_rec_reg_u32(&b, ATTILA_REG_MULTISAMPLING, 0, ns > 1);
        attila_rec_reg_u32(&b, ATTILA_REG_MSAA_SAMPLES, 0, ns > 1 ? ns : 2);
        attila_rec_reg_u32(&b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, 1,
                           g_rand_boolean(rnd));
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        for (d = 0; d < 2; d++) {
            copy_program(&b, g_rand_int_range(rnd, 0, 9));
            attila_rec_reg_u32(&b, ATTILA_REG_MODIFY_FRAGMENT_DEPTH, 0,
                               g_rand_int_range(rnd, 0, 3) == 0);
            attila_rec_reg_u32(&b, ATTILA_REG_EARLYZ, 0, g_rand_boolean(rnd));
            attila_rec_reg_u32(&b, ATTILA_REG_DEPTH_FUNCTION, 0,
                               g_rand_boolean(rnd) ? ATTILA_CMP_LESS :
                               ATTILA_CMP_ALWAYS);
            attila_rec_reg_u32(&b, ATTILA_REG_COLOR_BLEND, 0,
                               g_rand_boolean(rnd));
            attila_rec_reg_u32(&b, ATTILA_REG_BLEND_SRC_RGB, 0,
                               ATTILA_BF_SRC_ALPHA);
            attila_rec_reg_u32(&b, ATTILA_REG_BLEND_DST_RGB, 0,
                               ATTILA_BF_ONE_MINUS_SRC_ALPHA);
            attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        }
        drawn += draw_twice(runs, w, h, ns, verts, sizeof(verts), &b, &err);
        g_assert_cmpuint(err, ==, 0);
    }
    random_draws_end(runs, buf, rnd, drawn, 5000);
}

/*
 * Fragment programs for test_stamp1: copy_program's (0-8), and programs the
 * shader runs: a MUL of the colour by a constant, an ADD then a KIL where
 * the colour's component minus c0 is negative (some fragments killed), and
 * one writing o0.w (the depth) and o1 from the window position and colour.
 */
static void stamp1_program(AttilaRecBuf *b, int which)
{
    const AttilaShSrc in0 = ATTILA_SRC(ATTILA_BANK_IN, 0);
    const AttilaShSrc in1 = ATTILA_SRC(ATTILA_BANK_IN, 1);
    const AttilaShSrc c0 = ATTILA_SRC(ATTILA_BANK_PARAM, 0);
    const AttilaShSrc t0 = ATTILA_SRC(ATTILA_BANK_TEMP, 0);
    AttilaShIns p[3] = { 0 };
    AttilaShSrc nc0 = c0;
    uint8_t code[3][16];
    int n = 0;

    if (which < 9) {
        copy_program(b, which);
        return;
    }
    nc0.neg = true;
    switch (which) {
    case 9:
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_MUL, .rbank = ATTILA_BANK_OUT,
                                .rreg = 1, .mask = 15, .s = { in1, c0 } };
        break;
    case 10:
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_ADD, .rbank = ATTILA_BANK_TEMP,
                                .rreg = 0, .mask = 15, .s = { in1, nc0 } };
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_KIL, .s = { t0 } };
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_MOV, .rbank = ATTILA_BANK_OUT,
                                .rreg = 1, .mask = 15, .s = { in1 } };
        break;
    default:
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_MUL, .rbank = ATTILA_BANK_OUT,
                                .rreg = 0, .mask = 1, .s = { in1, in0 } };
        p[n++] = (AttilaShIns){ .opc = ATTILA_SH_ADD, .rbank = ATTILA_BANK_OUT,
                                .rreg = 1, .mask = 15, .s = { in1, in0 } };
        break;
    }
    p[n - 1].end = true;
    attila_scene_ins(p, n, code);
    attila_rec_write(b, ATTILA_SCENE_FPROG, code, 16 * n);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, 16 * n);
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/* stamp_scenes draws with reset_program's random programs (test_stamp_reset) */
static bool reset_programs;

/*
 * A random straight fragment program for the stamp's reset (draw-state.c
 * program_resets): 1-8 instructions on temporaries r0-r1 and outputs
 * o0-o2 (o0 the depth where the draw modifies it, o1 the colour), each
 * operand any of them, input 0 or 1 or c0 with a random swizzle; writes
 * whole or masked, some predicated on p0 (set by SETPGT, the state after
 * the registers), so that registers are read before they are written,
 * written in part, or not at all; a kill in some programs.
 */
static void reset_program(AttilaRecBuf *b, GRand *rnd)
{
    static const uint8_t ops[] = {
        ATTILA_SH_MOV, ATTILA_SH_ADD, ATTILA_SH_MUL, ATTILA_SH_MAD,
        ATTILA_SH_SLT, ATTILA_SH_MAX, ATTILA_SH_DP3, ATTILA_SH_FRC,
        ATTILA_SH_SETPGT, ATTILA_SH_KIL,
    };
    AttilaShIns p[8];
    uint8_t code[8][16];
    int n = g_rand_int_range(rnd, 1, 9), i, k;

    for (i = 0; i < n; i++) {
        /* a kill in one instruction in sixty (a program that kills is
         * reset whole) */
        int op = g_rand_int_range(rnd, 0, 60) ? g_rand_int_range(rnd, 0, 9) :
                 9;

        memset(&p[i], 0, sizeof(p[i]));
        p[i].opc = ops[op];
        for (k = 0; k < 3; k++) {
            static const uint8_t banks[] = {
                ATTILA_BANK_TEMP, ATTILA_BANK_TEMP, ATTILA_BANK_TEMP,
                ATTILA_BANK_OUT, ATTILA_BANK_IN, ATTILA_BANK_IN,
                ATTILA_BANK_PARAM, ATTILA_BANK_PARAM,
            };
            uint8_t bank = banks[g_rand_int_range(rnd, 0, 8)];

            /* the colour (input 1) mostly: the window position (input
             * 0) saturates the colour whatever the registers held */
            p[i].s[k] = ATTILA_SRC(bank, bank == ATTILA_BANK_TEMP ?
                                   g_rand_int_range(rnd, 0, 2) :
                                   bank == ATTILA_BANK_OUT ?
                                   g_rand_int_range(rnd, 0, 3) :
                                   bank == ATTILA_BANK_IN ?
                                   (g_rand_int_range(rnd, 0, 8) != 0) : 0);
            if (g_rand_boolean(rnd)) {
                p[i].s[k].swz = g_rand_int_range(rnd, 0, 256);
            }
        }
        if (op < 8) {
            p[i].rbank = g_rand_boolean(rnd) ? ATTILA_BANK_TEMP :
                         ATTILA_BANK_OUT;
            p[i].rreg = g_rand_int_range(rnd, 0, p[i].rbank ==
                                         ATTILA_BANK_TEMP ? 2 : 3);
            p[i].mask = g_rand_int_range(rnd, 0, 3) ? 15 :
                        g_rand_int_range(rnd, 1, 16);
            p[i].pred = g_rand_int_range(rnd, 0, 4) == 0;
            p[i].inv = g_rand_boolean(rnd);
        } else if (op == 8) {
            p[i].mask = 8;      /* p0 */
        }
    }
    if (n > 1 && g_rand_boolean(rnd)) {
        /* p0 from the colour and c0, so that the predicated writes after
         * it take some pixels and not others (those before it see the
         * reset's p0) */
        i = g_rand_int_range(rnd, 0, n - 1);
        memset(&p[i], 0, sizeof(p[i]));
        p[i].opc = ATTILA_SH_SETPGT;
        p[i].s[0] = ATTILA_SRC(ATTILA_BANK_IN, 1);
        p[i].s[1] = ATTILA_SRC(ATTILA_BANK_PARAM, 0);
        p[i].mask = 8;
    }
    p[n - 1].end = true;
    attila_scene_ins(p, n, code);
    attila_rec_write(b, ATTILA_SCENE_FPROG, code, 16 * n);
    attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, 16 * n);
    attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
}

/*
 * The one-sample stamp (rasterizer.c stamp1, with its edge values,
 * addresses, interpolation and colour write) against stamp() on the
 * general path: three draws a scene over random triangles, each with a
 * random program (copies, the shader's, kills, depth written), early or
 * late z, depth function and mask, stencil test and operations, blending
 * (ADD of 0, 1, As, 1 - As, and a factor only the general write does),
 * colour masks, flat or interpolated colour, input 0 read or not, OpenGL
 * and D3D9 rules; colour and z/stencil buffers and errors equal. Checked
 * to fail when stamp1 clears the bottom row's bits where the right column
 * is outside the triangle's box (~12u for ~10u), when it ignores a
 * lane's kill, when attila_depth_only_test takes equal for greater, and
 * when its by-channel copy (copy_soa) leaves out pixel 3's write.
 * With ns samples (test_stamp_msaa) the same scenes take the MSAA stamp.
 * The buffers are compared whole, padding included, so the clears'
 * over-scan tiles (attila_surface_runs) are checked too: these fail when
 * a tile is filled one slot short, and when a tile only partly inside
 * the surface is filled whole.
 */
static void stamp_scenes(uint32_t ns, int scenes, uint32_t seed, bool copies)
{
    static const uint32_t factors[5] = {
        ATTILA_BF_ZERO, ATTILA_BF_ONE, ATTILA_BF_SRC_ALPHA,
        ATTILA_BF_ONE_MINUS_SRC_ALPHA, ATTILA_BF_DST_COLOR,
    };
    /* registers set to a value below range */
    static const struct { uint32_t reg, range; } ranged[] = {
        { ATTILA_REG_DEPTH_FUNCTION, 8 }, { ATTILA_REG_STENCIL_FUNCTION, 8 },
        { ATTILA_REG_STENCIL_REFERENCE, 256 },
        { ATTILA_REG_STENCIL_COMPARE_MASK, 256 },
        { ATTILA_REG_STENCIL_UPDATE_MASK, 256 },
        { ATTILA_REG_STENCIL_FAIL_UPDATE, 8 },
        { ATTILA_REG_DEPTH_FAIL_UPDATE, 8 },
        { ATTILA_REG_DEPTH_PASS_UPDATE, 8 },
    };
    GRand *rnd = g_rand_new_with_seed(seed);
    GRand *krnd = g_rand_new_with_seed(seed ^ 0xB1E4D);
    uint8_t *buf = g_malloc(65536);
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n, d, k, kind;

    runs_new(runs);
    for (n = 0; n < scenes; n++) {
        uint32_t w = g_rand_int_range(rnd, 8, 100);
        uint32_t h = g_rand_int_range(rnd, 8, 80);
        bool d3d9 = g_rand_boolean(rnd);
        float verts[SCENE_VERTS][8];
        AttilaRecBuf b = { buf, 0, 65536, 0 };
        uint32_t err;

        scene_begin(rnd, &b, w, h, ns, verts);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_RASTERIZATION_RULES, 0, d3d9);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_PIXEL_COORDINATES, 0, d3d9);
        attila_rec_reg_u32(&b, ATTILA_REG_D3D9_DEPTH_RANGE, 0,
                           g_rand_boolean(rnd));
        attila_rec_reg_vec4(&b, ATTILA_REG_FRAGMENT_CONSTANT, 0,
                            (float)g_rand_double(rnd), 0.5f,
                            (float)g_rand_double_range(rnd, -1.0, 2.0), 0.25f);
        attila_rec_reg_u32(&b, ATTILA_REG_STENCIL_BUFFER_CLEAR, 0,
                           g_rand_int_range(rnd, 0, 256));
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        for (d = 0; d < 3; d++) {
            bool stencil = g_rand_int_range(rnd, 0, 3) == 0;

            /* copies: the plain copy (program 0) three draws in four */
            if (reset_programs) {
                reset_program(&b, rnd);
            } else {
                stamp1_program(&b, copies && g_rand_int_range(rnd, 0, 4) ?
                               0 : g_rand_int_range(rnd, 0, 12));
            }
            attila_rec_reg_u32(&b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, 0,
                               g_rand_boolean(rnd));
            attila_rec_reg_u32(&b, ATTILA_REG_INTERPOLATION, 1,
                               g_rand_int_range(rnd, 0, 4) != 0);
            attila_rec_reg_u32(&b, ATTILA_REG_MODIFY_FRAGMENT_DEPTH, 0,
                               g_rand_int_range(rnd, 0, 4) == 0);
            attila_rec_reg_u32(&b, ATTILA_REG_EARLYZ, 0, g_rand_boolean(rnd));
            attila_rec_reg_u32(&b, ATTILA_REG_DEPTH_TEST, 0,
                               g_rand_int_range(rnd, 0, 4) != 0);
            attila_rec_reg_u32(&b, ATTILA_REG_DEPTH_MASK, 0,
                               g_rand_int_range(rnd, 0, 4) != 0);
            attila_rec_reg_u32(&b, ATTILA_REG_STENCIL_TEST, 0, stencil);
            for (k = 0; k < (int)G_N_ELEMENTS(ranged); k++) {
                attila_rec_reg_u32(&b, ranged[k].reg, 0,
                                   g_rand_int_range(rnd, 0, ranged[k].range));
            }
            attila_rec_reg_u32(&b, ATTILA_REG_COLOR_BLEND, 0,
                               g_rand_boolean(rnd));
            /* one draw in two one of the copy walk's blend kinds (from
             * krnd: the scenes as they were drawn before) */
            kind = g_rand_int_range(krnd, 0, 4);
            for (k = 0; k < 4; k++) {
                /* the source colour factor also takes DST_COLOR */
                uint32_t f = factors[g_rand_int_range(rnd, 0, k ? 4 : 5)];

                attila_rec_reg_u32(&b, ATTILA_REG_BLEND_SRC_RGB + k, 0,
                                   kind < 2 ? copy_blend_kinds[kind][k] : f);
            }
            for (k = 0; k < 4; k++) {
                attila_rec_reg_u32(&b, ATTILA_REG_COLOR_MASK_R + k, 0,
                                   g_rand_int_range(rnd, 0, 5) != 0);
            }
            attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        }
        drawn += draw_twice(runs, w, h, ns, verts, sizeof(verts), &b, &err);
        g_assert_cmpuint(err, ==, 0);
    }
    g_rand_free(krnd);
    random_draws_end(runs, buf, rnd, drawn, 10000);
}

/*
 * attila_draw_state_build into the core's one draw state, draw after draw
 * (each texture unit's levels cleared only where the previous build had
 * the unit enabled), against a build into a cleared state: random texture
 * registers on the scene's set-up core (units enabled or not, 1D to cube,
 * compressed or not, framebuffer blocking, sizes, level ranges, addresses
 * in and outside memory), some draws refused (a viewport of width 0, then
 * the state is not used); the two states byte-equal after every build
 * that succeeds. Checked to fail when an enabled unit's levels were not
 * cleared, when the fields after the levels were not, and when the last
 * 64 bytes before the levels were not.
 */
static void test_draw_state(void)
{
    AttilaRun *run = attila_scene_run_new(64, 48, 1);
    AttilaCore *c = run->core;
    AttilaDrawState *fresh = g_new0(AttilaDrawState, 1);
    GRand *rnd = g_rand_new_with_seed(0xD5);
    uint32_t vp_w = attila_rf_u32(c, ATTILA_REG_VIEWPORT_WIDTH, 0);
    unsigned built = 0, refused = 0;
    int n, u, k;

    for (n = 0; n < 3000; n++) {
        bool ok, fresh_ok;

        for (u = 0; u < ATTILA_MAX_TEXTURES; u++) {
            if (g_rand_int_range(rnd, 0, 3)) {
                continue;       /* the unit as the last draw had it */
            }
            c->rf[ATTILA_REG_TEXTURE_ENABLE][u].u[0] = g_rand_boolean(rnd);
            c->rf[ATTILA_REG_TEXTURE_MODE][u].u[0] =
                g_rand_int_range(rnd, ATTILA_TEX_1D, ATTILA_TEX_CUBEMAP + 1);
            c->rf[ATTILA_REG_TEXTURE_FORMAT][u].u[0] =
                g_rand_int_range(rnd, 0, 4) ? ATTILA_FMT_RGBA8888 :
                g_rand_int_range(rnd, 0, 32);
            c->rf[ATTILA_REG_TEXTURE_COMPRESSION][u].u[0] =
                g_rand_int_range(rnd, 0, 3) ? ATTILA_TC_NONE :
                g_rand_int_range(rnd, 0, 9);
            c->rf[ATTILA_REG_TEXTURE_BLOCKING][u].u[0] =
                g_rand_int_range(rnd, 0, 4) == 0 ?
                ATTILA_TXBLOCK_FRAMEBUFFER : ATTILA_TXBLOCK_TEXTURE;
            c->rf[ATTILA_REG_TEXTURE_WIDTH][u].u[0] =
                g_rand_int_range(rnd, 0, 8) ? 1u << g_rand_int_range(rnd, 0, 9)
                : 0;
            c->rf[ATTILA_REG_TEXTURE_HEIGHT][u].u[0] =
                1u << g_rand_int_range(rnd, 0, 9);
            c->rf[ATTILA_REG_TEXTURE_DEPTH][u].u[0] =
                g_rand_int_range(rnd, 1, 5);
            c->rf[ATTILA_REG_TEXTURE_MIN_LEVEL][u].u[0] =
                g_rand_int_range(rnd, 0, 4);
            c->rf[ATTILA_REG_TEXTURE_MAX_LEVEL][u].u[0] =
                g_rand_int_range(rnd, 0, 14);
            for (k = 0; k < ATTILA_MAX_TEXTURE_SIZE * ATTILA_CUBEMAP_IMAGES;
                 k++) {
                c->rf[ATTILA_REG_TEXTURE_ADDRESS]
                     [u * ATTILA_MAX_TEXTURE_SIZE * ATTILA_CUBEMAP_IMAGES + k]
                     .u[0] = g_rand_int_range(rnd, 0, 16) ?
                             g_rand_int_range(rnd, 0, 1 << 20) * 64u :
                             g_rand_int(rnd);
            }
        }
        c->rf[ATTILA_REG_VIEWPORT_WIDTH][0].u[0] =
            g_rand_int_range(rnd, 0, 10) ? vp_w : 0;
        ok = attila_draw_state_build(c, c->ds[0]);
        /* what a build into a cleared state gives (the error latch takes
         * the same reports twice) */
        memset(fresh, 0, sizeof(*fresh));
        fresh_ok = attila_draw_state_build(c, fresh);
        g_assert_cmpint(ok, ==, fresh_ok);
        if (ok) {
            built++;
            g_assert_cmpmem(c->ds[0], sizeof(*fresh), fresh, sizeof(*fresh));
        } else {
            refused++;
        }
    }
    g_test_message("draw states: %u built, %u refused", built, refused);
    g_assert_cmpuint(built, >, 2000);
    g_assert_cmpuint(refused, >, 100);
    g_rand_free(rnd);
    g_free(fresh);
    attila_run_free(run);
}

static void test_stamp1(void)
{
    stamp_scenes(1, 80, 0x57A1, false);
}

/* stamp_scenes without AVX (g3d_no_avx, seed), then with the CPU's best
 * (seed + 1), then where the CPU has AVX-512 at AVX2 (g3d_simd_max
 * lowered, seed + 3: the AVX2 instances beside the AVX-512 ones), then
 * where the CPU has AVX2 at AVX (seed + 2: the AVX instances beside the
 * AVX2 ones) */
static void stamp_scenes_levels(uint32_t ns, int plain, int best, int avx,
                                uint32_t seed, bool copies)
{
    g3d_no_avx = true;
    stamp_scenes(ns, plain, seed, copies);
    g3d_no_avx = false;
    g_test_message("%u-sample rows: %s", ns,
                   g3d_simd_level() >= G3D_SIMD_AVX512 ? "AVX-512" :
                   g3d_use_avx2() ? "AVX2" : g3d_use_avx() ? "AVX" : "SSE2");
    stamp_scenes(ns, best, seed + 1, copies);
    if (g3d_simd_level() >= G3D_SIMD_AVX512) {
        g3d_simd_max = G3D_SIMD_AVX2;
        g_test_message("%u-sample rows below AVX-512: AVX2", ns);
        stamp_scenes(ns, avx, seed + 3, copies);
        g3d_simd_max = G3D_SIMD_AVX512;
    }
    if (g3d_use_avx2()) {
        g3d_simd_max = G3D_SIMD_AVX;
        g_test_message("%u-sample rows below AVX2: %s", ns,
                       g3d_use_avx() ? "AVX" : "SSE2");
        stamp_scenes(ns, avx, seed + 2, copies);
        g3d_simd_max = G3D_SIMD_AVX512;
    }
}

/*
 * stamp_scenes' one-sample draws walked by rows of stamps (rasterizer.c
 * stamp_row_*, copy_stamps) with the SSE2 instance (g3d_no_avx) and with
 * the AVX one where the CPU has it, against the general path: colour and
 * z/stencil buffers and errors equal. Checked to fail when copy_stamps
 * writes a stamp's pixel 3 whatever its coverage; the AVX copy by tiles
 * (copy_tile_avx) when it found the rows' runs with the tile's x for its
 * y, and when it wrote every row to the tile's first line. The walk writes
 * its covered stamps two at a time as it finds them (row_walk_avx with
 * CopyRow, attila_color_write_pair_avx): it failed with the second
 * stamp of a pair written under the first's coverage, with a row's odd
 * last stamp left unwritten, with the waiting stamp's address taken from
 * the row's first column, and with its colour's channels reversed. (A
 * last-bit change of the values shows only in the tie band:
 * /attila/fast/stamp-rows-values checks the walk itself.) The copy by
 * tiles has an AVX2 instance (copy_tile_avx2: the write's destination
 * bytes, packing and masked stores by 256-bit integer operations), run at
 * the CPU's best level; the AVX one also runs where the CPU has AVX2
 * (g3d_simd_max lowered). The AVX2 write failed with a channel's
 * destination bytes shifted by 8 c + 1, green packed at bit 9, the
 * second stamp's masks taken from the first's coverage, and the second
 * stamp's words taken from the first's lanes; the walk's waiting stamp
 * (in locals since) when its colour was the second's. Where the CPU has
 * AVX-512 the best level takes copy_tile_avx512 (the AVX2 code compiled
 * for AVX-512VL's 32 registers), the AVX2 instance below it: failed with
 * that instance's rows cut one stamp short. Its compilation with FMA
 * contraction allowed (20 VFMADD/VFMSUB in the object) was not caught:
 * a last bit of the interpolation seldom moves a byte; the build keeps
 * contraction off there (G3D_NO_CONTRACT) and objdump checks the object.
 * stamp_scenes blends half its draws by one of the copy walk's blend
 * kinds (copy_tile_kinds): failed with the As/1 - As kind walked by the
 * As/1 instance (not caught with the kinds on one draw in eight), the
 * factor 1 taken as As, and the source alpha's factor code taken from
 * the destination alpha's bits.
 * The copy walks' row runs by AVX lanes (rasterizer.c row_run_avx, for
 * copy_tile and copy4_tile): failed here and in stamp4-rows with b dy
 * taken as b times the row's x offset, with the run's last stamp left
 * out, and with its first stamp left out. The other one-sample draws'
 * tiles in one AVX call (rasterizer.c stamp1_tile_avx, stamp1's steps
 * inlined; the row runs from a mask of the tile's columns, row_runs_avx):
 * failed here and in /attila/fast/stamp1 with the run's first stamp left
 * out, with the tile's last column left out of the mask, with edge k
 * compared with edge k + 1's bound, and with a row's work one more; the
 * stamp's colour write transposed inline (attila_color_write4) failed in
 * those and in /attila/fast/color-write4 with slots 2 and 3 swapped.
 */
static void test_stamp_rows(void)
{
    stamp_scenes_levels(1, 60, 60, 60, 0x57B1, false);
}

/*
 * The draws' counts (attila_raster_stats: covered stamps, fragments,
 * work), which draw_twice compares between the chosen paths and the
 * general one in every test that draws through it: here stamp_scenes'
 * one-sample draws with the copy program in most of them, so that each
 * level's copy walk (copy_tile_avx512, _avx2, _avx; copy_stamps without
 * AVX) counts many draws. Checked to fail with the AVX instance's
 * covered stamps one more a tile (the levels above it right).
 */
static void test_counts(void)
{
    stamp_scenes_levels(1, 20, 20, 20, 0x57D1, true);
}

/*
 * stamp_scenes with 2, 4 and 8 samples: the MSAA stamp's chosen steps
 * (the depth test of a pixel's samples four at a time, the 4-sample
 * stamp, the partly covered pixels' centroids from a table) against the
 * general path. Checked to fail when attila_depth_only_test4 takes the
 * greater bit for equal, when it writes a sample that failed, and when
 * the centroid table's x is looked up without the mask's sample 0.
 */
static void test_stamp_msaa(void)
{
    stamp_scenes(2, 30, 0x57A2, false);
    stamp_scenes(4, 40, 0x57A4, false);
    stamp_scenes(8, 30, 0x57A8, false);
    /* the 4-sample stamp's samples one by one, as without AVX */
    g3d_no_avx = true;
    stamp_scenes(4, 40, 0x57A5, false);
    g3d_no_avx = false;
}

/*
 * stamp_scenes' 4-sample draws with the copy program in most draws: their
 * rows walked by copy4_tile_avx where the CPU has AVX (the 16 samples in
 * lanes, the early depth test, the centroids, the copy by channel and
 * the write of each pixel's samples), by stamp4 without it (g3d_no_avx),
 * against the general path: colour and z/stencil buffers and errors
 * equal. Checked to fail when the walk takes every pixel's centroid as
 * all four samples', when it leaves out the triangle's box at the row's
 * columns, when the depth test of a pixel's samples takes all four
 * whatever their coverage, when a pixel's coverage takes sample 2's bit
 * for sample 1's, and when pixel 3's colour is written to pixel 2's
 * samples. The walk's depth test runs at AVX2 and above by
 * depth_stamp4_avx2 (the CPU's best level), at AVX by pixels (g3d_simd_max
 * lowered); the AVX2 one was checked to fail when pixels 2 and 3 took
 * pixels 0 and 1's coverage, when each relation took the next bit of the
 * table (a shift of 29 for 30), when the samples' words were put in pixel
 * order as (0 1 4 5 2 3 6 7) for (0 4 1 5 2 6 3 7), and when a covered
 * word was written whatever its test. The walk takes a scan tile's rows
 * in one call (copy4_tile_avx): it failed with the rows' runs found with
 * the tile's x for its y, with every row's box bits and with its
 * y step taken from the tile's first row. Where the CPU has AVX-512 the
 * walk's coverage and window z take mask registers (copy4_tile_avx512,
 * cover4_avx512), run at the best level, the AVX2 instance below it:
 * failed with sample 3's spread taken from sample 2's mask, with the box
 * bits left out, with samples 2 and 3's window z taken from 0 and 1's,
 * and with every sample's x step taken from sample 0's. Since branch
 * attila20 the AVX2 level has an instance of its own (copy4_tile_avx2)
 * with depth_stamp4_avx2 inlined, as the AVX-512 one has it: run below
 * AVX-512 (g3d_simd_max lowered), it failed with its depth test given
 * samples 2 and 3's window z for 0 and 1's, and with z written whatever
 * the draw's depth mask. The walk's colour write is inlined
 * (attila_color_write_stamp4_lanes, the body of
 * attila_color_write_stamp4_avx and _avx2): failed at the CPU's best level
 * with the second pixel of a pair stored under the first's coverage.
 * Since branch attila32 a pixel pair's centroids are one look-up
 * (centroid4_pairs): failed with the two pixels' x swapped, with the
 * second pixel's y taken from the first's, and with pixels 2 and 3's x
 * taken from 0 and 1's; depth_stamp4_avx2's invariants are made once a
 * tile: failed with the coverage left out of the pass, with the new word
 * keeping the old depth bits, and with pixels 2 and 3's coverage bits
 * taken from 0 and 1's; a pair's slot masks are one look-up
 * (attila_slot_masks2): failed with the pair's pixels swapped and with
 * the colour mask left out. row_run_avx finds a row empty from its first
 * and last stamps and the edges' signs (edge_signs_avx): failed here and
 * in stamp-rows with the first stamp's test taking the edges with a > 0,
 * with the last stamp's taking those with a < 0, with the signs swapped,
 * and with the run's last stamp left out after the first scan (with
 * a > 0 taken as a >= 0 nothing fails: an edge with a = 0 is the same
 * along the row, so that rule is as sound). Since branch attila36 a draw
 * whose depth test is LESS alone has instances of its own
 * (copy4_tile_avx2_less, _avx512_less: the pass one compare; the scenes
 * draw with every depth function): failed here (and in raster) with the
 * compare's operands swapped and with the coverage ORed in for ANDed, and
 * here with the instance chosen for LEQUAL's table (3) for LESS's.
 */
static void test_stamp4_rows(void)
{
    stamp_scenes_levels(4, 30, 60, 40, 0x57C4, true);
}

/*
 * Vertices shaded in batches (streamer.c shade_whole, shade_chunk)
 * against one at a time (the general path, one render thread): indexed
 * draws whose indices repeat (post-transform cache hits on vertices still
 * waiting in a batch and on shaded ones), 8-, 16- and 32-bit indices,
 * some pointing past the vertex data (the attribute fetch fails in the
 * middle of a batch), some index streams running out of memory in the
 * middle of the draw, and instanced draws; the frames and the error
 * registers must be the same. `many`: up to 1500 vertices a draw, most of
 * them distinct or not indexed at all, so that a draw's batches fill
 * several chunks; with `threads` > 1 the chunks' batches are shaded on the
 * render threads, and the triangles are set up on them too (streamer.c
 * set_up_pending). Checked to fail when a batch's outputs go to the wrong
 * vertices, when a failed batch is not redone one at a time, when a cache
 * hit takes its own position's vertex, when the batches a helper thread
 * takes are left unshaded, when an attribute block is read at its first
 * element for every vertex, when the triangles a helper sets up are
 * dropped, and when a set-up triangle is batched in its neighbour's place.
 * Since branch thr15 the render threads set triangles up straight into
 * their batch slots (a rejected one's left empty), each as soon as its
 * vertices' batches are shaded; with the shading delayed
 * (attila_vertex_delay_us) this failed when a triangle's set-up did not
 * wait for its vertices, when it waited for the batch before theirs, and
 * when the chunk's first position was taken as its last batch's (also
 * the /attila/threads tests), and when a rejected triangle's slot was left as it
 * was (the corpus then reports errors). A draw of 480 triangles or fewer
 * is shaded, set up and rasterised in one job (streamer.c draw_job): it
 * failed here when the raster batch was begun without chunk_whole's
 * check (a batch with bad vertex data then drawn from the job).
 */
#define BATCH_SYS_BYTES (256u << 10)
#define BATCH_VERTS 4096        /* `many`: the vertex data's, 128 KiB */

/*
 * The scene's vertex program with a colour that reads what a thread's
 * clear gives: o1.xy = i3 + r5 with r5 read before it is written (then
 * written from i0, so that a thread left uncleared would hold it), o1.zw
 * never written. A batch's threads are cleared but for their inputs
 * (streamer.c window_inputs), one vertex's on the general path whole
 * (vertex_inputs): both must read 0 there. Checked to fail when the
 * batch's clear starts at the temporaries (the outputs left from the
 * batch before) and when it ends before them; since the clear covers only
 * the registers the program names or vertex_store keeps (ds->vs_temps,
 * vs_outs), when vs_temps was one short (r5 left) and when vs_outs was
 * one short (with /attila/fast/setup-attributes, which also failed when
 * vs_outs left out the outputs vertex_store keeps and the program does
 * not name).
 */
static void unwritten_reads_program(AttilaRecBuf *b)
{
    const uint32_t at = ATTILA_SCENE_VPROG + 0x200;
    const AttilaShSrc in0 = ATTILA_SRC(ATTILA_BANK_IN, 0);
    const AttilaShSrc r5 = ATTILA_SRC(ATTILA_BANK_TEMP, 5);
    uint8_t vp[6][16];
    AttilaShIns v[6];
    int i;

    for (i = 0; i < 4; i++) {
        v[i] = (AttilaShIns){ .opc = ATTILA_SH_DP4, .rbank = ATTILA_BANK_OUT,
                              .rreg = 0, .mask = 8 >> i,
                              .s = { ATTILA_SRC(ATTILA_BANK_PARAM, i), in0 } };
    }
    v[4] = (AttilaShIns){ .opc = ATTILA_SH_ADD, .rbank = ATTILA_BANK_OUT,
                          .rreg = 1, .mask = 12,
                          .s = { ATTILA_SRC(ATTILA_BANK_IN, 3), r5 } };
    v[5] = (AttilaShIns){ .opc = ATTILA_SH_MOV, .end = true,
                          .rbank = ATTILA_BANK_TEMP, .rreg = 5, .mask = 15,
                          .s = { in0 } };
    attila_scene_ins(v, 6, vp);
    attila_rec_write(b, at, vp, sizeof(vp));
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM, 0, at);
    attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, sizeof(vp));
    attila_rec_cmd(b, ATTILA_CMD_LOAD_VERTEX_PROGRAM);
}

static void vertex_batch_draws(int threads, uint32_t max_tris, uint32_t seed)
{
    const bool many = max_tris > 40;
    static const uint32_t idx_fmt[3] = {
        ATTILA_SD_UINT8, ATTILA_SD_UINT16, ATTILA_SD_UINT32,
    };
    const uint32_t w = 64, h = 48;
    const uint32_t idx_at = many ? BATCH_VERTS * 32 : 4096;
    const uint32_t nverts = many ? BATCH_VERTS : SCENE_VERTS;
    GRand *rnd = g_rand_new_with_seed(seed);
    uint8_t *buf = g_malloc(65536), *sys = g_malloc(BATCH_SYS_BYTES);
    float (*verts)[8] = g_malloc(sizeof(float[8]) * nverts);
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n, errors = 0;

    g_assert_cmpuint(idx_at + 3 * max_tris * 4, <=, BATCH_SYS_BYTES);
    runs[0] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, threads);
    runs[1] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 1);

    for (n = 0; n < 60; n++) {
        uint32_t fmt = idx_fmt[n % 3], bytes = 1u << (n % 3);
        uint32_t count = 3 * g_rand_int_range(rnd, 1, max_tris), v;
        uint32_t kind = g_rand_int_range(rnd, 0, 4);
        uint32_t idx_addr = 0x80000000u + idx_at, err;
        /* `many`: half the plain draws read their vertices in order */
        bool indexed = !many || kind != 0 || n % 2;
        AttilaRecBuf b = { buf, 0, 65536, 0 };

        for (v = 0; v < nverts; v++) {
            random_vertex(rnd, w, h, verts[v]);
            verts[v][3] = fabsf(verts[v][3]) + 0.5f;
        }
        memset(sys, 0, BATCH_SYS_BYTES);
        memcpy(sys, verts, sizeof(float[8]) * nverts);
        for (v = 0; v < count; v++) {
            /* few distinct indices: many repeats, near and far apart;
             * `many`: mostly new ones, some repeats */
            uint32_t i = many ? (g_rand_int_range(rnd, 0, 4) ? v % nverts :
                                 g_rand_int_range(rnd, 0, nverts)) :
                         g_rand_int_range(rnd, 0, v % 7 == 0 ? nverts : 9);
            if (kind == 1 && g_rand_int_range(rnd, 0, many ? 400 : 40) == 0) {
                i = bytes == 1 ? 250 : 40000;   /* vertex data past memory */
            }
            if (bytes == 1) {
                i &= 0xff;
            }
            memcpy(sys + idx_at + v * bytes, &i, bytes);
        }
        if (kind == 2) {
            /* the index stream reaches the end of system memory */
            idx_addr = 0x80000000u + ATTILA_SCENE_SYS_SIZE -
                       bytes * g_rand_int_range(rnd, 1, count);
        }
        identity_records(&b);
        if (n % 4 == 1) {
            unwritten_reads_program(&b);
        }
        attila_rec_reg_u32(&b, ATTILA_REG_INDEX_MODE, 0, indexed);
        attila_rec_reg_u32(&b, ATTILA_REG_INDEX_STREAM, 0, 2);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_ADDRESS, 2, idx_addr);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_DATA, 2, fmt);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_COUNT, 0, count);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_INSTANCES, 0,
                           kind == 3 ? 3 : 1);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        drawn += draw_twice(runs, w, h, 1, sys, BATCH_SYS_BYTES, &b, &err);
        errors += err != 0;
    }
    g_test_message("%d render threads: %" G_GUINT64_FORMAT " samples drawn, "
                   "%d draws with errors", threads, drawn, errors);
    g_assert_cmpuint(drawn, >, 10000);
    g_assert_cmpint(errors, >, 5);
    runs_free(runs);
    g_free(verts);
    g_free(sys);
    g_free(buf);
    g_rand_free(rnd);
}

/*
 * The triangle set-up's copy of only the vertex outputs the fragment side
 * reads (ds->setup_attrs) and the vertex store of only those and the
 * position (ds->vertex_outs, streamer.c vertex_store) against every output
 * copied and stored (g3d_general_path): the vertex program writes outputs
 * 1-15 from the colour and random constants (some outputs unwritten, some
 * values outside 0..1 for the colour clamp), the fragment program sums a
 * random set of inputs 0-15 or copies one of 1-14 (the rasteriser's copy,
 * fs_copy and copy_soa); inputs enabled or not, flat or interpolated,
 * two-sided colours, culling and face mode random; one sample or four.
 * Three draws a scene with different programs, so that the batch slots
 * and the vertices hold another draw's values where an output is left
 * out; some vertex constants NaN, infinite or signed zeros, some
 * fragment programs a reciprocal (which tells -0 from +0). Checked to
 * fail with setup_attrs' last input left out, with the mask one input up (<< 1),
 * with the back colours not stored (vertex_outs without outputs 3 and
 * 4), with the clamp's MINPS operands swapped (NaN to 0) and with the
 * clamp left out of the SSE2 store.
 */
/* a vertex constant of test_setup_attributes: within -m..m, or (one in
 * `in` draws) NaN, an infinity or a signed zero, for the colour clamp */
static double setup_constant(GRand *rnd, double m, int in)
{
    static const double special[5] = { NAN, INFINITY, -INFINITY, -0.0, 0.0 };

    return g_rand_int_range(rnd, 0, in) ? g_rand_double_range(rnd, -m, m) :
           special[g_rand_int_range(rnd, 0, 5)];
}

static void setup_attribute_draws(AttilaRecBuf *b, GRand *rnd)
{
    const AttilaShSrc in0 = ATTILA_SRC(ATTILA_BANK_IN, 0);
    const AttilaShSrc in3 = ATTILA_SRC(ATTILA_BANK_IN, 3);
    const AttilaShSrc t0 = ATTILA_SRC(ATTILA_BANK_TEMP, 0);
    uint8_t code[24][16];
    AttilaShIns p[24];
    int d, k, n, in;
    bool negz;

    for (d = 0; d < 3; d++) {
        /* the position (identity_records' constants), then outputs
         * o[k] = i3 * c[4 + k] + c[20 + k] */
        for (n = 0; n < 4; n++) {
            p[n] = (AttilaShIns){ .opc = ATTILA_SH_DP4,
                                  .rbank = ATTILA_BANK_OUT, .rreg = 0,
                                  .mask = 8 >> n,
                                  .s = { ATTILA_SRC(ATTILA_BANK_PARAM, n),
                                         in0 } };
        }
        for (k = 1; k < ATTILA_SH_IO; k++) {
            if (g_rand_int_range(rnd, 0, 5) == 0) {
                continue;
            }
            p[n++] = (AttilaShIns){
                .opc = ATTILA_SH_MAD, .rbank = ATTILA_BANK_OUT, .rreg = k,
                .mask = 15, .s = { in3, ATTILA_SRC(ATTILA_BANK_PARAM, 4 + k),
                                   ATTILA_SRC(ATTILA_BANK_PARAM, 20 + k) } };
            /* the special values more often in the clamped colour, and
             * one draw in two its x -0 (-0 * i3 + -0) */
            in = k == 1 ? 2 : 6;
            negz = k == 1 && g_rand_boolean(rnd);
            attila_rec_reg_vec4(b, ATTILA_REG_VERTEX_CONSTANT, 4 + k,
                                negz ? -0.0 : setup_constant(rnd, 2.0, in),
                                setup_constant(rnd, 2.0, in),
                                setup_constant(rnd, 2.0, in),
                                setup_constant(rnd, 2.0, in));
            attila_rec_reg_vec4(b, ATTILA_REG_VERTEX_CONSTANT, 20 + k,
                                negz ? -0.0 : setup_constant(rnd, 0.5, in),
                                setup_constant(rnd, 0.5, in),
                                setup_constant(rnd, 0.5, in),
                                setup_constant(rnd, 0.5, in));
        }
        p[n - 1].end = true;
        attila_scene_ins(p, n, code);
        attila_rec_write(b, ATTILA_SCENE_VPROG, code, 16 * n);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM, 0, ATTILA_SCENE_VPROG);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_PC, 0, 0);
        attila_rec_reg_u32(b, ATTILA_REG_VERTEX_PROGRAM_SIZE, 0, 16 * n);
        attila_rec_cmd(b, ATTILA_CMD_LOAD_VERTEX_PROGRAM);

        /* the fragment program after the vertex one's 19 instructions */
        if (g_rand_int_range(rnd, 0, 4) == 0) {
            /* the reciprocal of an input's x: -0 and +0 tell apart; the
             * colour half the time */
            k = g_rand_boolean(rnd) ? 1 : g_rand_int_range(rnd, 2, 15);
            p[0] = (AttilaShIns){ .opc = ATTILA_SH_RCP, .end = true,
                                  .rbank = ATTILA_BANK_OUT, .rreg = 1,
                                  .mask = 15,
                                  .s = { ATTILA_SRC(ATTILA_BANK_IN, k) } };
            n = 1;
        } else if (g_rand_int_range(rnd, 0, 4) == 0) {
            /* a copy of one input */
            k = g_rand_int_range(rnd, 1, 15);
            p[0] = (AttilaShIns){ .opc = ATTILA_SH_MOV, .end = true,
                                  .rbank = ATTILA_BANK_OUT, .rreg = 1,
                                  .mask = 15,
                                  .s = { ATTILA_SRC(ATTILA_BANK_IN, k) } };
            n = 1;
        } else {
            /* t0 = sum of i[k] * c[k] over 1-5 random inputs, to o1 */
            int reads = g_rand_int_range(rnd, 1, 6);

            for (n = 0; n < reads; n++) {
                k = g_rand_int_range(rnd, 0, ATTILA_SH_IO);
                p[n] = (AttilaShIns){
                    .opc = n ? ATTILA_SH_MAD : ATTILA_SH_MUL,
                    .rbank = ATTILA_BANK_TEMP, .rreg = 0, .mask = 15,
                    .s = { ATTILA_SRC(ATTILA_BANK_IN, k),
                           ATTILA_SRC(ATTILA_BANK_PARAM, k), t0 } };
            }
            p[n++] = (AttilaShIns){ .opc = ATTILA_SH_MOV, .end = true,
                                    .rbank = ATTILA_BANK_OUT, .rreg = 1,
                                    .mask = 15, .s = { t0 } };
        }
        for (k = 0; k < ATTILA_SH_IO; k++) {
            /* input 0 is the window position: small factors */
            double f = k ? 0.6 : 0.004;

            attila_rec_reg_vec4(b, ATTILA_REG_FRAGMENT_CONSTANT, k,
                                g_rand_double_range(rnd, 0.05, f),
                                g_rand_double_range(rnd, 0.05, f),
                                g_rand_double_range(rnd, 0.05, f),
                                g_rand_double_range(rnd, 0.05, f));
            attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_INPUT_ATTRIBUTES, k,
                               g_rand_int_range(rnd, 0, 6) != 0);
            attila_rec_reg_u32(b, ATTILA_REG_INTERPOLATION, k,
                               g_rand_int_range(rnd, 0, 4) != 0);
        }
        attila_scene_ins(p, n, code);
        attila_rec_write(b, ATTILA_SCENE_FPROG, code, 16 * n);
        attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM, 0,
                           ATTILA_SCENE_FPROG);
        attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_PC, 0, 64);
        attila_rec_reg_u32(b, ATTILA_REG_FRAGMENT_PROGRAM_SIZE, 0, 16 * n);
        attila_rec_cmd(b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
        attila_rec_reg_u32(b, ATTILA_REG_TWOSIDED_LIGHTING, 0,
                           g_rand_boolean(rnd));
        attila_rec_reg_u32(b, ATTILA_REG_CULLING, 0,
                           g_rand_int_range(rnd, ATTILA_CULL_NONE,
                                            ATTILA_CULL_BACK + 1));
        attila_rec_reg_u32(b, ATTILA_REG_FACEMODE, 0,
                           g_rand_boolean(rnd) ? ATTILA_FACE_CW :
                           ATTILA_FACE_CCW);
        attila_rec_cmd(b, ATTILA_CMD_DRAW);
    }
}

/* one scene of test_setup_attributes at ns samples: its samples drawn */
static uint64_t setup_attribute_scene(AttilaRun *runs[2], GRand *rnd,
                                      uint8_t *buf, uint32_t ns)
{
    float verts[SCENE_VERTS][8];
    AttilaRecBuf b = { buf, 0, 65536, 0 };
    uint32_t w = g_rand_int_range(rnd, 8, 100), h = g_rand_int_range(rnd, 8, 80);
    uint32_t err;
    uint64_t drawn;

    scene_begin(rnd, &b, w, h, ns, verts);
    attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
    attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
    setup_attribute_draws(&b, rnd);
    drawn = draw_twice(runs, w, h, ns, verts, sizeof(verts), &b, &err);
    g_assert_cmpuint(err, ==, 0);
    return drawn;
}

static void test_setup_attributes(void)
{
    AttilaRun *runs[2];
    uint64_t drawn = 0;
    uint8_t *buf;
    GRand *rnd;
    int n;

    runs_new(runs);
    buf = g_malloc(65536);
    rnd = g_rand_new_with_seed(0x5E7A);
    for (n = 0; n < 60; n++) {
        drawn += setup_attribute_scene(runs, rnd, buf, n % 3 == 2 ? 4 : 1);
    }
    random_draws_end(runs, buf, rnd, drawn, 10000);
}

static void test_vertex_batches(void)
{
    vertex_batch_draws(1, 40, 17);
    vertex_batch_draws(3, 40, 18);
}

static void test_vertex_chunks(void)
{
    vertex_batch_draws(1, 500, 19);
    vertex_batch_draws(3, 500, 20);
    vertex_batch_draws(2, 500, 21);
    /* up to 9000 vertices: several chunks, several groups of triangles,
     * more than a raster batch (2048) of them */
    vertex_batch_draws(2, 3000, 22);
    vertex_batch_draws(3, 3000, 23);
    /* each batch's shading delayed: the set-up of the batch's triangles
     * on the other render thread meets it still being shaded */
    attila_vertex_delay_us = 20;
    vertex_batch_draws(2, 500, 24);
    vertex_batch_draws(3, 500, 25);
    attila_vertex_delay_us = 0;
}

/*
 * A raster batch's units (branch thr18: a small one-sample batch in
 * classes of 2x2-tile blocks, a large or multisampled one of 8x8): draws of
 * 2 to 5 triangles narrow or flat in one direction and long in the other
 * (their boxes meet a few block columns over many block rows, or the
 * reverse), some small, so that their boxes' pixels are on both sides of
 * RASTER_FINE_PIXELS, at 2 and 3 render threads against one on the
 * general path, one sample or four. Checked to fail when a triangle's classes leave out those that
 * wrap past the last (triangle_classes), when they are taken from two
 * block rows only (the 4-class pattern's period), and when a unit's walk
 * skips to one tile past its class's next block (raster_tiles).
 */
static void raster_units_draws(int threads, uint32_t seed)
{
    const uint32_t w = 320, h = 240;
    GRand *rnd = g_rand_new_with_seed(seed);
    uint8_t *buf = g_malloc(65536);
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n, v, k;

    runs[0] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, threads);
    runs[1] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 1);
    for (n = 0; n < 40; n++) {
        uint32_t ns = n % 4 == 3 ? 4 : 1, err;
        uint32_t count = 3 * g_rand_int_range(rnd, 2, 6);
        float verts[SCENE_VERTS][8];
        AttilaRecBuf b = { buf, 0, 65536, 0 };

        for (v = 0; v < SCENE_VERTS; v += 3) {
            /* 0: tall, 1: wide, 2: small */
            int shape = g_rand_int_range(rnd, 0, 3);
            double cx = g_rand_double_range(rnd, 0, w);
            double cy = g_rand_double_range(rnd, 0, h);
            double sx = shape == 1 ? w : shape == 0 ? 32 : 24;
            double sy = shape == 0 ? h : shape == 1 ? 32 : 24;

            for (k = 0; k < 3 && v + k < SCENE_VERTS; k++) {
                float *p = verts[v + k];
                double px = cx + g_rand_double_range(rnd, -0.5, 0.5) * sx;
                double py = cy + g_rand_double_range(rnd, -0.5, 0.5) * sy;
                int c;

                p[0] = (float)(2.0 * px / w - 1.0);
                p[1] = (float)(2.0 * py / h - 1.0);
                p[2] = (float)g_rand_double_range(rnd, -0.9, 0.9);
                p[3] = 1.0f;
                for (c = 4; c < 8; c++) {
                    p[c] = (float)g_rand_double(rnd);
                }
            }
        }
        identity_records(&b);
        attila_rec_reg_u32(&b, ATTILA_REG_MULTISAMPLING, 0, ns > 1);
        attila_rec_reg_u32(&b, ATTILA_REG_MSAA_SAMPLES, 0, ns > 1 ? ns : 2);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_COUNT, 0, count);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        drawn += draw_twice(runs, w, h, ns, verts, sizeof(verts), &b, &err);
        g_assert_cmpuint(err, ==, 0);
    }
    g_test_message("%d render threads: %" G_GUINT64_FORMAT " samples drawn",
                   threads, drawn);
    random_draws_end(runs, buf, rnd, drawn, 20000);
}

static void test_raster_units(void)
{
    raster_units_draws(2, 29);
    raster_units_draws(3, 30);
}

/*
 * The pipeline (branch thr17): a draw's last raster batch may still be
 * drawn by the helpers while the command processor's thread executes the
 * next records. Draws follow each other without clears, and after each
 * comes a record that must wait for the batch: an AGP write into the
 * colour buffer, a fragment constant the program reads, a fragment
 * program load, a clear, a swap (the DAC's picture compared too). The
 * helpers begin each raster unit late (attila_raster_delay_us), so that
 * the records meet batches still in flight. Colour, z, the DAC's picture
 * and the errors equal one render thread's on the general path.
 */
static void pipeline_draws(int threads, uint32_t seed)
{
    const uint32_t w = 64, h = 48, nverts = 2048;
    GRand *rnd = g_rand_new_with_seed(seed);
    uint8_t *buf = g_malloc(65536), *sys = g_malloc(BATCH_SYS_BYTES);
    float (*verts)[8] = g_malloc(sizeof(float[8]) * nverts);
    const AttilaShSrc in1 = ATTILA_SRC(ATTILA_BANK_IN, 1);
    const AttilaShSrc c0 = ATTILA_SRC(ATTILA_BANK_PARAM, 0);
    uint8_t fp[2][16];
    uint64_t drawn = 0;
    AttilaRun *runs[2];
    int n, m, k;

    for (k = 0; k < 2; k++) {
        /* the scene's copy of input 1, or constant 0 */
        AttilaShIns f = { .opc = ATTILA_SH_MOV, .end = true,
                          .rbank = ATTILA_BANK_OUT, .rreg = 1, .mask = 15,
                          .s = { k ? c0 : in1 } };
        attila_sh_encode(&f, fp[k]);
    }
    runs[0] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, threads);
    runs[1] = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 1);
    attila_raster_delay_us = 300;
    for (n = 0; n < 24; n++) {
        AttilaRecBuf b = { buf, 0, 65536, 0 };
        G3DImage img[2] = { { 0 } };
        uint32_t err, v;
        int prog;

        for (v = 0; v < nverts; v++) {
            random_vertex(rnd, w, h, verts[v]);
            verts[v][3] = fabsf(verts[v][3]) + 0.5f;
        }
        memset(sys, 0, BATCH_SYS_BYTES);
        memcpy(sys, verts, sizeof(float[8]) * nverts);
        identity_records(&b);
        attila_rec_reg_u32(&b, ATTILA_REG_INDEX_MODE, 0, 0);
        /* both programs in memory ahead: a load then waits by itself */
        attila_rec_write(&b, ATTILA_SCENE_FPROG, fp[0], 16);
        attila_rec_write(&b, ATTILA_SCENE_FPROG + 16, fp[1], 16);
        prog = n % 2;
        attila_rec_reg_u32(&b, ATTILA_REG_FRAGMENT_PROGRAM, 0,
                           ATTILA_SCENE_FPROG + 16 * prog);
        attila_rec_cmd(&b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        for (m = 0; m < 6; m++) {
            /* 1-400 triangles: one set-up group, one job a draw */
            uint32_t count = 3 * g_rand_int_range(rnd, 1, m % 3 ? 400 : 12);
            uint32_t start = g_rand_int_range(rnd, 0, nverts - count);
            uint8_t bytes[64 * 48 * 4];

            attila_rec_reg_u32(&b, ATTILA_REG_STREAM_START, 0, start);
            attila_rec_reg_u32(&b, ATTILA_REG_STREAM_COUNT, 0, count);
            attila_rec_cmd(&b, ATTILA_CMD_DRAW);
            switch ((n + m) % 6) {
            case 0:
                /* the whole buffer */
                for (k = 0; k < (int)sizeof(bytes); k++) {
                    bytes[k] = g_rand_int(rnd);
                }
                attila_rec_write(&b, ATTILA_SCENE_FB(0), bytes, sizeof(bytes));
                break;
            case 5:
                /* a draw after a draw, a register write that does not
                 * wait between them: the next draw's state is built
                 * while the batch still reads its own */
                attila_rec_reg_u32(&b, ATTILA_REG_DEPTH_FUNCTION, 0,
                                   m % 2 ? ATTILA_CMP_LESS : ATTILA_CMP_ALWAYS);
                /* and a memory write that reaches nothing the batch
                 * reads (the next draw's vertex data would be such) */
                memset(bytes, m, 64);
                attila_rec_write(&b, 0x80000000u + BATCH_SYS_BYTES - 64,
                                 bytes, 64);
                break;
            case 1:
                /* the constant the program reads (if it is the constant
                 * one) */
                attila_rec_reg_vec4(&b, ATTILA_REG_FRAGMENT_CONSTANT, 0,
                                    g_rand_double(rnd), g_rand_double(rnd),
                                    g_rand_double(rnd), 1);
                break;
            case 2:
                prog = !prog;
                attila_rec_reg_u32(&b, ATTILA_REG_FRAGMENT_PROGRAM, 0,
                                   ATTILA_SCENE_FPROG + 16 * prog);
                attila_rec_cmd(&b, ATTILA_CMD_LOAD_FRAGMENT_PROGRAM);
                break;
            case 3:
                attila_rec_cmd(&b, m % 2 ? ATTILA_CMD_CLEARZSTENCILBUFFER :
                               ATTILA_CMD_CLEARCOLORBUFFER);
                break;
            case 4:
                attila_rec_cmd(&b, ATTILA_CMD_SWAPBUFFERS);
                break;
            }
        }
        drawn += draw_twice(runs, w, h, 1, sys, BATCH_SYS_BYTES, &b, &err);
        /* the draws after the swap went to the other buffer */
        g_assert_cmpmem(runs[0]->gpu + ATTILA_SCENE_FB(1), w * h * 4,
                        runs[1]->gpu + ATTILA_SCENE_FB(1), w * h * 4);
        /* every run swaps by its fifth draw */
        for (k = 0; k < 2; k++) {
            g_assert_true(attila_run_capture(runs[k], &img[k]));
        }
        g_assert_cmpmem(img[0].rgb, img[0].width * img[0].height * 3,
                        img[1].rgb, img[1].width * img[1].height * 3);
        g3d_image_free(&img[0]);
        g3d_image_free(&img[1]);
        /*
         * idle: every helper back in the pool, none waiting in the chain
         * for a next draw (reset, save and a work step's end rely on it;
         * test_pipeline's long chain waits would outlast this check)
         */
        attila_core_idle(runs[0]->core);
        g_assert_false(attila_raster_helpers_busy(runs[0]->core->raster));
    }
    attila_raster_delay_us = 0;
    g_test_message("%d render threads: %" G_GUINT64_FORMAT " samples drawn",
                   threads, drawn);
    g_assert_cmpuint(drawn, >, 5000);
    runs_free(runs);
    g_free(verts);
    g_free(sys);
    g_free(buf);
    g_rand_free(rnd);
}

/*
 * STATUS.IDLE only with no batch in flight: a draw's records executed one
 * at a time, STATUS read right after the draw; where it says idle, the
 * colour buffer must not change when the core is then made idle. The
 * helpers begin their units late, so that most draws are still in flight.
 */
static void pipeline_status(void)
{
    const uint32_t w = 64, h = 48, nverts = 1200;
    AttilaRun *run = attila_run_new(32u << 20, ATTILA_SCENE_SYS_SIZE, 2);
    GRand *rnd = g_rand_new_with_seed(29);
    uint8_t *buf = g_malloc(65536), *fb = g_malloc(w * h * 4);
    unsigned busy = 0;
    int n;

    attila_raster_delay_us = 300;
    for (n = 0; n < 30; n++) {
        AttilaRecBuf b = { buf, 0, 65536, 0 };
        const uint8_t *p;
        size_t left, used;
        uint32_t v;

        for (v = 0; v < nverts; v++) {
            float *f = (float *)(run->sys + 32 * v);
            random_vertex(rnd, w, h, f);
            f[3] = fabsf(f[3]) + 0.5f;
        }
        attila_reg_write(run->core, A_ATTILA_CONTROL,
                         R_ATTILA_CONTROL_RESET_MASK, 4);
        attila_reg_write(run->core, A_ATTILA_SYSMEM_SIZE,
                         (uint32_t)run->sys_size, 4);
        attila_scene_setup(&b, w, h, 0x80000000u);
        identity_records(&b);
        attila_rec_reg_u32(&b, ATTILA_REG_STREAM_COUNT, 0, nverts);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARCOLORBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_CLEARZSTENCILBUFFER);
        attila_rec_cmd(&b, ATTILA_CMD_DRAW);
        g_assert_false(b.overflow);
        for (p = b.buf, left = b.n; left; p += used, left -= used) {
            AttilaTransaction t;
            g_assert_cmpint(attila_agp_parse(p, left, &t, &used), ==,
                            ATTILA_PARSE_OK);
            attila_core_execute(run->core, &t);
        }
        if (attila_reg_read(run->core, A_ATTILA_STATUS, 4) &
            R_ATTILA_STATUS_IDLE_MASK) {
            memcpy(fb, run->gpu + ATTILA_SCENE_FB(0), w * h * 4);
            attila_core_idle(run->core);
            g_assert_cmpmem(fb, w * h * 4, run->gpu + ATTILA_SCENE_FB(0),
                            w * h * 4);
        } else {
            busy++;
            attila_core_idle(run->core);
            g_assert_true(attila_reg_read(run->core, A_ATTILA_STATUS, 4) &
                          R_ATTILA_STATUS_IDLE_MASK);
        }
    }
    attila_raster_delay_us = 0;
    g_test_message("STATUS busy right after %u of 30 draws", busy);
    g_assert_cmpuint(busy, >, 0);
    attila_run_free(run);
    g_free(fb);
    g_free(buf);
    g_rand_free(rnd);
}

static void test_pipeline(void)
{
    unsigned spin = g3d_pool_spin_us;
    uint64_t links;

    pipeline_draws(2, 26);
    pipeline_draws(3, 27);
    /* every raster unit taken by the caller: the batches walked by the
     * helpers that began them still overlap */
    attila_raster_caller_only = true;
    pipeline_draws(2, 28);
    attila_raster_caller_only = false;
    /*
     * The chain (branch thr19): helpers that wait long for the next draw's
     * job, so that consecutive draws (those with a register write and a
     * memory write that wait for nothing between them too) are handed over
     * in one pool job on a busy host as well; and with no draw handed over
     * in the chain, each a pool job.
     */
    g3d_pool_spin_us = 50000;
    links = attila_raster_chain_links;
    pipeline_draws(2, 31);
    pipeline_draws(3, 32);
    g_test_message("%" G_GUINT64_FORMAT " draws handed over in the chain",
                   attila_raster_chain_links - links);
    g_assert_cmpuint(attila_raster_chain_links, >, links);
    g3d_pool_spin_us = spin;
    attila_raster_chain_off = true;
    links = attila_raster_chain_links;
    pipeline_draws(2, 33);
    attila_raster_chain_off = false;
    g_assert_cmpuint(attila_raster_chain_links, ==, links);
    pipeline_status();
}

/*
 * A stamp's fragment threads reset only where the program can see it
 * (draw-state.c program_resets, rasterizer.c reset_lane) against the
 * whole reset a stamp (g3d_general_path): stamp_scenes' draws, three a
 * scene, each with a random straight program (reset_program), so that
 * registers written by one stamp or draw are read by the next, at one
 * sample (stamp1, and the row walks) on every level and with 2 and 4
 * samples (the MSAA stamp). Checked to fail with r0 left out of the
 * temporaries' mask, the tail (predicates) never reset, outputs written
 * in part not reset, a masked or a predicated write taken as whole, a
 * read after a partial write taken as after a whole one, and the
 * batch's whole reset only for the copy.
 */
static void test_stamp_reset(void)
{
    reset_programs = true;
    stamp_scenes_levels(1, 60, 60, 40, 0x57E1, false);
    stamp_scenes(2, 30, 0x57E2, false);
    stamp_scenes(4, 30, 0x57E4, false);
    reset_programs = false;
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/attila/fast/color-write", test_color_write);
    g_test_add_func("/attila/fast/color-write4", test_color_write4);
#if defined(__x86_64__) && defined(__GNUC__)
    g_test_add_func("/attila/fast/copy-row", test_copy_row);
#endif
    g_test_add_func("/attila/fast/inside-edge", test_inside_edge);
    g_test_add_func("/attila/fast/interpolate", test_interpolate);
    g_test_add_func("/attila/fast/raster", test_raster);
    g_test_add_func("/attila/fast/sample-steps", test_sample_steps);
    g_test_add_func("/attila/fast/convert-z4", test_convert_z4);
    g_test_add_func("/attila/fast/copy-program", test_copy_program);
    g_test_add_func("/attila/fast/draw-state", test_draw_state);
    g_test_add_func("/attila/fast/stamp1", test_stamp1);
    g_test_add_func("/attila/fast/stamp-msaa", test_stamp_msaa);
    g_test_add_func("/attila/fast/stamp-rows", test_stamp_rows);
    g_test_add_func("/attila/fast/stamp4-rows", test_stamp4_rows);
    g_test_add_func("/attila/fast/counts", test_counts);
    g_test_add_func("/attila/fast/stamp-reset", test_stamp_reset);
    g_test_add_func("/attila/fast/stamp-values", test_stamp_values);
    g_test_add_func("/attila/fast/stamp-rows-values", test_stamp_rows_values);
    g_test_add_func("/attila/fast/msaa-cover4", test_msaa_cover4);
    g_test_add_func("/attila/fast/top-level", test_top_level);
    g_test_add_func("/attila/fast/triangle-setup", test_triangle_setup);
    g_test_add_func("/attila/fast/lit-power", test_lit_power);
    g_test_add_func("/attila/fast/gamma-byte", test_gamma_byte);
    g_test_add_func("/attila/fast/tile-edges", test_tile_edges);
    g_test_add_func("/attila/fast/setup-attributes", test_setup_attributes);
    g_test_add_func("/attila/fast/vertex-batches", test_vertex_batches);
    g_test_add_func("/attila/fast/vertex-chunks", test_vertex_chunks);
    g_test_add_func("/attila/fast/pipeline", test_pipeline);
    g_test_add_func("/attila/fast/raster-units", test_raster_units);
    return g_test_run();
}
