/*
 * R300 PVS: the programmable vertex shader of the VAP [R3xx 3D ref. §1.10
 * VAP_PVS_*; Mesa r300_reg.h, r3xx_vertprog.c].
 *
 * A program is decoded once per draw from the register file and the PVS
 * vector memory (code, constants, clip planes), then run once per vertex.
 * Arithmetic is IEEE fp32, as the VAP's [R3xx 3D ref. §1.10 VAP].
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_R300_PVS_H
#define GPU3D_R300_PVS_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu3d/r300-regs.h"

typedef struct R300PVSInst {
    uint32_t dw[4];                 /* the octword as uploaded */
} R300PVSInst;

/* Register files as the decoded program names them (one namespace for
 * sources and destinations; the encodings differ [Mesa r300_reg.h,
 * r3xx_vertprog.c]). */
enum {
    R300_PVS_FILE_TEMP,             /* temporaries */
    R300_PVS_FILE_INPUT,            /* input vectors (PSC output) */
    R300_PVS_FILE_CONST,            /* constants, PVS_MAX_CONST_ADDR applies */
    R300_PVS_FILE_ALT_TEMP,         /* alternate temporaries */
    R300_PVS_FILE_OUT,              /* outputs */
    R300_PVS_FILE_OUT_REPL_X,       /* outputs, X replicated */
    R300_PVS_FILE_A0,               /* the address register */
    R300_PVS_FILE_NONE,             /* bad encoding: reads 0, writes dropped */
};

/* Addressing: absolute, + A0.<ADDR_SEL>, + the loop index aL */
enum { R300_PVS_ADDR_ABS, R300_PVS_ADDR_A0, R300_PVS_ADDR_AL };

typedef struct R300PVSSrcOp {
    uint8_t file, mode, addr_sel, abs;
    uint8_t plain;                  /* X Y Z W, no negate, no abs */
    uint8_t swz[4];                 /* 0-3 component, 4 zero, 5 one */
    uint8_t neg;                    /* bit c: negate component c */
    uint16_t offset;
} R300PVSSrcOp;

/* What one instruction does, decoded once by r300_pvs_load. */
typedef struct R300PVSOp {
    uint8_t unit;                   /* R300_PVS_UNIT_* */
    uint8_t opcode;
    uint8_t dst_file, dst_mode, dst_sel;
    uint8_t we;                     /* write enable, bit 0 = X */
    uint8_t sat;                    /* clamp the result to [0, 1] */
    uint8_t reads;                  /* bit i: source i is used by the op */
    uint16_t dst_offset;
    R300PVSSrcOp src[3];
} R300PVSOp;

enum { R300_PVS_UNIT_VE, R300_PVS_UNIT_ME, R300_PVS_UNIT_MACRO,
       R300_PVS_UNIT_BAD };

#define R300_PVS_FC_SLOTS       16
#define R300_PVS_FC_DEPTH       4       /* nested LOOP/JSR levels modelled */
/* Instructions one vertex may execute: a bound, so no program hangs. */
#define R300_PVS_MAX_STEPS      (1u << 17)

/* faults found while running; each is logged once per load */
enum {
    R300_PVS_FAULT_INDEX = 1 << 0,  /* relative address outside a file */
    R300_PVS_FAULT_STEPS = 1 << 1,  /* R300_PVS_MAX_STEPS reached */
    R300_PVS_FAULT_DEPTH = 1 << 2,  /* LOOP/JSR nested too deep */
};

typedef struct R300PVSProgram {
    unsigned first, last;           /* PVS_FIRST_INST .. PVS_LAST_INST */
    R300PVSInst inst[R300_PVS_MAX_INSTRUCTIONS];
    float consts[R300_PVS_MAX_CONSTS][4]; /* from PVS_CONST_BASE_OFFSET */
    unsigned max_const;             /* PVS_MAX_CONST_ADDR */
    uint32_t flow_opc;              /* VAP_PVS_FLOW_CNTL_OPC */
    uint32_t flow_addrs[16], flow_loop[16];
    /* decoded by r300_pvs_load */
    R300PVSOp op[R300_PVS_MAX_INSTRUCTIONS];
    int8_t fc_at[R300_PVS_MAX_INSTRUCTIONS]; /* slot whose ACT_ADRS is here, -1 */
    bool writes_inputs;             /* some instruction writes input memory */
    unsigned temps, alt_temps;      /* temporaries a vertex starts with 0 */
    /* user clip planes 0..5, vector memory from R300_PVS_UCP_START, for the
     * clipper (VAP_CLIP_CNTL.UCP_ENA_n) [R3xx 3D ref. §1.10 VAP_PVS_*, §1.10
     * VAP clipping] */
    float ucp[6][4];
    int faults;                     /* R300_PVS_FAULT_* already logged */
} R300PVSProgram;

/*
 * Decode and check the program the registers select (VAP_PVS_CODE_CNTL_0/1,
 * VAP_PVS_CONST_CNTL, VAP_PVS_FLOW_CNTL_*) from vector memory.
 * regs: the register file, one word per dword offset (regs[A_X / 4]).
 * vmem: R300_PVS_VECTOR_OCTWORDS octwords. Returns false and logs a guest
 * error when the program cannot run (instruction range outside code memory,
 * LAST before FIRST, flow control outside the program).
 */
bool r300_pvs_load(R300PVSProgram *p, const uint32_t *regs,
                   const uint32_t (*vmem)[4]);

/*
 * Run the program on one vertex: in[] are the PVS input vectors written by
 * the stream decoder, out[] receives the output vectors (unwritten outputs
 * keep what the caller put there). Bounded: loops and subroutines are limited
 * by their counts and by R300_PVS_MAX_STEPS; a bad operand (register index
 * out of range) reads zero and is logged once per load (the program's
 * `faults` word is updated atomically, so several threads may run one
 * program at once).
 */
void r300_pvs_exec(const R300PVSProgram *p,
                   const float in[R300_PVS_MAX_INPUTS][4],
                   float out[R300_PVS_MAX_OUTPUTS][4]);

#endif
