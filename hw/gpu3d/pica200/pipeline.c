/*
 * The geometry pipeline (reference "Geometry pipeline registers" 0x200-0x25F,
 * 3dbrew GPU/Internal Registers 0x200-0x2DD): vertex attribute loading from up
 * to 12 interleaved buffers, fixed attributes, immediate-mode submission,
 * DRAWARRAYS / DRAWELEMENTS in bounded steps, the vertex shader, the geometry
 * shader in point mode, and the output map to fixed-function semantics.
 *
 * Bad input (an attribute or index outside memory, a shader fault) stops the
 * draw with one message; the rest of the list carries on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <limits.h>
#include <string.h>

static const uint8_t elem_size[4] = { 1, 1, 2, 4 };  /* s8, u8, s16, f32 */

void pica_pipeline_reset(Pica200Core *c)
{
    memset(&c->draw, 0, sizeof(c->draw));
    memset(&c->pa, 0, sizeof(c->pa));
    c->front = (PicaFront) {
        .c = c, .pa = &c->pa, .budget_used = &c->budget_used,
        .vertices = &c->stats.vertices, .triangles = &c->stats.triangles,
    };
    c->front_cost16 = 16;
    memset(&c->gs_in, 0, sizeof(c->gs_in));
    memset(c->fixed_attr, 0, sizeof(c->fixed_attr));
    memset(c->fixed_words, 0, sizeof(c->fixed_words));
    memset(c->imm_attr, 0, sizeof(c->imm_attr));
    memset(c->emitter.buffer, 0, sizeof(c->emitter.buffer));
    c->fixed_nwords = 0;
    c->fixed_index = 0;
    c->imm_n = 0;
    /* the emitter's SETEMIT state; its callback is set by every GS run */
    c->emitter.vertex_id = 0;
    c->emitter.prim_emit = false;
    c->emitter.winding = false;
    c->fault_logged = false;
    c->rs = NULL;
    c->rs_dirty = true;
}

/* ---- output map (3dbrew GPU/Internal Registers 0x2B0-0x2DD: OUTMAP_Oi
 * describes the i-th enabled output) */

static void output_vertex(Pica200Core *c, const float out[16][4],
                          uint16_t mask, PicaVertex *v)
{
    unsigned total = c->regs[GPUREG_SH_OUTMAP_TOTAL] & 7, i = 0, reg, k;

    for (k = 0; k < PICA_SEM_COUNT; k++) {
        /* unmapped semantics read 1.0 (reference defect PICA-21,
         * docs/references.md) */
        v->s[k] = 1.0f;
    }
    for (reg = 0; reg < 16 && i < total; reg++) {
        uint32_t map;
        if (!(mask & (1u << reg))) {
            continue;
        }
        map = c->regs[GPUREG_SH_OUTMAP_O0 + i++];
        for (k = 0; k < 4; k++) {
            unsigned sem = (map >> (8 * k)) & 0x1F;
            if (sem < PICA_SEM_COUNT) {
                v->s[sem] = out[reg][k];
            }
        }
    }
    /* colours are made absolute and saturated before interpolation (Citra) */
    for (k = PICA_SEM_COLOR_R; k <= PICA_SEM_COLOR_A; k++) {
        float f = v->s[k] < 0.0f ? -v->s[k] : v->s[k];
        v->s[k] = f < 1.0f ? f : 1.0f;
    }
}

/* ---- shader faults ------------------------------------------------------------- */

static void shader_fault(Pica200Core *c, const char *unit,
                         const PicaShaderState *st)
{
    c->stats.shader_faults++;
    if (!c->fault_logged) {
        c->fault_logged = true;
        g3d_guest_error("pica200: %s shader stopped at 0x%03x: %s; draw "
                        "skipped", unit, st->fault_pc,
                        pica_shader_fault_name(st->fault));
    }
    pica_draw_abort(c);
}

/*
 * ---- the geometry shader ------------------------------------------------------
 *
 * GSH_MISC0 b0-7 picks how vertex shader outputs reach it (Citra,
 * geometry_pipeline.cpp): point mode fills the GS input registers (stride
 * GSH_INPUTBUFFER_CONFIG b0-3 + 1) and runs it when they are full; fixed
 * primitive mode writes b8-15 + 1 vertices of VS outputs into the GS float
 * uniforms from c[b24-31] on and runs it then; variable primitive mode
 * (indexed draws) takes each batch's first index as its vertex count n,
 * puts (n, n, n, n) in c0, then the GSH_MISC1 b0-4 + 1 first vertices' outputs
 * and only output 0 of the rest from c1 on, and runs it after n vertices.
 * After every run bool uniform b15 reads 1 (the program clears it to know
 * the first run of a draw).
 */

/*
 * Primitives one geometry shader invocation may emit: a model limit that
 * keeps one invocation's rasterising bounded (real programs emit a few).
 */
#define PICA_GS_MAX_PRIMS 256

static void gs_emit(void *opaque, float (*v[3])[4], bool winding)
{
    Pica200Core *c = opaque;
    uint16_t mask = c->regs[PICA_GSH_BASE + PICA_SH_OUTMAP_MASK];
    PicaVertex out;
    int i;

    if (++c->gs_prims > PICA_GS_MAX_PRIMS) {
        if (c->gs_prims == PICA_GS_MAX_PRIMS + 1) {
            g3d_guest_error("pica200: geometry shader emits more than %u "
                            "primitives in one run; the rest are dropped",
                            PICA_GS_MAX_PRIMS);
        }
        return;
    }
    if (winding) {
        pica_pa_set_winding(c);
    }
    for (i = 0; i < 3; i++) {
        output_vertex(c, (const float (*)[4])v[i], mask, &out);
        pica_pa_vertex(&c->front, &out);
    }
}

static bool gs_enabled(Pica200Core *c)
{
    return G3D_FIELD_EX32(c->regs[GPUREG_GEOSTAGE_CONFIG],
                          GPUREG_GEOSTAGE_CONFIG, GS_MODE) == 2;
}

/* run the geometry shader on inputs `in` (stride of them, permuted) */
static bool gs_run(Pica200Core *c, const float (*in)[4], unsigned n)
{
    PicaShaderConfig cfg;
    PicaShaderState st;
    uint64_t perm = c->regs[PICA_GSH_BASE + PICA_SH_ATTRIBUTES_PERMUTATION_LOW] |
                    (uint64_t)c->regs[PICA_GSH_BASE + PICA_SH_ATTRIBUTES_PERMUTATION_HIGH] << 32;
    unsigned i;

    memset(st.in, 0, sizeof(st.in));
    for (i = 0; i < n; i++) {
        memcpy(st.in[(perm >> (4 * i)) & 0xF], in[i], sizeof(st.in[0]));
    }
    st.emitter = &c->emitter;
    c->gs_prims = 0;
    c->emitter.emit = gs_emit;
    c->emitter.opaque = c;
    pica_shader_config(c, PICA_UNIT_GS, &cfg);
    i = pica_shader_run(&cfg, &st);
    c->budget_used += st.steps >> 10;   /* long shaders cost budget */
    c->regs[PICA_GSH_BASE + PICA_SH_BOOLUNIFORM] |= 1u << 15;
    if (i != PICA_SHADER_OK) {
        shader_fault(c, "geometry", &st);
        return false;
    }
    return true;
}

/* write one output into the GS float uniforms; false (logged) past c95 */
static bool gs_uniform(Pica200Core *c, const float v[4])
{
    if (c->gs_in.uniform >= PICA_FLOAT_UNIFORMS) {
        g3d_guest_error("pica200: geometry shader input past uniform c%u; "
                        "draw skipped", PICA_FLOAT_UNIFORMS - 1);
        return false;
    }
    memcpy(c->sh[PICA_UNIT_GS].f[c->gs_in.uniform++], v, 4 * sizeof(float));
    return true;
}

/* the next index of a variable-primitive batch: its vertex count */
static void gs_variable_count(Pica200Core *c, uint32_t n)
{
    float f[4];

    if (n == 0) {
        return;                     /* an empty batch: the next index counts */
    }
    f[0] = f[1] = f[2] = f[3] = pica_quantize_f24((float)n);
    c->gs_in.uniform = 0;
    gs_uniform(c, f);
    c->gs_in.left = n;
    c->gs_in.main_left = (c->regs[GPUREG_GSH_MISC1] & 0x1F) + 1;
    c->gs_in.need_count = false;
}

/* feed one vertex's packed VS outputs to the geometry shader's inputs */
static bool gs_input(Pica200Core *c, const float out[16][4], uint16_t mask)
{
    unsigned nvs = (c->regs[GPUREG_VSH_OUTMAP_TOTAL1] & 0xF) + 1;
    unsigned stride = (c->regs[PICA_GSH_BASE + PICA_SH_INPUTBUFFER_CONFIG] & 0xF) + 1;
    uint32_t misc = c->regs[GPUREG_GSH_MISC0];
    const float *o[16];
    unsigned reg, k = 0, n = 0;

    if (c->regs[GPUREG_GEOSTAGE_CONFIG] >> 31) {
        g3d_unimp_once(&c->errors, PICA_UNIMP_SUBDIV,
                       "reserved geometry shader subdivision not modelled");
    }
    for (reg = 0; reg < 16 && n < nvs; reg++) {
        if (mask & (1u << reg)) {
            o[n++] = out[reg];
        }
    }

    switch (misc & 0xFF) {
    case PICA_GS_MODE_FIXED: {
        unsigned nverts = ((misc >> 8) & 0xFF) + 1, start = misc >> 24;

        if (c->gs_in.n == 0) {
            c->gs_in.uniform = start;
        }
        for (k = 0; k < n; k++) {
            if (!gs_uniform(c, o[k])) {
                return false;
            }
        }
        if (++c->gs_in.n < nverts) {
            return true;
        }
        c->gs_in.n = 0;
        return gs_run(c, NULL, 0);
    }
    case PICA_GS_MODE_VARIABLE:
        if (c->gs_in.main_left) {
            c->gs_in.main_left--;
        } else {
            n = MIN(n, 1u);         /* only the first output (the position) */
        }
        for (k = 0; k < n; k++) {
            if (!gs_uniform(c, o[k])) {
                return false;
            }
        }
        if (--c->gs_in.left) {
            return true;
        }
        c->gs_in.need_count = true;
        return gs_run(c, NULL, 0);
    case PICA_GS_MODE_POINT:
        break;
    default:
        g3d_guest_error("pica200: geometry shader input mode %u is undefined; "
                        "draw skipped", misc & 0xFF);
        return false;
    }

    for (k = 0; k < n; k++) {
        memcpy(c->gs_in.attr[c->gs_in.n++], o[k], sizeof(c->gs_in.attr[0]));
        if (c->gs_in.n < stride) {
            continue;
        }
        c->gs_in.n = 0;
        if (!gs_run(c, (const float (*)[4])c->gs_in.attr, stride)) {
            return false;
        }
    }
    return true;
}

/*
 * Run the vertex shader on one vertex's attributes and pass the result on:
 * to the GS input buffer, or through the output map to primitive assembly.
 * `cached` (indexed draws without GS) receives the output vertex.
 */
static bool process_vertex(PicaFront *f, const float (*attr)[4],
                           unsigned nattr, PicaVertex *cached)
{
    Pica200Core *c = f->c;
    PicaShaderConfig cfg;
    PicaShaderState st;
    uint64_t perm = c->regs[PICA_VSH_BASE + PICA_SH_ATTRIBUTES_PERMUTATION_LOW] |
                    (uint64_t)c->regs[PICA_VSH_BASE + PICA_SH_ATTRIBUTES_PERMUTATION_HIGH] << 32;
    unsigned ninputs = (c->regs[PICA_VSH_BASE + PICA_SH_INPUTBUFFER_CONFIG] & 0xF) + 1;
    uint16_t mask = c->regs[PICA_VSH_BASE + PICA_SH_OUTMAP_MASK];
    PicaVertex v;
    unsigned j;

    memset(st.in, 0, sizeof(st.in));
    for (j = 0; j < ninputs && j < nattr; j++) {
        memcpy(st.in[(perm >> (4 * j)) & 0xF], attr[j], sizeof(st.in[0]));
    }
    st.emitter = NULL;
    pica_shader_config(c, PICA_UNIT_VS, &cfg);
    (*f->vertices)++;
    j = pica_shader_run(&cfg, &st);
    *f->budget_used += st.steps >> 10;      /* long shaders cost budget */
    if (j != PICA_SHADER_OK) {
        if (f->staged) {
            f->failed = true;               /* the serial run logs it */
        } else {
            shader_fault(c, "vertex", &st);
        }
        return false;
    }
    if (gs_enabled(c)) {
        return gs_input(c, (const float (*)[4])st.out, mask);
    }
    output_vertex(c, (const float (*)[4])st.out, mask, &v);
    if (cached) {
        *cached = v;
    }
    pica_pa_vertex(f, &v);
    return true;
}

/* ---- attribute buffers ------------------------------------------------------------ */

static bool setup_attribs(Pica200Core *c, PicaDraw *d)
{
    uint64_t base = (uint64_t)(c->regs[GPUREG_ATTRIBBUFFERS_LOC] & 0x1FFFFFFE) << 3;
    uint64_t fmt = c->regs[GPUREG_ATTRIBBUFFERS_FORMAT_LOW] |
                   (uint64_t)(c->regs[GPUREG_ATTRIBBUFFERS_FORMAT_HIGH] & 0xFFFF) << 32;
    unsigned i, k;

    d->nattrs = G3D_FIELD_EX32(c->regs[GPUREG_ATTRIBBUFFERS_FORMAT_HIGH],
                               GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, TOTAL_M1) + 1;
    if (d->nattrs > 12) {
        g3d_guest_error("pica200: %u vertex attributes (at most 12); draw "
                        "skipped", d->nattrs);
        return false;
    }
    for (i = 0; i < 12; i++) {
        d->attr[i].fixed = true;
    }
    for (i = 0; i < 12; i++) {
        uint32_t cfg1 = c->regs[PICA_ATTRIBBUFFER_CONFIG1(i)];
        uint32_t cfg2 = c->regs[PICA_ATTRIBBUFFER_CONFIG2(i)];
        unsigned ncomp = G3D_FIELD_EX32(cfg2, GPUREG_ATTRIBBUFFER0_CONFIG2, COMPONENTS);
        uint32_t stride = G3D_FIELD_EX32(cfg2, GPUREG_ATTRIBBUFFER0_CONFIG2, STRIDE);
        uint64_t addr = base + (c->regs[PICA_ATTRIBBUFFER_OFFSET(i)] & 0x0FFFFFFF);
        uint32_t off = 0;

        if (ncomp > 12) {
            g3d_guest_error("pica200: attribute buffer %u has %u components "
                            "(at most 12); draw skipped", i, ncomp);
            return false;
        }
        for (k = 0; k < ncomp; k++) {
            unsigned sel = k < 8 ? (cfg1 >> (4 * k)) & 0xF
                                 : (cfg2 >> (4 * (k - 8))) & 0xF;
            if (sel < 12) {
                PicaAttribSource *a = &d->attr[sel];
                unsigned type = (fmt >> (4 * sel)) & 3;
                unsigned esz = elem_size[type];
                /* each attribute is aligned to its element size (Citra) */
                off = (off + esz - 1) & ~(esz - 1);
                a->fixed = false;
                a->type = type;
                a->comps = ((fmt >> (4 * sel + 2)) & 3) + 1;
                a->addr = addr + off;
                a->stride = stride;
                off += a->comps * esz;
            } else {
                /* 12..15: 4, 8, 12, 16 bytes of padding */
                off = ((off + 3) & ~3u) + (sel - 11) * 4;
            }
        }
    }
    return true;
}

/* fetch attribute `j` of vertex `index` into out (missing components 0,0,0,1) */
static bool load_attrib(Pica200Core *c, const PicaAttribSource *a,
                        uint32_t index, float out[4])
{
    uint8_t raw[16];
    unsigned esz = elem_size[a->type], k;
    uint64_t addr = a->addr + (uint64_t)a->stride * index;

    if (!pica_mem_read(c, addr, raw, a->comps * esz)) {
        return false;
    }
    out[0] = out[1] = out[2] = 0.0f;
    out[3] = 1.0f;
    for (k = 0; k < a->comps; k++) {
        const uint8_t *p = raw + k * esz;
        switch (a->type) {
        case PICA_ATTR_S8: out[k] = (int8_t)p[0]; break;
        case PICA_ATTR_U8: out[k] = p[0]; break;
        case PICA_ATTR_S16: out[k] = (int16_t)(p[0] | p[1] << 8); break;
        default:
            out[k] = pica_quantize_f24(g3d_u2f(p[0] | p[1] << 8 | p[2] << 16 |
                                               (uint32_t)p[3] << 24));
            break;
        }
    }
    return true;
}

/* ---- draws ------------------------------------------------------------------------- */

void pica_draw_abort(Pica200Core *c)
{
    c->draw.active = false;
}

void pica_draw_start(Pica200Core *c, bool indexed)
{
    PicaDraw *d = &c->draw;
    uint32_t icfg = c->regs[GPUREG_INDEXBUFFER_CONFIG];
    uint64_t base = (uint64_t)(c->regs[GPUREG_ATTRIBBUFFERS_LOC] & 0x1FFFFFFE) << 3;

    if (d->active) {
        return;                     /* cannot happen: writes wait for draws */
    }
    c->fault_logged = false;
    c->gs_in.n = 0;
    c->gs_in.main_left = 0;
    c->gs_in.need_count = gs_enabled(c) &&
        (c->regs[GPUREG_GSH_MISC0] & 0xFF) == PICA_GS_MODE_VARIABLE;
    if (c->gs_in.need_count && !indexed) {
        g3d_guest_error("pica200: the geometry shader's variable primitive "
                        "mode needs an indexed draw; draw skipped");
        return;
    }
    if (!setup_attribs(c, d)) {
        return;
    }
    d->indexed = indexed;
    d->count = c->regs[GPUREG_NUMVERTICES];
    d->first = c->regs[GPUREG_VERTEX_OFFSET];
    d->next = 0;
    d->index_u16 = G3D_FIELD_EX32(icfg, GPUREG_INDEXBUFFER_CONFIG, U16);
    d->index_addr = base + G3D_FIELD_EX32(icfg, GPUREG_INDEXBUFFER_CONFIG, OFFSET);
    if (indexed && d->count &&
        !pica_mem_map(c, d->index_addr,
                      (uint64_t)d->count << d->index_u16, false)) {
        g3d_guest_error("pica200: %u indices at 0x%" G_GINT64_MODIFIER "x "
                        "are outside memory; draw skipped", d->count,
                        d->index_addr);
        return;
    }
    memset(d->cache.valid, 0, sizeof(d->cache.valid));
    /*
     * a draw's first run on the render threads takes a vertex to cost two
     * units (a vertex and a small triangle of a strip: a list's cost
     * less), later ones what the last cost: a draw of large triangles
     * then stays serial, and does not keep the next draw so
     */
    c->front_cost16 = 32;
    d->active = d->count > 0;
}

/*
 * Vertex k of the draw: fetch it (or find it in `cache`), shade it and
 * pass it on to f's primitive assembly. False when the front end stopped:
 * the draw is aborted (serial) or f->failed is set (staged).
 */
static bool draw_vertex(PicaFront *f, PicaVtxCache *cache, uint32_t k)
{
    Pica200Core *c = f->c;
    const PicaDraw *d = &c->draw;
    float attr[12][4];
    uint32_t index;
    unsigned j, slot;

    (*f->budget_used)++;
    if (d->indexed) {
        uint8_t b[2] = { 0, 0 };
        /* inside memory: pica_draw_start mapped every index */
        pica_mem_read(c, d->index_addr + ((uint64_t)k << d->index_u16),
                      b, 1 + d->index_u16);
        index = b[0] | b[1] << 8;
    } else {
        index = d->first + k;
    }
    if (c->gs_in.need_count) {
        gs_variable_count(c, index);
        return true;
    }
    slot = index % PICA_VCACHE;
    if (cache && cache->valid[slot] && cache->tag[slot] == index) {
        pica_pa_vertex(f, &cache->vtx[slot]);
        return true;
    }
    for (j = 0; j < d->nattrs; j++) {
        if (d->attr[j].fixed) {
            memcpy(attr[j], c->fixed_attr[j], sizeof(attr[j]));
        } else if (!load_attrib(c, &d->attr[j], index, attr[j])) {
            if (f->staged) {
                f->failed = true;           /* the serial run logs it */
                return false;
            }
            g3d_guest_error("pica200: attribute %u of vertex %u is "
                            "outside memory; draw skipped", j, index);
            pica_draw_abort(c);
            return false;
        }
    }
    if (!process_vertex(f, (const float (*)[4])attr, d->nattrs,
                        cache ? &cache->vtx[slot] : NULL)) {
        return false;
    }
    if (cache) {
        cache->valid[slot] = true;
        cache->tag[slot] = index;
    }
    return true;
}

/*
 * ---- the front end on the render threads ----------------------------------
 *
 * A run of a draw's vertices is cut into chunks that the render threads
 * take (g3d_raster_run_shared); each chunk shades its vertices (a thread's
 * own post-vertex cache, emptied a chunk: it only saves work, a vertex's
 * outputs depend on its index alone within a draw), assembles, clips and
 * sets its triangles up into its own G3DRasterStage. The stages are then
 * committed in order on this thread, so the rasteriser gets the serial
 * front end's triangles in the serial order and the image does not depend
 * on the thread count. A chunk is the unit of budget: chunks are committed
 * until the budget is spent, the draw resuming after the last one. A chunk
 * that met what the serial front end logs (an attribute outside memory, a
 * shader fault, a vertex out of the rasteriser's range) is dropped with
 * those after it, and runs again serially, which logs it in its place.
 *
 * Serial stay: geometry shader draws (the GS's uniforms, inputs and emit
 * count are one state through the draw), a pending GS winding reversal,
 * and a draw before its render-state snapshot exists (the first triangle
 * builds it, and building may log: that stays where the serial path has it).
 */
#define FRONT_MIN_VERTS  96     /* fewer: one thread (waking costs more) */
#define FRONT_CHUNK      48     /* vertices a chunk, at least */
#define FRONT_CHUNKS     64     /* chunks a run, at most */

typedef struct FrontChunk {
    PicaPrimAsm pa;             /* assembly state after its last vertex */
    unsigned units;             /* budget spent */
    uint64_t vertices, triangles;
    bool failed;
} FrontChunk;

typedef struct FrontJob {
    Pica200Core *c;
    uint32_t first;             /* the draw's vertex at the run's start */
    uint32_t nchunks;
    uint32_t next;              /* the next chunk to take (atomic) */
    uint32_t at[FRONT_CHUNKS + 1];  /* chunk u: run vertices [at[u], at[u+1]) */
    bool cached;                /* indexed: use the threads' caches */
    G3DRasterStage *stage[FRONT_CHUNKS];
    FrontChunk out[FRONT_CHUNKS];
} FrontJob;

/*
 * A chunk's assembly state at run vertex a > 0, from the run's start state
 * (f->pa) and the vertices before a (3dbrew GPU/Internal Registers 0x25E;
 * primitive.c): a list's chunks start at a triangle's first vertex; a
 * strip holds the last two vertices, in the slots they were written to;
 * a fan its centre (the run's first vertex unless one was buffered
 * before) and the last vertex.
 */
static void front_warm(PicaFront *f, PicaVtxCache *cache, uint32_t first,
                       uint32_t a)
{
    Pica200Core *c = f->c;

    f->warm = true;
    switch (G3D_FIELD_EX32(c->regs[GPUREG_PRIMITIVE_CONFIG],
                           GPUREG_PRIMITIVE_CONFIG, TOPOLOGY)) {
    case PICA_TOPOLOGY_STRIP:
        f->pa->index ^= (a - 2) & 1;    /* the slot vertex a - 2 took */
        draw_vertex(f, cache, first + a - 2);
        draw_vertex(f, cache, first + a - 1);
        break;
    case PICA_TOPOLOGY_FAN:
        if (f->pa->index == 0) {
            draw_vertex(f, cache, first);
        }
        draw_vertex(f, cache, first + a - 1);
        break;
    default:
        f->pa->n = 0;
        break;
    }
    f->warm = false;
}

static void front_job(void *arg, int thread)
{
    FrontJob *j = arg;
    Pica200Core *c = j->c;
    PicaVtxCache *cache = j->cached ? (PicaVtxCache *)c->vcaches[thread] : NULL;
    uint32_t u, k;

    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           j->nchunks) {
        FrontChunk *o = &j->out[u];
        PicaFront f = {
            .c = c, .pa = &o->pa, .budget_used = &o->units,
            .vertices = &o->vertices, .triangles = &o->triangles,
            .staged = true,
        };

        if (cache) {
            memset(cache->valid, 0, sizeof(cache->valid));
        }
        o->pa = c->pa;
        g3d_raster_stage_enter(j->stage[u]);
        if (u > 0) {
            front_warm(&f, cache, j->first, j->at[u]);
        }
        /* the warm-up's vertices are counted by the chunk before */
        o->units = 0;
        o->vertices = o->triangles = 0;
        for (k = j->at[u]; k < j->at[u + 1] && !f.failed; k++) {
            draw_vertex(&f, cache, j->first + k);
        }
        g3d_raster_stage_leave();
        o->failed = f.failed;
    }
}

/*
 * A run of the draw's vertices on every render thread; false when it must
 * run serially (see above). On return the draw has moved on.
 */
static bool draw_parallel(Pica200Core *c, unsigned budget)
{
    PicaDraw *d = &c->draw;
    PicaRenderState *rs = c->rs;
    int threads;
    uint32_t left = d->count - d->next, nv, per, off, u, redo = 0;
    bool list, stop = false;
    uint64_t units = 0;
    size_t queued = 0;
    FrontJob j;

    if (gs_enabled(c) || c->pa.winding ||
        !rs || c->rs_dirty || !rs->color) {
        return false;
    }
    /* as many vertices as the budget left pays for, at the last run's cost */
    nv = (uint32_t)MIN((uint64_t)(budget - c->budget_used) * 16 /
                       MAX(c->front_cost16, 1u), left);
    if (nv < FRONT_MIN_VERTS) {
        return false;
    }
    threads = g3d_raster_threads(c->raster);
    list = G3D_FIELD_EX32(c->regs[GPUREG_PRIMITIVE_CONFIG],
                          GPUREG_PRIMITIVE_CONFIG, TOPOLOGY) !=
           PICA_TOPOLOGY_STRIP &&
           G3D_FIELD_EX32(c->regs[GPUREG_PRIMITIVE_CONFIG],
                          GPUREG_PRIMITIVE_CONFIG, TOPOLOGY) !=
           PICA_TOPOLOGY_FAN;
    per = MAX(FRONT_CHUNK, (nv + FRONT_CHUNKS - 1) / FRONT_CHUNKS);
    off = 0;
    if (list) {
        per = (per + 2) / 3 * 3;
        off = (3 - c->pa.n) % 3;    /* the rest of a started triangle */
    }
    j.c = c;
    j.first = d->next;
    j.next = 0;
    j.cached = d->indexed;
    j.nchunks = g3d_raster_chunks(j.at, FRONT_CHUNKS, off, per, nv);
    for (u = 0; u < j.nchunks; u++) {
        j.stage[u] = g3d_raster_stage(c->raster, u);
        j.out[u].failed = true;         /* until it has run */
    }
    for (u = 0; u < (uint32_t)threads && j.cached; u++) {
        g3d_raster_thread_block(c->raster, &c->vcaches, u,
                                sizeof(PicaVtxCache));
    }
    g3d_raster_run_shared(c->raster, front_job, &j);

    for (u = 0; u < j.nchunks; u++) {
        FrontChunk *o = &j.out[u];

        if (stop || o->failed) {
            if (!stop && o->failed) {
                redo = j.first + j.at[u + 1];
            }
            stop = true;
            g3d_raster_stage_drop(j.stage[u]);
            continue;
        }
        queued += g3d_raster_stage_commit(c->raster, j.stage[u]);
        c->pa = o->pa;
        d->next = j.first + j.at[u + 1];
        c->budget_used += o->units;
        c->stats.vertices += o->vertices;
        c->stats.triangles += o->triangles;
        units += o->units;
        stop = c->budget_used >= budget;
    }
    if (d->next > j.first) {
        c->front_cost16 = (unsigned)MIN(units * 16 / (d->next - j.first),
                                        (uint64_t)UINT_MAX);
    }
    /*
     * What emit does a triangle, once the stages are in: nothing was
     * flushed while a stage's triangles waited (the flush ends their
     * arenas and the snapshot)
     */
    if (queued && rs->serial_tiles) {
        g3d_raster_serial(c->raster);
    }
    pica_raster_count(c, queued);
    /* a failed chunk: serially, from its start to its end, logging */
    while (d->active && d->next < redo) {
        if (!draw_vertex(&c->front, j.cached ? &d->cache : NULL, d->next++)) {
            break;
        }
    }
    if (d->next >= d->count) {
        d->active = false;
    }
    c->front_runs++;
    return true;
}

uint64_t pica200_front_runs(Pica200Core *c)
{
    return c->front_runs;
}

bool pica_draw_step(Pica200Core *c, unsigned budget)
{
    PicaDraw *d = &c->draw;
    PicaVtxCache *cache = d->indexed && !gs_enabled(c) ? &d->cache : NULL;
    bool threads = g3d_raster_threads(c->raster) > 1 && !g3d_general_path;

    /* a vertex (a chunk of them) is a unit: between two, nothing is half done */
    while (d->active && c->budget_used < budget && !g3d_step_end()) {
        if (d->next >= d->count) {
            d->active = false;
            break;
        }
        if (threads && draw_parallel(c, budget)) {
            continue;
        }
        if (!draw_vertex(&c->front, cache, d->next++)) {
            return false;
        }
    }
    return d->active;
}

void pica_pipeline_free(Pica200Core *c)
{
    g3d_raster_thread_blocks_free(c->raster, &c->vcaches);
}
/* ---- fixed attributes and immediate mode (3dbrew GPU/Fixed Vertex
 * Attributes) */

void pica_fixedattrib_index(Pica200Core *c, uint32_t value)
{
    c->fixed_index = value & 0xF;
    c->fixed_nwords = 0;
    if (c->fixed_index == PICA_FIXEDATTRIB_IMMEDIATE) {
        c->imm_n = 0;
        c->fault_logged = false;
    }
}

void pica_fixedattrib_data(Pica200Core *c, uint32_t value)
{
    float v[4];

    c->fixed_words[c->fixed_nwords++] = value;
    if (c->fixed_nwords < 3) {
        return;
    }
    c->fixed_nwords = 0;
    pica_unpack_f24x4(c->fixed_words, v);
    if (c->fixed_index < 12) {
        memcpy(c->fixed_attr[c->fixed_index++], v, sizeof(v));
        return;
    }
    if (c->fixed_index != PICA_FIXEDATTRIB_IMMEDIATE) {
        g3d_guest_error("pica200: fixed attribute %u does not exist",
                        c->fixed_index);
        return;
    }
    memcpy(c->imm_attr[c->imm_n++], v, sizeof(v));
    /* the vertex is complete after attribute VSH_NUM_ATTR (Citra) */
    if (c->imm_n > (c->regs[GPUREG_VSH_NUM_ATTR] & 0xF)) {
        unsigned n = c->imm_n;
        c->imm_n = 0;
        process_vertex(&c->front, (const float (*)[4])c->imm_attr, n, NULL);
    }
}
