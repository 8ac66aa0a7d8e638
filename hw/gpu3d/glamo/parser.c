/*
 * The parser: vertices from the G/L input registers (the register vertex
 * path, fired by EGFIRE or EGSETFIRE) or fetched from VRAM through the
 * stream table (1F00h-1F4Fh) in buffer or stream-index mode, with the
 * vertex defaults (2600h *UseDef, 1E00h), and primitive assembly by
 * EGPDTYPE (2052h D[4:0]).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <string.h>

/* the fixed defaults of 2600h (L1244-L1270) */
static void fixed_defaults(GlamoVertex *v)
{
    memset(v, 0, sizeof(*v));
    v->pos[3] = 1.0f;
    v->nrm[2] = 1.0f;
    v->diff[0] = v->diff[1] = v->diff[2] = v->diff[3] = 1.0f;
    v->tex[0][3] = v->tex[1][3] = v->tex[2][3] = v->tex[3][3] = 1.0f;
    v->psize = 1.0f;
}

static void unpack_argb(uint32_t w, bool abgr, float out[4])
{
    /* MGVtxColorfmt: 0 ARGB word, 1 ABGR word = GL RGBA bytes (docs) */
    out[0] = ((abgr ? w : w >> 16) & 0xff) / 255.0f;
    out[1] = ((w >> 8) & 0xff) / 255.0f;
    out[2] = ((abgr ? w >> 16 : w) & 0xff) / 255.0f;
    out[3] = (w >> 24) / 255.0f;
}

/* register defaults (1E00h-1E4Fh), "s[8].23 -> s[7].16 by hardware" */
static inline __attribute__((always_inline)) void
use_defaults(GlamoCore *c, GlamoVertex *v)
{
    uint32_t f0 = glamo_r32(c, A_RGXFEN0);
    bool regs = GLAMO_FIELD(c, RGXFEN2, RGXUseDefSel);
    GlamoVertex d;
    int i;

    fixed_defaults(&d);
    if (regs) {
        bool abgr = GLAMO_FIELD(c, MGVStrmCtl, MGVtxColorfmt);
        for (i = 0; i < 4; i++) {
            d.pos[i] = glamo_f24_round(glamo_rf32(c, A_RGXPosDefX + 4 * i));
            d.tex[0][i] = glamo_f24_round(glamo_rf32(c, A_RGXTxADefU + 4 * i));
            d.tex[1][i] = glamo_f24_round(glamo_rf32(c, A_RGXTxBDefU + 4 * i));
        }
        for (i = 0; i < 3; i++) {
            d.nrm[i] = glamo_f24_round(glamo_rf32(c, A_RGXNormDefX + 4 * i));
        }
        unpack_argb(glamo_r32(c, A_RGXDiffDef), abgr, d.diff);
        unpack_argb(glamo_r32(c, A_RGXSpecDef), abgr, d.spec);
    }
    /* bit 3 of each nibble is the 4th component (W, A, fog, Q) */
    for (i = 0; i < 4; i++) {
        int comp = i == 3 ? 3 : i;
        if (f0 >> (20 + i) & 1) {
            v->pos[comp] = d.pos[comp];
        }
        if (f0 >> (16 + i) & 1) {
            v->tex[1][comp] = d.tex[1][comp];
        }
        if (f0 >> (4 + i) & 1) {
            v->tex[0][comp] = d.tex[0][comp];
        }
    }
    /* diffuse D[27] A, D[26] R, D[25] G, D[24] B; specular alike */
    for (i = 0; i < 4; i++) {
        static const int ch[4] = { 2, 1, 0, 3 };   /* bit 24+i -> channel */
        if (f0 >> (24 + i) & 1) {
            v->diff[ch[i]] = d.diff[ch[i]];
        }
        if (f0 >> (28 + i) & 1) {
            v->spec[ch[i]] = d.spec[ch[i]];
        }
    }
    if (f0 & R_RGXFEN0_RGXNormUseDef_MASK) {
        memcpy(v->nrm, d.nrm, sizeof(v->nrm));
    }
}

/* the data type the stream table declares for an attribute (MGVtxdiffmt) */
static int declared_type(GlamoCore *c, int array, int fallback)
{
    int last = GLAMO_FIELD(c, MGVStrmCtl, MGVLastStrmNum), n;

    for (n = 0; n <= last; n++) {
        uint32_t d = glamo_r32(c, GLAMO_MGVSTRM_DESC(n));
        if ((d & 0xf) == (uint32_t)array) {
            return (d >> 4) & 7;
        }
    }
    return fallback;
}

static float fixed1616(uint32_t u)
{
    return (float)(int32_t)u / 65536.0f;
}

static void reg_colour(GlamoCore *c, uint32_t base, int array, float out[4])
{
    bool abgr = GLAMO_FIELD(c, MGVStrmCtl, MGVtxColorfmt);
    int i;

    switch (declared_type(c, array, GLAMO_VTYPE_UBYTE)) {
    case GLAMO_VTYPE_FLOAT:
        for (i = 0; i < 4; i++) {
            out[i] = glamo_rf32(c, base + 4 * i);
        }
        break;
    case GLAMO_VTYPE_FIXED:
        for (i = 0; i < 4; i++) {
            out[i] = fixed1616(glamo_r32(c, base + 4 * i));
        }
        break;
    default:
        unpack_argb(glamo_r32(c, base), abgr, out);
        break;
    }
}

void glamo_fire_register_vertex(GlamoCore *c)
{
    GlamoVertex v;
    int i;

    fixed_defaults(&v);
    for (i = 0; i < 4; i++) {
        v.pos[i] = glamo_rf32(c, A_RGPXa + 4 * i);
        v.tex[0][i] = glamo_rf32(c, A_RGPUAa + 4 * i);
        v.tex[1][i] = glamo_rf32(c, A_RGPUBa + 4 * i);
    }
    for (i = 0; i < 3; i++) {
        v.nrm[i] = glamo_rf32(c, A_RGPNXa + 4 * i);
    }
    reg_colour(c, A_RGPDIFFa, GLAMO_VARRAY_DIFFUSE, v.diff);
    reg_colour(c, A_RGPSPECa, GLAMO_VARRAY_SPECULAR, v.spec);
    v.psize = glamo_rf32(c, A_RGPPSIZE);
    glamo_assemble(c, &v);
}

/* ---- vertex streams ----------------------------------------------------- */

void glamo_parser_reset(GlamoCore *c)
{
    memset(&c->parser, 0, sizeof(c->parser));
}

void glamo_parser_start(GlamoCore *c, uint16_t mode)
{
    GlamoParser *p = &c->parser;

    if (mode != GLAMO_CBM_BUFFER && mode != GLAMO_CBM_STREAM_INDEX) {
        g3d_error(&c->errors, 0, 0,
                  "glamo parser: MGBufCBMFire code %u is reserved, "
                  "list skipped", mode);
        return;
    }
    glamo_assembly_reset(c);
    p->indexed = mode == GLAMO_CBM_STREAM_INDEX ||
                 GLAMO_FIELD(c, MGVStrmCtl, MGVenStrmIndexMode);
    p->next = 0;
    p->total = GLAMO_FIELD(c, RGPDV, RGTVerNum);
    p->active = p->total > 0;
}

static const uint8_t type_size[8] = { 4, 2, 4, 1, 1, 0, 0, 0 };

static inline __attribute__((always_inline)) float
element(const uint8_t *p, int type, int array)
{
    bool colour = array == GLAMO_VARRAY_DIFFUSE || array == GLAMO_VARRAY_SPECULAR;
    bool normal = array == GLAMO_VARRAY_NORMAL;
    uint32_t u;
    float f;

    switch (type) {
    case GLAMO_VTYPE_FLOAT:
        u = p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
        memcpy(&f, &u, 4);
        return f;
    case GLAMO_VTYPE_FIXED:
        return fixed1616(p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
    case GLAMO_VTYPE_SHORT: {
        int16_t s = (int16_t)(p[0] | p[1] << 8);
        return normal ? s / 32768.0f : colour ? s / 32767.0f : s;
    }
    case GLAMO_VTYPE_SBYTE: {
        int8_t s = (int8_t)p[0];
        /* "s7 but s.7 for Normal" (L1975) */
        return normal ? s / 128.0f : colour ? s / 127.0f : s;
    }
    default:
        return colour ? p[0] / 255.0f : p[0];
    }
}

/* read vertex `idx` from the active streams into v; false on bad input */
static inline __attribute__((always_inline)) bool
fetch_vertex(GlamoCore *c, uint32_t idx, GlamoVertex *v)
{
    uint32_t active = glamo_r32(c, A_MGVStreamActive) & 0xff;
    int last = GLAMO_FIELD(c, MGVStrmCtl, MGVLastStrmNum), n, k;
    bool abgr = GLAMO_FIELD(c, MGVStrmCtl, MGVtxColorfmt);

    fixed_defaults(v);
    for (n = 0; n <= last; n++) {
        uint32_t d = glamo_r32(c, GLAMO_MGVSTRM_DESC(n));
        uint32_t bas = glamo_r32(c, GLAMO_MGVSTRM_BAS(n)) & 0x7fffff;
        uint32_t stride = (d >> 16) & 0xff;
        int dim = ((d >> 8) & 3) + 1, type = (d >> 4) & 7, array = d & 0xf;
        uint64_t addr;
        float val[4];
        const uint8_t *p;

        if (!(active & (1u << n))) {
            continue;
        }
        if (type_size[type] == 0 || array > GLAMO_VARRAY_PSIZE) {
            g3d_guest_error("glamo parser: stream %d has reserved data type "
                            "%d or array type %d", n, type, array);
            return false;
        }
        if (stride == 0) {
            /* "Address = EGVStrm0BAS + Index * EGPVDNum" (L2270) */
            stride = GLAMO_FIELD(c, RGPDV, RGPDVNum);
        }
        addr = bas + (uint64_t)idx * stride;
        if (!g3d_range_ok(addr, (uint64_t)dim * type_size[type], 0,
                          c->vram_size)) {
            g3d_guest_error("glamo parser: stream %d vertex %u at 0x%llx "
                            "outside VRAM", n, idx, (unsigned long long)addr);
            return false;
        }
        p = c->vram + addr;
        if ((array == GLAMO_VARRAY_DIFFUSE || array == GLAMO_VARRAY_SPECULAR) &&
            type == GLAMO_VTYPE_UBYTE && dim >= 3) {
            uint32_t w = p[0] | p[1] << 8 | p[2] << 16 |
                         (dim == 4 ? (uint32_t)p[3] << 24 : 0xffu << 24);
            unpack_argb(w, abgr, val);
            dim = 4;
        } else {
            for (k = 0; k < dim; k++) {
                val[k] = element(p + k * type_size[type], type, array);
            }
        }
        switch (array) {
        case GLAMO_VARRAY_POSITION:
            memcpy(v->pos, val, dim * sizeof(float));
            break;
        case GLAMO_VARRAY_NORMAL:
            memcpy(v->nrm, val, (dim > 3 ? 3 : dim) * sizeof(float));
            break;
        case GLAMO_VARRAY_DIFFUSE:
            memcpy(v->diff, val, dim * sizeof(float));
            break;
        case GLAMO_VARRAY_SPECULAR:
            memcpy(v->spec, val, dim * sizeof(float));
            break;
        case GLAMO_VARRAY_TEXA:
        case GLAMO_VARRAY_TEXB:
        case GLAMO_VARRAY_TEXC:
        case GLAMO_VARRAY_TEXD:
            memcpy(v->tex[array - GLAMO_VARRAY_TEXA], val, dim * sizeof(float));
            break;
        default:    /* GLAMO_VARRAY_PSIZE */
            v->psize = val[0];
            break;
        }
    }
    return true;
}

static bool read_index(GlamoCore *c, uint32_t k, uint32_t *idx)
{
    bool bytes = GLAMO_FIELD(c, MGVStrmCtl, MGVen8bitStrmIndex);
    uint32_t base = glamo_r32(c, A_MGStrmIndexMDBAS) & 0x7ffffe;
    uint64_t addr = base + (uint64_t)k * (bytes ? 1 : 2);

    if (!g3d_range_ok(addr, bytes ? 1 : 2, 0, c->vram_size)) {
        g3d_guest_error("glamo parser: index %u at 0x%llx outside VRAM", k,
                        (unsigned long long)addr);
        return false;
    }
    *idx = bytes ? c->vram[addr] : c->vram[addr] | c->vram[addr + 1] << 8;
    return true;
}

/* inlined into the serial parser's loop; front.c calls it through
 * glamo_parser_fetch */
static inline __attribute__((always_inline)) bool
parser_fetch(GlamoCore *c, uint32_t k, GlamoVertex *v)
{
    uint32_t idx = k;

    return c->vram && (!c->parser.indexed || read_index(c, k, &idx)) &&
           fetch_vertex(c, idx, v);
}

bool glamo_parser_fetch(GlamoCore *c, uint32_t k, GlamoVertex *v)
{
    return parser_fetch(c, k, v);
}

bool glamo_parser_step(GlamoCore *c, unsigned vertices)
{
    GlamoParser *p = &c->parser;

    while (p->active && vertices--) {
        GlamoVertex v;

        if (g3d_yield()) {
            break;              /* resumes at p->next, or reset abandons it */
        }
        if (!parser_fetch(c, p->next, &v)) {
            /* a list that reads outside VRAM is abandoned */
            g3d_error_silent(&c->errors, 0, 0);
            p->active = false;
            break;
        }
        p->next++;
        glamo_assemble(c, &v);
        if (p->next >= p->total) {
            p->active = false;
        }
    }
    return p->active;
}

/* ---- primitive assembly ------------------------------------------------- */

void glamo_assembly_reset(GlamoCore *c)
{
    c->asmb.count = 0;
}

static inline __attribute__((always_inline)) void
vertex_gl(GlamoCore *c, const GlamoVertex *in, GlamoClipVertex *out)
{
    GlamoVertex vin = *in;

    use_defaults(c, &vin);
    glamo_gl_vertex(c, &vin, out);
}

void glamo_vertex_gl(GlamoCore *c, const GlamoVertex *in, GlamoClipVertex *out)
{
    vertex_gl(c, in, out);
}

void glamo_assemble(GlamoCore *c, const GlamoVertex *in)
{
    GlamoAssembly *a = &c->asmb;
    GlamoClipVertex v;
    uint32_t n;

    vertex_gl(c, in, &v);
    c->stats.vertices++;
    n = a->count++;
    switch (GLAMO_FIELD(c, EGPrim1, EGPDTYPE)) {
    case GLAMO_PRIM_POINTS:
        glamo_gl_point(c, &v);
        break;
    case GLAMO_PRIM_LINES:
    case GLAMO_PRIM_LINES2:
        if (n & 1) {
            a->stipple_count = 0.0f;
            glamo_gl_line(c, &a->v[0], &v);
        } else {
            a->v[0] = v;
        }
        break;
    case GLAMO_PRIM_LINE_STRIP:
        if (n) {
            /* the stipple runs on along a strip unless RGPClrLineCnt */
            if (n == 1 || GLAMO_FIELD(c, RGPLINE, RGPClrLineCnt)) {
                a->stipple_count = 0.0f;
            }
            glamo_gl_line(c, &a->v[0], &v);
        }
        a->v[0] = v;
        break;
    case GLAMO_PRIM_TRIANGLES:
    case GLAMO_PRIM_TRIANGLES2:
        if (n % 3 == 2) {
            glamo_gl_triangle(c, &a->v[0], &a->v[1], &v);
        } else {
            a->v[n % 3] = v;
        }
        break;
    case GLAMO_PRIM_TRIANGLE_STRIP:
        if (n >= 2) {
            /* keep the winding of the first triangle on every other one */
            if (n & 1) {
                glamo_gl_triangle(c, &a->v[1], &a->v[0], &v);
            } else {
                glamo_gl_triangle(c, &a->v[0], &a->v[1], &v);
            }
            a->v[0] = a->v[1];
            a->v[1] = v;
        } else {
            a->v[n] = v;
        }
        break;
    case GLAMO_PRIM_TRIANGLE_FAN:
        if (n >= 2) {
            glamo_gl_triangle(c, &a->v[0], &a->v[1], &v);
            a->v[1] = v;
        } else {
            a->v[n] = v;
        }
        break;
    default:
        g3d_error(&c->errors, 0, 0,
                  "glamo: reserved primitive type EGPDTYPE 0x%x, "
                  "vertex dropped", GLAMO_FIELD(c, EGPrim1, EGPDTYPE));
        a->count--;
        break;
    }
}
