/*
 * Unit tests of the shared rasteriser: fill rules, interpolation, scissor
 * and thread-count invariance.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "common/g3d-core.h"
#include "common/raster.h"

#define W 97
#define H 83

typedef struct Canvas {
    uint32_t px[H][W];       /* per-pixel accumulator */
    uint32_t id;             /* current triangle's id */
} Canvas;

typedef struct TriUser {
    Canvas *cv;
    uint32_t id;
    float attr[3];           /* an attribute per vertex */
    float *out;              /* interpolated attribute per pixel, or NULL */
} TriUser;

/* count coverage: each covered sample increments its pixel */
static void shade_count(void *opaque, const G3DQuad *q, int thread)
{
    TriUser *u = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            int x = q->x + (i & 1), y = q->y + (i >> 1);
            g_assert_cmpint(x, >=, 0);
            g_assert_cmpint(x, <, W);
            g_assert_cmpint(y, >=, 0);
            g_assert_cmpint(y, <, H);
            u->cv->px[y][x]++;
            if (u->out) {
                u->out[y * W + x] = g3d_interp(q->bary[i], u->attr[0],
                                               u->attr[1], u->attr[2]);
            }
        }
    }
}

/* an order-dependent accumulator: the result changes if order changes */
static void shade_order(void *opaque, const G3DQuad *q, int thread)
{
    TriUser *u = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            int x = q->x + (i & 1), y = q->y + (i >> 1);
            float a = g3d_interp(q->bary[i], u->attr[0], u->attr[1],
                                 u->attr[2]);
            uint32_t bits;
            memcpy(&bits, &a, 4);
            u->cv->px[y][x] = u->cv->px[y][x] * 31 + u->id * 7 + bits;
        }
    }
}

static const G3DRect full = { 0, 0, W, H };

static void tri(G3DRaster *r, TriUser *u, const G3DRasterRules *rules,
                int x0, int y0, int x1, int y1, int x2, int y2,
                G3DQuadFn *fn, const G3DRect *clip)
{
    G3DTriangle t = {
        .v = { { x0, y0, 1.0f }, { x1, y1, 1.0f }, { x2, y2, 1.0f } },
        .clip = *clip,
        .rules = rules,
        .shade = fn,
        .user = u,
    };
    g3d_raster_triangle(r, &t);
}

/*
 * A jittered grid of points, every cell split into two triangles with
 * alternating diagonals and windings: inside the mesh every pixel must be
 * covered exactly once, outside never.
 */
static void mesh_coverage(const G3DRasterRules *rules, int threads,
                          unsigned seed)
{
    enum { N = 7 };
    static Canvas cv;
    G3DRaster *r = g3d_raster_new(threads);
    GRand *rnd = g_rand_new_with_seed(seed);
    int32_t px[N + 1][N + 1], py[N + 1][N + 1];
    int S = rules->subpixels, i, j, x, y;
    TriUser u = { .cv = &cv };
    /* mesh interior: corners fixed on the canvas border region */
    int x0 = 5 * S, y0 = 4 * S, cw = 12 * S, ch = 10 * S;

    memset(&cv, 0, sizeof(cv));
    for (j = 0; j <= N; j++) {
        for (i = 0; i <= N; i++) {
            /* interior points jitter; border points stay on the border */
            int jx = (i > 0 && i < N) ? g_rand_int_range(rnd, -cw / 6, cw / 6) : 0;
            int jy = (j > 0 && j < N) ? g_rand_int_range(rnd, -ch / 6, ch / 6) : 0;
            /* some points exactly on pixel centres, to hit edge cases */
            if (g_rand_int_range(rnd, 0, 4) == 0) {
                jx -= (x0 + i * cw + jx) % S - rules->sample_x;
                jy -= (y0 + j * ch + jy) % S - rules->sample_y;
                if (i == 0 || i == N) {
                    jx = 0;
                }
                if (j == 0 || j == N) {
                    jy = 0;
                }
            }
            px[j][i] = x0 + i * cw + jx;
            py[j][i] = y0 + j * ch + jy;
        }
    }
    for (j = 0; j < N; j++) {
        for (i = 0; i < N; i++) {
            int32_t ax = px[j][i], ay = py[j][i];
            int32_t bx = px[j][i + 1], by = py[j][i + 1];
            int32_t cx = px[j + 1][i], cy = py[j + 1][i];
            int32_t dx = px[j + 1][i + 1], dy = py[j + 1][i + 1];
            if ((i + j) & 1) {
                tri(r, &u, rules, ax, ay, bx, by, dx, dy, shade_count, &full);
                tri(r, &u, rules, ax, ay, cx, cy, dx, dy, shade_count, &full);
            } else {
                tri(r, &u, rules, ax, ay, cx, cy, bx, by, shade_count, &full);
                tri(r, &u, rules, bx, by, dx, dy, cx, cy, shade_count, &full);
            }
        }
    }
    g3d_raster_flush(r);

    /* the mesh's outline is the axis-aligned rectangle of the border points */
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            int sx = x * S + rules->sample_x, sy = y * S + rules->sample_y;
            bool in_x = sx > x0 && sx < x0 + N * cw;
            bool in_y = sy > y0 && sy < y0 + N * ch;
            /* samples on the outline obey the edge rule */
            if (sx == x0) {
                in_x = rules->edge_in & G3D_EDGE_LEFT;
            } else if (sx == x0 + N * cw) {
                in_x = rules->edge_in & G3D_EDGE_RIGHT;
            }
            if (sy == y0) {
                in_y = rules->edge_in & G3D_EDGE_TOP;
            } else if (sy == y0 + N * ch) {
                in_y = rules->edge_in & G3D_EDGE_BOTTOM;
            }
            if (cv.px[y][x] != ((in_x && in_y) ? 1u : 0u)) {
                g_test_message("pixel %d,%d covered %u times (seed %u)", x, y,
                               cv.px[y][x], seed);
                g_assert_cmpuint(cv.px[y][x], ==, (in_x && in_y) ? 1u : 0u);
            }
        }
    }
    g_rand_free(rnd);
    g3d_raster_free(r);
}

static void test_fill_mesh(void)
{
    unsigned seed;

    for (seed = 1; seed <= 40; seed++) {
        mesh_coverage(&g3d_rules_top_left_16, 1, seed);
    }
}

static void test_fill_mesh_12(void)
{
    /* R300-style 1/12 grid */
    static const G3DRasterRules r12 = {
        .subpixels = 12, .sample_x = 6, .sample_y = 6,
        .edge_in = G3D_EDGE_TOP | G3D_EDGE_LEFT,
    };
    unsigned seed;

    for (seed = 100; seed <= 120; seed++) {
        mesh_coverage(&r12, 2, seed);
    }
}

static void test_fill_mesh_bottom_right(void)
{
    static const G3DRasterRules br = {
        .subpixels = 16, .sample_x = 8, .sample_y = 8,
        .edge_in = G3D_EDGE_BOTTOM | G3D_EDGE_RIGHT,
    };
    unsigned seed;

    for (seed = 200; seed <= 220; seed++) {
        mesh_coverage(&br, 3, seed);
    }
}

/* Samples exactly on edges: the rule decides, for both classifications. */
static void test_edge_samples(void)
{
    static Canvas cv;
    G3DRaster *r = g3d_raster_new(1);
    TriUser u = { .cv = &cv };
    const G3DRasterRules *tl = &g3d_rules_top_left_16;
    /* a right triangle with its corner on pixel centre (10,10) */
    int c = 10 * 16 + 8;

    memset(&cv, 0, sizeof(cv));
    /* legs along x = c (left edge) and y = c (top edge), hypotenuse off-grid */
    tri(r, &u, tl, c, c, c + 16 * 5 + 3, c, c, c + 16 * 5 + 3, shade_count,
        &full);
    g3d_raster_flush(r);
    g_assert_cmpuint(cv.px[10][10], ==, 1);   /* top-left corner: in */
    g_assert_cmpuint(cv.px[10][14], ==, 1);   /* on the top edge: in */
    g_assert_cmpuint(cv.px[14][10], ==, 1);   /* on the left edge: in */
    g_assert_cmpuint(cv.px[9][10], ==, 0);
    g_assert_cmpuint(cv.px[10][9], ==, 0);

    /* the mirror image: legs are the right and bottom edges: out */
    memset(&cv, 0, sizeof(cv));
    tri(r, &u, tl, c, c, c - 16 * 5 - 3, c, c, c - 16 * 5 - 3, shade_count,
        &full);
    g3d_raster_flush(r);
    g_assert_cmpuint(cv.px[10][10], ==, 0);
    g_assert_cmpuint(cv.px[10][6], ==, 0);
    g_assert_cmpuint(cv.px[6][10], ==, 0);
    g_assert_cmpuint(cv.px[9][9], ==, 1);

    /* vertical-first classification: a sloped top edge counts as TOP */
    {
        static const G3DRasterRules vf = {
            .subpixels = 16, .sample_x = 8, .sample_y = 8,
            .edge_in = G3D_EDGE_TOP, .vertical_first = true,
        };
        memset(&cv, 0, sizeof(cv));
        /* edge from (c,c) to (c+32, c+32) has the triangle below-left */
        tri(r, &u, &vf, c, c, c + 32 * 16, c + 32 * 16, c, c + 32 * 16,
            shade_count, &full);
        g3d_raster_flush(r);
        g_assert_cmpuint(cv.px[15][15], ==, 1);  /* on the diagonal */
        g_assert_cmpuint(cv.px[20][10], ==, 0);  /* on the vertical edge */
    }
    g3d_raster_free(r);
}

/* Weights are exact at vertices and reproduce affine attributes. */
static void test_interpolation(void)
{
    static Canvas cv;
    static float out[H * W];
    G3DRaster *r = g3d_raster_new(1);
    TriUser u = { .cv = &cv, .out = out };
    /* vertices on pixel centres (3,2), (60,9), (20,70) */
    int vx[3] = { 3, 60, 20 }, vy[3] = { 2, 9, 70 };
    G3DTriangle t = {
        .clip = full, .rules = &g3d_rules_top_left_16,
        .shade = shade_count, .user = &u,
    };
    int k, x, y;

    memset(&cv, 0, sizeof(cv));
    for (k = 0; k < 3; k++) {
        t.v[k].x = vx[k] * 16 + 8;
        t.v[k].y = vy[k] * 16 + 8;
        t.v[k].inv_w = 1.0f;
        /* attribute = 2x + 3y + 1: affine in screen space */
        u.attr[k] = 2.0f * vx[k] + 3.0f * vy[k] + 1.0f;
    }
    g3d_raster_triangle(r, &t);
    g3d_raster_flush(r);
    for (k = 0; k < 3; k++) {
        if (cv.px[vy[k]][vx[k]]) {
            /* exactly the vertex value at a covered vertex */
            g_assert_cmpfloat(out[vy[k] * W + vx[k]], ==, u.attr[k]);
        }
    }
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            if (cv.px[y][x]) {
                g_assert_cmpfloat_with_epsilon(out[y * W + x],
                                               2.0f * x + 3.0f * y + 1.0f,
                                               1e-3);
            }
        }
    }

    /*
     * Perspective: with w = 1, 2, 4 at the vertices, an attribute a is
     * interpolated as (sum l_k a_k / w_k) / (sum l_k / w_k), where l_k are
     * the screen-linear weights. Check that against the formula computed
     * here in double from the pixel position.
     */
    memset(&cv, 0, sizeof(cv));
    {
        float w[3] = { 1.0f, 2.0f, 4.0f };
        double area = (double)(vx[1] - vx[0]) * (vy[2] - vy[0]) -
                      (double)(vy[1] - vy[0]) * (vx[2] - vx[0]);
        for (k = 0; k < 3; k++) {
            t.v[k].inv_w = 1.0f / w[k];
            u.attr[k] = (float)(k * 10);
        }
        g3d_raster_triangle(r, &t);
        g3d_raster_flush(r);
        for (y = 0; y < H; y++) {
            for (x = 0; x < W; x++) {
                double l[3], num = 0, den = 0;
                if (!cv.px[y][x]) {
                    continue;
                }
                l[0] = ((double)(vx[2] - vx[1]) * (y - vy[1]) -
                        (double)(vy[2] - vy[1]) * (x - vx[1])) / area;
                l[1] = ((double)(vx[0] - vx[2]) * (y - vy[2]) -
                        (double)(vy[0] - vy[2]) * (x - vx[2])) / area;
                l[2] = 1.0 - l[0] - l[1];
                for (k = 0; k < 3; k++) {
                    num += l[k] * u.attr[k] / w[k];
                    den += l[k] / w[k];
                }
                g_assert_cmpfloat_with_epsilon(out[y * W + x], num / den,
                                               1e-4);
            }
        }
    }
    g3d_raster_free(r);
}

/* Nothing outside the clip rectangle; everything inside it still drawn. */
static void test_scissor(void)
{
    static Canvas cv;
    G3DRaster *r = g3d_raster_new(2);
    TriUser u = { .cv = &cv };
    G3DRect clip = { 10, 7, 41, 33 };
    int x, y;

    memset(&cv, 0, sizeof(cv));
    tri(r, &u, &g3d_rules_top_left_16, -500 * 16, -500 * 16, 500 * 16,
        -500 * 16, 0, 900 * 16, shade_count, &clip);
    g3d_raster_flush(r);
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            bool in = x >= clip.x0 && x < clip.x1 && y >= clip.y0 &&
                      y < clip.y1;
            g_assert_cmpuint(cv.px[y][x], ==, in ? 1 : 0);
        }
    }
    /* degenerate triangles are dropped */
    g_assert_false(g3d_raster_triangle(r, &(G3DTriangle){
        .v = { { 0, 0, 1 }, { 160, 160, 1 }, { 320, 320, 1 } },
        .clip = full, .rules = &g3d_rules_top_left_16,
        .shade = shade_count, .user = &u }));
    g3d_raster_free(r);
}

/* The same scene gives the same bits with 1, 2, 3, 4 and 7 threads. */
static void test_thread_invariance(void)
{
    static Canvas ref, cv;
    int counts[] = { 1, 2, 3, 4, 7 };
    unsigned n;

    for (n = 0; n < G_N_ELEMENTS(counts); n++) {
        Canvas *c = n == 0 ? &ref : &cv;
        G3DRaster *r = g3d_raster_new(counts[n]);
        GRand *rnd = g_rand_new_with_seed(1234);
        TriUser *users = g_new0(TriUser, 600);
        int i, k;

        memset(c, 0, sizeof(*c));
        for (i = 0; i < 600; i++) {
            G3DTriangle t = {
                .clip = full, .rules = &g3d_rules_top_left_16,
                .shade = shade_order, .user = &users[i],
            };
            users[i].cv = c;
            users[i].id = i;
            for (k = 0; k < 3; k++) {
                t.v[k].x = g_rand_int_range(rnd, -200, (W + 12) * 16);
                t.v[k].y = g_rand_int_range(rnd, -200, (H + 12) * 16);
                t.v[k].inv_w = 1.0f / (1.0f + g_rand_double(rnd) * 3);
                users[i].attr[k] = (float)g_rand_double(rnd);
            }
            g3d_raster_triangle(r, &t);
            if (i % 97 == 0) {
                g3d_raster_flush(r);   /* batches of varying size */
            }
        }
        g3d_raster_flush(r);
        if (n > 0) {
            g_assert_cmpmem(ref.px, sizeof(ref.px), cv.px, sizeof(cv.px));
        }
        g_free(users);
        g_rand_free(rnd);
        g3d_raster_free(r);
    }
}

/* every quad the rasteriser hands over, in order */
static void shade_record(void *opaque, const G3DQuad *q, int thread)
{
    g_array_append_val((GArray *)opaque, *q);
}

static float random_inv_w(GRand *rnd)
{
    static const float odd[] = { 1.0f, 0.0f, -1.0f, 1e30f, 1e-30f, 1e-40f,
                                 3e38f, 0.5f };

    if (g_rand_int_range(rnd, 0, 4) == 0) {
        return odd[g_rand_int_range(rnd, 0, G_N_ELEMENTS(odd))];
    }
    return (float)g_rand_double_range(rnd, 1e-3, 10.0);
}

/*
 * The vector path (edge values stepped in doubles, weights two samples at a
 * time) hands over the very quads, bit for bit, of the int64 and scalar
 * path that g3d_general_path forces: random triangles on several sub-pixel
 * grids and edge rules, tiny to huge coordinates (beyond 2^52 edge values,
 * where the int64 path must be taken), odd 1/w (0, negative, denormal,
 * overflowing sums).
 */
static void test_vector_path(void)
{
    static const G3DRasterRules rules[] = {
        { 16, 8, 8, G3D_EDGE_TOP | G3D_EDGE_LEFT, false },
        { 12, 6, 6, G3D_EDGE_BOTTOM | G3D_EDGE_RIGHT, false },
        { 128, 64, 64, G3D_EDGE_TOP | G3D_EDGE_LEFT, true },
        { 1 << 12, 0, 0, G3D_EDGE_TOP | G3D_EDGE_RIGHT, false },
        { 1, 0, 0, G3D_EDGE_LEFT, false },
    };
    G3DRaster *r = g3d_raster_new(1);
    GRand *rnd = g_rand_new_with_seed(99);
    GArray *fast = g_array_new(false, false, sizeof(G3DQuad));
    GArray *gen = g_array_new(false, false, sizeof(G3DQuad));
    int i, k, drawn = 0;

    for (i = 0; i < 3000; i++) {
        const G3DRasterRules *ru = &rules[g_rand_int_range(rnd, 0, 5)];
        int mag = g_rand_int_range(rnd, 2, 28);
        G3DTriangle t = {
            .clip = { g_rand_int_range(rnd, 0, 40), g_rand_int_range(rnd, 0, 40),
                      g_rand_int_range(rnd, 41, 130), g_rand_int_range(rnd, 41, 130) },
            .rules = ru,
            .no_weights = g_rand_int_range(rnd, 0, 8) == 0,
        };

        for (k = 0; k < 3; k++) {
            /* around the clip, up to 2^mag grid steps away */
            int32_t span = (int32_t)MIN((1u << mag), (1u << 28) - 200 * 4096);
            t.v[k].x = 60 * ru->subpixels + g_rand_int_range(rnd, -span, span);
            t.v[k].y = 60 * ru->subpixels + g_rand_int_range(rnd, -span, span);
            t.v[k].inv_w = random_inv_w(rnd);
        }
        t.shade = shade_record;
        g_array_set_size(fast, 0);
        g_array_set_size(gen, 0);
        g3d_general_path = false;
        t.user = fast;
        g3d_raster_triangle(r, &t);
        g3d_raster_flush(r);
        g3d_general_path = true;
        t.user = gen;
        g3d_raster_triangle(r, &t);
        g3d_raster_flush(r);
        g3d_general_path = false;
        g_assert_cmpuint(fast->len, ==, gen->len);
        for (k = 0; k < (int)fast->len; k++) {
            /* without weights the quad's weights are not written */
            g_assert_cmpmem(&g_array_index(fast, G3DQuad, k),
                            t.no_weights ? offsetof(G3DQuad, lin)
                                         : sizeof(G3DQuad),
                            &g_array_index(gen, G3DQuad, k),
                            t.no_weights ? offsetof(G3DQuad, lin)
                                         : sizeof(G3DQuad));
        }
        drawn += fast->len > 0;
    }
    /* most triangles reach the clip */
    g_assert_cmpint(drawn, >, 1000);
    g_array_free(fast, true);
    g_array_free(gen, true);
    g_rand_free(rnd);
    g3d_raster_free(r);
}

/* covered-pixel counts of a 160x160 target, by quads or block fills */
#define FILL_W 160

static void shade_count_px(void *opaque, const G3DQuad *q, int thread)
{
    uint8_t *px = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            px[(q->y + (i >> 1)) * FILL_W + q->x + (i & 1)]++;
        }
    }
}

static void fill_count_px(void *opaque, int x0, int y0, int x1, int y1,
                          int thread)
{
    uint8_t *px = opaque;
    int x, y;

    /* inside one tile, as raster.h promises */
    g_assert_cmpint(x0, <, x1);
    g_assert_cmpint(y0, <, y1);
    g_assert_cmpint(x0 / G3D_TILE_SIZE, ==, (x1 - 1) / G3D_TILE_SIZE);
    g_assert_cmpint(y0 / G3D_TILE_SIZE, ==, (y1 - 1) / G3D_TILE_SIZE);
    for (y = y0; y < y1; y++) {
        for (x = x0; x < x1; x++) {
            px[y * FILL_W + x]++;
        }
    }
}

/*
 * A triangle with a block fill function covers the very pixels the quads
 * alone do, each once, with the same quad and sample counts: random
 * triangles, sub-pixel grids, edge rules and clip rectangles, 1 and 2
 * threads.
 */
static void test_block_fill(void)
{
    static const G3DRasterRules rules[] = {
        { 16, 8, 8, G3D_EDGE_TOP | G3D_EDGE_LEFT, false },
        { 12, 6, 6, G3D_EDGE_BOTTOM | G3D_EDGE_RIGHT, false },
        { 128, 64, 64, G3D_EDGE_TOP | G3D_EDGE_LEFT, true },
        { 1, 0, 0, G3D_EDGE_LEFT, false },
    };
    uint8_t *quads = g_malloc(FILL_W * FILL_W);
    uint8_t *filled = g_malloc(FILL_W * FILL_W);
    GRand *rnd = g_rand_new_with_seed(4242);
    uint64_t total_filled = 0;
    int i, k, th;

    for (th = 1; th <= 2; th++) {
        G3DRaster *r = g3d_raster_new(th);

        for (i = 0; i < 1500; i++) {
            const G3DRasterRules *ru = &rules[g_rand_int_range(rnd, 0, 4)];
            G3DRasterStats s0, s1, s2;
            G3DTriangle t = {
                .clip = { g_rand_int_range(rnd, 0, 30),
                          g_rand_int_range(rnd, 0, 30),
                          g_rand_int_range(rnd, 100, FILL_W + 1),
                          g_rand_int_range(rnd, 100, FILL_W + 1) },
                .rules = ru, .shade = shade_count_px,
                .no_weights = g_rand_boolean(rnd),
            };

            for (k = 0; k < 3; k++) {
                t.v[k].x = g_rand_int_range(rnd, -20, FILL_W + 20) *
                           ru->subpixels + g_rand_int_range(rnd, 0, ru->subpixels);
                t.v[k].y = g_rand_int_range(rnd, -20, FILL_W + 20) *
                           ru->subpixels + g_rand_int_range(rnd, 0, ru->subpixels);
                t.v[k].inv_w = 1.0f;
            }
            memset(quads, 0, FILL_W * FILL_W);
            memset(filled, 0, FILL_W * FILL_W);
            g3d_raster_stats(r, &s0);
            t.user = quads;
            g3d_raster_triangle(r, &t);
            g3d_raster_flush(r);
            g3d_raster_stats(r, &s1);
            t.user = filled;
            t.fill = fill_count_px;
            g3d_raster_triangle(r, &t);
            g3d_raster_flush(r);
            g3d_raster_stats(r, &s2);
            g_assert_cmpmem(quads, FILL_W * FILL_W, filled, FILL_W * FILL_W);
            for (k = 0; k < FILL_W * FILL_W; k++) {
                g_assert_cmpuint(filled[k], <=, 1);
            }
            g_assert_cmpuint(s2.quads - s1.quads, ==, s1.quads - s0.quads);
            g_assert_cmpuint(s2.samples - s1.samples, ==,
                             s1.samples - s0.samples);
            g_assert_cmpuint(s1.filled, ==, s0.filled);
            /* every sample of a triangle with a fill function is filled */
            g_assert_cmpuint(s2.filled - s1.filled, ==,
                             s2.samples - s1.samples);
            total_filled += s2.filled - s1.filled;
        }
        g3d_raster_free(r);
    }
    g_assert_cmpuint(total_filled, >, 1000000);
    g_free(quads);
    g_free(filled);
    g_rand_free(rnd);
}

#ifdef G3D_WEIGHTS_AVX
/* g3d_weights4_next_avx of edge values v[k][0..3]; bar NULL: lin only */
__attribute__((target("avx")))
static void weights_avx(const G3DEdges *g, const double v[3][4],
                        const double step[3], __m128 lin[3], __m128 bar[3],
                        bool positive, double next[3][4])
{
    __m256d e[3], st[3];
    int k;

    g3d_edges4_avx(e, st, v, step);
    g3d_weights4_next_avx(g, e, st, lin, bar, positive);
    for (k = 0; k < 3; k++) {
        _mm256_storeu_pd(next[k], e[k]);
    }
}

/*
 * The same bits in every lane, where a NaN equals any NaN: which operand's
 * NaN an operation passes on depends on the order the compiler gives two
 * commutative operands, and every user of a weight clamps or compares the
 * values it makes, which does not see a NaN's sign or payload.
 */
static bool same_weights(const __m128 a[3], const __m128 b[3])
{
    float x[12], y[12];
    int i;

    memcpy(x, a, sizeof(x));
    memcpy(y, b, sizeof(y));
    for (i = 0; i < 12; i++) {
        if (isnan(x[i]) ? !isnan(y[i]) : memcmp(&x[i], &y[i], 4)) {
            return false;
        }
    }
    return true;
}

#ifdef G3D_WEIGHTS_WIDE
/*
 * g3d_walk8_next of edge values v[k][0..7] (AVX-512 or AVX2): the eight
 * lanes' weights as two groups of four, and the edge values a step on
 */
static inline __attribute__((always_inline, target("avx2"))) void
weights8(const G3DEdges *g, const double v[3][8], const double step[3],
         __m128 lin[2][3], __m128 bar[2][3], int positive,
         double next[3][8], const bool avx512)
{
    G3DWalk8 w;
    __m256 l[3], b[3];
    int k;

    g3d_walk8_start(&w, v, step, avx512);
    g3d_walk8_next(g, &w, l, bar ? b : NULL, positive, avx512);
    for (k = 0; k < 3; k++) {
        lin[0][k] = _mm256_castps256_ps128(l[k]);
        lin[1][k] = _mm256_extractf128_ps(l[k], 1);
        if (bar) {
            bar[0][k] = _mm256_castps256_ps128(b[k]);
            bar[1][k] = _mm256_extractf128_ps(b[k], 1);
        }
    }
    for (k = 0; k < 3 && !avx512; k++) {
        _mm256_storeu_pd(&next[k][0], w.e[0][k]);
        _mm256_storeu_pd(&next[k][4], w.e[1][k]);
    }
    if (avx512) {
        g3d_walk8_store_avx512(&w, next);
    }
}

static __attribute__((target("avx2"))) void
weights8_avx2(const G3DEdges *g, const double v[3][8], const double step[3],
              __m128 lin[2][3], __m128 bar[2][3], int positive,
              double next[3][8])
{
    weights8(g, v, step, lin, bar, positive, next, false);
}

static __attribute__((target("avx2,avx512f,avx512vl"))) G3D_NO_CONTRACT void
weights8_avx512(const G3DEdges *g, const double v[3][8], const double step[3],
                __m128 lin[2][3], __m128 bar[2][3], int positive,
                double next[3][8])
{
    weights8(g, v, step, lin, bar, positive, next, true);
}

/*
 * The eight-sample weights of each level the CPU has (AVX2, AVX-512)
 * against g3d_weights4_next of the two groups of four (samples 0..3 at
 * v, 4..7 at v + step), with and without bar; how many levels ran.
 * `positive` as the wide weights take it: G3D_WEIGHTS_UNIT_W is the
 * general `positive` one for g3d_weights4_next.
 */
static unsigned check_weights8(const G3DEdges *g, const double v[3][4],
                               const double step[3], int positive)
{
    double v8[3][8], step8[3], next[3][8];
    __m128d e01[3], e23[3], st[3];
    __m128 lin[2][3], bar[2][3], l8[2][3], b8[2][3];
    unsigned levels = 0, level, h;
    int k, i;

    for (k = 0; k < 3; k++) {
        for (i = 0; i < 4; i++) {
            v8[k][i] = v[k][i];
            v8[k][4 + i] = v[k][i] + step[k];
        }
        step8[k] = 2 * step[k];
        e01[k] = _mm_loadu_pd(&v[k][0]);
        e23[k] = _mm_loadu_pd(&v[k][2]);
        st[k] = _mm_set1_pd(step[k]);
    }
    for (h = 0; h < 2; h++) {
        g3d_weights4_next(g, e01, e23, st, lin[h], bar[h], positive != 0);
    }
    for (level = G3D_SIMD_AVX2; level <= G3D_SIMD_AVX512; level++) {
        g3d_simd_max = level;
        if (g3d_simd_level() != level) {
            continue;
        }
        for (h = 0; h < 2; h++) {
            (level == G3D_SIMD_AVX512 ? weights8_avx512 : weights8_avx2)(
                g, (const double (*)[8])v8, step8, l8, h ? NULL : b8,
                positive, next);
            if (!same_weights(lin[0], l8[0]) || !same_weights(lin[1], l8[1]) ||
                (!h && (!same_weights(bar[0], b8[0]) ||
                        !same_weights(bar[1], b8[1])))) {
                g_error("the weights of level %u differ from the SSE2 ones",
                        level);
            }
            for (k = 0; k < 3; k++) {
                for (i = 0; i < 8; i++) {
                    g_assert_true(next[k][i] == v8[k][i] + step8[k]);
                }
            }
        }
        levels++;
    }
    g3d_simd_max = G3D_SIMD_AVX512;
    return levels;
}

/*
 * G3D_WEIGHTS_UNIT_W's eight-sample weights (no product by 1/w) against
 * the general positive ones where g3d_inv_w_unit holds: the three 1/w
 * one power of two in [2^-40, 2^40], at samples inside a triangle (edge
 * values integers >= 0, not all 0; 1/area >= 2^-30, so lin is 0 or at
 * least 2^-30), bit for bit at every level the CPU has
 */
static void test_weights_unit(void)
{
    GRand *r = g_rand_new_with_seed(0x1f1);
    unsigned n, wide = 0;

    if (!__builtin_cpu_supports("avx2")) {
        g_test_skip("the CPU has no AVX2");
        g_rand_free(r);
        return;
    }
    for (n = 0; n < 20000; n++) {
        G3DEdges g = { .inv_area = 1.0 / g_rand_int_range(r, 1, 1 << 30) };
        G3DRasterVertex vx[3];
        float c = g_rand_boolean(r) ? 1.0f
                  : ldexpf(1.0f, g_rand_int_range(r, -40, 41));
        double v[3][4], step[3];
        int k, i;

        g.perm[0] = 0;
        g.perm[1] = g_rand_boolean(r) ? 2 : 1;
        g.perm[2] = 3 - g.perm[1];
        for (k = 0; k < 3; k++) {
            int64_t e = g_rand_int_range(r, 0, 1 << 30);

            g.inv_w[k] = vx[k].inv_w = c;
            step[k] = g_rand_int_range(r, 0, 4096);
            for (i = 0; i < 4; i++) {
                v[k][i] = g_rand_int_range(r, 0, 4) || k == 0
                          ? (double)e + i * step[k] + (k == 0) : 0.0;
            }
        }
        g_assert_true(g3d_inv_w_unit(vx));
        wide += check_weights8(&g, (const double (*)[4])v, step,
                               G3D_WEIGHTS_UNIT_W);
    }
    /* one 1/w not a power of two, out of range or negative; not one 1/w */
    {
        static const float not_unit[4][3] = {
            { 1.5f, 1.5f, 1.5f }, { 1.0f, 1.0f, 2.0f },
            { 0x1p-41f, 0x1p-41f, 0x1p-41f }, { -1.0f, -1.0f, -1.0f },
        };
        G3DRasterVertex vx[3];
        int j, k;

        for (j = 0; j < 4; j++) {
            for (k = 0; k < 3; k++) {
                vx[k].inv_w = not_unit[j][k];
            }
            g_assert_false(g3d_inv_w_unit(vx));
        }
    }
    g_test_message("%u cases of eight samples", wide);
    g_assert_cmpuint(wide, >=, 20000);
    g_rand_free(r);
}
#endif

/*
 * The AVX weights (raster.h g3d_weights4_next_avx, the span functions' AVX
 * instances) against the SSE2 ones (g3d_weights4_next) bit for bit: random
 * edge values (integers, some zero or negative) and 1/w (random_inv_w:
 * zero, negative, denormal, huge; now and then infinite or NaN), so that the zero-sum select and the
 * vertex swap of clockwise triangles are reached, both with `positive`
 * where it holds and without it
 */
static void test_weights_avx(void)
{
    GRand *r = g_rand_new_with_seed(0xa5c);
    unsigned n, zero_sums = 0, swapped = 0, wide = 0;

    if (!__builtin_cpu_supports("avx")) {
        g_test_skip("the CPU has no AVX");
        g_rand_free(r);
        return;
    }
    for (n = 0; n < 20000; n++) {
        G3DEdges g = { .inv_area = 1.0 / g_rand_int_range(r, 1, 1 << 30) };
        double v[3][4], step[3], next[3][4];
        __m128d e01[3], e23[3], st[3];
        __m128 lin[2][3], bar[2][3];
        bool positive = true;
        int k, i;

        g.perm[0] = 0;
        g.perm[1] = g_rand_boolean(r) ? 2 : 1;
        g.perm[2] = 3 - g.perm[1];
        swapped += g.perm[1] == 2;
        for (k = 0; k < 3; k++) {
            int64_t e = g_rand_int_range(r, -1000, 1 << 30);

            g.inv_w[k] = g_rand_int_range(r, 0, 16) ? random_inv_w(r)
                         : g_rand_boolean(r) ? INFINITY : NAN;
            positive &= g.inv_w[k] >= 0x1p-40f && g.inv_w[k] <= 0x1p40f;
            step[k] = g_rand_int_range(r, -4096, 4096);
            for (i = 0; i < 4; i++) {
                v[k][i] = g_rand_int_range(r, 0, 4) ? (double)e + i * step[k]
                                                     : 0.0;
                positive &= v[k][i] >= 0;
            }
            e01[k] = _mm_loadu_pd(&v[k][0]);
            e23[k] = _mm_loadu_pd(&v[k][2]);
            st[k] = _mm_set1_pd(step[k]);
        }
        /* `positive` promises a positive sum: only where it holds */
        positive &= v[0][0] + v[1][0] + v[2][0] > 0 &&
                    v[0][1] + v[1][1] + v[2][1] > 0 &&
                    v[0][2] + v[1][2] + v[2][2] > 0 &&
                    v[0][3] + v[1][3] + v[2][3] > 0 && g_rand_boolean(r);
        g3d_weights4_next(&g, e01, e23, st, lin[0], bar[0], positive);
        weights_avx(&g, (const double (*)[4])v, step, lin[1], bar[1],
                    positive, next);
        if (!same_weights(lin[0], lin[1]) || !same_weights(bar[0], bar[1])) {
            g_error("case %u: the AVX weights differ from the SSE2 ones", n);
        }
        for (k = 0; k < 3; k++) {
            double lo[2], hi[2];

            _mm_storeu_pd(lo, e01[k]);
            _mm_storeu_pd(hi, e23[k]);
            g_assert_true(lo[0] == next[k][0] && lo[1] == next[k][1] &&
                          hi[0] == next[k][2] && hi[1] == next[k][3]);
        }
        for (i = 0; i < 4; i++) {
            float p[3];

            for (k = 0; k < 3; k++) {
                p[k] = (float)(v[k][i] * g.inv_area) * g.inv_w[k];
            }
            zero_sums += (double)p[0] + p[1] + p[2] == 0 &&
                         (v[0][i] || v[1][i] || v[2][i]);
        }
#ifdef G3D_WEIGHTS_WIDE
        wide += check_weights8(&g, (const double (*)[4])v, step, positive);
#endif
        /* lin only (screen-linear draws) */
        g3d_weights4_next(&g, e01, e23, st, lin[0], NULL, false);
        weights_avx(&g, (const double (*)[4])next, step, lin[1], NULL,
                    false, next);
        g_assert_true(same_weights(lin[0], lin[1]));
    }
    g_test_message("%u samples with a zero sum, %u clockwise, %u cases of "
                   "eight samples", zero_sums, swapped, wide);
    g_assert_cmpuint(zero_sums, >=, 200);
    g_assert_cmpuint(swapped, >=, 5000);
    g_rand_free(r);
}
#endif

/* a target wider and taller than the bins' grid (64 tiles) */
#define WIDE_W 2200
#define WIDE_H 2100

typedef struct WideUser {
    uint32_t *px;
    uint32_t id;
} WideUser;

static void shade_wide(void *opaque, const G3DQuad *q, int thread)
{
    WideUser *u = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            uint32_t *p = &u->px[(q->y + (i >> 1)) * WIDE_W + q->x + (i & 1)];
            uint32_t bits;

            memcpy(&bits, &q->bary[i][1], 4);
            *p = *p * 31 + u->id * 7 + bits;
        }
    }
}

/* half i (0 or 1) of the whole WIDE_W x WIDE_H target, grid of 16 */
static void wide_half(G3DTriangle *t, int i)
{
    static const int32_t c[2][3][2] = {
        { { 0, 0 }, { WIDE_W, 0 }, { 0, WIDE_H } },
        { { WIDE_W, 0 }, { WIDE_W, WIDE_H }, { 0, WIDE_H } },
    };
    int k;

    for (k = 0; k < 3; k++) {
        t->v[k] = (G3DRasterVertex){ c[i][k][0] * 16, c[i][k][1] * 16, 1.0f };
    }
}

static void wide_scene(uint32_t *px, int threads, uint32_t entries_max)
{
    G3DRaster *r = g3d_raster_new(threads);
    GRand *rnd = g_rand_new_with_seed(77);
    WideUser *users = g_new0(WideUser, 202);
    G3DRect clip = { 0, 0, WIDE_W, WIDE_H };
    int i, k;

    g3d_raster_bin_entries_max = entries_max;
    memset(px, 0, sizeof(uint32_t) * WIDE_W * WIDE_H);
    for (i = 0; i < 202; i++) {
        G3DTriangle t = {
            .clip = clip, .rules = &g3d_rules_top_left_16,
            .shade = shade_wide, .user = &users[i],
        };

        users[i].px = px;
        users[i].id = i;
        if (i < 2) {
            /* the whole target, once: every pixel exactly one triangle */
            wide_half(&t, i);
        } else {
            for (k = 0; k < 3; k++) {
                t.v[k].x = g_rand_int_range(rnd, -400, (WIDE_W + 25) * 16);
                t.v[k].y = g_rand_int_range(rnd, -400, (WIDE_H + 25) * 16);
                t.v[k].inv_w = 1.0f / (1.0f + g_rand_double(rnd) * 3);
            }
        }
        g3d_raster_triangle(r, &t);
        if (i == 1) {
            G3DRasterStats st;

            g3d_raster_flush(r);
            g3d_raster_stats(r, &st);
            g_assert_cmpuint(st.samples, ==, (uint64_t)WIDE_W * WIDE_H);
        }
    }
    g3d_raster_flush(r);
    g3d_raster_bin_entries_max = 1u << 20;
    g_free(users);
    g_rand_free(rnd);
    g3d_raster_free(r);
}

/*
 * Tiles beyond the bins' grid share bins with the tiles 64 tiles away, and
 * a batch whose bins are full is drawn before the next entry: the picture
 * stays the same at 1, 2 and 3 threads, with bins that hold everything or
 * only 50 entries at a time (full-target triangles split over flushes).
 */
static void test_bins_wide(void)
{
    uint32_t *ref = g_new(uint32_t, WIDE_W * WIDE_H);
    uint32_t *img = g_new(uint32_t, WIDE_W * WIDE_H);
    static const struct { int threads; uint32_t max; } runs[] = {
        { 2, 1u << 20 }, { 3, 1u << 20 }, { 1, 50 }, { 2, 50 }, { 2, 1 },
    };
    unsigned n;

    wide_scene(ref, 1, 1u << 20);
    for (n = 0; n < G_N_ELEMENTS(runs); n++) {
        wide_scene(img, runs[n].threads, runs[n].max);
        g_assert_cmpmem(ref, sizeof(uint32_t) * WIDE_W * WIDE_H,
                        img, sizeof(uint32_t) * WIDE_W * WIDE_H);
    }
    g_free(ref);
    g_free(img);
}

/*
 * Wide fills (G3DTriangle.fill_wide): a batch of overlapping triangles
 * where each pixel's value depends on the order its triangles reach it
 * (v * 31 + id), drawn by quads, by fills and by wide fills, at 1, 2 and 3
 * threads and with bins that overflow: the same picture every time, and
 * fills that span several tiles of a row.
 */
typedef struct SeqUser {
    uint32_t *px;
    uint32_t id;
    uint64_t *wide_rects;       /* fills wider than a tile, per thread */
    G3DEdges g;                 /* of the triangle, clipped to box */
    G3DRect box;
} SeqUser;

/* whether pixel (x, y) of u's triangle is covered (grid of 16, centres) */
static bool seq_covered(const SeqUser *u, int x, int y)
{
    int k;

    if (x < u->box.x0 || y < u->box.y0 || x >= u->box.x1 || y >= u->box.y1) {
        return false;
    }
    for (k = 0; k < 3; k++) {
        const G3DEdge *e = &u->g.e[k];

        if (e->a * (x * 16 + 8) + e->b * (y * 16 + 8) + e->c + e->bias < 0) {
            return false;
        }
    }
    return true;
}

static void shade_seq(void *opaque, const G3DQuad *q, int thread)
{
    SeqUser *u = opaque;
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            uint32_t *p = &u->px[(q->y + (i >> 1)) * WIDE_W + q->x + (i & 1)];

            *p = *p * 31 + u->id;
        }
    }
}

static void fill_seq(void *opaque, int x0, int y0, int x1, int y1,
                       int thread)
{
    SeqUser *u = opaque;
    int x, y;

    /* one tile row, at most four tiles (a group) */
    g_assert_cmpint(x0, <, x1);
    g_assert_cmpint(y0, <, y1);
    g_assert_cmpint(y0 / G3D_TILE_SIZE, ==, (y1 - 1) / G3D_TILE_SIZE);
    g_assert_cmpint((x1 - 1) / G3D_TILE_SIZE - x0 / G3D_TILE_SIZE, <, 4);
    /* covered pixels only: the corners of a convex part */
    g_assert_true(seq_covered(u, x0, y0) && seq_covered(u, x1 - 1, y0) &&
                  seq_covered(u, x0, y1 - 1) && seq_covered(u, x1 - 1, y1 - 1));
    if (x0 / G3D_TILE_SIZE != (x1 - 1) / G3D_TILE_SIZE) {
        u->wide_rects[thread]++;
    }
    for (y = y0; y < y1; y++) {
        for (x = x0; x < x1; x++) {
            uint32_t *p = &u->px[y * WIDE_W + x];

            *p = *p * 31 + u->id;
        }
    }
}

enum { SEQ_QUADS, SEQ_FILLS, SEQ_WIDE };

/* a scene's end: its last batch drawn, the bins' bound back; wide fills */
static uint64_t seq_end(G3DRaster *r, SeqUser *users, GRand *rnd,
                        const uint64_t wide[3])
{
    g3d_raster_flush(r);
    g3d_raster_bin_entries_max = 1u << 20;
    g_free(users);
    g_rand_free(rnd);
    g3d_raster_free(r);
    return wide[0] + wide[1] + wide[2];
}

static uint64_t seq_scene(uint32_t *px, int threads, uint32_t entries_max,
                            int mode)
{
    G3DRaster *r = g3d_raster_new(threads);
    GRand *rnd = g_rand_new_with_seed(91);
    SeqUser *users = g_new0(SeqUser, 80);
    uint64_t wide[3] = { 0 };
    G3DRect clip = { 0, 0, WIDE_W, WIDE_H };
    int i, k;

    g3d_raster_bin_entries_max = entries_max;
    memset(px, 0, sizeof(uint32_t) * WIDE_W * WIDE_H);
    for (i = 0; i < 80; i++) {
        G3DTriangle t = {
            .clip = clip, .rules = &g3d_rules_top_left_16,
            .shade = shade_seq, .user = &users[i],
            .fill = mode != SEQ_QUADS && i % 5 ? fill_seq : NULL,
            .fill_wide = mode == SEQ_WIDE && i % 3,
        };

        users[i].px = px;
        users[i].id = i + 1;
        users[i].wide_rects = wide;
        if (i < 2) {
            /* the whole target first: every bin's first entry; tiles 64
             * apart share bins */
            wide_half(&t, i);
            g_assert_true(g3d_raster_edges(&t, &users[i].g));
            users[i].box = t.clip;
            g3d_raster_triangle(r, &t);
            continue;
        }
        if (i % 7 == 3) {
            /* a scissored part of the target (ends inside tiles) */
            t.clip = (G3DRect){ g_rand_int_range(rnd, 0, 200),
                                g_rand_int_range(rnd, 0, 200),
                                g_rand_int_range(rnd, WIDE_W - 200, WIDE_W),
                                g_rand_int_range(rnd, WIDE_H - 200, WIDE_H) };
        }
        for (k = 0; k < 3; k++) {
            t.v[k].x = g_rand_int_range(rnd, -4000, (WIDE_W + 250) * 16);
            t.v[k].y = g_rand_int_range(rnd, -4000, (WIDE_H + 250) * 16);
            t.v[k].inv_w = 1.0f;
        }
        g_assert_true(g3d_raster_edges(&t, &users[i].g));
        users[i].box = t.clip;
        g3d_raster_triangle(r, &t);
    }
    return seq_end(r, users, rnd, wide);
}

/*
 * Small triangles, binned on the render threads (raster.c bin_slice): a
 * batch's triangles cut into one slice a thread, each slice binned into its
 * own bins, a tile's entries taken in slice order. Thousands of small
 * overlapping triangles (1-16 pixels, some 40) whose pixels depend on the
 * order they come (shade_seq, fill_seq), by quads, fills and wide fills,
 * queued directly or through stages committed in order, in batches big
 * enough to run on every thread: the same picture and the same wide fills
 * at 1, 2 and 3 threads, with bins that hold everything, 300, 7 entries or
 * 1 (batches split in the middle of triangles); the helpers' share of the
 * quads counted.
 */
#define SMALL_TRIS 4000
#define SMALL_TINY 1000
#define SMALL_W 600
#define SMALL_H 400

static uint64_t small_thread_quads[3];

static void shade_small(void *opaque, const G3DQuad *q, int thread)
{
    small_thread_quads[thread]++;
    shade_seq(opaque, q, thread);
}

static uint64_t small_scene(uint32_t *px, int threads, uint32_t entries_max,
                            bool staged)
{
    G3DRaster *r = g3d_raster_new(threads);
    GRand *rnd = g_rand_new_with_seed(4242);
    SeqUser *users = g_new0(SeqUser, SMALL_TRIS + 3);
    uint64_t wide[3] = { 0 };
    G3DRect clip = { 0, 0, WIDE_W, SMALL_H };
    unsigned chunk = 0;
    int i, k;

    g3d_raster_bin_entries_max = entries_max;
    memset(px, 0, sizeof(uint32_t) * WIDE_W * WIDE_H);
    for (i = 0; i < SMALL_TRIS; i++) {
        G3DTriangle t = {
            .clip = clip, .rules = &g3d_rules_top_left_16,
            .shade = shade_small, .user = &users[i],
            .fill = i % 3 ? fill_seq : NULL,
            .fill_wide = i % 3 == 2 || i % 25 == 7,
        };
        /* every 25th larger, most of them alone right of the small ones
         * (wide fills where their neighbours' bins have them next); the
         * first SMALL_TINY of 1-3 pixels in batches of 150, which run on
         * every thread by their entries, not their pixels (run_bins) */
        const bool tiny = i < SMALL_TINY;
        const bool big = i % 25 == 7 && !tiny;
        int size = big ? 80 : g_rand_int_range(rnd, 1, tiny ? 4 : 17);
        int x = big && i % 2 ? g_rand_int_range(rnd, SMALL_W + 40,
                                                         WIDE_W - 60)
                                     : g_rand_int_range(rnd, -8, SMALL_W + 8);
        int y = g_rand_int_range(rnd, -8, SMALL_H + 8);

        users[i].px = px;
        users[i].id = i + 1;
        users[i].wide_rects = wide;
        for (k = 0; k < 3; k++) {
            t.v[k].x = (x + g_rand_int_range(rnd, 0, size + 1)) * 16 +
                       g_rand_int_range(rnd, 0, 16);
            t.v[k].y = (y + g_rand_int_range(rnd, 0, size + 1)) * 16 +
                       g_rand_int_range(rnd, 0, 16);
            t.v[k].inv_w = 1.0f;
        }
        if (!g3d_raster_edges(&t, &users[i].g)) {
            continue;
        }
        users[i].box = t.clip;
        if (staged && i % 2000 < 1600) {
            /* chunks of 100 into stages 0-3, committed every four */
            G3DRasterStage *s = g3d_raster_stage(r, (i / 100) % 4);

            g3d_raster_stage_enter(s);
            g3d_raster_triangle(r, &t);
            g3d_raster_stage_leave();
            if (i % 100 == 99 && ++chunk % 4 == 0) {
                for (k = 0; k < 4; k++) {
                    g3d_raster_stage_commit(r, g3d_raster_stage(r, k));
                }
                if (chunk % 8 == 4) {
                    /* a batch ending, and the next beginning, at a
                     * stage's commit (the batch's first and last
                     * triangle: first_from, last_to) */
                    g3d_raster_flush(r);
                }
            }
        } else {
            g3d_raster_triangle(r, &t);
        }
        if (i % 1500 == 1499 || (tiny && i % 150 == 149)) {
            g3d_raster_flush(r);   /* batches of varying size */
        }
    }
    /*
     * A batch that begins inside a triangle (binned from its tile
     * first_from: the large one below, cut by a small bound), flushed,
     * then a stage's commit that begins the next batch at once (its two
     * small triangles fit): that batch's first triangle is binned from
     * its own first tile.
     */
    g3d_raster_flush(r);
    for (i = SMALL_TRIS; i < SMALL_TRIS + 3; i++) {
        const int size = i == SMALL_TRIS ? 300 : 6;
        const int x = i == SMALL_TRIS ? 40 : 20 + 10 * (i - SMALL_TRIS);
        G3DTriangle t = {
            .clip = clip, .rules = &g3d_rules_top_left_16,
            .shade = shade_small, .user = &users[i],
        };

        users[i].px = px;
        users[i].id = i + 1;
        users[i].wide_rects = wide;
        for (k = 0; k < 3; k++) {
            t.v[k].x = (x + (k == 1 ? size : 0)) * 16;
            t.v[k].y = (30 + (k == 2 ? size : 0)) * 16;
            t.v[k].inv_w = 1.0f;
        }
        g_assert_true(g3d_raster_edges(&t, &users[i].g));
        users[i].box = t.clip;
        if (i == SMALL_TRIS) {
            g3d_raster_triangle(r, &t);
            g3d_raster_flush(r);
        } else {
            g3d_raster_stage_enter(g3d_raster_stage(r, 0));
            g3d_raster_triangle(r, &t);
            g3d_raster_stage_leave();
        }
    }
    g3d_raster_stage_commit(r, g3d_raster_stage(r, 0));
    return seq_end(r, users, rnd, wide);
}

static void test_bins_small(void)
{
    uint32_t *ref = g_new(uint32_t, WIDE_W * WIDE_H);
    uint32_t *img = g_new(uint32_t, WIDE_W * WIDE_H);
    static const uint32_t maxes[] = { 1u << 20, 300, 7, 1 };
    uint64_t wide[G_N_ELEMENTS(maxes)][2], w;
    int threads, m, staged;

    small_scene(ref, 1, 1u << 20, false);
    for (threads = 1; threads <= 3; threads++) {
        for (m = 0; m < (int)G_N_ELEMENTS(maxes); m++) {
            for (staged = 0; staged < 2; staged++) {
                memset(small_thread_quads, 0, sizeof(small_thread_quads));
                w = small_scene(img, threads, maxes[m], staged);
                g_assert_cmpmem(ref, sizeof(uint32_t) * WIDE_W * WIDE_H,
                                img, sizeof(uint32_t) * WIDE_W * WIDE_H);
                /*
                 * the wide fills' runs are those of one thread: a group's
                 * bins are one thread's whatever the slices
                 */
                if (threads == 1) {
                    wide[m][staged] = w;
                    g_test_message("max %u staged %d: %" G_GUINT64_FORMAT
                                   " wide fills", maxes[m], staged, w);
                }
                g_assert_cmpuint(w, ==, wide[m][staged]);
                if (threads > 1 && maxes[m] > 1) {
                    /* the batches ran on several threads (bound 1: each
                     * batch is one tile, run on the caller) */
                    g_test_message("threads %d max %u staged %d: helper "
                                   "quads %" G_GUINT64_FORMAT " of %"
                                   G_GUINT64_FORMAT, threads,
                                   maxes[m], staged, small_thread_quads[1] +
                                   small_thread_quads[2],
                                   small_thread_quads[0] +
                                   small_thread_quads[1] +
                                   small_thread_quads[2]);
                }
            }
        }
    }
    g_free(ref);
    g_free(img);
}

static void test_wide_fill(void)
{
    uint32_t *ref = g_new(uint32_t, WIDE_W * WIDE_H);
    uint32_t *img = g_new(uint32_t, WIDE_W * WIDE_H);
    static const struct { int threads; uint32_t max; } runs[] = {
        { 1, 1u << 20 }, { 2, 1u << 20 }, { 3, 1u << 20 }, { 1, 500 },
        { 2, 700 },
    };
    unsigned n;

    g_assert_cmpuint(seq_scene(ref, 1, 1u << 20, SEQ_QUADS), ==, 0);
    g_assert_cmpuint(seq_scene(img, 2, 1u << 20, SEQ_FILLS), ==, 0);
    g_assert_cmpmem(ref, sizeof(uint32_t) * WIDE_W * WIDE_H,
                    img, sizeof(uint32_t) * WIDE_W * WIDE_H);
    for (n = 0; n < G_N_ELEMENTS(runs); n++) {
        uint64_t wide = seq_scene(img, runs[n].threads, runs[n].max,
                                    SEQ_WIDE);

        g_test_message("wide %u: %llu", n, (unsigned long long)wide);
        g_assert_cmpuint(wide, >, 200);
        g_assert_cmpmem(ref, sizeof(uint32_t) * WIDE_W * WIDE_H,
                        img, sizeof(uint32_t) * WIDE_W * WIDE_H);
    }
    g_free(ref);
    g_free(img);
}

/*
 * Batches of a few triangles anywhere on a target wider and taller than
 * the bins' grid, so that the render threads' units (groups of four bins,
 * taken in screen order: raster.c order_groups) are sparse and wrap: few
 * groups marked in most words of eight, some only at a word's end, the
 * grid's last group too; every fifth batch a pair covering the target.
 * Each pixel's value depends on the order its triangles reach it.
 */
static void sparse_scene(uint32_t *px, int threads)
{
    G3DRaster *r = g3d_raster_new(threads);
    GRand *rnd = g_rand_new_with_seed(4242);
    SeqUser *users = g_new0(SeqUser, 2000);
    uint64_t wide[3] = { 0 };
    G3DRect clip = { 0, 0, WIDE_W, WIDE_H };
    int b, i, k, n = 0;

    memset(px, 0, sizeof(uint32_t) * WIDE_W * WIDE_H);
    for (b = 0; b < 300; b++) {
        int count = b % 5 == 4 ? 2 : g_rand_int_range(rnd, 1, 7);

        for (i = 0; i < count; i++, n++) {
            G3DTriangle t = {
                .clip = clip, .rules = &g3d_rules_top_left_16,
                .shade = shade_seq, .user = &users[n],
                .fill = n % 4 ? fill_seq : NULL,
                .fill_wide = n % 4 >= 2,
            };
            /* the first at least 70 pixels a side: the batch goes to the
             * render threads (SERIAL_BATCH_PIXELS) */
            int size = i == 0 ? g_rand_int_range(rnd, 70, 400)
                              : g_rand_int_range(rnd, 4, 200);
            int x = g_rand_int_range(rnd, 0, WIDE_W - 4);
            int y = g_rand_int_range(rnd, 0, WIDE_H - 4);

            users[n].px = px;
            users[n].id = n + 1;
            users[n].wide_rects = wide;
            if (b % 5 == 4) {
                wide_half(&t, i);
            } else {
                if (b % 7 == 3 && i == 0) {
                    /* the grid's last group: tile (63, 63) and those
                     * before it in its row */
                    x = 63 * G3D_TILE_SIZE - size / 2;
                    y = 63 * G3D_TILE_SIZE;
                }
                for (k = 0; k < 3; k++) {
                    t.v[k].x = (x + (k == 1 ? size : 0)) * 16 +
                               g_rand_int_range(rnd, 0, 16);
                    t.v[k].y = (y + (k == 2 ? size : 0)) * 16 +
                               g_rand_int_range(rnd, 0, 16);
                    t.v[k].inv_w = 1.0f;
                }
            }
            g_assert_true(g3d_raster_edges(&t, &users[n].g));
            users[n].box = t.clip;
            g3d_raster_triangle(r, &t);
        }
        g3d_raster_flush(r);
    }
    g3d_raster_free(r);
    g_rand_free(rnd);
    g_free(users);
}

static void test_group_order(void)
{
    const size_t px = (size_t)WIDE_W * WIDE_H;
    uint32_t *img = g_new(uint32_t, 3 * px);      /* at 1, 2 and 3 threads */
    int t;

    for (t = 0; t < 3; t++) {
        sparse_scene(img + t * px, t + 1);
    }
    g_assert_cmpmem(img, px * 4, img + px, px * 4);
    g_assert_cmpmem(img, px * 4, img + 2 * px, px * 4);
    g_free(img);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/raster/fill/mesh-top-left", test_fill_mesh);
    g_test_add_func("/raster/fill/mesh-twelfths", test_fill_mesh_12);
    g_test_add_func("/raster/fill/mesh-bottom-right",
                    test_fill_mesh_bottom_right);
    g_test_add_func("/raster/fill/edge-samples", test_edge_samples);
    g_test_add_func("/raster/interpolation", test_interpolation);
    g_test_add_func("/raster/scissor", test_scissor);
    g_test_add_func("/raster/threads/invariance", test_thread_invariance);
    g_test_add_func("/raster/vector-path", test_vector_path);
#ifdef G3D_WEIGHTS_AVX
    g_test_add_func("/raster/weights-avx", test_weights_avx);
#ifdef G3D_WEIGHTS_WIDE
    g_test_add_func("/raster/weights-unit", test_weights_unit);
#endif
#endif
    g_test_add_func("/raster/block-fill", test_block_fill);
    g_test_add_func("/raster/bins/wide", test_bins_wide);
    g_test_add_func("/raster/wide-fill", test_wide_fill);
    g_test_add_func("/raster/bins/small", test_bins_small);
    g_test_add_func("/raster/threads/group-order", test_group_order);
    return g_test_run();
}
