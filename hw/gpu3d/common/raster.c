/*
 * The shared triangle rasteriser: setup with exact integer edge functions,
 * tile-owned traversal in 2x2 quads, barycentric weights.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "raster.h"
#include "g3d-core.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

const G3DRasterRules g3d_rules_top_left_16 = {
    .subpixels = 16, .sample_x = 8, .sample_y = 8,
    .edge_in = G3D_EDGE_TOP | G3D_EDGE_LEFT,
};

/*
 * Positions are limited so that every edge function value fits in int64
 * with room to step: |coordinate| < 2^28 grid steps gives products < 2^57.
 */
#define COORD_LIMIT (1 << 28)

typedef struct Edge {
    int64_t a, b, c;   /* E(sx, sy) = a*sx + b*sy + c, exact */
    int64_t bias;      /* 0 if samples on the edge are in, -1 if out */
} Edge;

typedef struct SetupTri {
    Edge e[3];          /* edge k is opposite vertex k */
    int64_t area;       /* E_k at vertex k, > 0 */
    double inv_area;
    float inv_w[3];
    uint8_t perm[3];    /* perm[k]: caller's index of internal vertex k */
    G3DRect box;        /* covered pixels are inside: bbox met with clip */
    const G3DRasterRules *rules;
    G3DQuadFn *shade;
    void *user;
    bool no_weights;
} SetupTri;

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size, used;
    /* data follows, 16-aligned */
} ArenaBlock;

#define ARENA_BLOCK (1u << 20)

struct G3DRaster {
    G3DThreadPool *pool;
    SetupTri *tris;
    size_t ntris, cap;
    ArenaBlock *arena;          /* current block first */
    uint64_t batch_pixels;      /* sum of the queued triangles' boxes */
    uint64_t *thread_quads;     /* per-thread counters, summed at flush */
    uint64_t *thread_samples;
    G3DRasterStats stats;
    G3DPreempt *preempt;        /* of the thread that queued the batch */
};

static inline int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static inline int64_t ceil_div(int64_t a, int64_t b)
{
    return -floor_div(-a, b);
}

G3DRaster *g3d_raster_new(int threads)
{
    G3DRaster *r = g_new0(G3DRaster, 1);

    if (threads < 1) {
        threads = 1;
    }
    r->pool = g3d_pool_new(threads);
    r->thread_quads = g_new0(uint64_t, threads);
    r->thread_samples = g_new0(uint64_t, threads);
    return r;
}

void g3d_raster_free(G3DRaster *r)
{
    ArenaBlock *b, *next;

    if (!r) {
        return;
    }
    g3d_pool_free(r->pool);
    for (b = r->arena; b; b = next) {
        next = b->next;
        g_free(b);
    }
    g_free(r->tris);
    g_free(r->thread_quads);
    g_free(r->thread_samples);
    g_free(r);
}

int g3d_raster_threads(const G3DRaster *r)
{
    return g3d_pool_threads(r->pool);
}

void *g3d_raster_alloc(G3DRaster *r, size_t size)
{
    ArenaBlock *b = r->arena;
    size_t hdr = (sizeof(ArenaBlock) + 15) & ~(size_t)15;
    void *p;

    size = (size + 15) & ~(size_t)15;
    if (!b || b->size - b->used < size) {
        size_t bsize = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = g_malloc(hdr + bsize);
        b->size = bsize;
        b->used = 0;
        b->next = r->arena;
        r->arena = b;
    }
    p = (uint8_t *)b + hdr + b->used;
    b->used += size;
    return p;
}

static void arena_reset(G3DRaster *r)
{
    ArenaBlock *b = r->arena, *next;

    if (!b) {
        return;
    }
    /* keep one block for the next batch, free the rest */
    for (next = b->next; next; ) {
        ArenaBlock *n = next->next;
        g_free(next);
        next = n;
    }
    b->next = NULL;
    b->used = 0;
    if (b->size > ARENA_BLOCK) {
        g_free(b);
        r->arena = NULL;
    }
}

static uint8_t classify(int64_t dx, int64_t dy, bool vertical_first)
{
    if (vertical_first) {
        if (dx == 0) {
            return dy > 0 ? G3D_EDGE_RIGHT : G3D_EDGE_LEFT;
        }
        return dx > 0 ? G3D_EDGE_TOP : G3D_EDGE_BOTTOM;
    }
    if (dy == 0) {
        return dx > 0 ? G3D_EDGE_TOP : G3D_EDGE_BOTTOM;
    }
    return dy > 0 ? G3D_EDGE_RIGHT : G3D_EDGE_LEFT;
}

bool g3d_raster_triangle(G3DRaster *r, const G3DTriangle *t)
{
    const G3DRasterRules *rules = t->rules;
    const G3DRasterVertex *v[3] = { &t->v[0], &t->v[1], &t->v[2] };
    int64_t S = rules->subpixels;
    int64_t area, minx, maxx, miny, maxy;
    SetupTri *st;
    int k;

    for (k = 0; k < 3; k++) {
        if (v[k]->x <= -COORD_LIMIT || v[k]->x >= COORD_LIMIT ||
            v[k]->y <= -COORD_LIMIT || v[k]->y >= COORD_LIMIT) {
            return false;
        }
    }
    area = (int64_t)(v[1]->x - v[0]->x) * (v[2]->y - v[0]->y) -
           (int64_t)(v[1]->y - v[0]->y) * (v[2]->x - v[0]->x);
    if (area == 0) {
        return false;
    }
    r->preempt = g3d_preempt_current;
    if (r->ntris == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->tris = g_renew(SetupTri, r->tris, r->cap);
    }
    st = &r->tris[r->ntris];
    st->perm[0] = 0;
    st->perm[1] = 1;
    st->perm[2] = 2;
    if (area < 0) {
        /* make the internal order positive so "inside" is E >= 0 */
        const G3DRasterVertex *tmp = v[1];
        v[1] = v[2];
        v[2] = tmp;
        st->perm[1] = 2;
        st->perm[2] = 1;
        area = -area;
    }
    st->area = area;
    st->inv_area = 1.0 / (double)area;

    for (k = 0; k < 3; k++) {
        const G3DRasterVertex *a = v[(k + 1) % 3], *b = v[(k + 2) % 3];
        int64_t dx = (int64_t)b->x - a->x, dy = (int64_t)b->y - a->y;
        Edge *e = &st->e[k];

        e->a = -dy;
        e->b = dx;
        e->c = dy * a->x - dx * a->y;
        e->bias = (classify(dx, dy, rules->vertical_first) & rules->edge_in)
                  ? 0 : -1;
        st->inv_w[k] = v[k]->inv_w;
    }

    /* pixels whose sample point can lie inside the vertices' box */
    minx = MIN(MIN(v[0]->x, v[1]->x), v[2]->x);
    maxx = MAX(MAX(v[0]->x, v[1]->x), v[2]->x);
    miny = MIN(MIN(v[0]->y, v[1]->y), v[2]->y);
    maxy = MAX(MAX(v[0]->y, v[1]->y), v[2]->y);
    st->box.x0 = MAX(ceil_div(minx - rules->sample_x, S), MAX(t->clip.x0, 0));
    st->box.x1 = MIN(floor_div(maxx - rules->sample_x, S) + 1, t->clip.x1);
    st->box.y0 = MAX(ceil_div(miny - rules->sample_y, S), MAX(t->clip.y0, 0));
    st->box.y1 = MIN(floor_div(maxy - rules->sample_y, S) + 1, t->clip.y1);
    if (st->box.x0 >= st->box.x1 || st->box.y0 >= st->box.y1) {
        return false;
    }
    st->rules = rules;
    st->shade = t->shade;
    st->user = t->user;
    st->no_weights = t->no_weights;
    r->batch_pixels += (uint64_t)(st->box.x1 - st->box.x0) *
                       (st->box.y1 - st->box.y0);
    r->ntris++;
    r->stats.triangles++;
    return true;
}

static void quad_weights(const SetupTri *st, G3DQuad *q, const int64_t E[4][3])
{
    int i, k;

    for (i = 0; i < 4; i++) {
        float lin[3], p[3];
        double r;

        /*
         * Multiply by reciprocals in double: a product within an ulp of 1.0
         * (or exactly 0) rounds to exactly 1.0f (0.0f), so a vertex weighs
         * exactly 1 at itself and 0 at the others.
         */
        for (k = 0; k < 3; k++) {
            lin[k] = (float)((double)E[i][k] * st->inv_area);
            p[k] = lin[k] * st->inv_w[k];
        }
        r = (double)p[0] + (double)p[1] + (double)p[2];
        r = r != 0.0 ? 1.0 / r : 0.0;
        for (k = 0; k < 3; k++) {
            q->lin[i][st->perm[k]] = lin[k];
            q->bary[i][st->perm[k]] = r != 0.0 ? (float)(p[k] * r) : lin[k];
        }
    }
}

/* covered samples of a quad's 4-bit mask: __builtin_popcount is a libgcc
 * call without popcnt in the baseline x86-64 ISA */
static const uint8_t quad_samples[16] = { 0, 1, 1, 2, 1, 2, 2, 3,
                                          1, 2, 2, 3, 2, 3, 3, 4 };

static void emit_quad(const SetupTri *st, int qx, int qy, uint32_t mask,
                      const int64_t E[4][3], int thread, uint64_t *nquads,
                      uint64_t *nsamples)
{
    G3DQuad q;

    q.x = qx;
    q.y = qy;
    q.mask = mask;
    if (!st->no_weights) {
        quad_weights(st, &q, E);
    }
    st->shade(st->user, &q, thread);
    (*nquads)++;
    *nsamples += quad_samples[mask & 15];
}

#define BLOCK 8                 /* pixels; the tile size is a multiple */

/*
 * One tile's part of a triangle, in 8x8 blocks: a block whose samples are
 * all outside one edge is skipped; a block whose samples are all inside
 * every edge (and the box) is covered without testing each sample.
 */
static void raster_tile(const SetupTri *st, int x0, int y0, int x1, int y1,
                        int thread, uint64_t *nquads, uint64_t *nsamples)
{
    const int64_t S = st->rules->subpixels;
    const int64_t sx0 = st->rules->sample_x, sy0 = st->rules->sample_y;
    int64_t step_x[3], step_y[3];
    int bx, by, k;

    for (k = 0; k < 3; k++) {
        step_x[k] = st->e[k].a * S;
        step_y[k] = st->e[k].b * S;
    }
    for (by = y0 & ~(BLOCK - 1); by < y1; by += BLOCK) {
        for (bx = x0 & ~(BLOCK - 1); bx < x1; bx += BLOCK) {
            /* the block's samples, clipped to the box, even-aligned */
            int cx0 = MAX(bx, x0) & ~1, cy0 = MAX(by, y0) & ~1;
            int cx1 = MIN(bx + BLOCK, x1), cy1 = MIN(by + BLOCK, y1);
            int64_t base[3];
            bool all_in = true, out = false;
            int qx, qy;

            for (k = 0; k < 3 && !out; k++) {
                const Edge *e = &st->e[k];
                /* E is linear: its extremes are at the block's corners */
                int64_t e00 = e->a * (cx0 * S + sx0) + e->b * (cy0 * S + sy0) +
                              e->c + e->bias;
                int64_t ex = step_x[k] * (cx1 - 1 - cx0);
                int64_t ey = step_y[k] * (cy1 - 1 - cy0);
                int64_t lo = e00 + MIN(ex, 0) + MIN(ey, 0);
                int64_t hi = e00 + MAX(ex, 0) + MAX(ey, 0);
                out = hi < 0;
                all_in &= lo >= 0;
                base[k] = e00 - e->bias;
            }
            if (out) {
                continue;
            }
            all_in &= cx0 >= x0 && cy0 >= y0;
            for (qy = cy0; qy < cy1; qy += 2) {
                int64_t row[3];
                for (k = 0; k < 3; k++) {
                    row[k] = base[k] + step_y[k] * (qy - cy0);
                }
                for (qx = cx0; qx < cx1; qx += 2) {
                    int64_t E[4][3];
                    uint32_t mask = 0;
                    int i;

                    for (k = 0; k < 3; k++) {
                        int64_t cur = row[k] + step_x[k] * (qx - cx0);
                        E[0][k] = cur;
                        E[1][k] = cur + step_x[k];
                        E[2][k] = cur + step_y[k];
                        E[3][k] = cur + step_x[k] + step_y[k];
                    }
                    if (all_in && qx + 1 < cx1 && qy + 1 < cy1) {
                        mask = 0xF;
                    } else {
                        for (i = 0; i < 4; i++) {
                            int px = qx + (i & 1), py = qy + (i >> 1);
                            if (E[i][0] + st->e[0].bias >= 0 &&
                                E[i][1] + st->e[1].bias >= 0 &&
                                E[i][2] + st->e[2].bias >= 0 &&
                                px >= x0 && px < x1 && py >= y0 && py < y1) {
                                mask |= 1u << i;
                            }
                        }
                    }
                    if (mask) {
                        emit_quad(st, qx, qy, mask, E, thread, nquads,
                                  nsamples);
                    }
                }
            }
        }
    }
}

/*
 * Batches smaller than this many candidate pixels run on the calling thread
 * alone: waking helpers costs more than the work. The image is the same,
 * since which thread runs a tile never changes what the tile gets.
 */
#define SERIAL_BATCH_PIXELS 4096

static void raster_batch(G3DRaster *r, int thread, int threads)
{
    uint64_t nquads = 0, nsamples = 0;
    size_t n;
    bool abandon = false;

    for (n = 0; n < r->ntris && !abandon; n++) {
        const SetupTri *st = &r->tris[n];
        int tx0 = st->box.x0 / G3D_TILE_SIZE, tx1 = (st->box.x1 - 1) / G3D_TILE_SIZE;
        int ty0 = st->box.y0 / G3D_TILE_SIZE, ty1 = (st->box.y1 - 1) / G3D_TILE_SIZE;
        int tx, ty;

        /* box.x0/y0 >= 0 (setup clamps the clip), so / rounds down */
        for (ty = ty0; ty <= ty1; ty++) {
            for (tx = tx0; tx <= tx1; tx++) {
                if (g3d_tile_owner(tx, ty, threads) != thread) {
                    continue;
                }
                /* at most G3D_TILE_SIZE^2 pixels of one triangle apart */
                if (g3d_yield()) {
                    abandon = true;
                    break;
                }
                raster_tile(st,
                            MAX(st->box.x0, tx * G3D_TILE_SIZE),
                            MAX(st->box.y0, ty * G3D_TILE_SIZE),
                            MIN(st->box.x1, (tx + 1) * G3D_TILE_SIZE),
                            MIN(st->box.y1, (ty + 1) * G3D_TILE_SIZE),
                            thread, &nquads, &nsamples);
            }
            if (abandon) {
                break;
            }
        }
    }
    r->thread_quads[thread] += nquads;
    r->thread_samples[thread] += nsamples;
}

static void raster_job(void *arg, int thread)
{
    G3DRaster *r = arg;

    raster_batch(r, thread, g3d_pool_threads(r->pool));
}

void g3d_raster_flush(G3DRaster *r)
{
    int t, threads = g3d_pool_threads(r->pool);

    if (g3d_preempt_foreign(r->preempt)) {
        /*
         * Another thread (an MMIO read that needs the picture) while the
         * thread that queued the batch is parked in the middle of it: that
         * thread flushes when it resumes; the caller sees the work so far.
         */
        return;
    }
    if (r->ntris) {
        if (threads == 1 || r->batch_pixels < SERIAL_BATCH_PIXELS) {
            raster_batch(r, 0, 1);
        } else {
            g3d_pool_run(r->pool, raster_job, r);
        }
        r->batch_pixels = 0;
        r->ntris = 0;
        r->stats.flushes++;
        for (t = 0; t < threads; t++) {
            r->stats.quads += r->thread_quads[t];
            r->stats.samples += r->thread_samples[t];
            r->thread_quads[t] = r->thread_samples[t] = 0;
        }
    }
    arena_reset(r);
}

void g3d_raster_stats(G3DRaster *r, G3DRasterStats *out)
{
    *out = r->stats;
}
