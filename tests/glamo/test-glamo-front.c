/*
 * A list's vertices set up on the render threads (hw/gpu3d/glamo/front.c)
 * against the serial parser: random lists drawn at 1, 2 and 3 render
 * threads must give the same colour and depth bytes, counters, setup
 * registers and guest errors, message by message.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "rig.h"
#include "common/raster.h"

#define W 160
#define H 120
#define FB 0x000000
#define ZB 0x040000
#define VB 0x100000
#define IB 0x300000
#define SETUP_LO 0x1c00          /* transformed vertices a-c */
#define SETUP_HI 0x1d70          /* to EGSshft */

static GString *messages;

static void sink(G3DLogKind kind, const char *msg)
{
    g_string_append_printf(messages, "%d %s\n", (int)kind, msg);
}

typedef struct Result {
    uint8_t *fb, *zb;
    GlamoStats st;
    uint16_t setup[(SETUP_HI - SETUP_LO) / 2];
    uint16_t status;            /* EGSTATUSA: the last EGDRAWDIR */
    char *log;
} Result;

static void put_f(uint8_t *p, float f)
{
    memcpy(p, &f, 4);
}

/*
 * Case `seed`: 1-4 lists of 100-3000 vertices (strips, fans, lists),
 * small triangles in screen space or through T1 with clipping, some
 * indexed (u8 or u16), some reading past VRAM or past the setup range,
 * culled or not, depth-tested, blended, flat or Gouraud, worked with a
 * budget of 1 to 1000 units a call; EGEND after each list or only at the
 * end (so the rasteriser's queue bound is crossed inside a list; with a
 * reserved blend factor every decode of the state logs, so where the
 * serial setup flushes shows in the messages).
 */
static void draw_case(guint32 seed, int threads, Result *out)
{
    GRand *rnd = g_rand_new_with_seed(seed);
    GlamoRig r;
    int lists = g_rand_int_range(rnd, 1, 5), l, i;
    bool tnl, depth = g_rand_boolean(rnd);
    /* every eighth case: lists of 9000-12000 vertices under one EGEND
     * and a state whose decode logs: a run crosses the rasteriser's queue
     * bound, maybe twice */
    bool bound = seed % 8 == 0;
    bool end_each = !bound && g_rand_boolean(rnd);

    tnl = !bound && g_rand_boolean(rnd);
    unsigned budgets[] = { 1, 3, 8, 64, 1000 };
    unsigned budget = bound ? 1000 : budgets[g_rand_int_range(rnd, 0, 5)];
    uint32_t f0;

    g_string_truncate(messages, 0);
    rig_init(&r, threads);
    rig_enable_3d(&r);
    rig_target(&r, rig_w32, FB, W * 2, W, H, depth ? ZB : 0);
    memset(r.vram + FB, 0x11, W * H * 2);
    memset(r.vram + ZB, 0xff, W * H * 2);
    f0 = R_RGXFEN0_RGXDisableCull_MASK;
    if (!tnl) {
        f0 |= R_RGXFEN0_RGXScrCoor_MASK;
    } else {
        int k;
        for (k = 0; k < 4; k++) {
            rig_w32(&r, GLAMO_RGXR0T1MAT(k, k), glamo_f24_from_float(1.0f));
        }
        rig_w32(&r, A_RGXScaleX, glamo_f24_from_float(W / 2.0f));
        rig_w32(&r, A_RGXOffsetX, glamo_f24_from_float(W / 2.0f));
        rig_w32(&r, A_RGXScaleY, glamo_f24_from_float(-H / 2.0f));
        rig_w32(&r, A_RGXOffsetY, glamo_f24_from_float(H / 2.0f));
        rig_w32(&r, A_RGXScaleZ, glamo_f24_from_float(1.0f));
    }
    rig_w32(&r, A_RGXFEN0, f0);
    if (bound || g_rand_int_range(rnd, 0, 4) == 0) {
        rig_w32(&r, A_EGEN0, (depth ? R_EGEN0_EGenZT_MASK |
                              R_EGEN0_EGenZW_MASK : 0) |
                R_EGEN0_EGenBLEND_MASK);
        /* a reserved destination factor: every decode of the state
         * logs, so the rasteriser's queue bound shows in the messages */
        rig_w32(&r, A_EGBLSET, GLAMO_BLEQ_ADD << 24 | 4 << 4 |
                (bound || g_rand_boolean(rnd) ? 15 : 5));
    }
    rig_w32(&r, A_RGXFEN3, (g_rand_boolean(rnd) ? GLAMO_SHADE_GOURAUD :
                            GLAMO_SHADE_FLAT_B) << 11 |
            (g_rand_int_range(rnd, 0, 3) == 0 ? R_RGXFEN3_RGPenCull_MASK |
             (uint32_t)g_rand_boolean(rnd) << 16 : 0));
    /* position x y z w (stream 0), colour (stream 1), 20 bytes a vertex;
     * the bases are written per list */
    {
        static const uint32_t desc[2] = {
            GLAMO_VTYPE_FLOAT << 4 | GLAMO_VARRAY_POSITION,
            GLAMO_VTYPE_UBYTE << 4 | GLAMO_VARRAY_DIFFUSE,
        };
        for (i = 0; i < 2; i++) {
            rig_w32(&r, GLAMO_MGVSTRM_DESC(i), 20 << 16 | 3 << 8 | desc[i]);
        }
        rig_w32(&r, A_MGVStreamActive, 3);
    }

    for (l = 0; l < lists; l++) {
        static const uint16_t prims[] = {
            GLAMO_PRIM_TRIANGLES, GLAMO_PRIM_TRIANGLES2,
            GLAMO_PRIM_TRIANGLE_STRIP, GLAMO_PRIM_TRIANGLE_FAN,
        };
        uint32_t nv = bound ? g_rand_int_range(rnd, 9000, 12001) :
                      g_rand_int_range(rnd, 0, 4) == 0 ?
                      g_rand_int_range(rnd, 1000, 3001) :
                      g_rand_int_range(rnd, 100, 900);
        uint32_t pool = nv + 8;
        int mode = g_rand_int_range(rnd, 0, 3);   /* 0 direct, 1 u8, 2 u16 */
        bool far = g_rand_int_range(rnd, 0, 8) == 0;
        bool past = g_rand_int_range(rnd, 0, 8) == 0;
        uint16_t prim = prims[g_rand_int_range(rnd, 0, 4)];
        float cx = g_rand_double_range(rnd, 0, W);
        float cy = g_rand_double_range(rnd, 0, H);

        if (mode == 1) {
            pool = MIN(pool, 256);
        }
        for (i = 0; i < (int)pool; i++) {
            uint8_t *p = r.vram + VB + 20 * i;
            float x, y, z = g_rand_double_range(rnd, 0.05, 0.95), w = 1.0f;
            uint32_t argb = g_rand_int(rnd);

            if (prim == GLAMO_PRIM_TRIANGLE_FAN) {
                /* a fan's triangles share the centre: keep them small */
                x = cx + g_rand_double_range(rnd, -6, 6);
                y = cy + g_rand_double_range(rnd, -6, 6);
            } else {
                cx = CLAMP(cx + g_rand_double_range(rnd, -5, 5), -15, W + 15);
                cy = CLAMP(cy + g_rand_double_range(rnd, -5, 5), -15, H + 15);
                x = cx;
                y = cy;
            }
            if (far && g_rand_int_range(rnd, 0, 200) == 0) {
                x = 700.0f;     /* past the setup range: logged, skipped */
            }
            if (tnl) {
                w = g_rand_double_range(rnd, 0.7, 1.4);
                x = (x / (W / 2.0f) - 1.0f) * w;
                y = (1.0f - y / (H / 2.0f)) * w;
                z *= w;
                if (far && g_rand_int_range(rnd, 0, 300) == 0) {
                    w = -1.0f;  /* behind the eye: clipped */
                }
            }
            put_f(p, x);
            put_f(p + 4, y);
            put_f(p + 8, z);
            put_f(p + 12, w);
            memcpy(p + 16, &argb, 4);
        }
        for (i = 0; i < (int)nv; i++) {
            uint32_t idx = g_rand_int_range(rnd, 0, 3) ? (uint32_t)i % pool :
                           g_rand_int_range(rnd, 0, pool);
            if (past && i > 200 && g_rand_int_range(rnd, 0, 100) == 0) {
                idx = mode == 1 ? 255 : 0xffff;   /* outside VRAM below */
            }
            if (mode == 1) {
                r.vram[IB + i] = (uint8_t)idx;
            } else {
                r.vram[IB + 2 * i] = (uint8_t)idx;
                r.vram[IB + 2 * i + 1] = (uint8_t)(idx >> 8);
            }
        }
        /* an index to 0xffff or 255 reads past VRAM with this base */
        rig_w32(&r, GLAMO_MGVSTRM_BAS(0), past ? GLAMO_VRAM_SIZE - 20 * 200 :
                VB);
        rig_w32(&r, GLAMO_MGVSTRM_BAS(1), past ?
                GLAMO_VRAM_SIZE - 20 * 200 + 16 : VB + 16);
        if (past) {
            /* the first 200 vertices of the pool where the streams are */
            memmove(r.vram + GLAMO_VRAM_SIZE - 20 * 200, r.vram + VB,
                    20 * 200);
            for (i = 0; i < (int)nv; i++) {
                uint32_t idx = mode == 1 ? r.vram[IB + i] :
                               r.vram[IB + 2 * i] | r.vram[IB + 2 * i + 1] << 8;
                if (idx != 0xffff && idx != 255) {
                    idx %= 200;
                }
                if (mode == 1) {
                    r.vram[IB + i] = (uint8_t)idx;
                } else {
                    r.vram[IB + 2 * i] = (uint8_t)idx;
                    r.vram[IB + 2 * i + 1] = (uint8_t)(idx >> 8);
                }
            }
        }
        rig_w32(&r, A_MGVStrmCtl, 1 << 8 | (mode == 1 ? 4 : 0) |
                (mode ? 2 : 0));
        rig_w32(&r, A_MGStrmIndexMDBAS, IB);
        rig_w32(&r, A_RGPDV, nv);
        rig_w16(&r, A_EGPrim1, prim);
        rig_w16(&r, A_MGBufCBMFire, mode ? GLAMO_CBM_STREAM_INDEX :
                GLAMO_CBM_BUFFER);
        if (end_each || l == lists - 1) {
            rig_w16(&r, A_EGEND, 0);
        }
        for (i = 0; i < 1000000 && glamo_core_work(r.core, budget); i++) {
        }
    }
    out->fb = g_memdup2(r.vram + FB, W * H * 2);
    out->zb = g_memdup2(r.vram + ZB, W * H * 2);
    glamo_stats(r.core, &out->st);
    for (i = 0; i < (SETUP_HI - SETUP_LO) / 2; i++) {
        out->setup[i] = rig_r16(&r, SETUP_LO + 2 * i);
    }
    out->status = rig_r16(&r, A_EGSTATUSA);
    out->log = g_strdup(messages->str);
    rig_free(&r);
    g_rand_free(rnd);
}

static void result_free(Result *r)
{
    g_free(r->fb);
    g_free(r->zb);
    g_free(r->log);
}

static void test_front_threads(void)
{
    uint64_t runs[4] = { 0 };
    unsigned logged = 0;
    guint32 seed;

    messages = g_string_new(NULL);
    g3d_set_log_sink(sink);
    for (seed = 1; seed <= 80; seed++) {
        Result one;
        int threads;

        draw_case(seed, 1, &one);
        logged += one.log[0] != 0;
        for (threads = 2; threads <= 3; threads++) {
            Result got;

            /* every other case with bins of 5 entries: the batches split
             * in the middle of triangles (raster.c queue_triangle) */
            g3d_raster_bin_entries_max = seed % 2 ? 5 : 1u << 20;
            draw_case(seed, threads, &got);
            g3d_raster_bin_entries_max = 1u << 20;
            if (memcmp(one.fb, got.fb, W * H * 2) ||
                memcmp(one.zb, got.zb, W * H * 2)) {
                g_test_message("case %u at %d threads: picture differs",
                               seed, threads);
                g_test_fail();
            }
            if (memcmp(one.setup, got.setup, sizeof(one.setup)) ||
                one.status != got.status) {
                g_test_message("case %u at %d threads: setup registers "
                               "or EGSTATUSA differ", seed, threads);
                g_test_fail();
            }
            if (strcmp(one.log, got.log)) {
                g_test_message("case %u at %d threads: messages differ",
                               seed, threads);
                g_test_fail();
            }
            g_assert_cmpuint(one.st.vertices, ==, got.st.vertices);
            g_assert_cmpuint(one.st.primitives, ==, got.st.primitives);
            g_assert_cmpuint(one.st.fast_primitives, ==,
                             got.st.fast_primitives);
            g_assert_cmpuint(one.st.span_primitives, ==,
                             got.st.span_primitives);
            g_assert_cmpuint(one.st.flat_primitives, ==,
                             got.st.flat_primitives);
            g_assert_cmpuint(one.st.culled, ==, got.st.culled);
            g_assert_cmpuint(one.st.errors, ==, got.st.errors);
            runs[threads] += got.st.front_runs;
            result_free(&got);
        }
        runs[1] += one.st.front_runs;
        result_free(&one);
    }
    g3d_set_log_sink(NULL);
    g_string_free(messages, TRUE);
    g_test_message("runs on the render threads: %" G_GUINT64_FORMAT
                   " at one thread, %" G_GUINT64_FORMAT " at two, %"
                   G_GUINT64_FORMAT " at three; %u of 80 cases log",
                   runs[1], runs[2], runs[3], logged);
    g_assert_cmpuint(runs[1], ==, 0);
    g_assert_cmpuint(runs[2], >, 100);
    g_assert_cmpuint(runs[3], >, 100);
    g_assert_cmpuint(logged, >, 5);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/glamo/front/threads", test_front_threads);
    return g_test_run();
}
