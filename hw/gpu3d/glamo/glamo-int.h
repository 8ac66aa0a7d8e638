/*
 * Glamo core internals shared by the block files:
 *   glamo-core.c   register space, clocks/resets, interrupts, work loop
 *   core-services.c  3D queue state and the rasteriser flush (for every block)
 *   numbers.c      s[7].16, s[7].10 and ARGB6565 number formats
 *   regfile.c      the 3D register table: masks, reset values, kinds
 *   cmdq.c         command queue (ring in VRAM)
 *   lcd.c          LCD controller scanout decode
 *   parser.c       parser: vertex streams, register vertex, primitive assembly
 *   gl.c           G/L: transform, lighting, clipping, viewport
 *   setup.c        setup engine: snapping, culling, setup registers
 *   render.c       back end: shading, tests, blending, ROP, write
 *   texture.c      texture units and the texture-blend combiner
 *   2d.c           the 2D engine: fills and copies with ternary ROPs
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GLAMO_INT_H
#define GPU3D_GLAMO_INT_H

#include "glamo.h"
#include "gpu3d/glamo-regs.h"
#include "common/error-latch.h"
#include "common/raster.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* eight-lane spans and fetches with AVX2, chosen at run time */
#define GLAMO_HAVE_AVX2 1
#endif

#define GLAMO_NREGS       (GLAMO_REG_SIZE / 2)
#define GLAMO_QUEUE_SIZE  1024          /* 3D queue entries */
#define GLAMO_FLUSH_TRIANGLES 4096      /* bound the rasteriser's queue */

/* ---- register table (regfile.c) ---------------------------------------- */

enum {
    GLAMO_RK_NONE    = 0,   /* reserved: reads 0, writes ignored */
    GLAMO_RK_RW      = 1,
    GLAMO_RK_WO      = 2,   /* write-only: reads 0 */
    GLAMO_RK_RO      = 3,   /* computed on read */
    GLAMO_RK_TRIGGER = 4,   /* a write starts something */
};

/* a 32-bit register of the 3D range 1B00h-2EFFh */
typedef struct GlamoRegRow {
    uint32_t mask, reset;
    uint8_t kind_lo, kind_hi;      /* of its 16-bit halves */
} GlamoRegRow;

#define GLAMO_REGS3D ((GLAMO_REGEND_3D - GLAMO_REGOFS_3D) / 4)
extern const GlamoRegRow glamo_regs3d[GLAMO_REGS3D];

/* one 16-bit register of the 3D range, as the bus sees it */
typedef struct GlamoRegInfo {
    uint16_t mask;
    uint16_t reset;
    uint8_t kind;
} GlamoRegInfo;

static inline GlamoRegInfo glamo_reg_info(uint32_t off)
{
    const GlamoRegRow *r = &glamo_regs3d[(off - GLAMO_REGOFS_3D) / 4];
    bool hi = off & 2;

    return (GlamoRegInfo) {
        .mask = (uint16_t)(hi ? r->mask >> 16 : r->mask),
        .reset = (uint16_t)(hi ? r->reset >> 16 : r->reset),
        .kind = hi ? r->kind_hi : r->kind_lo,
    };
}

bool glamo_is_3d(uint32_t off);
bool glamo_is_front_reg(uint32_t off);

/* ---- vertices ------------------------------------------------------------ */

/*
 * Texture coordinate sets A, B, C, D (stream array types 0100-0111, L648;
 * EGT0FROM / EGT1FROM 00-11, L2280). Only A and B have G/L input, default
 * and transformed-vertex registers, texture generation and transform; C
 * and D come from vertex streams and pass the G/L engine unchanged.
 */
#define GLAMO_TEX_SETS 4

/* A vertex as the parser hands it to the G/L engine. */
typedef struct GlamoVertex {
    float pos[4];
    float nrm[3];
    float diff[4];      /* r g b a, 0..1 */
    float spec[4];      /* r g b, fog factor */
    float tex[GLAMO_TEX_SETS][4];    /* sets A-D: u v m n */
    float psize;
} GlamoVertex;

/* A vertex after the G/L engine: clip space, lit colours. */
typedef struct GlamoClipVertex {      /* floats only: clipping lerps it */
    float clip[4];
    float diff[4];
    float spec[4];
    float diff2[4], spec2[4];   /* CCW faces (two-sided lighting) */
    float tex[GLAMO_TEX_SETS][4];
    float psize;
} GlamoClipVertex;

/* A vertex in screen space, as setup takes it. */
typedef struct GlamoScreenVertex {
    float x, y, z, inv_w;
    float diff[4];
    float spec[4];
    float diff2[4], spec2[4];
    float tex[GLAMO_TEX_SETS][4];
    float psize;
} GlamoScreenVertex;

/* ---- the back end's view of the state (render.c) ----------------------- */

enum {   /* texture transparency (2104h D[29:28], EGTXTRSMOD 21A8h D[31:30]) */
    GLAMO_TRS_OFF, GLAMO_TRS_TEXEL, GLAMO_TRS_ALPHA, GLAMO_TRS_BLEND,
};

typedef struct GlamoTexUnit {
    bool enabled;
    uint8_t fmt, bpp;
    const void *texfmt, *palfmt;  /* texture.c's decoded format */
    uint8_t addr_u, addr_v;
    uint8_t mag, min;
    int levels;                    /* 1 .. 9 */
    uint32_t w, h;                 /* level 0 */
    uint32_t base[9], pitch[9];    /* per level, bytes */
    float lod_bias;
    bool gl_magmin;
    float border[4];               /* r g b a */
    uint16_t palette[256];
    uint8_t transparency;          /* GLAMO_TRS_* */
    uint8_t trs_ratio;             /* EGTXTRSHratio, of 32 */
    uint8_t trs_hi[4], trs_lo[4];  /* r g b a thresholds: 5, 6, 5, 6 bits */
} GlamoTexUnit;

typedef struct GlamoCombStage {
    uint8_t arg[4], imod[4];
    uint8_t opa, opb, opc;
    uint8_t w0, w1, o0, o1;
} GlamoCombStage;

typedef struct GlamoRenderState GlamoRenderState;

/* a fast texel fetch of one unit for a quad (texture.c) */
typedef void GlamoTexFetchFn(const GlamoRenderState *rs,
                             const GlamoTexUnit *t, const float uv[4][2],
                             uint32_t mask, float out[4][4]);
#ifdef __SSE2__
/* eight samples of one unit, two groups of four pixels, one pixel a
 * lane: red, green, blue */
typedef void GlamoTexFetch8Fn(const GlamoRenderState *rs,
                              const GlamoTexUnit *t, const __m128 u[2],
                              const __m128 v[2], __m128 out[2][3]);
#endif
#ifdef GLAMO_HAVE_AVX2
/* the same, the eight pixels in one vector (AVX2 code) */
typedef void GlamoTexFetch8AvxFn(const GlamoRenderState *rs,
                                 const GlamoTexUnit *t, const __m256 *u,
                                 const __m256 *v, __m256 out[3]);
/* the same for sixteen pixels in AVX-512 lanes; AVX-512 code */
typedef void GlamoTexFetch16Fn(const GlamoRenderState *rs,
                               const GlamoTexUnit *t, const __m512 *u,
                               const __m512 *v, __m512 out[3]);
#endif

/* a 16 bpp destination format's fields (EGDST0CFM) */
typedef struct GlamoDstLayout {
    uint8_t rb, gb, bb, ab;     /* widths */
    uint8_t rs, gs, bs, as;     /* shifts */
} GlamoDstLayout;

struct GlamoRenderState {
    uint8_t *vram;
    uint32_t vram_size;
    bool valid;                    /* false: primitives are skipped */
    /* destination */
    uint32_t dst_base, dst_pitch;
    uint8_t dst_fmt, rop;
    uint16_t cmask;                /* colour write mask (all ones if off) */
    G3DRect clip;
    /* depth */
    bool z_test, z_write;
    uint8_t z_func, z_fmt;
    uint32_t z_base, z_pitch;
    uint16_t zmask;
    float z_scale;                 /* RGPdvRWfar when RGPenZscale, else 1 */
    /* stencil */
    bool st_test, st_write;
    uint8_t st_bits, st_func, st_ref, st_mask, st_wmask;
    uint8_t st_fail, st_zfail, st_zpass;
    uint32_t st_base, st_pitch;
    /* alpha test, blending, dither */
    bool a_test;
    uint8_t a_func, a_ref;
    bool blend;
    uint8_t eq_c, eq_a, src_c, dst_c, src_a, dst_a;
    float blend_const[4];
    float dst_alpha;               /* for formats without alpha */
    bool dither;
    /* shading */
    bool gouraud;
    int flat_vertex;
    bool specular;
    /* fog */
    bool fog;
    uint8_t fog_mode;
    bool fog_z;
    float fog_color[3], fog_end, fog_invd, fog_density;
    /* texturing */
    bool tex_enable, tex_persp, combiner;
    int ntex;
    uint8_t tex_from[2];           /* coordinate set (0 A .. 3 D) per unit */
    int stages;
    GlamoCombStage cstage[2], astage[2];
    float tfact[2][4];
    GlamoTexUnit tex[2];
    /* stipple through a pattern texture (2104h D[15], D[11]; 2138h) */
    bool poly_stipple, line_stipple;
    uint8_t stipple_unit;          /* EGStippleTxSel */
    bool stipple_vneg;             /* EGPolyStippleTxDir: Vdy = -1/32 */
    float line_repeat;             /* RGPLnRepeat, texture u per pixel */
    /* AA lines and points through a coverage texture (2100h D[2],
     * 2104h D[14:13], 2138h D[4], D[0], 2668h) */
    bool aa_line, aa_point, aa_test;
    uint8_t aa_line_unit, aa_point_unit;
    float aa_inv_half;             /* RGRCpHalf */
    /* chosen per draw from the above (render.c): the quad function, and
     * for the fast paths the destination layout and texture 0's fetch */
    G3DQuadFn *shade;
    G3DBlockFn *fill;              /* the fast path's spans, or NULL */
    G3DBlockFn *fill_flat;         /* the same for flat-coloured triangles */
    GlamoDstLayout dst_layout;
    GlamoTexFetchFn *fetch0;
#ifdef __SSE2__
    GlamoTexFetch8Fn *fetch8;      /* fetch0 eight pixels at once, or NULL */
#endif
#ifdef GLAMO_HAVE_AVX2
    GlamoTexFetch8AvxFn *fetch8_avx2;  /* fetch8 in AVX2 code, or NULL */
    GlamoTexFetch16Fn *fetch16;    /* fetch8_avx2 sixteen pixels, or NULL */
#endif
    uint8_t comb[2][4];            /* per channel: colour = comb[0] * comb[1] */
    bool comb_modulate;            /* comb: diffuse * texel in every channel */
    uint32_t comb_lanes[2][3][4];  /* comb as lane masks per operand */
    bool serial_tiles;             /* its batches on one thread (render.c
                                    * tile_order_shows) */
};

/* the operands of a texture blend that is one product (GlamoRenderState.comb) */
enum { GLAMO_COMB_TEX0, GLAMO_COMB_DIFFUSE, GLAMO_COMB_ONE };

/*
 * One queued triangle: what render.c needs from setup, as the setup engine
 * hands it over (L1745-L1949): every attribute as a plane
 * a(x, y) = pl[0] + pl[1] * x + pl[2] * y over pixel coordinates, i.e. its
 * start value and x/y gradients. Texture coordinates are planes of u/w and
 * v/w (with the plane of 1/w) when perspective correction is on.
 */
enum {
    GLAMO_PL_Z, GLAMO_PL_COL, GLAMO_PL_SPEC = GLAMO_PL_COL + 4,
    GLAMO_PL_IW = GLAMO_PL_SPEC + 4, GLAMO_PL_TEX, GLAMO_NPL = GLAMO_PL_TEX + 4,
};

enum { GLAMO_KIND_TRIANGLE, GLAMO_KIND_LINE, GLAMO_KIND_POINT };

/* what stipple and AA need of the line or point a quad belongs to */
typedef struct GlamoLineInfo {
    float x0, y0;        /* line: start vertex; point: centre */
    bool xmajor;
    float count;         /* stipple counter at the start vertex */
    float nx, ny;        /* line: unit normal */
    float inv_r;         /* point: 1 / half the size */
} GlamoLineInfo;

typedef struct GlamoTri {
    const GlamoRenderState *rs;
    float pl[GLAMO_NPL][3];
    uint8_t kind;
    GlamoLineInfo line;
    /* flat fills: row y & 3's pens, 16 bits a pixel x & 3 (lane 0 low) */
    uint64_t pens[4];
} GlamoTri;

static inline float glamo_plane(const float pl[3], float x, float y)
{
    return pl[0] + pl[1] * x + pl[2] * y;
}

void glamo_render_decode(GlamoCore *c, GlamoRenderState *rs);
G3DQuadFn glamo_render_quad;
/* the fill function for triangle t, `width` pixels wide (NULL: quads) */
G3DBlockFn *glamo_render_fill(GlamoTri *t, int width);

/* texture.c */
#ifdef __SSE2__
/* the eight-pixel fetch in lanes for `unit`, or NULL */
GlamoTexFetch8Fn *glamo_tex_fast8(const GlamoRenderState *rs, int unit);
#endif
#ifdef GLAMO_HAVE_AVX2
/*
 * Whether the spans and fetches may use AVX2: set from the CPU by
 * glamo_lanes_init (render.c); a test may clear it to take the SSE2 lanes.
 */
extern bool glamo_lanes_avx2;
/* the same for AVX-512 (F, BW, VL): sixteen-pixel spans and fetches; a
 * test may clear it to take the AVX2 ones */
extern bool glamo_lanes_avx512;
void glamo_lanes_init(void);
/* glamo_tex_fast8's fetch in AVX2 code, or NULL */
GlamoTexFetch8AvxFn *glamo_tex_fast8_avx2(const GlamoRenderState *rs,
                                          int unit);
/* and sixteen pixels in AVX-512 code (glamo_lanes_avx512), or NULL */
GlamoTexFetch16Fn *glamo_tex_fast16(const GlamoRenderState *rs, int unit);
#endif
void glamo_tex_decode(GlamoCore *c, GlamoRenderState *rs);
/* returns the samples (bits of mask) that texture transparency removes */
uint32_t glamo_tex_sample(const GlamoRenderState *rs, int unit,
                          const float uv[4][2], uint32_t mask,
                          float out[4][4]);
bool glamo_tex_blend_keyed(const GlamoRenderState *rs, const float c[4]);
/* the fast fetch for `unit`, or NULL when it needs the general sampler */
GlamoTexFetchFn *glamo_tex_fast(const GlamoRenderState *rs, int unit);
/* is the texture blend of one unit a product per channel? (fills rs->comb) */
bool glamo_tex_fast_combine(GlamoRenderState *rs);
void glamo_combine(const GlamoRenderState *rs, const float dif[4],
                   const float spec[4], const float t0[4], const float t1[4],
                   float out[4]);

/* ---- the core ----------------------------------------------------------- */

typedef struct GlamoQueueEntry {
    uint16_t off, val;
} GlamoQueueEntry;

typedef struct GlamoCmdq {
    uint32_t base, size;     /* decoded at write-pointer commit */
    uint32_t rptr, wptr;
    bool valid;
    uint32_t burst_reg;      /* burst in progress */
    uint32_t burst_left;
    bool burst_pad;
    bool error;
    bool was_busy;
} GlamoCmdq;

typedef struct GlamoParser {
    bool active;             /* a list is being fetched */
    bool indexed;
    uint32_t next, total;    /* vertex number in the list */
} GlamoParser;

typedef struct GlamoAssembly {
    uint32_t count;          /* vertices since the list began */
    float stipple_count;     /* line stipple counter (pixels) */
    GlamoClipVertex v[2];    /* the kept vertices (strip/fan/line) */
} GlamoAssembly;

struct GlamoCore {
    GlamoCoreConfig cfg;
    uint32_t vram_size;
    uint8_t *vram;           /* whole-VRAM mapping, NULL if not mappable */
    uint16_t regs[GLAMO_NREGS];
    uint16_t tx1_palette[256];   /* host writes to 1C00h-1DFFh */

    /* 3D queue */
    GlamoQueueEntry queue[GLAMO_QUEUE_SIZE];
    unsigned q_head, q_count;

    GlamoCmdq cmdq;
    GlamoParser parser;
    GlamoAssembly asmb;

    G3DRaster *raster;
    unsigned raster_pending;
    GlamoRenderState *rs;    /* current decoded state (raster arena) */
    bool rs_dirty;
    bool rs_logs;            /* decoding it logged (it does each time) */
    bool last_drawdir;
    uint8_t prim_kind;       /* GLAMO_KIND_* of what setup draws now */
    GlamoLineInfo line;      /* the line setup draws now */
    uint32_t setups;         /* triangles whose setup registers were written */
    struct GlamoFrontJob *front;   /* front.c's runs, made on first use */

    bool lcd_dirty;
    GlamoStats stats;       /* errors: see `errors` */
    G3DErrorLatch errors;   /* bad guest input (the chip has no error bit) */
};

/* register file helpers */
static inline uint32_t glamo_r32(const GlamoCore *c, uint32_t off)
{
    return c->regs[off >> 1] | (uint32_t)c->regs[(off >> 1) + 1] << 16;
}

static inline void glamo_set32(GlamoCore *c, uint32_t off, uint32_t v)
{
    c->regs[off >> 1] = (uint16_t)v;
    c->regs[(off >> 1) + 1] = (uint16_t)(v >> 16);
}

static inline float glamo_rf32(const GlamoCore *c, uint32_t off)
{
    uint32_t u = glamo_r32(c, off);
    float f;
    __builtin_memcpy(&f, &u, 4);
    return f;
}

/* an s[7].16 register (D[23:0]) */
static inline float glamo_rf24(const GlamoCore *c, uint32_t off)
{
    return glamo_f24_to_float(glamo_r32(c, off) & 0xffffff);
}

#define GLAMO_FIELD(c, reg, field) \
    G3D_FIELD_EX32(glamo_r32(c, A_ ## reg), reg, field)

/* kinds of G3DErrorLatch.once: conditions logged once until they clear */
enum {
    GLAMO_ONCE_CLOCK_STOPPED,   /* 3D work pending with the clocks stopped */
};

/* glamo-core.c: the register dispatch (the command queue writes through it) */
typedef void GlamoRegWriteFn(GlamoCore *c, uint32_t off, uint16_t val,
                             bool from_cmdq);
GlamoRegWriteFn glamo_write16;

/* core-services.c: what every block may use */
bool glamo_3d_idle(const GlamoCore *c);
bool glamo_3d_queue_full(const GlamoCore *c);
void glamo_flush(GlamoCore *c);

/* numbers.c (the s[7].16 / s[7].10 formats are in glamo.h) */
void glamo_argb6565(uint32_t v, float out[4]);

/* cmdq.c */
void glamo_cmdq_reset(GlamoCore *c);
void glamo_cmdq_write(GlamoCore *c, uint32_t off, uint16_t val);
uint16_t glamo_cmdq_read(GlamoCore *c, uint32_t off);
bool glamo_cmdq_pending(const GlamoCore *c);
bool glamo_cmdq_step(GlamoCore *c, GlamoRegWriteFn *write);

/* 2d.c */
void glamo_2d_start(GlamoCore *c);

/* lcd.c */
bool glamo_lcd_scanout(GlamoCore *c, G3DScanout *out);

/* parser.c */
void glamo_parser_reset(GlamoCore *c);
void glamo_parser_start(GlamoCore *c, uint16_t mode);
bool glamo_parser_step(GlamoCore *c, unsigned vertices);
void glamo_fire_register_vertex(GlamoCore *c);
void glamo_assembly_reset(GlamoCore *c);
void glamo_assemble(GlamoCore *c, const GlamoVertex *v);
/* list vertex k of the list being fetched (through its index in
 * stream-index mode); false, logged, when it reads outside VRAM */
bool glamo_parser_fetch(GlamoCore *c, uint32_t k, GlamoVertex *v);
/* a fetched vertex with the defaults through the G/L engine */
void glamo_vertex_gl(GlamoCore *c, const GlamoVertex *in, GlamoClipVertex *out);

/* front.c: a run of the list on the render threads (units of 64 vertices
 * spent, 0: nothing done, the parser steps serially) */
unsigned glamo_front_run(GlamoCore *c, unsigned units);
void glamo_front_free(GlamoCore *c);

/* gl.c */
void glamo_gl_vertex(GlamoCore *c, const GlamoVertex *in, GlamoClipVertex *out);
void glamo_gl_triangle(GlamoCore *c, const GlamoClipVertex *a,
                       const GlamoClipVertex *b, const GlamoClipVertex *cc);
void glamo_gl_line(GlamoCore *c, const GlamoClipVertex *a,
                   const GlamoClipVertex *b);
void glamo_gl_point(GlamoCore *c, const GlamoClipVertex *a);

/* setup.c */
void glamo_setup_triangle(GlamoCore *c, const GlamoScreenVertex *v[3],
                          bool allow_cull);
void glamo_setup_line(GlamoCore *c, const GlamoScreenVertex *a,
                      const GlamoScreenVertex *b);
void glamo_setup_point(GlamoCore *c, const GlamoScreenVertex *a);
/* the render state for the next triangle: made if it is not, after a
 * flush when the rasteriser's queue reached GLAMO_FLUSH_TRIANGLES */
const GlamoRenderState *glamo_setup_state(GlamoCore *c);

#endif
