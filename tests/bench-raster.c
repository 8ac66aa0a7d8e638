/*
 * Benchmark of the shared rasteriser: Mpixels/s and Mtriangles/s for fixed
 * scenes (flat fill, Gouraud, small triangles) at 1..N threads, beside a
 * memory-bandwidth baseline (memset/memcpy of a frame) from the same run.
 *
 *   bench-raster [seconds-per-case [max-threads [case-substring]]]
 *
 * A negative seconds-per-case -N draws exactly N batches of 256 triangles
 * (for instruction counts: valgrind --tool=callgrind --toggle-collect=run
 * bench-raster -20 1 Gouraud).
 *
 * The "staged" cases set their triangles up as the chips' front ends do
 * at two threads or more: on every render thread, in chunks of 16 into the
 * raster's stages, committed in order by the driving thread
 * (g3d_raster_stage_commit); at one thread queued directly, as the chips
 * do. The others queue every triangle on the bench's own thread, whose
 * set-up (a third of a 2-pixel batch's instructions, docs/performance.md
 * "Branch small18") no render thread can take.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/raster.h"
#include "bench-row.h"
#include "bench-env.h"

#define FW 1024
#define FH 768

static uint32_t frame[FH * FW];

typedef struct Scene {
    float col[3][4];
} Scene;

static void shade_flat(void *opaque, const G3DQuad *q, int thread)
{
    int i;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            frame[(q->y + (i >> 1)) * FW + q->x + (i & 1)] = 0xff3366cc;
        }
    }
}

static void shade_gouraud(void *opaque, const G3DQuad *q, int thread)
{
    const Scene *s = opaque;
    int i, c;

    for (i = 0; i < 4; i++) {
        if (q->mask & (1u << i)) {
            uint32_t px = 0;
            for (c = 0; c < 4; c++) {
                float v = g3d_interp(q->bary[i], s->col[0][c], s->col[1][c],
                                     s->col[2][c]);
                px |= (uint32_t)(v * 255.0f + 0.5f) << (8 * c);
            }
            frame[(q->y + (i >> 1)) * FW + q->x + (i & 1)] = px;
        }
    }
}

static double now(void)
{
    return g_get_monotonic_time() / 1e6;
}

typedef struct Result {
    double mpix, mtri;
} Result;

/* A case's triangles: about `size` pixels a side, the box's corner at x, y */
typedef struct Case {
    G3DQuadFn *fn;
    int size;
    bool weights;
} Case;

static bool queue_tri(G3DRaster *r, const Case *c, int x, int y)
{
    static Scene scene = { { { 1, 0, 0, 1 }, { 0, 1, 0, 1 }, { 0, 0, 1, 1 } } };
    G3DTriangle tri = {
        .v = { { x * 16, y * 16, 1.0f },
               { (x + c->size) * 16 + 5, y * 16 + 3, 0.5f },
               { x * 16 + 7, (y + c->size) * 16 + 9, 0.25f } },
        .clip = { 0, 0, FW, FH },
        .rules = &g3d_rules_top_left_16,
        .shade = c->fn, .user = &scene, .no_weights = !c->weights,
    };

    return g3d_raster_triangle(r, &tri);
}

#define STAGE_CHUNK 16              /* triangles a stage, as the chips' */
#define STAGE_CHUNKS (256 / STAGE_CHUNK)

typedef struct StageJob {
    G3DRaster *r;
    const Case *c;
    uint64_t first;                 /* the batch's first triangle's number */
    unsigned next;                  /* the next chunk to take (atomic) */
    G3DRasterStage *stage[STAGE_CHUNKS];
} StageJob;

/*
 * Triangle n's place from n alone (a 64-bit mix, splitmix64's finaliser),
 * so that whichever thread sets it up, the batch is the same
 */
static void staged_tri(G3DRaster *r, const Case *c, uint64_t n)
{
    uint64_t h = (n + 1) * 0x9e3779b97f4a7c15ull;

    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    queue_tri(r, c, (int)((uint32_t)h % (FW - c->size)),
              (int)((uint32_t)(h >> 32) % (FH - c->size)));
}

static void stage_job(void *arg, int thread)
{
    StageJob *j = arg;
    unsigned u, i;

    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           STAGE_CHUNKS) {
        g3d_raster_stage_enter(j->stage[u]);
        for (i = u * STAGE_CHUNK; i < (u + 1) * STAGE_CHUNK; i++) {
            staged_tri(j->r, j->c, j->first + i);
        }
        g3d_raster_stage_leave();
    }
}

/* a staged case's batch: set up on the render threads, then committed */
static void staged_batch(G3DRaster *r, const Case *c, uint64_t first)
{
    StageJob j = { .r = r, .c = c, .first = first };
    unsigned u;

    if (g3d_raster_threads(r) == 1) {
        for (u = 0; u < 256; u++) {
            staged_tri(r, c, first + u);
        }
        return;
    }
    for (u = 0; u < STAGE_CHUNKS; u++) {
        j.stage[u] = g3d_raster_stage(r, u);
    }
    g3d_raster_run_shared(r, stage_job, &j);
    for (u = 0; u < STAGE_CHUNKS; u++) {
        g3d_raster_stage_commit(r, j.stage[u]);
    }
}

/*
 * Draw batches of 256 triangles of about `size` pixels per edge, for
 * `seconds` (or -seconds batches). Not inlined: callgrind's toggle-collect
 * counts one case.
 */
static __attribute__((noinline)) Result run(int threads, const Case *c,
                                            bool staged, double seconds)
{
    G3DRaster *r = g3d_raster_new(threads);
    G3DRasterStats st;
    GRand *rnd = g_rand_new_with_seed(7);
    double t0 = now(), t;
    uint64_t tris = 0, batches = 0;
    Result res;

    do {
        int i;
        if (staged) {
            staged_batch(r, c, tris);
        } else {
            for (i = 0; i < 256; i++) {
                int x = g_rand_int_range(rnd, 0, FW - c->size);
                queue_tri(r, c, x, g_rand_int_range(rnd, 0, FH - c->size));
            }
        }
        g3d_raster_flush(r);
        tris += 256;
        batches++;
        t = now() - t0;
    } while (seconds < 0 ? batches < -seconds : t < seconds);
    g3d_raster_stats(r, &st);
    res.mpix = st.samples / t / 1e6;
    res.mtri = tris / t / 1e6;
    g_rand_free(rnd);
    g3d_raster_free(r);
    return res;
}

static double bandwidth(bool copy, double seconds)
{
    static uint32_t src[FH * FW];
    double t0 = now(), t;
    long n = 0;

    do {
        if (copy) {
            memcpy(frame, src, sizeof(frame));
        } else {
            memset(frame, (int)n, sizeof(frame));
        }
        n++;
        t = now() - t0;
    } while (t < seconds);
    /* Mpixels/s of 32-bit pixels */
    return (double)n * FW * FH / t / 1e6;
}

int main(int argc, char **argv)
{
    double secs = argc > 1 ? atof(argv[1]) : 0.5;
    int maxt = argc > 2 ? atoi(argv[2]) : g3d_default_threads(), t;
    const char *only = argc > 3 ? argv[3] : "";
    static const struct {
        const char *name;
        Case c;
        bool staged;
    } cases[] = {
        { "flat fill, 256px triangles", { shade_flat, 256, false } },
        { "Gouraud, 256px triangles", { shade_gouraud, 256, true } },
        { "Gouraud, 8px triangles", { shade_gouraud, 8, true } },
        { "flat, 2px triangles", { shade_flat, 2, false } },
        { "Gouraud, staged, 8px triangles", { shade_gouraud, 8, true }, true },
        { "flat, staged, 2px triangles", { shade_flat, 2, false }, true },
    };
    unsigned c;

    /* GPU3D_BENCH_SIMD, GPU3D_BENCH_SPIN_US (bench-env.h) */
    bench_simd_from_env();

    printf("baseline: memset %.0f Mpixels/s, memcpy %.0f Mpixels/s "
           "(32-bit pixels, %dx%d frame)\n",
           bandwidth(false, fabs(secs)), bandwidth(true, fabs(secs)), FW, FH);
    for (c = 0; c < G_N_ELEMENTS(cases); c++) {
        if (!strstr(cases[c].name, only)) {
            continue;
        }
        for (t = 1; t <= maxt; t++) {
            Result r = run(t, &cases[c].c, cases[c].staged, secs);
            printf("%-30s threads %d: %8.1f Mpixels/s %8.3f Mtriangles/s\n",
                   cases[c].name, t, r.mpix, r.mtri);
            bench_row("raster", cases[c].name, t, r.mpix, "Mpix/s");
        }
    }
    return 0;
}
