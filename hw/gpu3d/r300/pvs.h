/*
 * R300 PVS: the programmable vertex shader of the VAP [digest §3.1.5, §4.3].
 *
 * A program is decoded once per draw from the register file and the PVS
 * vector memory (code, constants, clip planes), then run once per vertex.
 * Arithmetic is IEEE fp32, as the VAP's [digest §3.12].
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

typedef struct R300PVSProgram {
    unsigned first, last;           /* PVS_FIRST_INST .. PVS_LAST_INST */
    R300PVSInst inst[R300_PVS_MAX_INSTRUCTIONS];
    float consts[R300_PVS_MAX_CONSTS][4]; /* from PVS_CONST_BASE_OFFSET */
    unsigned max_const;             /* PVS_MAX_CONST_ADDR */
    uint32_t flow_opc;              /* VAP_PVS_FLOW_CNTL_OPC */
    uint32_t flow_addrs[16], flow_loop[16];
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
 * by their counts; a bad operand (register index out of range) reads zero and
 * is logged once per load.
 */
void r300_pvs_exec(const R300PVSProgram *p,
                   const float in[R300_PVS_MAX_INPUTS][4],
                   float out[R300_PVS_MAX_OUTPUTS][4]);

#endif
