/*
 * The Streamer: index fetch, vertex attribute fetch and conversion
 * (ATTILA ref. Stream Data Formats; attila-sim GPUEmulator.cpp), and the loop
 * that sends each new index to the vertex shader once (the post-transform cache
 * of a draw) and the shaded vertices on to primitive assembly, the clipper and
 * triangle setup.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "attila-int.h"

#include "common/fpformat.h"

#include <glib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const uint8_t sd_bytes[ATTILA_SD_COUNT] = {
    1, 1, 2, 2, 4, 4, 2, 4, 1, 1, 2, 2, 4, 4,
};

static inline uint32_t ld(const uint8_t *p, int n)
{
    switch (n) {
    case 1: return p[0];
    case 2: return p[0] | p[1] << 8;
    default: return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

bool attila_streamer_read_index(AttilaCore *c, const AttilaDrawState *ds,
                                uint32_t v, uint32_t *index)
{
    const AttilaStream *s = &ds->stream[ds->index_stream];
    uint8_t b[4];
    int n;

    if (!ds->indexed) {
        *index = ds->start + v;
        return true;
    }
    /* the index stream ignores its stride (ATTILA ref. Registers,
     * STREAM_STRIDE) */
    switch (s->data) {
    case ATTILA_SD_UINT8: case ATTILA_SD_UNORM8:   n = 1; break;
    case ATTILA_SD_UINT16: case ATTILA_SD_UNORM16: n = 2; break;
    case ATTILA_SD_UINT32: case ATTILA_SD_UNORM32: n = 4; break;
    default:
        return false;       /* checked at draw setup */
    }
    if (!attila_mem_read(c, s->address + (ds->start + v) * (uint32_t)n, b, n)) {
        return false;
    }
    *index = ld(b, n);
    return true;
}

static float convert(uint32_t data, const uint8_t *p)
{
    uint32_t u = ld(p, sd_bytes[data]);

    /* GPUEmulator::emulateStreamer: multiplies by float reciprocals */
    switch (data) {
    case ATTILA_SD_UNORM8:  return (float)u * (1.0f / 255.0f);
    case ATTILA_SD_SNORM8:  return (float)(int8_t)u * (1.0f / 127.0f);
    case ATTILA_SD_UNORM16: return (float)u * (1.0f / 65535.0f);
    case ATTILA_SD_SNORM16: return (float)(int16_t)u * (1.0f / 32767.0f);
    case ATTILA_SD_UNORM32: return (float)u * (1.0f / 4294967295.0f);
    case ATTILA_SD_SNORM32: return (float)(int32_t)u * (1.0f / 2147483647.0f);
    case ATTILA_SD_FLOAT16: return g3d_float_unpack(u, &g3d_fp16_ieee);
    case ATTILA_SD_FLOAT32: return g3d_u2f(u);
    case ATTILA_SD_UINT8:
    case ATTILA_SD_UINT16:
    case ATTILA_SD_UINT32:  return (float)u;
    case ATTILA_SD_SINT8:   return (float)(int8_t)u;
    case ATTILA_SD_SINT16:  return (float)(int16_t)u;
    default:                return (float)(int32_t)u;
    }
}

/* an element's bytes to the attribute's components (over its defaults) */
static inline void convert_element(const AttilaStream *s, const uint8_t *buf,
                                   AttilaVec4 *out)
{
    uint32_t e;

    if (s->data == ATTILA_SD_FLOAT32 && s->elements <= 4) {
        /* little-endian IEEE words: convert()'s g3d_u2f of ld() */
        for (e = 0; e < s->elements; e++) {
            out->f[e] = g3d_u2f(ld(buf + 4 * e, 4));
        }
    } else {
        for (e = 0; e < s->elements; e++) {
            out->f[e] = convert(s->data, buf + e * sd_bytes[s->data]);
        }
    }
    if (s->d3d9_color) {
        /* D3D9 colours are stored B, G, R, A (reference defect ATTILA-6,
         * docs/references.md) */
        float r = out->f[2];
        out->f[2] = out->f[0];
        out->f[0] = r;
    }
}

/*
 * One attribute from element `element` of its stream; false if the element
 * is outside memory.
 */
static bool fetch_element(AttilaCore *c, const AttilaDrawState *ds,
                          uint32_t a, uint32_t element, AttilaVec4 *out)
{
    const AttilaStream *s;
    uint8_t buf[16];
    uint32_t addr, size;
    bool ok = true;

    memcpy(out->f, ds->attr_default[a], 16);
    if (ds->attr_map[a] == ATTILA_ST_INACTIVE_ATTRIBUTE) {
        return true;
    }
    s = &ds->stream[ds->attr_map[a]];
    addr = s->address + s->stride * element;
    size = sd_bytes[s->data] * s->elements;
    if (size && !attila_mem_read(c, addr, buf, size)) {
        memset(buf, 0, sizeof(buf));
        ok = false;
    }
    convert_element(s, buf, out);
    return ok;
}

/* the Streamer's element: per vertex, or every `frequency` instances */
static inline uint32_t attribute_element(const AttilaDrawState *ds,
                                         uint32_t a, uint32_t index,
                                         uint32_t instance)
{
    uint32_t freq = ds->attr_map[a] == ATTILA_ST_INACTIVE_ATTRIBUTE ? 0 :
                    ds->stream[ds->attr_map[a]].frequency;

    return freq == 0 ? index : instance / freq;
}

static bool fetch_attribute(AttilaCore *c, const AttilaDrawState *ds,
                            uint32_t a, uint32_t index, uint32_t instance,
                            AttilaVec4 *out)
{
    return fetch_element(c, ds, a, attribute_element(ds, a, index, instance),
                         out);
}

bool attila_streamer_fetch(AttilaCore *c, const AttilaDrawState *ds,
                           uint32_t index, uint32_t instance,
                           AttilaVec4 in[ATTILA_MAX_VERTEX_ATTRIBUTES])
{
    bool ok = true;
    uint32_t a;

    for (a = 0; a < ATTILA_MAX_VERTEX_ATTRIBUTES; a++) {
        ok = fetch_attribute(c, ds, a, index, instance, &in[a]) && ok;
    }
    return ok;
}

bool attila_streamer_fetch_attribute(AttilaCore *c, const AttilaDrawState *ds,
                                     uint32_t attribute, uint32_t index,
                                     AttilaVec4 *out)
{
    if (attribute >= ATTILA_MAX_VERTEX_ATTRIBUTES) {
        memset(out, 0, sizeof(*out));
        return false;
    }
    /*
     * LDA reads element `index` whatever GPU_STREAM_FREQUENCY says: the
     * program computes a per-instance element itself from the instance in
     * input 0's y (attila-sim TextureEmulator.cpp index2address: stream
     * address + stride x index; the frequency is the Streamer's).
     */
    return fetch_element(c, ds, attribute, index, out);
}

/*
 * Vertices waiting to be shaded together: a program whose lanes never
 * look at each other (ds->vs_lanes 4, draw-state.c) runs the same
 * instructions for every vertex, so up to ATTILA_SH_BATCH threads run
 * through the shader at once, its decoding shared (and its operations by
 * component over the batch, shader.c's run_soa). Only a batch whose
 * attributes are all in memory and whose program ends normally is kept;
 * any other is shaded again one vertex at a time, so that errors, their
 * order and the work counted are the one-vertex path's.
 */
typedef struct VertexBatch {
    uint32_t n;
    uint32_t slot[ATTILA_SH_BATCH], index[ATTILA_SH_BATCH];
    bool whole;                 /* shaded by shade_whole */
    uint64_t steps;             /* the program's steps for each vertex */
} VertexBatch;

/*
 * Batches gathered before they are shaded: with several render threads
 * they are shaded in parallel (the batches are independent: each reads
 * memory and writes its own vertices), and their work, errors and counts
 * are then taken in the list's order. Few enough that a draw over its
 * work limit stops soon after it: 2048 vertices of at most
 * ATTILA_SH_MAX_STEPS steps are half of ATTILA_DRAW_WORK_LIMIT; enough
 * that a hand-over to the helpers is worth it (spaceship's one draw shades
 * 26000 vertices).
 */
#define CHUNK_BATCHES 128

unsigned attila_vertex_delay_us;

typedef struct VertexChunk {
    AttilaCore *c;
    const AttilaDrawState *ds;
    uint32_t instance;
    AttilaVertex *vtx;
    /*
     * Each active attribute's elements that the chunk's vertices read, as
     * one host block from element `lo` on (G3DMem map, valid for the
     * command), or NULL where they are not one mapped block: such an
     * attribute is read element by element.
     */
    const uint8_t *win[ATTILA_MAX_VERTEX_ATTRIBUTES];
    uint32_t win_lo[ATTILA_MAX_VERTEX_ATTRIBUTES];
    /* the active attributes in order (chunk_windows), the others' inputs
     * being their defaults alone */
    uint8_t active[ATTILA_MAX_VERTEX_ATTRIBUTES];
    uint32_t nactive;
    /* the draw's vertex program decoded for the batches (shade_whole) */
    const AttilaSoaProg *batches;
    uint32_t n;                 /* batches; the last one may be filling */
    VertexBatch b[CHUNK_BATCHES];
    int threads;
    uint64_t *next;             /* g3d_claim's counters, one a thread */
    /*
     * With several render threads, for the set-up that runs in the
     * shading's job (await_shaded): each batch's flag, set (release) once
     * shade_chunk_job has shaded it; the chunk's first list position.
     */
    uint8_t done[CHUNK_BATCHES];
    uint32_t first;
} VertexChunk;

/* ---- the geometry pass of a draw ---------------------------------------- */

#define BATCH_TRIANGLES 2048

/*
 * Triangles assembled but not yet set up: with several render threads
 * they are set up together on all of them (the clipper's trivial reject
 * and triangle setup read only the draw state and the shaded vertices),
 * each straight into its own batch slot, a rejected one's slot left empty
 * (attila_triangle_empty), then counted in order, as triangle() does one
 * at a time. A group is as large as a hand-over to the helpers is worth
 * (a draw of 8lights has about 100 triangles, spaceship's one draw 8700).
 * The slots keep the assembly's order, so a tile sees the kept triangles
 * in the same order as with one render thread; only the batches' ends
 * differ (2048 slots, not 2048 kept triangles), which no pixel sees.
 */
#define PENDING_TRIANGLES 480     /* not a divisor of BATCH_TRIANGLES, so
                                   * that groups cut at a batch's end */
#define SETUP_UNIT 16           /* triangles a render thread takes at once */

typedef struct PendingTriangles {
    uint32_t n;
    const uint32_t (*v)[3];                /* list positions */
    /* the batch's next slot: triangle i of the group goes to dst[i] (a
     * group never reaches past the batch's BATCH_TRIANGLES) */
    AttilaTriangle *dst;
    int threads;
    uint64_t *next;                        /* g3d_claim's counters */
    uint32_t set;                          /* units set up */
} PendingTriangles;

typedef struct Geometry {
    AttilaCore *c;
    const AttilaDrawState *ds;
    AttilaVertex *vtx;          /* shaded vertex per list position */
    /* the list position whose shaded vertex each position uses: its own,
     * or the first with the same index (the post-transform cache) */
    uint32_t *src;
    PendingTriangles *pend;     /* NULL: one render thread */
    /* the chunk whose shading runs in the set-up's job (await_shaded),
     * else NULL */
    const VertexChunk *shading;
    /* with several render threads: the instance's assembled triangles
     * (list positions), set up a group at a time */
    uint32_t (*pos)[3];
    uint32_t npos;
    size_t ntris;
    bool stopped;               /* the draw ran out of work */
    /* the draw's last instance, its arrays the scratch's: a one-job
     * batch may be left to the helpers (shade_set_up) */
    bool pipeline;
} Geometry;

static void flush_batch(Geometry *g)
{
    /* an empty batch draws nothing: a draw stopped by an earlier batch
     * was stopped there */
    if (g->ntris && !g->stopped &&
        !attila_raster_draw(g->c->raster, g->ds, g->c->tris, g->ntris)) {
        g->stopped = true;
    }
    g->ntris = 0;
}

/* the batch's next triangle, kept by batch_commit */
static AttilaTriangle *batch_slot(Geometry *g)
{
    AttilaCore *c = g->c;

    if (g->ntris == c->tris_cap) {
        c->tris_cap = c->tris_cap ? c->tris_cap * 2 : 64;
        c->tris_cap = MIN(c->tris_cap, BATCH_TRIANGLES);
        c->tris = g_renew(AttilaTriangle, c->tris, c->tris_cap);
    }
    return &c->tris[g->ntris];
}

static void batch_commit(Geometry *g)
{
    g->ntris++;
    if (g->ntris == BATCH_TRIANGLES) {
        flush_batch(g);
    }
}

/* clipper -> triangle setup; false if the triangle is not drawn */
static bool set_up(const Geometry *g, const uint32_t v[3], AttilaTriangle *out)
{
    const AttilaVertex *v0 = &g->vtx[g->src[v[0]]];
    const AttilaVertex *v1 = &g->vtx[g->src[v[1]]];
    const AttilaVertex *v2 = &g->vtx[g->src[v[2]]];

    if (g->ds->frustum_clip &&
        attila_clipper_trivial_reject(v0->out[0], v1->out[0], v2->out[0],
                                      g->ds->d3d9_depth)) {
        return false;
    }
    return attila_triangle_setup(g->ds, v0, v1, v2, out);
}

/*
 * Wait until the vertices a triangle's list positions use are shaded: an
 * earlier chunk's are; one of the chunk being shaded is once its batch is.
 * The wait ends: every batch is claimed by a thread in the job before any
 * thread sets up, and shading waits for nothing.
 */
static void await_shaded(const Geometry *g, const uint32_t v[3])
{
    const VertexChunk *k = g->shading;
    unsigned i, j;

    for (j = 0; j < 3; j++) {
        uint32_t pos = g->src[v[j]], lo = 0, hi = k->n - 1, mid;

        if (pos < k->first) {
            continue;
        }
        /* its batch: the last to begin at or before it (the batches take
         * the positions in order) */
        while (lo < hi) {
            mid = (lo + hi + 1) / 2;
            if (k->b[mid].slot[0] <= pos) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        for (i = 1; !__atomic_load_n(&k->done[lo], __ATOMIC_ACQUIRE); i++) {
            g3d_spin_pause(i);
        }
    }
}

/* triangle i of the group into its slot, the slot empty if not drawn */
static void set_up_slot(const Geometry *g, PendingTriangles *p, uint32_t i)
{
    if (g->shading) {
        await_shaded(g, p->v[i]);
    }
    if (!set_up(g, p->v[i], &p->dst[i])) {
        attila_triangle_empty(&p->dst[i]);
    }
}

/*
 * Each render thread sets units up while any is left, each triangle into
 * its batch slot: no thread waits for the others' units (the copies to
 * the slots were 5 % of spaceship on the command processor's thread
 * before branch thr13, and their wait for every unit's set-up 0.3-0.5 ms
 * a replay in 8lights and simplefog before branch thr15).
 */
static bool set_up_units(const Geometry *g, int thread)
{
    PendingTriangles *p = g->pend;
    uint32_t unit, i, units = (p->n + SETUP_UNIT - 1) / SETUP_UNIT;
    bool last = false;
    int at = 0;

    while (g3d_claim(p->next, units, p->threads, thread, &at, &unit)) {
        for (i = unit * SETUP_UNIT; i < MIN(p->n, (unit + 1) * SETUP_UNIT);
             i++) {
            set_up_slot(g, p, i);
        }
        /* release, and acquire for the last: its thread then reads every
         * slot (draw_job) */
        last = __atomic_add_fetch(&p->set, 1, __ATOMIC_ACQ_REL) == units;
    }
    return last;
}

static void set_up_job(void *arg, int thread)
{
    set_up_units(arg, thread);
}

/* the group's slots in the batch, its counters cleared */
static void group_prepare(Geometry *g)
{
    PendingTriangles *p = g->pend;
    AttilaCore *c = g->c;

    attila_raster_sync(c->raster);      /* the slots a batch in flight reads */
    if (g->ntris + p->n > c->tris_cap) {
        c->tris_cap = BATCH_TRIANGLES;
        c->tris = g_renew(AttilaTriangle, c->tris, c->tris_cap);
    }
    p->dst = c->tris + g->ntris;
    p->set = 0;
    memset(p->next, 0, sizeof(*p->next) * G3D_CLAIM_STRIDE * p->threads);
}

/* the pending triangles set up on every render thread, into their batch
 * slots */
static void set_up_shared(Geometry *g)
{
    PendingTriangles *p = g->pend;
    uint32_t i;

    group_prepare(g);
    if (p->n > SETUP_UNIT) {
        attila_raster_run_shared(g->c->raster, set_up_job, g);
    } else {
        for (i = 0; i < p->n; i++) {
            set_up_slot(g, p, i);
        }
    }
}

/* the set-up pending triangles (in their slots) counted and batched */
static void batch_pending(Geometry *g)
{
    PendingTriangles *p = g->pend;

    g->c->triangles += p->n;
    g->ntris += p->n;
    p->n = 0;
    if (g->ntris == BATCH_TRIANGLES) {
        flush_batch(g);
    }
}

/* the next group's size: at most PENDING_TRIANGLES, and within the
 * batch (a flush comes only after the group's last slot) */
static uint32_t group_size(const Geometry *g, uint32_t first)
{
    return MIN(MIN(g->npos - first, PENDING_TRIANGLES),
               BATCH_TRIANGLES - g->ntris);
}

/*
 * The instance's assembled triangles from `first` on, a group at a time:
 * set up on every render thread, then counted and batched
 */
static void set_up_from(Geometry *g, uint32_t first)
{
    PendingTriangles *p = g->pend;

    while (first < g->npos && !g->stopped) {
        p->n = group_size(g, first);
        p->v = (const uint32_t (*)[3])g->pos + first;
        first += p->n;
        set_up_shared(g);
        batch_pending(g);
    }
}

/* primitive assembly -> clipper -> triangle setup -> rasterizer batch */
static void triangle(void *opaque, uint32_t a, uint32_t b, uint32_t cc)
{
    Geometry *g = opaque;
    const uint32_t v[3] = { a, b, cc };

    if (g->stopped) {
        return;
    }
    if (g->pend) {
        /* at most one triangle a list position (a quad strip's two a
         * step of two), so pos (ds->count entries) holds them all */
        memcpy(g->pos[g->npos++], v, sizeof(v));
        return;
    }
    g->c->triangles++;
    if (set_up(g, v, batch_slot(g))) {
        batch_commit(g);
    }
}

/* a vertex thread's inputs; false if its attributes are outside memory */
static bool vertex_inputs(AttilaCore *c, const AttilaDrawState *ds,
                          uint32_t index, uint32_t instance,
                          AttilaShaderThread *t)
{
    int k;

    attila_shader_reset_thread(t);
    if (ds->load_bypass) {
        /* GPU_ATTRIBUTE_LOAD_BYPASS (ATTILA ref. Streamer Registers): no
         * attribute is read; input 0 (INDEX_ATTRIBUTE) carries the index and
         * the instance as 32-bit integers, the others their default values
         * (StreamerLoader), and the program loads attributes with LDA */
        for (k = 0; k < ATTILA_MAX_VERTEX_ATTRIBUTES; k++) {
            memcpy(t->in[k].f, ds->attr_default[k], 16);
        }
        t->in[0].u[0] = index;
        t->in[0].u[1] = instance;
        t->in[0].u[2] = 0;
        t->in[0].u[3] = 0;
        return true;
    }
    return attila_streamer_fetch(c, ds, index, instance, t->in);
}

/*
 * A shaded thread's outputs to the vertex (any render thread): those the
 * set-up and the fragment side read (ds->vertex_outs), the others left
 * as they are.
 */
static void vertex_store(const AttilaDrawState *ds,
                         const AttilaShaderThread *t, AttilaVertex *out)
{
    uint32_t m;
    int k;

    for (m = ds->vertex_outs & ~2u; m; m &= m - 1) {
        k = __builtin_ctz(m);
        memcpy(out->out[k], t->out[k].f, 16);
    }
    if (!(ds->vertex_outs & 2)) {
        return;
    }
    /* the primary color is clamped after the vertex shader (attila-sim
     * GPUEmulator.cpp) */
#ifdef __SSE2__
    if (!g3d_general_path) {
        /*
         * MINPS gives its second operand where the first is NaN or not
         * below it, MAXPS likewise: NaN and above 1 -> 1, then below 0
         * -> +0; -0 and the values in range stay as they are, as below
         */
        __m128 v = _mm_min_ps(_mm_loadu_ps(t->out[1].f), _mm_set1_ps(1.0f));

        _mm_storeu_ps(out->out[1], _mm_max_ps(_mm_setzero_ps(), v));
        return;
    }
#endif
    for (k = 0; k < 4; k++) {
        float v = t->out[1].f[k];
        out->out[1][k] = (0.0f <= v && v <= 1.0f) ? v : (v < 0.0f ? 0.0f : 1.0f);
    }
}

static bool shade_vertex(AttilaCore *c, const AttilaDrawState *ds,
                         uint32_t index, uint32_t instance, AttilaVertex *out,
                         uint64_t *work, AttilaRenderCtx *tctx)
{
    AttilaShaderThread t;
    AttilaShaderEnv env = {
        .imem = c->imem, .consts = c->vconst, .tex = attila_texture_sample,
        .tex_opaque = tctx, .steps = work,
    };
    uint32_t bad_pc = 0;
    AttilaShaderResult r;

    if (!vertex_inputs(c, ds, index, instance, &t)) {
        g3d_error(&c->errors, ATTILA_ERR_ADDRESS, index,
                  "vertex %u: attribute data outside memory; draw stopped",
                  index);
        return false;
    }
    r = attila_shader_run(&env, ds->vs_pc, &t, 1, &bad_pc);
    if (r != ATTILA_SHADER_OK) {
        g3d_error(&c->errors, ATTILA_ERR_SHADER, bad_pc,
                  "vertex program: %s at pc %u",
                  r == ATTILA_SHADER_BAD_INSTR ? "invalid instruction" :
                  r == ATTILA_SHADER_BAD_PC ? "ran off the instruction memory" :
                  "too many steps", bad_pc);
        return false;
    }
    vertex_store(ds, &t, out);
    c->vertices++;
    return true;
}


static bool work_left(AttilaCore *c, uint64_t work)
{
    if (work > ATTILA_DRAW_WORK_LIMIT) {
        g3d_error(&c->errors, ATTILA_ERR_DRAW, ATTILA_REG_STREAM_COUNT,
                  "draw: more than %llu vertex shader instructions; "
                  "draw stopped", (unsigned long long)ATTILA_DRAW_WORK_LIMIT);
        return false;
    }
    return true;
}

/* the chunk's attribute blocks (chunk_windows); false if an element
 * is outside memory */
static bool window_inputs(const VertexChunk *k, uint32_t index,
                          AttilaShaderThread *t)
{
    const AttilaDrawState *ds = k->ds;
    bool ok = true;
    uint32_t i;

    if (ds->load_bypass) {
        return vertex_inputs(k->c, ds, index, k->instance, t);
    }
    /*
     * every input is written below (its default, then its element), so
     * only the rest is cleared, and of the outputs and temporaries only
     * those the program names or vertex_store keeps (ds->vs_outs,
     * vs_temps): outputs a program leaves unwritten and temporaries it
     * reads first read 0 as in a whole clear (attila_shader_reset_thread);
     * a whole clear of the 844 bytes was most of a short program's cost
     */
    _Static_assert(ATTILA_MAX_VERTEX_ATTRIBUTES == ATTILA_SH_IO,
                   "window_inputs writes every input");
    attila_shader_reset_bounded(t, ds->vs_temps, ds->vs_outs);
    /* every input's default in one copy, then the active ones' elements
     * over theirs: the inputs the loop over all 16 wrote */
    _Static_assert(sizeof(t->in) == sizeof(ds->attr_default),
                   "an input a default");
    memcpy(t->in, ds->attr_default, sizeof(t->in));
    for (i = 0; i < k->nactive; i++) {
        const AttilaStream *s;
        uint32_t e, a = k->active[i];

        s = &ds->stream[ds->attr_map[a]];
        e = attribute_element(ds, a, index, k->instance);
        if (!k->win[a]) {
            ok = fetch_element(k->c, ds, a, e, &t->in[a]) && ok;
            continue;
        }
        convert_element(s, k->win[a] + (uint64_t)s->stride * (e - k->win_lo[a]),
                        &t->in[a]);
    }
    return ok;
}

/*
 * The blocks window_inputs reads: for each active attribute, the elements
 * from the lowest to the highest the chunk's batches read, where their
 * addresses do not wrap (so that the block's offsets are fetch_element's
 * 32-bit sums) and the block is one mapping.
 */
static void chunk_windows(VertexChunk *k)
{
    const AttilaDrawState *ds = k->ds;
    uint32_t a, i, j;

    k->nactive = 0;
    for (a = 0; a < ATTILA_MAX_VERTEX_ATTRIBUTES; a++) {
        const AttilaStream *s;
        uint32_t lo = UINT32_MAX, hi = 0, size;
        uint64_t first, last;

        k->win[a] = NULL;
        if (ds->load_bypass || ds->attr_map[a] == ATTILA_ST_INACTIVE_ATTRIBUTE) {
            continue;
        }
        k->active[k->nactive++] = a;
        s = &ds->stream[ds->attr_map[a]];
        size = sd_bytes[s->data] * s->elements;
        for (i = 0; i < k->n; i++) {
            for (j = 0; j < k->b[i].n; j++) {
                uint32_t e = attribute_element(ds, a, k->b[i].index[j],
                                               k->instance);
                lo = MIN(lo, e);
                hi = MAX(hi, e);
            }
        }
        if (lo > hi || size == 0) {
            continue;
        }
        first = s->address + (uint64_t)s->stride * lo;
        last = s->address + (uint64_t)s->stride * hi + size;
        if (last > (uint64_t)UINT32_MAX + 1) {
            continue;
        }
        k->win[a] = attila_mem_map(k->c, (uint32_t)first, last - first, false);
        k->win_lo[a] = lo;
    }
}

/*
 * A batch of two or more vertices at once, reporting nothing: whole if
 * every attribute was in memory and the program ended normally, the
 * vertices then stored (any render thread). A program with texture reads
 * is never batched (vs_lanes), so no texture unit is reached here.
 */
static void shade_whole(const VertexChunk *k, VertexBatch *b)
{
    AttilaShaderThread t[ATTILA_SH_BATCH];
    AttilaShaderEnv env = {
        .imem = k->c->imem, .consts = k->c->vconst, .by_component = true,
        .outputs_only = true, .steps = &b->steps, .batches = k->batches,
    };
    uint32_t bad_pc = 0, i;

    b->whole = b->n > 1;
    b->steps = 0;
    for (i = 0; i < b->n && b->whole; i++) {
        b->whole = window_inputs(k, b->index[i], &t[i]);
    }
    if (b->whole) {
        b->whole = attila_shader_run(&env, k->ds->vs_pc, t, b->n, &bad_pc) ==
                   ATTILA_SHADER_OK;
    }
    for (i = 0; i < b->n && b->whole; i++) {
        vertex_store(k->ds, &t[i], &k->vtx[b->slot[i]]);
    }
}

static void shade_chunk_job(void *arg, int thread)
{
    VertexChunk *k = arg;
    uint32_t unit;
    int at = 0;

    while (g3d_claim(k->next, k->n, k->threads, thread, &at, &unit)) {
        if (attila_vertex_delay_us) {
            g_usleep(attila_vertex_delay_us);
        }
        shade_whole(k, &k->b[unit]);
        /* release: await_shaded's set-up reads the vertices */
        __atomic_store_n(&k->done[unit], 1, __ATOMIC_RELEASE);
    }
}

/* the batches are shaded on every render thread (shade_whole) */
static bool chunk_shared(const VertexChunk *k)
{
    return k->threads > 1 && k->ds->vs_lanes > 1;
}

/* the gathered batches shaded, nothing reported yet */
static void chunk_prepare(VertexChunk *k)
{
    if (k->ds->vs_lanes > 1) {
        chunk_windows(k);
    }
    memset(k->next, 0, sizeof(*k->next) * G3D_CLAIM_STRIDE * k->threads);
    memset(k->done, 0, k->n);
    k->first = k->n ? k->b[0].slot[0] : UINT32_MAX;
}

/*
 * The shaded batches' work, errors and counts taken in the list's order,
 * a batch that was not whole shaded again one vertex at a time (reporting);
 * false (reported) if the draw stops. *redone: some batch was.
 */
static bool chunk_account(VertexChunk *k, uint64_t *work,
                          AttilaRenderCtx *tctx, bool *redone)
{
    uint32_t i, j;

    *redone = false;
    for (i = 0; i < k->n; i++) {
        const VertexBatch *b = &k->b[i];

        *redone = *redone || !b->whole;
        for (j = 0; j < b->n; j++) {
            if (!b->whole) {
                if (!shade_vertex(k->c, k->ds, b->index[j], k->instance,
                                  &k->vtx[b->slot[j]], work, tctx)) {
                    return false;
                }
            } else {
                /* as the one-vertex path: each vertex's steps counted */
                *work += b->steps;
                k->c->vertices++;
            }
            if (!work_left(k->c, *work)) {
                return false;
            }
        }
    }
    k->n = 0;
    return true;
}

/* the gathered batches; false (reported) if the draw stops */
static bool shade_chunk(VertexChunk *k, uint64_t *work, AttilaRenderCtx *tctx)
{
    uint32_t i;
    bool redone;

    chunk_prepare(k);
    if (k->n > 1 && chunk_shared(k)) {
        attila_raster_run_shared(k->c->raster, shade_chunk_job, k);
    } else {
        for (i = 0; i < k->n; i++) {
            shade_whole(k, &k->b[i]);
        }
    }
    return chunk_account(k, work, tctx, &redone);
}

/* the instance's last chunk and its first group of triangles */
typedef struct ShadeSetUp {
    VertexChunk *k;
    Geometry *g;
    /*
     * The group is the instance's every triangle, the batch's first: its
     * batch is rasterised in the job too (draw_job). `work`: the draw's
     * vertex work before the chunk; `raster`: RASTER_PENDING until the
     * thread that set up the last unit has begun the batch or not.
     */
    bool one_job;
    uint64_t work;
    uint32_t raster;
    /* threads past the shading and the set-up (draw_job): the job's
     * caller may leave the rest of the batch to the helpers once every
     * thread in the job is, as they then read nothing else of the draw */
    uint32_t left;
} ShadeSetUp;

enum { RASTER_PENDING, RASTER_BEGUN, RASTER_NOT };

/*
 * The chunk's batches would all be accounted for by chunk_account without
 * a vertex shaded again and without the draw stopping: each whole, and
 * the work within the limit (work_left's test of each vertex's sum holds
 * for every one if it holds for the last, the steps being counts)
 */
static bool chunk_whole(const VertexChunk *k, uint64_t work)
{
    uint32_t i;

    for (i = 0; i < k->n; i++) {
        if (!k->b[i].whole) {
            return false;
        }
        work += k->b[i].steps * k->b[i].n;
    }
    return work <= ATTILA_DRAW_WORK_LIMIT;
}

/*
 * The raster batch in the shading and set-up's job (a small draw's three
 * hand-overs made one): the thread that set up the last unit begins the
 * batch if the chunk's vertices are all as chunk_account will take them
 * (else the command processor's thread redoes the set-up and rasterises
 * it as before), then every thread takes raster units. The batch is the
 * one attila_raster_draw would draw after chunk_account and batch_pending:
 * the same slots, so the same triangles in the same order for each tile.
 */
static void draw_job(ShadeSetUp *j, int thread, bool last)
{
    AttilaRaster *r = j->g->c->raster;
    uint32_t state;
    unsigned i;

    if (last) {
        state = chunk_whole(j->k, j->work) &&
                attila_raster_batch_begin(r, j->g->ds, j->g->pend->dst,
                                          j->g->pend->n) ?
                RASTER_BEGUN : RASTER_NOT;
        /* release: the batch's state for the other threads */
        __atomic_store_n(&j->raster, state, __ATOMIC_RELEASE);
        __atomic_add_fetch(&j->left, 1, __ATOMIC_RELEASE);  /* j's last use */
        if (state == RASTER_BEGUN) {
            attila_raster_batch_job(r, thread, true);
        }
        return;
    }
    /* the last unit's thread is in the job: the wait ends */
    for (i = 1; (state = __atomic_load_n(&j->raster, __ATOMIC_ACQUIRE)) ==
                RASTER_PENDING; i++) {
        g3d_spin_pause(i);
    }
    __atomic_add_fetch(&j->left, 1, __ATOMIC_RELEASE);      /* j's last use */
    if (state == RASTER_BEGUN) {
        attila_raster_batch_job(r, thread, false);
    }
}

/*
 * One hand-over instead of two: each render thread shades batches while
 * any is left, then sets triangles up, each as soon as the batches its
 * vertices are in are shaded (await_shaded): a thread's first set-up
 * units mostly use the batches it shaded itself (both are claimed from
 * the thread's own run, in the list's order).
 */
static void shade_set_up_job(void *arg, int thread)
{
    ShadeSetUp *j = arg;

    bool last;

    shade_chunk_job(j->k, thread);
    last = set_up_units(j->g, thread);
    if (j->one_job) {
        draw_job(j, thread, last);
    }
}

/*
 * With several render threads: the instance's last chunk shaded and its
 * triangles set up and batched; false (reported) if the draw stops. The
 * first group's set-up runs in the shading's job, before the shaded
 * batches are accounted for: it is redone if a batch was shaded again
 * one vertex at a time (its vertices were not stored by the job).
 */
static bool shade_set_up(VertexChunk *k, Geometry *g, uint64_t *work,
                         AttilaRenderCtx *tctx)
{
    PendingTriangles *p = g->pend;
    ShadeSetUp j = { .k = k, .g = g };
    uint32_t first, i;
    bool redone, post;
    int joined;

    if (!chunk_shared(k) || g->npos == 0) {
        if (!shade_chunk(k, work, tctx)) {
            return false;
        }
        set_up_from(g, 0);
        return true;
    }
    chunk_prepare(k);
    p->n = first = group_size(g, 0);
    p->v = (const uint32_t (*)[3])g->pos;
    group_prepare(g);
    j.one_job = first == g->npos && g->ntris == 0;
    j.work = *work;
    j.raster = RASTER_PENDING;
    g->shading = k;
    /*
     * The pipeline: the draw's last batch left to the helpers that have
     * joined, its end taken when the next record or job needs it
     * (attila_raster_sync), while this thread goes on to the next records.
     * Every thread in the job has then set its triangles up and shaded its
     * vertices: what is left reads the batch (its slots, the draw state,
     * memory) and nothing of j, g or k.
     */
    post = j.one_job && g->pipeline;
    if (post) {
        joined = attila_raster_post_shared(g->c->raster, shade_set_up_job, &j);
        /* (a cancelled job ran nothing: joined < 0) */
        for (i = 1; joined >= 0 &&
                    __atomic_load_n(&j.left, __ATOMIC_ACQUIRE) !=
                    (uint32_t)joined + 1; i++) {
            g3d_spin_pause(i);
        }
        /* not begun: the helpers have nothing left of it (the pool's
         * next job waits for them to return) */
    } else {
        attila_raster_run_shared(g->c->raster, shade_set_up_job, &j);
    }
    g->shading = NULL;
    if (j.one_job && j.raster == RASTER_BEGUN) {
        /* chunk_account takes every batch as it is (chunk_whole) */
        bool ok = chunk_account(k, work, tctx, &redone);

        g->c->triangles += p->n;
        p->n = 0;
        if (post) {
            /* the draw's last: the end, and any stop, are reported later */
            attila_raster_detach(g->c->raster);
        } else if (!attila_raster_batch_end(g->c->raster) || !ok) {
            g->stopped = true;
        }
        return ok;
    }
    if (!chunk_account(k, work, tctx, &redone)) {
        p->n = 0;
        return false;
    }
    if (redone) {
        set_up_shared(g);
    }
    batch_pending(g);
    set_up_from(g, first);
    return true;
}

/* position `slot` with `index` to shade; false (reported) if the draw
 * stops */
static bool chunk_add(VertexChunk *k, uint32_t slot, uint32_t index,
                      uint64_t *work, AttilaRenderCtx *tctx)
{
    VertexBatch *b = &k->b[k->n ? k->n - 1 : 0];
    uint32_t cap = k->ds->vs_lanes > 1 ? ATTILA_SH_BATCH : 1;

    if (k->n == 0 || b->n == cap) {
        if (k->n == CHUNK_BATCHES && !shade_chunk(k, work, tctx)) {
            return false;
        }
        b = &k->b[k->n++];
        b->n = 0;
    }
    b->slot[b->n] = slot;
    b->index[b->n++] = index;
    return true;
}

/*
 * A draw's buffers, kept in the core between draws (allocating them cost
 * every draw page faults and a 70 KB clear); none carries anything from
 * one draw to the next. The per-vertex arrays are kept up to
 * KEEP_VERTICES positions: a larger draw's are its own.
 */
#define KEEP_VERTICES 32768

struct AttilaStreamerScratch {
    AttilaRenderCtx tctx;
    VertexChunk chunk;
    PendingTriangles pend;
    /* G3D_CLAIM_STRIDE a thread */
    uint64_t *chunk_next, *pend_next;
    size_t cap;                         /* positions vtx, src, pos hold */
    AttilaVertex *vtx;
    uint32_t *src;
    uint32_t (*pos)[3];
    AttilaSoaProg batches;              /* chunk.batches */
};

static void arrays_free(AttilaStreamerScratch *sc)
{
    g_free(sc->vtx);
    g_free(sc->src);
    g_free(sc->pos);
}

void attila_streamer_free(AttilaCore *c)
{
    if (!c->streamer) {
        return;
    }
    arrays_free(c->streamer);
    g_free(c->streamer->chunk_next);
    g_free(c->streamer->pend_next);
    g_clear_pointer(&c->streamer, g_free);
}

static AttilaStreamerScratch *scratch(AttilaCore *c)
{
    AttilaStreamerScratch *sc = c->streamer;
    int threads = attila_raster_threads(c->raster);

    if (!sc) {
        sc = c->streamer = g_new0(AttilaStreamerScratch, 1);
        sc->chunk_next = g_new0(uint64_t, G3D_CLAIM_STRIDE * threads);
        sc->pend_next = g_new0(uint64_t, G3D_CLAIM_STRIDE * threads);
    }
    return sc;
}

/* the per-position arrays for `count` positions: the kept ones, or the
 * draw's own (*own) */
static void geometry_arrays(AttilaStreamerScratch *sc, Geometry *g,
                            uint32_t count, bool *own)
{
    size_t n = MAX(count, 1);

    *own = n > KEEP_VERTICES;
    if (*own) {
        g->vtx = g_new(AttilaVertex, n);
        g->src = g_new(uint32_t, n);
        g->pos = g_malloc_n(n, sizeof(*g->pos));
        return;
    }
    if (n > sc->cap) {
        sc->cap = MAX(n, MIN(2 * sc->cap, KEEP_VERTICES));
        arrays_free(sc);
        sc->vtx = g_new(AttilaVertex, sc->cap);
        sc->src = g_new(uint32_t, sc->cap);
        sc->pos = g_malloc_n(sc->cap, sizeof(*sc->pos));
    }
    g->vtx = sc->vtx;
    g->src = sc->src;
    g->pos = sc->pos;

}

void attila_streamer_draw(AttilaCore *c, const AttilaDrawState *ds)
{
    AttilaStreamerScratch *sc = scratch(c);
    Geometry g = { .c = c, .ds = ds };
    /* the vertex shader reaches the Texture Unit too: LDA (attila-sim
     * GPUEmulator.cpp) */
    AttilaRenderCtx *tctx = &sc->tctx;
    VertexChunk *chunk = &sc->chunk;
    GHashTable *cache = NULL;
    uint32_t inst, v;
    uint64_t vs_work = 0;
    bool own;

    memset(tctx, 0, sizeof(*tctx));
    tctx->core = c;
    tctx->ds = ds;
    chunk->c = c;
    chunk->ds = ds;
    chunk->threads = attila_raster_threads(c->raster);
    chunk->next = sc->chunk_next;
    /* the vertex program decoded once a draw for the batches (kept while
     * its instructions are the same), its constants broadcast */
    chunk->batches = NULL;
    if (ds->vs_lanes > 1) {
        attila_shader_prepare_batches(&sc->batches, c->imem, ds->vs_pc,
                                      c->vconst);
        chunk->batches = &sc->batches;
    }
    attila_raster_begin(c->raster);
    geometry_arrays(sc, &g, ds->count, &own);
    chunk->vtx = g.vtx;
    if (chunk->threads > 1) {
        g.pend = &sc->pend;
        g.pend->n = 0;
        g.pend->threads = chunk->threads;
        g.pend->next = sc->pend_next;
    }
    if (ds->indexed) {
        cache = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    for (inst = 0; inst < ds->instances; inst++) {
        /* the post-transform cache lives for one instance */
        if (cache) {
            g_hash_table_remove_all(cache);
        }
        chunk->instance = inst;
        chunk->n = 0;
        g.pipeline = !own && inst == ds->instances - 1;
        for (v = 0; v < ds->count; v++) {
            uint32_t index;
            gpointer slot;

            if (g3d_yield()) {
                goto out;       /* reset or unplug: the draw is abandoned */
            }
            if (!attila_streamer_read_index(c, ds, v, &index)) {
                /* the vertices before it first, as one at a time */
                if (shade_chunk(chunk, &vs_work, tctx)) {
                    g3d_error(&c->errors, ATTILA_ERR_ADDRESS,
                              ds->stream[ds->index_stream].address,
                              "draw: index %u outside memory; draw stopped", v);
                }
                goto out;
            }
            if (cache && g_hash_table_lookup_extended(
                    cache, GUINT_TO_POINTER(index), NULL, &slot)) {
                g.src[v] = GPOINTER_TO_UINT(slot);
                continue;
            }
            g.src[v] = v;
            if (cache) {
                g_hash_table_insert(cache, GUINT_TO_POINTER(index),
                                    GUINT_TO_POINTER(v));
            }
            if (!chunk_add(chunk, v, index, &vs_work, tctx)) {
                goto out;
            }
        }
        if (g.pend) {
            /* the triangles' list positions do not depend on the
             * vertices: assembled first, set up with the last chunk */
            g.npos = 0;
            attila_primitive_assembly(ds->primitive, ds->count, triangle, &g);
            if (!shade_set_up(chunk, &g, &vs_work, tctx)) {
                goto out;
            }
        } else {
            if (!shade_chunk(chunk, &vs_work, tctx)) {
                goto out;
            }
            attila_primitive_assembly(ds->primitive, ds->count, triangle, &g);
        }
        flush_batch(&g);
        if (g.stopped) {
            break;
        }
    }
out:
    flush_batch(&g);
    if (cache) {
        g_hash_table_destroy(cache);
    }
    if (own) {
        g_free(g.vtx);
        g_free(g.src);
        g_free(g.pos);
    }
}
