/*
 * R300 VAP: vertex fetch (immediate data, arrays of structures, indices),
 * the programmable stream decoder (PSC), the PVS or its bypass, and
 * primitive assembly [R3xx 3D ref. §1.10 VAP].
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <math.h>
#include <string.h>

#define VCACHE 256                        /* processed-vertex cache entries */

/* ---- PVS upload ------------------------------------------------------ */

void r300_vap_pvs_upload(R300Core *c, uint32_t val)
{
    uint32_t i = c->pvs_upload;

    if (i >= R300_PVS_VECTOR_OCTWORDS * 4) {
        g3d_error(&c->errors, 0, 0,
                  "r300: PVS upload past vector memory (octword %u)",
                  i / 4);
        return;
    }
    /* one octword per 4 dwords, auto-incrementing [R3xx 3D ref. §1.10
     * VAP_PVS_*, EXT] */
    c->pvs_vmem[i / 4][i % 4] = val;
    c->pvs_loaded[i / 32] |= 1u << ((i / 4) % 8);
    c->pvs_upload = i + 1;
}

/* ---- the draw: per-draw decode of the vertex path ------------------- */

typedef struct StreamElem {
    uint16_t cntl, ext;         /* halves of PROG_STREAM_CNTL(_EXT) */
    uint8_t sgn_norm;           /* VAP_PSC_SGN_NORM_CNTL method */
    uint8_t dwords;             /* the data type's size */
} StreamElem;

typedef struct VtxCacheEntry {
    /* the draw's or chunk's stamp << 32 | (fetch index + 1); 0 = empty */
    uint64_t key;
    R300Vertex v;
} VtxCacheEntry;

typedef struct DrawCtx {
    R300Core *c;
    const R300DrawSrc *src;
    uint32_t prim, walk, nverts;
    bool index32;
    uint32_t vtx_size;          /* immediate dwords per vertex */
    uint32_t min_index, max_index;
    unsigned nelems;
    StreamElem elem[16];
    uint32_t swap;              /* VC_SWAP */
    bool bypass;                /* PVS_BYPASS */
    uint32_t out_fmt0, out_fmt1;
    bool failed;                /* a fetch failed: stop the draw */
    bool cancelled;             /* g3d_yield() said abandon */
    bool quiet;                 /* a chunk (front_job): fail, do not log */
    VtxCacheEntry *cache;
    uint64_t stamp;             /* of the draw or chunk, << 32 */
    /*
     * The input vectors, zeroed once a draw: a vertex rewrites only the
     * stream elements' destinations (zeroed first, as an element may write
     * some components), so the vectors no element writes stay 0.
     */
    float in[R300_PVS_MAX_INPUTS][4];
} DrawCtx;

static unsigned type_dwords(unsigned type)
{
    static const uint8_t n[16] = { 1, 2, 3, 4, 1, 1, 1, 2, 1, 1 };
    return n[type & 15];
}

/* Decode PROG_STREAM_CNTL up to LAST_VEC; false if the stream is unusable. */
static bool decode_streams(DrawCtx *d)
{
    R300Core *c = d->c;
    uint32_t sgn = R300_REG(c, A_VAP_PSC_SGN_NORM_CNTL);
    unsigned e;

    for (e = 0; e < 16; e++) {
        uint32_t w = R300_REG(c, R300_VAP_PROG_STREAM_CNTL(e / 2));
        uint32_t x = R300_REG(c, R300_VAP_PROG_STREAM_CNTL_EXT(e / 2));
        StreamElem *s = &d->elem[e];

        s->cntl = (e & 1) ? w >> 16 : w & 0xFFFF;
        s->ext = (e & 1) ? x >> 16 : x & 0xFFFF;
        s->sgn_norm = (sgn >> (2 * e)) & 3;
        if (R300_PSC_DATA_TYPE(s->cntl) > R300_DATA_TYPE_VECTOR_3_EET) {
            g3d_error(&c->errors, 0, 0,
                      "r300: stream element %u has data type %u", e,
                      R300_PSC_DATA_TYPE(s->cntl));
            return false;
        }
        s->dwords = type_dwords(R300_PSC_DATA_TYPE(s->cntl));
        if (s->cntl & R300_PSC_LAST_VEC) {
            d->nelems = e + 1;
            return true;
        }
    }
    g3d_error(&c->errors, 0, 0,
              "r300: no stream element has LAST_VEC set");
    return false;
}

static uint32_t swap32(uint32_t v, uint32_t mode)
{
    switch (mode) {
    case 1:  return (v & 0xFF00FF00u) >> 8 | (v & 0x00FF00FFu) << 8;
    case 2:  return __builtin_bswap32(v);
    case 3:  return v >> 16 | v << 16;
    default: return v;
    }
}

/* one n-bit fixed-point component by SIGNED / NORMALIZE [R3xx 3D ref. §1.10
 * VAP] */
static float fixed_comp(uint32_t raw, int bits, const StreamElem *s)
{
    bool sgn = s->cntl & R300_PSC_SIGNED, norm = s->cntl & R300_PSC_NORMALIZE;
    float maxu = (float)((1u << bits) - 1);

    if (!sgn) {
        return norm ? (float)raw / maxu : (float)raw;
    } else {
        int32_t v = (int32_t)(raw << (32 - bits)) >> (32 - bits);
        float half = (float)((1u << (bits - 1)) - 1);
        if (!norm) {
            return (float)v;
        }
        switch (s->sgn_norm) {
        case 0:                  /* SGN_NORM_ZERO: v / (2^(n-1) - 1) */
            return (float)v / half;
        case 1:                  /* ... clamped at -1 */
            return fmaxf((float)v / half, -1.0f);
        /* SGN_NORM_NO_ZERO: (2v + 1) / (2^n - 1) (reference defect R300-54,
         * docs/references.md) */
        default:
            return (2.0f * v + 1.0f) / maxu;
        }
    }
}

/* Decode one element's dwords into the PVS input it writes. */
static void decode_elem(const StreamElem *s, const uint32_t *dw,
                        float in[R300_PVS_MAX_INPUTS][4])
{
    float raw[4] = { 0.0f, 0.0f, 0.0f, 1.0f };
    unsigned type = R300_PSC_DATA_TYPE(s->cntl), k;
    float *dst = in[R300_PSC_DST_VEC_LOC(s->cntl)];
    unsigned we = R300_PSC_WRITE_ENA(s->ext);

    switch (type) {
    case R300_DATA_TYPE_FLOAT_1:
    case R300_DATA_TYPE_FLOAT_2:
    case R300_DATA_TYPE_FLOAT_3:
    case R300_DATA_TYPE_FLOAT_4:
        for (k = 0; k <= type; k++) {
            memcpy(&raw[k], &dw[k], 4);
        }
        break;
    case R300_DATA_TYPE_BYTE:
        for (k = 0; k < 4; k++) {
            raw[k] = fixed_comp((dw[0] >> (8 * k)) & 0xFF, 8, s);
        }
        break;
    case R300_DATA_TYPE_D3DCOLOR:          /* as BYTE with X and Z swapped */
        raw[2] = fixed_comp(dw[0] & 0xFF, 8, s);
        raw[1] = fixed_comp((dw[0] >> 8) & 0xFF, 8, s);
        raw[0] = fixed_comp((dw[0] >> 16) & 0xFF, 8, s);
        raw[3] = fixed_comp(dw[0] >> 24, 8, s);
        break;
    case R300_DATA_TYPE_SHORT_2:
        raw[0] = fixed_comp(dw[0] & 0xFFFF, 16, s);
        raw[1] = fixed_comp(dw[0] >> 16, 16, s);
        raw[2] = 0.0f;
        raw[3] = 1.0f;
        break;
    case R300_DATA_TYPE_SHORT_4:
        raw[0] = fixed_comp(dw[0] & 0xFFFF, 16, s);
        raw[1] = fixed_comp(dw[0] >> 16, 16, s);
        raw[2] = fixed_comp(dw[1] & 0xFFFF, 16, s);
        raw[3] = fixed_comp(dw[1] >> 16, 16, s);
        break;
    case R300_DATA_TYPE_VECTOR_3_TTT:
        raw[0] = fixed_comp(dw[0] & 0x3FF, 10, s);
        raw[1] = fixed_comp((dw[0] >> 10) & 0x3FF, 10, s);
        raw[2] = fixed_comp((dw[0] >> 20) & 0x3FF, 10, s);
        raw[3] = 1.0f;
        break;
    default:                               /* VECTOR_3_EET: 11, 11, 10 */
        raw[0] = fixed_comp(dw[0] & 0x7FF, 11, s);
        raw[1] = fixed_comp((dw[0] >> 11) & 0x7FF, 11, s);
        raw[2] = fixed_comp(dw[0] >> 22, 10, s);
        raw[3] = 1.0f;
        break;
    }
    for (k = 0; k < 4; k++) {
        unsigned sel = R300_PSC_SWIZZLE(s->ext, k);
        if (we & (1u << k)) {
            dst[k] = sel < 4 ? raw[sel] : sel == R300_SWIZZLE_SELECT_FP_ONE
                                              ? 1.0f : 0.0f;
        }
    }
}

/* The index the draw's i-th vertex fetches, clamped to MIN/MAX_VTX_INDX. */
static bool vertex_index(DrawCtx *d, uint32_t i, uint32_t *index)
{
    const R300DrawSrc *src = d->src;
    uint32_t v;

    if (src->kind == R300_SRC_VBUF) {
        v = i;
    } else if (d->index32) {
        if (i >= src->ndwords) {
            return false;
        }
        v = src->data[i];
    } else {
        uint32_t h = i;
        if (d->prim == R300_PRIM_TRIANGLE_W_FLAGS) {
            h = i + i / 3;          /* every fourth half-word is wFlags */
        }
        if (h / 2 >= src->ndwords) {
            return false;
        }
        /* two 16-bit indices per dword, low half first [Mesa r300_reg.h,
         * r300_cs.h; Linux radeon r300-core.c] */
        v = (h & 1) ? src->data[h / 2] >> 16 : src->data[h / 2] & 0xFFFF;
    }
    v = v < d->min_index ? d->min_index : v > d->max_index ? d->max_index : v;
    *index = v;
    return true;
}

/* Fetch vertex i's input vectors. */
static bool fetch_inputs(DrawCtx *d, uint32_t i, uint32_t index,
                         float in[R300_PVS_MAX_INPUTS][4])
{
    R300Core *c = d->c;
    unsigned e;

    for (e = 0; e < d->nelems; e++) {
        memset(in[R300_PSC_DST_VEC_LOC(d->elem[e].cntl)], 0, 4 * sizeof(float));
    }
    if (d->src->kind == R300_SRC_IMMD) {
        const uint32_t *dw = d->src->data + (size_t)i * d->vtx_size;
        unsigned used = 0;
        for (e = 0; e < d->nelems; e++) {
            const StreamElem *s = &d->elem[e];
            if (used + s->dwords > d->vtx_size) {
                if (!d->quiet) {
                    g3d_error(&c->errors, 0, 0,
                              "r300: stream elements need more than "
                              "VAP_VTX_SIZE = %u dwords", d->vtx_size);
                }
                return false;
            }
            decode_elem(s, dw + used, in);
            used += s->dwords + R300_PSC_SKIP_DWORDS(s->cntl);
        }
        return true;
    }
    /* arrays: stream element e reads array e [R3xx 3D ref. §1.10 VAP, EXT
     * Mesa] */
    for (e = 0; e < d->nelems; e++) {
        const StreamElem *s = &d->elem[e];
        uint32_t attr = R300_REG(c, R300_VAP_VTX_AOS_ATTR(e / 2)) >> (16 * (e & 1));
        uint32_t stride = (attr >> 8) & 0x7F;
        uint64_t addr = R300_REG(c, R300_VAP_VTX_AOS_ADDR(e)) & ~3u;
        uint32_t dw[4];
        unsigned k;

        addr += 4ull * stride * index;
        if (!g3d_mem_read(&c->gpu, addr, dw, 4 * s->dwords)) {
            if (!d->quiet) {
                g3d_error(&c->errors, 0, 0,
                          "r300: vertex array %u element %u at 0x%08"
                          G_GINT64_MODIFIER "x outside memory", e, index,
                          addr);
            }
            return false;
        }
        for (k = 0; k < s->dwords; k++) {
            dw[k] = swap32(dw[k], d->swap);
        }
        decode_elem(s, dw, in);
    }
    return true;
}

/*
 * PVS outputs -> the VAP output vertex: position, point size, colours 0-3,
 * texcoords 0-7, in that order, each present per VAP_OUT_VTX_FMT_0/1
 * [R3xx 3D ref. §1.10 VAP_OUT_VTX_FMT]. With PVS_BYPASS the input slot is the
 * output slot (0 position, 1 point size, 2-5 colours, 6-13 texcoords) [EXT
 * Mesa].
 */
static void outputs_to_vertex(DrawCtx *d, float out[R300_PVS_MAX_OUTPUTS][4],
                              R300Vertex *v)
{
    unsigned k = 0, n;

    memset(v, 0, sizeof(*v));
    v->pos[3] = 1.0f;
    if (d->bypass) {
        memcpy(v->pos, out[0], 16);
        v->psize = out[1][0];
        for (n = 0; n < 4; n++) {
            memcpy(v->col[n], out[2 + n], 16);
        }
        for (n = 0; n < 8; n++) {
            memcpy(v->tex[n], out[6 + n], 16);
        }
        return;
    }
    if (d->out_fmt0 & R_VAP_OUT_VTX_FMT_0_VTX_POS_PRESENT_MASK) {
        memcpy(v->pos, out[k++], 16);
    }
    if (d->out_fmt0 & R_VAP_OUT_VTX_FMT_0_VTX_PT_SIZE_PRESENT_MASK) {
        v->psize = out[k++][0];
    }
    for (n = 0; n < 4 && k < R300_PVS_MAX_OUTPUTS; n++) {
        if (d->out_fmt0 & (2u << n)) {
            memcpy(v->col[n], out[k++], 16);
        }
    }
    for (n = 0; n < 8 && k < R300_PVS_MAX_OUTPUTS; n++) {
        if (R300_OUT_VTX_FMT_1_TEX_COMP_CNT(d->out_fmt1, n)) {
            memcpy(v->tex[n], out[k++], 16);
        }
    }
}

static const R300Vertex *get_vertex(DrawCtx *d, uint32_t i)
{
    uint32_t index = i, slot;
    uint64_t key;
    VtxCacheEntry *e;
    float out[R300_PVS_MAX_OUTPUTS][4];

    if (d->failed) {
        return NULL;
    }
    if (g3d_yield()) {
        /* reset or unplug: the draw is abandoned */
        d->failed = d->cancelled = true;
        return NULL;
    }
    if (d->src->kind != R300_SRC_IMMD && !vertex_index(d, i, &index)) {
        if (!d->quiet) {
            g3d_error(&d->c->errors, 0, 0,
                      "r300: draw of %u vertices has too few indices",
                      d->nverts);
        }
        d->failed = true;
        return NULL;
    }
    /* immediate vertices are keyed by position, the others by index */
    slot = (d->src->kind == R300_SRC_IMMD ? i : index) + 1;
    key = d->stamp | slot;
    e = &d->cache[slot % VCACHE];
    if (e->key == key) {
        return &e->v;
    }
    if (!fetch_inputs(d, i, index, d->in)) {
        d->failed = true;
        return NULL;
    }
    if (d->bypass) {
        outputs_to_vertex(d, d->in, &e->v);
    } else {
        /* outputs the program leaves unwritten read 0 */
        memset(out, 0, sizeof(out));
        r300_pvs_exec(&d->c->pvs, (const float (*)[4])d->in, out);
        outputs_to_vertex(d, out, &e->v);
    }
    e->key = key;
    return &e->v;
}

/* ---- primitive assembly ---------------------------------------------- */

/* the vertex that holds a flat colour [R3xx 3D ref. §1.3 GA
 * PROVOKING_VERTEX] */
static const R300Vertex *provoking(R300Core *c, const R300Vertex *a,
                                   const R300Vertex *b, const R300Vertex *cc)
{
    switch (G3D_FIELD_EX32(R300_REG(c, A_GA_COLOR_CONTROL), GA_COLOR_CONTROL,
                           PROVOKING_VERTEX)) {
    case 0:  return a;
    case 1:  return b;
    default: return cc;
    }
}

static void tri(DrawCtx *d, uint32_t i0, uint32_t i1, uint32_t i2,
                bool swap_winding)
{
    const R300Vertex *a, *b, *cc, *pv;
    R300Vertex va, vb, vc;

    /* copies: the cache may evict an entry while the next one is fetched */
    if (!(a = get_vertex(d, i0))) {
        return;
    }
    va = *a;
    if (!(b = get_vertex(d, i1))) {
        return;
    }
    vb = *b;
    if (!(cc = get_vertex(d, i2))) {
        return;
    }
    vc = *cc;
    pv = provoking(d->c, &va, &vb, &vc);
    if (swap_winding) {
        r300_ga_triangle(d->c, &vb, &va, &vc, pv);
    } else {
        r300_ga_triangle(d->c, &va, &vb, &vc, pv);
    }
}

static void line(DrawCtx *d, uint32_t i0, uint32_t i1)
{
    const R300Vertex *a, *b;
    R300Vertex va, vb;

    if (!(a = get_vertex(d, i0))) {
        return;
    }
    va = *a;
    if (!(b = get_vertex(d, i1))) {
        return;
    }
    vb = *b;
    r300_ga_line(d->c, &va, &vb,
                 G3D_FIELD_EX32(R300_REG(d->c, A_GA_COLOR_CONTROL),
                                GA_COLOR_CONTROL, PROVOKING_VERTEX) ? &vb : &va);
}

/*
 * The triangles a triangle primitive type makes of n vertices, and the
 * vertices of its p-th triangle (with the winding swap of a strip's odd
 * ones) [R3xx 3D ref. §1.10 VAP_VF_CNTL PRIM_TYPE]; 0 for points and lines.
 */
static uint32_t tri_count(uint32_t prim, uint32_t n)
{
    switch (prim) {
    case R300_PRIM_TRIANGLES:
    case R300_PRIM_TRIANGLE_W_FLAGS:
        return n / 3;
    case R300_PRIM_TRIANGLE_STRIP:
    case R300_PRIM_TRIANGLE_FAN:
    case R300_PRIM_POLYGON:
        return n > 2 ? n - 2 : 0;
    case R300_PRIM_QUADS:
        return n / 4 * 2;
    case R300_PRIM_QUAD_STRIP:
        return n > 3 ? (n - 2) / 2 * 2 : 0;
    default:
        return 0;
    }
}

static void tri_of(uint32_t prim, uint32_t p, uint32_t v[3], bool *swap)
{
    uint32_t q = p / 2 * 2;

    *swap = false;
    switch (prim) {
    case R300_PRIM_TRIANGLE_STRIP:
        /* every other triangle swaps two vertices to keep its winding */
        v[0] = p, v[1] = p + 1, v[2] = p + 2;
        *swap = p & 1;
        return;
    case R300_PRIM_TRIANGLE_FAN:
    case R300_PRIM_POLYGON:
        v[0] = 0, v[1] = p + 1, v[2] = p + 2;
        return;
    case R300_PRIM_QUADS:
        v[0] = 2 * q;
        v[1] = 2 * q + 1 + (p & 1);
        v[2] = 2 * q + 2 + (p & 1);
        return;
    case R300_PRIM_QUAD_STRIP:
        /* quad i, i+1, i+3, i+2 (i = q) as (i, i+1, i+3), (i, i+3, i+2) */
        v[0] = q;
        v[1] = p & 1 ? q + 3 : q + 1;
        v[2] = p & 1 ? q + 2 : q + 3;
        return;
    default:
        v[0] = 3 * p, v[1] = 3 * p + 1, v[2] = 3 * p + 2;
        return;
    }
}

/* triangles [p0, p1) of the draw */
static void assemble_tris(DrawCtx *d, uint32_t p0, uint32_t p1)
{
    uint32_t p, v[3];
    bool swap;

    for (p = p0; p < p1 && !d->failed; p++) {
        tri_of(d->prim, p, v, &swap);
        tri(d, v[0], v[1], v[2], swap);
    }
}

static void assemble(DrawCtx *d)
{
    uint32_t n = d->nverts, i;

    switch (d->prim) {
    case R300_PRIM_POINTS:
        for (i = 0; i < n && !d->failed; i++) {
            const R300Vertex *v = get_vertex(d, i);
            if (v) {
                R300Vertex copy = *v;
                r300_ga_point(d->c, &copy);
            }
        }
        break;
    case R300_PRIM_LINES:
        for (i = 0; i + 1 < n && !d->failed; i += 2) {
            line(d, i, i + 1);
        }
        break;
    case R300_PRIM_LINE_STRIP:
    case R300_PRIM_LINE_LOOP:
        for (i = 0; i + 1 < n && !d->failed; i++) {
            line(d, i, i + 1);
        }
        if (d->prim == R300_PRIM_LINE_LOOP && n > 2 && !d->failed) {
            line(d, n - 1, 0);
        }
        break;
    default:
        assemble_tris(d, 0, tri_count(d->prim, n));
        break;
    }
}

/* ---- the front end on the render threads ----------------------------- */

/*
 * A draw of many triangles runs its vertex fetch, PVS, clipping and setup
 * in chunks of triangles on every render thread, each chunk queuing into
 * its own G3DRasterStage and each thread with its own vertex cache (which
 * only saves work: a vertex's outputs depend on its inputs alone); the
 * stages are then committed in order, so the rasteriser gets the serial
 * front end's triangles in the serial order. A chunk whose fetch fails
 * (bad indices or arrays) makes the whole draw run again serially, which
 * logs the error and draws what comes before it, as it always has.
 */
#define FRONT_MIN_TRIS  32      /* fewer: one thread (waking costs more) */
#define FRONT_CHUNK     16      /* triangles a chunk, at least */
#define FRONT_CHUNKS    64      /* chunks a draw, at most */

typedef struct FrontJob {
    const DrawCtx *draw;        /* the serial draw's context, as set up */
    uint32_t ntris, per_chunk, nchunks;
    uint32_t next;              /* the next chunk to take (atomic) */
    uint32_t stamp;             /* the first chunk's stamp */
    G3DRasterStage *stage[FRONT_CHUNKS];
    bool failed[FRONT_CHUNKS], cancelled[FRONT_CHUNKS];
} FrontJob;

static VtxCacheEntry *vtx_cache(R300Core *c, int thread)
{
    return g3d_raster_thread_block(c->raster, &c->vtx_caches, thread,
                                   VCACHE * sizeof(VtxCacheEntry));
}

/*
 * A fresh stamp for a draw or chunk: keys of earlier ones never match. When
 * the 32-bit count wraps, every cache is emptied (on the driving thread,
 * between front jobs).
 */
static uint32_t vtx_stamps(R300Core *c, uint32_t n)
{
    uint32_t first = c->vtx_stamp + 1;
    int t;

    if (first == 0 || first + n < first) {
        for (t = 0; c->vtx_caches && t < g3d_raster_threads(c->raster); t++) {
            if (c->vtx_caches[t]) {
                memset(c->vtx_caches[t], 0, VCACHE * sizeof(VtxCacheEntry));
            }
        }
        first = 1;
    }
    c->vtx_stamp = first + n - 1;
    return first;
}

static void front_job(void *arg, int thread)
{
    FrontJob *j = arg;
    DrawCtx d = *j->draw;
    uint32_t u;

    d.quiet = true;
    d.cache = vtx_cache(d.c, thread);
    while ((u = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) <
           j->nchunks) {
        memset(d.in, 0, sizeof(d.in));
        d.failed = d.cancelled = false;
        d.stamp = (uint64_t)(j->stamp + u) << 32;
        g3d_raster_stage_enter(j->stage[u]);
        assemble_tris(&d, u * j->per_chunk,
                      MIN(j->ntris, (u + 1) * j->per_chunk));
        g3d_raster_stage_leave();
        j->failed[u] = d.failed;
        j->cancelled[u] = d.cancelled;
    }
}

/*
 * The draw's triangles on every render thread; false when it must run
 * serially (too small, one thread, not triangles, or a fetch failed).
 */
static bool assemble_parallel(DrawCtx *d)
{
    R300Core *c = d->c;
    int threads = g3d_raster_threads(c->raster);
    uint32_t ntris = tri_count(d->prim, d->nverts), u;
    bool failed = false, cancelled = false;
    FrontJob j;

    if (threads == 1 || ntris < FRONT_MIN_TRIS || g3d_general_path) {
        return false;
    }
    j.draw = d;
    j.ntris = ntris;
    j.per_chunk = MAX(FRONT_CHUNK, (ntris + FRONT_CHUNKS - 1) / FRONT_CHUNKS);
    j.nchunks = (ntris + j.per_chunk - 1) / j.per_chunk;
    j.next = 0;
    for (u = 0; u < j.nchunks; u++) {
        j.stage[u] = g3d_raster_stage(c->raster, u);
        /* a chunk that never runs (the job was cancelled) is abandoned */
        j.failed[u] = j.cancelled[u] = true;
    }
    /* every cache exists before the threads look for theirs */
    for (u = 0; u < (uint32_t)threads; u++) {
        vtx_cache(c, u);
    }
    j.stamp = vtx_stamps(c, j.nchunks);
    g3d_raster_run_shared(c->raster, front_job, &j);
    for (u = 0; u < j.nchunks; u++) {
        failed |= j.failed[u];
        cancelled |= j.cancelled[u];
    }
    if (failed) {
        for (u = 0; u < j.nchunks; u++) {
            g3d_raster_stage_drop(j.stage[u]);
        }
        /* abandoned: done; a bad fetch: the serial draw says where */
        d->failed = cancelled;
        return cancelled;
    }
    for (u = 0; u < j.nchunks; u++) {
        if (g3d_raster_stage_commit(c->raster, j.stage[u])) {
            c->draw_pending = true;
        }
    }
    if (c->draw->serial_tiles) {
        g3d_raster_serial(c->raster);      /* as emit_sample does */
    }
    c->vap_parallel_draws++;
    return true;
}

uint64_t r300_parallel_draws(R300Core *c)
{
    return c->vap_parallel_draws;
}

void r300_vap_free(R300Core *c)
{
    g3d_raster_thread_blocks_free(c->raster, &c->vtx_caches);
}

void r300_vap_draw(R300Core *c, uint32_t vf_cntl, const R300DrawSrc *src)
{
    DrawCtx d = { .c = c, .src = src };
    uint32_t need;

    d.prim = G3D_FIELD_EX32(vf_cntl, VAP_VF_CNTL, PRIM_TYPE);
    d.walk = G3D_FIELD_EX32(vf_cntl, VAP_VF_CNTL, PRIM_WALK);
    d.nverts = G3D_FIELD_EX32(vf_cntl, VAP_VF_CNTL, NUM_VERTICES);
    d.index32 = vf_cntl & R_VAP_VF_CNTL_INDEX_SIZE_MASK;
    if (d.prim == R300_PRIM_NONE || d.nverts == 0) {
        return;
    }
    if (d.prim >= 8 && d.prim <= 11) {
        g3d_error(&c->errors, 0, 0,
                  "r300: PRIM_TYPE %u is unused", d.prim);
        return;
    }
    d.vtx_size = G3D_FIELD_EX32(R300_REG(c, A_VAP_VTX_SIZE), VAP_VTX_SIZE,
                                DWORDS_PER_VTX);
    switch (src->kind) {
    case R300_SRC_IMMD:
        need = d.nverts * d.vtx_size;
        if (d.vtx_size == 0 || src->ndwords < need) {
            g3d_error(&c->errors, 0, 0,
                      "r300: immediate draw of %u vertices x %u dwords "
                      "has %u dwords", d.nverts, d.vtx_size,
                      src->ndwords);
            return;
        }
        break;
    case R300_SRC_INDX_INLINE:
        need = d.index32 ? d.nverts : (d.nverts + 1) / 2;
        if (src->ndwords < need) {
            g3d_error(&c->errors, 0, 0,
                      "r300: indexed draw of %u vertices has %u index "
                      "dwords", d.nverts, src->ndwords);
            return;
        }
        break;
    default:
        break;
    }
    d.min_index = R300_REG(c, A_VAP_VF_MIN_VTX_INDX) & 0xFFFFFF;
    d.max_index = R300_REG(c, A_VAP_VF_MAX_VTX_INDX) & 0xFFFFFF;
    d.swap = G3D_FIELD_EX32(R300_REG(c, A_VAP_CNTL_STATUS), VAP_CNTL_STATUS,
                            VC_SWAP);
    d.bypass = R300_REG(c, A_VAP_CNTL_STATUS) &
               R_VAP_CNTL_STATUS_PVS_BYPASS_MASK;
    d.out_fmt0 = R300_REG(c, A_VAP_OUT_VTX_FMT_0);
    d.out_fmt1 = R300_REG(c, A_VAP_OUT_VTX_FMT_1);
    if (!decode_streams(&d)) {
        return;
    }
    if (src->kind != R300_SRC_IMMD &&
        d.nelems > G3D_FIELD_EX32(R300_REG(c, A_VAP_VTX_NUM_ARRAYS),
                                  VAP_VTX_NUM_ARRAYS, VTX_NUM_ARRAYS)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %u stream elements but %u vertex arrays",
                  d.nelems,
                  G3D_FIELD_EX32(R300_REG(c, A_VAP_VTX_NUM_ARRAYS),
                                 VAP_VTX_NUM_ARRAYS, VTX_NUM_ARRAYS));
        return;
    }
    if (!d.bypass) {
        unsigned i, first, last;
        uint32_t cntl = R300_REG(c, A_VAP_PVS_CODE_CNTL_0);

        first = G3D_FIELD_EX32(cntl, VAP_PVS_CODE_CNTL_0, PVS_FIRST_INST);
        last = G3D_FIELD_EX32(cntl, VAP_PVS_CODE_CNTL_0, PVS_LAST_INST);
        /* "a draw with no vertex program": code never uploaded */
        for (i = first; i <= last && i < R300_PVS_MAX_INSTRUCTIONS; i++) {
            if (!(c->pvs_loaded[i / 8] & (1u << (i % 8)))) {
                g3d_error(&c->errors, 0, 0,
                          "r300: draw with no vertex program "
                          "(PVS instruction %u never loaded)", i);
                return;
            }
        }
        if (!r300_pvs_load(&c->pvs, c->regs,
                           (const uint32_t (*)[4])c->pvs_vmem)) {
            return;
        }
    }
    if (!r300_draw_begin(c)) {
        return;
    }
    if (!assemble_parallel(&d)) {
        /* allocated once, its entries stamped per draw: they are large */
        memset(d.in, 0, sizeof(d.in));
        d.cache = vtx_cache(c, 0);
        d.stamp = (uint64_t)vtx_stamps(c, 1) << 32;
        assemble(&d);
    }
    r300_draw_end(c);
}

/* ---- the VAP ports: draws fed by register writes -------------------- */

static void port_arm(R300Core *c, uint32_t vf)
{
    uint32_t walk = G3D_FIELD_EX32(vf, VAP_VF_CNTL, PRIM_WALK);
    uint32_t n = G3D_FIELD_EX32(vf, VAP_VF_CNTL, NUM_VERTICES);
    uint32_t vtx = G3D_FIELD_EX32(R300_REG(c, A_VAP_VTX_SIZE), VAP_VTX_SIZE,
                                  DWORDS_PER_VTX);
    uint32_t need = 0;

    c->port_need = 0;
    c->port_count = 0;
    if (G3D_FIELD_EX32(vf, VAP_VF_CNTL, PRIM_TYPE) == R300_PRIM_NONE) {
        return;
    }
    switch (walk) {
    case R300_PRIM_WALK_LIST: {
        R300DrawSrc src = { .kind = R300_SRC_VBUF };
        r300_vap_draw(c, vf, &src);
        return;
    }
    case R300_PRIM_WALK_RING:
        need = n * vtx;
        break;
    case R300_PRIM_WALK_INDICES:
        need = (vf & R_VAP_VF_CNTL_INDEX_SIZE_MASK) ? n : (n + 1) / 2;
        break;
    default:
        g3d_unimp("r300: state-based vertex walk (PRIM_WALK 0)");
        return;
    }
    if (need == 0 || need > R300_PORT_MAX_DWORDS) {
        return;
    }
    if (need > c->port_cap) {
        c->port_data = g_renew(uint32_t, c->port_data, need);
        c->port_cap = need;
    }
    c->port_vf_cntl = vf;
    c->port_need = need;
}

void r300_vap_port_write(R300Core *c, uint32_t offset, uint32_t val)
{
    bool idx_port = offset >= A_VAP_PORT_IDX_0 && offset < A_VAP_PORT_IDX_0 + 64;
    uint32_t walk;

    if (offset == A_VAP_VF_CNTL) {
        port_arm(c, val);
        return;
    }
    walk = G3D_FIELD_EX32(c->port_vf_cntl, VAP_VF_CNTL, PRIM_WALK);
    if (!c->port_need ||
        idx_port != (walk == R300_PRIM_WALK_INDICES)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s port written with no draw waiting for it",
                  idx_port ? "index" : "vertex data");
        return;
    }
    c->port_data[c->port_count++] = val;
    if (c->port_count == c->port_need) {
        R300DrawSrc src = {
            .kind = idx_port ? R300_SRC_INDX_INLINE : R300_SRC_IMMD,
            .data = c->port_data, .ndwords = c->port_count,
        };
        c->port_need = 0;
        r300_vap_draw(c, c->port_vf_cntl, &src);
        /* a register write may come from the CPU, with no CP going idle
         * after it to finish the queue */
        r300_flush_render(c);
    }
}
