/*
 * pica200-3d core internals shared by the block files:
 *   pica200-core.c      core API, BAR0 external registers, interrupts, work loop
 *   regs.c         internal register file: byte masks, side effects, read-back
 *   cmdlist.c      P3D command-list processor (CMDBUF_* channels, FINALIZE)
 *   shader.c       shader units: code/opdesc/uniform upload, interpreter
 *   pipeline.c     geometry pipeline: vertex loader, fixed attributes,
 *                  immediate mode, draws, VS/GS plumbing, output map
 *   primitive.c    primitive assembly (lists, strips, fans, GS primitives)
 *   rasterizer.c   clipping, culling, viewport, depth map, setup
 *   texunit.c      texture units 0-2 (formats, wrap, filters, mipmaps)
 *   proctex.c      procedural texture (texture unit 3)
 *   texenv.c       texture combiners (TEXENV0-5)
 *   fog.c          fog (the fog LUT)
 *   framebuffer.c  per-fragment operations, colour/depth buffers, tiling
 *   psc.c          memory fill units
 *   ppf.c          transfer engine (display transfer, texture copy)
 *   pdc.c          LCD framebuffer setup (scanout)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_PICA200_INT_H
#define GPU3D_PICA200_INT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/error-latch.h"
#include "common/formats.h"
#include "common/fpformat.h"
#include "common/raster.h"
#include "gpu3d/pica200-regs.h"
#include "pica200.h"

#define PICA_NREGS 0x300

/* ---- number formats (Citra pica_types.h): no denormals, exponent 0 is
 * normal */

extern const G3DFloatFmt pica_f24, pica_f31, pica_f20, pica_f16;

static inline float pica_f24_to_float(uint32_t v)
{
    return g3d_float_unpack(v & 0xFFFFFF, &pica_f24);
}

static inline uint32_t pica_float_to_f24(float f)
{
    return g3d_float_pack(f, &pica_f24);
}

/*
 * quantise a binary32 value to float1.7.16 (what the shader units hold):
 * where its exponent is a normal f24 one (binary32 exponent 65..190, f24
 * 1..126) that is the value with its mantissa truncated to 16 bits;
 * elsewhere (zero, the lowest binade, too large, inf, NaN) the round trip
 */
static inline float pica_quantize_f24(float f)
{
    uint32_t u = g3d_f2u(f), e32 = (u >> 23) & 0xFF;

    if (e32 - 65 <= 190 - 65) {
        return g3d_u2f(u & ~0x7Fu);
    }
    return pica_f24_to_float(pica_float_to_f24(f));
}

/* ---- shader units (shader.c) ------------------------------------------ */

enum { PICA_UNIT_VS = 0, PICA_UNIT_GS = 1 };

typedef struct PicaShaderSetup {
    uint32_t code[PICA_GSH_CODE_WORDS];
    uint32_t code_words;            /* VS 512, GS 4096 */
    uint32_t opdesc[PICA_OPDESC_COUNT];
    float f[PICA_FLOAT_UNIFORMS][4];
    uint32_t code_index;            /* upload pointers */
    uint32_t opdesc_index;
    uint32_t float_index;
    bool float_f32;
    uint32_t float_words[4];
    unsigned float_nwords;
} PicaShaderSetup;

/* what a shader invocation reads besides code: taken from the registers */
typedef struct PicaShaderConfig {
    const PicaShaderSetup *setup;
    uint16_t bools;
    uint8_t ints[4][4];
    uint32_t entry;
} PicaShaderConfig;

/* the geometry shader's emitter (SETEMIT/EMIT) */
typedef struct PicaEmitter {
    uint8_t vertex_id;
    bool prim_emit;
    bool winding;
    float buffer[3][16][4];         /* emitted output registers */
    /* called on EMIT with prim_emit: three vertices' packed outputs */
    void (*emit)(void *opaque, float (*v[3])[4], bool winding);
    void *opaque;
} PicaEmitter;

typedef struct PicaShaderState {
    float in[16][4];
    float tmp[16][4];
    float out[16][4];
    int32_t a0[2];
    int32_t al;
    bool cc[2];
    PicaEmitter *emitter;           /* GS only */
    unsigned fault;                 /* PICA_SHADER_FAULT_* of the last run */
    uint32_t fault_pc;
    uint32_t steps;                 /* instructions the last run executed */
} PicaShaderState;

enum {
    PICA_SHADER_OK = 0,
    PICA_SHADER_FAULT_PC,           /* jump/call/fall-through beyond code memory */
    PICA_SHADER_FAULT_STACK,        /* call, if or loop nesting too deep */
    PICA_SHADER_FAULT_STEPS,        /* instruction budget exhausted (endless loop) */
    PICA_SHADER_FAULT_OPCODE,       /* undefined opcode */
};

/* call, if and loop stack depths of one unit (3dbrew shader page) */
#define PICA_SHADER_CALL_DEPTH 4
#define PICA_SHADER_IF_DEPTH   8
#define PICA_SHADER_LOOP_DEPTH 4
/* instructions one invocation may run before it counts as a hang */
#define PICA_SHADER_MAX_STEPS  (1u << 20)

/* run from cfg->entry until END; returns PICA_SHADER_OK or a fault */
unsigned pica_shader_run(const PicaShaderConfig *cfg, PicaShaderState *st);
/* four float1.7.16 packed in three words, W in the first word's top bits */
void pica_unpack_f24x4(const uint32_t w[3], float out[4]);
const char *pica_shader_fault_name(unsigned fault);

/* a row of the register table (regs.c), at the index the header gives */
#define PICA200_REG_ROW(reg, ...) [reg] = { #reg, __VA_ARGS__ }

/* ---- output vertices ---------------------------------------------------- */

/* a vertex after the output map: slots indexed by semantic (PICA_SEM_*) */
typedef struct PicaVertex {
    float s[PICA_SEM_COUNT];        /* 0-3 position, 8-11 colour, ... */
} PicaVertex;

/* ---- the core ----------------------------------------------------------- */

typedef struct PicaPsc {
    uint32_t start, end, value, control;
    bool busy;
    uint64_t pos, stop;             /* current fill range, 3DS physical */
} PicaPsc;

typedef struct PicaPpf {
    bool busy;
    bool texcopy;
    /* display transfer, checked at start */
    uint64_t in_addr, out_addr;
    uint32_t in_w, in_h, out_w, out_h;   /* out_*: after downscaling */
    uint8_t in_fmt, out_fmt, hs, vs;
    bool in_tiled, out_tiled, flip;
    uint32_t row;                   /* next output row */
    /* texture copy */
    uint64_t remaining;
    uint32_t in_width, in_gap, out_width, out_gap, in_pos, out_pos;
} PicaPpf;

typedef struct PicaCmdProc {
    bool active;
    uint64_t pc, end;               /* next command, end of the buffer */
    uint64_t start;                 /* first command of the buffer */
    bool self_jump_logged;          /* since the last kick from BAR0 */
    /* the command being executed: parameter k of n + 1 */
    bool in_cmd;
    uint32_t id, mask, nparams, k;
    bool consecutive;
    uint64_t param_addr;            /* address of parameter k (k >= 1) */
    bool finalized;                 /* an IRQ request (FINALIZE) was written */
} PicaCmdProc;

typedef struct PicaQueuedWrite {
    uint16_t id;
    uint32_t value, mask;
} PicaQueuedWrite;

/* how one vertex attribute is fetched (pipeline.c) */
typedef struct PicaAttribSource {
    bool fixed;
    uint8_t type, comps;
    uint64_t addr;                  /* 3DS physical of vertex 0 */
    uint32_t stride;
} PicaAttribSource;

/* a post-vertex cache, direct-mapped by index */
#define PICA_VCACHE 64
typedef struct PicaVtxCache {
    uint32_t tag[PICA_VCACHE];
    bool valid[PICA_VCACHE];
    PicaVertex vtx[PICA_VCACHE];
} PicaVtxCache;

typedef struct PicaDraw {
    bool active;
    bool indexed;
    uint32_t next, count;
    uint32_t first;                 /* VERTEX_OFFSET for arrays */
    uint64_t index_addr;
    bool index_u16;
    unsigned nattrs;
    PicaAttribSource attr[12];
    PicaVtxCache cache;             /* indexed draws without GS */
} PicaDraw;

typedef struct PicaPrimAsm {
    PicaVertex buf[2];
    unsigned n;                     /* vertices buffered */
    unsigned index;                 /* strip/fan slot */
    bool strip_ready;
    bool winding;                   /* GS: reverse the next triangle */
} PicaPrimAsm;

/* the geometry shader's input collection (point mode) */
typedef struct PicaGsInput {
    float attr[16][4];
    unsigned n;
    /* variable and fixed primitive modes: the next float uniform written,
     * and (variable) the vertices left in the batch and how many of them
     * still bring all their outputs */
    unsigned uniform;
    unsigned left, main_left;
    bool need_count;                /* variable: the next index is a count */
} PicaGsInput;

typedef struct PicaRenderState PicaRenderState;

/*
 * Where the front end (vertex shader, primitive assembly, clipping and
 * set-up) of a run of vertices keeps its assembly state and counts: the
 * core's own (`front`, on the command processor's thread), or those of a
 * chunk of a draw on a render thread (pipeline.c draw_parallel). A staged
 * chunk queues its triangles into its G3DRasterStage and, where the serial
 * front end would log a guest error, stops with `failed` set instead: the
 * serial front end then runs that chunk again and logs it in its place.
 */
typedef struct PicaFront {
    Pica200Core *c;
    PicaPrimAsm *pa;
    unsigned *budget_used;
    uint64_t *vertices, *triangles;
    bool staged;
    bool failed;
    bool warm;                      /* strip/fan: buffer vertices, draw none */
} PicaFront;

struct Pica200Core {
    Pica200CoreConfig cfg;
    G3DMem phys;                    /* 3DS physical view (pica200-core.c) */
    G3DRaster *raster;

    /* external registers 0x0000-0x0FFF, stored; modelled ones below */
    uint32_t ext[0x1000 / 4];
    PicaPsc psc[2];
    PicaPpf ppf;
    uint32_t ppf_control;

    /* P3D */
    uint32_t regs[PICA_NREGS];
    uint64_t irq_stat;              /* IRQ_STAT: 64 request bytes */
    PicaCmdProc cp;
    GArray *queue;                  /* MMIO writes waiting for the list */
    unsigned queue_head;

    /* lookup tables uploaded through their data ports, kept for the
     * texturing, fog, gas and lighting blocks */
    uint32_t proctex_lut[6][256];
    uint32_t fog_lut[128];
    uint32_t gas_lut[16];
    uint32_t light_lut[24][256];

    PicaShaderSetup sh[2];          /* VS, GS */
    float fixed_attr[12][4];
    uint32_t fixed_words[3];
    unsigned fixed_nwords;
    unsigned fixed_index;           /* attribute the next DATA goes to */
    float imm_attr[16][4];          /* immediate-mode vertex being built */
    unsigned imm_n;

    PicaDraw draw;
    PicaPrimAsm pa;
    PicaFront front;                /* the serial front end: c's own state */
    void **vcaches;                 /* a PicaVtxCache a render thread */
    unsigned front_cost16;          /* budget units a vertex x 16, last run */
    uint64_t front_runs;            /* runs on the render threads */
    PicaGsInput gs_in;
    PicaEmitter emitter;
    unsigned gs_prims;              /* primitives emitted by this GS run */
    bool fault_logged;              /* one shader fault message per draw */

    PicaRenderState *rs;            /* snapshot for queued triangles, or NULL */
    bool rs_dirty;
    G3DErrorLatch errors;           /* PICA_UNIMP_* logged once per reset */

    unsigned budget_used;           /* units spent in this work call */
    unsigned queued_tris;           /* triangles waiting in the rasteriser */
    size_t state_bytes;             /* render-state snapshots since the flush */
    Pica200Stats stats;
    uint64_t samples_at_reset;      /* rasteriser samples before the last reset */
    uint64_t filled_at_reset;       /* ... and block-filled samples */
    bool irq_level;
    bool constructing;              /* inside pica200_core_new: no callbacks */
};

enum {
    PICA_UNIMP_GAS = 3,             /* G3DErrorLatch once-kinds */
    PICA_UNIMP_BLOCK32 = 5,
    PICA_UNIMP_SUBDIV = 7,
    PICA_UNIMP_PPF_BLOCK32 = 8,
    PICA_UNIMP_EARLYDEPTH = 9,
};


/* register writes that may wait behind the command processor */
#define PICA_QUEUE_MAX (1u << 20)

/* core-services.c: what every block may use of the core */
void pica_phys_init(Pica200Core *c);
/* finish the triangles queued in the rasteriser */
void pica_raster_flush(Pica200Core *c);
/* GPUREG_CMDBUF_JUMPn: run channel n's command buffer; stop: end the list */
void pica_cmdlist_jump(Pica200Core *c, unsigned channel);
void pica_cmdlist_stop(Pica200Core *c);
/* the level the interrupt status asks for (pica_update_irq reports it) */
bool pica_irq_wanted(Pica200Core *c);
void pica_update_irq(Pica200Core *c);
void pica_display_changed(Pica200Core *c);
bool pica_mem_read(Pica200Core *c, uint64_t addr, void *buf, uint64_t len);
void *pica_mem_map(Pica200Core *c, uint64_t addr, uint64_t len, bool write);

/* regs.c */
void pica_reg_write(Pica200Core *c, uint32_t id, uint32_t value, uint32_t mask);
uint32_t pica_reg_read(Pica200Core *c, uint32_t id);
void pica_regs_reset(Pica200Core *c);
static inline uint32_t pica_byte_mask(uint32_t nibble)
{
    return (nibble & 1 ? 0xFFu : 0) | (nibble & 2 ? 0xFF00u : 0) |
           (nibble & 4 ? 0xFF0000u : 0) | (nibble & 8 ? 0xFF000000u : 0);
}

/* cmdlist.c */
bool pica_cmdlist_step(Pica200Core *c, unsigned budget);
bool pica_p3d_busy(Pica200Core *c);

/* shader.c: register-side uploads (unit 0 VS, 1 GS) */
void pica_shader_reg_write(Pica200Core *c, unsigned unit, unsigned off,
                           uint32_t value);
void pica_shader_config(Pica200Core *c, unsigned unit, PicaShaderConfig *cfg);

/* pipeline.c */
void pica_draw_start(Pica200Core *c, bool indexed);
bool pica_draw_step(Pica200Core *c, unsigned budget);
void pica_draw_abort(Pica200Core *c);
void pica_fixedattrib_index(Pica200Core *c, uint32_t value);
void pica_fixedattrib_data(Pica200Core *c, uint32_t value);
void pica_pipeline_reset(Pica200Core *c);
void pica_pipeline_free(Pica200Core *c);

/* primitive.c */
void pica_pa_restart(Pica200Core *c);
void pica_pa_vertex(PicaFront *f, const PicaVertex *v);
void pica_pa_set_winding(Pica200Core *c);

/* rasterizer.c */
void pica_rasterize_triangle(PicaFront *f, const PicaVertex *v0,
                             const PicaVertex *v1, const PicaVertex *v2);
/* n more triangles queued: flush when the queue is long */
void pica_raster_count(Pica200Core *c, size_t n);

/* ---- texture combiners (texenv.c) ------------------------------------- */

typedef struct PicaTevStage {
    uint8_t src_rgb[3], src_a[3];
    uint8_t op_rgb[3], op_a[3];
    uint8_t comb_rgb, comb_a;
    uint8_t scale_rgb, scale_a;     /* 1, 2 or 4 */
    uint8_t konst[4];
    uint8_t n_rgb, n_a;             /* sources the two operations read */
    bool copy;                      /* REPLACE, operand 0, 1x on both sides */
} PicaTevStage;

typedef struct PicaTevState {
    PicaTevStage stage[6];
    uint8_t buffer_init[4];
    uint8_t update_rgb, update_a;   /* stages 0-3 that update the buffer */
    bool passthrough;               /* the result is the primary colour */
    uint8_t uses_tex;               /* b0-3: texture 0-3 is a source */
    uint8_t uses_frag;              /* b0/b1: fragment primary/secondary read */
    uint8_t nstages;                /* stages after these pass "previous" on */
} PicaTevState;

void pica_texenv_setup(Pica200Core *c, PicaTevState *t);
/* the derived fields (passthrough, nstages, n_rgb/n_a, copy, uses_tex) */
void pica_texenv_prepare(PicaTevState *t);
/* tex[i]: texture i's colour (RGBA) at the fragment; NULL when none is read */
void pica_texenv_combine(const PicaTevState *t, const uint8_t primary[4],
                         const uint8_t (*tex)[4], uint8_t out[4]);
/* the same with the fragment lighting colours (frag[0] primary, [1] secondary) */
void pica_texenv_combine_lit(const PicaTevState *t, const uint8_t primary[4],
                             const uint8_t (*frag)[4], const uint8_t (*tex)[4],
                             uint8_t out[4]);
/* what one side (RGB or alpha) of a one-stage combiner computes */
enum {
    PICA_TEV1_OTHER,                /* anything else */
    PICA_TEV1_TEX0,                 /* texture 0 */
    PICA_TEV1_MODULATE,             /* primary colour x texture 0 / 255 */
    PICA_TEV1_PRIMARY,              /* the primary colour */
};
/* the combiner's RGB (b0-1) and alpha (b2-3) PICA_TEV1_* */
unsigned pica_texenv_one_stage(const PicaTevState *t);

/* ---- texture units 0-2 (texunit.c) -------------------------------------- */

typedef struct PicaTexUnit {
    const uint8_t *data;            /* level 0 in host memory; NULL: samples 0 */
    uint32_t w, h;                  /* level 0 size in texels */
    uint8_t fmt;                    /* PICA_TEXFMT_* */
    uint8_t wrap_s, wrap_t;         /* PICA_WRAP_* (4-7: Citra's variants) */
    bool mag_linear, min_linear, mip_linear;
    bool projection;                /* unit 0 type 3: u, v divided by w */
    bool cube;                      /* unit 0 type 1: faces by (u, v, w) */
    const uint8_t *face[6];         /* cube faces +X..-Z (face[0] = data) */
    bool shadow;                    /* types 2 and 4: depth compare */
    bool shadow_persp;              /* TEXUNIT0_SHADOW b0 = 0: divide by w */
    uint32_t shadow_bias;           /* b1-23 in place (bias << 1) */
    uint8_t coord;                  /* texture coordinate set 0-2 */
    int min_level, max_level;
    float bias;                     /* LOD bias in levels */
    uint8_t border[4];
    uint32_t level_offset[11];      /* bytes from level 0 */
} PicaTexUnit;

/* the procedural texture unit 3 (proctex.c) */
typedef struct PicaProcTex {
    bool enabled;                   /* set up and valid */
    uint8_t coord;                  /* texture coordinate set 0-2 */
    uint8_t clamp_u, clamp_v;       /* PICA_PROCTEX_CLAMP_* */
    uint8_t rgb_func, alpha_func;   /* mapping functions 0-9 */
    bool separate_alpha, noise, linear;
    uint8_t shift_u, shift_v;       /* 0 none, 1 odd, 2 even */
    float amp_u, amp_v, phase_u, phase_v, freq_u, freq_v;
    unsigned width, offset;         /* colour LUT entries used, first one */
    uint8_t mip;                    /* 0 level 0, 1 nearest level, 2 two levels */
    uint8_t min_level, max_level;   /* 0-7 */
    float bias;
    uint8_t level_offset[8];        /* first colour-LUT entry of each level */
    float noise_v[128], noise_d[128];
    float rgb_v[128], rgb_d[128];
    float alpha_v[128], alpha_d[128];
    uint8_t color[256][4];
    int16_t color_diff[256][4];
} PicaProcTex;

void pica_proctex_setup(Pica200Core *c, PicaProcTex *pt);
/* the colour-LUT level of detail of a 2x2 quad whose |u|, |v| differ by du, dv */
float pica_proctex_lod(const PicaProcTex *pt, float du, float dv);
void pica_proctex_sample(const PicaProcTex *pt, float u, float v, float lod,
                         uint8_t out[4]);

typedef struct PicaTexState {
    uint8_t active;                 /* b0-3: unit sampled (enabled, read, valid) */
    PicaTexUnit unit[3];
    PicaProcTex *proctex;           /* unit 3, in the rasteriser's arena */
} PicaTexState;

typedef struct PicaTri PicaTri;

unsigned pica_texfmt_bits(unsigned fmt);
uint64_t pica_tex_level_size(unsigned fmt, uint32_t w, uint32_t h);
/* texel (x, memory row ym) of an image `width` texels wide, as RGBA8 */
void pica_texel_decode(unsigned fmt, const uint8_t *data, uint32_t width,
                       uint32_t x, uint32_t ym, uint8_t rgba[4]);
/* texel (x, y) of an ETC1 block read as a little-endian u64 */
void pica_etc1_texel(uint64_t blk, unsigned x, unsigned y, uint8_t rgb[3]);
void pica_texunit_setup(Pica200Core *c, const PicaTevState *tev,
                        PicaTexState *ts);
/* the cube face (0-5: +X, -X, +Y, -Y, +Z, -Z) and its (s, t) for (u, v, w) */
unsigned pica_cube_coord(float u, float v, float w, float *s, float *t,
                         float *major);
/* one sample at (s, t) in [0, 1] image units with level of detail `lod` */
void pica_tex_sample(const PicaTexUnit *u, float s, float t, float lod,
                     uint8_t out[4]);
void pica_texunit_quad(const PicaTexState *ts, const PicaTri *tri,
                       const G3DQuad *q, uint8_t tex[4][4][4]);
/* texture 0's colour at a quad's covered pixels, as pica_texunit_quad */
typedef void PicaTexQuadFn(const PicaTexUnit *u, const PicaTri *tri,
                           const G3DQuad *q, uint8_t tex[4][4]);
/* a sampler made for unit 0's setup, or NULL when it is not a plain one */
PicaTexQuadFn *pica_texunit_choose_unit0(const PicaTexState *ts);
#ifdef __SSE2__
#include <emmintrin.h>
/*
 * texture 0's colour at four pixels (R, G, B, A, pixel 0 first) from their
 * perspective weights in lanes (bar[k]: vertex k's, pixel i in lane i)
 */
typedef void PicaTexLanesFn(const PicaTexUnit *u, const PicaTri *tri,
                            const __m128 bar[3], uint8_t tex[4][4]);
/* the same sampler as pica_texunit_choose_unit0's taking lanes, or NULL */
PicaTexLanesFn *pica_texunit_choose_lanes(const PicaTexState *ts);
#endif
#ifdef G3D_WEIGHTS_AVX
/*
 * texture 0's colour at eight pixels (R, G, B, A, pixel p in 32-bit lane
 * p) from their weights (bar[k]: vertex k's, pixel p in lane p), for the
 * AVX2 spans
 */
typedef __m256i PicaTexLanes8Fn(const PicaTexUnit *u, const PicaTri *tri,
                                const __m256 bar[3]);
/* pica_texunit_choose_lanes's sampler eight pixels a call, where the CPU
 * has AVX2 (g3d_use_avx2), or NULL */
PicaTexLanes8Fn *pica_texunit_choose_lanes8(const PicaTexState *ts);
#endif

/* ---- fog (fog.c) -------------------------------------------------------- */

typedef struct PicaFog {
    bool enabled;
    bool z_flip;
    uint8_t color[3];
    float value[128], diff[128];    /* LUT, in 1/2047 */
} PicaFog;

void pica_fog_setup(Pica200Core *c, PicaFog *fog);
/* mix rgba with the fog colour by the LUT's factor at window depth `depth` */
void pica_fog_apply(const PicaFog *fog, float depth, uint8_t rgba[4]);

/* ---- fragment lighting (lighting.c) ------------------------------------- */

typedef struct PicaLightLut {
    bool on;                        /* in the layer configuration and enabled */
    bool abs;                       /* unsigned [0, 1] input */
    uint8_t input;                  /* PICA_LUTIN_* */
    float scale;
} PicaLightLut;

typedef struct PicaLightSrc {
    uint8_t id;                     /* the light (0-7) this slot uses */
    bool directional, two_sided, geo0, geo1;
    bool shadow, spot_on, dist_on;
    float specular0[3], specular1[3], diffuse[3], ambient[3];
    float pos[3], spot[3];          /* spot: -P as the register holds it */
    float dist_bias, dist_scale;
} PicaLightSrc;

typedef struct PicaLighting {
    unsigned nlights;
    uint8_t layer;                  /* LAYER_CONFIG: 0-6, 8 */
    uint8_t fresnel;                /* b0 primary alpha, b1 secondary alpha */
    uint8_t bump_mode, bump_unit, shadow_unit;
    bool bump_renorm, clamp_highlights;
    bool shadow_on, shadow_primary, shadow_secondary, shadow_invert,
         shadow_alpha;
    float ambient[3];
    PicaLightLut lut[7];            /* by PICA_LUTSLOT_* */
    PicaLightSrc light[8];          /* by slot */
    uint32_t luts[24][256];
} PicaLighting;

/* LIGHTING_ENABLE0 b0 turns lighting on and LIGHTING_ENABLE1 b0 is its
 * "disabled" twin; citro3d writes both, so both must say on */
static inline bool pica_lighting_on(const Pica200Core *c)
{
    return (c->regs[GPUREG_LIGHTING_ENABLE0] & 1) &&
           !(c->regs[GPUREG_LIGHTING_ENABLE1] & 1);
}
/* false (and *l cleared) when lighting is off */
bool pica_lighting_setup(Pica200Core *c, PicaLighting *l);
/* the fragment primary and secondary colours; quat as interpolated (x, y,
 * z, w), view as interpolated, tex[i] texture i's colour or NULL */
void pica_lighting_fragment(const PicaLighting *l, const float quat[4],
                            const float view[3], const uint8_t (*tex)[4],
                            uint8_t primary[4], uint8_t secondary[4]);

/* ---- the snapshot queued triangles shade with (framebuffer.c) ---------- */

struct PicaRenderState {
    uint32_t width, height;         /* colour/depth buffer size in pixels */
    uint8_t *color;                 /* NULL: nothing can be drawn */
    unsigned color_fmt;             /* PICA_PIXFMT_* */
    unsigned color_bpp;
    uint8_t *depth;                 /* NULL when no depth/stencil is used */
    unsigned depth_fmt;             /* PICA_DEPTH_* */
    unsigned depth_bpp;
    bool scissor_inverted;
    G3DRect scissor;                /* clip rectangle, raster space (rows top down) */
    G3DRect inv_box;                /* inverted scissor: pixels dropped */
    float depth_scale, depth_offset;
    bool wbuffer;
    PicaTevState tev;
    PicaTexState tex;
    PicaFog fog;
    PicaLighting *light;            /* in the rasteriser's arena; NULL: off */
    bool shadow_mode;               /* FRAGMENT_MODE 3: write a shadow map */
    float shadow_constant, shadow_linear;   /* FRAGOP_SHADOW */
    bool alpha_test;
    uint8_t alpha_func, alpha_ref;  /* G3DCompare */
    bool stencil_test;
    uint8_t stencil_func, stencil_ref, stencil_mask, stencil_write_mask;
    uint8_t stencil_op[3];          /* fail, zfail, zpass (G3DStencilOp) */
    uint8_t depth_func;             /* G3DCompare (ALWAYS when the test is off) */
    bool depth_write;
    bool color_write;
    uint8_t rgba_mask;              /* b0 R .. b3 A */
    bool blend;
    bool replace;                   /* the result is the source: no dst read */
    uint8_t eq_rgb, eq_a, sf_rgb, df_rgb, sf_a, df_a; /* PICA codes */
    uint8_t blend_color[4];
    uint8_t logic_op;               /* GL order (g3d_logic_op) */
    G3DQuadFn *shade;               /* chosen per snapshot (framebuffer.c) */
    bool serial_tiles;              /* its batches on one thread (tile_order_shows) */
    PicaTexQuadFn *tex0;            /* its texture 0 sampler, if it uses one */
#ifdef __SSE2__
    PicaTexLanesFn *tex0_lanes;     /* the same for spans, or NULL */
#endif
#ifdef G3D_WEIGHTS_AVX
    PicaTexLanes8Fn *tex0_lanes8;   /* ... eight pixels a call, or NULL */
#endif
    uint8_t tev1_rgb, tev1_a;       /* its combiner, if it uses one */
};

/* a triangle as the fragment stage sees it */
struct PicaTri {
    const PicaRenderState *rs;
    float zw[3];                    /* z / w */
    float inv_w[3];
    float color[3][4];
    float tc[3][7];                 /* u0 v0 u1 v1 u2 v2 w0 (when texturing) */
    float quat[3][4];               /* normal quaternion (when lighting) */
    float view[3][3];               /* view vector (when lighting) */
    uint32_t flat;                  /* pica_flat_fill's pixel, as stored */
    /*
     * pica_span_choose's set-up: the rasteriser's edges, and each edge's
     * value at pixel (0, 0)'s sample and steps a pixel right and down
     */
    G3DEdges edges;
    int64_t e0[3], ex[3], ey[3];
};

PicaRenderState *pica_render_state(Pica200Core *c);
void pica_render_shade(void *user, const G3DQuad *q, int thread);
/*
 * A triangle of one colour whose every pixel the quad path would write
 * with the same bytes: true, and tri->flat set, when pica_fill_rgba8 may
 * draw its fully covered blocks.
 */
bool pica_flat_fill(const PicaRenderState *rs, PicaTri *tri);
G3DBlockFn pica_fill_rgba8;
/*
 * The fill function that draws triangle t (tri its PicaTri, set up here)
 * quad by quad with the quad path's bytes, or NULL: the rasteriser's quads
 */
G3DBlockFn *pica_span_choose(const PicaRenderState *rs, PicaTri *tri,
                             const G3DTriangle *t);

/* tiled surfaces: 8x8 tiles, Morton order inside (3dbrew GPU/Internal Registers
 * 0x080-0x0B7, 0x100-0x130; Citra) */
static inline uint32_t pica_morton8(uint32_t x, uint32_t y)
{
    return (x & 1) | (y & 1) << 1 | (x & 2) << 1 | (y & 2) << 2 |
           (x & 4) << 2 | (y & 4) << 3;
}

/* pixel index (not bytes) of (x, row) in a tiled surface `width` wide */
static inline uint32_t pica_tiled_index(uint32_t x, uint32_t row,
                                        uint32_t width)
{
    return ((row >> 3) * (width >> 3) + (x >> 3)) * 64 +
           pica_morton8(x & 7, row & 7);
}

/* decode/encode the PDC/PPF pixel formats (PICA_PIXFMT_*) */
int pica_pixfmt_bpp(unsigned fmt);
G3DPixFmt pica_pixfmt_to_g3d(unsigned fmt);
void pica_pixel_decode(unsigned fmt, const uint8_t *p, uint8_t rgba[4]);
void pica_pixel_encode(unsigned fmt, uint8_t *p, const uint8_t rgba[4]);

/* psc.c, ppf.c, pdc.c */
void pica_psc_start(Pica200Core *c, unsigned n);
bool pica_psc_step(Pica200Core *c, unsigned n, unsigned budget);
void pica_ppf_start(Pica200Core *c);
bool pica_ppf_step(Pica200Core *c, unsigned budget);
bool pica_pdc_scanout(Pica200Core *c, int head, G3DScanout *out);

#endif
