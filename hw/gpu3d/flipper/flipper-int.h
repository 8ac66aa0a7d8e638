/*
 * flipper-gx core internals shared by the block files. The folder is the
 * block diagram: cp.c (FIFO), cp-decode.c (GX commands), cp-vertex.c (vertex
 * loader), xf.c (transform), su.c (primitive setup), clipper.c, ras.c
 * (rasteriser), tev.c, pe.c (pixel engine, EFB), pe-copy.c (EFB copies),
 * bp.c (BP register side effects), vi.c, pi.c, mi.c, dsp.c, di.c, si.c,
 * exi.c, ai.c; flipper-core.c ties them together.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_FLIPPER_INT_H
#define GPU3D_FLIPPER_INT_H

#include <glib.h>
#include <string.h>

#include "flipper.h"
#include "common/error-latch.h"
#include "common/raster.h"
#include "gpu3d/flipper-regs.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* eight-pixel textured spans and samplers with AVX2, chosen at run time
 * (flipper_tx_choose) */
#define FLIPPER_HAVE_AVX2 1
#endif

#define EFB_W FLIPPER_EFB_WIDTH
#define EFB_H FLIPPER_EFB_HEIGHT

/* the bits a CP or PI FIFO pointer register keeps: a 64 MiB physical bus
 * in 32-byte blocks */
#define FLIPPER_FIFO_PTR_MASK 0x03FFFFE0u
#define NS_PER_S 1000000000u

/* ---- CP ------------------------------------------------------------------ */

#define CP_STAGE_SIZE 4096      /* bytes fetched from the FIFO, not yet decoded */
/* a draw's vertices read ahead of the read pointer (cp.c draw_window) */
#define CP_WINDOW_AHEAD 32768

/* How one vertex attribute is laid out (cp-vertex.c). */
typedef struct GXAttrFormat {
    uint8_t mode;               /* VCD_NONE / DIRECT / INDEX8 / INDEX16 */
    uint8_t fmt;                /* component or colour format */
    uint8_t comps;              /* components (colours: 1) */
    uint8_t csize;              /* bytes per component (colours: per colour) */
    bool nbt3;                  /* normals: three indices */
    uint32_t offset;            /* byte offset in the vertex */
    float scale;                /* 1 / 2^shift */
} GXAttrFormat;

typedef struct GXVertexFormat {
    uint32_t size;              /* bytes per vertex in the stream */
    GXAttrFormat a[21];         /* PNMTX, TEXMTX0-7, POS, NRM, CLR0-1, TEX0-7 */
} GXVertexFormat;

/* A command stream being decoded: a draw may span several work steps. */
typedef struct GXDecoder {
    bool in_draw;
    uint8_t prim, vat;
    uint32_t left;              /* vertices still to load */
    GXVertexFormat fmt;
    /*
     * budget units a vertex of the draw's last front.c run cost, x16 (0:
     * none yet); sizes the next run. Not saved: it only paces the work.
     */
    uint32_t cost16;
} GXDecoder;

typedef struct FlipperCP {
    uint16_t cr;
    bool ovf, unf, bp_hit;      /* SR bits 0, 1, 4 */
    uint16_t token;             /* CP 0x0E mirrors the last PE token */
    uint16_t perf_sel;
    uint32_t base, end, hiwm, lowm, dist, wptr, rptr, bp;
    bool fault;                 /* bad FIFO pointers: reading halted */
    uint8_t stage[CP_STAGE_SIZE];
    uint32_t stage_len;
    GXDecoder dec;
    /* a CALL_DL in progress (display lists do not nest) */
    bool dl_active;
    uint32_t dl_addr, dl_size, dl_pos;
    GXDecoder dl_dec;
} FlipperCP;

/* ---- PI ------------------------------------------------------------------ */

typedef struct FlipperPI {
    uint32_t intmr;
    uint32_t error;             /* latched PI_INT_ERROR (GP runtime error) */
    uint32_t fifo_base, fifo_end, fifo_wptr;
    bool wrap;
    uint8_t gather[FLIPPER_WGP_SIZE + 8];
    uint32_t gather_len;
    uint32_t reset_code, unk30;
} FlipperPI;

/* ---- PE ------------------------------------------------------------------ */

typedef struct FlipperPE {
    uint16_t mmio[PE_REG_SPAN / 2];   /* 0x00-0x08 and unmodelled counters */
    bool token_en, finish_en, token_int, finish_int;
    uint16_t token;
    /* bounding box, inclusive, 2x2 rounded; left > right when empty */
    int bbox[4];                /* left, right, top, bottom */
} FlipperPE;

/* ---- VI ------------------------------------------------------------------ */

typedef struct FlipperVI {
    uint16_t regs[VI_REG_SPAN / 2];
    int64_t last_ns;            /* clock time of the position below */
    uint64_t sample;            /* beam position: samples since frame start */
    bool scaler_logged;         /* bad scaler settings logged since written */
} FlipperVI;

/* ---- the other blocks ---------------------------------------------------- */

typedef struct FlipperMI {
    uint16_t regs[MI_REG_SPAN / 2];
} FlipperMI;

typedef struct FlipperDSP {
    uint16_t regs[DSP_REG_SPAN / 2];
    uint16_t csr;
    uint8_t *aram;              /* allocated on first ARAM DMA */
} FlipperDSP;

typedef struct FlipperDI {
    uint32_t regs[DI_REG_SPAN / 4];
} FlipperDI;

typedef struct FlipperSI {
    uint32_t outbuf[4], inbuf_h[4], inbuf_l[4];
    uint32_t poll, comcsr, sr, exilk;
    uint8_t iobuf[128];
} FlipperSI;

typedef struct FlipperEXI {
    uint32_t csr[EXI_CHANNELS], mar[EXI_CHANNELS], len[EXI_CHANNELS];
    uint32_t cr[EXI_CHANNELS], data[EXI_CHANNELS];
} FlipperEXI;

typedef struct FlipperAI {
    uint32_t cr, vr, scnt, it;
    int64_t last_ns;
    uint64_t frac;              /* sample-clock remainder, in ns * rate */
} FlipperAI;

/* ---- the vertex pipeline ------------------------------------------------- */

/* A vertex as the vertex loader delivers it (YAGCD §5.11.5.2 drawing
 * commands). */
typedef struct GXInVertex {
    float pos[3];
    float nrm[3][3];            /* normal, binormal, tangent */
    uint8_t col[2][4];          /* RGBA */
    float tex[8][2];
    uint8_t posmtx;
    uint8_t texmtx[8];
    bool has_nrm, has_col[2];
} GXInVertex;

/* A vertex after XF, ready for setup. */
typedef struct GXVertex {
    float mv[3];                /* eye space */
    float proj[4];              /* clip space x, y, z, w */
    float screen[3];            /* window x, y (with the +342 offset), z */
    float normal[3][3];
    uint8_t col[2][4];          /* RGBA */
    float tex[8][3];
} GXVertex;

/* Primitive assembly (su.c). */
typedef struct FlipperSU {
    int prim;                   /* GX_DRAW_PRIM() of the current draw */
    unsigned count;             /* vertices seen in this draw */
    GXVertex v[4];
} FlipperSU;

/* An attribute plane over the screen, as the rasteriser evaluates it. */
typedef struct GXSlope {
    float f0, dfdx, dfdy;       /* value at the reference point, gradients */
    int32_t x0, y0;             /* reference pixel */
    float xoff, yoff;           /* sample offset from the reference vertex */
} GXSlope;

/*
 * The TEV configuration most draws use: one stage whose colour and alpha
 * are the rasterised channel unchanged (D = RASC / RASA, A = B = C = 0, no
 * bias or scale), no texture, alpha test passing every value, no fog. The
 * pixel is then the channel through its swap table (tev.c decides).
 */
typedef struct FlipperTevFast {
    bool on;
    uint8_t chan;               /* rasterised colour channel 0 or 1 */
    uint8_t swap[4];            /* RGBA source of each output component */
} FlipperTevFast;

/* A texture map as one triangle samples it (tx.c, from the BP registers) */
#define TX_MAX_LEVELS 17        /* LOD <= 15.9375, plus the next level */
typedef struct TxMap TxMap;
/* one level's sample at (s, t) in s17.7 texels of level 0 (tx.c) */
typedef void TxSampleLevel(const TxMap *m, int32_t s, int32_t t, int level,
                           bool linear, uint8_t out[4]);
/* the same for four pixels at once: pixel i's texel to out + i * stride */
typedef void TxSampleLevel4(const TxMap *m, const int32_t s[4],
                            const int32_t t[4], int level, bool linear,
                            uint8_t *out, size_t stride);
#ifdef FLIPPER_HAVE_AVX2
/* the same for n groups of eight pixels in AVX2 lanes (s[i], t[i]), their
 * RGBA words (R lowest) to out[i]; AVX2 code */
typedef void TxSampleLevel8(const TxMap *m, const __m256i *s,
                            const __m256i *t, int n, int level, bool linear,
                            __m256i *out);
#endif
struct TxMap {
    const uint8_t *src;         /* level 0 in host memory; NULL reads 0 */
    const uint8_t *src_gb;      /* preloaded RGBA8: the GB half (odd TMEM) */
    uint8_t fmt, tlut_fmt, wrap_s, wrap_t, mip;
    bool mag_linear, min_linear, diag;
    int lod_bias;               /* s.4 */
    int min_lod, max_lod;       /* u4.4 */
    int wm1, hm1;               /* level 0 size - 1 */
    uint32_t level_off[TX_MAX_LEVELS];  /* byte offset of each level */
    const uint8_t *tlut;        /* the map's TLUT in the TMEM high bank */
    uint32_t tlut_len;          /* bytes from tlut to the end of the bank */
    TxSampleLevel *level;       /* per format (flipper_tx_choose) */
    TxSampleLevel4 *level4;     /* NULL: level, pixel by pixel */
    /* no mip mode and one filter both ways: the LOD changes nothing, so
     * the caller need not compute it (lod 0, filter mag_linear); false
     * under flipper_force_general (flipper_tx_choose) */
    bool lod_fixed;
#ifdef FLIPPER_HAVE_AVX2
    /* level4 eight pixels at a time (RGBA8), where the CPU has AVX2 and
     * g3d_no_avx is false; else NULL */
    TxSampleLevel8 *level8;
#endif
};

/*
 * Statistics per render thread, summed after each flush. Padded to 128
 * bytes: the threads add to theirs per quad, and two threads' counters in
 * one cache line would pass it back and forth.
 */
typedef struct FlipperThreadStats {
    uint64_t pixels;
    int bbox[4];
    uint8_t pad[128 - sizeof(uint64_t) - 4 * sizeof(int)];
} FlipperThreadStats;

struct FlipperCore {
    FlipperCoreConfig cfg;
    uint32_t mem1_size;
    G3DRaster *raster;
    int threads;
    int64_t now_ns;
    bool irq_level;
    /* the BAR0 blocks (flipper-core.c), for the services below them */
    const struct FlipperBlock *const *blocks;
    unsigned n_blocks;

    FlipperCP cp;
    FlipperPI pi;
    FlipperPE pe;
    FlipperVI vi;
    FlipperMI mi;
    FlipperDSP dsp;
    FlipperDI di;
    FlipperSI si;
    FlipperEXI exi;
    FlipperAI ai;

    /* GX register files */
    uint32_t bp[256];
    uint32_t bp_mask;           /* BP 0xFE: bits the next BP write changes */
    uint32_t cpr[256];
    uint32_t xf[XF_MEM_WORDS + XF_REG_COUNT];   /* memory, then registers */
    int16_t tev_reg[4][4];      /* PREV, C0-C2: RGBA, signed 11-bit */
    int16_t tev_konst[4][4];    /* K0-K3 */
    uint8_t tmem[FLIPPER_TMEM_SIZE];    /* preloaded textures, TLUTs */

    FlipperSU su;
    GXSlope zfreeze;            /* depth plane kept for GEN_MODE.ZFREEZE */
    uint64_t front_runs;        /* runs of front.c on the render threads */
    uint64_t window_draws;      /* decodes of cp.c's draw window */
    /* the staged bytes and the FIFO blocks after them (cp.c draw_window):
     * scratch, not state */
    uint8_t cp_window[CP_STAGE_SIZE + CP_WINDOW_AHEAD];
    uint64_t work_px;           /* pixels drawn or copied, not yet charged */
    /* EFB: colour (format-packed 24 bits) and depth (24 bits) */
    uint32_t *efb_color, *efb_depth;
    FlipperThreadStats *tstats;
    FlipperTevFast tev_fast;    /* valid while !tev_fast_dirty */
    bool tev_fast_dirty;        /* a BP register changed since */
    G3DErrorLatch errors;       /* raises PI INTSR GP error */

    FlipperStats stats;
    /*
     * Lines (display copy) or rows of tiles (texture copy) and rows
     * cleared that the last EFB copy's bands produced, summed over the
     * render threads: equal to the copy's count when no band was skipped
     * or run twice (tests).
     */
    uint32_t copy_units;
};

/* flipper-core.c */
void flipper_sync_time(FlipperCore *c);

/* core-services.c: what every block may use; it calls no block */
/* the INTx level the PI's cause and mask registers ask for */
bool flipper_irq_wanted(FlipperCore *c);
void flipper_irq_changed(FlipperCore *c);
uint32_t flipper_pi_intsr(FlipperCore *c);
/* G3DErrorLatch codes and once-kinds */
enum {
    FLIPPER_ERR_GP = 1,         /* GP runtime error: bad FIFO data, pointers */
};
enum {
    FLIPPER_ONCE_Z16,           /* RGB565_Z16 EFB format, not modelled */
};
/* true if [addr, addr+len) is MEM1 */
static inline bool flipper_mem1_ok(FlipperCore *c, uint64_t addr, uint64_t len)
{
    return g3d_range_ok(addr, len, 0, c->mem1_size);
}
void flipper_flush(FlipperCore *c);     /* rasterise everything queued (core-services.c) */

static inline uint16_t be16(const uint8_t *p)
{
    return (uint16_t)(p[0] << 8 | p[1]);
}
static inline uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}
static inline void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = v >> 8;
    p[1] = v;
}
static inline float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/*
 * Register blocks. `off` is the offset inside the block. A 16-bit block
 * implements read16/write16 on its 16-bit registers; a 32-bit block
 * implements read32/write32, where `mask` says which bits were written
 * (a 16-bit access writes one half).
 */
/*
 * A block's register table: one row per register, or per array of like
 * registers, naming its include/gpu3d/flipper-regs.h symbol (A_name), so
 * every offset is written once, in the header. The core finds an access's
 * row (flipper_reg_row): writes to read-only registers are refused and
 * logged there, in one place, by name; the block's callbacks do the rest.
 */
enum {
    FLIPPER_REG_RW = 0,
    FLIPPER_REG_RO = 1 << 0,        /* writes refused and logged */
    FLIPPER_REG_COUNTER = 1 << 1,   /* performance counter, not modelled */
};
typedef struct FlipperRegRow {
    const char *name;
    uint32_t addr;              /* BAR0 offset of the (first) register */
    uint8_t size;               /* bytes: 2 or 4 */
    uint8_t flags;              /* FLIPPER_REG_* */
    uint16_t count, stride;     /* an array: count registers stride apart */
} FlipperRegRow;
#define FLIPPER_REG_ROW(name, size, flags) \
    { #name, A_ ## name, size, flags, 1, size }
#define FLIPPER_REG_ARRAY(name, size, flags, count, stride) \
    { #name, A_ ## name, size, flags, count, stride }
/* the registers from first to last, size bytes apart */
#define FLIPPER_REG_RANGE(first, last, size, flags) \
    { #first, A_ ## first, size, flags, \
      (A_ ## last - A_ ## first) / (size) + 1, size }
#define FLIPPER_BLOCK_REGS(table) .regs = table, .n_regs = G_N_ELEMENTS(table)

typedef struct FlipperBlock {
    const char *name;
    uint32_t base, span;
    const FlipperRegRow *regs;  /* no offset in two rows */
    unsigned n_regs;
    /* the block's PI INTSR cause bits now (PI_INT_*); NULL: it has none */
    uint32_t (*intsr)(FlipperCore *c);
    uint16_t (*read16)(FlipperCore *c, uint32_t off);
    void (*write16)(FlipperCore *c, uint32_t off, uint16_t val);
    uint32_t (*read32)(FlipperCore *c, uint32_t off);
    void (*write32)(FlipperCore *c, uint32_t off, uint32_t val, uint32_t mask);
} FlipperBlock;

/* the row of the register at BAR0 offset addr (the block in *block), or
 * NULL: no block or no register there */
const FlipperRegRow *flipper_reg_row(uint32_t addr, const FlipperBlock **block);

extern const FlipperBlock flipper_cp_block, flipper_pe_block, flipper_vi_block,
    flipper_pi_block, flipper_mi_block, flipper_dsp_block, flipper_di_block,
    flipper_si_block, flipper_exi_block, flipper_ai_block;

/* cp.c */
void flipper_cp_reset(FlipperCore *c);
void flipper_cp_burst(FlipperCore *c);      /* PI: a 32-byte burst in link mode */
bool flipper_cp_work(FlipperCore *c, unsigned *budget);
bool flipper_cp_dl_work(FlipperCore *c, unsigned *budget);
bool flipper_cp_busy(FlipperCore *c);
/*
 * A BP PE_TOKEN write reaches CP_TOKEN too (Dolphin's CommandProcessor
 * keeps the token it reports); inline, so that pe.c needs nothing of cp.c.
 */
static inline void flipper_cp_set_token(FlipperCore *c, uint16_t token)
{
    c->cp.token = token;
}

/* cp-decode.c */
/*
 * Decode commands from buf[0..len). Stops before an incomplete command
 * (unless `final`, where it is an error and the rest is dropped), when the
 * budget runs out, or after a CALL_DL from the FIFO. Returns bytes consumed.
 */
size_t flipper_gx_decode(FlipperCore *c, GXDecoder *d, const uint8_t *buf,
                         size_t len, unsigned *budget, bool final,
                         bool in_dl);
void flipper_cpr_write(FlipperCore *c, uint8_t reg, uint32_t val);
void flipper_gx_reset_regs(FlipperCore *c);

/*
 * The work budget (flipper_core_work) is counted by cost: a unit is a
 * command, a vertex, or 2^FLIPPER_UNIT_PX_SHIFT pixels of a triangle's
 * clipped box or of an EFB copy (c->work_px gathers them), so a step holds
 * many small triangles and few large ones. Charges `units` and the pixels
 * gathered so far.
 */
#define FLIPPER_UNIT_PX_SHIFT 11

static inline void flipper_charge(FlipperCore *c, unsigned *budget,
                                  uint64_t units)
{
    units += c->work_px >> FLIPPER_UNIT_PX_SHIFT;
    c->work_px &= (1u << FLIPPER_UNIT_PX_SHIFT) - 1;
    *budget -= (unsigned)MIN((uint64_t)*budget, units);
}

/*
 * front.c: of the next n vertices of the draw d decodes (all in buf), as
 * many as *budget pays for run through the front end (vertex loader, XF,
 * SU, clipper, setup) in chunks on every render thread, their triangles
 * queued in the draw's order and charged to *budget. Returns how many
 * were done: 0 when the draw must go on serially (its state, too few
 * vertices, one thread); short of the budget's end, the next chunk would
 * log a guest error and *serial says how many vertices to run serially
 * (logging) before trying again.
 */
uint32_t flipper_front_run(FlipperCore *c, GXDecoder *d, const uint8_t *buf,
                           uint32_t n, unsigned *budget, uint32_t *serial);
uint64_t flipper_front_runs(FlipperCore *c);
uint32_t flipper_front_paid(const GXDecoder *d, unsigned budget);
uint64_t flipper_cp_window_draws(FlipperCore *c);

/* cp-vertex.c */
void flipper_vtx_format(FlipperCore *c, int vat, GXVertexFormat *f);
void flipper_vtx_load(FlipperCore *c, const GXVertexFormat *f,
                      const uint8_t *src, GXInVertex *out);

/* xf.c */
void flipper_xf_write(FlipperCore *c, uint32_t addr, uint32_t val);
void flipper_xf_transform(FlipperCore *c, const GXInVertex *in, GXVertex *out);
static inline float xf_f(FlipperCore *c, uint32_t addr)
{
    return u2f(c->xf[addr]);
}
static inline uint32_t xf_reg(FlipperCore *c, uint32_t addr)
{
    return c->xf[addr];
}

/* su.c: assembly into su (the core's, or a front.c chunk's own) */
void flipper_su_begin(FlipperCore *c, int prim);
void flipper_su_vertex(FlipperCore *c, FlipperSU *su, const GXVertex *v);

/* clipper.c */
void flipper_clip_triangle(FlipperCore *c, const GXVertex *v0,
                           const GXVertex *v1, const GXVertex *v2);
void flipper_clip_line(FlipperCore *c, const GXVertex *v0, const GXVertex *v1);
void flipper_clip_point(FlipperCore *c, const GXVertex *v);

/* ras.c: v0..v2 in window coordinates, already in front-facing order */
void flipper_ras_triangle(FlipperCore *c, const GXVertex *v0,
                          const GXVertex *v1, const GXVertex *v2);
/*
 * What the triangles a thread sets up while `o` is set (NULL ends it)
 * leave behind, in place of the core's: their count and the last one's
 * depth plane (GEN_MODE.ZFREEZE's); for front.c's chunks, which commit
 * them in order
 */
typedef struct FlipperRasOut {
    uint64_t triangles;
    uint64_t px;                /* the triangles' clipped boxes, pixels */
    GXSlope zfreeze;
    bool zfreeze_set;
} FlipperRasOut;
void flipper_ras_out(FlipperRasOut *o);
int flipper_iround(float x);
extern const G3DRasterRules flipper_raster_rules;

/* tev.c: the pass-through case of the current state (see FlipperTevFast) */
const FlipperTevFast *flipper_tev_fast(FlipperCore *c);

/* tev.c: one pixel through the TEV stages, alpha test, PE */
typedef struct TevPixel {
    int x, y;
    uint32_t z;
    uint8_t col[2][4];          /* rasterised colour channels, RGBA */
    const uint8_t (*tex)[4];    /* per stage: the sampled texel, RGBA */
    const uint8_t *bump;        /* per stage: the indirect bump alpha */
} TevPixel;
/* how a TEV stage's colour or alpha combiner runs (tev.c stage_kind) */
enum { TEV_KIND_GENERAL, TEV_KIND_REPLACE, TEV_KIND_MODULATE };
/* the TEV state decoded once per triangle */
/*
 * A stage's colour or alpha combiner as its BP word sets it (bias, subtract,
 * scale, clamp, compare mode), decoded once per triangle by
 * flipper_tev_prepare so that no pixel extracts the fields (tev.c).
 */
typedef struct TevCombiner {
    int16_t bias;               /* added to D: 0, +128, -128 */
    int16_t round;              /* added before the >> 8 */
    uint8_t lshift, rshift;     /* the scale */
    bool sub, clamp;            /* subtract; clamp to 0-255 (else s11) */
    bool compare, cmp_eq;       /* compare mode (bias 3), == (else >) */
    uint8_t cmp_mode;           /* R8, GR16, BGR24, per component */
} TevCombiner;

typedef struct TevStage {
    uint32_t cenv, aenv;        /* BP 0xC0 + 2n, 0xC1 + 2n */
    TevCombiner ccomb, acomb;   /* cenv's and aenv's combiners */
    int16_t kon[4];             /* the stage's konstant, RGBA */
    int32_t kon4[4][4];         /* the same, four lanes each */
    uint8_t ras_swap[4], tex_swap[4];   /* source component of each output */
    uint8_t chan;               /* RAS1_TREF colour channel */
    bool tex;                   /* the stage samples a texture */
    /* the operand (tev.c OP_*) inputs A-D read, per colour component */
    uint8_t cin[4][3], ain[4];
    /* how the colour and the alpha combiner run (tev.c TEV_KIND_*),
     * decided per triangle from the stage's state */
    uint8_t ckind, akind;
    /* the stage's inputs read the rasterised colour, the konstant */
    bool reads_ras, reads_kon;
} TevStage;
typedef struct TevProgram {
    int nstages;
    TevStage st[16];
    uint8_t alpha_pass[256];    /* the alpha test for each alpha */
    bool alpha_all;             /* every alpha passes the alpha test */
    int32_t reg4[16][4];        /* the registers (tev.c OP_REG + k) at the
                                 * triangle (each BP write flushes), four
                                 * lanes each */
    bool fog;
    uint8_t ztex_op, ztex_type; /* TEV_Z_ENV_1: 0 off, 1 add, 2 replace */
    uint32_t ztex_bias;         /* TEV_Z_ENV_0 */
    bool quad;                  /* flipper_tev_shade4 shades four pixels at
                                 * once (not under flipper_force_general) */
    /* one stage, every component D + (B * C' + 128) >> 8 with D zero and
     * B, C the texel and the rasterised colour in either order, identity
     * swaps, no Z texture (GX_MODULATE): TEV_MOD_* */
    uint8_t tex_mod;
} TevProgram;
enum { TEV_MOD_NONE, TEV_MOD_TEX_RAS, TEV_MOD_RAS_TEX };
void flipper_tev_prepare(FlipperCore *c, TevProgram *prog);
#ifdef __SSE2__
/*
 * tex_mod's stage (TEV_MOD_TEX_RAS or TEV_MOD_RAS_TEX) for four pixels: tw
 * their texels, rw their rasterised colours, as RGBA bytes a word (R
 * lowest); the result likewise. Two pixels a vector in 16-bit lanes:
 * B * C' <= 255 * 256, plus 128, stays below 2^16, so the unsigned 16-bit
 * product, sum and shift are the 32-bit ones; D is zero, so the sum is
 * 0-255 and neither clamp changes it.
 */
static inline __m128i flipper_tev_mod_words(uint8_t tex_mod, __m128i tw,
                                            __m128i rw)
{
    const __m128i z = _mm_setzero_si128(), r128 = _mm_set1_epi16(128);
    __m128i bw = tex_mod == TEV_MOD_TEX_RAS ? tw : rw;
    __m128i cw = tex_mod == TEV_MOD_TEX_RAS ? rw : tw;
    __m128i v[2];
    int h;

    for (h = 0; h < 2; h++) {
        __m128i b = h ? _mm_unpackhi_epi8(bw, z) : _mm_unpacklo_epi8(bw, z);
        __m128i c = h ? _mm_unpackhi_epi8(cw, z) : _mm_unpacklo_epi8(cw, z);

        c = _mm_add_epi16(c, _mm_srli_epi16(c, 7));
        v[h] = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(b, c), r128), 8);
    }
    return _mm_packus_epi16(v[0], v[1]);
}
#endif
#ifdef FLIPPER_HAVE_AVX2
/* the same for eight pixels (AVX2): the unpacks and the pack work within
 * each 128-bit half, so every word keeps its place */
static inline __attribute__((always_inline, target("avx2")))
__m256i flipper_tev_mod_words8(uint8_t tex_mod, __m256i tw, __m256i rw)
{
    const __m256i z = _mm256_setzero_si256(), r128 = _mm256_set1_epi16(128);
    __m256i bw = tex_mod == TEV_MOD_TEX_RAS ? tw : rw;
    __m256i cw = tex_mod == TEV_MOD_TEX_RAS ? rw : tw;
    __m256i v[2];
    int h;

    for (h = 0; h < 2; h++) {
        __m256i b = h ? _mm256_unpackhi_epi8(bw, z)
                      : _mm256_unpacklo_epi8(bw, z);
        __m256i c = h ? _mm256_unpackhi_epi8(cw, z)
                      : _mm256_unpacklo_epi8(cw, z);

        c = _mm256_add_epi16(c, _mm256_srli_epi16(c, 7));
        v[h] = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(b, c),
                                                  r128), 8);
    }
    return _mm256_packus_epi16(v[0], v[1]);
}
#endif
/*
 * Debug switch for tests: when set, the per-draw specialisations (TEV
 * stage kinds) are not chosen and every pixel takes the general path, so a
 * test can render the same state both ways and compare the bytes.
 */
extern bool flipper_force_general;
/* returns false if the pixel was discarded (alpha test) */
/* (a Z texture changes p->z) */
bool flipper_tev_shade(FlipperCore *c, const TevProgram *prog, TevPixel *p,
                       uint8_t out[4]);
/*
 * The pixels of a 2x2 quad through the TEV at once (prog->quad): pixel i is
 * (x + (i & 1), y + (i >> 1)); the pixels of `live` are shaded as
 * flipper_tev_shade shades each. Returns the pixels of `live` that pass the
 * alpha test, their colours in out[i] (a Z texture changes z[i]).
 */
typedef struct TevQuad {
    int x, y;
    unsigned live;
    uint32_t z[4];
    uint8_t col[2][4][4];       /* channel, pixel: rasterised RGBA */
    const uint8_t (*tex)[16][4];        /* pixel, stage: the sampled texel */
    const uint8_t (*bump)[16];          /* pixel, stage: the bump alpha */
} TevQuad;
unsigned flipper_tev_shade4(FlipperCore *c, const TevProgram *prog,
                            TevQuad *q, uint8_t out[4][4]);

/* tx.c */
/* false (and m reads 0) if the map cannot be sampled; logs why */
bool flipper_tx_setup(FlipperCore *c, int map, TxMap *m);
/* choose m->level for m->fmt (done by flipper_tx_setup; the general one
 * under flipper_force_general) */
void flipper_tx_choose(TxMap *m);
void flipper_tx_texel(const TxMap *m, const uint8_t *level, int s, int t,
                      int wm1, uint8_t out[4]);
/* s, t: s17.7 texels of level 0; lod: s28.4 */
void flipper_tx_sample(const TxMap *m, int32_t s, int32_t t, int lod,
                       bool linear, uint8_t out[4]);
/* flipper_tx_sample for four pixels of a quad at once (one LOD): the
 * pixels in `mask` (the others may be written too); pixel i's texel to
 * out + i * stride */
void flipper_tx_sample4(const TxMap *m, const int32_t s[4], const int32_t t[4],
                        int lod, bool linear, unsigned mask, uint8_t *out,
                        size_t stride);
/* the LOD of a 2x2 quad from the coordinates of its pixels (0,0), (1,0),
 * (0,1), in texels */
void flipper_tx_lod(const TxMap *m, const float uv00[2], const float uv10[2],
                    const float uv01[2], int *lod, bool *linear);
void flipper_tx_load_tlut(FlipperCore *c);
void flipper_tx_preload(FlipperCore *c);

/* tev.c: indirect texturing (BP 0x06-0x0E matrices, 0x10-0x1F IND_CMD) */
typedef struct TevIndirect {
    int32_t mtx[3][6];          /* MA-MF, signed 11-bit (S0.10) */
    int shift[3];               /* 17 - the 6-bit scale exponent */
} TevIndirect;
void flipper_tev_ind_prepare(FlipperCore *c, TevIndirect *ind);
/*
 * One stage's indirect step: from its coordinate (s, t) (s17.7), the
 * indirect texel `indtex` (RGBA) of stage IND_CMD.BT, update the texture
 * coordinate tc[2] (replaced, or added to with FB) and return the bump
 * alpha.
 */
uint8_t flipper_tev_indirect(const TevIndirect *ind, uint32_t cmd, int32_t s,
                             int32_t t, const uint8_t indtex[4],
                             int32_t tc[2]);
/* the same for the pixels of a quad in `mask` (s[i], t[i], their
 * indirect texels indtex[i][n], tc[.][i]); pixel i's bump alpha to
 * bump[i][stage] */
void flipper_tev_indirect4(const TevIndirect *ind, uint32_t cmd,
                           unsigned mask, const int32_t s[4],
                           const int32_t t[4], const uint8_t indtex[4][4][4],
                           int32_t tc[2][4], uint8_t bump[4][16], int stage);

/* pe.c */
void flipper_pe_reset(FlipperCore *c);
void flipper_pe_draw_done(FlipperCore *c);
void flipper_pe_token(FlipperCore *c, uint16_t token, bool interrupt);
uint32_t flipper_pe_irq(FlipperCore *c);     /* PI cause bits */
bool flipper_pe_zcompare(FlipperCore *c, int x, int y, uint32_t z);
void flipper_pe_blend(FlipperCore *c, int x, int y, const uint8_t rgba[4]);
bool flipper_pe_plain(FlipperCore *c);  /* the store is the RGB8 word alone */
void flipper_pe_set_color(FlipperCore *c, int x, int y, const uint8_t rgba[4]);
void flipper_pe_set_depth(FlipperCore *c, int x, int y, uint32_t z);
/* the depth word a clear to Z stores in the current pixel format */
uint32_t flipper_pe_clear_depth(FlipperCore *c, uint32_t z);
/* 16-bit Z of RGB565_Z16 in Z format f (PE_ZFMT_*), and back (pe.c) */
uint32_t flipper_z16_compress(uint32_t z, unsigned f);
uint32_t flipper_z16_expand(uint32_t code, unsigned f);
uint32_t flipper_pe_get_color(FlipperCore *c, int x, int y);   /* 0xRRGGBBAA */
void flipper_pe_get_row(FlipperCore *c, int x, int y, int n, uint8_t *rgba);
void flipper_pe_store_masks(FlipperCore *c, const uint8_t rgba[4],
                            uint32_t *keep, uint32_t *set);
void flipper_pe_bbox_reset(FlipperCore *c);

/* pe-copy.c */
void flipper_pe_copy(FlipperCore *c, uint32_t trigger);

/* bp.c */
void flipper_bp_write(FlipperCore *c, uint32_t word);

/* tev.c */
void flipper_tev_reg_write(FlipperCore *c, uint8_t reg);

/* vi.c */
void flipper_vi_reset(FlipperCore *c);
void flipper_vi_advance(FlipperCore *c, int64_t now);
uint32_t flipper_vi_irq(FlipperCore *c);
int64_t flipper_vi_next_event(FlipperCore *c);
bool flipper_vi_scanout(FlipperCore *c, G3DScanout *out);

/* pi.c */
void flipper_pi_reset(FlipperCore *c);
void flipper_pi_gather_write(FlipperCore *c, uint64_t val, unsigned size);

/* the other blocks */
void flipper_mi_reset(FlipperCore *c);
uint32_t flipper_mi_irq(FlipperCore *c);
void flipper_dsp_reset(FlipperCore *c);
void flipper_dsp_free(FlipperCore *c);
uint32_t flipper_dsp_irq(FlipperCore *c);
void flipper_di_reset(FlipperCore *c);
uint32_t flipper_di_irq(FlipperCore *c);
void flipper_si_reset(FlipperCore *c);
uint32_t flipper_si_irq(FlipperCore *c);
void flipper_exi_reset(FlipperCore *c);
uint32_t flipper_exi_irq(FlipperCore *c);
void flipper_ai_reset(FlipperCore *c);
void flipper_ai_advance(FlipperCore *c, int64_t now);
uint32_t flipper_ai_irq(FlipperCore *c);
int64_t flipper_ai_next_event(FlipperCore *c);

#endif
