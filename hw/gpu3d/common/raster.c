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

#ifdef __SSE2__
#include <emmintrin.h>
#endif

const G3DRasterRules g3d_rules_top_left_16 = {
    .subpixels = 16, .sample_x = 8, .sample_y = 8,
    .edge_in = G3D_EDGE_TOP | G3D_EDGE_LEFT,
};

/*
 * Positions are limited so that every edge function value fits in int64
 * with room to step: |coordinate| < 2^28 grid steps gives products < 2^57.
 */
#define COORD_LIMIT (1 << 28)

typedef G3DEdge Edge;

typedef struct SetupTri {
    Edge e[3];          /* edge k is opposite vertex k */
    int64_t area;       /* E_k at vertex k, > 0 */
    double inv_area;
    float inv_w[3];
    uint8_t perm[3];    /* perm[k]: caller's index of internal vertex k */
    G3DRect box;        /* covered pixels are inside: bbox met with clip */
    const G3DRasterRules *rules;
    G3DQuadFn *shade;
    G3DBlockFn *fill;
    void *user;
    bool no_weights;
    bool fill_wide;
    /*
     * Every edge value the traversal can meet is an integer below 2^52, so
     * a double holds it exactly and sums of them stay exact: the quads may
     * be stepped and weighed two samples at a time in SSE2 doubles.
     */
    bool exact_double;
} SetupTri;

/*
 * Per-tile bins (llvmpipe's scene binning, src/gallium/drivers/llvmpipe/
 * lp_scene.c): each bin lists, in submission order, the triangles that may
 * cover one screen tile, so a render thread walks only its own tiles'
 * lists. Tile (tx, ty) goes to bin (tx % BIN_GRID, ty % BIN_GRID); an
 * entry keeps its tile, so a target wider than the grid only shares bins,
 * and each tile's triangles still come in submission order.
 *
 * The bins are filled at the start of the batch's raster job, on the
 * render threads, not as a triangle is queued: the batch's triangles are
 * cut into one contiguous slice a render thread, each slice binned into
 * its own bins (BinSlice), and after every slice is binned a tile's
 * entries are its bins' lists taken in slice order, which is submission
 * order. The thread that queues triangles (a chip's command processor)
 * then only sets them up and counts them.
 */
#define BIN_GRID 64

/*
 * Bins a thread takes at once: four tiles along a row, so that a wide
 * fill's rows (wide_run) are 128 pixels or more on every thread.
 */
#define GROUP_TILES 4

/* the bin index of tile (tx, ty), and the group of bin b */
static inline int bin_of(int tx, int ty)
{
    /* tiles of the target: tx, ty >= 0 */
    return ((unsigned)ty % BIN_GRID) * BIN_GRID + (unsigned)tx % BIN_GRID;
}

static inline int group_of(int b)
{
    return b / GROUP_TILES;
}

uint32_t g3d_raster_bin_entries_max = 1u << 20;


typedef struct BinEntry {
    uint32_t tri;
    int32_t tx, ty;
} BinEntry;

typedef struct Bin {
    BinEntry *e;
    uint32_t n, cap;
} Bin;

#define BIN_GROUPS (BIN_GRID * BIN_GRID / GROUP_TILES)

/* the bins of one slice of a batch's triangles */
typedef struct BinSlice {
    Bin bins[BIN_GRID * BIN_GRID];
    uint16_t used[BIN_GRID * BIN_GRID];  /* bins with entries, in first use */
    uint16_t gused[BIN_GROUPS];          /* their groups, first use order */
    uint8_t gbits[BIN_GROUPS];           /* a group's bins with entries */
    uint32_t nused, ngused;
} BinSlice;

/* a bin's cursor (G3DRaster.hslice) once its thread has begun it */
#define SLICE_BEGUN 255

typedef struct ArenaBlock {
    struct ArenaBlock *next;
    size_t size, used;
    /* data follows, 16-aligned */
} ArenaBlock;

/* Blocks of at least `block` bytes, the current one first. */
typedef struct Arena {
    ArenaBlock *head;
    size_t block;
} Arena;

#define ARENA_BLOCK (1u << 20)
#define STAGE_ARENA_BLOCK (64u << 10)

/*
 * Set-up triangles whose addresses hold until the flush: a batch lists
 * them by address, so that committing a stage copies its list of
 * addresses, not its triangles (184 bytes each), on the thread that drives
 * the raster. Blocks are kept from flush to flush.
 */
#define TRI_BLOCK 256

typedef struct TriBlock {
    struct TriBlock *next;
    SetupTri t[TRI_BLOCK];
} TriBlock;

typedef struct TriStore {
    TriBlock *first, *cur;      /* cur NULL: nothing taken since the reset */
    uint32_t used;              /* of cur */
} TriStore;

/*
 * A front end's chunk of triangles (raster.h, staged triangles): their
 * setup, queued in order by g3d_raster_stage_commit, and their user data,
 * which lives until the raster's next flush like any queued triangle's.
 */
struct G3DRasterStage {
    SetupTri **tris;
    size_t ntris, cap;
    uint64_t tiles, pixels;     /* the sums of the triangles' boxes' */
    TriStore store;
    Arena arena;
};

#define MAX_STAGES 256


/* the stage the calling thread queues into (g3d_raster_stage_enter) */
static __thread G3DRasterStage *staging;

struct G3DRaster {
    G3DThreadPool *pool;
    /* the batch: its own triangles (store) and the committed stages' */
    SetupTri **tris;
    size_t ntris, cap;
    TriStore store;
    /*
     * The batch's (triangle, tile) entries, bounded by
     * g3d_raster_bin_entries_max; counted as the tiles of the triangles'
     * boxes (binning may leave some out), so that the bound is kept before
     * the bins are filled. A triangle whose tiles do not fit is split: the
     * batch's first triangle is binned from tile first_from of its box
     * (row by row), its last up to tile last_to.
     */
    uint32_t nentries, first_from, last_to;
    BinSlice *slices;           /* one a render thread */
    unsigned nslices;           /* the batch's, set when it runs */
    uint32_t bin_next, bin_done;    /* the slices claimed, and binned */
    bool binned;                /* every slice binned and groups merged */
    /*
     * Per bin, the slice and the entry in it from which its entries are not
     * yet done (wide_run), or hslice SLICE_BEGUN once its thread has begun
     * it; zero outside a batch.
     */
    uint8_t hslice[BIN_GRID * BIN_GRID];
    uint32_t head[BIN_GRID * BIN_GRID];
    /*
     * The render threads' units: groups of GROUP_TILES bins along a row
     * (group_of), those with entries in first use order (the slices'
     * lists merged, or the one slice's), claimed by the threads with
     * g3d_claim (seg_next: its counters).
     */
    const uint16_t *gused;
    const uint8_t *gbits;       /* a group's bins with entries, bit i: bin i */
    uint16_t gmerged[BIN_GROUPS];
    uint8_t gbmerged[BIN_GROUPS];
    uint32_t ngused;
    uint64_t *seg_next;
    Arena arena;                /* the queued triangles' user data */
    G3DRasterStage *stages[MAX_STAGES];     /* made on first use */
    uint64_t batch_pixels;      /* sum of the queued triangles' boxes */
    bool serial;                /* g3d_raster_serial: one thread */
    uint64_t *thread_quads;     /* per-thread counters, summed at flush */
    uint64_t *thread_samples;
    uint64_t *thread_filled;
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

static void arena_free(Arena *a);
static void store_free(TriStore *s);

G3DRaster *g3d_raster_new(int threads)
{
    G3DRaster *r = g_new0(G3DRaster, 1);

    if (threads < 1) {
        threads = 1;
    }
    r->pool = g3d_pool_new(threads);
    r->arena.block = ARENA_BLOCK;
    r->thread_quads = g_new0(uint64_t, threads);
    r->thread_samples = g_new0(uint64_t, threads);
    r->thread_filled = g_new0(uint64_t, threads);
    r->seg_next = g_new0(uint64_t, (size_t)threads * G3D_CLAIM_STRIDE);
    r->slices = g_new0(BinSlice, g3d_pool_threads(r->pool));
    return r;
}

void g3d_raster_free(G3DRaster *r)
{
    int i, s;

    if (!r) {
        return;
    }
    for (s = 0; s < g3d_pool_threads(r->pool); s++) {
        for (i = 0; i < BIN_GRID * BIN_GRID; i++) {
            g_free(r->slices[s].bins[i].e);
        }
    }
    g_free(r->slices);
    g3d_pool_free(r->pool);
    g_free(r->seg_next);
    arena_free(&r->arena);
    store_free(&r->store);
    for (i = 0; i < MAX_STAGES; i++) {
        if (r->stages[i]) {
            arena_free(&r->stages[i]->arena);
            store_free(&r->stages[i]->store);
            g_free(r->stages[i]->tris);
            g_free(r->stages[i]);
        }
    }
    g_free(r->tris);
    g_free(r->thread_quads);
    g_free(r->thread_samples);
    g_free(r->thread_filled);
    g_free(r);
}

int g3d_raster_threads(const G3DRaster *r)
{
    return g3d_pool_threads(r->pool);
}

void *g3d_raster_thread_block(G3DRaster *r, void ***blocks, int thread,
                              size_t size)
{
    if (!*blocks) {
        *blocks = g_new0(void *, g3d_raster_threads(r));
    }
    if (!(*blocks)[thread]) {
        (*blocks)[thread] = g_malloc0(size);
    }
    return (*blocks)[thread];
}

void g3d_raster_thread_blocks_free(G3DRaster *r, void ***blocks)
{
    int t;

    for (t = 0; *blocks && t < g3d_raster_threads(r); t++) {
        g_free((*blocks)[t]);
    }
    g_free(*blocks);
    *blocks = NULL;
}

static void *arena_alloc(Arena *a, size_t size)
{
    ArenaBlock *b = a->head;
    size_t hdr = (sizeof(ArenaBlock) + 15) & ~(size_t)15;
    void *p;

    size = (size + 15) & ~(size_t)15;
    if (!b || b->size - b->used < size) {
        size_t bsize = size > a->block ? size : a->block;
        b = g_malloc(hdr + bsize);
        b->size = bsize;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    p = (uint8_t *)b + hdr + b->used;
    b->used += size;
    return p;
}

void *g3d_raster_alloc(G3DRaster *r, size_t size)
{
    return arena_alloc(staging ? &staging->arena : &r->arena, size);
}

static void arena_reset(Arena *a)
{
    ArenaBlock *b = a->head, *next;

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
    if (b->size > a->block) {
        g_free(b);
        a->head = NULL;
    }
}

static void arena_free(Arena *a)
{
    ArenaBlock *b, *next;

    for (b = a->head; b; b = next) {
        next = b->next;
        g_free(b);
    }
    a->head = NULL;
}

/* the next free slot of s, not yet taken (store_take) */
static SetupTri *store_slot(TriStore *s)
{
    if (!s->cur || s->used == TRI_BLOCK) {
        TriBlock **next = s->cur ? &s->cur->next : &s->first;

        if (!*next) {
            *next = g_new(TriBlock, 1);
            (*next)->next = NULL;
        }
        s->cur = *next;
        s->used = 0;
    }
    return &s->cur->t[s->used];
}

static inline void store_take(TriStore *s)
{
    s->used++;
}

static void store_reset(TriStore *s)
{
    s->cur = NULL;
    s->used = 0;
}

static void store_free(TriStore *s)
{
    TriBlock *b, *next;

    for (b = s->first; b; b = next) {
        next = b->next;
        g_free(b);
    }
    s->first = s->cur = NULL;
}

/*
 * Every queued triangle and its user data, at a flush; a stage's only when
 * it holds no triangles not yet committed (a flush may come between
 * staging and the commit).
 */
static void arenas_reset(G3DRaster *r)
{
    int i;

    arena_reset(&r->arena);
    store_reset(&r->store);
    for (i = 0; i < MAX_STAGES && r->stages[i]; i++) {
        if (!r->stages[i]->ntris) {
            arena_reset(&r->stages[i]->arena);
            store_reset(&r->stages[i]->store);
        }
    }
}

static void run_bins(G3DRaster *r);

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

bool g3d_raster_edges(const G3DTriangle *t, G3DEdges *g)
{
    const G3DRasterRules *rules = t->rules;
    const G3DRasterVertex *v[3] = { &t->v[0], &t->v[1], &t->v[2] };
    int64_t area;
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
    g->perm[0] = 0;
    g->perm[1] = 1;
    g->perm[2] = 2;
    if (area < 0) {
        /* make the internal order positive so "inside" is E >= 0 */
        const G3DRasterVertex *tmp = v[1];
        v[1] = v[2];
        v[2] = tmp;
        g->perm[1] = 2;
        g->perm[2] = 1;
        area = -area;
    }
    g->area = area;
    g->inv_area = 1.0 / (double)area;

    for (k = 0; k < 3; k++) {
        const G3DRasterVertex *a = v[(k + 1) % 3], *b = v[(k + 2) % 3];
        int64_t dx = (int64_t)b->x - a->x, dy = (int64_t)b->y - a->y;
        Edge *e = &g->e[k];

        e->a = -dy;
        e->b = dx;
        e->c = dy * a->x - dx * a->y;
        e->bias = (classify(dx, dy, rules->vertical_first) & rules->edge_in)
                  ? 0 : -1;
        g->inv_w[k] = v[k]->inv_w;
    }
    /*
     * E at a sample (x, y) is -dy * (x - ax) + dx * (y - ay) for the edge
     * from vertex a. With every |vertex coordinate| < 2^23 and at most 2^16
     * grid steps a pixel, the samples within a few pixels of the vertices'
     * box have |x|, |y| < 2^24, so each product is below 2^24 * 2^25 and
     * |E| < 2^50.
     */
    g->exact_double = rules->subpixels <= (1 << 16);
    for (k = 0; k < 3; k++) {
        g->exact_double &= (uint32_t)(v[k]->x + (1 << 23)) < (1u << 24) &&
                           (uint32_t)(v[k]->y + (1 << 23)) < (1u << 24);
    }
    return true;
}

/* t's setup in *st; false for a degenerate or fully clipped triangle */
static bool setup_triangle(const G3DTriangle *t, SetupTri *st)
{
    const G3DRasterRules *rules = t->rules;
    const G3DRasterVertex *v[3] = { &t->v[0], &t->v[1], &t->v[2] };
    int64_t S = rules->subpixels;
    int64_t minx, maxx, miny, maxy;
    G3DEdges g;

    if (!g3d_raster_edges(t, &g)) {
        return false;
    }
    memcpy(st->e, g.e, sizeof(st->e));
    st->area = g.area;
    st->inv_area = g.inv_area;
    memcpy(st->inv_w, g.inv_w, sizeof(st->inv_w));
    memcpy(st->perm, g.perm, sizeof(st->perm));

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
    st->fill = t->fill;
    st->user = t->user;
    st->no_weights = t->no_weights;
    st->fill_wide = t->fill && t->fill_wide;
    /* the quads reach at most two pixels outside the vertices' box */
    st->exact_double = !g3d_general_path && g.exact_double;
    return true;
}

/* room for n more entries after the first `used` of a list of triangles */
static SetupTri **tri_room(SetupTri ***tris, size_t used, size_t n,
                           size_t *cap)
{
    if (n > *cap - used) {
        size_t c = *cap ? *cap * 2 : 1024;

        while (c - used < n) {
            c *= 2;
        }
        *cap = c;
        *tris = g_renew(SetupTri *, *tris, c);
    }
    return &(*tris)[used];
}

/* the tiles of a box: x and y >= 0 (setup clamps the clip) */
static inline uint32_t box_tiles(const G3DRect *b)
{
    return ((unsigned)(b->x1 - 1) / G3D_TILE_SIZE -
            (unsigned)b->x0 / G3D_TILE_SIZE + 1) *
           ((unsigned)(b->y1 - 1) / G3D_TILE_SIZE -
            (unsigned)b->y0 / G3D_TILE_SIZE + 1);
}

/*
 * Queue tris[ntris], set up; its tiles are counted, the render threads bin
 * it. Where the batch's entries would pass the bound, the batch is drawn
 * with the part of this triangle's tiles that fits, and the rest goes on.
 */
static void queue_triangle(G3DRaster *r)
{
    SetupTri *st = r->tris[r->ntris];
    const uint32_t max = MAX(g3d_raster_bin_entries_max, 1);
    const uint32_t tiles = box_tiles(&st->box);
    uint32_t from = 0;

    r->preempt = g3d_preempt_current;
    r->batch_pixels += (uint64_t)(st->box.x1 - st->box.x0) *
                       (st->box.y1 - st->box.y0);
    r->stats.triangles++;
    if (r->nentries < max && tiles <= max - r->nentries) {
        /* the common case of the loop below: all of it fits */
        r->first_from = r->ntris ? r->first_from : 0;
        r->ntris++;
        r->last_to = tiles;
        r->nentries += tiles;
        return;
    }
    for (;;) {
        uint32_t room = r->nentries < max ? max - r->nentries : 0;

        if (room) {
            if (!r->ntris) {
                r->first_from = from;
            }
            r->ntris++;
            if (tiles - from <= room) {
                r->last_to = tiles;
                r->nentries += tiles - from;
                return;
            }
            r->last_to = from + room;
            r->nentries = max;
            from += room;
        }
        /* draw what is queued, this triangle's tiles so far too */
        run_bins(r);
        r->tris[0] = st;
    }
}

bool g3d_raster_triangle(G3DRaster *r, const G3DTriangle *t)
{
    G3DRasterStage *s = staging;
    SetupTri *st;

    if (s) {
        st = store_slot(&s->store);
        if (!setup_triangle(t, st)) {
            return false;
        }
        store_take(&s->store);
        *tri_room(&s->tris, s->ntris, 1, &s->cap) = st;
        s->ntris++;
        /* what queue_triangle counts, here on the staging thread */
        s->tiles += box_tiles(&st->box);
        s->pixels += (uint64_t)(st->box.x1 - st->box.x0) *
                     (st->box.y1 - st->box.y0);
        return true;
    }
    st = store_slot(&r->store);
    if (!setup_triangle(t, st)) {
        return false;
    }
    store_take(&r->store);
    *tri_room(&r->tris, r->ntris, 1, &r->cap) = st;
    queue_triangle(r);
    return true;
}

G3DRasterStage *g3d_raster_stage(G3DRaster *r, unsigned i)
{
    G3DRasterStage *s;

    g_assert(i < MAX_STAGES);
    if (!r->stages[i]) {
        /* in order, so that arenas_reset stops at the first gap */
        g_assert(i == 0 || r->stages[i - 1]);
        s = g_new0(G3DRasterStage, 1);
        s->arena.block = STAGE_ARENA_BLOCK;
        r->stages[i] = s;
    }
    return r->stages[i];
}

void g3d_raster_stage_enter(G3DRasterStage *s)
{
    staging = s;
}

void g3d_raster_stage_leave(void)
{
    staging = NULL;
}

bool g3d_raster_staging(void)
{
    return staging != NULL;
}

void g3d_raster_serial(G3DRaster *r)
{
    r->serial = true;
}

/*
 * The stage's triangles join the batch by address (they live until the
 * flush, in the stage's store); where all their tiles fit under the bound,
 * as one list with the sums counted at staging, else one by one.
 */
size_t g3d_raster_stage_commit(G3DRaster *r, G3DRasterStage *s)
{
    const uint32_t max = MAX(g3d_raster_bin_entries_max, 1);
    size_t i, n = s->ntris;

    if (!n) {
        return 0;
    }
    if (r->nentries < max && s->tiles <= max - r->nentries) {
        memcpy(tri_room(&r->tris, r->ntris, n, &r->cap), s->tris,
               n * sizeof(*s->tris));
        r->preempt = g3d_preempt_current;
        r->first_from = r->ntris ? r->first_from : 0;
        r->ntris += n;
        r->last_to = box_tiles(&s->tris[n - 1]->box);
        r->nentries += (uint32_t)s->tiles;
        r->batch_pixels += s->pixels;
        r->stats.triangles += n;
    } else {
        for (i = 0; i < n; i++) {
            *tri_room(&r->tris, r->ntris, 1, &r->cap) = s->tris[i];
            queue_triangle(r);
        }
    }
    s->ntris = 0;
    s->tiles = s->pixels = 0;
    return n;
}

unsigned g3d_raster_chunks(uint32_t *at, unsigned max, uint32_t off,
                           uint32_t per, uint32_t n)
{
    unsigned u;

    at[0] = 0;
    for (u = 1; u < max && off + u * per < n; u++) {
        at[u] = off + u * per;
    }
    at[u] = n;
    return u;
}

void g3d_raster_stage_drop(G3DRasterStage *s)
{
    s->ntris = 0;
    s->tiles = s->pixels = 0;
}

void g3d_raster_run_shared(G3DRaster *r, G3DJobFn *fn, void *arg)
{
    g3d_pool_run_shared(r->pool, fn, arg);
}

bool g3d_raster_try_run_shared(G3DRaster *r, G3DJobFn *fn, void *arg)
{
    return g3d_pool_try_run_shared(r->pool, fn, arg);
}

/*
 * The weights of a quad's four samples from their edge values. Multiply by
 * reciprocals in double: a product within an ulp of 1.0 (or exactly 0)
 * rounds to exactly 1.0f (0.0f), so a vertex weighs exactly 1 at itself
 * and 0 at the others.
 */
static void quad_weights(const SetupTri *st, G3DQuad *q, const int64_t E[4][3])
{
    int i, k;

    for (i = 0; i < 4; i++) {
        float lin[3], p[3];
        double r;

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

typedef struct TileCtx {
    const SetupTri *st;
    int x0, y0, x1, y1;         /* the tile's part of the box */
    int thread;
    uint64_t nquads, nsamples, nfilled;
} TileCtx;

static inline void shade_quad(TileCtx *tc, G3DQuad *q)
{
    tc->st->shade(tc->st->user, q, tc->thread);
    tc->nquads++;
    tc->nsamples += quad_samples[q->mask & 15];
}

/* the samples of quad (qx, qy) inside the box: bit i is pixel (i & 1, i >> 1) */
static inline uint32_t box_mask(const TileCtx *tc, int qx, int qy)
{
    return ((qx >= tc->x0 ? 0x5u : 0) | (qx + 1 < tc->x1 ? 0xAu : 0)) &
           ((qy >= tc->y0 ? 0x3u : 0) | (qy + 1 < tc->y1 ? 0xCu : 0));
}

/* quads of rows cy0..cy1, columns cx0..cx1 of a block, in int64 */
static void block_quads_int(TileCtx *tc, int cx0, int cy0, int cx1, int cy1,
                            const int64_t base[3], const int64_t step_x[3],
                            const int64_t step_y[3], bool all_in)
{
    const SetupTri *st = tc->st;
    int qx, qy, i, k;
    int64_t row[3];

    for (k = 0; k < 3; k++) {
        row[k] = base[k];
    }
    for (qy = cy0; qy < cy1; qy += 2) {
        int64_t cur[3];

        for (k = 0; k < 3; k++) {
            cur[k] = row[k];
            row[k] += 2 * step_y[k];
        }
        for (qx = cx0; qx < cx1; qx += 2) {
            int64_t E[4][3];
            G3DQuad q;

            q.mask = 0;
            for (k = 0; k < 3; k++) {
                E[0][k] = cur[k];
                E[1][k] = cur[k] + step_x[k];
                E[2][k] = cur[k] + step_y[k];
                E[3][k] = cur[k] + step_x[k] + step_y[k];
                cur[k] += 2 * step_x[k];
            }
            if (all_in && qx + 1 < cx1 && qy + 1 < cy1) {
                q.mask = 0xF;
            } else {
                for (i = 0; i < 4; i++) {
                    if (E[i][0] + st->e[0].bias >= 0 &&
                        E[i][1] + st->e[1].bias >= 0 &&
                        E[i][2] + st->e[2].bias >= 0) {
                        q.mask |= 1u << i;
                    }
                }
                q.mask &= box_mask(tc, qx, qy);
            }
            if (q.mask) {
                q.x = qx;
                q.y = qy;
                if (!st->no_weights) {
                    quad_weights(st, &q, E);
                }
                shade_quad(tc, &q);
            }
        }
    }
}

#ifdef __SSE2__
/*
 * quad_weights with the samples two at a time (g3d_weights4, raster.h):
 * e01[k] holds edge k's values at samples 0 and 1, e23[k] at 2 and 3. The
 * same IEEE operations per lane in the same order, so the weights are
 * bit-identical to quad_weights'.
 */
static inline void quad_weights_sse2(const SetupTri *st, const G3DEdges *g,
                                     G3DQuad *q, const __m128d e01[3],
                                     const __m128d e23[3])
{
    __m128 lin[3], bar[3], r0, r1, r2, r3, t0, t1, t2, t3;

    g3d_weights4(g, e01, e23, lin, bar, false);
    if (st->perm[1] == 2) {
        __m128 t = lin[1];
        lin[1] = lin[2];
        lin[2] = t;
        t = bar[1];
        bar[1] = bar[2];
        bar[2] = t;
    }
    /* sample-major: row i = (w0, w1, w2) of sample i */
    r0 = lin[0], r1 = lin[1], r2 = lin[2], r3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
    t0 = bar[0], t1 = bar[1], t2 = bar[2], t3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(t0, t1, t2, t3);
    /* rows overlap by one float; the last is written as 2 + 1 */
    _mm_storeu_ps(q->lin[0], r0);
    _mm_storeu_ps(q->lin[1], r1);
    _mm_storeu_ps(q->lin[2], r2);
    _mm_storel_pi((__m64 *)q->lin[3], r3);
    _mm_store_ss(&q->lin[3][2], _mm_movehl_ps(r3, r3));
    _mm_storeu_ps(q->bary[0], t0);
    _mm_storeu_ps(q->bary[1], t1);
    _mm_storeu_ps(q->bary[2], t2);
    _mm_storel_pi((__m64 *)q->bary[3], t3);
    _mm_store_ss(&q->bary[3][2], _mm_movehl_ps(t3, t3));
}

/*
 * block_quads_int with the edge values in doubles (exact: exact_double),
 * samples 0 and 1 of a quad in one vector, stepped by additions.
 */
static void block_quads_sse2(TileCtx *tc, int cx0, int cy0, int cx1,
                             int cy1, const int64_t base[3],
                             const int64_t step_x[3], const int64_t step_y[3],
                             bool all_in)
{
    const SetupTri *st = tc->st;
    __m128d row[3], sx2[3], sy[3], sy2[3], thr[3];
    G3DEdges g;
    int qx, qy, k;

    g.inv_area = st->inv_area;
    memcpy(g.inv_w, st->inv_w, sizeof(g.inv_w));
    for (k = 0; k < 3; k++) {
        row[k] = _mm_set_pd((double)(base[k] + step_x[k]), (double)base[k]);
        sx2[k] = _mm_set1_pd((double)(2 * step_x[k]));
        sy[k] = _mm_set1_pd((double)step_y[k]);
        sy2[k] = _mm_set1_pd((double)(2 * step_y[k]));
        /* E + bias >= 0 with bias 0 or -1 */
        thr[k] = _mm_set1_pd((double)-st->e[k].bias);
    }
    for (qy = cy0; qy < cy1; qy += 2) {
        __m128d cur[3];
        bool rows_in = all_in && qy + 1 < cy1;

        for (k = 0; k < 3; k++) {
            cur[k] = row[k];
            row[k] = _mm_add_pd(row[k], sy2[k]);
        }
        for (qx = cx0; qx < cx1; qx += 2, cur[0] = _mm_add_pd(cur[0], sx2[0]),
             cur[1] = _mm_add_pd(cur[1], sx2[1]),
             cur[2] = _mm_add_pd(cur[2], sx2[2])) {
            __m128d e23[3];
            G3DQuad q;

            if (rows_in && qx + 1 < cx1) {
                q.mask = 0xF;
            } else {
                __m128d in01 = _mm_cmpge_pd(cur[0], thr[0]);
                __m128d in23 = _mm_cmpge_pd(_mm_add_pd(cur[0], sy[0]), thr[0]);

                for (k = 1; k < 3; k++) {
                    in01 = _mm_and_pd(in01, _mm_cmpge_pd(cur[k], thr[k]));
                    in23 = _mm_and_pd(in23, _mm_cmpge_pd(
                                          _mm_add_pd(cur[k], sy[k]), thr[k]));
                }
                q.mask = ((uint32_t)_mm_movemask_pd(in01) |
                          (uint32_t)_mm_movemask_pd(in23) << 2) &
                         box_mask(tc, qx, qy);
                if (!q.mask) {
                    continue;
                }
            }
            q.x = qx;
            q.y = qy;
            if (!st->no_weights) {
                for (k = 0; k < 3; k++) {
                    e23[k] = _mm_add_pd(cur[k], sy[k]);
                }
                quad_weights_sse2(st, &g, &q, cur, e23);
            }
            shade_quad(tc, &q);
        }
    }
}
#endif

#define BLOCK 8                 /* pixels; the tile size is a multiple */

enum { TILE_OUT, TILE_PARTIAL, TILE_IN };

/*
 * The tile's part of the box against the edges, as the blocks are tested:
 * all its samples outside one edge (no block of it has a sample inside),
 * or all inside every edge.
 */
/*
 * Edge k (with its bias) over the samples of pixels [x0, x1) x [y0, y1):
 * E is linear, so its extremes are at the rectangle's corners. Returns E
 * at (x0, y0)'s sample.
 */
static inline int64_t edge_range(const SetupTri *st, int k, int x0, int y0,
                                 int x1, int y1, const int64_t step_x[3],
                                 const int64_t step_y[3], int64_t *lo,
                                 int64_t *hi)
{
    const Edge *e = &st->e[k];
    const int64_t S = st->rules->subpixels;
    int64_t e00 = e->a * (x0 * S + st->rules->sample_x) +
                  e->b * (y0 * S + st->rules->sample_y) + e->c + e->bias;
    int64_t ex = step_x[k] * (x1 - 1 - x0);
    int64_t ey = step_y[k] * (y1 - 1 - y0);

    *lo = e00 + MIN(ex, 0) + MIN(ey, 0);
    *hi = e00 + MAX(ex, 0) + MAX(ey, 0);
    return e00;
}

static int tile_class(const TileCtx *tc, const int64_t step_x[3],
                      const int64_t step_y[3])
{
    bool all_in = true;
    int64_t lo, hi;
    int k;

    for (k = 0; k < 3; k++) {
        edge_range(tc->st, k, tc->x0, tc->y0, tc->x1, tc->y1, step_x, step_y,
                   &lo, &hi);
        if (hi < 0) {
            return TILE_OUT;
        }
        all_in &= lo >= 0;
    }
    return all_in ? TILE_IN : TILE_PARTIAL;
}

/*
 * A tile part all inside, to the fill function at once; counted as the
 * quads would have been (a quad with any sample in the box is shaded).
 */
static void tile_fill(TileCtx *tc)
{
    const SetupTri *st = tc->st;
    unsigned w = tc->x1 - tc->x0, h = tc->y1 - tc->y0;

    st->fill(st->user, tc->x0, tc->y0, tc->x1, tc->y1, tc->thread);
    tc->nquads += (uint64_t)((tc->x1 - (tc->x0 & ~1) + 1) >> 1) *
                  ((tc->y1 - (tc->y0 & ~1) + 1) >> 1);
    tc->nsamples += (uint64_t)w * h;
    tc->nfilled += (uint64_t)w * h;
}

/* quad columns covered by runs [l0, r0) and [l1, r1) of a row pair */
static inline int pair_quads(int l0, int r0, int l1, int r1)
{
    int n0 = r0 > l0 ? ((r0 - 1) >> 1) - (l0 >> 1) + 1 : 0;
    int n1 = r1 > l1 ? ((r1 - 1) >> 1) - (l1 >> 1) + 1 : 0;
    int both = n0 && n1 ? MIN((r0 - 1) >> 1, (r1 - 1) >> 1) -
                          MAX(l0 >> 1, l1 >> 1) + 1 : 0;

    return n0 + n1 - MAX(both, 0);
}

/*
 * A tile part that an edge crosses, for a triangle with a fill function.
 * Each row's run of covered pixels comes from the edges that cross the
 * part: edge k's value at the part's i-th pixel of row j is e + s i, exact
 * in int64 (e = e_0 + t j, t the step a row), so its inside is i >= -f for
 * s > 0 and i <= f for s < 0, f = floor(e / |s|): the samples the quads
 * would find. f and e - |s| f are stepped from row to row (Bresenham), so
 * the rows cost no division. Then in each band of 8 rows (aligned, as the
 * blocks), the whole 8x8 blocks that every row of the band covers go to
 * the fill function as one rectangle (a band of whole tiles of a tiled
 * target) and each row's rest beside it as a row run. Counted as the quads
 * would have been.
 */
static void tile_fill_rows(TileCtx *tc, const int64_t step_x[3],
                           const int64_t step_y[3])
{
    const SetupTri *st = tc->st;
    const int w = tc->x1 - tc->x0, h = tc->y1 - tc->y0;
    int l[G3D_TILE_SIZE], r[G3D_TILE_SIZE];
    int64_t e[3], f[3], rem[3], q[3], m[3], u[3], lo, hi;
    int live[3], nlive = 0, i, j, y;

    for (j = 0; j < 3; j++) {
        int64_t e0 = edge_range(st, j, tc->x0, tc->y0, tc->x1, tc->y1, step_x,
                                step_y, &lo, &hi);

        if (lo >= 0) {
            continue;           /* all of the part inside this edge */
        }
        e[nlive] = e0;
        u[nlive] = step_x[j] < 0 ? -step_x[j] : step_x[j];
        if (u[nlive]) {
            f[nlive] = floor_div(e0, u[nlive]);
            rem[nlive] = e0 - f[nlive] * u[nlive];
            q[nlive] = floor_div(step_y[j], u[nlive]);
            m[nlive] = step_y[j] - q[nlive] * u[nlive];
        }
        live[nlive++] = j;
    }
    for (i = 0; i < h; i++) {
        int64_t a = 0, b = w;

        for (j = 0; j < nlive; j++) {
            int k = live[j];

            if (!u[j]) {
                if (e[j] < 0) {
                    b = 0;
                }
                e[j] += step_y[k];
                continue;
            }
            if (step_x[k] > 0) {
                a = MAX(a, -f[j]);
            } else {
                b = MIN(b, f[j] + 1);
            }
            f[j] += q[j];
            rem[j] += m[j];
            if (rem[j] >= u[j]) {
                rem[j] -= u[j];
                f[j]++;
            }
        }
        if (a >= b) {
            a = b = 0;
        }
        l[i] = tc->x0 + (int)a;
        r[i] = tc->x0 + (int)b;
        tc->nsamples += b - a;
        tc->nfilled += b - a;
    }
    /* quads: row pairs aligned to even y, a row outside the part empty */
    for (y = tc->y0 & ~1; y < tc->y1; y += 2) {
        int i0 = y - tc->y0, i1 = i0 + 1;
        bool in0 = y >= tc->y0, in1 = y + 1 < tc->y1;

        tc->nquads += pair_quads(in0 ? l[i0] : 0, in0 ? r[i0] : 0,
                                 in1 ? l[i1] : 0, in1 ? r[i1] : 0);
    }
    for (y = tc->y0; y < tc->y1;) {
        int end = MIN((y | (BLOCK - 1)) + 1, tc->y1);
        int il = tc->x0, ir = tc->x1;

        for (i = y - tc->y0; i < end - tc->y0; i++) {
            il = MAX(il, l[i]);
            ir = MIN(ir, r[i]);
        }
        /* whole 8x8 blocks: whole tiles of a tiled target */
        il = (il + BLOCK - 1) & ~(BLOCK - 1);
        ir &= ~(BLOCK - 1);
        if (end - y < 2 || ir <= il) {
            il = ir = tc->x1;       /* rows only */
        } else {
            st->fill(st->user, il, y, ir, end, tc->thread);
        }
        for (; y < end; y++) {
            i = y - tc->y0;
            if (ir <= il) {
                if (r[i] > l[i]) {
                    st->fill(st->user, l[i], y, r[i], y + 1, tc->thread);
                }
                continue;
            }
            if (l[i] < il) {
                st->fill(st->user, l[i], y, il, y + 1, tc->thread);
            }
            if (r[i] > ir) {
                st->fill(st->user, ir, y, r[i], y + 1, tc->thread);
            }
        }
    }
}

/*
 * One tile's part of a triangle, in 8x8 blocks: a block whose samples are
 * all outside one edge is skipped; a block whose samples are all inside
 * every edge (and the box) is covered without testing each sample.
 */
static void raster_tile(TileCtx *tc)
{
    const SetupTri *st = tc->st;
    const int64_t S = st->rules->subpixels;
    int64_t step_x[3], step_y[3];
    int bx, by, k;

    for (k = 0; k < 3; k++) {
        step_x[k] = st->e[k].a * S;
        step_y[k] = st->e[k].b * S;
    }
    switch (tile_class(tc, step_x, step_y)) {
    case TILE_OUT:
        return;
    case TILE_IN:
        if (st->fill) {
            tile_fill(tc);
            return;
        }
        break;
    default:
        if (st->fill) {
            tile_fill_rows(tc, step_x, step_y);
            return;
        }
        break;
    }
    for (by = tc->y0 & ~(BLOCK - 1); by < tc->y1; by += BLOCK) {
        for (bx = tc->x0 & ~(BLOCK - 1); bx < tc->x1; bx += BLOCK) {
            /* the block's samples, clipped to the box, even-aligned */
            int cx0 = MAX(bx, tc->x0) & ~1, cy0 = MAX(by, tc->y0) & ~1;
            int cx1 = MIN(bx + BLOCK, tc->x1), cy1 = MIN(by + BLOCK, tc->y1);
            int64_t base[3];
            bool all_in = true, out = false;

            for (k = 0; k < 3 && !out; k++) {
                int64_t lo, hi;

                base[k] = edge_range(st, k, cx0, cy0, cx1, cy1, step_x, step_y,
                                     &lo, &hi) - st->e[k].bias;
                out = hi < 0;
                all_in &= lo >= 0;
            }
            if (out) {
                continue;
            }
            all_in &= cx0 >= tc->x0 && cy0 >= tc->y0;
#ifdef __SSE2__
            if (st->exact_double) {
                block_quads_sse2(tc, cx0, cy0, cx1, cy1, base, step_x, step_y,
                                 all_in);
                continue;
            }
#endif
            block_quads_int(tc, cx0, cy0, cx1, cy1, base, step_x, step_y,
                            all_in);
        }
    }
}

/*
 * Batches smaller than this many candidate pixels run on the calling thread
 * alone: waking helpers costs more than the work. The image is the same,
 * since which thread runs a tile never changes what the tile gets. A bin
 * entry (a triangle's tile) counts as ENTRY_PIXELS pixels more: its
 * traversal's set-up (classing the tile, the first block's edges) costs
 * about that many pixels' shading, so that a batch of 256 triangles of 2
 * pixels (2304 box pixels, each its tile) is worth the helpers
 * (docs/performance.md, "Branch small18").
 */
#define SERIAL_BATCH_PIXELS 4096
#define ENTRY_PIXELS 16

/*
 * Bin b's first entry not yet done, in slice order, its cursor moved to
 * it; NULL when there is none or its thread has begun it.
 */
static inline const BinEntry *bin_next(G3DRaster *r, int b)
{
    unsigned s = r->hslice[b];
    uint32_t h = r->head[b];

    /* the cursor moves only to an entry: run_bins resets used bins' */
    for (; s < r->nslices; s++, h = 0) {
        const Bin *bin = &r->slices[s].bins[b];

        if (h < bin->n) {
            r->hslice[b] = s;
            r->head[b] = h;
            return &bin->e[h];
        }
    }
    return NULL;
}

/*
 * The tile part of a fill_wide triangle grows to the right over the next
 * tiles of its row in the same group (so this thread's) whose bins have not
 * begun, with this triangle next (every earlier entry of theirs done): each
 * pixel still meets its triangles in submission order, and raster_tile
 * then classes and fills the whole run, so the fill gets rows of up to
 * GROUP_TILES tiles. A 32-pixel row of a 4 KiB-pitch target is two cache
 * lines 4 KiB from the next row's; rows of 128 pixels or more store at
 * about memset speed (docs/performance.md, "Branch fill7").
 */
static void wide_run(G3DRaster *r, TileCtx *tc, const BinEntry *e)
{
    const int group = group_of(bin_of(e->tx, e->ty));
    int i;

    for (i = 1; i < GROUP_TILES; i++) {
        int tx = e->tx + i, b = bin_of(tx, e->ty);
        const BinEntry *ne;

        if (tc->x1 != tx * G3D_TILE_SIZE || tc->x1 >= tc->st->box.x1 ||
            group_of(b) != group || !(ne = bin_next(r, b))) {
            return;
        }
        /* a bin shared by tiles 64 apart may hold another tile's first */
        if (ne->tri != e->tri || ne->tx != tx || ne->ty != e->ty) {
            return;
        }
        r->head[b]++;
        tc->x1 = MIN(tc->st->box.x1, (tx + 1) * G3D_TILE_SIZE);
    }
}

/*
 * One bin's entries from its cursor on: the slices' lists in slice order,
 * so in submission order.
 */
static bool raster_bin(G3DRaster *r, TileCtx *tc, int b)
{
    unsigned s = r->hslice[b];
    uint32_t n = r->head[b];

    r->hslice[b] = SLICE_BEGUN;
    for (; s < r->nslices; s++, n = 0) {
        const Bin *bin = &r->slices[s].bins[b];

        for (; n < bin->n; n++) {
            const BinEntry *e = &bin->e[n];
            const SetupTri *st = r->tris[e->tri];

            /* at most GROUP_TILES tiles of one triangle apart */
            if (g3d_yield()) {
                return false;
            }
            tc->st = st;
            tc->x0 = MAX(st->box.x0, e->tx * G3D_TILE_SIZE);
            tc->y0 = MAX(st->box.y0, e->ty * G3D_TILE_SIZE);
            tc->x1 = MIN(st->box.x1, (e->tx + 1) * G3D_TILE_SIZE);
            tc->y1 = MIN(st->box.y1, (e->ty + 1) * G3D_TILE_SIZE);
            if (st->fill_wide) {
                wide_run(r, tc, e);
            }
            raster_tile(tc);
        }
    }
    return true;
}

/*
 * Render thread `thread` takes groups of bins until none is left, those of
 * its own run first, then the others' from their runs' ends (g3d_claim):
 * a thread that has finished its band of tile rows takes the rows farthest
 * from those its neighbour is storing. Which thread takes a group never changes
 * what its tiles get: each tile's triangles are drawn by one thread, in
 * submission order. Taking the next group of one shared list instead made
 * two threads alternate along every row, and they filled a frame at 0.66x
 * of one thread (r300-3d's flat case, docs/performance.md).
 */
static void raster_batch(G3DRaster *r, int thread, int threads)
{
    TileCtx tc = { .thread = thread };
    uint32_t u;
    int b, i, k = 0;

    while (g3d_claim(r->seg_next, r->ngused, threads, thread, &k, &u)) {
        const unsigned bits = r->gbits[r->gused[u]];

        b = r->gused[u] * GROUP_TILES;
        for (i = 0; i < GROUP_TILES; i++) {
            if ((bits >> i & 1) && !raster_bin(r, &tc, b + i)) {
                goto done;
            }
        }
    }
done:
    r->thread_quads[thread] += tc.nquads;
    r->thread_samples[thread] += tc.nsamples;
    r->thread_filled[thread] += tc.nfilled;
}

/* triangle tri in slice sl's bin of tile (tx, ty), after its others */
static inline void bin_add(BinSlice *sl, uint32_t tri, int tx, int ty)
{
    const int b = bin_of(tx, ty);
    Bin *bin = &sl->bins[b];

    if (bin->n == 0) {
        const int g = group_of(b);

        sl->used[sl->nused++] = b;
        if (!sl->gbits[g]) {
            sl->gused[sl->ngused++] = g;
        }
        sl->gbits[g] |= 1u << (b % GROUP_TILES);
    }
    if (bin->n == bin->cap) {
        bin->cap = bin->cap ? bin->cap * 2 : 64;
        bin->e = g_renew(BinEntry, bin->e, bin->cap);
    }
    bin->e[bin->n++] = (BinEntry){ tri, tx, ty };
}

/*
 * Bin the batch's triangles [t0, t1) into slice sl: each into the bins of
 * the tiles of its box that it may cover (the batch's first from tile
 * first_from, its last up to tile last_to); a tile whose samples all lie
 * outside one edge gets nothing. Every 16th triangle checks g3d_yield
 * (the batch's length is the guest's); true: abandoned.
 */
static bool bin_slice(G3DRaster *r, BinSlice *sl, uint32_t t0, uint32_t t1)
{
    uint32_t i;

    for (i = t0; i < t1; i++) {
        const SetupTri *st = r->tris[i];
        const int64_t S = st->rules->subpixels;
        /* box.x0/y0 >= 0 (setup clamps the clip) */
        const int tx0 = (unsigned)st->box.x0 / G3D_TILE_SIZE;
        const int tx1 = (unsigned)(st->box.x1 - 1) / G3D_TILE_SIZE;
        const int ty0 = (unsigned)st->box.y0 / G3D_TILE_SIZE;
        const int ty1 = (unsigned)(st->box.y1 - 1) / G3D_TILE_SIZE;
        uint32_t n;
        int tx = tx0, ty = ty0, k;

        if (i % 16 == 0 && g3d_yield()) {
            return true;
        }
        if (tx0 == tx1 && ty0 == ty1) {
            /*
             * A box of one tile: the traversal's blocks decide; never
             * split (queue_triangle: it fits or waits for the next batch).
             */
            bin_add(sl, i, tx0, ty0);
            continue;
        }
        n = i + 1 == r->ntris ? r->last_to : UINT32_MAX;
        if (i == 0 && r->first_from) {
            const int w = tx1 - tx0 + 1;

            tx = tx0 + r->first_from % w;
            ty = ty0 + r->first_from / w;
            n -= n == UINT32_MAX ? 0 : r->first_from;
        }
        for (; n && ty <= ty1; n--) {
            int x0 = MAX(st->box.x0, tx * G3D_TILE_SIZE);
            int x1 = MIN(st->box.x1, (tx + 1) * G3D_TILE_SIZE) - 1;
            int y0 = MAX(st->box.y0, ty * G3D_TILE_SIZE);
            int y1 = MIN(st->box.y1, (ty + 1) * G3D_TILE_SIZE) - 1;
            bool out = false;

            for (k = 0; k < 3 && !out; k++) {
                const Edge *e = &st->e[k];
                /* the largest E over the tile's samples is at a corner */
                int64_t xs = (e->a > 0 ? x1 : x0) * S + st->rules->sample_x;
                int64_t ys = (e->b > 0 ? y1 : y0) * S + st->rules->sample_y;
                out = e->a * xs + e->b * ys + e->c + e->bias < 0;
            }
            if (!out) {
                bin_add(sl, i, tx, ty);
            }
            if (++tx > tx1) {
                tx = tx0;
                ty++;
            }
        }
    }
    return false;
}

/* the slices' groups, each once: the units of the batch */
static void merge_groups(G3DRaster *r)
{
    const uint8_t *gb = r->gbmerged;
    unsigned s;
    uint32_t u, n = 0;
    int g, i;

    for (s = 0; s < r->nslices; s++) {
        const BinSlice *sl = &r->slices[s];

        for (u = 0; u < sl->ngused; u++) {
            r->gbmerged[sl->gused[u]] |= sl->gbits[sl->gused[u]];
        }
    }
    /*
     * The groups with entries in screen order (rows of the bin grid, each
     * from the left), so that g3d_claim's run of each render thread is one
     * band of tile rows: a thread's share of a fill is contiguous memory,
     * and a linear target's pixel rows (a 4 KiB page of a 1024-pixel
     * 32-bit row) are written by one thread but at the band's ends. In
     * first-use order a pair of triangles covering the target gave one
     * thread the groups right of the diagonal and the other those left of
     * it, both in most pixel rows. Which thread takes a group changes no
     * pixel (raster_batch).
     */
    for (g = 0; g < BIN_GROUPS; g += 8) {
        uint64_t w;

        /* eight groups at a time: most of the grid is empty */
        memcpy(&w, &gb[g], 8);
        if (!w) {
            continue;
        }
        for (i = g; i < g + 8; i++) {
            if (gb[i]) {
                r->gmerged[n++] = i;
            }
        }
    }
    r->ngused = n;
    r->gused = r->gmerged;
    r->gbits = r->gbmerged;
}

/*
 * A batch on several render threads: each thread bins the slices it
 * claims (its own first is as good as any: the slices are the same
 * size); the one that bins the last merges the groups, and every thread
 * then takes groups of bins (raster_batch). A thread waiting for the
 * slices polls, giving its core away now and then, and parks at
 * g3d_yield like any render thread.
 */
static void raster_job(void *arg, int thread)
{
    G3DRaster *r = arg;
    const unsigned n = r->nslices;
    unsigned s, i;

    while ((s = __atomic_fetch_add(&r->bin_next, 1, __ATOMIC_RELAXED)) < n) {
        (void)bin_slice(r, &r->slices[s], (uint32_t)(r->ntris * s / n),
                        (uint32_t)(r->ntris * (s + 1) / n));
        if (__atomic_add_fetch(&r->bin_done, 1, __ATOMIC_ACQ_REL) == n) {
            merge_groups(r);
            __atomic_store_n(&r->binned, true, __ATOMIC_RELEASE);
        }
    }
    for (i = 1; !__atomic_load_n(&r->binned, __ATOMIC_ACQUIRE); i++) {
        if (i % 64 == 0 && g3d_yield()) {
            return;
        }
        g3d_spin_pause(i);
    }
    raster_batch(r, thread, g3d_pool_threads(r->pool));
}

/* Bin and rasterise the queued triangles; the arena (their user data) stays. */
static void run_bins(G3DRaster *r)
{
    int t, threads = g3d_pool_threads(r->pool);
    unsigned s;
    uint32_t u;

    if (!r->ntris) {
        return;
    }
    if (threads == 1 || r->serial ||
        r->batch_pixels + (uint64_t)ENTRY_PIXELS * r->nentries <
        SERIAL_BATCH_PIXELS) {
        r->nslices = 1;
        if (!bin_slice(r, &r->slices[0], 0, r->ntris)) {
            r->gused = r->slices[0].gused;
            r->gbits = r->slices[0].gbits;
            r->ngused = r->slices[0].ngused;
            raster_batch(r, 0, 1);
        }
    } else {
        r->nslices = threads;
        r->bin_next = r->bin_done = 0;
        r->binned = false;
        g3d_pool_run_shared(r->pool, raster_job, r);
    }
    for (s = 0; s < r->nslices; s++) {
        BinSlice *sl = &r->slices[s];

        for (u = 0; u < sl->nused; u++) {
            sl->bins[sl->used[u]].n = 0;
            r->hslice[sl->used[u]] = 0;
            r->head[sl->used[u]] = 0;
        }
        for (u = 0; u < sl->ngused; u++) {
            sl->gbits[sl->gused[u]] = 0;
            r->gbmerged[sl->gused[u]] = 0;
        }
        sl->nused = sl->ngused = 0;
    }
    r->ngused = 0;
    for (t = 0; t < threads; t++) {
        r->seg_next[t * G3D_CLAIM_STRIDE] = 0;
    }
    r->nentries = 0;
    r->batch_pixels = 0;
    r->serial = false;
    r->ntris = 0;
    r->stats.flushes++;
    for (t = 0; t < threads; t++) {
        r->stats.quads += r->thread_quads[t];
        r->stats.samples += r->thread_samples[t];
        r->stats.filled += r->thread_filled[t];
        r->thread_quads[t] = r->thread_samples[t] = r->thread_filled[t] = 0;
    }
}

void g3d_raster_flush(G3DRaster *r)
{
    if (g3d_preempt_foreign(r->preempt)) {
        /*
         * Another thread (an MMIO read that needs the picture) while the
         * thread that queued the batch is parked in the middle of it: that
         * thread flushes when it resumes; the caller sees the work so far.
         */
        return;
    }
    run_bins(r);
    arenas_reset(r);
}

void g3d_raster_queued(const G3DRaster *r, size_t *tris, uint64_t *pixels)
{
    *tris = r->ntris;
    *pixels = r->batch_pixels;
}

void g3d_raster_stats(G3DRaster *r, G3DRasterStats *out)
{
    *out = r->stats;
}
