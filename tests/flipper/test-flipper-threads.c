/*
 * The picture does not depend on the number of render threads: random GX
 * streams (every primitive type, direct and indexed vertices, state changes
 * between draws, texture copies with and without a clear, the display
 * copy) rendered on cores with 1, 2 and 3 render threads, through the
 * gather pipe and the FIFO or executed at once, with the draws in display
 * lists or not, must leave the same EFB colour and depth, the same MEM1
 * (XFB, copy targets), the same counters
 * (triangles, pixels), the same guest errors and PI interrupt causes, and
 * the same VI scanout; and the scanout, whose rows the render threads
 * convert in bands, must equal a conversion of the rows one by one on the
 * calling thread.
 *
 * With more than one thread, a draw's vertices run through the front end
 * on the render threads (front.c): the guest errors are compared message
 * by message (a chunk that would log is run again serially, in order),
 * some indexed draws read vertices past MEM1 (logged) and some draws have
 * GEN_MODE.ZFREEZE (serial); the runs on the render threads are counted,
 * also those within the device's steps (FLIPPER_WORK_BUDGET) of the
 * streams sent through the FIFO.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "common/raster.h"
#include "common/scanout.h"
#include "flipper/flipper-int.h"
#include "gx-build.h"
#include "rig.h"

#define STREAMS 48
#define POS_ADDR SCENE_DATA_ADDR            /* 256 positions, f32 xyz */
#define COL_ADDR (SCENE_DATA_ADDR + 0x1000) /* 256 colours, RGBA8888 */
#define COPY_ADDR 0x00600000u               /* texture copies' target */
#define COPY_BYTES (640 * 480 * 4)
#define XFB_BYTES (640 * 480 * 2)
#define DL_ADDR 0x00C00000u                 /* the draws' display lists */
#define DL_END 0x01000000u

static const uint8_t prims[] = {
    GX_DRAW_QUADS, GX_DRAW_QUADS_2, GX_DRAW_TRIANGLES, GX_DRAW_TRIANGLE_STRIP,
    GX_DRAW_TRIANGLE_FAN, GX_DRAW_LINES, GX_DRAW_LINE_STRIP, GX_DRAW_POINTS,
};

static void put32(uint8_t *p, uint32_t v)
{
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static float coord(GRand *g)
{
    /* mostly on screen, sometimes past the edges (clipped) */
    return (float)g_rand_double_range(g, -1.3, 1.3);
}

/* the arrays of the indexed draws, in MEM1 */
static void arrays(GRand *g, uint8_t *mem1)
{
    int i;

    for (i = 0; i < 256; i++) {
        put32(mem1 + POS_ADDR + 12 * i, gx_fbits(coord(g)));
        put32(mem1 + POS_ADDR + 12 * i + 4, gx_fbits(coord(g)));
        put32(mem1 + POS_ADDR + 12 * i + 8,
              gx_fbits((float)g_rand_double_range(g, -0.95, -0.05)));
        put32(mem1 + COL_ADDR + 4 * i, g_rand_int(g));
    }
}

/* state between draws: Z, blending, culling, line and point sizes */
static void state(GRand *g, GByteArray *b)
{
    if (g_rand_boolean(g)) {
        /* test on or off, any function, update on or off */
        gx_bp(b, BP_ZMODE, g_rand_int_range(g, 0, 32));
    }
    if (g_rand_int_range(g, 0, 3) == 0) {
        /* blend on with random factors, or a logic op, or neither */
        uint32_t mode = 0x18 | (uint32_t)g_rand_int_range(g, 0, 8) << 5 |
                        (uint32_t)g_rand_int_range(g, 0, 8) << 8;
        switch (g_rand_int_range(g, 0, 3)) {
        case 0:
            mode |= 1;
            break;
        case 1:
            mode |= 2 | (uint32_t)g_rand_int_range(g, 0, 16) << 12;
            break;
        }
        gx_bp(b, BP_BLENDMODE, mode);
    }
    if (g_rand_int_range(g, 0, 3) == 0) {
        /* one colour channel, one stage; culling none, back, front, all;
         * a fifth with the depth plane frozen */
        gx_bp(b, BP_GENMODE, 0x000010 |
                             (uint32_t)g_rand_int_range(g, 0, 4) << 14 |
                             (g_rand_int_range(g, 0, 5) == 0 ? 1u << 19 : 0));
    }
    if (g_rand_int_range(g, 0, 3) == 0) {
        gx_bp(b, BP_LINEPTWIDTH, (uint32_t)g_rand_int_range(g, 1, 64) |
                                 (uint32_t)g_rand_int_range(g, 1, 64) << 8);
    }
}

/* a texture copy of a random EFB rectangle, often clearing it */
static void tex_copy(GRand *g, GByteArray *b)
{
    int x = g_rand_int_range(g, 0, 40) * 8, y = g_rand_int_range(g, 0, 30) * 8;
    int w = g_rand_int_range(g, 1, (640 - x) / 8 + 1) * 8;
    int h = g_rand_int_range(g, 1, (480 - y) / 8 + 1) * 8;

    gx_bp(b, BP_EFB_TL, (uint32_t)y << 10 | (uint32_t)x);
    gx_bp(b, BP_EFB_WH, (uint32_t)(h - 1) << 10 | (uint32_t)(w - 1));
    /* a third of the time rows of tiles closer than a row's bytes: they
     * overlap in MEM1, and the last one written must win */
    gx_bp(b, BP_MIPMAP_STRIDE, g_rand_int_range(g, 0, 3) ?
          (uint32_t)(w / 4 * 64) >> 5 :
          (uint32_t)g_rand_int_range(g, 1, w / 4 * 64 / 32 + 1));
    gx_bp(b, BP_EFB_ADDR, COPY_ADDR >> 5);
    /* RGBA8, clear afterwards half of the time */
    gx_bp(b, BP_TRIGGER_EFB_COPY, 12 << 3 |
          (g_rand_boolean(g) ? 1u << 11 : 0));
}

static void draw(GRand *g, GByteArray *b)
{
    uint8_t prim = prims[g_rand_int_range(g, 0, G_N_ELEMENTS(prims))];
    bool indexed = g_rand_boolean(g);
    /* a few primitives, or many small ones */
    int n = g_rand_int_range(g, 0, 4) ? g_rand_int_range(g, 1, 13)
                                      : g_rand_int_range(g, 13, 400);
    int i;

    if (indexed) {
        /* a sixth of them with the positions at MEM1's end: indices from
         * 200 on are past it (logged, read as zero) */
        bool past = g_rand_int_range(g, 0, 6) == 0;

        gx_cp(b, CPR_ARRAY_BASE + 0, past ? FLIPPER_MEM1_SIZE - 12 * 200
                                          : POS_ADDR);
        /* positions by 16-bit, colours by 8-bit indices, VAT 1 */
        gx_cp(b, CPR_VCD_LO, VCD_INDEX16 << 9 | VCD_INDEX8 << 13);
        gx_draw(b, prim, 1, (uint16_t)n);
        for (i = 0; i < n; i++) {
            /* some past the arrays' 256 entries: read from MEM1 anyway */
            gx_u16(b, (uint16_t)g_rand_int_range(g, 0, 300));
            gx_u8(b, (uint8_t)g_rand_int_range(g, 0, 256));
        }
        return;
    }
    gx_cp(b, CPR_VCD_LO, VCD_DIRECT << 9 | VCD_DIRECT << 13);
    gx_draw(b, prim, 0, (uint16_t)n);
    if (n > 12 && g_rand_boolean(g)) {
        /* small triangles near each other */
        float cx = coord(g), cy = coord(g);
        for (i = 0; i < n; i++) {
            gx_f32(b, cx + (float)g_rand_double_range(g, -0.05, 0.05));
            gx_f32(b, cy + (float)g_rand_double_range(g, -0.05, 0.05));
            gx_f32(b, (float)g_rand_double_range(g, -0.95, -0.05));
            gx_u32(b, g_rand_int(g));
        }
        return;
    }
    for (i = 0; i < n; i++) {
        gx_f32(b, coord(g));
        gx_f32(b, coord(g));
        gx_f32(b, (float)g_rand_double_range(g, -0.95, -0.05));
        gx_u32(b, g_rand_int(g));
    }
}

/*
 * A draw of many small triangles (on the render threads), then one with
 * the depth plane frozen at its last triangle's (GEN_MODE.ZFREEZE), depth
 * tested and written
 */
static void frozen(GRand *g, GByteArray *b)
{
    float cx = coord(g), cy = coord(g);
    int i, n = 3 * g_rand_int_range(g, 40, 100);

    gx_bp(b, BP_GENMODE, 0x000010);
    gx_cp(b, CPR_VCD_LO, VCD_DIRECT << 9 | VCD_DIRECT << 13);
    gx_draw(b, GX_DRAW_TRIANGLES, 0, (uint16_t)n);
    for (i = 0; i < n; i++) {
        gx_f32(b, cx + (float)g_rand_double_range(g, -0.2, 0.2));
        gx_f32(b, cy + (float)g_rand_double_range(g, -0.2, 0.2));
        gx_f32(b, (float)g_rand_double_range(g, -0.95, -0.05));
        gx_u32(b, g_rand_int(g));
    }
    gx_bp(b, BP_GENMODE, 0x000010 | 1u << 19);
    gx_bp(b, BP_ZMODE, 1 | 7 << 1 | 1 << 4);    /* ALWAYS, update */
    gx_draw(b, GX_DRAW_QUADS, 0, 4);
    for (i = 0; i < 4; i++) {
        gx_f32(b, i == 1 || i == 2 ? 0.9f : -0.9f);
        gx_f32(b, i >= 2 ? -0.9f : 0.9f);
        gx_f32(b, -0.5f);
        gx_u32(b, g_rand_int(g));
    }
    gx_bp(b, BP_GENMODE, 0x000010);
}

/* the draw, in a display list at *dl in MEM1, called */
static void draw_dl(GRand *g, GByteArray *b, uint8_t *mem1, uint32_t *dl)
{
    GByteArray *list = g_byte_array_new();

    draw(g, list);
    gx_pad32(list);
    g_assert_cmpuint(*dl + list->len, <=, DL_END);
    memcpy(mem1 + *dl, list->data, list->len);
    gx_call_dl(b, *dl, list->len);
    *dl += list->len;
    g_byte_array_unref(list);
}

static GByteArray *stream(GRand *g, uint8_t *mem1, bool lists)
{
    GByteArray *b = g_byte_array_new();
    int i, ndraws = g_rand_int_range(g, 1, 24);
    uint32_t dl = DL_ADDR;

    gx_begin_frame(b, g_rand_int(g) | 0xFF);
    /* VAT 1: xyz f32, RGBA8888, as VAT 0, for the indexed draws */
    gx_cp(b, CPR_VAT_A + 1, 0x40000000 | VTX_F32 << 1 | 1 | 1 << 13 |
                            VTX_RGBA8888 << 14);
    gx_cp(b, CPR_VAT_B + 1, 0x80000000);
    gx_cp(b, CPR_ARRAY_BASE + 0, POS_ADDR);
    gx_cp(b, CPR_ARRAY_STRIDE + 0, 12);
    gx_cp(b, CPR_ARRAY_BASE + 2, COL_ADDR);
    gx_cp(b, CPR_ARRAY_STRIDE + 2, 4);
    for (i = 0; i < ndraws; i++) {
        state(g, b);
        if (lists) {
            draw_dl(g, b, mem1, &dl);
        } else {
            draw(g, b);
        }
        if (g_rand_int_range(g, 0, 8) == 0) {
            frozen(g, b);
        }
        if (g_rand_int_range(g, 0, 6) == 0) {
            tex_copy(g, b);
        }
    }
    gx_copy_to_xfb(b, SCENE_XFB_ADDR);
    return b;
}

typedef struct Result {
    uint32_t *color, *depth;
    uint8_t *xfb, *copy;
    uint32_t *scan;
    uint32_t scan_w, scan_h;
    unsigned errors;
    GPtrArray *messages;        /* the guest errors, in order */
    uint64_t front_runs;
    uint32_t intsr;
    FlipperStats stats;
} Result;

static void result_free(Result *res)
{
    g_free(res->color);
    g_free(res->depth);
    g_free(res->xfb);
    g_free(res->copy);
    g_free(res->scan);
    g_ptr_array_unref(res->messages);
}

static GPtrArray *log_messages;

/* a render helper thread logs nothing: front.c holds what it would */
static __thread bool render_helper;

static void helper_begin(void)
{
    render_helper = true;
}

static void log_sink(G3DLogKind kind, const char *msg)
{
    g_assert_false(render_helper);
    if (kind == G3D_LOG_GUEST_ERROR) {
        g_ptr_array_add(log_messages, g_strdup(msg));
    }
}

static void render(uint32_t seed, int threads, Result *res)
{
    GRand *g = g_rand_new_with_seed(seed);
    FlipperRig *r = rig_new(threads);
    GByteArray *b;
    const uint32_t *px;
    unsigned errors = g3d_log_count(G3D_LOG_GUEST_ERROR);
    G3DScanout so;
    uint32_t *ref;
    size_t n;

    res->messages = g_ptr_array_new_with_free_func(g_free);
    log_messages = res->messages;
    g3d_set_log_sink(log_sink);
    arrays(g, r->mem1);
    b = stream(g, r->mem1, seed & 2);
    rig_fifo_init(r, RIG_FIFO_BASE, RIG_FIFO_SIZE);
    rig_vi_init(r, SCENE_XFB_ADDR);
    if (seed & 1) {
        rig_submit(r, b->data, b->len);
    } else {
        flipper_gx_exec(r->core, b->data, b->len);
    }
    res->errors = g3d_log_count(G3D_LOG_GUEST_ERROR) - errors;
    g3d_set_log_sink(NULL);
    res->front_runs = flipper_front_runs(r->core);
    res->intsr = rig_r32(r, A_PI_INTSR);
    flipper_core_stats(r->core, &res->stats);
    res->color = g_memdup2(r->core->efb_color, sizeof(uint32_t) * EFB_W * EFB_H);
    res->depth = g_memdup2(r->core->efb_depth, sizeof(uint32_t) * EFB_W * EFB_H);
    res->xfb = g_memdup2(r->mem1 + SCENE_XFB_ADDR, XFB_BYTES);
    res->copy = g_memdup2(r->mem1 + COPY_ADDR, COPY_BYTES);

    px = rig_scanout_argb(r, &res->scan_w, &res->scan_h);
    g_assert_nonnull(px);
    n = (size_t)res->scan_w * res->scan_h;
    res->scan = g_memdup2(px, n * 4);
    /* the same rows converted one by one on this thread */
    g_assert_true(flipper_scanout(r->core, 0, &so));
    g_assert_nonnull(so.run);
    so.run = NULL;
    ref = g_new(uint32_t, n);
    g_assert_true(g3d_scanout_copy(&so, &r->mem, ref, so.width, "test"));
    g_assert_cmpmem(res->scan, n * 4, ref, n * 4);
    g_free(ref);

    g_byte_array_unref(b);
    rig_free(r);
    g_rand_free(g);
}

static void test_threads(void)
{
    uint32_t seed;
    uint64_t triangles = 0, pixels = 0, runs = 0, fifo_runs = 0, dl_runs = 0;
    unsigned errors = 0;

    for (seed = 0; seed < STREAMS; seed++) {
        Result one, more;
        int threads;
        guint i;

        render(seed, 1, &one);
        g_assert_cmpuint(one.front_runs, ==, 0);
        errors += one.errors;
        triangles += one.stats.triangles;
        pixels += one.stats.pixels;
        for (threads = 2; threads <= 3; threads++) {
            /* every other seed with bins of 5 entries: the batches
             * split in the middle of triangles (raster.c queue_triangle) */
            g3d_raster_bin_entries_max = seed % 2 ? 5 : 1u << 20;
            render(seed, threads, &more);
            g3d_raster_bin_entries_max = 1u << 20;
            g_assert_cmpmem(one.color, EFB_W * EFB_H * 4, more.color,
                            EFB_W * EFB_H * 4);
            g_assert_cmpmem(one.depth, EFB_W * EFB_H * 4, more.depth,
                            EFB_W * EFB_H * 4);
            g_assert_cmpmem(one.xfb, XFB_BYTES, more.xfb, XFB_BYTES);
            g_assert_cmpmem(one.copy, COPY_BYTES, more.copy, COPY_BYTES);
            g_assert_cmpuint(one.scan_w, ==, more.scan_w);
            g_assert_cmpuint(one.scan_h, ==, more.scan_h);
            g_assert_cmpmem(one.scan, one.scan_w * one.scan_h * 4, more.scan,
                            more.scan_w * more.scan_h * 4);
            g_assert_cmpuint(one.errors, ==, more.errors);
            g_assert_cmpuint(one.messages->len, ==, more.messages->len);
            for (i = 0; i < one.messages->len; i++) {
                g_assert_cmpstr(one.messages->pdata[i], ==,
                                more.messages->pdata[i]);
            }
            runs += more.front_runs;
            fifo_runs += seed & 1 ? more.front_runs : 0;
            dl_runs += seed & 2 ? more.front_runs : 0;
            g_assert_cmphex(one.intsr, ==, more.intsr);
            g_assert_cmpuint(one.stats.triangles, ==, more.stats.triangles);
            g_assert_cmpuint(one.stats.pixels, ==, more.stats.pixels);
            g_assert_cmpuint(one.stats.vertices, ==, more.stats.vertices);
            result_free(&more);
        }
        result_free(&one);
    }
    /* the streams drew something */
    g_test_message("%u streams: %" G_GUINT64_FORMAT " triangles, %"
                   G_GUINT64_FORMAT " pixels", STREAMS, triangles, pixels);
    g_assert_cmpuint(triangles, >, STREAMS * 100);
    g_assert_cmpuint(pixels, >, 1000000);
    /* draws ran on the render threads, and some logged */
    g_test_message("front end runs on the render threads: %" G_GUINT64_FORMAT
                   " (through the FIFO in the device's steps: %"
                   G_GUINT64_FORMAT ", in display lists: %" G_GUINT64_FORMAT
                   "); guest errors at one thread: %u",
                   runs, fifo_runs, dl_runs, errors);
    g_assert_cmpuint(runs, >, STREAMS / 2);
    g_assert_cmpuint(fifo_runs, >, STREAMS / 8);
    g_assert_cmpuint(dl_runs, >, STREAMS / 8);
    g_assert_cmpuint(errors, >, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g3d_helper_thread_begin = helper_begin;
    g_test_add_func("/flipper/threads/random-streams", test_threads);
    return g_test_run();
}
