/*
 * The front end on every render thread: a run of a draw's vertices (vertex
 * loader, XF, SU, clipper, setup) cut into chunks that the render threads
 * take, each staging its triangles (common/raster.h, G3DRasterStage); the
 * stages are then committed in the draw's order, so the bins, hence the
 * EFB, are those of the serial front end in cp-decode.c.
 *
 * A chunk starts from the assembly state the serial front end would have
 * there: a list's chunks start at a primitive's first vertex; a strip's
 * chunk first transforms the two vertices before it into the slots they
 * took (su.c), a fan's its centre and the vertex before it. A chunk whose
 * vertices or triangles would log a guest error stops; it and the chunks
 * after it are dropped and the decoder runs its vertices serially, which
 * logs in order. Draws of lines and points, and a GEN_MODE.ZFREEZE draw
 * (each triangle's depth plane depends on the one before), stay serial.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "flipper-int.h"

enum {
    FRONT_MIN_VERTS = 96,   /* fewer: one thread (waking costs more) */
    FRONT_CHUNK = 48,       /* vertices a chunk, at least */
    FRONT_CHUNKS = 64,      /* chunks a run, at most */
    /*
     * a draw's first run takes a vertex to cost two budget units (itself
     * and a small triangle's box), later ones what the last run's cost: a
     * draw of large triangles then stays serial
     */
    FRONT_COST16_FIRST = 32,
};

/* GX_DRAW_PRIM() (su.c) */
enum {
    PRIM_QUADS = 0, PRIM_QUADS_2 = 1, PRIM_TRIANGLES = 2, PRIM_STRIP = 3,
    PRIM_FAN = 4,
};

typedef struct FrontChunk {
    FlipperSU su;               /* the assembly state after the chunk */
    FlipperRasOut ras;
    bool failed;
} FrontChunk;

typedef struct FrontJob {
    FlipperCore *c;
    const GXDecoder *d;
    const uint8_t *buf;         /* the run's first vertex */
    const FlipperSU *su0;       /* the assembly state before the run */
    uint32_t next;              /* the next chunk to claim */
    uint32_t nchunks;
    uint32_t at[FRONT_CHUNKS + 1];  /* chunk u: vertices [at[u], at[u+1]) */
    G3DRasterStage *stage[FRONT_CHUNKS];
    FrontChunk out[FRONT_CHUNKS];
} FrontJob;

/* the run's vertex i through the loader and XF */
static void front_vertex(const FrontJob *j, uint32_t i, GXVertex *out)
{
    GXInVertex in;

    flipper_vtx_load(j->c, &j->d->fmt, j->buf + (size_t)i * j->d->fmt.size,
                     &in);
    flipper_xf_transform(j->c, &in, out);
}

/* su as the serial front end leaves it before the run's vertex `at` */
static void front_warm(const FrontJob *j, FlipperSU *su, uint32_t at)
{
    uint32_t first = j->su0->count;     /* the run's first vertex's index */
    uint32_t i;

    su->count = first + at;
    switch (su->prim) {
    case PRIM_STRIP:
        for (i = at - 2; i < at; i++) {
            front_vertex(j, i, &su->v[(first + i) % 3]);
        }
        break;
    case PRIM_FAN:
        if (first == 0) {
            front_vertex(j, 0, &su->v[0]);
        }
        front_vertex(j, at - 1, &su->v[1]);
        break;
    default:            /* a list's chunk starts at a primitive's start */
        break;
    }
}

static void front_job(void *arg, int thread)
{
    FrontJob *j = arg;
    uint32_t u, k;

    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           j->nchunks) {
        FrontChunk *o = &j->out[u];
        unsigned held = 0;

        memset(&o->ras, 0, sizeof(o->ras));
        o->su = *j->su0;
        g3d_log_hold(&held);
        flipper_ras_out(&o->ras);
        g3d_raster_stage_enter(j->stage[u]);
        if (u > 0) {
            front_warm(j, &o->su, j->at[u]);
        }
        for (k = j->at[u]; k < j->at[u + 1] && !held; k++) {
            GXVertex v;

            front_vertex(j, k, &v);
            flipper_su_vertex(j->c, &o->su, &v);
        }
        g3d_raster_stage_leave();
        flipper_ras_out(NULL);
        g3d_log_hold(NULL);
        o->failed = held != 0;
    }
}

/* the vertices `budget` pays for at the draw's last run's cost */
uint32_t flipper_front_paid(const GXDecoder *d, unsigned budget)
{
    return (uint32_t)MIN((uint64_t)budget * 16 /
                         (d->cost16 ? d->cost16 : FRONT_COST16_FIRST),
                         UINT32_MAX);
}

uint32_t flipper_front_run(FlipperCore *c, GXDecoder *d, const uint8_t *buf,
                           uint32_t n, unsigned *budget, uint32_t *serial)
{
    FrontJob j;
    uint32_t per, off = 0, group, u, done = 0;
    unsigned before = *budget;
    bool stop = false;

    /* as many vertices as the budget pays for, at the last run's cost */
    n = MIN(flipper_front_paid(d, *budget), n);
    *serial = n;
    if (n < FRONT_MIN_VERTS || d->fmt.size == 0 || d->prim > PRIM_FAN ||
        g3d_raster_threads(c->raster) < 2 || g3d_general_path ||
        flipper_force_general ||
        G3D_FIELD_EX32(c->bp[BP_GENMODE], BP_GENMODE_R, ZFREEZE)) {
        return 0;
    }
    /* made here: the chunks' setup reads it */
    flipper_tev_fast(c);
    group = d->prim <= PRIM_QUADS_2 ? 4 : d->prim == PRIM_TRIANGLES ? 3 : 1;
    per = MAX(FRONT_CHUNK, (n + FRONT_CHUNKS - 1) / FRONT_CHUNKS);
    per = (per + group - 1) / group * group;
    off = (group - c->su.count % group) % group;    /* a started primitive */
    j.c = c;
    j.d = d;
    j.buf = buf;
    j.su0 = &c->su;
    j.next = 0;
    j.nchunks = g3d_raster_chunks(j.at, FRONT_CHUNKS, off, per, n);
    for (u = 0; u < j.nchunks; u++) {
        j.stage[u] = g3d_raster_stage(c->raster, u);
    }
    g3d_raster_run_shared(c->raster, front_job, &j);

    for (u = 0; u < j.nchunks; u++) {
        FrontChunk *o = &j.out[u];

        if (stop || o->failed) {
            if (!stop) {
                *serial = j.at[u + 1] - j.at[u];
            }
            stop = true;
            g3d_raster_stage_drop(j.stage[u]);
            continue;
        }
        g3d_raster_stage_commit(c->raster, j.stage[u]);
        c->su = o->su;
        c->stats.triangles += o->ras.triangles;
        if (o->ras.zfreeze_set) {
            c->zfreeze = o->ras.zfreeze;
        }
        done = j.at[u + 1];
        c->work_px += o->ras.px;
        flipper_charge(c, budget, j.at[u + 1] - j.at[u]);
        if (*budget == 0) {
            *serial = 0;            /* spent: the draw goes on next step */
            stop = true;
        }
    }
    if (!stop) {
        *serial = 0;
    }
    if (done) {
        d->cost16 = (uint32_t)MIN((uint64_t)(before - *budget) * 16 / done,
                                  (uint64_t)UINT32_MAX);
        d->cost16 = MAX(d->cost16, 1);
    }
    c->front_runs++;
    return done;
}

uint64_t flipper_front_runs(FlipperCore *c)
{
    return c->front_runs;
}
