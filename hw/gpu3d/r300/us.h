/*
 * R300 US: the fragment shader ("unified shader" on R3xx) [R3xx 3D ref. §1.9
 * US].
 *
 * Up to four indirection levels (nodes), each a TEX segment then an ALU
 * segment; ALU instructions are co-issued RGB + alpha pairs with pre-subtract,
 * output modifiers and clamp; TEX instructions fetch through a sampler
 * callback. Programs run on 2x2 quads so that texture LOD can use
 * derivatives; helper pixels (not covered) run too but never write outputs.
 * Arithmetic: fp32 with the fp24 constants of US_ALU_CONST (the hardware's
 * ALU is fp24; results differ in the last bits, see docs/r300-3d.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_US_H
#define GPU3D_R300_US_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu3d/r300-regs.h"

typedef struct R300USNode {
    unsigned alu_start, alu_count;  /* absolute ALU addresses */
    unsigned tex_start, tex_count;  /* absolute TEX addresses (0 count: none) */
} R300USNode;

/* One co-issued RGB + alpha ALU instruction, decoded by r300_us_load. */
typedef struct R300USAluOp {
    uint8_t rgb_addr[3], alpha_addr[3];     /* 0-31 temp, 32-63 constant */
    uint8_t rgb_sel[3][3];          /* operand A/B/C: operand-pool indices */
    uint8_t alpha_sel[3];
    uint8_t rgb_mod[3], alpha_mod[3];       /* R300_US_MOD_* */
    uint32_t rgb_and[3], rgb_xor[3];        /* the modifiers as bit masks */
    uint32_t alpha_and[3], alpha_xor[3];    /* on the IEEE sign bit */
    uint8_t uses_srcp;              /* bit 0: RGB srcp read, bit 1: alpha */
    uint8_t loads;                  /* bit j: RGB source j read, 3+j: alpha */
    uint8_t rgb_srcp, alpha_srcp;   /* SRCP_OP */
    uint8_t rgb_op, alpha_op;       /* OP; 0xff: undefined, result 0 */
    uint8_t rgb_clamp, alpha_clamp;
    uint8_t rgb_dst, rgb_wmask, rgb_omask, rgb_target;
    uint8_t alpha_dst, alpha_wmask, alpha_omask, alpha_target, alpha_omask_w;
    float rgb_scale, alpha_scale;   /* OMOD as a factor */
} R300USAluOp;

typedef struct R300USTexOp {
    uint8_t src, dst, unit, inst;   /* inst: R300_US_TEX_*, bad ones NOP */
} R300USTexOp;

typedef struct R300USProgram {
    unsigned nodes;                 /* 1..4, in execution order */
    R300USNode node[4];
    uint32_t tex[R300_US_MAX_TEX];
    uint32_t rgb_addr[R300_US_MAX_ALU], alpha_addr[R300_US_MAX_ALU];
    uint32_t rgb_inst[R300_US_MAX_ALU], alpha_inst[R300_US_MAX_ALU];
    float consts[R300_US_NUM_CONSTS][4];
    unsigned pix_size;              /* temporaries per pixel */
    uint32_t out_fmt[4];            /* US_OUT_FMT_0..3 */
    uint32_t w_fmt;                 /* US_W_FMT */
    /* decoded by r300_us_load, indexed by absolute address */
    R300USAluOp alu[R300_US_MAX_ALU];
    R300USTexOp tex_op[R300_US_MAX_TEX];
    uint32_t units_used;            /* bit u: a TEX instruction samples unit u */
    unsigned temps_used;            /* 1 + the highest temporary referenced */
} R300USProgram;

typedef struct R300USQuad {
    /* pixel stack frames: RS writes the interpolated inputs before exec */
    float temp[4][R300_US_NUM_TEMPS][4];
    uint32_t live;                  /* covered pixels (bit i = pixel i) */
    /* results */
    uint32_t kill;                  /* pixels killed by TEXKILL */
    float out[4][4][4];             /* [pixel][render target A-D][r,g,b,a] */
    uint32_t out_written;           /* bit t: target t received output */
    float w[4];                     /* depth output (OMASK_W) per pixel */
    bool w_written;
} R300USQuad;

/*
 * Texture fetch for a quad: `unit` 0..15, `inst` R300_US_TEX_LD, _PROJ or
 * _LODBIAS, coord[i] the source temporary of pixel i (s, t, r, q; for
 * LODBIAS the bias is in q [EXT Mesa TXB]). Writes the post-swizzle RGBA.
 */
typedef void R300SampleFn(void *opaque, int unit, int inst,
                          const float coord[4][4], float out[4][4]);

/* Decode the program the US registers hold; false + guest error if invalid. */
bool r300_us_load(R300USProgram *p, const uint32_t *regs);

void r300_us_exec(const R300USProgram *p, R300USQuad *q,
                  R300SampleFn *sample, void *opaque);

/*
 * A program that moves one temporary to one target, optionally after one
 * texture fetch: the "MAD out, src, 1, 0" that a Gouraud or a plain textured
 * draw runs (Mesa's r300 compiler emits MOV this way). The quad path runs
 * it without the interpreter, in the same operations.
 */
typedef struct R300USMove {
    bool tex;                   /* tex_op runs first */
    R300USTexOp tex_op;         /* LD, PROJ or LODBIAS */
    uint8_t src;                /* the temporary moved (RGB and alpha) */
    uint8_t target;             /* US_OUT target */
    bool rgb_clamp, alpha_clamp;
} R300USMove;

/* true (and *m filled) if the program is such a move */
bool r300_us_match_move(const R300USProgram *p, R300USMove *m);

#endif
