/*
 * A list's vertices set up on every render thread: a run of the list
 * (parser fetch, G/L, clipping, setup) cut into chunks that the render
 * threads take, each staging its triangles (common/raster.h,
 * G3DRasterStage); the stages are committed in the list's order, so the
 * bins, hence the picture, are those of the serial parser (parser.c).
 *
 * Each render thread runs its chunks on a copy of the core taken at the
 * run's start: the front end reads the registers there and writes its
 * counters, its assembly state and the setup registers (1C00h, 1CA0h-
 * 1D6Fh, setup.c) there. What a chunk leaves is carried to the core when
 * it is committed: the counters, the assembly state, and the setup
 * registers of its last triangle, as the serial setup leaves them.
 *
 * A chunk starts from the assembly state the serial parser has there: a
 * list's chunks start at a triangle's first vertex; a strip's chunk first
 * takes the two vertices before it through G/L into the slots they took,
 * a fan's the vertex before it (the centre is the core's). A chunk that
 * would log a guest error or count one stops; it and the chunks after it
 * are dropped and the parser runs its vertices serially, which logs in
 * order. The serial setup flushes where the rasteriser's queue reaches
 * its bound and decodes the state again: where that happens changes no
 * pixel (draws whose tiles' order shows stay serial), but a decode that
 * logs shows there; for such a state a chunk whose triangles would reach
 * the bound stops as well, and for any other a run starts with that flush
 * once the queue is past it. Lines, points, fill modes other than solid, the register vertex
 * path, a list before its first triangle made the render state (making it
 * may log) and a draw whose tiles' order shows (render.c
 * tile_order_shows) stay serial.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <string.h>

enum {
    FRONT_MIN_VERTS = 96,   /* fewer: one thread (waking costs more) */
    FRONT_CHUNK = 48,       /* vertices a chunk, at least */
    FRONT_CHUNKS = 64,      /* chunks a run, at most */
    /* vertices a chunk, at most: with clipping (at most eight triangles
     * a triangle) a chunk stays below GLAMO_FLUSH_TRIANGLES */
    FRONT_CHUNK_MAX = 256,
    FRONT_THREADS = 16,     /* render threads with a copy of the core */
};

/* the setup registers: vertices a-c (1C00h) to EGSshft (1D6Ch) */
#define SETUP_REGS     GLAMO_RGX_VTX(0)
#define SETUP_REGS_END (A_EGSshft + 4)

typedef struct FrontChunk {
    GlamoAssembly asmb;         /* after the chunk */
    GlamoStats stats;           /* the chunk's counts */
    uint32_t setups;
    bool drawdir;               /* the last triangle's EGSDrawDIR */
    bool failed;
    uint16_t setup_regs[(SETUP_REGS_END - SETUP_REGS) / 2];
} FrontChunk;

typedef struct GlamoFrontJob {
    GlamoCore *c;
    uint32_t first;             /* the run's first list vertex */
    uint32_t next;              /* the next chunk to claim */
    uint32_t nchunks;
    uint32_t at[FRONT_CHUNKS + 1];  /* chunk u: run vertices [at[u], at[u+1]) */
    G3DRasterStage *stage[FRONT_CHUNKS];
    FrontChunk out[FRONT_CHUNKS];
    GlamoCore *core[FRONT_THREADS];     /* each render thread's copy */
    bool copied[FRONT_THREADS];         /* taken in this run */
} GlamoFrontJob;

/* list vertex k through the parser and G/L */
static bool front_vertex(GlamoCore *tc, uint32_t k, GlamoClipVertex *out)
{
    GlamoVertex v;

    if (!glamo_parser_fetch(tc, k, &v)) {
        return false;
    }
    glamo_vertex_gl(tc, &v, out);
    return true;
}

/* tc's assembly as the serial parser leaves it before run vertex `at` > 0 */
static bool front_warm(GlamoCore *tc, const GlamoFrontJob *j, uint32_t at)
{
    GlamoAssembly *a = &tc->asmb;
    uint32_t k = j->first + at;

    a->count = j->c->asmb.count + at;
    switch (GLAMO_FIELD(tc, EGPrim1, EGPDTYPE)) {
    case GLAMO_PRIM_TRIANGLE_STRIP:
        /* at >= FRONT_CHUNK: both vertices are the run's */
        return front_vertex(tc, k - 2, &a->v[0]) &&
               front_vertex(tc, k - 1, &a->v[1]);
    case GLAMO_PRIM_TRIANGLE_FAN:
        if (j->c->asmb.count == 0 &&
            !front_vertex(tc, j->first, &a->v[0])) {
            return false;
        }
        return front_vertex(tc, k - 1, &a->v[1]);
    default:            /* a list's chunk starts at a triangle's start */
        return true;
    }
}

static void front_job(void *arg, int thread)
{
    GlamoFrontJob *j = arg;
    GlamoCore *tc = j->core[thread];
    uint32_t u, k;

    if (!j->copied[thread]) {
        memcpy(tc, j->c, sizeof(*tc));
        j->copied[thread] = true;
    }
    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           j->nchunks) {
        FrontChunk *o = &j->out[u];
        uint32_t errors = tc->errors.count;
        unsigned held = 0;
        bool ok;

        tc->asmb = j->c->asmb;
        memset(&tc->stats, 0, sizeof(tc->stats));
        tc->setups = 0;
        tc->raster_pending = 0;
        g3d_log_hold(&held);
        g3d_raster_stage_enter(j->stage[u]);
        ok = u == 0 || front_warm(tc, j, j->at[u]);
        for (k = j->at[u]; ok && !held && k < j->at[u + 1]; k++) {
            GlamoVertex v;

            ok = glamo_parser_fetch(tc, j->first + k, &v);
            if (ok) {
                glamo_assemble(tc, &v);
            }
        }
        g3d_raster_stage_leave();
        g3d_log_hold(NULL);
        o->failed = !ok || held || tc->errors.count != errors;
        o->asmb = tc->asmb;
        o->stats = tc->stats;
        o->setups = tc->setups;
        o->drawdir = tc->last_drawdir;
        if (tc->setups) {
            memcpy(o->setup_regs, &tc->regs[SETUP_REGS >> 1],
                   sizeof(o->setup_regs));
        }
    }
}

/* may this list's vertices run as chunks? */
static bool front_fits(GlamoCore *c, uint32_t *group)
{
    const GlamoRenderState *rs = c->rs;
    int threads = g3d_raster_threads(c->raster);

    if (threads < 2 || threads > FRONT_THREADS || g3d_general_path ||
        !c->vram || !rs || c->rs_dirty || !rs->valid || rs->serial_tiles ||
        (c->raster_pending >= GLAMO_FLUSH_TRIANGLES && c->rs_logs)) {
        return false;
    }
    if (GLAMO_FIELD(c, EGPrim0, EGFillMode) != GLAMO_FILL_SOLID ||
        (GLAMO_FIELD(c, RGXFEN0, RGXen2SideFill) &&
         GLAMO_FIELD(c, EGPrim0, EGPCCWFillMode) != GLAMO_FILL_SOLID)) {
        return false;
    }
    switch (GLAMO_FIELD(c, EGPrim1, EGPDTYPE)) {
    case GLAMO_PRIM_TRIANGLES:
    case GLAMO_PRIM_TRIANGLES2:
        *group = 3;
        return true;
    case GLAMO_PRIM_TRIANGLE_STRIP:
    case GLAMO_PRIM_TRIANGLE_FAN:
        *group = 1;
        return true;
    default:
        return false;
    }
}

unsigned glamo_front_run(GlamoCore *c, unsigned units)
{
    GlamoParser *p = &c->parser;
    GlamoFrontJob *j = c->front;
    uint32_t n, per, off, group, u, done = 0;
    int t, threads = g3d_raster_threads(c->raster);
    bool stop = false;

    n = (uint32_t)MIN((uint64_t)units * 64,
                      (uint64_t)FRONT_CHUNKS * FRONT_CHUNK_MAX);
    n = MIN(n, p->total - p->next);
    if (n < FRONT_MIN_VERTS || !front_fits(c, &group)) {
        return 0;
    }
    if (c->raster_pending >= GLAMO_FLUSH_TRIANGLES) {
        /*
         * The flush the serial setup makes at its next triangle, and the
         * state decoded again (the same state: no register changes during
         * a list, and its decode does not log)
         */
        glamo_setup_state(c);
    }
    if (!j) {
        j = c->front = g_new0(GlamoFrontJob, 1);
    }
    for (t = 0; t < threads; t++) {
        if (!j->core[t]) {
            j->core[t] = g_new(GlamoCore, 1);
        }
        j->copied[t] = false;
    }
    per = MAX(FRONT_CHUNK, (n + FRONT_CHUNKS - 1) / FRONT_CHUNKS);
    per = (per + group - 1) / group * group;
    off = (group - c->asmb.count % group) % group;  /* a begun triangle */
    j->c = c;
    j->first = p->next;
    j->next = 0;
    j->nchunks = g3d_raster_chunks(j->at, FRONT_CHUNKS, off, per, n);
    for (u = 0; u < j->nchunks; u++) {
        j->stage[u] = g3d_raster_stage(c->raster, u);
    }
    g3d_raster_run_shared(c->raster, front_job, j);

    for (u = 0; u < j->nchunks; u++) {
        FrontChunk *o = &j->out[u];

        if (!stop && (o->failed ||
                      (c->rs_logs && c->raster_pending +
                       o->stats.primitives >= GLAMO_FLUSH_TRIANGLES))) {
            stop = true;        /* the parser goes on from here serially */
        }
        if (stop) {
            g3d_raster_stage_drop(j->stage[u]);
            continue;
        }
        g3d_raster_stage_commit(c->raster, j->stage[u]);
        c->raster_pending += o->stats.primitives;
        c->stats.vertices += o->stats.vertices;
        c->stats.primitives += o->stats.primitives;
        c->stats.fast_primitives += o->stats.fast_primitives;
        c->stats.span_primitives += o->stats.span_primitives;
        c->stats.flat_primitives += o->stats.flat_primitives;
        c->stats.culled += o->stats.culled;
        c->asmb = o->asmb;
        if (o->setups) {
            memcpy(&c->regs[SETUP_REGS >> 1], o->setup_regs,
                   sizeof(o->setup_regs));
            c->last_drawdir = o->drawdir;
            c->setups += o->setups;
        }
        done = j->at[u + 1];
    }
    if (!done) {
        return 0;
    }
    p->next += done;
    if (p->next >= p->total) {
        p->active = false;
    }
    c->stats.front_runs++;
    return (done + 63) / 64;
}

void glamo_front_free(GlamoCore *c)
{
    int t;

    if (!c->front) {
        return;
    }
    for (t = 0; t < FRONT_THREADS; t++) {
        g_free(c->front->core[t]);
    }
    g_free(c->front);
    c->front = NULL;
}
