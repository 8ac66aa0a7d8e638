/*
 * The 3D engine's register table: for every 32-bit register of
 * 1B00h-2EFFh, which bits exist, its reset value and the kind of its two
 * 16-bit halves.
 *
 * One static table. A row names the register by its symbol in
 * include/gpu3d/glamo-regs.h (an A_ constant, or one of the header's
 * array macros), so the table cannot disagree with the header and no
 * offset is written twice (docs/architecture.md, "Register tables"):
 *   REG(sym, ...)                 the register at sym
 *   HALVES(sym, ..., klo, khi)    the same, its 16-bit halves of two kinds
 *   SPAN(first, last, ...)        the registers first .. last, 4 bytes apart
 *   ARRAY(first, n, ...)          n registers from first, 4 bytes apart
 * Offsets that no row names are reserved (GLAMO_RK_NONE: read 0).
 *
 * Masks come from the field layouts of the reference (every field named,
 * "Reserved for" fields included, is storage; plain "Reserved" bits read 0).
 * Reset values: the reference gives "xx" for almost everything; those read
 * 0 after reset (docs/glamo-3d.md), the few it states are used as stated.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#define F24  0x00ffffffu
#define F32  0xffffffffu
#define A22  0x007ffffeu     /* A22..A1 base addresses */
#define ARGB6565 0xfcf8fcf8u /* A6 R5 G6 B5 */

#define IDX(off)  (((off) - GLAMO_REGOFS_3D) / 4)
#define ROW(mask, reset, klo, khi) \
    { (mask), (reset), GLAMO_RK_ ## klo, GLAMO_RK_ ## khi }
#define REG(sym, mask, reset, kind) \
    [IDX(sym)] = ROW(mask, reset, kind, kind)
#define HALVES(sym, mask, reset, klo, khi) \
    [IDX(sym)] = ROW(mask, reset, klo, khi)
#define SPAN(first, last, mask, reset, kind) \
    [IDX(first) ... IDX(last)] = ROW(mask, reset, kind, kind)
#define ARRAY(first, n, mask, reset, kind) \
    [IDX(first) ... IDX(first) + (n) - 1] = ROW(mask, reset, kind, kind)

/* a texture unit; `set`, `size`: the masks that differ between the two */
#define TEXTURE_UNIT(n, set, size) \
    REG(GLAMO_TX_BASE(n) + GLAMO_TX_SET, set, 0x00030000, RW), \
    REG(GLAMO_TX_BASE(n) + GLAMO_TX_FILT, 0xffffffef, 0, RW), \
    REG(GLAMO_TX_BASE(n) + GLAMO_TX_SIZE, size, 0, RW), \
    SPAN(GLAMO_TX_BASE(n) + GLAMO_TX_TRSH, GLAMO_TX_BASE(n) + GLAMO_TX_CTB, \
         ARGB6565, 0, RW), \
    ARRAY(GLAMO_TX_BASE(n) + GLAMO_TX_LBAS, GLAMO_TX_LEVELS, A22, 0, RW), \
    ARRAY(GLAMO_TX_BASE(n) + GLAMO_TX_LBAS_RSV, GLAMO_TX_LEVELS_RSV, \
          0xfffffffe, 0, RW), \
    ARRAY(GLAMO_TX_BASE(n) + GLAMO_TX_PITCH, GLAMO_TX_PITCHES, 0x0fff0fff, \
          0, RW), \
    REG(GLAMO_TX_BASE(n) + GLAMO_TX_PITCH_RSV, 0x00000fff, 0, RW)

/* vertex stream n's descriptor and base (L630-L713) */
#define STREAM(n) \
    REG(GLAMO_MGVSTRM_DESC(n), 0x00ff037f, 0, RW), \
    REG(GLAMO_MGVSTRM_BAS(n), 0x007fffff, 0, RW)

/* texture-blend stage s, colour and alpha units (L1135-L1218) */
#define BLEND_STAGE(s) \
    REG(GLAMO_TXCB(s) + GLAMO_TXB_MOD, F32, 0, RW), \
    REG(GLAMO_TXCB(s) + GLAMO_TXB_ARG, 0x7fffffff, 0, RW), \
    REG(GLAMO_TXAB(s) + GLAMO_TXB_MOD, F32, 0, RW), \
    REG(GLAMO_TXAB(s) + GLAMO_TXB_ARG, 0x7fffffff, 0, RW)

/* a material set (CW, CCW): R G B A floats with 8-bit alphas (L1480) */
#define MATERIAL(set) \
    SPAN((set) + GLAMO_MAT_DIFF, (set) + GLAMO_MAT_AMB_A - 4, F32, 0, RW), \
    REG((set) + GLAMO_MAT_AMB_A, 0x000000ff, 0, RW), \
    SPAN((set) + GLAMO_MAT_SPEC, (set) + GLAMO_MAT_EMIS_A - 4, F32, 0, RW), \
    REG((set) + GLAMO_MAT_EMIS_A, 0x000000ff, 0, RW)

const GlamoRegRow glamo_regs3d[GLAMO_REGS3D] = {
    /* G/L input vertex a (L1626-L1677); 1B1Ch reserved */
    SPAN(A_RGPXa, A_RGPNZa, F32, 0, RW),
    SPAN(A_RGPDIFFa, A_RGPNBa, F32, 0, RW),
    REG(A_RGPPSIZE, F32, 0, RW),
    /* transformed vertices a, b, c (L1679-L1743) */
    SPAN(GLAMO_RGX_VTX(0), GLAMO_RGX_VTX(3) - 4, F32, 0, RW),
    /* setup outputs (L1745-L1949) */
    REG(A_EGSXst, 0x800fffff, 0, RW),
    REG(A_EGSXstdy, 0x000fffff, 0, RW),
    REG(A_EGSYst, 0x000003ff, 0, RW),
    REG(A_EGSYcnt, 0x01ff01ff, 0, RW),
    SPAN(A_EGSXend, A_EGSXbtdy, 0x000fffff, 0, RW),
    SPAN(A_EGSZyst, A_EGSZdy, F24, 0, RW),
    SPAN(A_EGSAyst, A_EGSAdy, 0x00007fff, 0, RW),
    SPAN(A_EGSRyst, A_EGSRdy, 0x00003fff, 0, RW),
    SPAN(A_EGSGyst, A_EGSGdy, 0x00007fff, 0, RW),
    SPAN(A_EGSByst, A_EGSBdy, 0x00003fff, 0, RW),
    SPAN(A_EGSFyst, A_EGSFdy, 0x00007fff, 0, RW),
    SPAN(A_EGSSRyst, A_EGSSRdy, 0x00003fff, 0, RW),
    SPAN(A_EGSSGyst, A_EGSSGdy, 0x00007fff, 0, RW),
    SPAN(A_EGSSByst, A_EGSSBdy, 0x00003fff, 0, RW),
    SPAN(A_EGSWyst, A_EGSV1dy, F24, 0, RW),
    REG(A_EGSshft, 0x3fff3fff, 0, RW),
    REG(A_EGSLlimit, 0x03ff03ff, 0, RW),
    /* vertex defaults (L607-L628) */
    SPAN(A_RGXPosDefX, A_RGXNormDefZ, F32, 0, RW),
    SPAN(A_RGXDiffDef, A_RGXSpecDef, F32, 0, RW),
    SPAN(A_RGXTxADefU, A_RGXTxBDefQ, F32, 0, RW),
    /* stream table (L630-L713) */
    REG(A_MGVStreamActive, 0x000000ff, 0, RW),
    REG(A_MGVStrmCtl, 0x00000707, 0, RW),
    STREAM(0), STREAM(1), STREAM(2), STREAM(3),
    STREAM(4), STREAM(5), STREAM(6), STREAM(7),
    /* command buffer mode, parsing (L717-L741) */
    REG(A_MGStrmIndexMDBAS, A22, 0, RW),
    REG(A_RGTDWNum, 0x0fffffff, 0, RO),
    REG(A_MGTDWNum, F32, 0, RW),
    REG(A_MGBufCBMFire, 0x00030003, 0, TRIGGER),  /* and MGBufCMSFire */
    REG(A_RGPVDTex, 0xffff30df, 0, RW),
    REG(A_RGPDV, 0x8fffffff, 0, RW),
    /* primitive setting, fire, status (L744-L771) */
    REG(A_EGPrim0, 0xffff3fff, 0, RW),                 /* and EGPrim1 */
    REG(A_EGSTATUSA, F32, GLAMO_EGSTATUSA_ALL_IDLE, RO),  /* and B */
    HALVES(A_EGFIRE, F32, 0, TRIGGER, RO),          /* and EGSTATUSD */
    /* enables (L773-L835; default 00000000h) */
    REG(A_EGEN0, 0xff7fffff, 0, RW),
    REG(A_EGEN1, 0xf7ffff03, 0, RW),
    /* Z, alpha, destination 0 (L836-L852, L2571-L2750) */
    /* EGZBUFFM is D[26:20] (L2574): F1Z15 / F2Z14 need D[23:22] */
    REG(A_EGZSET, 0x07f703ff, 0, RW),
    REG(A_EGZWrMASK, F32, 0, RW),                   /* and EGZdstInitValue */
    REG(A_EGZBAS, A22, 0, RW),
    REG(A_EGATEST, 0x380007ff, 0, RW),
    REG(A_EGDST0SET, 0x0fff03ff, 0, RW),
    REG(A_EGD0CWrMASK, 0x0000ffff, 0, RW),
    REG(A_EGDST0BAS, A22, 0, RW),
    HALVES(A_EGSTIPSEL, 0x00008111, 0, RW, NONE),
    /* fog, stencil, blending, clip, scratch (L864-L930) */
    REG(A_EGFOGSET, 0x0fffffff, 0, RW),
    SPAN(A_EGFLEND, A_EGFLINVD, 0x0007ffff, 0, RW),
    REG(A_EGFDENST, 0xff03ffff, 0, RW),
    REG(A_EGSTSET, 0x3f00ffff, 0, RW),
    REG(A_EGSTOP, 0xff7773ff, 0, RW),
    REG(A_EGStBAS, A22, 0, RW),
    REG(A_EGBLSET, 0x7f1ff1ff, 0, RW),
    REG(A_EGBLCst, ARGB6565, 0, RW),
    SPAN(A_EGCLTB, A_EGCLLR, 0x03ff03ff, 0, RW),
    REG(A_EGABLFACT, 0x000001ff, 0, RW),
    SPAN(A_EGRerSRegA, A_EGRerSRegD, F32, 0, RW),
    /* stereo read-back, arbiter (L932-L966) */
    SPAN(A_EGSZsum, A_EGSZmin, F32, 0, RW),
    REG(A_EGSZfirecnt, 0x03ffffff, 0, RW),
    REG(A_EGARBTIM0, F32, 0, RW),
    REG(A_EGARBTIM1, 0x0000ffff, 0, RW),
    REG(A_EGARBTHR, 0x77777777, 0, RW),
    /* texture 0 (L968-L1034, L3071-L3380), texture 1 (L1036-L1133) */
    TEXTURE_UNIT(0, 0xffffff03, 0xdf1ff1ff),
    TEXTURE_UNIT(1, 0xffffff00, 0xf71ff1ff),
    /* texture blending (L1135-L1218) */
    SPAN(A_EGTXBLDFACT0, A_EGTXBLDFACT1, 0xfffcfefc, 0, RW),
    BLEND_STAGE(0), BLEND_STAGE(1),
    /* end-of-list strobes: summary 23E0h/23E2h, long form 23E0h/23E4h */
    REG(A_EGEND, 0xffff0003, 0, TRIGGER),           /* and EGPASEND */
    REG(A_EGPASENDL, F32, 0, TRIGGER),
    /* texture 0 palette (L1227-L1240), 16-bit entries */
    ARRAY(GLAMO_TX0_PALETTE, 256 / 2, F32, 0, RW),
    /* front end (L1242-L1381) */
    REG(A_RGXFEN0, F32, 0, RW),
    REG(A_RGXFEN1, 0x07ffff7f, 0, RW),
    REG(A_RGXFEN2, 0xfc00003f, 0, RW),
    REG(A_RGXFEN3, 0xdfd9fe00, 0, RW),
    REG(A_RGXFEN4, 0x0f0f7f30, 0, RW),
    REG(A_RGXFEN5, 0x000300ff, 0, RW),
    REG(A_RGPStrScale, F24, 0, RW),
    REG(A_RGPStrShift, 0x0f003fff, 0, RW),
    SPAN(A_RGXSlopeCoeff, A_RGPZClamp, F24, 0, RW),
    SPAN(A_RGXPtScaleA, A_RGXPtsize, F24, 0, RW),
    SPAN(A_RGPPtCLTB, A_RGPPtCLLR, 0x07ff07ff, 0, RW),
    REG(A_RGPLINE, 0x81111fff, 0, RW),
    SPAN(A_RGPLnRepeat, A_RGRCpHalf, F24, 0, RW),
    /* viewport and matrices (L1383-L1439) */
    SPAN(A_RGXScaleX, A_RGXOffsetZ, F24, 0, RW),
    SPAN(A_RGXR0T1MAT00, A_RGPUUserClipPlanVd, F24, 0, RW),
    /* texture matrices (L1441-L1479) */
    ARRAY(GLAMO_RGXTXMAT(0, 0, 0), 16, F24, 0, RW),
    ARRAY(GLAMO_RGXTXMAT(1, 0, 0), 16, F24, 0, RW),
    /* material (L1480-L1556); 2B00h D[10:0] resets to 0 */
    REG(A_RGXMATSRC, 0xfffcf300, 0, RW),
    REG(A_RGXLTYPE, 0xffff03ff, 0, RW),
    SPAN(A_RGSCWSDTh, A_RGSCCWSDTh, F24, 0, RW),
    MATERIAL(GLAMO_MAT_CW),
    SPAN(A_RGXCWMP, A_RGXFogDensity, F24, 0, RW),
    MATERIAL(GLAMO_MAT_CCW),
    SPAN(A_RGXCCWMP, A_RGXLaB, F24, 0, RW),
    /* lights 0-7, Type W (L1557-L1603) */
    SPAN(GLAMO_LIGHT(0), GLAMO_LIGHT(GLAMO_LIGHTS) - 4, F24, 0, WO),
};

bool glamo_is_3d(uint32_t off)
{
    return off >= GLAMO_REGOFS_3D && off < GLAMO_REGEND_3D;
}

/* the front engine's registers (parser, G/L, setup); the back end
 * ("Render") is EGEN0 (2100h) up to the front end's RGXFEN0 (2600h) */
bool glamo_is_front_reg(uint32_t off)
{
    return (off >= GLAMO_REGOFS_3D && off < A_EGEN0) || off >= A_RGXFEN0;
}
