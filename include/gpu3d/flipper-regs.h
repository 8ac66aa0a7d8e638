/*
 * Nintendo GameCube Flipper: the hardware registers of physical 0x0C000000
 * as the flipper-gx device's BAR0 lays them out (same offsets), the GX
 * command FIFO opcodes, and the GX-internal register files (BP, CP-internal,
 * XF) that are reached only through the FIFO.
 *
 * Source: YAGCD chapter 5 ("gamecube-hardware-registers.txt"), cited as
 * "YAGCD §5.n", and the public sources of docs/references.md (libogc,
 * Dolphin, hwtests), which correct it where noted. One header for the device,
 * its core, its tests and freestanding guests: plain enums, no dependencies.
 *
 * Register widths: CP, PE, MI and DSP registers are 16-bit; VI mixes 16- and
 * 32-bit registers; PI, DI, SI, EXI and AI are 32-bit. Every access is
 * handled as on the console's big-endian bus: a 32-bit access at a pair of
 * 16-bit registers reaches the register at the lower offset with bits 31-16
 * of the value and the one at +2 with bits 15-0; a 16-bit access at offset
 * +0 of a 32-bit register reaches its bits 31-16, at +2 its bits 15-0.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_FLIPPER_REGS_H
#define GPU3D_FLIPPER_REGS_H

#include <stdint.h>
#include "gpu3d/regfields.h"

/* ---- the device ---------------------------------------------------------- */

#define FLIPPER_PCI_VENDOR      0x1234
#define FLIPPER_PCI_DEVICE      0x3D04
#define FLIPPER_REGS_BAR        0            /* BAR0: registers, 32-bit MMIO */
#define FLIPPER_MEM1_BAR        2            /* BAR2: MEM1, 64-bit prefetchable */
#define FLIPPER_EFB_BAR         4            /* BAR4: the CPU's EFB window */
#define FLIPPER_BAR0_SIZE       0x10000      /* registers */
#define FLIPPER_BAR2_SIZE       0x2000000    /* MEM1 BAR: 32 MiB ...        */
#define FLIPPER_MEM1_SIZE       0x1800000    /* ... of which 24 MiB are MEM1 */
/* BAR4: 8 MiB 32-bit MMIO, offset = physical - FLIPPER_EFB_CPU_BASE */
#define FLIPPER_BAR4_SIZE       0x800000

/* block bases inside BAR0 = offsets from physical 0x0C000000 (YAGCD §5) */
#define FLIPPER_CP_BASE         0x0000
#define FLIPPER_PE_BASE         0x1000
#define FLIPPER_VI_BASE         0x2000
#define FLIPPER_PI_BASE         0x3000
#define FLIPPER_MI_BASE         0x4000
#define FLIPPER_DSP_BASE        0x5000
#define FLIPPER_DI_BASE         0x6000
#define FLIPPER_SI_BASE         0x6400
#define FLIPPER_EXI_BASE        0x6800
#define FLIPPER_AI_BASE         0x6C00
#define FLIPPER_WGP_BASE        0x8000       /* write-gather pipe */
#define FLIPPER_WGP_SIZE        0x20         /* the 32-byte gather window */

/* ---- CP: command processor, 16-bit registers (YAGCD §5.1 CP) ------------- */

G3D_REG32(CP_SR, 0x0000)                /* status */
    G3D_FIELD(CP_SR, OVERFLOW, 0, 1)    /* distance > high watermark */
    G3D_FIELD(CP_SR, UNDERFLOW, 1, 1)   /* distance < low watermark */
    G3D_FIELD(CP_SR, READ_IDLE, 2, 1)   /* nothing left to read */
    G3D_FIELD(CP_SR, CMD_IDLE, 3, 1)    /* no command in progress */
    G3D_FIELD(CP_SR, BREAKPOINT, 4, 1)  /* read pointer hit the breakpoint */
G3D_REG32(CP_CR, 0x0002)                /* control (bit names per Dolphin) */
    G3D_FIELD(CP_CR, GP_READ_ENABLE, 0, 1)
    G3D_FIELD(CP_CR, BP_ENABLE, 1, 1)
    G3D_FIELD(CP_CR, OVF_INT_ENABLE, 2, 1)
    G3D_FIELD(CP_CR, UNF_INT_ENABLE, 3, 1)
    G3D_FIELD(CP_CR, GP_LINK_ENABLE, 4, 1)
    G3D_FIELD(CP_CR, BP_INT_ENABLE, 5, 1)
G3D_REG32(CP_CLEAR, 0x0004)
    G3D_FIELD(CP_CLEAR, OVERFLOW, 0, 1)
    G3D_FIELD(CP_CLEAR, UNDERFLOW, 1, 1)
    G3D_FIELD(CP_CLEAR, METRICS, 2, 1)
G3D_REG32(CP_PERF_SELECT, 0x0006)
G3D_REG32(CP_TOKEN, 0x000E)
G3D_REG32(CP_BBOX_LEFT, 0x0010)
G3D_REG32(CP_BBOX_RIGHT, 0x0012)
G3D_REG32(CP_BBOX_TOP, 0x0014)
G3D_REG32(CP_BBOX_BOTTOM, 0x0016)
/* 32-bit FIFO values split in 16-bit halves, LOW half at the lower offset */
G3D_REG32(CP_FIFO_BASE_LO, 0x0020)
G3D_REG32(CP_FIFO_BASE_HI, 0x0022)
G3D_REG32(CP_FIFO_END_LO, 0x0024)
G3D_REG32(CP_FIFO_END_HI, 0x0026)
G3D_REG32(CP_FIFO_HIWM_LO, 0x0028)
G3D_REG32(CP_FIFO_HIWM_HI, 0x002A)
G3D_REG32(CP_FIFO_LOWM_LO, 0x002C)
G3D_REG32(CP_FIFO_LOWM_HI, 0x002E)
G3D_REG32(CP_FIFO_DIST_LO, 0x0030)
G3D_REG32(CP_FIFO_DIST_HI, 0x0032)
G3D_REG32(CP_FIFO_WPTR_LO, 0x0034)
G3D_REG32(CP_FIFO_WPTR_HI, 0x0036)
G3D_REG32(CP_FIFO_RPTR_LO, 0x0038)
G3D_REG32(CP_FIFO_RPTR_HI, 0x003A)
G3D_REG32(CP_FIFO_BP_LO, 0x003C)
G3D_REG32(CP_FIFO_BP_HI, 0x003E)
/* 0x40-0x64: XF/vertex-cache performance counters (YAGCD §5.1 CP) */
G3D_REG32(CP_XF_PERF_FIRST, 0x0040)
G3D_REG32(CP_PERF_LAST, 0x0064)
#define CP_REG_SPAN             0x80

/* ---- PE: pixel engine, 16-bit registers (YAGCD §5.2 PE) ------------------ */

G3D_REG32(PE_ZCONF, 0x1000)             /* CPU EFB access Z mode */
G3D_REG32(PE_ALPHACONF, 0x1002)         /* CPU EFB access blend mode */
G3D_REG32(PE_DSTALPHA, 0x1004)
G3D_REG32(PE_ALPHAMODE, 0x1006)
G3D_REG32(PE_ALPHAREAD, 0x1008)
G3D_REG32(PE_ISR, 0x100A)               /* interrupt status/enable */
    G3D_FIELD(PE_ISR, TOKEN_ENABLE, 0, 1)
    G3D_FIELD(PE_ISR, FINISH_ENABLE, 1, 1)
    G3D_FIELD(PE_ISR, TOKEN, 2, 1)      /* w1c */
    G3D_FIELD(PE_ISR, FINISH, 3, 1)     /* w1c */
G3D_REG32(PE_TOKEN, 0x100E)             /* last token (read-only) */
G3D_REG32(PE_BBOX_LEFT, 0x1010)         /* read-only (Dolphin) */
G3D_REG32(PE_BBOX_RIGHT, 0x1012)
G3D_REG32(PE_BBOX_TOP, 0x1014)
G3D_REG32(PE_BBOX_BOTTOM, 0x1016)
G3D_REG32(PE_PERF_FIRST, 0x1018)        /* 0x18-0x2E performance counters */
G3D_REG32(PE_PERF_LAST, 0x102E)
#define PE_REG_SPAN             0x100

/* ---- VI: video interface (YAGCD §5.3 VI) --------------------------------- */

G3D_REG32(VI_VTR, 0x2000)               /* 16-bit */
    G3D_FIELD(VI_VTR, EQU, 0, 4)
    G3D_FIELD(VI_VTR, ACV, 4, 10)
G3D_REG32(VI_DCR, 0x2002)               /* 16-bit */
    G3D_FIELD(VI_DCR, ENB, 0, 1)
    G3D_FIELD(VI_DCR, RST, 1, 1)
    G3D_FIELD(VI_DCR, NIN, 2, 1)
    G3D_FIELD(VI_DCR, DLR, 3, 1)
    G3D_FIELD(VI_DCR, LE0, 4, 2)
    G3D_FIELD(VI_DCR, LE1, 6, 2)
    G3D_FIELD(VI_DCR, FMT, 8, 2)
G3D_REG32(VI_HTR0, 0x2004)
    G3D_FIELD(VI_HTR0, HLW, 0, 9)
    G3D_FIELD(VI_HTR0, HCE, 16, 7)
    G3D_FIELD(VI_HTR0, HCS, 24, 7)
G3D_REG32(VI_HTR1, 0x2008)
    G3D_FIELD(VI_HTR1, HSY, 0, 7)
    G3D_FIELD(VI_HTR1, HBE, 7, 10)
    G3D_FIELD(VI_HTR1, HBS, 17, 10)
G3D_REG32(VI_VTO, 0x200C)
    G3D_FIELD(VI_VTO, PRB, 0, 10)
    G3D_FIELD(VI_VTO, PSB, 16, 10)
G3D_REG32(VI_VTE, 0x2010)               /* as VTO */
G3D_REG32(VI_BBEI, 0x2014)
G3D_REG32(VI_BBOI, 0x2018)
G3D_REG32(VI_TFBL, 0x201C)
    G3D_FIELD(VI_TFBL, FBB, 0, 24)      /* libogc writes the full address */
    G3D_FIELD(VI_TFBL, XOF, 24, 4)
    G3D_FIELD(VI_TFBL, POFF, 28, 1)     /* address is >> 5 (all four) */
G3D_REG32(VI_TFBR, 0x2020)
G3D_REG32(VI_BFBL, 0x2024)
G3D_REG32(VI_BFBR, 0x2028)
G3D_REG32(VI_DPV, 0x202C)               /* 16-bit, read-only */
G3D_REG32(VI_DPH, 0x202E)               /* 16-bit, read-only */
G3D_REG32(VI_DI0, 0x2030)
G3D_REG32(VI_DI1, 0x2034)
G3D_REG32(VI_DI2, 0x2038)
G3D_REG32(VI_DI3, 0x203C)
    G3D_FIELD(VI_DI, HCT, 0, 11)        /* 11-bit per libogc/Dolphin */
    G3D_FIELD(VI_DI, VCT, 16, 11)
    G3D_FIELD(VI_DI, ENB, 28, 1)
    G3D_FIELD(VI_DI, INT, 31, 1)        /* cleared by writing 0 */
G3D_REG32(VI_DL0, 0x2040)
G3D_REG32(VI_DL1, 0x2044)
G3D_REG32(VI_HSW, 0x2048)               /* 16-bit: WPL << 8 | STD */
    G3D_FIELD(VI_HSW, STD, 0, 8)        /* line stride, 32-byte units */
    G3D_FIELD(VI_HSW, WPL, 8, 7)        /* 32-byte words per line */
G3D_REG32(VI_HSR, 0x204A)               /* 16-bit */
    G3D_FIELD(VI_HSR, STP, 0, 9)
    G3D_FIELD(VI_HSR, HS_EN, 12, 1)
G3D_REG32(VI_FCT0, 0x204C)
G3D_REG32(VI_FCT6, 0x2064)
G3D_REG32(VI_AA, 0x2068)
G3D_REG32(VI_CLK, 0x206C)               /* 16-bit: 0 = 27 MHz, 1 = 54 MHz */
G3D_REG32(VI_SEL, 0x206E)               /* 16-bit: DTV status */
G3D_REG32(VI_FBWIDTH, 0x2070)           /* 16-bit: scaler source width */
G3D_REG32(VI_HBE, 0x2072)               /* 16-bit */
G3D_REG32(VI_HBS, 0x2074)               /* 16-bit */
#define VI_REG_SPAN             0x80

/* ---- PI: processor interface, 32-bit (YAGCD §5.4 PI) --------------------- */

G3D_REG32(PI_INTSR, 0x3000)
G3D_REG32(PI_INTMR, 0x3004)
G3D_REG32(PI_FIFO_BASE, 0x300C)
G3D_REG32(PI_FIFO_END, 0x3010)
G3D_REG32(PI_FIFO_WPTR, 0x3014)
    G3D_FIELD(PI_FIFO_WPTR, ADDR, 5, 24)
    G3D_FIELD(PI_FIFO_WPTR, WRAP, 29, 1)
G3D_REG32(PI_FIFO_RESET, 0x3018)
G3D_REG32(PI_RESET_CODE, 0x3024)
G3D_REG32(PI_FLIPPER_REV, 0x302C)
G3D_REG32(PI_UNKNOWN_30, 0x3030)
#define PI_REG_SPAN             0x100

/* PI interrupt cause / mask bits (doc L603-644) */
enum {
    PI_INT_ERROR     = 1u << 0,    /* GP runtime error */
    PI_INT_RSW       = 1u << 1,
    PI_INT_DI        = 1u << 2,
    PI_INT_SI        = 1u << 3,
    PI_INT_EXI       = 1u << 4,
    PI_INT_AI        = 1u << 5,
    PI_INT_DSP       = 1u << 6,
    PI_INT_MEM       = 1u << 7,
    PI_INT_VI        = 1u << 8,
    PI_INT_PE_TOKEN  = 1u << 9,
    PI_INT_PE_FINISH = 1u << 10,
    PI_INT_CP        = 1u << 11,
    PI_INT_DEBUG     = 1u << 12,
    PI_INT_HSP       = 1u << 13,
    PI_INT_MASKABLE  = 0x3FFF,
    PI_INTSR_RSWST   = 1u << 16,   /* reset switch: 1 = not pressed */
};

#define FLIPPER_REV_C           0x246500B1u

/* ---- MI: memory interface, 16-bit (YAGCD §5.5 MI) ------------------------ */

G3D_REG32(MI_PROT_REGION0, 0x4000)      /* first page at +0, last at +2 */
G3D_REG32(MI_PROT_REGION3, 0x400C)
G3D_REG32(MI_PROT_TYPE, 0x4010)
G3D_REG32(MI_INT_MASK, 0x401C)
G3D_REG32(MI_INT_CAUSE, 0x401E)         /* w1c */
G3D_REG32(MI_UNK20, 0x4020)
G3D_REG32(MI_ADDR_LO, 0x4022)
G3D_REG32(MI_ADDR_HI, 0x4024)
G3D_REG32(MI_TIMER_FIRST, 0x4032)       /* 10 counter pairs to 0x4058 */
G3D_REG32(MI_TIMER_LAST, 0x4058)
G3D_REG32(MI_UNK5A, 0x405A)
#define MI_REG_SPAN             0x80

/* ---- DSP interface, 16-bit (YAGCD §5.6 DSP) ------------------------------ */

G3D_REG32(DSP_MAILBOX_HI, 0x5000)       /* CPU -> DSP */
G3D_REG32(DSP_MAILBOX_LO, 0x5002)
G3D_REG32(DSP_CPU_MAILBOX_HI, 0x5004)   /* DSP -> CPU */
G3D_REG32(DSP_CPU_MAILBOX_LO, 0x5006)
G3D_REG32(DSP_CSR, 0x500A)
    G3D_FIELD(DSP_CSR, RES, 0, 1)
    G3D_FIELD(DSP_CSR, PIINT, 1, 1)
    G3D_FIELD(DSP_CSR, HALT, 2, 1)
    G3D_FIELD(DSP_CSR, AIDINT, 3, 1)
    G3D_FIELD(DSP_CSR, AIDINTMASK, 4, 1)
    G3D_FIELD(DSP_CSR, ARINT, 5, 1)
    G3D_FIELD(DSP_CSR, ARINTMASK, 6, 1)
    G3D_FIELD(DSP_CSR, DSPINT, 7, 1)
    G3D_FIELD(DSP_CSR, DSPINTMASK, 8, 1)
    G3D_FIELD(DSP_CSR, DMAINT, 9, 1)
    G3D_FIELD(DSP_CSR, DSPRESET, 11, 1)
G3D_REG32(AR_SIZE, 0x5012)
G3D_REG32(AR_MODE, 0x5016)
G3D_REG32(AR_REFRESH, 0x501A)
G3D_REG32(AR_DMA_MMADDR_H, 0x5020)
G3D_REG32(AR_DMA_MMADDR_L, 0x5022)
G3D_REG32(AR_DMA_ARADDR_H, 0x5024)
G3D_REG32(AR_DMA_ARADDR_L, 0x5026)
G3D_REG32(AR_DMA_CNT_H, 0x5028)         /* bit 15: 1 = ARAM -> MEM1 */
G3D_REG32(AR_DMA_CNT_L, 0x502A)         /* a write starts the DMA */
G3D_REG32(AI_DMA_START_H, 0x5030)
G3D_REG32(AI_DMA_START_L, 0x5032)
G3D_REG32(AI_DMA_CTRL, 0x5036)          /* bit 15 play, 0-14 length / 32 */
G3D_REG32(AI_DMA_LEFT, 0x503A)
#define DSP_REG_SPAN            0x200
#define FLIPPER_ARAM_SIZE       0x1000000   /* 16 MiB */

/* ---- DI: DVD interface, 32-bit (YAGCD §5.7 DI) --------------------------- */

G3D_REG32(DI_SR, 0x6000)
    G3D_FIELD(DI_SR, BRK, 0, 1)
    G3D_FIELD(DI_SR, DEINTMASK, 1, 1)
    G3D_FIELD(DI_SR, DEINT, 2, 1)
    G3D_FIELD(DI_SR, TCINTMASK, 3, 1)
    G3D_FIELD(DI_SR, TCINT, 4, 1)
    G3D_FIELD(DI_SR, BRKINTMASK, 5, 1)
    G3D_FIELD(DI_SR, BRKINT, 6, 1)
G3D_REG32(DI_CVR, 0x6004)
    G3D_FIELD(DI_CVR, CVR, 0, 1)
    G3D_FIELD(DI_CVR, CVRINTMASK, 1, 1)
    G3D_FIELD(DI_CVR, CVRINT, 2, 1)
G3D_REG32(DI_CMDBUF0, 0x6008)
G3D_REG32(DI_CMDBUF1, 0x600C)
G3D_REG32(DI_CMDBUF2, 0x6010)
G3D_REG32(DI_MAR, 0x6014)
G3D_REG32(DI_LENGTH, 0x6018)
G3D_REG32(DI_CR, 0x601C)
    G3D_FIELD(DI_CR, TSTART, 0, 1)
    G3D_FIELD(DI_CR, DMA, 1, 1)
    G3D_FIELD(DI_CR, RW, 2, 1)
G3D_REG32(DI_IMMBUF, 0x6020)
G3D_REG32(DI_CFG, 0x6024)
#define DI_REG_SPAN             0x40

/* ---- SI: serial interface, 32-bit (YAGCD §5.8 SI) ------------------------ */

G3D_REG32(SI_C0OUTBUF, 0x6400)          /* channel n at + 12 * n */
G3D_REG32(SI_C0INBUFH, 0x6404)
G3D_REG32(SI_C0INBUFL, 0x6408)
G3D_REG32(SI_POLL, 0x6430)
G3D_REG32(SI_COMCSR, 0x6434)
    G3D_FIELD(SI_COMCSR, TSTART, 0, 1)
    G3D_FIELD(SI_COMCSR, CHANNEL, 1, 2)
    G3D_FIELD(SI_COMCSR, INLNGTH, 8, 7)
    G3D_FIELD(SI_COMCSR, OUTLNGTH, 16, 7)
    G3D_FIELD(SI_COMCSR, RDSTINTMSK, 27, 1)
    G3D_FIELD(SI_COMCSR, RDSTINT, 28, 1)
    G3D_FIELD(SI_COMCSR, COMERR, 29, 1)
    G3D_FIELD(SI_COMCSR, TCINTMSK, 30, 1)
    G3D_FIELD(SI_COMCSR, TCINT, 31, 1)
G3D_REG32(SI_SR, 0x6438)
    G3D_FIELD(SI_SR, WR, 31, 1)
G3D_REG32(SI_EXILK, 0x643C)
G3D_REG32(SI_IOBUF, 0x6480)             /* 128 bytes */
#define SI_REG_SPAN             0x100
/* SISR per channel n: bits at 24 - 8 * n */
enum {
    SI_SR_UNRUN = 1u << 0, SI_SR_OVRUN = 1u << 1, SI_SR_COLL = 1u << 2,
    SI_SR_NOREP = 1u << 3, SI_SR_WRST = 1u << 4, SI_SR_RDST = 1u << 5,
};

/* ---- EXI: external interface, 32-bit (YAGCD §5.9 EXI) -------------------- */

#define EXI_CHANNELS            3
#define EXI_CHANNEL_STRIDE      0x14
G3D_REG32(EXI_CSR, 0x6800)              /* channel c at + 0x14 * c */
    G3D_FIELD(EXI_CSR, EXIINTMASK, 0, 1)
    G3D_FIELD(EXI_CSR, EXIINT, 1, 1)
    G3D_FIELD(EXI_CSR, TCINTMASK, 2, 1)
    G3D_FIELD(EXI_CSR, TCINT, 3, 1)
    G3D_FIELD(EXI_CSR, CLK, 4, 3)
    G3D_FIELD(EXI_CSR, CS, 7, 3)
    G3D_FIELD(EXI_CSR, EXTINTMASK, 10, 1)
    G3D_FIELD(EXI_CSR, EXTINT, 11, 1)
    G3D_FIELD(EXI_CSR, EXT, 12, 1)
    G3D_FIELD(EXI_CSR, ROMDIS, 13, 1)
G3D_REG32(EXI_MAR, 0x6804)
G3D_REG32(EXI_LENGTH, 0x6808)
G3D_REG32(EXI_CR, 0x680C)
    G3D_FIELD(EXI_CR, TSTART, 0, 1)
    G3D_FIELD(EXI_CR, DMA, 1, 1)
    G3D_FIELD(EXI_CR, RW, 2, 2)
    G3D_FIELD(EXI_CR, TLEN, 4, 2)
G3D_REG32(EXI_DATA, 0x6810)
#define EXI_REG_SPAN            0x40

/* ---- AI: audio streaming interface, 32-bit (YAGCD §5.10 AI) -------------- */

G3D_REG32(AI_CR, 0x6C00)
    G3D_FIELD(AI_CR, PSTAT, 0, 1)
    G3D_FIELD(AI_CR, AFR, 1, 1)
    G3D_FIELD(AI_CR, AIINTMSK, 2, 1)
    G3D_FIELD(AI_CR, AIINT, 3, 1)
    G3D_FIELD(AI_CR, AIINTVLD, 4, 1)
    G3D_FIELD(AI_CR, SCRESET, 5, 1)
    G3D_FIELD(AI_CR, DSPRATE, 6, 1)
G3D_REG32(AI_VR, 0x6C04)
G3D_REG32(AI_SCNT, 0x6C08)
G3D_REG32(AI_IT, 0x6C0C)
#define AI_REG_SPAN             0x20

/* ---- GX command FIFO opcodes (YAGCD §5.11.5 GP packets) ------------------ */

enum {
    GX_NOP             = 0x00,
    GX_LOAD_CP_REG     = 0x08,
    GX_LOAD_XF_REG     = 0x10,
    GX_LOAD_INDX_A     = 0x20,
    GX_LOAD_INDX_B     = 0x28,
    GX_LOAD_INDX_C     = 0x30,
    GX_LOAD_INDX_D     = 0x38,
    GX_CALL_DL         = 0x40,
    GX_UNKNOWN_METRICS = 0x44,
    GX_INVL_VC         = 0x48,
    GX_LOAD_BP_REG     = 0x61,
    /* draws: opcode | vat (0-7) */
    GX_DRAW_QUADS          = 0x80,
    GX_DRAW_QUADS_2        = 0x88,     /* decoded as quads (Dolphin) */
    GX_DRAW_TRIANGLES      = 0x90,
    GX_DRAW_TRIANGLE_STRIP = 0x98,
    GX_DRAW_TRIANGLE_FAN   = 0xA0,
    GX_DRAW_LINES          = 0xA8,
    GX_DRAW_LINE_STRIP     = 0xB0,
    GX_DRAW_POINTS         = 0xB8,
};
#define GX_OPCODE_IS_DRAW(b)    (((b) & 0xC0) == 0x80)
#define GX_DRAW_PRIM(b)         (((b) & 0x78) >> 3)   /* 0 quads .. 7 points */
#define GX_DRAW_VAT(b)          ((b) & 7)

/* ---- BP registers (YAGCD §5.11.1 BP registers): BP word = id << 24 | value */

enum {
    BP_GENMODE        = 0x00,
    BP_COPYFILTER0    = 0x01,     /* 0x01-0x04 sample pattern */
    BP_IND_MTXA0      = 0x06,     /* 0x06-0x0E indirect matrices */
    BP_IND_IMASK      = 0x0F,
    BP_IND_CMD0       = 0x10,     /* 0x10-0x1F */
    BP_SCISSOR_TL     = 0x20,
    BP_SCISSOR_BR     = 0x21,
    BP_LINEPTWIDTH    = 0x22,
    BP_PERF0_TRI      = 0x23,
    BP_PERF0_QUAD     = 0x24,
    BP_RAS1_SS0       = 0x25,
    BP_RAS1_SS1       = 0x26,
    BP_IREF           = 0x27,
    BP_TREF0          = 0x28,     /* 0x28-0x2F */
    BP_SU_SSIZE0      = 0x30,     /* even: S, odd: T, 8 pairs */
    BP_ZMODE          = 0x40,
    BP_BLENDMODE      = 0x41,
    BP_CONSTANTALPHA  = 0x42,
    BP_ZCOMPARE       = 0x43,     /* PE_CONTROL */
    BP_FIELDMASK      = 0x44,
    BP_SETDRAWDONE    = 0x45,
    BP_BUSCLOCK0      = 0x46,
    BP_PE_TOKEN       = 0x47,
    BP_PE_TOKEN_INT   = 0x48,
    BP_EFB_TL         = 0x49,
    BP_EFB_WH         = 0x4A,
    BP_EFB_ADDR       = 0x4B,
    BP_MIPMAP_STRIDE  = 0x4D,
    BP_DISPCOPYYSCALE = 0x4E,
    BP_CLEAR_AR       = 0x4F,
    BP_CLEAR_GB       = 0x50,
    BP_CLEAR_Z        = 0x51,
    BP_TRIGGER_EFB_COPY = 0x52,
    BP_COPYFILTER_A   = 0x53,
    BP_COPYFILTER_B   = 0x54,
    BP_CLEARBBOX1     = 0x55,
    BP_CLEARBBOX2     = 0x56,
    BP_CLEAR_PIXEL_PERF = 0x57,
    BP_REVBITS        = 0x58,
    BP_SCISSOR_OFFSET = 0x59,
    BP_PRELOAD_ADDR   = 0x60,
    BP_PRELOAD_TMEMEVEN = 0x61,
    BP_PRELOAD_TMEMODD = 0x62,
    BP_PRELOAD_MODE   = 0x63,
    BP_LOADTLUT0      = 0x64,
    BP_LOADTLUT1      = 0x65,
    BP_TEXINVALIDATE  = 0x66,
    BP_PERF1          = 0x67,
    BP_FIELDMODE      = 0x68,
    BP_BUSCLOCK1      = 0x69,
    BP_TX_SETMODE0    = 0x80,     /* 0x80-0x83, 0xA0-0xA3 */
    BP_TX_SETMODE1    = 0x84,
    BP_TX_SETIMAGE0   = 0x88,
    BP_TX_SETIMAGE1   = 0x8C,
    BP_TX_SETIMAGE2   = 0x90,
    BP_TX_SETIMAGE3   = 0x94,
    BP_TX_SETTLUT     = 0x98,
    BP_TEV_COLOR_ENV0 = 0xC0,     /* even: colour, odd: alpha, 16 stages */
    BP_TEV_REGISTERL0 = 0xE0,     /* 0xE0-0xE7: L/H pairs */
    BP_FOGRANGE       = 0xE8,
    BP_FOGPARAM0      = 0xEE,
    BP_FOGBMAGNITUDE  = 0xEF,
    BP_FOGBEXPONENT   = 0xF0,
    BP_FOGPARAM3      = 0xF1,
    BP_FOGCOLOR       = 0xF2,
    BP_ALPHACOMPARE   = 0xF3,
    BP_BIAS           = 0xF4,     /* TEV_Z_ENV_0 */
    BP_ZTEX2          = 0xF5,
    BP_TEV_KSEL0      = 0xF6,     /* 0xF6-0xFD */
    BP_MASK           = 0xFE,
};

/*
 * Texture map n (0-7) registers: BP base + (n & 3) + 0x20 * (n >> 2)
 * (doc 5.11.1 0x80-0xBB, YAGCD §5.11.1 BP registers).
 */
#define BP_TX_REG(base, n) ((base) + ((n) & 3) + 0x20 * ((n) >> 2))

G3D_REG32(BP_TX_SETMODE0_R, 0)
    G3D_FIELD(BP_TX_SETMODE0_R, WRAP_S, 0, 2)       /* 0 clamp, 1 repeat, 2 mirror */
    G3D_FIELD(BP_TX_SETMODE0_R, WRAP_T, 2, 2)
    G3D_FIELD(BP_TX_SETMODE0_R, MAG_FILTER, 4, 1)   /* 1 linear */
    G3D_FIELD(BP_TX_SETMODE0_R, MIN_FILTER, 5, 3)   /* bits 0-1 mip mode, bit 2 linear */
    G3D_FIELD(BP_TX_SETMODE0_R, DIAGLOAD, 8, 1)
    G3D_FIELD(BP_TX_SETMODE0_R, LODBIAS, 9, 8)      /* signed s2.5 */
    G3D_FIELD(BP_TX_SETMODE0_R, MAXANISO, 19, 2)
    G3D_FIELD(BP_TX_SETMODE0_R, LODCLAMP, 21, 1)
G3D_REG32(BP_TX_SETMODE1_R, 0)
    G3D_FIELD(BP_TX_SETMODE1_R, MIN_LOD, 0, 8)      /* u4.4 */
    G3D_FIELD(BP_TX_SETMODE1_R, MAX_LOD, 8, 8)
G3D_REG32(BP_TX_SETIMAGE0_R, 0)
    G3D_FIELD(BP_TX_SETIMAGE0_R, WIDTH_M1, 0, 10)
    G3D_FIELD(BP_TX_SETIMAGE0_R, HEIGHT_M1, 10, 10)
    G3D_FIELD(BP_TX_SETIMAGE0_R, FORMAT, 20, 4)
G3D_REG32(BP_TX_SETIMAGE1_R, 0)
    G3D_FIELD(BP_TX_SETIMAGE1_R, TMEM_OFFSET, 0, 15)
    G3D_FIELD(BP_TX_SETIMAGE1_R, IMAGE_TYPE, 21, 1) /* 1 preloaded */
G3D_REG32(BP_TX_SETIMAGE2_R, 0)
    G3D_FIELD(BP_TX_SETIMAGE2_R, TMEM_OFFSET, 0, 15)
G3D_REG32(BP_TX_SETIMAGE3_R, 0)
    G3D_FIELD(BP_TX_SETIMAGE3_R, IMAGE_BASE, 0, 24) /* address >> 5 */
G3D_REG32(BP_TX_SETTLUT_R, 0)
    G3D_FIELD(BP_TX_SETTLUT_R, TMEM_OFFSET, 0, 10)  /* 512-byte units in the high bank */
    G3D_FIELD(BP_TX_SETTLUT_R, FORMAT, 10, 2)
G3D_REG32(BP_LOADTLUT0_R, 0)
    G3D_FIELD(BP_LOADTLUT0_R, BASE, 0, 24)          /* MEM1 address >> 5 */
G3D_REG32(BP_LOADTLUT1_R, 0)
    G3D_FIELD(BP_LOADTLUT1_R, TMEM_OFFSET, 0, 10)   /* 512-byte units in the high bank */
    G3D_FIELD(BP_LOADTLUT1_R, COUNT, 10, 11)        /* 32-byte blocks (16 entries) */
/* RAS1_TREF: stage 2k in bits 0-11, stage 2k+1 in bits 12-23 */
G3D_REG32(BP_TREF_R, 0)
    G3D_FIELD(BP_TREF_R, TI, 0, 3)
    G3D_FIELD(BP_TREF_R, TC, 3, 3)
    G3D_FIELD(BP_TREF_R, TE, 6, 1)
    G3D_FIELD(BP_TREF_R, CC, 7, 3)

/* texture formats (TX_SETIMAGE0 FORMAT, Dolphin TextureDecoder_Generic.cpp) */
enum {
    TX_FMT_I4 = 0, TX_FMT_I8 = 1, TX_FMT_IA4 = 2, TX_FMT_IA8 = 3,
    TX_FMT_RGB565 = 4, TX_FMT_RGB5A3 = 5, TX_FMT_RGBA8 = 6,
    TX_FMT_C4 = 8, TX_FMT_C8 = 9, TX_FMT_C14X2 = 10, TX_FMT_CMPR = 14,
};
enum { TLUT_FMT_IA8 = 0, TLUT_FMT_RGB565 = 1, TLUT_FMT_RGB5A3 = 2 };
#define FLIPPER_TMEM_SIZE 0x100000u         /* TMEM: low and high banks */
#define FLIPPER_TMEM_TLUT_BASE 0x80000u     /* TLUTs: the high bank */
#define FLIPPER_TMEM_TLUT_SIZE 0x80000u
G3D_REG32(BP_PRELOAD_MODE_R, 0)
    G3D_FIELD(BP_PRELOAD_MODE_R, COUNT, 0, 15)      /* 32-byte lines (type 3: pairs) */
    G3D_FIELD(BP_PRELOAD_MODE_R, TYPE, 15, 2)       /* 3: RGBA8 AR/GB to even/odd */

/* XF texgen (0x1040 + n, YAGCD §5.11.4 XF registers) */
G3D_REG32(XF_TEXGEN_R, 0)
    G3D_FIELD(XF_TEXGEN_R, PROJECTION, 1, 1)        /* 1: STQ (3x4) */
    G3D_FIELD(XF_TEXGEN_R, INPUT_FORM, 2, 1)        /* 1: ABC1 */
    G3D_FIELD(XF_TEXGEN_R, TYPE, 4, 3)              /* 0 regular, 1 emboss, 2/3 colour */
    G3D_FIELD(XF_TEXGEN_R, SOURCE_ROW, 7, 5)
    G3D_FIELD(XF_TEXGEN_R, EMBOSS_SOURCE, 12, 3)
    G3D_FIELD(XF_TEXGEN_R, EMBOSS_LIGHT, 15, 3)
G3D_REG32(XF_DUALTEX_R, 0)
    G3D_FIELD(XF_DUALTEX_R, DUALMTX, 0, 6)
    G3D_FIELD(XF_DUALTEX_R, NORMALIZE, 8, 1)

/* GEN_MODE */
G3D_REG32(BP_GENMODE_R, 0)
    G3D_FIELD(BP_GENMODE_R, NTEX, 0, 4)
    G3D_FIELD(BP_GENMODE_R, NCOL, 4, 3)
    G3D_FIELD(BP_GENMODE_R, FLATSHADE, 8, 1)
    G3D_FIELD(BP_GENMODE_R, MS_EN, 9, 1)
    G3D_FIELD(BP_GENMODE_R, NTEV, 10, 4)     /* stages - 1 */
    G3D_FIELD(BP_GENMODE_R, REJECT_EN, 14, 2)
    G3D_FIELD(BP_GENMODE_R, NBMP, 16, 3)
    G3D_FIELD(BP_GENMODE_R, ZFREEZE, 19, 1)
/* PE_CONTROL (0x43) pixel formats */
enum {
    PE_FMT_RGB8_Z24 = 0, PE_FMT_RGBA6_Z24 = 1, PE_FMT_RGB565_Z16 = 2,
    PE_FMT_Z24 = 3, PE_FMT_Y8 = 4, PE_FMT_U8 = 5, PE_FMT_V8 = 6,
    PE_FMT_YUV420 = 7,
};
/* PE_CONTROL (0x43) bits 3-5: the Z format of RGB565_Z16 (4-7, the
 * "inverted" ones of Dolphin's BPMemory.h, are bad input) */
enum {
    PE_ZFMT_LINEAR = 0, PE_ZFMT_NEAR = 1, PE_ZFMT_MID = 2, PE_ZFMT_FAR = 3,
};
/* EFB copy trigger (0x52), YAGCD §5.11.1 BP registers */
G3D_REG32(BP_COPY_R, 0)
    G3D_FIELD(BP_COPY_R, CLAMP_TOP, 0, 1)
    G3D_FIELD(BP_COPY_R, CLAMP_BOTTOM, 1, 1)
    G3D_FIELD(BP_COPY_R, TARGET_FMT, 3, 4)   /* rotated: fmt/2 + (fmt&1)*8 */
    G3D_FIELD(BP_COPY_R, GAMMA, 7, 2)
    G3D_FIELD(BP_COPY_R, HALF_SCALE, 9, 1)
    G3D_FIELD(BP_COPY_R, SCALE_INVERT, 10, 1)
    G3D_FIELD(BP_COPY_R, CLEAR, 11, 1)
    G3D_FIELD(BP_COPY_R, FRAME_TO_FIELD, 12, 2)
    G3D_FIELD(BP_COPY_R, COPY_TO_XFB, 14, 1)
    G3D_FIELD(BP_COPY_R, INTENSITY, 15, 1)
    G3D_FIELD(BP_COPY_R, AUTO_CONV, 16, 1)

#define FLIPPER_EFB_WIDTH       640
/*
 * The CPU's EFB window (physical 0x08000000, YAGCD §5.2 PE [EXT:libogc]):
 * offset = x << 2 | y << 12 | type << 22, 32-bit accesses; type 0 colour
 * (A << 24 | R << 16 | G << 8 | B), 1 Z (24 bits).
 */
#define FLIPPER_EFB_CPU_BASE    0x08000000u
#define FLIPPER_EFB_CPU_SPAN    0x00800000u
#define FLIPPER_EFB_CPU_ADDR(x, y, type) \
    ((uint32_t)(x) << 2 | (uint32_t)(y) << 12 | (uint32_t)(type) << 22)
#define FLIPPER_EFB_HEIGHT      528
#define FLIPPER_SCREEN_OFFSET   342     /* added to window coordinates */

/* ---- CP-internal registers (YAGCD §5.11.2 CP registers), opcode 0x08 ----- */

enum {
    CPR_MATINDEX_A  = 0x30,
    CPR_MATINDEX_B  = 0x40,
    CPR_VCD_LO      = 0x50,       /* one VCD (Dolphin decodes by nibble) */
    CPR_VCD_HI      = 0x60,
    CPR_VAT_A       = 0x70,       /* + vat */
    CPR_VAT_B       = 0x80,
    CPR_VAT_C       = 0x90,
    CPR_ARRAY_BASE  = 0xA0,       /* + array: 0 pos, 1 nrm, 2-3 col, 4-11 tex, 12-15 XF A-D */
    CPR_ARRAY_STRIDE = 0xB0,
};
enum {
    CP_ARRAY_POS = 0, CP_ARRAY_NRM = 1, CP_ARRAY_CLR0 = 2, CP_ARRAY_TEX0 = 4,
    CP_ARRAY_XF_A = 12,
};
/* VCD attribute encodings */
enum { VCD_NONE = 0, VCD_DIRECT = 1, VCD_INDEX8 = 2, VCD_INDEX16 = 3 };
/* component formats */
enum { VTX_U8 = 0, VTX_S8 = 1, VTX_U16 = 2, VTX_S16 = 3, VTX_F32 = 4 };
enum { VTX_RGB565 = 0, VTX_RGB888 = 1, VTX_RGB888X = 2, VTX_RGBA4444 = 3,
       VTX_RGBA6666 = 4, VTX_RGBA8888 = 5 };

/* ---- XF memory and registers (doc 5.11.3-4, YAGCD §5.11.3-5.11.4 XF) ----- */

enum {
    XF_MEM_POSMTX    = 0x0000,    /* 0x000-0x0FF matrix RAM */
    XF_MEM_NRMMTX    = 0x0400,    /* 0x400-0x45F */
    XF_MEM_POSTMTX   = 0x0500,    /* 0x500-0x5FF dual-texture matrices */
    XF_MEM_LIGHTS    = 0x0600,    /* 0x600-0x67F, 16 words per light */
    XF_MEM_WORDS     = 0x1000,
    XF_REG_BASE      = 0x1000,
    XF_REG_ERROR     = 0x1000,
    XF_REG_CLIPDISABLE = 0x1005,
    XF_REG_INVTXSPEC = 0x1008,
    XF_REG_NUMCOLORS = 0x1009,
    XF_REG_AMBIENT0  = 0x100A,
    XF_REG_MATERIAL0 = 0x100C,
    XF_REG_COLOR0CNTRL = 0x100E,  /* COLOR0, COLOR1, ALPHA0, ALPHA1 */
    XF_REG_DUALTEX   = 0x1012,
    XF_REG_MATINDEX_A = 0x1018,
    XF_REG_MATINDEX_B = 0x1019,
    XF_REG_VIEWPORT  = 0x101A,    /* scale x, y, z, offset x, y, z (f32) */
    XF_REG_PROJECTION = 0x1020,   /* six f32 + type */
    XF_REG_PROJTYPE  = 0x1026,    /* 0 perspective, 1 orthographic */
    XF_REG_NUMTEX    = 0x103F,
    XF_REG_TEXGEN0   = 0x1040,
    XF_REG_DUALTEX0  = 0x1050,
    XF_REG_COUNT     = 0x58,      /* 0x1000-0x1057 */
};

#endif
