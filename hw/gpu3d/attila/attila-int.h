/*
 * attila-3d engine core: what the ATTILA units share inside the core.
 *
 * The units are named and split as the ATTILA simulator names them
 * (attila-sim GPUEmulator.cpp): command processor, streamer, unified shader,
 * primitive assembly, clipper, triangle setup, rasterizer (triangle
 * traversal and fragment generation), interpolator, texture unit,
 * z/stencil test, color write, pixel mapper, DAC and blitter.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_ATTILA_INTERNAL_H
#define GPU3D_ATTILA_INTERNAL_H

#include <math.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "attila.h"
#include "common/error-latch.h"
#include "common/fragment.h"
#include "common/raster.h"
#include "common/g3d-core.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

/* ---- GPU register file (command-processor.c) ---------------------------- */

typedef union AttilaRegValue {
    uint8_t b[16];
    uint32_t u[4];
    int32_t i[4];
    float f[4];
} AttilaRegValue;

typedef enum AttilaRegType {
    ATTILA_RT_MARKER,       /* an enum marker, not a register */
    ATTILA_RT_RO,           /* read-only (GPU_STATUS, GPU_MEMORY) */
    ATTILA_RT_BOOL,         /* byte 0 */
    ATTILA_RT_U32,
    ATTILA_RT_S32,
    ATTILA_RT_F32,
    ATTILA_RT_QF,           /* 4 floats */
    ATTILA_RT_ENUM,         /* u32 < limit */
} AttilaRegType;

typedef struct AttilaRegInfo {
    const char *name;       /* the simulator's name after "GPU_" */
    uint16_t count;         /* sub-indices accepted */
    uint16_t stored;        /* elements stored (1 where the index is ignored) */
    uint8_t type;           /* AttilaRegType */
    uint16_t limit;         /* ATTILA_RT_ENUM: valid values are < limit */
} AttilaRegInfo;

/*
 * A row of attila_reg_info (gpu-registers.c) names the register's id in
 * attila-regs.h (ATTILA_REG_x), which is also its index, so the table and
 * the header cannot disagree; the name is the symbol's, after the prefix
 * (attila-sim GPU.h calls it GPU_x).
 */
#define ATTILA_REG_ROW(reg, count, stored, type, limit) \
    [reg] = { &#reg[sizeof("ATTILA_REG_") - 1], count, stored, type, limit }

extern const AttilaRegInfo attila_reg_info[ATTILA_REG_LAST_REGISTER];

/* gpu-registers.c */
void attila_regfile_init(AttilaCore *c);
/* the checked AGP_REG_WRITE; false (reported) when refused */
bool attila_register_write(AttilaCore *c, uint32_t id, uint32_t idx,
                           const uint8_t value[16]);
bool attila_register_value_valid(uint32_t id, uint32_t idx,
                                 const AttilaRegValue *v);

/* ---- memory (core-services.c) ------------------------------------------- */

/*
 * A host pointer to ATTILA addresses [addr, addr + len) (attila-sim
 * MemorySpace.h: bit 31 selects system memory), or NULL when the range is not
 * inside one memory.
 */
void *attila_mem_map(AttilaCore *c, uint32_t addr, uint64_t len,
                     bool is_write);
bool attila_mem_read(AttilaCore *c, uint32_t addr, void *buf, uint32_t len);
bool attila_mem_write(AttilaCore *c, uint32_t addr, const void *buf,
                      uint32_t len);

/* ---- pixel mapper (pixel-mapper.c, ATTILA ref. Render Buffer Tiling) ----- */

typedef struct AttilaPixelMapper {
    uint32_t width, height, samples, bytes;
    uint32_t over_row;              /* over-scan tiles per row */
    uint32_t sub_w, sub_h;          /* scan sub-tiles (MSAA / 8-byte pixels) */
    uint32_t gen_w, gen_h;          /* generation tile in stamps, adjusted */
    uint32_t sub_w_l2, sub_h_l2, gen_w_l2, gen_h_l2;    /* their log2 */
    uint64_t surface;               /* bytes of the whole surface */
} AttilaPixelMapper;

/* false when the geometry is unusable (size 0 or > 4096, bad samples) */
bool attila_pixel_mapper_init(AttilaPixelMapper *pm, uint32_t width,
                              uint32_t height, uint32_t samples,
                              uint32_t bytes);
/* byte offset of pixel (x, y) (sample 0) in the surface; inline, as the
 * rasteriser, the DAC and the clears ask per stamp or pixel */
static inline uint32_t attila_pixel_address(const AttilaPixelMapper *pm,
                                            uint32_t x, uint32_t y)
{
    /* every tile dimension is a power of two: shifts and masks */
    uint32_t gw = pm->gen_w_l2, gh = pm->gen_h_l2;
    uint32_t a;

    a = (y >> 6) * pm->over_row + (x >> 6);
    /* scan sub-tile (MSAA): sub-tiles of every scan tile are interleaved */
    a = ((a << pm->sub_h_l2) + ((y >> (gh + 2)) & (pm->sub_h - 1)))
        << pm->sub_w_l2 | ((x >> (gw + 2)) & (pm->sub_w - 1));
    /* scan tile in the over-scan tile: 2-bit Morton of (x/16, y/16) */
    a = a << 4 | ((x >> 4) & 1) | ((y >> 4) & 1) << 1 | ((x >> 5) & 1) << 2 |
        ((y >> 5) & 1) << 3;
    a = a << 2 | ((y >> (gh + 1)) & 1) << 1 | ((x >> (gw + 1)) & 1);
    a = ((a << gh | ((y >> 1) & (pm->gen_h - 1))) << gw) |
        ((x >> 1) & (pm->gen_w - 1));
    a = a << 2 | (y & 1) << 1 | (x & 1);
    return a * pm->samples * pm->bytes;
}
/*
 * How many stamps from the one at column x (even) of a stamp row lie one
 * after another in memory: the rest of its generation tile's row (ATTILA
 * ref. Render Buffer Tiling: stamps in row order inside a generation
 * tile), within the surface. Stamp k of the run is at the first one's
 * address + k * 4 * samples * bytes.
 */
static inline uint32_t attila_stamp_run(const AttilaPixelMapper *pm,
                                        uint32_t x)
{
    uint32_t in_tile = pm->gen_w - ((x >> 1) & (pm->gen_w - 1));
    uint32_t in_row = (pm->width - x + 1) / 2;

    return in_tile < in_row ? in_tile : in_row;
}
/*
 * A clear (color-write.c, zstencil-test.c): fn(p, slots, value) for every
 * run of consecutive slots (a pixel's samples, 4 a stamp) of the surface
 * at base (attila_surface_runs).
 */
typedef struct AttilaClear {
    AttilaPixelMapper pm;
    uint8_t *base;
    void (*fn)(uint8_t *p, uint32_t slots, const void *value);
    uint32_t value[2];
} AttilaClear;

/* the over-scan tiles (64x64 pixels) of a clear's surface, in rows */
static inline uint32_t attila_surface_tiles(const AttilaPixelMapper *pm)
{
    return ((pm->width + 63) / 64) * ((pm->height + 63) / 64);
}

/*
 * The clears' walk over over-scan tile `tile` (attila_surface_tiles'
 * order). An over-scan tile is one block of the surface (ATTILA ref.
 * Render Buffer Tiling, the first level), so one inside the surface's
 * pixels is one run (not under g3d_general_path); the others go by runs
 * of stamps (attila_stamp_run).
 */
static inline __attribute__((always_inline)) void
attila_surface_runs(const AttilaClear *cl, uint32_t tile)
{
    const AttilaPixelMapper *pm = &cl->pm;
    uint32_t ox = tile % ((pm->width + 63) / 64) * 64;
    uint32_t oy = tile / ((pm->width + 63) / 64) * 64;
    uint32_t x1 = ox + 64 < pm->width ? ox + 64 : pm->width;
    uint32_t y1 = oy + 64 < pm->height ? oy + 64 : pm->height;
    uint32_t x, y, n;

    if (!g3d_general_path && x1 == ox + 64 && y1 == oy + 64) {
        cl->fn(cl->base + attila_pixel_address(pm, ox, oy),
               64 * 64 * pm->samples, cl->value);
        return;
    }
    for (y = oy; y < y1; y += 2) {
        for (x = ox; x < x1; x += 2 * n) {
            n = attila_stamp_run(pm, x);
            cl->fn(cl->base + attila_pixel_address(pm, x, y),
                   4 * pm->samples * n, cl->value);
        }
    }
}

/*
 * attila_pixel_address is a sum of shifted bit fields, each of x or of y
 * alone, so the address of (x, y) is that of (x, 0) plus that of (0, y).
 * The table holds both for the even coordinates (stamps): x[] then y[]
 * (width / 2 and height / 2 entries, rounded up) of pm's geometry.
 */
typedef struct AttilaAddressTable {
    uint32_t width, height, samples, bytes;     /* 0: empty */
    uint32_t *x, *y;
} AttilaAddressTable;

void attila_address_table(AttilaAddressTable *tab,
                          const AttilaPixelMapper *pm);

/* the 8 low bits of v spread to the even bit positions (pixel-mapper.c) */
extern const uint16_t attila_spread8[256];
/*
 * Morton order of a 2^k x 2^k matrix: bit t of x -> 2t, of y -> 2t + 1.
 * Inline, by a table of 8-bit spreads: the Texture Unit asks for two of
 * them per texel, with the constant block sizes of ATTILA ref. Texture
 * Tiling, so a call is a few loads.
 */
static inline uint32_t attila_morton(uint32_t x, uint32_t y, unsigned bits)
{
    uint32_t mask = bits >= 16 ? 0xffffu : (1u << bits) - 1;

    x &= mask;
    y &= mask;
    if (bits <= 8) {
        return attila_spread8[x] | (uint32_t)attila_spread8[y] << 1;
    }
    return (attila_spread8[x & 0xff] | (uint32_t)attila_spread8[x >> 8] << 16) |
           (attila_spread8[y & 0xff] | (uint32_t)attila_spread8[y >> 8] << 16)
           << 1;
}
/* texel offset in a TXBLOCK_TEXTURE 2D image (ATTILA ref. Texture Tiling) */
static inline uint32_t attila_texel_offset(uint32_t i, uint32_t j,
                                           uint32_t block, uint32_t sblock,
                                           uint32_t width_log2)
{
    uint32_t texel = attila_morton(i, j, block);
    uint32_t blk = attila_morton(i >> block, j >> block, sblock);
    int32_t row_l2 = (int32_t)width_log2 - (int32_t)(sblock + block);
    uint32_t sb;

    /* superblock rows are padded to a power of two (ATTILA ref. Texture
     * Tiling) */
    if (row_l2 < 0) {
        row_l2 = 0;
    }
    sb = ((j >> (sblock + block)) << row_l2) + (i >> (sblock + block));
    return (((sb << (2 * sblock)) + blk) << (2 * block)) + texel;
}


/* ---- formats ------------------------------------------------------------ */

/* bytes per pixel of a render-target format, 0 if not a colour format */
uint32_t attila_rt_bytes(uint32_t fmt);
/* bytes per texel of a texture format */
uint32_t attila_texture_bytes(uint32_t format);
/*
 * Compressed textures (texture-compression.c, ATTILA ref. Texture Registers,
 * TextureCompression): the bytes of one compressed 4x4 block (8 or 16; 0 for
 * none or an unknown value), the bytes of one decoded texel (RGBA8888 4, LATC1
 * 1, LATC2 2), and the decoding of the block's texels [first, first + count) in
 * Morton order into out (indexed by Morton position, decoded-texel bytes each).
 */
uint32_t attila_tc_block_bytes(uint32_t compression);
uint32_t attila_tc_texel_bytes(uint32_t compression);
void attila_tc_decode(uint32_t compression, const uint8_t *block,
                      uint32_t first, uint32_t count, uint8_t *out);
/* ceil(log2(n)) for n >= 1 */
static inline uint32_t attila_log2_ceil(uint32_t n)
{
    return n <= 1 ? 0 : 32 - (uint32_t)__builtin_clz(n - 1);
}

/* ---- unified shader (shader.c, attila-sim ShaderEmulator.cpp) ------------ */

typedef union AttilaVec4 {
    float f[4];
    int32_t i[4];
    uint32_t u[4];
} AttilaVec4;

typedef struct AttilaShOperand {
    uint8_t bank;           /* ATTILA_BANK_*; PARAM2 folded into PARAM */
    uint16_t reg;
    uint8_t swz;
    bool neg, abs;
    /* decoded once for the interpreter's common operations (shader.c) */
    uint16_t off;           /* byte offset in AttilaShaderThread, or NO_OFF */
    uint8_t sel[4];         /* the swizzle's component per result component */
    bool plain;             /* .xyzw, no negate or absolute value */
    /* the swizzle's shape for run_lanes: 0 .xyzw, 1-4 one component
     * (.xxxx .. .wwww) broadcast, 5 any other */
    uint8_t shape;
    uint32_t and_bits, xor_bits;    /* abs, neg on a component's bits */
} AttilaShOperand;

typedef struct AttilaShInstr {
    uint8_t opcode;
    uint8_t nops;           /* operands read */
    bool valid;             /* decoded without error */
    bool has_result;
    bool end;
    bool predicated, invert_pred;
    uint8_t pred_reg;
    AttilaShOperand op[3];
    uint8_t res_bank;
    uint8_t res_reg;
    bool sat;
    uint8_t mask;           /* x = 8, y = 4, z = 2, w = 1 */
    bool relmode;
    uint8_t rel_reg, rel_comp;
    int16_t rel_off;
    uint32_t imm;           /* op2 immediate, JMP offset */
    uint16_t res_off;       /* result's byte offset in AttilaShaderThread */
    bool fast;              /* the operation runs on all lanes at once */
    bool tex_lanes;         /* TEX with lane-addressed operand and result */
    /* tex_lanes with a thread register read whole and written whole,
     * unpredicated and unsaturated: a quad's read may go by pointers */
    bool tex_quad;
    uint32_t wmask[4];      /* mask per component: all ones if written */
} AttilaShInstr;

/* decode one 16-byte instruction; false (and *in->valid false) if invalid */
bool attila_shader_decode(const uint8_t code[16], AttilaShInstr *in);
/* LIT's (float)pow(y, w) (pow itself under g3d_general_path) */
float attila_shader_lit_power(float y, float w);

/* vertices a batch shades together (streamer.c, shader.c's run_soa) */
#define ATTILA_SH_BATCH 16
#define ATTILA_SH_TEMPS 32
#define ATTILA_SH_PREDS 32
#define ATTILA_SH_IO 16
#define ATTILA_SH_CONSTS 512
/* a program that runs longer than this is stopped (JMP loops) */
#define ATTILA_SH_MAX_STEPS 65536

typedef struct AttilaShaderThread {
    AttilaVec4 in[ATTILA_SH_IO];
    AttilaVec4 out[ATTILA_SH_IO];
    AttilaVec4 temp[ATTILA_SH_TEMPS];
    AttilaVec4 addr[2];
    bool pred[ATTILA_SH_PREDS];
    bool kill;
    uint32_t sample;        /* CHS: current sample */
    float zexport;
} AttilaShaderThread;

typedef enum AttilaTexOp {
    ATTILA_TEXOP_READ,          /* TEX, TXP, TXB (bias in param) */
    ATTILA_TEXOP_READ_LOD,      /* TXL (lod in param) */
    ATTILA_TEXOP_ATTRIBUTE,     /* LDA */
} AttilaTexOp;

/*
 * Texture request of one instruction for all lanes: coord[l] and param[l]
 * per lane; result[l] written for every lane. With fewer than 4 lanes the
 * caller replicates lane 0 (a vertex access, attila-sim GPUEmulator.cpp).
 */
typedef void AttilaTexFn(void *opaque, AttilaTexOp op, uint32_t unit,
                         const AttilaVec4 coord[4], const float param[4],
                         AttilaVec4 result[4]);

/*
 * A quad's TEX read (ATTILA_TEXOP_READ, no bias) from the four lanes'
 * coordinate registers straight into their result registers: false,
 * nothing written, for a texture the unit does not read that way (the
 * caller then takes AttilaTexFn).
 */
typedef bool AttilaTexQuadFn(void *opaque, uint32_t unit,
                             const float *const coord[4],
                             float *const result[4]);

/*
 * A vertex program decoded for the batches (shader.c's by-component run):
 * its straight run of run_lanes' instructions from `pc` as a flat list of
 * operations whose operands are byte offsets (the register's component
 * after the swizzle), its constants broadcast once a draw with their
 * swizzle and modifiers folded in (`kslot`), the registers the run reads
 * before it writes them whole and those it writes. Built by
 * attila_shader_prepare_batches, once a draw (streamer.c); the list is
 * kept while the instructions are the same, the constants are refilled.
 */
#define ATTILA_SOA_OPS 512
#define ATTILA_SOA_KSLOTS 128

typedef struct AttilaSoaSrc {
    /* from the operand's base (the batch's registers, or kslot), bytes;
     * component c of the operand */
    uint16_t off[4];
    bool konst;                 /* base: kslot */
    int32_t andm, xorm;         /* abs, neg on the bits: -1 and 0 if none */
} AttilaSoaSrc;

typedef struct AttilaSoaOp {
    uint8_t opc;
    uint8_t kind;               /* the instance that runs it (shader.c) */
    uint8_t nops, mask;
    bool sat, predicated, invert_pred;
    uint8_t pred_reg;
    uint16_t dst;               /* the result register's offset, bytes */
    AttilaSoaSrc src[3];
} AttilaSoaOp;

typedef struct AttilaSoaKey {
    uint16_t reg;               /* the constant */
    uint8_t swz;
    int32_t andm, xorm;
} AttilaSoaKey;

typedef struct AttilaSoaProg {
    const AttilaShInstr *imem;
    uint32_t pc, n;             /* n instructions from pc; 0: none */
    bool ended;                 /* the last has the end flag */
    uint64_t load[2], store[2]; /* registers (thread offset / 16) */
    AttilaSoaOp op[ATTILA_SOA_OPS];
    AttilaShInstr code[ATTILA_SOA_OPS];     /* what op was decoded from */
    const AttilaVec4 *consts;   /* kslot's constants, as of the fill */
    uint32_t nk;
    AttilaSoaKey key[ATTILA_SOA_KSLOTS];
    /* slot, component, lane: every lane the same bits */
    float kslot[ATTILA_SOA_KSLOTS][4][ATTILA_SH_BATCH];
} AttilaSoaProg;

/*
 * Decode (or keep) the batches' list for the program at pc of imem, its
 * constant slots filled from consts (which must not change until the
 * batches are shaded)
 */
void attila_shader_prepare_batches(AttilaSoaProg *p, const AttilaShInstr *imem,
                                   uint32_t pc, const AttilaVec4 *consts);

typedef struct AttilaShaderEnv {
    const AttilaShInstr *imem;          /* ATTILA_INSTRUCTION_MEMORY */
    const AttilaVec4 *consts;           /* this target's 512 constants */
    AttilaTexFn *tex;
    AttilaTexQuadFn *tex_quad;          /* NULL: every read through tex */
    void *tex_opaque;
    uint64_t *steps;                    /* if set: instructions executed += */
    /* several lanes run run_lanes' operations by component (shader.c):
     * for the long vertex programs; a short program pays more for the
     * registers' transposes than it gains */
    bool by_component;
    /* with by_component: only the outputs are read once the program has
     * ended (the vertex batches), so a block that ends the program moves
     * back only the outputs it wrote, not its temporaries */
    bool outputs_only;
    /* a fragment quad's run_lanes operations by the AVX2 instance
     * (shader.c's quad_block_avx2): g3d_simd_level() is AVX2 or more,
     * asked once a raster batch, not once a quad */
    bool quad_avx2;
    /* with by_component: the program at its pc decoded for the batches
     * (attila_shader_prepare_batches), or NULL */
    const AttilaSoaProg *batches;
} AttilaShaderEnv;

typedef enum AttilaShaderResult {
    ATTILA_SHADER_OK = 0,
    ATTILA_SHADER_BAD_INSTR,    /* invalid encoding executed */
    ATTILA_SHADER_BAD_PC,       /* ran off the instruction memory */
    ATTILA_SHADER_TOO_LONG,     /* ATTILA_SH_MAX_STEPS exceeded */
} AttilaShaderResult;

/*
 * Run the program at `pc` on `lanes` threads (1 for a vertex, 4 for a
 * fragment quad, up to ATTILA_SH_BATCH for a batch of vertices whose
 * program has no texture read, derivative or jump) in lockstep. *bad_pc
 * gets the failing pc on error.
 */
AttilaShaderResult attila_shader_run(const AttilaShaderEnv *env, uint32_t pc,
                                     AttilaShaderThread *t, int lanes,
                                     uint32_t *bad_pc);
void attila_shader_reset_thread(AttilaShaderThread *t);
/*
 * The same for a thread whose inputs are all written next (a fragment's
 * by the Interpolator, a batched vertex's by the streamer's
 * window_inputs), whose program touches temporaries below temps only, and
 * where only outputs below outs are read afterwards. Inline, with loops of
 * whole registers: the rasteriser resets four threads a stamp, mostly a
 * few registers each, where a memset call costs more than the stores.
 */
static inline void attila_shader_reset_bounded(AttilaShaderThread *t,
                                                uint32_t temps, uint32_t outs)
{
    static const AttilaVec4 zero;
    uint32_t k;

    for (k = 0; k < outs && k < ATTILA_SH_IO; k++) {
        t->out[k] = zero;
    }
    for (k = 0; k < temps && k < ATTILA_SH_TEMPS; k++) {
        t->temp[k] = zero;
    }
    memset(t->addr, 0, offsetof(AttilaShaderThread, zexport) + sizeof(float) -
           offsetof(AttilaShaderThread, addr));
}

/*
 * The same for a stamp after the batch's whole reset: only the registers
 * in the masks (bit i: register i, already within the whole reset's
 * bounds) and, with tail, the address to z export state. Registers the
 * program does not write keep the batch's zeros; those it writes whole
 * before anything reads them need none.
 */
static inline void attila_shader_reset_stamp(AttilaShaderThread *t,
                                             uint32_t temps, uint32_t outs,
                                             bool tail)
{
    static const AttilaVec4 zero;

    for (; outs; outs &= outs - 1) {
        t->out[__builtin_ctz(outs) & (ATTILA_SH_IO - 1)] = zero;
    }
    for (; temps; temps &= temps - 1) {
        t->temp[__builtin_ctz(temps) & (ATTILA_SH_TEMPS - 1)] = zero;
    }
    if (tail) {
        memset(t->addr, 0, offsetof(AttilaShaderThread, zexport) +
               sizeof(float) - offsetof(AttilaShaderThread, addr));
    }
}

/* ---- texture unit (texture-unit.c) ------------------------------------- */

typedef struct AttilaTexLevel {
    const uint8_t *ptr;     /* NULL: outside memory, reads black */
    uint32_t width, height, depth;
    /*
     * Compressed levels: ptr is the base address rounded down to a block;
     * skew = (base mod block bytes) << the expansion shift, the decoded
     * space offset of the base from there (TextureEmulator::texel2address).
     */
    uint32_t skew;
    uint64_t bytes;         /* mapped at ptr */
} AttilaTexLevel;

/*
 * How the unit reads a LINEAR quad of its base level (texture-unit.c's
 * quad sampler), decided when the draw's texture state is built
 * (attila_texture_prepare_quad), not once a quad
 */
typedef enum AttilaTexQuadPath {
    ATTILA_TEXQ_NONE,       /* sample_quad's general read */
    ATTILA_TEXQ_SSE2,       /* one SSE2 lane a fragment */
    ATTILA_TEXQ_AVX2,       /* u and v in one AVX2 vector, gathers */
} AttilaTexQuadPath;

typedef struct AttilaTexQuad {
    const AttilaTexLevel *lv;
    const uint8_t *base;                /* lv's texels, or a zero word */
    uint8_t path;                       /* AttilaTexQuadPath */
    bool rep_any, rep_both;             /* an axis / both axes REPEAT */
    /* the AVX2 footprints' constants, u's in lanes 0-3, v's in 4-7 */
    float lo[8], hi[8], scale[8];
    uint32_t rep[8], mask[8], max[8], dim[8], shift[8], rows[8];
    /* the AVX2 filter's byte picks, channels 0-1 and 2-3, the D3D9 swap
     * and the reversed order in them */
    uint8_t pick[2][32];
} AttilaTexQuad;

typedef struct AttilaTexState {
    bool enabled;
    uint32_t mode, format, compression, blocking;
    uint32_t width, height, depth, width2, height2, depth2;
    uint32_t wrap[3], min_filter, mag_filter;
    bool reverse, d3d9_conv, v_invert, non_normalized, srgb;
    bool compare;
    uint32_t compare_func;
    float min_lod, max_lod, lod_bias, unit_lod_bias;
    uint32_t min_level, max_level, max_aniso;
    uint32_t nlevels;                   /* levels described below */
    AttilaTexLevel level[ATTILA_MAX_TEXTURE_SIZE][ATTILA_CUBEMAP_IMAGES];
    uint32_t bytes;                     /* per texel */
    uint32_t tc_block, tc_texel;        /* compressed: block / decoded texel bytes */
    /* uncompressed RGBA8888 2D or cube texels in Morton order, no compare
     * or sRGB: read through the Texture Unit's specialised path */
    bool rgba8_morton;
    /* its LINEAR quads' footprints (levels up to 2^14 a side) and filter
     * in AVX2 (texture-unit.c), by the CPU */
    bool filter_avx2;
    AttilaTexQuad quad;                 /* attila_texture_prepare_quad */
} AttilaTexState;

/* ---- one draw's state (built by the command processor at GPU_DRAW) ------ */

typedef struct AttilaStream {
    uint32_t address, stride, data, elements, frequency;
    bool d3d9_color;
} AttilaStream;

typedef struct AttilaRenderTarget {
    bool enabled;
    uint32_t format, bytes;
    uint8_t *ptr;                       /* the mapped surface */
    AttilaPixelMapper pm;
    bool blend;
    uint32_t equation, src_rgb, dst_rgb, src_a, dst_a;
    float blend_color[4];
    bool mask[4];
    uint8_t path;                       /* ATTILA_CW_*, attila_color_choose */
    uint8_t factor[4];                  /* ATTILA_CW_RGBA8_BLEND: src/dst rgb, a */
    /* attila_color_write4's per-draw constants (attila_color_choose): the
     * source and destination factors per channel as base + slope * As,
     * and the byte mask of the written channels */
    float fbase[2][4], fslope[2][4];
    uint32_t chan;
} AttilaRenderTarget;

/* how attila_color_write writes a render target, chosen per draw */
enum {
    ATTILA_CW_GENERAL,          /* every format and state */
    ATTILA_CW_RGBA8,            /* RGBA8888, no blend, sRGB or logic op */
    ATTILA_CW_RGBA8_BLEND,      /* the same with ADD of 0, 1, As, 1 - As */
};

/* ATTILA_CW_RGBA8_BLEND's factor codes (rt->factor): 0, 1, As, 1 - As,
 * color-write.c's fac[] in that order */
enum {
    ATTILA_FAC_ZERO, ATTILA_FAC_ONE, ATTILA_FAC_SRC_ALPHA,
    ATTILA_FAC_INV_SRC_ALPHA, ATTILA_FAC_OTHER
};

/*
 * A blend whose factors the one-sample copy's colour write knows when it
 * is compiled (attila_color_write_pair_avx's `kind`): the codes of source
 * and destination RGB, source and destination alpha, 2 bits each, and bit
 * 8; kind 0 takes the factors from the render target as it runs. The two
 * kinds the walk has instances for: additive blending by alpha (As, 1),
 * and the "over" blend (As, 1 - As).
 */
#define ATTILA_BLEND_KIND(sr, dr, sa, da) \
    (256u | (sr) | (dr) << 2 | (sa) << 4 | (da) << 6)
#define ATTILA_KIND_ADD_ALPHA \
    ATTILA_BLEND_KIND(ATTILA_FAC_SRC_ALPHA, ATTILA_FAC_ONE, \
                      ATTILA_FAC_SRC_ALPHA, ATTILA_FAC_ONE)
#define ATTILA_KIND_OVER \
    ATTILA_BLEND_KIND(ATTILA_FAC_SRC_ALPHA, ATTILA_FAC_INV_SRC_ALPHA, \
                      ATTILA_FAC_SRC_ALPHA, ATTILA_FAC_INV_SRC_ALPHA)

/* CALL(kind) with the render target's kind a constant: one of the two
 * above, else 0 */
#define ATTILA_BY_BLEND_KIND(rt, CALL)                                  \
    do {                                                                \
        const AttilaRenderTarget *rt_ = (rt);                           \
        unsigned kind_ = rt_->path != ATTILA_CW_RGBA8_BLEND ? 0 :       \
            ATTILA_BLEND_KIND(rt_->factor[0], rt_->factor[1],           \
                              rt_->factor[2], rt_->factor[3]);          \
        if (kind_ == ATTILA_KIND_ADD_ALPHA) {                           \
            CALL(ATTILA_KIND_ADD_ALPHA);                                \
        } else if (kind_ == ATTILA_KIND_OVER) {                         \
            CALL(ATTILA_KIND_OVER);                                     \
        } else {                                                        \
            CALL(0);                                                    \
        }                                                               \
    } while (0)

typedef struct AttilaDrawState {
    /* streamer */
    AttilaStream stream[ATTILA_MAX_STREAM_BUFFERS];
    uint32_t attr_map[ATTILA_MAX_VERTEX_ATTRIBUTES];
    float attr_default[ATTILA_MAX_VERTEX_ATTRIBUTES][4];
    uint32_t start, count, instances, index_stream;
    bool indexed, load_bypass;
    uint32_t primitive;
    /* shaders */
    uint32_t vs_pc, fs_pc;
    uint32_t vs_lanes;                  /* 4: vertices shaded in batches */
    bool fs_kills;                      /* the fragment program may kill */
    bool fs_fetches;                    /* ... may read the streams (LDA) */
    uint32_t fs_temps, fs_outs;         /* temporaries, outputs to reset */
    /*
     * What a stamp's reset zeroes (attila_shader_reset_stamp) when the
     * batch's reset zeroed the four threads whole: the temporaries and
     * outputs below fs_temps, fs_outs (bit i: register i) that the
     * program writes and whose reset value it or the depth and colour
     * writes can see, and with fs_reset_tail the address, predicate,
     * kill, sample and z export state (draw-state.c program_resets).
     * fs_reset_whole (g3d_general_path): each stamp's reset is whole.
     * fs_reset_any: a stamp resets anything (not for the rasteriser's
     * copy, fs_copy; a program that writes nothing it can see does not)
     */
    uint32_t fs_reset_temps, fs_reset_outs;
    bool fs_reset_tail, fs_reset_whole, fs_reset_any;
    uint32_t fs_inputs;                 /* inputs it may read (interpolated) */
    /* the program is one MOV o[fs_copy_out] = i[fs_copy_in] (the shader's
     * run_lanes copies the register): the rasteriser copies it itself */
    bool fs_copy;
    uint8_t fs_copy_in, fs_copy_out;
    /*
     * The vertex outputs the triangle set-up copies to AttilaTriangle.attr
     * (bit a: output a): the inputs the program reads (fs_inputs) that are
     * enabled (fs_input: a disabled one reads 0), input 0 aside (the
     * window position, not a vertex output); every output under
     * g3d_general_path. The interpolator and the rasteriser read only
     * these.
     */
    uint32_t setup_attrs;
    /* the outputs a shaded vertex keeps (streamer.c vertex_store): the
     * position, setup_attrs and, two-sided, the back colours (outputs 3
     * and 4) of the front ones it copies (1 and 2); every output under
     * g3d_general_path */
    uint32_t vertex_outs;
    /* a batched vertex's thread clear (streamer.c window_inputs): the
     * temporaries below vs_temps, the outputs below vs_outs (those the
     * program names and those vertex_store keeps); all under
     * g3d_general_path or when the program jumps (draw-state.c
     * program_ok) */
    uint32_t vs_temps, vs_outs;
    /* the triangle set-up's AVX build (g3d_use_avx(), not under
     * g3d_general_path: triangle-setup.c setup_avx) */
    bool setup_avx;
    /* clipper / setup */
    bool frustum_clip, d3d9_pixel, d3d9_depth, d3d9_rules, two_sided;
    uint32_t face_mode, cull;
    int32_t vp_x, vp_y;
    uint32_t vp_w, vp_h;
    uint32_t disp_w, disp_h;
    bool scissor;
    int32_t sc_x, sc_y;
    uint32_t sc_w, sc_h;
    float near, far;
    double z_scale, z_offset;           /* attila_convert_z's factors */
    /* fragments */
    bool msaa;
    uint32_t samples;
    bool interpolate[ATTILA_MAX_FRAGMENT_ATTRIBUTES];
    bool fs_input[ATTILA_MAX_FRAGMENT_ATTRIBUTES];
    bool early_z, modify_depth;
    /* z / stencil */
    bool depth_test, depth_mask, stencil_test;
    uint32_t depth_func, stencil_func, stencil_fail, depth_fail, depth_pass;
    /* a depth test without stencil, not under g3d_general_path: the
     * rasteriser tests by attila_depth_only_test, its compare function as
     * the bits (less, equal, greater) that pass */
    bool depth_only;
    uint8_t depth_table;
    uint8_t stencil_ref, stencil_mask, stencil_wmask;
    uint8_t *zptr;                      /* NULL: no z/stencil access */
    AttilaPixelMapper zpm;
    /* colour */
    AttilaRenderTarget rt[ATTILA_MAX_RENDER_TARGETS];
    bool srgb_write, logic_op;
    uint32_t logic_func;
    /* textures */
    AttilaTexState tex[ATTILA_MAX_TEXTURES];
    /* its stamps drawn by one thread (draw-state.c tile_order_shows) */
    bool serial_tiles;
} AttilaDrawState;

/* ---- per-thread rendering context --------------------------------------- */

#ifdef __SSE2__
typedef struct AttilaTriangle AttilaTriangle;
/* input a of a stamp's four fragments by component (interpolator.c) */
typedef void (*AttilaInterpolateSoa)(const AttilaTriangle *t,
                                     const double v[4][4], unsigned a,
                                     __m128 ch[4]);
#endif

typedef struct AttilaRenderCtx {
    AttilaCore *core;
    const AttilaDrawState *ds;
    AttilaShaderEnv fs_env;
    AttilaShaderThread lane[4];
    uint32_t shader_error, shader_error_pc;   /* first error met */
    uint64_t quads, fragments;
    uint64_t work;                      /* stamps + shader steps this draw */
    uint8_t rt_list[ATTILA_MAX_RENDER_TARGETS];  /* the mapped targets */
    uint8_t rt_count;
    bool tables;
    /*
     * stamp1 interpolates the one-MOV program's input by channel and
     * writes it to the one mapped target straight (attila_raster_draw:
     * a one-sample draw whose program copies input 1-14 to that target's
     * output and reads no other input)
     */
    bool copy_soa;
#ifdef __SSE2__
    AttilaInterpolateSoa interpolate_soa;      /* where copy_soa */
    /* copy_stamps by the AVX row functions (g3d_use_avx) */
    bool row_avx;
    /* the AVX2 instances (g3d_use_avx2()): copy4_tile_avx's depth test by
     * depth_stamp4_avx2, the one-sample copy by copy_tile_avx2 */
    bool avx2;
    /* copy4_tile_avx's coverage with AVX-512VL's mask registers
     * (g3d_simd_level() AVX-512: rasterizer.c copy4_tile_avx512) */
    bool avx512;
    /* the triangle whose copied input copy_attr holds (rasterizer.c) */
    const void *copy_tri;
    double copy_attr[3][4];
#endif
    /* the draw's z/stencil test reads the buffer; it is early (stamp1) */
    bool ztest, early;
    /*
     * a 4-sample draw's rows of stamps by the copy's AVX walk (rasterizer.c
     * copy4_tile_avx): the copy of copy_soa, the target and z buffer with
     * four samples a pixel, no z/stencil test or an early one
     */
    bool copy4;
    /* copy4 with the depth test alone, LESS (copy4_tile_avx2_less) */
    bool copy4_less;
    /*
     * the rasteriser's addresses where tables is set (not under
     * g3d_general_path): a stamp's byte
     * offset in the z buffer and in target rt_list[n] is
     * x[qx / 2] + y[qy / 2] (attila_address_table)
     */
    const uint32_t *zx, *zy, *rtx[ATTILA_MAX_RENDER_TARGETS],
                   *rty[ATTILA_MAX_RENDER_TARGETS];
} AttilaRenderCtx;

/*
 * Work one draw may do, so that one record cannot stall the device: per
 * render thread, stamps visited plus fragment shader instructions, and for
 * the vertex side, vertex shader instructions. A draw that exceeds it is
 * stopped and reported (ATTILA_ERR_DRAW).
 */
#define ATTILA_DRAW_WORK_LIMIT (1ull << 28)

/* ---- the pipeline units ------------------------------------------------- */

/* shaded vertex: the 16 vertex-shader outputs */
typedef struct AttilaVertex {
    float out[ATTILA_SH_IO][4];
} AttilaVertex;

/* streamer.c */
bool attila_streamer_read_index(AttilaCore *c, const AttilaDrawState *ds,
                                uint32_t v, uint32_t *index);
bool attila_streamer_fetch(AttilaCore *c, const AttilaDrawState *ds,
                           uint32_t index, uint32_t instance,
                           AttilaVec4 in[ATTILA_MAX_VERTEX_ATTRIBUTES]);
bool attila_streamer_fetch_attribute(AttilaCore *c, const AttilaDrawState *ds,
                                     uint32_t attribute, uint32_t index,
                                     AttilaVec4 *out);
/* shade the draw's vertices, assemble, clip, set up and rasterise */
void attila_streamer_draw(AttilaCore *c, const AttilaDrawState *ds);
/* the buffers attila_streamer_draw keeps between draws */
typedef struct AttilaStreamerScratch AttilaStreamerScratch;
void attila_streamer_free(AttilaCore *c);

/* primitive-assembly.c: triangles of a draw as vertex-slot triples */
typedef void AttilaTriangleFn(void *opaque, uint32_t a, uint32_t b,
                              uint32_t c);
void attila_primitive_assembly(uint32_t mode, uint32_t count,
                               AttilaTriangleFn *fn, void *opaque);

/* clipper.c */
bool attila_clipper_trivial_reject(const float *p0, const float *p1,
                                   const float *p2, bool d3d9_depth);

/* triangle-setup.c */
typedef struct AttilaTriangle {
    double e[3][3];         /* edge equations a, b, c, inside >= 0 */
    double zeq[3];          /* z/w equation */
    double area;            /* signed, before the facing inversion */
    int32_t x0, y0, x1, y1; /* pixels to visit, inclusive */
    int32_t start_x, start_y;
    uint32_t level;         /* top tile is 2^level pixels */
    double start[4];        /* e0, e1, e2, z at (start_x, start_y) */
    double inside_lo[3];    /* attila_inside_lo of each edge */
    /* the x and y coefficients of the edges and the z plane, in pairs
     * (e0 e1, e2 z) for two-lane additions */
    double ea[4], eb[4];
    float attr[3][ATTILA_SH_IO][4];
} AttilaTriangle;

/* rasterizer.c: MSAA sample positions (1/128 pixel from the pixel corner,
 * RasterizerEmulator) for 2, 4, 8 samples, else NULL */
const double (*attila_msaa_pattern(uint32_t samples))[2];
/* the centroid of the samples in mask m, from the pixel corner, in pixels */
void attila_centroid_offset(const double (*pat)[2], uint32_t ns, uint32_t m,
                            double *ox, double *oy);
/*
 * A triangle's edge and z plane steps to its MSAA samples and to the
 * centroid of all samples, the products once per triangle (not under
 * g3d_general_path): a sample's value v + a sx + b sy is then the same
 * two additions, in the same order, of the same products. k = 3 is the
 * z plane.
 */
typedef struct AttilaSampleSteps {
    double x[8][4], y[8][4];        /* a sx, b sy of sample s */
    double cx[4], cy[4];            /* of the centroid of all samples */
} AttilaSampleSteps;

void attila_sample_steps(const AttilaTriangle *t, const double (*pat)[2],
                         uint32_t ns, AttilaSampleSteps *st);

/* sample s's z (sv[3]) and, with edges, its three edge values, from the
 * pixel corner's v */
static inline void attila_sample_values(const double v[4],
                                        const AttilaSampleSteps *st, int s,
                                        bool edges, double sv[4])
{
    sv[3] = v[3] + st->x[s][3] + st->y[s][3];
    if (edges) {
        sv[0] = v[0] + st->x[s][0] + st->y[s][0];
        sv[1] = v[1] + st->x[s][1] + st->y[s][1];
        sv[2] = v[2] + st->x[s][2] + st->y[s][2];
    }
}

/* the edge values and z at the centroid of all samples */
static inline void attila_centroid_values(const double v[4],
                                          const AttilaSampleSteps *st,
                                          double cv[4])
{
    cv[0] = v[0] + st->cx[0] + st->cy[0];
    cv[1] = v[1] + st->cx[1] + st->cy[1];
    cv[2] = v[2] + st->cx[2] + st->cy[2];
    cv[3] = v[3] + st->cx[3] + st->cy[3];
}

/* t->ea, t->eb from t->e and t->zeq */
static inline void attila_triangle_pairs(AttilaTriangle *t)
{
    int i;

    for (i = 0; i < 4; i++) {
        t->ea[i] = i < 3 ? t->e[i][0] : t->zeq[0];
        t->eb[i] = i < 3 ? t->e[i][1] : t->zeq[1];
    }
}

/* the top tile's level of a box whose longer side is n pixels (the
 * general path's formula under g3d_general_path) */
uint32_t attila_triangle_top_level(int64_t n);
/* false: culled (facing, zero area, nothing on screen) */
bool attila_triangle_setup(const AttilaDrawState *ds, const AttilaVertex *v0,
                           const AttilaVertex *v1, const AttilaVertex *v2,
                           AttilaTriangle *t);
/*
 * The (possibly MSAA-shifted) edge/z values at pixels, added up in the
 * order of the simulator's tile recursion (attila-sim RasterizerEmulator.cpp),
 * in two steps: once per 16x16 scan tile (x0, y0 multiples of 16), then for the
 * four pixels of each 2x2 stamp (qx, qy even) inside it.
 */
void attila_triangle_eval_tile(const AttilaTriangle *t, int32_t x0,
                               int32_t y0, double v[4]);
/*
 * Stamps of one scan tile that share an 8x8 or 4x4 sub-tile share its
 * levels' additions: a memo of them, emptied (have = 0) when a tile starts;
 * NULL: every stamp adds all its levels.
 */
typedef struct AttilaStampMemo {
    int have;               /* levels held: 0, 1 (8x8), 2 (and 4x4) */
    uint32_t key[2];        /* which sub-tile of each */
    double node[2][4];
} AttilaStampMemo;
void attila_triangle_eval_stamp_add(const AttilaTriangle *t,
                                    const double tile[4], int32_t qx,
                                    int32_t qy, AttilaStampMemo *memo,
                                    double v[4][4]);
/*
 * attila_triangle_eval_stamp_add's values in SSE2 pairs where it can (a
 * memo and a triangle of four levels or more): true if it wrote v. Inline:
 * the rasteriser's loop keeps the values and the memo at hand
 * (rasterizer.c eval_stamp).
 */
static inline bool attila_triangle_eval_stamp_memo(const AttilaTriangle *t,
                                                   const double tile[4],
                                                   int32_t qx, int32_t qy,
                                                   AttilaStampMemo *memo,
                                                   double v[4][4])
{
#ifdef __SSE2__
    uint32_t dx = (uint32_t)(qx - t->start_x), dy = (uint32_t)(qy - t->start_y);

    if (memo && t->level >= 4) {
        /*
         * Not under g3d_general_path (memo set): the same additions of the
         * same products as attila_triangle_eval_stamp_add, two values an
         * operation (e0 e1, e2 z).
         */
        const __m128d a01 = _mm_loadu_pd(t->ea), a2z = _mm_loadu_pd(t->ea + 2);
        const __m128d b01 = _mm_loadu_pd(t->eb), b2z = _mm_loadu_pd(t->eb + 2);
        uint32_t k4 = (dx >> 3 & 1) | (dy >> 3 & 1) << 1;
        uint32_t k3 = (dx >> 2 & 3) | (dy >> 2 & 3) << 2;
        __m128d lo, hi, s;
        int l;

        const double *base;

        /* levels 4 (8x8) and 3 (4x4) from the memo where it holds them */
        if (memo->have < 1 || memo->key[0] != k4) {
            base = tile;
            l = 4;
        } else if (memo->have < 2 || memo->key[1] != k3) {
            base = memo->node[0];
            l = 3;
        } else {
            base = memo->node[1];
            l = 2;
        }
        lo = _mm_loadu_pd(base);
        hi = _mm_loadu_pd(base + 2);
        for (; l >= 2; l--) {
            uint32_t half = 1u << (l - 1);
            s = _mm_set1_pd((double)half);
            if (dx & half) {
                lo = _mm_add_pd(lo, _mm_mul_pd(a01, s));
                hi = _mm_add_pd(hi, _mm_mul_pd(a2z, s));
            }
            if (dy & half) {
                lo = _mm_add_pd(lo, _mm_mul_pd(b01, s));
                hi = _mm_add_pd(hi, _mm_mul_pd(b2z, s));
            }
            if (l > 2) {
                _mm_storeu_pd(memo->node[4 - l], lo);
                _mm_storeu_pd(memo->node[4 - l] + 2, hi);
            }
        }
        memo->key[0] = k4;
        memo->key[1] = k3;
        memo->have = 2;
        /* the stamp's pixels: v1 = v0 + a, v2 = v0 + b, v3 = v1 + b */
        _mm_storeu_pd(v[0], lo);
        _mm_storeu_pd(v[0] + 2, hi);
        _mm_storeu_pd(v[1], _mm_add_pd(lo, a01));
        _mm_storeu_pd(v[1] + 2, _mm_add_pd(hi, a2z));
        _mm_storeu_pd(v[2], _mm_add_pd(lo, b01));
        _mm_storeu_pd(v[2] + 2, _mm_add_pd(hi, b2z));
        _mm_storeu_pd(v[3], _mm_add_pd(_mm_add_pd(lo, a01), b01));
        _mm_storeu_pd(v[3] + 2, _mm_add_pd(_mm_add_pd(hi, a2z), b2z));
        return true;
    }
#endif
    return false;
}

/*
 * The rasteriser's walk of a row of stamps in one-sample draws
 * (rasterizer.c stamp_row_*, not under g3d_general_path): per triangle,
 * the products its stamps' values add (a and b times 8, 4, 2, then 1; e0
 * e1 e2 z each) and the bounds of a covered pixel's values; for the row
 * qy of the scan tile whose value is tv, the stamps qx0..qx1 (even) with
 * a pixel covered (in the triangle's box, and lo < v <= hi for all four
 * values: the edge and near/far tests) into out, in order; their count is
 * returned.
 */
typedef struct AttilaRowSteps {
    double a[4][4], b[4][4];
    double lo[4], hi[4];
} AttilaRowSteps;

typedef struct AttilaRowStamp {
    double v[4][4];         /* the four pixels' e0 e1 e2 z */
    int32_t qx;
    unsigned cov;           /* bit i: pixel i covered */
} AttilaRowStamp;

typedef unsigned AttilaStampRowFn(const AttilaTriangle *t, const double tv[4],
                                  const AttilaRowSteps *rs, int32_t qy,
                                  int32_t qx0, int32_t qx1,
                                  AttilaRowStamp *out);

void attila_row_steps(const AttilaTriangle *t, bool d3d9_depth,
                      AttilaRowSteps *rs);
/* the instance for this CPU: AVX (g3d_use_avx) or SSE2; NULL without SSE2 */
AttilaStampRowFn *attila_stamp_row_fn(void);
/*
 * For tests: a 4-sample pixel's coverage and its samples' window z (zs,
 * 0 where not covered) from its corner values v, by the 4-sample stamp's
 * AVX lanes where lanes is set and the CPU has them (g3d_use_avx), else
 * sample by sample; inside: the edges are not tested.
 */
uint32_t attila_msaa_cover4(const AttilaDrawState *ds,
                            const AttilaTriangle *t, const double v[4],
                            bool inside, bool lanes, uint32_t zs[8]);

/* GPU_IS_ZERO / GPU_IS_POSITIVE use this bias (attila-sim GPUMath.h) */
#define ATTILA_MIN_BIAS 1.0e-12

/* INSIDE_EQUATION: a tie goes to the edge with a > 0, or a == 0 and b >= 0 */
static inline bool attila_inside_edge(double v, double a, double b)
{
    bool zero = fabs(v) < ATTILA_MIN_BIAS;

    return (v > -ATTILA_MIN_BIAS && !zero) ||
           (zero && (a > 0.0 || (a == 0.0 && b >= 0.0)));
}

/* inside the near/far planes: clip-space z in [-1, 1] or [0, 1] */
static inline bool attila_inside_depth(double z, bool d3d9_depth)
{
    return d3d9_depth ? (z > -ATTILA_MIN_BIAS && z <= 1.0 + ATTILA_MIN_BIAS) :
                        fabs(z) <= 1.0 + ATTILA_MIN_BIAS;
}

/* the sample with edge and z values v is covered; inline, as the
 * rasteriser asks per sample */
static inline bool attila_triangle_inside(const AttilaTriangle *t,
                                          const double v[4], bool d3d9_depth)
{
    return attila_inside_edge(v[0], t->e[0][0], t->e[0][1]) &&
           attila_inside_edge(v[1], t->e[1][0], t->e[1][1]) &&
           attila_inside_edge(v[2], t->e[2][0], t->e[2][1]) &&
           attila_inside_depth(v[3], d3d9_depth);
}

/*
 * attila_inside_edge as one comparison, for the rasteriser's chosen path:
 * v > lo, where lo is -ATTILA_MIN_BIAS for an edge that takes ties and the
 * double just below ATTILA_MIN_BIAS for one that does not (v > that is
 * v >= ATTILA_MIN_BIAS). A NaN fails both forms. Per triangle: t->inside_lo.
 */
static inline double attila_inside_lo(double a, double b)
{
    return a > 0.0 || (a == 0.0 && b >= 0.0) ? -ATTILA_MIN_BIAS :
           nextafter(ATTILA_MIN_BIAS, 0.0);
}

static inline bool attila_triangle_inside_lo(const AttilaTriangle *t,
                                             const double v[4],
                                             bool d3d9_depth)
{
    return v[0] > t->inside_lo[0] && v[1] > t->inside_lo[1] &&
           v[2] > t->inside_lo[2] && attila_inside_depth(v[3], d3d9_depth);
}

/* RasterizerEmulator::convertZ: depth range, then 24-bit truncation */
static inline uint32_t attila_convert_z(const AttilaDrawState *ds, double z)
{
    /* zw = z * scale + offset, the factors from the depth range
     * (draw-state.c: (far - near) and near for D3D9, else half the range
     * and its middle, in float, as the simulator) */
    double zw = ds->z_scale * z + ds->z_offset, zc;

    zc = zw * (double)((1 << 24) - 1);
    if (!(zc > 0.0)) {
        return 0;
    }
    return zc >= 16777215.0 ? 0xffffff : (uint32_t)zc;
}

/*
 * attila_convert_z of a stamp's four pixels (z in v[i][3]) into z[i]; in
 * SSE2 two pixels a vector with the same double operations, then
 * !(zc > 0) as 0 and zc >= 2^24 - 1 as 2^24 - 1 by MINPD (zc < m ? zc :
 * m) masked with zc > 0 (NaN fails it), and the truncation, exact for
 * 0 <= zc < 2^24 - 1
 */
static inline void attila_convert_z4(const AttilaDrawState *ds,
                                     const double v[4][4], uint32_t z[4])
{
#ifdef __SSE2__
    const __m128d s = _mm_set1_pd(ds->z_scale), o = _mm_set1_pd(ds->z_offset);
    const __m128d m = _mm_set1_pd(16777215.0);
    __m128i h[2];
    int k;

    for (k = 0; k < 2; k++) {
        __m128d zc = _mm_mul_pd(_mm_add_pd(_mm_mul_pd(
            s, _mm_setr_pd(v[2 * k][3], v[2 * k + 1][3])), o),
            _mm_set1_pd((double)((1 << 24) - 1)));
        zc = _mm_and_pd(_mm_cmpgt_pd(zc, _mm_setzero_pd()),
                        _mm_min_pd(zc, m));
        h[k] = _mm_cvttpd_epi32(zc);
    }
    _mm_storeu_si128((__m128i *)z, _mm_unpacklo_epi64(h[0], h[1]));
#else
    int i;

    for (i = 0; i < 4; i++) {
        z[i] = attila_convert_z(ds, v[i][3]);
    }
#endif
}

/* interpolator.c */
/*
 * attila_interpolate's AVX lanes (x86-64 with AVX, not under
 * g3d_general_path): set by attila_interpolate_init from the CPU; a test
 * may clear it to take the SSE2 lanes.
 */
extern bool attila_interpolate_avx;
void attila_interpolate_init(void);
void attila_interpolate(const AttilaDrawState *ds, const AttilaTriangle *t,
                        const double *const v[4], const uint32_t zint[4],
                        int32_t qx, int32_t qy, AttilaShaderThread lane[4]);
#ifdef __SSE2__
/* input a (1-14) of the four fragments by component: lane l of ch[c] is
 * fragment l's component c, as attila_interpolate writes it (not under
 * g3d_general_path) */
void attila_interpolate_soa(const AttilaDrawState *ds, const AttilaTriangle *t,
                            const double v[4][4], unsigned a, __m128 ch[4]);
/* its lanes for an interpolated, enabled input: AVX or SSE2 by the CPU
 * (attila_interpolate_avx) */
AttilaInterpolateSoa attila_interpolate_soa_lanes(void);
#endif
#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The Interpolator's AVX lanes (interpolator.c, rasterizer.c's copy row
 * walk), lane i fragment i, attila_interpolate's operations in its order:
 * the weights r = 1 / ((e0 + e1) + e2), f_k = r e_k; a component
 * (a0 f0 + a1 f1) + a2 f2 rounded to float by VCVTPD2PS, with ad[l][c]
 * vertex l's component c broadcast. No FMA: the AVX target has none, so
 * GCC cannot contract.
 */
__attribute__((target("avx"), always_inline))
static inline void attila_interp_weights_avx(__m256d e0, __m256d e1,
                                             __m256d e2, __m256d f[3])
{
    __m256d r = _mm256_div_pd(_mm256_set1_pd(1.0),
                              _mm256_add_pd(_mm256_add_pd(e0, e1), e2));

    f[0] = _mm256_mul_pd(r, e0);
    f[1] = _mm256_mul_pd(r, e1);
    f[2] = _mm256_mul_pd(r, e2);
}

__attribute__((target("avx"), always_inline))
static inline void attila_interp_comps_avx(const __m256d ad[3][4],
                                           const __m256d f[3], __m128 ch[4])
{
    int c;

    for (c = 0; c < 4; c++) {
        ch[c] = _mm256_cvtpd_ps(_mm256_add_pd(
            _mm256_add_pd(_mm256_mul_pd(ad[0][c], f[0]),
                          _mm256_mul_pd(ad[1][c], f[1])),
            _mm256_mul_pd(ad[2][c], f[2])));
    }
}
#endif

/* rasterizer.c: fragment generation and the per-quad fragment pipeline */
typedef struct AttilaRaster AttilaRaster;
/*
 * Tests: a scan tile's box-test bounds (rasterizer.c tile_edges: AVX
 * lanes, the scalar code under g3d_general_path) for boxes w wide, the
 * tile wt wide, offsets up to span: edge k's a, b, lim and hi at out[k],
 * out[3 + k], out[6 + k] and out[9 + k]; true when the tile is outside
 * an edge
 */
bool attila_tile_edges(const AttilaTriangle *t, const double tv[4], double w,
                       double wt, double span, double out[12]);
AttilaRaster *attila_raster_new(AttilaCore *c, int threads);
void attila_raster_free(AttilaRaster *r);
/* a new draw: its work counters start from 0 */
void attila_raster_begin(AttilaRaster *r);
/* the render threads, for the streamer's vertex batches: how many, and a
 * job whose units any of them takes (g3d_pool_run_shared) */
int attila_raster_threads(const AttilaRaster *r);
void attila_raster_run_shared(AttilaRaster *r, G3DJobFn *fn, void *arg);
/*
 * Tests: a batch's tile classes (rasterizer.c raster_job) all taken by the
 * calling thread, as when no helper comes in time, the helpers not woken.
 */
extern bool attila_raster_caller_only;
/*
 * Tests: each raster unit a helper takes, and a batch a helper walks
 * alone, begun this late: the command processor's thread then meets
 * batches still in flight (the pipeline's records that must wait).
 */
extern unsigned attila_raster_delay_us;
/*
 * Rasterise and shade a batch of the draw. False once the draw has used up
 * its work (ATTILA_DRAW_WORK_LIMIT per render thread): the rest is skipped.
 */
bool attila_raster_draw(AttilaRaster *r, const AttilaDrawState *ds,
                        const AttilaTriangle *tris, size_t n);
/*
 * attila_raster_draw in three parts, for a batch rasterised inside
 * another shared job (streamer.c: a small draw's shading, set-up and
 * raster as one job). begin: the batch prepared, on one thread; false if
 * there is nothing to draw or the draw is over (nothing begun). job: the
 * begun batch's part of render thread `thread` in a shared job, after
 * begin (`first`: the thread that began it, which walks a batch that is
 * not worth the helpers alone). end: after every thread's job, on the
 * command processor's thread: counts, errors; false if the draw is over.
 */
bool attila_raster_batch_begin(AttilaRaster *r, const AttilaDrawState *ds,
                               const AttilaTriangle *tris, size_t n);
void attila_raster_batch_job(AttilaRaster *r, int thread, bool first);
bool attila_raster_batch_end(AttilaRaster *r);
/*
 * The pipeline: the command processor's thread decodes the next records
 * while the helpers finish a draw's last raster batch (docs/performance.md,
 * branch thr17, gives the ordering argument). post: a shared job whose
 * caller returns once its own part is done (g3d_pool_post_shared), how
 * many helpers joined it. detach, in place of batch_end after a posted
 * job whose batch was begun: its end is taken by the next
 * attila_raster_sync, which waits for the helpers first. Every job, batch
 * and clear syncs first; so must every record that writes what the batch
 * reads (attila_core_settle). busy: the draw state of the batch in
 * flight, or NULL.
 */
int attila_raster_post_shared(AttilaRaster *r, G3DJobFn *fn, void *arg);
void attila_raster_detach(AttilaRaster *r);
void attila_raster_sync(AttilaRaster *r);
/*
 * The chain (branch thr19): the helpers done with a posted job may wait in
 * it for the next one, which post then hands them without a new pool job
 * (its `joined` are those that waited). sync leaves them waiting; idle is
 * sync and the chain closed, every helper back in the pool (reset, save,
 * a work step's end, any other job).
 */
void attila_raster_idle(AttilaRaster *r);
/* tests: no job handed over in the chain; the jobs handed so far */
extern bool attila_raster_chain_off;
extern uint64_t attila_raster_chain_links;
/* tests: a helper still in one of the raster's pool jobs (the chain's
 * waiting included); false once attila_core_idle has returned */
bool attila_raster_helpers_busy(AttilaRaster *r);
const AttilaDrawState *attila_raster_busy(const AttilaRaster *r);
/*
 * A batch slot that visits no tile (a rejected triangle's, left in the
 * batch where the render threads set triangles up straight into their
 * slots, streamer.c): its box is empty, every tile index of it too
 */
static inline void attila_triangle_empty(AttilaTriangle *t)
{
    t->x0 = t->y0 = INT32_MAX;
    t->x1 = t->y1 = 0;
}
/* tests: each vertex batch's shading on the render threads delayed this
 * long (streamer.c), so that the set-up meets batches still being shaded */
extern unsigned attila_vertex_delay_us;
/*
 * The draws' counts since the core was made, after the batch in flight:
 * covered stamps (quads), covered fragments that reach the colour write,
 * work (each stamp position of a triangle's tile rows and each fragment
 * program step, what ATTILA_DRAW_WORK_LIMIT bounds). The fast paths keep
 * them as the general path counts them (/attila/fast: draw_twice).
 */
void attila_raster_stats(AttilaRaster *r, uint64_t *quads,
                         uint64_t *fragments, uint64_t *work);

/* texture-unit.c */
AttilaTexFn attila_texture_sample;
/* attila_texture_sample's quad of one LINEAR RGBA8888 Morton level by
 * pointers (sample_quad's LOD-free path), false for every other texture */
AttilaTexQuadFn attila_texture_sample_quad;
/* ts->quad from the rest of ts (its levels, wraps, filters, the paths it
 * may take): after every change of them, before a read */
void attila_texture_prepare_quad(AttilaTexState *ts);

/*
 * The Z Stencil Test (zstencil-test.c has the clears): one pixel or sample
 * word, true if it passes; inline, as the rasteriser tests every covered
 * sample. ATTILA CompareMode (ALWAYS = 1) to the shared compare functions:
 */
static const G3DCompare attila_cmp_map[8] = {
    G3D_CMP_NEVER, G3D_CMP_ALWAYS, G3D_CMP_LESS, G3D_CMP_LEQUAL,
    G3D_CMP_EQUAL, G3D_CMP_GEQUAL, G3D_CMP_GREATER, G3D_CMP_NOTEQUAL,
};

/* ATTILA StencilUpdateFunction, same order as the shared stencil ops */
static const G3DStencilOp attila_sop_map[8] = {
    G3D_SOP_KEEP, G3D_SOP_ZERO, G3D_SOP_REPLACE, G3D_SOP_INCR_SAT,
    G3D_SOP_DECR_SAT, G3D_SOP_INVERT, G3D_SOP_INCR_WRAP, G3D_SOP_DECR_WRAP,
};

static inline bool attila_zstencil_test(const AttilaDrawState *ds,
                                        uint32_t zin, uint32_t *zbuf)
{
    uint32_t buf = *zbuf, depth = buf & 0x00ffffff;
    uint8_t stencil = buf >> 24;
    bool spass = true, zpass = true;

    if (ds->depth_test) {
        /* fragment FUNC buffer */
        zpass = g3d_compare_u(attila_cmp_map[ds->depth_func], zin, depth);
    }
    if (ds->stencil_test) {
        uint32_t op;
        /* (reference & mask) FUNC (buffer & mask) */
        spass = g3d_compare_u(attila_cmp_map[ds->stencil_func],
                              ds->stencil_ref & ds->stencil_mask,
                              stencil & ds->stencil_mask);
        op = !spass ? ds->stencil_fail : zpass ? ds->depth_pass :
             ds->depth_fail;
        if (ds->stencil_wmask) {
            /* masked-off bits are written as 0 (doc L1849) */
            uint8_t s = g3d_stencil_op(attila_sop_map[op], stencil,
                                       ds->stencil_ref);
            buf = (buf & 0x00ffffff) | (uint32_t)(s & ds->stencil_wmask) << 24;
        }
    }
    if (ds->depth_test && spass && zpass && ds->depth_mask) {
        buf = (buf & 0xff000000) | (zin & 0x00ffffff);
    }
    *zbuf = buf;
    return spass && zpass;
}

/*
 * attila_zstencil_test where ds->depth_only: the same result and word,
 * the compare function as a lookup of whether zin is less than, equal to
 * or greater than the stored depth.
 */
static inline bool attila_depth_only_test(const AttilaDrawState *ds,
                                          uint32_t zin, uint32_t *zbuf)
{
    uint32_t buf = *zbuf, depth = buf & 0x00ffffff;
    unsigned rel = (zin >= depth) + (zin > depth);
    bool pass = (ds->depth_table >> rel) & 1;

    if (pass && ds->depth_mask) {
        *zbuf = (buf & 0xff000000) | (zin & 0x00ffffff);
    }
    return pass;
}

#ifdef __SSE2__
/*
 * attila_depth_only_test of four consecutive z words (an MSAA pixel's
 * samples: ATTILA ref. Render Buffer Tiling keeps them together), word j
 * against lane j of zin where bit j of `cover` is set; the others are
 * neither tested nor changed. Returns the covered words that pass. The
 * 24-bit values compare alike as signed words; the table gives the pass
 * bit of less, equal and greater as before.
 */
static inline unsigned attila_depth_test4_table(uint8_t table, bool write,
                                                __m128i zin, uint8_t *zbuf,
                                                unsigned cover)
{
    const __m128i low = _mm_set1_epi32(0x00ffffff);
    __m128i w = _mm_loadu_si128((const __m128i *)zbuf);
    __m128i depth = _mm_and_si128(w, low);
    __m128i cov = _mm_cmpeq_epi32(
        _mm_and_si128(_mm_set1_epi32((int)cover), _mm_setr_epi32(1, 2, 4, 8)),
        _mm_setr_epi32(1, 2, 4, 8));
    __m128i lt = _mm_cmplt_epi32(zin, depth), gt = _mm_cmpgt_epi32(zin, depth);
    __m128i eq = _mm_cmpeq_epi32(zin, depth);
    __m128i pass = _mm_and_si128(cov, _mm_or_si128(
        _mm_or_si128(_mm_and_si128(lt, _mm_set1_epi32(-(table & 1))),
                     _mm_and_si128(eq, _mm_set1_epi32(-(table >> 1 & 1)))),
        _mm_and_si128(gt, _mm_set1_epi32(-(table >> 2 & 1)))));

    if (write) {
        __m128i neww = _mm_or_si128(_mm_andnot_si128(low, w),
                                    _mm_and_si128(zin, low));
        _mm_storeu_si128((__m128i *)zbuf,
                         _mm_or_si128(_mm_and_si128(pass, neww),
                                      _mm_andnot_si128(pass, w)));
    }
    return (unsigned)_mm_movemask_ps(_mm_castsi128_ps(pass));
}

/* the same with the draw's table and depth mask (a caller that stores
 * to the z buffer between tests may pass them as locals instead: the
 * stores could alias ds, so ds's fields would be loaded again each test) */
static inline unsigned attila_depth_only_test4(const AttilaDrawState *ds,
                                               __m128i zin, uint8_t *zbuf,
                                               unsigned cover)
{
    return attila_depth_test4_table(ds->depth_table, ds->depth_mask, zin,
                                    zbuf, cover);
}
#endif

/* the z/stencil test of the rasteriser's chosen path */
static inline bool attila_zs_test(const AttilaDrawState *ds, uint32_t zin,
                                  uint32_t *zbuf)
{
    return ds->depth_only ? attila_depth_only_test(ds, zin, zbuf) :
           attila_zstencil_test(ds, zin, zbuf);
}

/* color-write.c */
/* the write path of render target rt_index for this draw's state; the
 * general one when g3d_general_path is set */
void attila_color_choose(const AttilaDrawState *ds, AttilaRenderTarget *rt,
                         int rt_index);
void attila_color_write(const AttilaDrawState *ds, const AttilaRenderTarget *rt,
                        uint8_t *px, const float color[4], int rt_index);
/* four consecutive slots (pixels or samples) of a target whose path is not
 * ATTILA_CW_GENERAL: slot j gets color[j] where bit j of mask is set */
#ifdef __SSE2__
/* the same with the four slots' colours by channel: lane j of ch[c] is
 * slot j's channel c */
void attila_color_write4_soa(const AttilaRenderTarget *rt, uint8_t *px,
                             const __m128 ch[4], unsigned mask);

/* four slots' colours by channel: lane j of ch[c] is color[j][c] */
static inline void attila_channels4(const float *const color[4],
                                    __m128 ch[4])
{
    ch[0] = _mm_loadu_ps(color[0]);
    ch[1] = _mm_loadu_ps(color[1]);
    ch[2] = _mm_loadu_ps(color[2]);
    ch[3] = _mm_loadu_ps(color[3]);
    _MM_TRANSPOSE4_PS(ch[0], ch[1], ch[2], ch[3]);
}
#else
/* the colours by slot; with SSE2 attila_channels4 and
 * attila_color_write4_soa, inline in rasterizer.c (color_write4) */
void attila_color_write4(const AttilaRenderTarget *rt, uint8_t *px,
                         const float *const color[4], unsigned mask);
#endif
#ifdef __SSE2__
#if defined(__x86_64__) && defined(__GNUC__)
/*
 * attila_color_write4_soa for the m stamps of a row (AVX, two stamps an
 * operation): stamp k's four slots at line + rtx[row[k].qx / 2], its
 * colours ch[k], its mask row[k].cov.
 */
void attila_color_write_row_avx(const AttilaRenderTarget *rt, uint8_t *line,
                                const uint32_t *rtx, const AttilaRowStamp *row,
                                unsigned m, const __m128 (*ch)[4]);
/*
 * the four pixels of a 4-sample stamp (AVX): pixel i's four samples at
 * px + 16 i get its colour, lane i of ch[c], where bit 4 i + s of cover is
 * set
 */
void attila_color_write_stamp4_avx(const AttilaRenderTarget *rt, uint8_t *px,
                                   const __m128 ch[4], unsigned cover);
/* the same by 256-bit integer operations (AVX2, where g3d_use_avx2) */
void attila_color_write_stamp4_avx2(const AttilaRenderTarget *rt, uint8_t *px,
                                    const __m128 ch[4], unsigned cover);

/*
 * The pieces of those writes that rasterizer.c's one-sample copy walk
 * also calls, so that it writes two stamps as soon as it has their
 * colours (inline: a call a pair costs about as much as the walk saves).
 * attila_slot_masks[m]: slot j's byte mask is bit j of m.
 */
extern const uint32_t attila_slot_masks[16][4];
/* [m]: attila_slot_masks[m & 15] then [m >> 4] */
extern const uint32_t attila_slot_masks2[256][2][4];

/* the packed dwords of one stamp's four slots stored under its masks */
__attribute__((target("avx"), always_inline))
static inline void attila_store_slots_avx(uint8_t *px, __m128i old,
                                          __m128i res, unsigned mask,
                                          __m128i chan)
{
    __m128i wm = _mm_and_si128(_mm_load_si128((const __m128i *)
                                              attila_slot_masks[mask & 15]),
                               chan);

    res = _mm_or_si128(_mm_and_si128(wm, res), _mm_andnot_si128(wm, old));
    _mm_storeu_si128((__m128i *)px, res);
}

/*
 * Eight slots' words as GCC's generic vector: its operators give
 * 256-bit integer instructions in an AVX2 function and need no AVX2
 * intrinsic, so one inline body serves the AVX instance (which takes the
 * 128-bit halves instead, `wide` false) and the AVX2 one (`wide` true)
 */
typedef uint32_t AttilaU32x8 __attribute__((vector_size(32)));

/*
 * two stamps' (or pixels') packed words, lanes 0-3 at p0 and 4-7 at p1,
 * stored under their masks; p1's only when `two`
 */
__attribute__((target("avx"), always_inline))
static inline void attila_store_slots2_avx(uint8_t *p0, uint8_t *p1,
                                           __m256i old, __m256i res,
                                           unsigned mask0, unsigned mask1,
                                           __m128i chan, bool two, bool wide)
{
    if (wide) {
        AttilaU32x8 wm = (AttilaU32x8)_mm256_set_m128i(
            _mm_load_si128((const __m128i *)attila_slot_masks[mask1 & 15]),
            _mm_load_si128((const __m128i *)attila_slot_masks[mask0 & 15]));
        AttilaU32x8 r;

        wm &= (AttilaU32x8)_mm256_set_m128i(chan, chan);
        r = ((AttilaU32x8)res & wm) | ((AttilaU32x8)old & ~wm);
        _mm_storeu_si128((__m128i *)p0, _mm256_castsi256_si128((__m256i)r));
        if (two) {
            _mm_storeu_si128((__m128i *)p1,
                             _mm256_extractf128_si256((__m256i)r, 1));
        }
        return;
    }
    attila_store_slots_avx(p0, _mm256_castsi256_si128(old),
                           _mm256_castsi256_si128(res), mask0, chan);
    if (two) {
        attila_store_slots_avx(p1, _mm256_extractf128_si256(old, 1),
                               _mm256_extractf128_si256(res, 1), mask1, chan);
    }
}

/* the four slots' channel bits: bytes c, c + 4, c + 8, c + 12 to the low
 * bytes of the dwords (PSHUFB; 0x80 clears a byte) */
#define ATTILA_PICK_CHANNEL(c) \
    _mm_setr_epi8(c, -128, -128, -128, c + 4, -128, -128, -128, \
                  c + 8, -128, -128, -128, c + 12, -128, -128, -128)

/*
 * Eight slots (their words in old: lanes 0-3 one stamp's, 4-7 the
 * other's) from their clamped colours by channel s: where sf is given,
 * the blend s * sf + (d * (1/255)) * df with d the slots' destination
 * bytes (red, green and blue take sf[0], df[0], alpha sf[1], df[1]) and
 * the clamp; then the product by 255 truncated and the bytes packed: the
 * slots' words. The integer work (the destination's bytes, the packing)
 * is by 128-bit halves unless `wide` (an AVX2 caller: 256-bit shifts,
 * ANDs and ORs); the float operations are the same either way.
 */
/*
 * x times factor `code` of a blend kind (ATTILA_FAC_*; sa the clamped
 * source alpha, ia 1 - sa): the general path's x * (base + slope * sa)
 * with the same result, as base + slope * sa is 0, 1, sa or 1 - sa
 * exactly (sa in [0, 1], so 0 * sa + 0 and 1 * sa + 0 add no rounding,
 * 1 + -1 * sa is 1 - sa) and x * 1 is x
 */
__attribute__((target("avx"), always_inline))
static inline __m256 attila_blend_term_avx(__m256 x, unsigned code,
                                           __m256 sa, __m256 ia)
{
    switch (code) {
    case ATTILA_FAC_ZERO:
        return _mm256_mul_ps(x, _mm256_setzero_ps());
    case ATTILA_FAC_ONE:
        return x;
    case ATTILA_FAC_SRC_ALPHA:
        return _mm256_mul_ps(x, sa);
    default:
        return _mm256_mul_ps(x, ia);
    }
}

/* `kind` (ATTILA_BLEND_KIND, a constant): the blend's factors by
 * attila_blend_term_avx, sf and df not read */
__attribute__((target("avx"), always_inline))
static inline __m256i attila_pack_slots8_avx(__m256 s[4], const __m256 *sf,
                                             const __m256 *df, __m256i old,
                                             bool wide, unsigned kind)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    const __m256 k255 = _mm256_set1_ps(255.0f);
    const __m256 inv = _mm256_set1_ps(1.0f / 255.0f);
    const __m256 sa = s[3], ia = _mm256_sub_ps(one, s[3]);
    const __m128i old0 = _mm256_castsi256_si128(old);
    const __m128i old1 = _mm256_extractf128_si256(old, 1);
    __m128i lo[4], hi[4], res[2];
    __m256i u[4];
    int c;

    for (c = 0; c < 4 && (sf || kind); c++) {
        __m256 d = _mm256_cvtepi32_ps(
            wide ? (__m256i)((AttilaU32x8)old >> (8 * c) & 0xff) :
            _mm256_set_m128i(_mm_shuffle_epi8(old1, ATTILA_PICK_CHANNEL(c)),
                             _mm_shuffle_epi8(old0, ATTILA_PICK_CHANNEL(c))));

        d = _mm256_mul_ps(d, inv);
        if (kind) {
            s[c] = _mm256_add_ps(
                attila_blend_term_avx(s[c], kind >> (c == 3 ? 4 : 0) & 3,
                                      sa, ia),
                attila_blend_term_avx(d, kind >> (c == 3 ? 6 : 2) & 3,
                                      sa, ia));
        } else {
            s[c] = _mm256_add_ps(_mm256_mul_ps(s[c], sf[c == 3]),
                                 _mm256_mul_ps(d, df[c == 3]));
        }
        s[c] = _mm256_max_ps(_mm256_min_ps(s[c], one), zero);
    }
    for (c = 0; c < 4; c++) {
        u[c] = _mm256_cvttps_epi32(_mm256_mul_ps(s[c], k255));
        lo[c] = _mm256_castsi256_si128(u[c]);
        hi[c] = _mm256_extractf128_si256(u[c], 1);
    }
    if (wide) {
        return (__m256i)(((AttilaU32x8)u[0] | (AttilaU32x8)u[1] << 8) |
                         ((AttilaU32x8)u[2] << 16 | (AttilaU32x8)u[3] << 24));
    }
    res[0] = _mm_or_si128(_mm_or_si128(lo[0], _mm_slli_epi32(lo[1], 8)),
                          _mm_or_si128(_mm_slli_epi32(lo[2], 16),
                                       _mm_slli_epi32(lo[3], 24)));
    res[1] = _mm_or_si128(_mm_or_si128(hi[0], _mm_slli_epi32(hi[1], 8)),
                          _mm_or_si128(_mm_slli_epi32(hi[2], 16),
                                       _mm_slli_epi32(hi[3], 24)));
    return _mm256_set_m128i(res[1], res[0]);
}

/* a row's write state (attila_row_write_init_avx): the factors' constants,
 * the channels written and whether the target blends */
typedef struct AttilaRowWrite {
    __m256 sb[2], ss[2], db[2], ds[2];
    __m128i chan;
    bool blend;
} AttilaRowWrite;

__attribute__((target("avx"), always_inline))
static inline void attila_row_write_init_avx(const AttilaRenderTarget *rt,
                                             AttilaRowWrite *w)
{
    int c;

    /* red, green and blue share their factors (attila_color_choose) */
    for (c = 0; c < 2; c++) {
        w->sb[c] = _mm256_set1_ps(rt->fbase[0][3 * c]);
        w->ss[c] = _mm256_set1_ps(rt->fslope[0][3 * c]);
        w->db[c] = _mm256_set1_ps(rt->fbase[1][3 * c]);
        w->ds[c] = _mm256_set1_ps(rt->fslope[1][3 * c]);
    }
    w->chan = _mm_set1_epi32((int)rt->chan);
    w->blend = rt->path == ATTILA_CW_RGBA8_BLEND;
}

/*
 * attila_color_write4_soa's operations for two stamps at once: the stamp
 * at p0 (colours ch0, mask cov0) in lanes 0-3 and the one at p1 (ch1,
 * cov1) in 4-7 of eight-float vectors, each lane the same float
 * operations in the same order (clamp as MIN then MAX, the destination as
 * x * (1/255), s * sf + (d * (1/255)) * df, the clamp, the product by 255
 * truncated). Integer work (the destination's bytes, the packing, the
 * masked store) is by 128-bit halves, or with `wide` (an AVX2 caller) by
 * 256-bit operations. With `two` false only the first is stored (an odd
 * last stamp, given twice). `kind`: the blend's factors known (a constant
 * ATTILA_BLEND_KIND), or 0. Two stamps of a row never share a slot, so
 * both are read before either is written.
 */
__attribute__((target("avx"), always_inline))
static inline void attila_color_write_pair_avx(const AttilaRowWrite *w,
                                               uint8_t *p0, uint8_t *p1,
                                               const __m128 ch0[4],
                                               const __m128 ch1[4],
                                               unsigned cov0, unsigned cov1,
                                               bool two, bool wide,
                                               unsigned kind)
{
    const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
    __m256i old = _mm256_set_m128i(_mm_loadu_si128((const __m128i *)p1),
                                   _mm_loadu_si128((const __m128i *)p0));
    __m256 s[4], sf[2], df[2];
    int c;

    for (c = 0; c < 4; c++) {
        s[c] = _mm256_set_m128(ch1[c], ch0[c]);
        s[c] = _mm256_max_ps(_mm256_min_ps(s[c], one), zero);
    }
    if (w->blend && !kind) {
        const __m256 sa = s[3];

        for (c = 0; c < 2; c++) {
            sf[c] = _mm256_add_ps(w->sb[c], _mm256_mul_ps(w->ss[c], sa));
            df[c] = _mm256_add_ps(w->db[c], _mm256_mul_ps(w->ds[c], sa));
        }
    }
    attila_store_slots2_avx(p0, p1, old,
                            attila_pack_slots8_avx(s, w->blend ? sf : NULL,
                                                   df, old, wide, kind),
                            cov0, cov1, w->chan, two, wide);
}

/*
 * The four pixels of a 4-sample stamp, each pixel's colour on its four
 * samples (rasterizer.c copy4_tile, inlined there; color-write.c's
 * attila_color_write_stamp4_avx and _avx2 call it): pixel i's slots at px +
 * 16 i, its colour lane i of ch[c], sample s written where bit 4 i + s of
 * `cover` is set. attila_color_write4_soa would be called a pixel with the
 * colour in all four lanes; here what depends on the colour alone is done
 * once for the four pixels, lane i pixel i: the clamp and the blend factors
 * (the same operations on the same values in every lane of the per-pixel
 * call), and without blending the product by 255, truncation and packing (a
 * pixel's samples then get the same word). With blending the samples'
 * destinations differ, so two pixels' eight samples take
 * attila_color_write_row_avx's operations in one eight-lane vector, the
 * source and its factors spread from the pixel's lane to its samples'.
 * `wide` (attila_color_write_stamp4_avx2): the integer work by 256-bit
 * operations, two pixels' slots (32 bytes) an operation; without blending a
 * pair of pixels is stored whole when either has a covered sample, the
 * other's words as they were read (the stamp lies in this render thread's
 * tile).
 */
__attribute__((target("avx"), always_inline))
static inline void attila_color_write_stamp4_lanes(const AttilaRenderTarget *rt,
                                                   uint8_t *px,
                                                   const __m128 ch[4],
                                                   unsigned cover, bool wide)
{
    const __m128 one = _mm_set1_ps(1.0f), zero = _mm_setzero_ps();
    const __m128i chan = _mm_set1_epi32((int)rt->chan);
    __m128 s[4];
    unsigned i;
    int c;

    for (c = 0; c < 4; c++) {
        s[c] = _mm_max_ps(_mm_min_ps(ch[c], one), zero);
    }
    if (rt->path == ATTILA_CW_RGBA8_BLEND) {
        const __m128 sa = s[3];
        __m128 sf[2], df[2];

        /* red, green and blue share their factors (attila_color_choose) */
        for (c = 0; c < 2; c++) {
            sf[c] = _mm_add_ps(_mm_set1_ps(rt->fbase[0][3 * c]),
                               _mm_mul_ps(_mm_set1_ps(rt->fslope[0][3 * c]), sa));
            df[c] = _mm_add_ps(_mm_set1_ps(rt->fbase[1][3 * c]),
                               _mm_mul_ps(_mm_set1_ps(rt->fslope[1][3 * c]), sa));
        }
        for (i = 0; i < 4; i += 2) {
            /* lanes 0-3 pixel i's samples, 4-7 pixel i + 1's */
            const __m256i sel = _mm256_setr_epi32(i, i, i, i, i + 1, i + 1,
                                                  i + 1, i + 1);
            uint8_t *p0 = px + 16 * i, *p1 = p0 + 16;
            __m256i old;
            __m256 v[4], sf8[2], df8[2];

            if (!(cover >> 4 * i & 0xff)) {
                continue;
            }
            old = _mm256_loadu_si256((const __m256i *)p0);
            for (c = 0; c < 2; c++) {
                sf8[c] = _mm256_permutevar_ps(
                    _mm256_set_m128(sf[c], sf[c]), sel);
                df8[c] = _mm256_permutevar_ps(
                    _mm256_set_m128(df[c], df[c]), sel);
            }
            for (c = 0; c < 4; c++) {
                v[c] = _mm256_permutevar_ps(_mm256_set_m128(s[c], s[c]), sel);
            }
            attila_store_slots2_avx(p0, p1, old,
                                    attila_pack_slots8_avx(v, sf8, df8, old,
                                                           wide, 0),
                                    cover >> 4 * i, cover >> 4 * (i + 1),
                                    chan, true, wide);
        }
    } else {
        const __m128 k255 = _mm_set1_ps(255.0f);
        __m128i u[4], res;

        for (c = 0; c < 4; c++) {
            u[c] = _mm_cvttps_epi32(_mm_mul_ps(s[c], k255));
        }
        res = _mm_or_si128(_mm_or_si128(u[0], _mm_slli_epi32(u[1], 8)),
                           _mm_or_si128(_mm_slli_epi32(u[2], 16),
                                        _mm_slli_epi32(u[3], 24)));
        for (i = 0; i < 4 && wide; i += 2) {
            /* pixel i's word in lanes 0-3, pixel i + 1's in 4-7 */
            const __m256i sel = _mm256_setr_epi32(i, i, i, i, i + 1, i + 1,
                                                  i + 1, i + 1);
            uint8_t *p0 = px + 16 * i;

            if (cover >> 4 * i & 0xff) {
                /* the pair's slots are 32 consecutive bytes: their masks
                 * in one look-up, the words in one store */
                AttilaU32x8 w = (AttilaU32x8)_mm256_castps_si256(
                    _mm256_permutevar_ps(_mm256_castsi256_ps(
                        _mm256_set_m128i(res, res)), sel));
                AttilaU32x8 old =
                    (AttilaU32x8)_mm256_loadu_si256((const __m256i *)p0);
                AttilaU32x8 wm = (AttilaU32x8)_mm256_load_si256(
                    (const __m256i *)attila_slot_masks2[cover >> 4 * i &
                                                        0xff]);

                wm &= (AttilaU32x8)_mm256_set_m128i(chan, chan);
                _mm256_storeu_si256((__m256i *)p0,
                                    (__m256i)((w & wm) | (old & ~wm)));
            }
        }
        for (i = 0; i < 4 && !wide; i++) {
            uint8_t *p = px + 16 * i;

            if (cover >> 4 * i & 15) {
                /* pixel i's word on its four samples */
                __m128i w = _mm_castps_si128(_mm_permutevar_ps(
                    _mm_castsi128_ps(res), _mm_set1_epi32((int)i)));
                attila_store_slots_avx(p, _mm_loadu_si128((const __m128i *)p),
                                       w, cover >> 4 * i, chan);
            }
        }
    }
}
#endif
#endif
void attila_color_read(uint32_t format, const uint8_t *px, float out[4]);
void attila_color_pack(uint32_t format, const float in[4], uint8_t *px);

/* dac.c */
typedef struct AttilaDisplay {
    bool valid;
    uint32_t address;       /* ATTILA address of the front buffer */
    uint32_t width, height, format, samples;
    bool d3d9_pixel;
    bool shown;             /* the DAC holds a picture of it */
} AttilaDisplay;

/* at GPU_SWAPBUFFERS: take the picture of c->display into c->screen */
void attila_dac_latch(AttilaCore *c);
bool attila_dac_scanout(AttilaCore *c, G3DScanout *out);
/* the DAC's picture memory for a w x h picture (its contents undefined) */
void attila_dac_screen_alloc(AttilaCore *c, uint32_t w, uint32_t h);
/*
 * de-tile (and resolve) one displayed row into 0xAARRGGBB words; tab, if
 * not NULL and of the display's geometry, gives each run's x part of the
 * address (attila_address_table, made once a latch)
 */
void attila_dac_row(const AttilaDisplay *d, const uint8_t *surface,
                    uint32_t *dst, uint32_t row,
                    const AttilaAddressTable *tab);
/* the resolve's byte of a channel from its gamma-space average (the
 * formula under g3d_general_path) */
uint8_t attila_dac_gamma_byte(float q);

/* blitter.c */
void attila_blit(AttilaCore *c);

/* clears (color-write.c, zstencil-test.c) */
/* the clear of render target 0, of the z/stencil buffer: false (reported
 * where the buffer is not mapped) if there is nothing to clear */
bool attila_clear_color_target(AttilaCore *c, AttilaClear *cl);
bool attila_clear_zstencil_target(AttilaCore *c, bool clear_z,
                                  bool clear_stencil, AttilaClear *cl);
/* rasterizer.c: the clears, on the render threads */
void attila_clear_color(AttilaCore *c);
void attila_clear_zstencil(AttilaCore *c, bool clear_z, bool clear_stencil);

/* ---- the core ----------------------------------------------------------- */

struct AttilaCore {
    AttilaCoreConfig cfg;

    /* BAR0 */
    G3DErrorLatch errors;   /* BAR0 STATUS.ERROR, ERROR_COUNT/CODE/INFO */
    uint32_t frame, records;
    uint32_t ring_base, ring_size, ring_read, ring_write;
    bool ring_enable;
    /*
     * A record is executing: the read pointer is already past it, and an
     * MMIO access the worker gave way to at a g3d_yield() inside it (a
     * draw, or a swap drawing the queued batches) must not see the core
     * idle. Not state: a save ends the step between records.
     */
    bool in_record;
    uint64_t sysmem_base;
    uint32_t sysmem_size;
    uint32_t event_count, last_event, fence;
    uint32_t int_status, int_mask;
    uint32_t regfile_select;
    uint8_t *stage;                     /* a ring record, contiguous */
    size_t stage_cap;

    /* GPU */
    uint32_t gpu_status;                /* ATTILA_ST_* */
    AttilaRegValue *rf[ATTILA_REG_LAST_REGISTER];
    AttilaRegValue *rf_store;
    uint8_t imem_raw[ATTILA_INSTRUCTION_MEMORY][ATTILA_SH_INSTR_SIZE];
    AttilaShInstr imem[ATTILA_INSTRUCTION_MEMORY];
    AttilaVec4 vconst[ATTILA_SH_CONSTS], fconst[ATTILA_SH_CONSTS];
    AttilaDisplay display;
    uint32_t *screen;                   /* the DAC's picture, 0xXXRRGGBB */
    size_t screen_words;
    AttilaAddressTable dac_tab;         /* the front buffer's addresses */
    G3DFlatMem screen_flat;
    G3DMem screen_mem;

    /* rendering */
    AttilaRaster *raster;
    /* scratch for the current draw, kept twice: the next draw's is built
     * while the helpers may still draw a batch of the last one's */
    AttilaDrawState *ds[2];
    AttilaStreamerScratch *streamer;    /* a draw's buffers (streamer.c) */
    AttilaTriangle *tris;
    size_t tris_cap;
    uint64_t triangles, vertices;       /* statistics */
};

/* typed register reads */
static inline uint32_t attila_rf_u32(const AttilaCore *c, int id, int idx)
{
    return c->rf[id][idx].u[0];
}

static inline int32_t attila_rf_s32(const AttilaCore *c, int id, int idx)
{
    return c->rf[id][idx].i[0];
}

static inline bool attila_rf_bool(const AttilaCore *c, int id, int idx)
{
    return c->rf[id][idx].b[0] != 0;
}

static inline float attila_rf_f32(const AttilaCore *c, int id, int idx)
{
    return c->rf[id][idx].f[0];
}

static inline const float *attila_rf_qf(const AttilaCore *c, int id, int idx)
{
    return c->rf[id][idx].f;
}

/* gpu-registers.c */
void attila_gpu_reset_state(AttilaCore *c);

/* core-services.c: the memories (above), render buffers and interrupts */
/* samples per pixel of the render buffers (GPU_MULTISAMPLING, MSAA_SAMPLES) */
uint32_t attila_samples(const AttilaCore *c);
/*
 * The display-sized render buffer at `addr` (pixels of `bytes`, the
 * current sample count): its mapper and host pointer, or NULL after
 * reporting why (`what` names it in the log).
 */
uint8_t *attila_map_render_buffer(AttilaCore *c, AttilaPixelMapper *pm,
                                  uint32_t addr, uint32_t bytes, bool write,
                                  const char *what);
void attila_irq_raise(AttilaCore *c, uint32_t bits);

/* draw-state.c: snapshot the registers of a draw; false (reported): refused */
bool attila_draw_state_build(AttilaCore *c, AttilaDrawState *ds);
/*
 * Does host memory [p, p + len) meet what a draw of ds reads or writes
 * on the render threads: its targets, z/stencil buffer, textures (any
 * memory if its fragment program may read the streams)?
 */
bool attila_draw_state_reaches(const AttilaDrawState *ds, const uint8_t *p,
                               uint64_t len);

/* command-processor.c */
#define ATTILA_RING_MIN_SIZE 64u        /* RING_SIZE limits, in bytes */
#define ATTILA_RING_MAX_SIZE (1u << 30)
void attila_draw(AttilaCore *c);

#endif
