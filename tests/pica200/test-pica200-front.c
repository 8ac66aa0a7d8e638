/*
 * A draw's front end on the render threads (pipeline.c draw_parallel):
 * random meshes of every topology (list, strip, fan, mode 3 without a
 * geometry shader), from arrays and through u8 and u16 indices, several
 * draws a list with and without a primitive restart or a render-state
 * write between them (a strip, a fan or a list part way carries over; a
 * run may begin at a draw's first vertex), clipped, culled, depth-tested or
 * blended (then the triangles' order shows), worked with budgets from 300
 * to 20000 units a call, give the same colour and depth bytes and the same
 * guest errors, message by message, with 1, 2 and 3 render threads. Some
 * draws run out of memory part way (a vertex, or an index's vertex, past
 * the end of FCRAM) or have vertices past the rasteriser's range (a
 * viewport 48000 pixels wide): the chunk that meets it runs again serially,
 * which logs it in its place and draws what comes before it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "pica-scene.h"
#include "common/g3d-core.h"
#include "common/raster.h"

#define FW 64
#define FH 64
#define DEPTH_OFF 0x10000u
#define LIST_OFF 0x10000u
#define BASE_OFF 0x100000u          /* ATTRIBBUFFERS_LOC: indices after it */
#define IDX_OFF 0x1000u
#define VB_OFF 0x200000u
#define RAM_PA(off) (PICA200_PHYS_FCRAM + (off))
#define MAXV 700
#define SEEDS 120

static GString *ft_log;

static void ft_sink(G3DLogKind kind, const char *msg)
{
    if (kind == G3D_LOG_GUEST_ERROR) {
        g_string_append_printf(ft_log, "%s\n", msg);
    }
}

static uint32_t ft_rand(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static float ft_unit(uint32_t *s)
{
    return (ft_rand(s) & 0xFFFF) / 65535.0f;
}

typedef struct FtResult {
    uint8_t color[FW * FH * 4], depth[FW * FH * 4];
    GString *errors;
    uint64_t front_runs;
} FtResult;

/* one list of 1-3 draws from `seed`, worked on a core of `threads` threads */
static void ft_run(uint32_t seed, int threads, FtResult *r)
{
    static const unsigned topo[4] = {
        PICA_TOPOLOGY_TRIANGLES, PICA_TOPOLOGY_STRIP, PICA_TOPOLOGY_FAN,
        PICA_TOPOLOGY_GEOMETRY,
    };
    static const unsigned budgets[4] = { 300, 1000, 4096, 20000 };
    static float v[MAXV * 8];
    uint32_t s = seed * 2654435761u + 1, i, vb = VB_OFF;
    uint32_t n = 100 + ft_rand(&s) % (MAXV - 100);
    uint32_t ndraws = 1 + ft_rand(&s) % 3, budget, k, calls = 0;
    unsigned tp_last = 0;
    bool bad = ft_rand(&s) % 4 == 0, wide = ft_rand(&s) % 8 == 0;
    PicaTest t;
    CmdBuf b;

    pt_init(&t, threads);
    memset(t.vram + DEPTH_OFF, 0xFF, FW * FH * 4);
    for (i = 0; i < n; i++) {
        float w = 0.5f + 1.5f * ft_unit(&s);
        float *p = v + 8 * i;

        p[0] = (ft_unit(&s) * 2.6f - 1.3f) * w;
        p[1] = (ft_unit(&s) * 2.6f - 1.3f) * w;
        p[2] = (ft_unit(&s) * -1.3f + 0.1f) * w;
        p[3] = w;
        p[4] = ft_unit(&s), p[5] = ft_unit(&s);
        p[6] = ft_unit(&s), p[7] = ft_unit(&s);
    }
    if (bad) {
        /* vertices from a random one on lie past the end of FCRAM */
        vb = PT_RAM_SIZE - 32 * (n / 3 + ft_rand(&s) % (n - n / 3));
    }
    memcpy(t.ram + vb, v, MIN(n * 32, PT_RAM_SIZE - vb));
    budget = budgets[ft_rand(&s) % 4];

    cb_init(&b);
    pica_cmd_shader_passthrough(&b);
    if (wide) {
        /* vertices right of x/w = 0.37 land past 32768 */
        pica_cmd_viewport(&b, 48000, FH, -512, 0);
    } else {
        pica_cmd_viewport(&b, FW, FH, 0, 0);
    }
    pica_cmd_target(&b, FW, FH, PICA200_PHYS_VRAM, PICA_COLORFMT_RGBA8,
                    PICA200_PHYS_VRAM + DEPTH_OFF, PICA_DEPTH_D24S8);
    k = ft_rand(&s) % 3;
    pica_cmd_fragment(&b, k != 0, PICA_CMP_LESS, k != 0);
    if (k != 1) {
        /* alpha blending: the order of the triangles shows */
        pica_cmd_reg(&b, GPUREG_BLEND_FUNC, 0x76760000);
    }
    pica_cmd_attribs(&b, RAM_PA(BASE_OFF), PICA_F32X4, PICA_F32X4, 32);
    pica_cmd_reg(&b, PICA_ATTRIBBUFFER_OFFSET(0), vb - BASE_OFF);
    for (k = 0; k < ndraws; k++) {
        /* often the last draw's: its assembly state carries over */
        unsigned tp = k && ft_rand(&s) % 2 ? tp_last : topo[ft_rand(&s) % 4];
        uint32_t count = 1 + ft_rand(&s) % n, first = ft_rand(&s) % n;
        bool indexed = ft_rand(&s) % 2, u16 = ft_rand(&s) % 2;
        uint32_t icfg = (IDX_OFF + 0x800 * k) | (uint32_t)u16 << 31;

        if (indexed) {
            for (i = 0; i < count; i++) {
                uint32_t x = ft_rand(&s) % n;
                if (u16) {
                    t.ram[BASE_OFF + IDX_OFF + 0x800 * k + 2 * i] = x;
                    t.ram[BASE_OFF + IDX_OFF + 0x800 * k + 2 * i + 1] = x >> 8;
                } else {
                    t.ram[BASE_OFF + IDX_OFF + 0x800 * k + i] = x;
                }
            }
            first = 0;
        } else {
            count = MIN(count, n - first);
        }
        if (k == 0 || ft_rand(&s) % 2) {
            /* a render-state write: the next draw's first triangle makes
             * the snapshot, serially; without, a run may start the draw */
            pica_cmd_reg(&b, GPUREG_FACECULLING_CONFIG, ft_rand(&s) % 4);
        }
        tp_last = tp;
        if (k == 0 || tp != tp_last) {
            /* a write restarts assembly too (regs.c) */
            pica_cmd_regm(&b, GPUREG_PRIMITIVE_CONFIG, 0x2, tp << 8);
        }
        if (k == 0 || ft_rand(&s) % 2) {
            pica_cmd_reg(&b, GPUREG_RESTART_PRIMITIVE, 1);
        }
        pica_cmd_reg(&b, GPUREG_INDEXBUFFER_CONFIG,
                     indexed ? icfg : 0x80000000);
        pica_cmd_reg(&b, GPUREG_NUMVERTICES, count);
        pica_cmd_reg(&b, GPUREG_VERTEX_OFFSET, first);
        pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG2, 0x1, indexed ? 0 : 1);
        pica_cmd_regm(&b, GPUREG_START_DRAW_FUNC0, 0x1, 0);
        pica_cmd_reg(&b, indexed ? GPUREG_DRAWELEMENTS : GPUREG_DRAWARRAYS,
                     1);
        pica_cmd_regm(&b, GPUREG_START_DRAW_FUNC0, 0x1, 1);
        pica_cmd_regm(&b, GPUREG_GEOSTAGE_CONFIG2, 0x1, 0);
        pica_cmd_reg(&b, GPUREG_VTX_FUNC, 1);
    }
    pica_cmd_reg(&b, GPUREG_FRAMEBUFFER_FLUSH, 1);
    pica_cmd_finalize(&b);

    ft_log = r->errors;
    g_string_truncate(ft_log, 0);
    pt_kick(&t, &b, LIST_OFF);
    while (pica200_core_work(t.core, budget)) {
        g_assert_cmpuint(++calls, <, 100000);
    }
    ft_log = NULL;
    memcpy(r->color, t.vram, sizeof(r->color));
    memcpy(r->depth, t.vram + DEPTH_OFF, sizeof(r->depth));
    r->front_runs = pica200_front_runs(t.core);
    cb_free(&b);
    pt_free(&t);
}

static void test_front_threads(void)
{
    FtResult *r = g_new0(FtResult, 2);
    uint64_t runs[4] = { 0 };
    unsigned with_errors = 0, drawn = 0;
    uint32_t seed;
    int th;

    r[0].errors = g_string_new(NULL);
    r[1].errors = g_string_new(NULL);
    g3d_set_log_sink(ft_sink);
    for (seed = 0; seed < SEEDS; seed++) {
        ft_run(seed, 1, &r[0]);
        runs[1] += r[0].front_runs;
        with_errors += r[0].errors->len > 0;
        for (th = 0; th < FW * FH * 4; th++) {
            if (r[0].color[th]) {
                drawn++;
                break;
            }
        }
        for (th = 2; th <= 3; th++) {
            /* every other seed with bins of 5 entries: the batches
             * split in the middle of triangles (raster.c queue_triangle) */
            g3d_raster_bin_entries_max = seed % 2 ? 5 : 1u << 20;
            ft_run(seed, th, &r[1]);
            g3d_raster_bin_entries_max = 1u << 20;
            runs[th] += r[1].front_runs;
            if (memcmp(r[0].color, r[1].color, sizeof(r[0].color)) ||
                memcmp(r[0].depth, r[1].depth, sizeof(r[0].depth)) ||
                strcmp(r[0].errors->str, r[1].errors->str)) {
                g_test_message("seed %u, %d threads: colour %s, depth %s, "
                               "errors %s", seed, th,
                               memcmp(r[0].color, r[1].color,
                                      sizeof(r[0].color)) ? "differ" : "equal",
                               memcmp(r[0].depth, r[1].depth,
                                      sizeof(r[0].depth)) ? "differ" : "equal",
                               strcmp(r[0].errors->str, r[1].errors->str) ?
                               "differ" : "equal");
                g_test_message("1 thread:\n%s%d threads:\n%s",
                               r[0].errors->str, th, r[1].errors->str);
                g_assert_not_reached();
            }
        }
    }
    g3d_set_log_sink(NULL);
    g_test_message("front runs on the render threads: %" G_GUINT64_FORMAT
                   " (2 threads), %" G_GUINT64_FORMAT " (3); %u of %u lists "
                   "with guest errors, %u drew", runs[2], runs[3],
                   with_errors, SEEDS, drawn);
    /* the path under test ran, and so did the serial re-runs */
    g_assert_cmpuint(runs[1], ==, 0);
    g_assert_cmpuint(runs[2], >=, SEEDS);
    g_assert_cmpuint(runs[3], >=, SEEDS);
    g_assert_cmpuint(with_errors, >=, SEEDS / 8);
    g_assert_cmpuint(drawn, >=, SEEDS / 2);
    g_string_free(r[0].errors, TRUE);
    g_string_free(r[1].errors, TRUE);
    g_free(r);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/pica200/core/front-threads", test_front_threads);
    return g_test_run();
}
