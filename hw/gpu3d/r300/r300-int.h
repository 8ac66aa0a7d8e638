/*
 * R300 engine core internals, shared by the block files:
 *   regs.c  register file: table, reset values, access rules, side effects
 *   mc.c    memory controller: GPU address space (MC_FB_LOCATION, PCI GART)
 *   cp.c    command processor: ring, indirect buffers, PM4 packets
 *   vap.c   vertex fetch, stream decode, PVS dispatch, primitive assembly
 *   pvs.c   the vertex shader                      (pvs.h)
 *   ga.c    geometry assembly: clip, VTE, points/lines, shading, setup (SU, SC)
 *   quad.c  the fragment path of a 2x2 quad: RS -> US -> FG -> ZB -> RB3D
 *   us.c    the fragment shader                    (us.h)
 *   tx.c    the texture units                      (tx.h)
 *   crtc.c  the CRTC scanout
 *   ddc.c   the monitor's EDID on the VGA DDC pins (I2C)
 *   2d.c    the 2D engine (blits, fills, ROP3) and the GUI DMA
 *   pll.c   the PLL register file (CLOCK_CNTL_INDEX/DATA), the pixel clock
 *   r300-core.c  core life cycle, the interrupt line
 *   core-services.c  interrupt update, render flush: below every block
 *   draw-state.c     the per-draw register snapshot
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_INT_H
#define GPU3D_R300_INT_H

#include <glib.h>

#include "common/error-latch.h"
#include "common/fpformat.h"
#include "common/fragment.h"
#include "common/raster.h"
#include "gpu3d/r300-regs.h"
#include "r300.h"
#include "pvs.h"
#include "tile.h"
#include "tx.h"
#include "us.h"

#define R300_NUM_REGS   (R300_MMIO_SIZE / 4)
#define R300_REG(c, a)  ((c)->regs[(a) >> 2])

/* ---- regs.c ---- */

enum {
    R300_REG_WO      = 1 << 0,  /* write-only: reads return 0 */
    R300_REG_DWORD   = 1 << 1,  /* 32-bit access only (all of VAP) */
    /* coverage, for docs/r300-3d.md (default: modelled) */
    R300_REG_STORED  = 1 << 2,  /* stored and read back; no effect yet */
    R300_REG_PARTIAL = 1 << 3,  /* some fields modelled: see `note` */
};

typedef struct R300RegInfo {
    const char *name;
    uint32_t offset;            /* of element 0 */
    uint16_t count;             /* array elements (1: plain register) */
    uint16_t stride;            /* bytes between elements */
    uint32_t reset;
    uint32_t wmask;             /* bits that store; the rest read as 0 */
    uint32_t flags;
    const char *note;           /* for R300_REG_PARTIAL */
} R300RegInfo;

/*
 * A row of r300_reg_info names the register of r300-regs.h, so its offset
 * is the header's: a plain register (A_name), an array (R300_name(i), row
 * at element 0), or a register the header reaches by an expression.
 */
#define R300_REG_ROW(name, ...) { #name, A_ ## name, __VA_ARGS__ }
#define R300_REG_ARRAY(name, ...) { #name, R300_ ## name(0), __VA_ARGS__ }
#define R300_REG_AT(name, offset, ...) { #name, offset, __VA_ARGS__ }

extern const R300RegInfo r300_reg_info[];
extern const unsigned r300_reg_info_count;

/* the table entry for a dword offset, or NULL for an undocumented one */
const R300RegInfo *r300_reg_lookup(uint32_t offset);

/* A full-dword register write from the CP or from MMIO, with side effects. */
void r300_write_reg(R300Core *c, uint32_t offset, uint32_t val);
void r300_regs_reset(R300Core *c);

/* ---- mc.c ---- */

void r300_mc_init(R300Core *c);

/* ---- cp.c ---- */

typedef struct R300CP {
    uint32_t rptr;              /* ring read pointer, dwords */
    bool ib_active;             /* executing an indirect buffer */
    uint32_t ib_base;           /* GPU address */
    uint32_t ib_size, ib_pos;   /* dwords */
} R300CP;

bool r300_cp_work(R300Core *c, unsigned budget);

/* ---- cp-control.c ---- */

bool r300_cp_busy(R300Core *c);
/* the ring's size in dwords; 0 when CP_RB_CNTL's is out of range */
uint32_t r300_cp_ring_dwords(R300Core *c);
bool r300_cp_ring_enabled(R300Core *c);
/* dwords between the read pointer and CP_RB_WPTR in a ring of `size` */
uint32_t r300_cp_ring_avail(R300Core *c, uint32_t size);
void r300_cp_reset(R300Core *c);
void r300_cp_start_ib(R300Core *c);

/* ---- vap.c ---- */

/* Where a draw's vertices and indices come from. */
typedef enum R300VtxSource {
    R300_SRC_IMMD,              /* vertex dwords in `data` (PRIM_WALK 3) */
    R300_SRC_INDX_INLINE,       /* indices in `data` (PRIM_WALK 1) */
    R300_SRC_INDX_BUFFER,       /* indices at GPU address `addr` */
    R300_SRC_VBUF,              /* auto-incremented indices (PRIM_WALK 2) */
} R300VtxSource;

typedef struct R300DrawSrc {
    R300VtxSource kind;
    const uint32_t *data;       /* IMMD, INDX_INLINE */
    uint32_t ndwords;
    uint32_t addr;              /* INDX_BUFFER */
} R300DrawSrc;

/* the largest port draw: NUM_VERTICES x DWORDS_PER_VTX */
#define R300_PORT_MAX_DWORDS (65535u * 127u)

void r300_vap_draw(R300Core *c, uint32_t vf_cntl, const R300DrawSrc *src);
void r300_vap_port_write(R300Core *c, uint32_t offset, uint32_t val);
void r300_vap_free(R300Core *c);
void r300_vap_pvs_upload(R300Core *c, uint32_t val);

/* A vertex as the VAP hands it to GA: the PVS outputs in VAP_OUT_VTX_FMT
 * order, decoded [R3xx 3D ref. §1.10 VAP_OUT_VTX_FMT]. */
typedef struct R300Vertex {
    float pos[4];               /* clip space (or window, per VTE_CNTL) */
    float psize;
    float col[4][4];
    float tex[8][4];
    uint8_t stuffed[8];         /* GA-stuffed texcoord n: its RS components */
} R300Vertex;

/* ---- ga.c ---- */

void r300_ga_triangle(R300Core *c, const R300Vertex *v0, const R300Vertex *v1,
                      const R300Vertex *v2, const R300Vertex *provoking);
void r300_ga_line(R300Core *c, const R300Vertex *v0, const R300Vertex *v1,
                  const R300Vertex *provoking);
void r300_ga_point(R300Core *c, const R300Vertex *v);

/* ---- quad.c: the per-draw state the render threads read ---- */

#define R300_RS_MAX_VECS 32     /* 16 RS instructions: a tex and a colour each */

struct R300DrawState;
struct R300Target;

/*
 * The colour write and the depth/stencil step of one pixel, chosen per draw
 * by r300_draw_specialise (quad.c): the general functions decode every
 * field, the fast ones cover the common states and give the same bytes.
 */
typedef void R300ColourFn(const struct R300DrawState *ds,
                          const struct R300Target *tg, int x, int y,
                          const float *rgba);
typedef bool R300DepthFn(const struct R300DrawState *ds, int x, int y,
                         uint32_t z24, bool back);

/*
 * HyperZ of one draw (zb.c): the ZMASK and HiZ RAMs as ZB_BW_CNTL,
 * SC_HYPERZ_EN and the ZB_ZMASK_* / ZB_HIZ_* registers set them up
 */
#define R300_ZB_PIPES           2
#define R300_HIZ_PIPE_DWORDS    16384   /* a 14-bit HIZ_DWORD_ADDRESS */
#define R300_ZMASK_PIPE_DWORDS  4096    /* Mesa r300_chipset.h, R300; the
                                         * CMASK's too (r300_texture_desc.c) */
#define R300_ZB_RAM_INDEX_MASK  0x1FFFC /* *_WRINDEX / *_RDINDEX 16:2 */

/* a ZMASK or CMASK over its surface: 2 bits per 4x4 block (zb.c) */
typedef struct R300BlockMask {
    uint32_t *ram;              /* NULL: not in use */
    uint32_t base, pitch;       /* pipe address, dwords per 16 rows */
    uint32_t clear;             /* a cleared block's pixel */
    uint8_t *surf;
    const R300Tiling *tiling;
    unsigned bpp;
    unsigned samples;           /* columns per pixel (multisampling) */
    uint32_t cols, rows;        /* the mapped surface, pixels */
} R300BlockMask;

typedef struct R300HyperZ {
    bool on;                    /* any of the below */
    bool zmask_rd;              /* FAST_FILL + RD_COMP: cleared blocks */
    bool zmask_wr;              /* WR_COMP: written blocks marked */
    bool hiz_update;            /* ZB_BW_CNTL.HIZ_ENABLE */
    bool hiz_reject;            /* ... and SC_HYPERZ_EN.HZ_EN */
    bool hiz_min;               /* ZB_BW_CNTL.HIZ_MIN */
    bool sc_max;                /* SC_HYPERZ_EN.HZ_MAX */
    R300BlockMask zmask;
    uint32_t hiz_base, hiz_pitch;
    uint32_t *hiz_ram;
} R300HyperZ;

typedef enum { R300_RAM_HIZ, R300_RAM_ZMASK, R300_RAM_CMASK } R300RamId;

typedef struct R300Target {
    uint8_t *base;              /* host pointer to the mapped surface */
    uint32_t pitch;             /* pixels */
    R300Tiling tiling;          /* COLORTILE / COLORMICROTILE (tile.h) */
    uint32_t rows;              /* rows mapped */
    uint32_t format;            /* COLORFORMAT */
    uint32_t bpp;               /* bytes per pixel */
    uint32_t endian;
    uint32_t out_fmt;           /* US_OUT_FMT of the target */
    /* decoded once per draw by r300_target_prepare */
    bool packable;              /* a COLORFORMAT the RB3D writes */
    uint8_t wide;               /* whole components: R300_WIDE_* (quad.c) */
    uint8_t wide_mask;          /* its components RB3D_COLOR_CHANNEL_MASK
                                 * lets through */
    uint8_t bits[4], shift[4];  /* component k's field; 0 bits: absent */
    uint32_t write_mask;        /* the bits RB3D_COLOR_CHANNEL_MASK lets through */
    bool round;                 /* round, not truncate, to the field */
    bool round_alpha;           /* the same for C3 (ALPHA_DITHER_MODE) */
    uint8_t out_sel[4];         /* C0..C3 from shader R, G, B or A */
    uint8_t out_sign;           /* US_OUT_FMT.OUT_SIGN: signed C0..C3 */
    bool prequantise;           /* C4_8 rounding to 8 bits changes the bits */
    R300ColourFn *write;        /* chosen per draw (quad.c) */
} R300Target;

#define R300_MAX_SAMPLES 6

/*
 * A draw whose program is a move into one ARGB8888 target, written with or
 * without blending, Z24 tested or not, and nothing else per fragment: the
 * four pixels of a quad in SSE2 lanes (quad-lanes.c). Decoded per draw by
 * r300_quad_lanes_choose.
 */
typedef struct R300QuadLanes {
    bool colour;                /* the move's target has a surface */
    bool same_layout;           /* colour and depth share pixel offsets */
    bool blend, prequantise;
    bool tex_lanes;             /* the move's fetch by r300_tx_lanes_sample */
    uint8_t tex_sel[4];         /* C0..C3 from its sums (its `sel`) */
    bool flat;                  /* triangles of one colour may be fills */
    bool span;                  /* span_lanes may draw the triangles */
    bool read;                  /* the colour is read: blend or channel mask */
    bool clamp[4];              /* the move clamps C0..C3 */
    bool src_shader_order;      /* the fetch's result or coordinate moved */
    uint8_t sel[4];             /* C0..C3 from shader R, G, B or A */
    uint8_t src_factor[4], dst_factor[4], comb[4];  /* per component */
    uint8_t discard;            /* RB3D_BLENDCNTL.DISCARD_SRC_PIXELS */
    uint32_t write_mask;
    float const_color[4];       /* RB3D_CONSTANT_COLOR, C0..C3 */
    G3DCompare zfunc;           /* the draw state's, for a span's copy */
    bool zwrite;
} R300QuadLanes;

typedef struct R300DrawState {
    /* surfaces */
    R300Target cb[4];
    unsigned ncb;               /* targets with a surface */
    unsigned multiwrite;        /* RB3D_CCTL.NUM_MULTIWRITES: output 0 also
                                   goes to targets 1..multiwrite */
    /*
     * Multisampling (GB_AA_CONFIG): `samples` per pixel, sample k of pixel
     * (x, y) stored as pixel (x * samples + k, y) of a linear surface.
     * Resolve mode (RB3D_AARESOLVE_CTL): fragments average target 0's
     * samples into `resolve` instead of being written.
     */
    unsigned samples;           /* 1: no multisampling */
    G3DRasterRules ms_rules[3][R300_MAX_SAMPLES]; /* tri, point, line */
    bool resolving;
    /*
     * A texture shares bytes with a target or the depth buffer (a texel may
     * be a pixel the draw writes), or two of those buffers share bytes other
     * than each pixel's own: a pixel's value depends on the order of the
     * tiles, and the draw's batches run on one thread (g3d_raster_serial;
     * draw-state.c tile_order_shows)
     */
    bool serial_tiles;
    /*
     * Two of the colour targets and the depth buffer share bytes other than
     * each pixel's own: the general path's order of reads and writes is the
     * draw's (draw-state.c buffers_overlap; quad.c r300_draw_specialise)
     */
    bool buffers_overlap;
    bool resolve_gamma, resolve_alpha_avg;
    R300Target resolve;
    uint8_t *zbase;
    uint32_t zpitch, zrows, zformat, zbpp;
    bool zinvert;               /* ZB_FORMAT.INVERT: 13E3 counts leading 1s */
    /*
     * ZB_BW_CNTL.ZB_CB_CLEAR: the ZB helps the CB clear, writing
     * ZB_DEPTHCLEARVALUE at every pixel that reaches it, whatever ZB_CNTL
     * says (Mesa's CBZB clear, r300_blit.c)
     */
    bool zb_cb_clear;
    uint32_t zclear;
    R300Tiling ztiling;         /* DEPTHMACROTILE / DEPTHMICROTILE */
    R300HyperZ hz;              /* ZMASK and HiZ (zb.c) */
    R300BlockMask cmask;        /* target 0's CMASK (zb.c); ram NULL: off */
    /*
     * Surfaces that are not one host block (system memory through the PCI
     * GART): drawn in a copy, written back when the draw ends.
     */
    struct {
        uint64_t addr, len;
        uint8_t *buf;
    } shadow[5];
    unsigned nshadow;
    /* per-fragment state decoded from registers */
    uint32_t zb_cntl, zstencil, stencil_refmask;
    uint32_t blend, ablend, chan_mask, rop, const_color, dither;
    uint32_t alpha_func, fog_blend, fog_factor, fog_color[3];
    uint32_t clip_rule;
    G3DRect clip[4];            /* SC_CLIP_n, half-open pixels */
    uint32_t screendoor;
    bool depth_from_shader;
    /*
     * RS routing: vec k of a triangle's attributes comes from RS
     * instruction vec_src[k] / 2 (even: its texture address, odd: its
     * colour) and goes to temporary vec_dest[k].
     */
    unsigned nvec;
    uint8_t vec_src[R300_RS_MAX_VECS];
    uint8_t vec_dest[R300_RS_MAX_VECS];
    unsigned quad_temps;        /* temporaries RS or the US touch */
    bool perspective;           /* !GB_SELECT.W_SELECT */
    /* programs */
    R300USProgram us;
    R300TexUnit tx[R300_TX_UNITS];
    G3DRasterRules rules_tri, rules_point, rules_line;
    G3DRect scissor;
    uint64_t *zpass_thread;     /* the core's: add with r300_zpass_add */
    /* chosen per draw by r300_draw_specialise from the fields above */
    G3DQuadFn *shade;           /* the quad function triangles are queued with */
    uint32_t cb_mapped;         /* bit t: target t (< ncb) has a surface */
    R300DepthFn *depth;         /* depth/stencil of one pixel; NULL: none */
    G3DCompare zfunc;           /* the fast depth functions' test and write */
    bool zwrite;
    R300USMove move;            /* the program, when it is a move */
    int move_src_vec;           /* RS vector of the moved temporary, -1: none */
    int move_coord_vec;         /* RS vector of the fetch's coordinate */
    R300QuadLanes lanes;        /* quad-lanes.c: the move in SSE2 lanes */
} R300DrawState;

/*
 * Per render thread Z-pass samples, thread t's at [t * R300_COUNTER_STRIDE]
 * (uint64_t, 128 bytes apart): the threads add to theirs per quad, and two
 * threads' counters in one cache line would pass it back and forth.
 */
#define R300_COUNTER_STRIDE 16

static inline void r300_zpass_add(const R300DrawState *ds, int thread,
                                  uint64_t n)
{
    ds->zpass_thread[thread * R300_COUNTER_STRIDE] += n;
}

/* quad-lanes.c span_lanes: a triangle's exact edge values */
typedef struct R300Span {
    G3DEdges g;
    int64_t e0[3], ex[3], ey[3];   /* edge k at pixel (0, 0), a pixel's step */
    /* j * ex[k] as doubles (exact), the offsets of a group's samples */
    double jx[3][8];
} R300Span;

/*
 * quad-lanes.c: a triangle's values at its three vertices, each in four
 * lanes (the same in all): the moved RS vector's components C0..C3
 * (US_OUT_FMT's order), or the fetch coordinate's in the program's order
 * when the fetch's result or coordinate is moved; z0, z1 - z0, z2 - z0
 */
typedef struct R300Lanes {
    float src[4][3][4] __attribute__((aligned(16)));
    float coord[4][3][4] __attribute__((aligned(16)));
    float z[3][4] __attribute__((aligned(16)));
} R300Lanes;

/* One rasterised triangle's data for the quad path. */
typedef struct R300Tri {
    const R300DrawState *ds;
    float vec[3][R300_RS_MAX_VECS][4];   /* per vertex, RS inputs */
    float z[3];                 /* 0 .. 2^24-1 domain, offset applied */
    float fog[3];               /* GB_SELECT.FOG_SELECT, scaled by GA_FOG_* */
    bool back;                  /* back-facing */
    uint8_t sample;             /* the multisample this pass writes */
    uint32_t flat_colour, flat_z24;     /* fill.c: the words a fill writes */
    R300Span span;
    R300Lanes lanes;
} R300Tri;

/* draw-state.c: make the draw state from the registers; false: skip the draw */
bool r300_draw_begin(R300Core *c);
void r300_draw_end(R300Core *c);
G3DQuadFn r300_quad;
/* whether texture unit u's texels share bytes with a target in `targets`
 * (bit t: ds->cb[t]) or, where the draw tests depth, the depth buffer */
static inline bool r300_tex_overlaps(const R300DrawState *ds,
                                     const R300TexUnit *u, uint32_t targets)
{
    uintptr_t t0 = (uintptr_t)u->texels, t1 = t0 + u->bytes;

    for (targets &= ds->cb_mapped; targets; targets &= targets - 1) {
        const R300Target *tg = &ds->cb[__builtin_ctz(targets)];
        uintptr_t c0 = (uintptr_t)tg->base;

        if (t0 < c0 + r300_tile_bytes(&tg->tiling, tg->rows) && c0 < t1) {
            return true;
        }
    }
    if (ds->depth) {
        uintptr_t z0 = (uintptr_t)ds->zbase;

        if (t0 < z0 + r300_tile_bytes(&ds->ztiling, ds->zrows) && z0 < t1) {
            return true;
        }
    }
    return false;
}

/* A target's packing, write mask and rounding for this draw's state. */
void r300_target_prepare(R300Target *tg, const struct R300DrawState *ds);

/* ---- zb.c: HyperZ ---- */
/* ds->hz from the registers, once the depth buffer is mapped */
void r300_zb_draw_setup(R300Core *c, R300DrawState *ds);
/* SC: true if HiZ rejects a fragment of stored-format depth zin at (x, y) */
bool r300_zb_hiz_reject(const R300DrawState *ds, int x, int y, uint32_t zin);
/* before the ZB reads (x, y): a cleared block gets its clear value */
void r300_zb_fetch(const R300DrawState *ds, int x, int y);
/* after the ZB wrote Z at (x, y): ZMASK and HiZ updated */
void r300_zb_written(const R300DrawState *ds, int x, int y);
/* a cleared block of a ZMASK / CMASK gets its clear value */
void r300_mask_fetch(const R300BlockMask *m, int x, int y);
/* 3D_CLEAR_HIZ / _ZMASK / _CMASK with a 3-dword body */
void r300_zb_clear_ram(R300Core *c, R300RamId id, const uint32_t *b);
/* ZB_HIZ_DWORD / ZB_ZMASK_DWORD / RB3D_CMASK_DWORD */
void r300_zb_port_write(R300Core *c, R300RamId id, uint32_t val);
uint32_t r300_zb_port_read(R300Core *c, R300RamId id);
/* Choose the draw's quad, depth and colour functions (after all the above). */
void r300_draw_specialise(R300DrawState *ds);
/*
 * quad-lanes.c: the lanes quad function for this draw, or NULL; called once
 * the move and the depth function are chosen (z24: depth is depth_z24)
 */
G3DQuadFn *r300_quad_lanes_choose(R300DrawState *ds, bool z24);

/*
 * fill.c: true if every pixel of triangle t (its vertices v) gets the same
 * colour and depth words, then set in t, so that r300_flat_fill may draw it
 */
bool r300_flat_fill_ok(R300Tri *t, const G3DRasterVertex v[3]);
G3DBlockFn r300_flat_fill;
/*
 * quad-lanes.c: the fill function that may draw triangle t (r300_flat_fill
 * or a span function; set up in t), or NULL: its quads
 */
G3DBlockFn *r300_lanes_fill_choose(R300Tri *t, const G3DTriangle *tri);
/*
 * quad-lanes.c: true if the draw's spans may take sixteen pixels a group
 * where the CPU has AVX-512 (span16): an untextured-order move into a
 * linear colour target written without channel mask, blend or
 * pre-quantise, no depth test or a linear one
 */
bool r300_lanes_span16(const R300DrawState *ds);
/*
 * quad-lanes.c: true if the draw's textured spans may take the instances
 * of the common unit (tx-lanes8.h r300_tx_lanes8_common: bilinear,
 * unprojected, identity swizzle, REPEAT of powers of two)
 */
bool r300_lanes_tex_common(const R300DrawState *ds);
#ifdef __SSE2__
#include <emmintrin.h>
G3DQuadFn r300_quad_lanes;
/* tx-lanes.c: true if the unit's sampling fits r300_tx_lanes_sample */
bool r300_tx_lanes_ok(const R300TexUnit *u);
/*
 * r300_tx_sample_quad with coordinate component k in vector k; out[k] is
 * the sampled colour's channel that sel[k] names in r300_tx_lanes_sel's
 * terms (the unit's swizzle applied: the texels' component 0-3, 4 the
 * weights' sum (ONE), 5 zero)
 */
void r300_tx_lanes_sample(const R300TexUnit *u, int inst, const uint8_t sel[4],
                          const __m128 coord[4], __m128 out[4]);
#endif

/* ---- crtc.c ---- */

typedef struct R300Crtc {
    uint32_t offset;            /* the CRTC_OFFSET being scanned out */
    uint32_t offset_next;       /* the last one written */
    bool flip_locked;           /* OFFSET_LOCK written */
    bool flip_pending;          /* GUI_TRIG_OFFSET: taken at the next vblank */
    uint32_t frame;             /* CRTC_CRNT_FRAME */
    int64_t vblank_ns;          /* when the last vblank began */
    uint32_t palette[256];      /* 10:10:10 */
    /* the cursor as the last scanout saw it (r300_crtc_scanout) */
    uint32_t cursor[R300_CURSOR_SIZE * R300_CURSOR_SIZE];
    int32_t cursor_x, cursor_y; /* screen position of image pixel (0, 0) */
    uint32_t cursor_x0, cursor_rows; /* first column and rows shown */
    /* a tiled picture as the last scanout saw it (its fetch function) */
    R300Tiling tiling;
    uint32_t tile_x0, tile_y0;  /* CRTC_TILE_X0_Y0 */
} R300Crtc;

bool r300_crtc_scanout(R300Core *c, G3DScanout *out);
void r300_crtc_reset(R300Core *c);
/* display registers: true if handled (the value read in *val) */
bool r300_crtc_write(R300Core *c, uint32_t offset, uint32_t val);
bool r300_crtc_read(R300Core *c, uint32_t offset, uint32_t *val);

/* ---- 2d.c ---- */

typedef struct R300Blit {
    uint32_t gmc;               /* DP_GUI_MASTER_CNTL */
    uint32_t src_po, dst_po;    /* SRC/DST_PITCH_OFFSET */
    uint32_t sx, sy, dx, dy, w, h;
    uint32_t fg;                /* solid brush colour */
} R300Blit;

void r300_2d_run(R300Core *c, const R300Blit *b);
void r300_2d_packet(R300Core *c, uint32_t op, const uint32_t *d, uint32_t n);
bool r300_2d_write(R300Core *c, uint32_t offset, uint32_t val);

/* ---- ddc.c ---- */

typedef struct R300Ddc {
    int state;
    bool scl, sda;              /* the levels the chip drove last */
    bool out;                   /* the monitor's SDA: false pulls low */
    bool first;                 /* next byte received is the address */
    bool reading, master_ack;
    uint8_t shift, ptr;
    unsigned bits;
} R300Ddc;

void r300_ddc_reset(R300Ddc *d);
/* the chip drives (scl, sda); returns SDA on the bus */
bool r300_ddc_step(R300Core *c, bool scl, bool sda);

/* ---- pll.c ---- */

void r300_pll_reset(R300Core *c);
uint32_t r300_pll_read(R300Core *c);
void r300_pll_write(R300Core *c, uint32_t val);
uint32_t r300_pll_pixel_khz(R300Core *c);

/* ---- core-services.c ---- */

void r300_update_irq(R300Core *c);
/*
 * Finish the queued triangles and retire the draws they belong to: copies
 * written back, texture copies freed, Z-pass samples counted. Anything that
 * reads or writes what a queued draw may write, or shows that the work is
 * done (a fence, WAIT_UNTIL, the CP going idle), calls it first.
 */
void r300_flush_render(R300Core *c);
/* A queued draw's resources given back: copies written back or dropped. */
void r300_draw_release(R300Core *c, struct R300DrawState *ds, bool write_back);

/*
 * Draws queued in the rasteriser at once: their triangles are binned and
 * finished together, so that a draw of few small triangles does not cost a
 * hand-over to the render threads of its own.
 */
#define R300_DRAW_QUEUE 8

struct R300Core {
    R300CoreConfig cfg;
    G3DMem gpu;                 /* the GPU address space (mc.c) */
    G3DErrorLatch errors;       /* bad guest input (no status bit of its own) */
    uint32_t regs[R300_NUM_REGS];
    uint32_t pll[R300_PLL_COUNT];   /* pll.c */
    R300Crtc crtc;
    R300Ddc ddc;

    /* VAP: PVS vector memory and its upload pointer */
    uint32_t pvs_vmem[R300_PVS_VECTOR_OCTWORDS][4];
    /* vap.c's processed-vertex caches, one per render thread */
    void **vtx_caches;
    uint32_t vtx_stamp;         /* the caches' current draw or chunk */
    uint64_t vap_parallel_draws;    /* draws set up on the render threads */
    uint8_t pvs_loaded[R300_PVS_VECTOR_OCTWORDS / 8]; /* octwords written */
    uint32_t pvs_upload;        /* dword index into pvs_vmem */
    R300PVSProgram pvs;

    /* VAP ports: a draw armed by a direct VAP_VF_CNTL write */
    uint32_t port_vf_cntl;
    uint32_t *port_data;
    uint32_t port_count, port_need, port_cap;

    R300CP cp;
    uint32_t *cp_buf;           /* one packet body: at most 2^14 dwords */
    G3DRaster *raster;
    /*
     * drawq[(draw_head + i) % R300_DRAW_QUEUE], i < ndraws, are queued in
     * the rasteriser (the last may still be taking triangles: draw_open);
     * `draw` is the one being set up or fed.
     */
    R300DrawState drawq[R300_DRAW_QUEUE];
    unsigned draw_head, ndraws;
    bool draw_open;
    R300DrawState *draw;
    bool draw_pending;          /* triangles queued in the rasteriser */
    uint64_t *zpass_thread;     /* see r300_zpass_add */
    uint32_t zpass[2];          /* ZB_ZPASS_DATA per pipe */
    /* HyperZ RAMs, both pipes' dwords interleaved (zb.c) */
    uint32_t hiz_ram[R300_ZB_PIPES * R300_HIZ_PIPE_DWORDS];
    uint32_t zmask_ram[R300_ZB_PIPES * R300_ZMASK_PIPE_DWORDS];
    uint32_t cmask_ram[R300_ZB_PIPES * R300_ZMASK_PIPE_DWORDS];
    bool irq;
};

#endif
