/*
 * SMedia Glamo336x register space as the glamo-3d device exposes it in BAR0
 * (16 KiB of 16-bit registers; offsets are the chip's register addresses).
 *
 *   0x0000  generic: device id, interrupts, clocks and resets   [EXT] kernel
 *   0x0200  host bus (MMIO enables)                              [EXT] kernel
 *   0x1100  LCD controller                                       [EXT] kernel
 *   0x1600  command queue                                        [EXT] kernel
 *   0x1B00  3D engine, 0x1B00-0x2EFF           "Glamo3365 3D Engine" Rev 1.0
 *
 * 3D registers are named as the reference names them; a 32-bit register
 * X at address n is the pair X_L (n, D[15:0]) and X_H (n + 2, D[31:16]);
 * the A_ constant is the address of the low half. Fields are given on the
 * 32-bit value. "Lnnn" cites a line of specs/glamo3365-3d-engine.txt;
 * the other sources are listed in docs/references.md.
 *
 * Plain enums only: included by the core, the QEMU device, tests and
 * freestanding guests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_GLAMO_REGS_H
#define GPU3D_GLAMO_REGS_H

#include <stdint.h>
#include "gpu3d/regfields.h"

/* ---- device ------------------------------------------------------------ */

#define GLAMO_PCI_VENDOR_ID      0x1234
#define GLAMO_PCI_DEVICE_ID      0x3D03
#define GLAMO_REG_SIZE           0x4000        /* BAR0 */
#define GLAMO_VRAM_SIZE          0x800000      /* BAR2, 8 MiB, A22..A0 */
#define GLAMO_REGS_BAR           0             /* 32-bit MMIO */
#define GLAMO_VRAM_BAR           2             /* 64-bit prefetchable */
/* the GTA02's 480x640 panel: the console size while the LCD is off */
#define GLAMO_LCD_BLANK_WIDTH    480
#define GLAMO_LCD_BLANK_HEIGHT   640

/* Chip id the Linux glamo driver checks (glamo_supported()): 3362 core. */
#define GLAMO_CHIP_ID            0x3650
#define GLAMO_CHIP_REVISION      0x0002        /* A2 */

/* ---- generic block 0x0000 ([EXT] drivers/mfd/glamo/glamo-regs.h) ------ */

G3D_REG32(GLAMO_GCONF1,        0x0000)
G3D_REG32(GLAMO_DEVICE_ID,     0x0002)
G3D_REG32(GLAMO_REVISION_ID,   0x0004)
G3D_REG32(GLAMO_IRQ_ENABLE,    0x0006)
G3D_REG32(GLAMO_IRQ_SET,       0x0008)    /* write 1: raise that source */
G3D_REG32(GLAMO_IRQ_CLEAR,     0x000a)    /* write 1: clear that source */
G3D_REG32(GLAMO_IRQ_STATUS,    0x000c)
G3D_REG32(GLAMO_CLOCK_HOST,    0x0010)
G3D_REG32(GLAMO_CLOCK_MEMORY,  0x0012)
G3D_REG32(GLAMO_CLOCK_LCD,     0x0014)
G3D_REG32(GLAMO_CLOCK_MMC,     0x0016)
G3D_REG32(GLAMO_CLOCK_ISP,     0x0018)
G3D_REG32(GLAMO_CLOCK_JPEG,    0x001a)
G3D_REG32(GLAMO_CLOCK_3D,      0x001c)
G3D_REG32(GLAMO_CLOCK_2D,      0x001e)

/* interrupt sources (IRQ_* registers) */
enum {
    GLAMO_IRQ_HOSTBUS  = 1 << 0,
    GLAMO_IRQ_JPEG     = 1 << 1,
    GLAMO_IRQ_MPEG     = 1 << 2,
    GLAMO_IRQ_MPROC1   = 1 << 3,
    GLAMO_IRQ_MPROC0   = 1 << 4,
    GLAMO_IRQ_CMDQUEUE = 1 << 5,
    GLAMO_IRQ_2D       = 1 << 6,
    GLAMO_IRQ_MMC      = 1 << 7,
    GLAMO_IRQ_RISC     = 1 << 8,
    GLAMO_IRQ_ALL      = 0x1ff,
};

/* CLOCK_3D: the document's front (G/L, parser, setup) and back (render)
 * engines have separate resets. */
enum {
    GLAMO_CLOCK_3D_DG_ECLK     = 0x0001,
    GLAMO_CLOCK_3D_EN_ECLK     = 0x0002,
    GLAMO_CLOCK_3D_DG_RCLK     = 0x0004,
    GLAMO_CLOCK_3D_EN_RCLK     = 0x0008,
    GLAMO_CLOCK_3D_DG_M8CLK    = 0x0010,
    GLAMO_CLOCK_3D_EN_M8CLK    = 0x0020,
    GLAMO_CLOCK_3D_BACK_RESET  = 0x1000,
    GLAMO_CLOCK_3D_FRONT_RESET = 0x2000,
    GLAMO_CLOCK_3D_RUN = GLAMO_CLOCK_3D_EN_ECLK | GLAMO_CLOCK_3D_EN_RCLK |
                         GLAMO_CLOCK_3D_EN_M8CLK,
};

/* CLOCK_2D: the command queue is reset through the 2D clock register */
enum {
    GLAMO_CLOCK_2D_EN_M6CLK    = 0x0020,
    GLAMO_CLOCK_2D_RESET       = 0x1000,
    GLAMO_CLOCK_2D_CQ_RESET    = 0x2000,
};

/* CLOCK_LCD */
enum {
    GLAMO_CLOCK_LCD_EN_DCLK    = 0x0002,
    GLAMO_CLOCK_LCD_RESET      = 0x1000,
};

/* ---- host bus 0x0200 ---------------------------------------------------- */

#define GLAMO_REG_HOSTBUS(x)     (0x0200 - 2 + (x) * 2)
G3D_REG32(GLAMO_HOSTBUS2,      0x0202)
enum {
    GLAMO_HOSTBUS2_MMIO_EN_LCD = 0x0008,
    GLAMO_HOSTBUS2_MMIO_EN_CQ  = 0x0080,
    GLAMO_HOSTBUS2_MMIO_EN_2D  = 0x0200,
    GLAMO_HOSTBUS2_MMIO_EN_3D  = 0x0400,
};

/* ---- LCD controller 0x1100 ([EXT] glamo-regs.h, glamo-fb.c) ------------- */

#define GLAMO_REGOFS_LCD         0x1100
G3D_REG32(GLAMO_LCD_MODE1,           0x1100)
G3D_REG32(GLAMO_LCD_MODE2,           0x1102)
G3D_REG32(GLAMO_LCD_MODE3,           0x1104)
G3D_REG32(GLAMO_LCD_WIDTH,           0x1106)
G3D_REG32(GLAMO_LCD_HEIGHT,          0x1108)
G3D_REG32(GLAMO_LCD_POLARITY,        0x110a)
G3D_REG32(GLAMO_LCD_A_BASE1,         0x110c)   /* base A22..A0, bits 15:0 */
G3D_REG32(GLAMO_LCD_A_BASE2,         0x110e)   /* base bits 22:16 */
G3D_REG32(GLAMO_LCD_B_BASE1,         0x1110)
G3D_REG32(GLAMO_LCD_B_BASE2,         0x1112)
G3D_REG32(GLAMO_LCD_C_BASE1,         0x1114)
G3D_REG32(GLAMO_LCD_C_BASE2,         0x1116)
G3D_REG32(GLAMO_LCD_PITCH,           0x1118)   /* bytes, bits 10:1 */
G3D_REG32(GLAMO_LCD_HORIZ_TOTAL,     0x111c)
G3D_REG32(GLAMO_LCD_HORIZ_RETR_START, 0x1120)
G3D_REG32(GLAMO_LCD_HORIZ_RETR_END,  0x1124)
G3D_REG32(GLAMO_LCD_HORIZ_DISP_START, 0x1128)
G3D_REG32(GLAMO_LCD_HORIZ_DISP_END,  0x112c)
G3D_REG32(GLAMO_LCD_VERT_TOTAL,      0x1130)
G3D_REG32(GLAMO_LCD_VERT_RETR_START, 0x1134)
G3D_REG32(GLAMO_LCD_VERT_RETR_END,   0x1138)
G3D_REG32(GLAMO_LCD_VERT_DISP_START, 0x113c)
G3D_REG32(GLAMO_LCD_VERT_DISP_END,   0x1140)
G3D_REG32(GLAMO_LCD_STATUS1,         0x1180)
G3D_REG32(GLAMO_LCD_STATUS2,         0x1182)
G3D_REG32(GLAMO_LCD_COMMAND1,        0x11a0)
G3D_REG32(GLAMO_LCD_COMMAND2,        0x11a2)

enum {
    GLAMO_LCD_MODE1_ROTATE_EN  = 0x8000,
    GLAMO_LCD_DIM_MASK         = 0x03ff,     /* WIDTH, HEIGHT */
    GLAMO_LCD_ROT_MODE_MASK    = 0xe000,     /* in WIDTH */
    GLAMO_LCD_PITCH_MASK       = 0x07fe,
    GLAMO_LCD_BASE2_MASK       = 0x007f,
    GLAMO_LCD_SRC_MASK         = 0xc000,     /* in MODE3 */
    GLAMO_LCD_SRC_RGB565       = 0x0000,
    GLAMO_LCD_SRC_ARGB1555     = 0x4000,
    GLAMO_LCD_SRC_ARGB4444     = 0x8000,
};

/* ---- command queue 0x1600 ([EXT] glamo-regs.h, glamo-cmdq.c) ------------ */

#define GLAMO_REGOFS_CMDQ        0x1600
G3D_REG32(GLAMO_CMDQ_BASE_ADDRL,  0x1600)   /* ring base A15..A1 */
G3D_REG32(GLAMO_CMDQ_BASE_ADDRH,  0x1602)   /* ring base A22..A16 */
G3D_REG32(GLAMO_CMDQ_LEN,         0x1604)   /* ring size / 1 KiB - 1 */
G3D_REG32(GLAMO_CMDQ_WRITE_ADDRL, 0x1606)   /* byte offset in the ring; */
G3D_REG32(GLAMO_CMDQ_WRITE_ADDRH, 0x1608)   /*   writing L commits it   */
G3D_REG32(GLAMO_CMDQ_FLIP,        0x160a)
G3D_REG32(GLAMO_CMDQ_CONTROL,     0x160c)
G3D_REG32(GLAMO_CMDQ_READ_ADDRL,  0x160e)
G3D_REG32(GLAMO_CMDQ_READ_ADDRH,  0x1610)
G3D_REG32(GLAMO_CMDQ_STATUS,      0x1612)

enum {
    GLAMO_CMDQ_LEN_MASK        = 0x03ff,
    GLAMO_CMDQ_ADDRH_MASK      = 0x007f,
    /* STATUS: the driver waits for (STATUS & mask) == value */
    GLAMO_CMDQ_STATUS_EMPTY    = 0x0001,   /* read pointer == write pointer */
    GLAMO_CMDQ_STATUS_IDLE     = 0x0002,   /* no packet in flight */
    GLAMO_CMDQ_STATUS_ALL_IDLE = 0x0004,   /* every engine idle */
    GLAMO_CMDQ_STATUS_2D_BUSY  = 0x0010,
    GLAMO_CMDQ_STATUS_3D_BUSY  = 0x0020,
    GLAMO_CMDQ_STATUS_ISP_BUSY = 0x0100,
    GLAMO_CMDQ_STATUS_ERROR    = 0x8000,   /* project: a bad packet was skipped */
    /* CONTROL D[10:8] = 5 is the driver's "no interrupt" */
    GLAMO_CMDQ_CONTROL_IRQ_SHIFT = 8,
    GLAMO_CMDQ_CONTROL_NO_IRQ  = 5,
};

/*
 * Ring packets, 16-bit little-endian words, each packet a multiple of
 * 32 bits (glamo-cmdq.c / glamo-fence.c):
 *   reg, value                         write one register
 *   0x8000 | reg, count, v0 .. vN-1,   write count registers reg, reg+2, ...
 *     [pad word if 2 + count is odd]
 */
#define GLAMO_CMDQ_BURST         0x8000
#define GLAMO_CMDQ_REG_MASK      0x3ffe

/* ---- 2D engine 0x1700 ([EXT] xf86-video-glamo glamo-regs.h, glamo-draw.c) */

#define GLAMO_REGOFS_2D          0x1700
G3D_REG32(GLAMO_2D_SRC_ADDRL,   0x1700)   /* A15..A0 */
G3D_REG32(GLAMO_2D_SRC_ADDRH,   0x1702)   /* A22..A16 */
G3D_REG32(GLAMO_2D_SRC_PITCH,   0x1704)   /* bytes */
G3D_REG32(GLAMO_2D_SRC_X,       0x1706)
G3D_REG32(GLAMO_2D_SRC_Y,       0x1708)
G3D_REG32(GLAMO_2D_DST_X,       0x170a)
G3D_REG32(GLAMO_2D_DST_Y,       0x170c)
G3D_REG32(GLAMO_2D_DST_ADDRL,   0x170e)
G3D_REG32(GLAMO_2D_DST_ADDRH,   0x1710)
G3D_REG32(GLAMO_2D_DST_PITCH,   0x1712)
G3D_REG32(GLAMO_2D_DST_HEIGHT,  0x1714)
G3D_REG32(GLAMO_2D_RECT_WIDTH,  0x1716)
G3D_REG32(GLAMO_2D_RECT_HEIGHT, 0x1718)
G3D_REG32(GLAMO_2D_PAT_ADDRL,   0x171a)
G3D_REG32(GLAMO_2D_PAT_ADDRH,   0x171c)
G3D_REG32(GLAMO_2D_PAT_FG,      0x171e)   /* RGB565 */
G3D_REG32(GLAMO_2D_PAT_BG,      0x1720)
G3D_REG32(GLAMO_2D_SRC_FG,      0x1722)
G3D_REG32(GLAMO_2D_SRC_BG,      0x1724)
G3D_REG32(GLAMO_2D_COMMAND1,    0x173a)
G3D_REG32(GLAMO_2D_COMMAND2,    0x173c)   /* D[15:8] ROP3 */
G3D_REG32(GLAMO_2D_COMMAND3,    0x173e)   /* a write starts the operation */
G3D_REG32(GLAMO_2D_STATUS,      0x1742)
G3D_REG32(GLAMO_2D_ID1,         0x1744)
G3D_REG32(GLAMO_2D_ID2,         0x1746)
G3D_REG32(GLAMO_2D_ID3,         0x1748)
enum {
    GLAMO_2D_ADDRH_MASK  = 0x007f,
    GLAMO_2D_PITCH_MASK  = 0x07ff,
    /* ternary raster operations: bit (P << 2 | S << 1 | D) of the code */
    GLAMO_ROP3_PATCOPY   = 0xf0,
    GLAMO_ROP3_SRCCOPY   = 0xcc,
};

/* ---- 3D engine: G/L input vertex "a", 1B00h (L1626-L1677) ------------- */

#define GLAMO_REGOFS_3D          0x1b00
#define GLAMO_REGEND_3D          0x2f00

G3D_REG32(RGPXa,     0x1b00)    /* s[8].23 */
G3D_REG32(RGPYa,     0x1b04)
G3D_REG32(RGPZa,     0x1b08)
G3D_REG32(RGPWa,     0x1b0c)
G3D_REG32(RGPNXa,    0x1b10)
G3D_REG32(RGPNYa,    0x1b14)
G3D_REG32(RGPNZa,    0x1b18)
G3D_REG32(RGPDIFFa,  0x1b20)    /* packed ARGB8888, or R as s[8].23 */
G3D_REG32(RGPGa,     0x1b24)
G3D_REG32(RGPBa,     0x1b28)
G3D_REG32(RGPAa,     0x1b2c)
G3D_REG32(RGPSPECa,  0x1b30)    /* packed F,SR,SG,SB, or SR as s[8].23 */
G3D_REG32(RGPSGa,    0x1b34)
G3D_REG32(RGPSBa,    0x1b38)
G3D_REG32(RGPSFa,    0x1b3c)
G3D_REG32(RGPUAa,    0x1b40)
G3D_REG32(RGPVAa,    0x1b44)
G3D_REG32(RGPMAa,    0x1b48)
G3D_REG32(RGPNAa,    0x1b4c)
G3D_REG32(RGPUBa,    0x1b50)
G3D_REG32(RGPVBa,    0x1b54)
G3D_REG32(RGPMBa,    0x1b58)
G3D_REG32(RGPNBa,    0x1b5c)
G3D_REG32(RGPPSIZE,  0x1b80)

/* ---- transformed vertices a/b/c, 1C00h (L1679-L1744) ------------------- */

#define GLAMO_RGX_VTX(n)         (0x1c00 + 0x30 * (n))   /* n = 0 a, 1 b, 2 c */
enum {
    GLAMO_RGX_X = 0x00, GLAMO_RGX_Y = 0x04, GLAMO_RGX_Z = 0x08,
    GLAMO_RGX_W = 0x0c, GLAMO_RGX_ARGB = 0x10, GLAMO_RGX_FSPEC = 0x14,
    GLAMO_RGX_UA = 0x18, GLAMO_RGX_VA = 0x1c, GLAMO_RGX_UB = 0x20,
    GLAMO_RGX_VB = 0x24, GLAMO_RGX_PSIZE = 0x28,
};
G3D_REG32(RGXXa,     0x1c00)
G3D_REG32(RGXXb,     0x1c30)
G3D_REG32(RGXXc,     0x1c60)
/* Texture-1 palette shares 1C00h-1DFFh (reference defect GLAMO-12,
 * docs/references.md; see docs) */
#define GLAMO_TX1_PALETTE        0x1c00
#define GLAMO_TX0_PALETTE        0x2400

/* ---- setup outputs 1CA0h-1D73h (L1745-L1949) ---------------------------- */

G3D_REG32(EGSXst,    0x1ca0)   /* D[31] EGSDrawDIR, D[19:0] s9.10 */
G3D_FIELD(EGSXst, DRAWDIR, 31, 1)
G3D_REG32(EGSXstdy,  0x1ca4)
G3D_REG32(EGSYst,    0x1ca8)
G3D_REG32(EGSYcnt,   0x1cac)   /* D[24:16] EGSYbcnt, D[8:0] EGSYtcnt */
G3D_REG32(EGSXend,   0x1cb0)
G3D_REG32(EGSXendy,  0x1cb4)
G3D_REG32(EGSXbt,    0x1cb8)
G3D_REG32(EGSXbtdy,  0x1cbc)
G3D_REG32(EGSZyst,   0x1cc0)
G3D_REG32(EGSZdx,    0x1cc4)
G3D_REG32(EGSZdy,    0x1cc8)
G3D_REG32(EGSAyst,   0x1ccc)
G3D_REG32(EGSAdx,    0x1cd0)
G3D_REG32(EGSAdy,    0x1cd4)
G3D_REG32(EGSRyst,   0x1cdc)
G3D_REG32(EGSRdx,    0x1ce0)
G3D_REG32(EGSRdy,    0x1ce4)
G3D_REG32(EGSGyst,   0x1ce8)
G3D_REG32(EGSGdx,    0x1cec)
G3D_REG32(EGSGdy,    0x1cf0)
G3D_REG32(EGSByst,   0x1cf4)
G3D_REG32(EGSBdx,    0x1cf8)
G3D_REG32(EGSBdy,    0x1cfc)
G3D_REG32(EGSFyst,   0x1d00)
G3D_REG32(EGSFdx,    0x1d04)
G3D_REG32(EGSFdy,    0x1d08)
G3D_REG32(EGSSRyst,  0x1d0c)
G3D_REG32(EGSSRdx,   0x1d10)
G3D_REG32(EGSSRdy,   0x1d14)
G3D_REG32(EGSSGyst,  0x1d18)
G3D_REG32(EGSSGdx,   0x1d1c)
G3D_REG32(EGSSGdy,   0x1d20)
G3D_REG32(EGSSByst,  0x1d24)
G3D_REG32(EGSSBdx,   0x1d28)
G3D_REG32(EGSSBdy,   0x1d2c)
G3D_REG32(EGSWyst,   0x1d30)
G3D_REG32(EGSWdx,    0x1d34)
G3D_REG32(EGSWdy,    0x1d38)
G3D_REG32(EGSU0yst,  0x1d3c)
G3D_REG32(EGSU0dx,   0x1d40)
G3D_REG32(EGSU0dy,   0x1d44)
G3D_REG32(EGSV0yst,  0x1d48)
G3D_REG32(EGSV0dx,   0x1d4c)
G3D_REG32(EGSV0dy,   0x1d50)
G3D_REG32(EGSU1yst,  0x1d54)
G3D_REG32(EGSU1dx,   0x1d58)
G3D_REG32(EGSU1dy,   0x1d5c)
G3D_REG32(EGSV1yst,  0x1d60)
G3D_REG32(EGSV1dx,   0x1d64)
G3D_REG32(EGSV1dy,   0x1d68)
G3D_REG32(EGSshft,   0x1d6c)   /* D[29:16] EGSYshft, D[13:0] EGSXshft, s9.4 */
G3D_REG32(EGSLlimit, 0x1d70)   /* D[25:16] EGSLlimit, D[9:0] EGSLRlimit */

/* ---- vertex defaults 1E00h (L607-L628) ---------------------------------- */

G3D_REG32(RGXPosDefX,  0x1e00)
G3D_REG32(RGXPosDefY,  0x1e04)
G3D_REG32(RGXPosDefZ,  0x1e08)
G3D_REG32(RGXPosDefW,  0x1e0c)
G3D_REG32(RGXNormDefX, 0x1e10)
G3D_REG32(RGXNormDefY, 0x1e14)
G3D_REG32(RGXNormDefZ, 0x1e18)
G3D_REG32(RGXDiffDef,  0x1e20)   /* ARGB8888 */
G3D_REG32(RGXSpecDef,  0x1e24)   /* F,SR,SG,SB 8888 */
G3D_REG32(RGXTxADefU,  0x1e30)
G3D_REG32(RGXTxADefV,  0x1e34)
G3D_REG32(RGXTxADefW,  0x1e38)
G3D_REG32(RGXTxADefQ,  0x1e3c)
G3D_REG32(RGXTxBDefU,  0x1e40)
G3D_REG32(RGXTxBDefV,  0x1e44)
G3D_REG32(RGXTxBDefW,  0x1e48)
G3D_REG32(RGXTxBDefQ,  0x1e4c)

/* ---- vertex stream table 1F00h (L630-L713, L1952-L2206) ---------------- */

G3D_REG32(MGVStreamActive, 0x1f00)
/* summary's placement (reference defect GLAMO-18, docs/references.md) */
G3D_REG32(MGVStrmCtl,      0x1f0c)
G3D_FIELD(MGVStrmCtl, MGVLastStrmNum,     8, 3)
G3D_FIELD(MGVStrmCtl, MGVen8bitStrmIndex, 2, 1)
G3D_FIELD(MGVStrmCtl, MGVenStrmIndexMode, 1, 1)
G3D_FIELD(MGVStrmCtl, MGVtxColorfmt,      0, 1)
#define GLAMO_MGVSTRM_DESC(n)    (0x1f10 + 8 * (n))
#define GLAMO_MGVSTRM_BAS(n)     (0x1f14 + 8 * (n))
G3D_REG32(MGVStrm0Desc,    0x1f10)
G3D_FIELD(MGVStrm0Desc, Stride,    16, 8)
G3D_FIELD(MGVStrm0Desc, DataDim,    8, 2)   /* components - 1 */
G3D_FIELD(MGVStrm0Desc, DataType,   4, 3)
G3D_FIELD(MGVStrm0Desc, ArrayType,  0, 4)
G3D_REG32(MGVStrm0BAS,     0x1f14)          /* D[22:0] bytes */

enum {   /* MGVStrmnDataType */
    GLAMO_VTYPE_FLOAT = 0, GLAMO_VTYPE_SHORT = 1, GLAMO_VTYPE_FIXED = 2,
    GLAMO_VTYPE_SBYTE = 3, GLAMO_VTYPE_UBYTE = 4,
};
enum {   /* MGVStrmnArrayType */
    GLAMO_VARRAY_POSITION = 0, GLAMO_VARRAY_NORMAL = 1,
    GLAMO_VARRAY_DIFFUSE = 2, GLAMO_VARRAY_SPECULAR = 3,
    GLAMO_VARRAY_TEXA = 4, GLAMO_VARRAY_TEXB = 5, GLAMO_VARRAY_TEXC = 6,
    GLAMO_VARRAY_TEXD = 7, GLAMO_VARRAY_PSIZE = 8,
};

/* ---- command buffer, parsing, primitive, fire 2030h-205Bh -------------- */

G3D_REG32(MGStrmIndexMDBAS, 0x2030)   /* D[22:1]: index buffer, bytes */
G3D_REG32(RGTDWNum,         0x2034)   /* read: remaining vertices of the list */
G3D_REG32(MGTDWNum,         0x2038)
G3D_REG32(MGBufCBMFire,     0x203c)   /* 16-bit, write: start the parser */
G3D_REG32(MGBufCMSFire,     0x203e)   /* 16-bit, write: command mode */
enum {
    GLAMO_CBM_BUFFER = 0, GLAMO_CBM_STREAM_INDEX = 3,
    GLAMO_CMS_BUFFER = 0, GLAMO_CMS_INDEX = 1, GLAMO_CMS_PACKET = 2,
    GLAMO_CMS_STREAM_INDEX = 3,
};
G3D_REG32(RGPVDTex,         0x2040)
G3D_FIELD(RGPVDTex, RGPVDTexCoordSet, 28, 4)
G3D_FIELD(RGPVDTex, RGPVDTexCnt,      12, 2)
G3D_REG32(RGPDV,            0x2044)
G3D_FIELD(RGPDV, RGPDVNum,  20, 8)    /* bytes per vertex */
G3D_FIELD(RGPDV, RGTVerNum,  0, 20)   /* vertices per list */
G3D_REG32(EGPrim0,          0x2050)   /* 16-bit */
G3D_FIELD(EGPrim0, EGPCCWFillMode, 12, 2)
G3D_FIELD(EGPrim0, EGT0FROM,       10, 2)
G3D_FIELD(EGPrim0, EGT1FROM,        8, 2)
G3D_FIELD(EGPrim0, EGParMode,       2, 2)
G3D_FIELD(EGPrim0, EGFillMode,      0, 2)
G3D_REG32(EGPrim1,          0x2052)   /* 16-bit */
G3D_FIELD(EGPrim1, EGSETFIRE,       8, 5)
G3D_FIELD(EGPrim1, EGLLPixel,       5, 1)
G3D_FIELD(EGPrim1, EGPDTYPE,        0, 5)
enum {
    GLAMO_FILL_POINT = 1, GLAMO_FILL_WIRE = 2, GLAMO_FILL_SOLID = 3,
};
enum {   /* EGPDTYPE (L2347-L2361) */
    GLAMO_PRIM_POINTS = 0x00, GLAMO_PRIM_LINES = 0x04, GLAMO_PRIM_LINES2 = 0x14,
    GLAMO_PRIM_LINE_STRIP = 0x05, GLAMO_PRIM_TRIANGLES = 0x08,
    GLAMO_PRIM_TRIANGLES2 = 0x18, GLAMO_PRIM_TRIANGLE_STRIP = 0x09,
    GLAMO_PRIM_TRIANGLE_FAN = 0x0a,
};
G3D_REG32(EGSTATUSA,        0x2054)   /* 16-bit, read */
G3D_FIELD(EGSTATUSA, EGAGPCMIDLE, 9, 1)
G3D_FIELD(EGSTATUSA, EGDRAWDIR,   8, 1)
G3D_FIELD(EGSTATUSA, EGPotIDLE,   7, 1)
G3D_FIELD(EGSTATUSA, EGBldIDLE,   6, 1)
G3D_FIELD(EGSTATUSA, EGZIDLE,     5, 1)
G3D_FIELD(EGSTATUSA, EGTxIDLE,    4, 1)
G3D_FIELD(EGSTATUSA, EGShaIDLE,   3, 1)
G3D_FIELD(EGSTATUSA, EGSetIDLE,   2, 1)
G3D_FIELD(EGSTATUSA, EG3dQidle,   1, 1)
G3D_FIELD(EGSTATUSA, EG3DIDLE,    0, 1)
#define GLAMO_EGSTATUSA_ALL_IDLE 0x02ff
G3D_REG32(EGSTATUSB,        0x2056)
G3D_REG32(EGFIRE,           0x2058)   /* write: fire; read: EGSTATUSC */
G3D_REG32(EGSTATUSD,        0x205a)

/* ---- back end ("Render") 2100h-23E7h ------------------------------------ */

G3D_REG32(EGEN0,            0x2100)   /* enable settings (L2411) */
G3D_FIELD(EGEN0, EGTXWCF,         24, 8)
G3D_FIELD(EGEN0, EGenStT,         22, 1)
G3D_FIELD(EGEN0, EGenCubMp,       21, 1)
G3D_FIELD(EGEN0, EGenZW,          20, 1)
G3D_FIELD(EGEN0, EGenZT,          19, 1)
G3D_FIELD(EGEN0, EGenNoTriAli,    18, 1)
G3D_FIELD(EGEN0, EGenAT,          17, 1)
G3D_FIELD(EGEN0, EGenZnoClear,    16, 1)
G3D_FIELD(EGEN0, EGenTXSwiz,      15, 1)
G3D_FIELD(EGEN0, EGTXNUM,         12, 3)
G3D_FIELD(EGEN0, EGenCull,        11, 1)
G3D_FIELD(EGEN0, EGenTXMP,        10, 1)
G3D_FIELD(EGEN0, EGenTXPP,         9, 1)
G3D_FIELD(EGEN0, EGenLNLTurboMode, 8, 1)
G3D_FIELD(EGEN0, EGenTxCache,      7, 1)
G3D_FIELD(EGEN0, EGenTxCLRCache,   6, 1)
G3D_FIELD(EGEN0, EGenStBuf,        5, 1)
G3D_FIELD(EGEN0, EGenSPEC,         4, 1)
G3D_FIELD(EGEN0, EGenFOG,          3, 1)
G3D_FIELD(EGEN0, EGenAALine,       2, 1)
G3D_FIELD(EGEN0, EGenBLEND,        1, 1)
G3D_FIELD(EGEN0, EGenDITH,         0, 1)
G3D_REG32(EGEN1,            0x2104)
G3D_FIELD(EGEN1, EGenTX3TR,       31, 1)
G3D_FIELD(EGEN1, EGenTX2TR,       30, 1)
G3D_FIELD(EGEN1, EGenTX1TR,       29, 1)
G3D_FIELD(EGEN1, EGenTX0TR,       28, 1)
G3D_FIELD(EGEN1, EGenYLowR,       26, 1)
G3D_FIELD(EGEN1, EGenWNorm,       25, 1)
G3D_FIELD(EGEN1, EGenZBias,       24, 1)
G3D_FIELD(EGEN1, EGenCWrMask,     23, 1)
G3D_FIELD(EGEN1, EGenZWrMask,     22, 1)
G3D_FIELD(EGEN1, EGenPolygOffset, 21, 1)
G3D_FIELD(EGEN1, EGenNoZMerge,    20, 1)
G3D_FIELD(EGEN1, EGenMIPBS,       19, 1)
G3D_FIELD(EGEN1, EGenUseSpec,     18, 1)
G3D_FIELD(EGEN1, EGenTXBl,        17, 1)
G3D_FIELD(EGEN1, EGenXYZZeroCnt,  16, 1)
G3D_FIELD(EGEN1, EGenPolyStipple, 15, 1)
G3D_FIELD(EGEN1, EGenAAPoint,     14, 1)
G3D_FIELD(EGEN1, EGenAALineAT,    13, 1)
G3D_FIELD(EGEN1, EGenStereo,      12, 1)
G3D_FIELD(EGEN1, EGenLineStipple, 11, 1)
G3D_FIELD(EGEN1, EGenStWrMask,    10, 1)
G3D_FIELD(EGEN1, EGenInvDITH,      9, 1)
G3D_FIELD(EGEN1, EGenxturbotri,    8, 1)
G3D_FIELD(EGEN1, EGTX1magminSWflg, 1, 1)
G3D_FIELD(EGEN1, EGTX0magminSWflg, 0, 1)

G3D_REG32(EGZSET,           0x2108)
G3D_FIELD(EGZSET, EGZBUFFM, 20, 7)
G3D_FIELD(EGZSET, EGZTMD,   16, 3)
G3D_FIELD(EGZSET, EGZPIT,    0, 10)
enum {
    GLAMO_ZFMT_Z16 = 0x00, GLAMO_ZFMT_F1Z15 = 0x08, GLAMO_ZFMT_F2Z14 = 0x0c,
    GLAMO_ZFMT_FLOAT511 = 0x10,
};
G3D_REG32(EGZWrMASK,        0x210c)   /* 16-bit */
G3D_REG32(EGZdstInitValue,  0x210e)   /* 16-bit */
G3D_REG32(EGZBAS,           0x2110)   /* D[22:1] */
G3D_REG32(EGATEST,          0x2114)
G3D_FIELD(EGATEST, EGABUFFM, 28, 2)
G3D_FIELD(EGATEST, EGAINSY,  27, 1)
G3D_FIELD(EGATEST, EGATMD,    8, 3)
G3D_FIELD(EGATEST, EGAREF,    0, 8)
G3D_REG32(EGDST0SET,        0x2120)
G3D_FIELD(EGDST0SET, EGDST0ROP,  24, 4)
G3D_FIELD(EGDST0SET, EGDST0INSY, 23, 1)
G3D_FIELD(EGDST0SET, EGDST0CFM,  16, 7)
G3D_FIELD(EGDST0SET, EGDST0PIT,   0, 10)
enum {   /* EGDST0CFM, the implemented 16 bpp codes (L2694-L2740) */
    GLAMO_CFM_RGB555 = 0x10, GLAMO_CFM_RGB565 = 0x11, GLAMO_CFM_ARGB1555 = 0x12,
    GLAMO_CFM_ARGB4444 = 0x13, GLAMO_CFM_BGR555 = 0x50, GLAMO_CFM_BGR565 = 0x51,
    GLAMO_CFM_ABGR1555 = 0x52, GLAMO_CFM_ABGR4444 = 0x53,
};
enum { GLAMO_ROP_COPY_PEN = 0xc };
G3D_REG32(EGD0CWrMASK,      0x2124)
G3D_REG32(EGDST0BAS,        0x2128)   /* D[22:1] */
G3D_REG32(EGSTIPSEL,        0x2138)   /* 16-bit */
G3D_FIELD(EGSTIPSEL, EGPolyStippleTxDir, 15, 1)
G3D_FIELD(EGSTIPSEL, EGStippleTxSel,      8, 1)
G3D_FIELD(EGSTIPSEL, EGAALineTxSel,       4, 1)
G3D_FIELD(EGSTIPSEL, EGAAPointTxSel,      0, 1)
G3D_REG32(EGFOGSET,         0x213c)
G3D_FIELD(EGFOGSET, EGFOGZT, 27, 1)
G3D_FIELD(EGFOGSET, EGFOGMD, 24, 3)
G3D_FIELD(EGFOGSET, EGFOGC,   0, 24)
enum {
    GLAMO_FOG_CONSTANT = 0, GLAMO_FOG_NORMAL = 4, GLAMO_FOG_LINEAR = 5,
    GLAMO_FOG_EXP = 6, GLAMO_FOG_EXP2 = 7,
};
G3D_REG32(EGFLEND,          0x2140)   /* s[7].10 in D[17:0] */
G3D_REG32(EGFLINVD,         0x2144)
G3D_REG32(EGFDENST,         0x2148)
G3D_FIELD(EGFDENST, EGFOGF,   24, 8)
G3D_FIELD(EGFDENST, EGFDENST,  0, 18)
G3D_REG32(EGSTSET,          0x2150)
G3D_FIELD(EGSTSET, EGStBUFFM, 28, 2)
G3D_FIELD(EGSTSET, EGStINSY,  27, 1)
G3D_FIELD(EGSTSET, EGStTMD,   24, 3)
G3D_FIELD(EGSTSET, EGStREF,    8, 8)
G3D_FIELD(EGSTSET, EGStMASK,   0, 8)
G3D_REG32(EGSTOP,           0x2154)
G3D_FIELD(EGSTOP, EGStWrMASK, 24, 8)
G3D_FIELD(EGSTOP, EGStFAIL,   20, 3)
G3D_FIELD(EGSTOP, EGStZFAIL,  16, 3)
G3D_FIELD(EGSTOP, EGStZPASS,  12, 3)
G3D_FIELD(EGSTOP, EGStPIT,     0, 10)
G3D_REG32(EGStBAS,          0x2158)   /* D[22:1] */
G3D_REG32(EGBLSET,          0x215c)
G3D_FIELD(EGBLSET, EGenABLSepSet, 30, 1)
G3D_FIELD(EGBLSET, EGABLEqMode,   27, 3)
G3D_FIELD(EGBLSET, EGCBLEqMode,   24, 3)
G3D_FIELD(EGBLSET, EGDDstAl,      12, 9)
G3D_FIELD(EGBLSET, EGCBLSRC,       4, 5)
G3D_FIELD(EGBLSET, EGCBLDST,       0, 4)
enum {   /* blend equations (L2875-L2890); 100 is read as the missing slot */
    GLAMO_BLEQ_ADD = 0, GLAMO_BLEQ_SUB = 1, GLAMO_BLEQ_MAX = 2,
    GLAMO_BLEQ_MIN = 3, GLAMO_BLEQ_REVSUB = 5,
};
G3D_REG32(EGBLCst,          0x2160)   /* A6 D[31:26] R5 D[23:19] G6 D[15:10] B5 D[7:3] */
G3D_REG32(EGCLTB,           0x2164)
G3D_FIELD(EGCLTB, EGCLTop, 16, 10)
G3D_FIELD(EGCLTB, EGCLBot,  0, 10)
G3D_REG32(EGCLLR,           0x2168)
G3D_FIELD(EGCLLR, EGCLLeft, 16, 10)
G3D_FIELD(EGCLLR, EGCLrgt,   0, 10)
G3D_REG32(EGABLFACT,        0x216c)
G3D_FIELD(EGABLFACT, EGABLSRC, 4, 5)
G3D_FIELD(EGABLFACT, EGABLDST, 0, 4)
G3D_REG32(EGRerSRegA,       0x2170)
G3D_REG32(EGRerSRegB,       0x2174)
G3D_REG32(EGRerSRegC,       0x2178)
G3D_REG32(EGRerSRegD,       0x217c)
G3D_REG32(EGSZsum,          0x2180)
G3D_REG32(EGSZmax,          0x2184)
G3D_REG32(EGSZmin,          0x2188)
G3D_REG32(EGSZfirecnt,      0x218c)
G3D_REG32(EGARBTIM0,        0x2190)
G3D_REG32(EGARBTIM1,        0x2194)
G3D_REG32(EGARBTHR,         0x2198)

/* texture unit n (0, 1): texture 1 is texture 0 + 60h (L968-L1133) */
#define GLAMO_TX_BASE(n)         (0x21a0 + 0x60 * (n))
G3D_REG32(EGTX0SET,         0x21a0)
G3D_FIELD(EGTX0SET, EGTXFM,      24, 8)
G3D_FIELD(EGTX0SET, EGTXMPMD,    16, 8)   /* U D[18:16], V D[21:19] */
G3D_FIELD(EGTX0SET, EGTXSwizFlg, 15, 1)
G3D_FIELD(EGTX0SET, EGTXLV,       8, 4)
G3D_FIELD(EGTX0SET, EGTXBlStNum,  0, 2)   /* texture 0 only */
G3D_REG32(EGTX0FILT,        0x21a4)
G3D_FIELD(EGTX0FILT, EGTXFLMAX, 18, 2)
G3D_FIELD(EGTX0FILT, EGTXFLMIF, 15, 3)
G3D_FIELD(EGTX0FILT, EGTXMLBS,   5, 10)
G3D_REG32(EGTX0SIZE,        0x21a8)
G3D_FIELD(EGTX0SIZE, EGTXTRSMOD,    30, 2)   /* texture 0 only */
G3D_FIELD(EGTX0SIZE, EGTXTRSHratio, 24, 5)   /* texture 0 only */
G3D_FIELD(EGTX0SIZE, EGTXW,         12, 9)
G3D_FIELD(EGTX0SIZE, EGTXH,          0, 9)
G3D_REG32(EGTX0TRSH,        0x21ac)   /* A6 R5 G6 B5 */
G3D_REG32(EGTX0TRSL,        0x21b0)
G3D_REG32(EGTX0CTB,         0x21b4)   /* border colour */
G3D_REG32(EGTX0L0BAS,       0x21b8)   /* level i at + 4i, D[22:1] */
G3D_REG32(EGTX0L01PITCH,    0x21e8)   /* pitch = m * 2^e, levels paired */
enum {
    GLAMO_TX_SET = 0x00, GLAMO_TX_FILT = 0x04, GLAMO_TX_SIZE = 0x08,
    GLAMO_TX_TRSH = 0x0c, GLAMO_TX_TRSL = 0x10, GLAMO_TX_CTB = 0x14,
    GLAMO_TX_LBAS = 0x18, GLAMO_TX_PITCH = 0x48,
    GLAMO_TX_LBAS_RSV = 0x3c,    /* "Reserved for" level 9-11 bases */
    GLAMO_TX_PITCH_RSV = 0x5c,   /* "Reserved for" the level 10 pitch */
};
#define GLAMO_TX_LEVELS          9     /* level bases the engine uses */
#define GLAMO_TX_LEVELS_RSV      3
#define GLAMO_TX_PITCHES         5     /* level pairs 0/1 .. 8/9 */
enum {   /* EGTXnMPMD per coordinate */
    GLAMO_TXADDR_BORDER = 0, GLAMO_TXADDR_WRAP = 1, GLAMO_TXADDR_MIRROR = 2,
    GLAMO_TXADDR_CLAMP = 3,
};
G3D_REG32(EGTX1SET,         0x2200)

G3D_REG32(EGTXBLDFACT0,     0x2330)
G3D_REG32(EGTXBLDFACT1,     0x2334)
/* combiner: colour stage s at 2350h + 8s, alpha stage s at 2390h + 8s */
#define GLAMO_TXCB(s)            (0x2350 + 8 * (s))
#define GLAMO_TXAB(s)            (0x2390 + 8 * (s))
#define GLAMO_TX_STAGES          2
enum { GLAMO_TXB_MOD = 0x0, GLAMO_TXB_ARG = 0x4 };   /* within a stage */
G3D_REG32(EGTXCBS0MOD,      0x2350)
G3D_FIELD(EGTXCBS0MOD, R1ARGIMod, 28, 4)
G3D_FIELD(EGTXCBS0MOD, R2ARGIMod, 24, 4)
G3D_FIELD(EGTXCBS0MOD, R3ARGIMod, 20, 4)
G3D_FIELD(EGTXCBS0MOD, R4ARGIMod, 16, 4)
G3D_FIELD(EGTXCBS0MOD, C0WMsk,    13, 3)
G3D_FIELD(EGTXCBS0MOD, C0OMod,     8, 5)
G3D_FIELD(EGTXCBS0MOD, C1WMsk,     5, 3)
G3D_FIELD(EGTXCBS0MOD, C1OMod,     0, 5)
G3D_REG32(EGTXCBS0ARG,      0x2354)
G3D_FIELD(EGTXCBS0ARG, R1ARG, 25, 6)
G3D_FIELD(EGTXCBS0ARG, ROPC,  22, 3)
G3D_FIELD(EGTXCBS0ARG, R2ARG, 16, 6)
G3D_FIELD(EGTXCBS0ARG, ROPB,  14, 2)
G3D_FIELD(EGTXCBS0ARG, R3ARG,  8, 6)
G3D_FIELD(EGTXCBS0ARG, ROPA,   6, 2)
G3D_FIELD(EGTXCBS0ARG, R4ARG,  0, 6)
enum {   /* combiner argument selectors, bits 4:0 (L3800-L3830) */
    GLAMO_TXARG_ZERO = 0x00, GLAMO_TXARG_CUR1 = 0x01, GLAMO_TXARG_DIFFUSE = 0x03,
    GLAMO_TXARG_SPECULAR = 0x04, GLAMO_TXARG_CUR0 = 0x05, GLAMO_TXARG_TEX0 = 0x06,
    GLAMO_TXARG_TEX1 = 0x07, GLAMO_TXARG_FACT0 = 0x12, GLAMO_TXARG_FACT1 = 0x13,
    GLAMO_TXARG_REPLICATE = 0x20,
};
enum {   /* ROPA/ROPB and ROPC */
    GLAMO_TXOP_DP3 = 0, GLAMO_TXOP_DP4 = 1, GLAMO_TXOP_MUL = 2,
    GLAMO_TXOPC_NOP = 0, GLAMO_TXOPC_CND_A = 1, GLAMO_TXOPC_CMP = 2,
    GLAMO_TXOPC_ADD = 3, GLAMO_TXOPC_SUB = 4, GLAMO_TXOPC_CND_B = 5,
    GLAMO_TXOPC_ADD_SAT = 6, GLAMO_TXOPC_SUB_SAT = 7,
};
enum {   /* current 0/1 write selects */
    GLAMO_TXW_NONE = 0, GLAMO_TXW_OPA = 1, GLAMO_TXW_OPB = 2, GLAMO_TXW_OPC = 3,
};
enum {   /* output modifier: bit 4 bias, bits 3:1 scale, bit 0 saturate */
    GLAMO_TXOMOD_SAT = 0x01,
};
G3D_REG32(EGTXABS0MOD,      0x2390)
G3D_REG32(EGTXABS0ARG,      0x2394)

G3D_REG32(EGEND,            0x23e0)   /* 16-bit strobe, D[1:0] */
G3D_REG32(EGPASEND,         0x23e2)   /* 16-bit strobe (summary placement) */
G3D_REG32(EGPASENDL,        0x23e4)   /* its long-form placement, 23E4h-23E7h */

/* ---- front end 2600h-2747h (L1242-L1439) -------------------------------- */

G3D_REG32(RGXFEN0,          0x2600)   /* parser / xform / cull */
G3D_FIELD(RGXFEN0, RGXSpecUseDef,     28, 4)
G3D_FIELD(RGXFEN0, RGXDiffUseDef,     24, 4)
G3D_FIELD(RGXFEN0, RGXPosUseDef,      20, 4)
G3D_FIELD(RGXFEN0, RGXTexBUseDef,     16, 4)
G3D_FIELD(RGXFEN0, RGXNormUseDef,     15, 1)
G3D_FIELD(RGXFEN0, RGXen2SideFill,    14, 1)
G3D_FIELD(RGXFEN0, RGXScrCoor,        13, 1)
G3D_FIELD(RGXFEN0, RGXEnableTwoSide,  12, 1)
G3D_FIELD(RGXFEN0, RGPPtSizeSel,      11, 1)
G3D_FIELD(RGXFEN0, RGXDisableCull,    10, 1)
G3D_FIELD(RGXFEN0, RGXDisableReject,   9, 1)
G3D_FIELD(RGXFEN0, RGXDisableZeroTest, 8, 1)
G3D_FIELD(RGXFEN0, RGXTexAUseDef,      4, 4)
G3D_FIELD(RGXFEN0, RGPenTexGen,        3, 1)
G3D_FIELD(RGXFEN0, RGPenTexTransform,  2, 1)
G3D_FIELD(RGXFEN0, RGPenXformProjTX,   1, 1)
G3D_FIELD(RGXFEN0, RGPenVtxCache,      0, 1)
G3D_REG32(RGXFEN1,          0x2604)   /* lighting */
G3D_FIELD(RGXFEN1, RGXenDX7Light,    26, 1)
G3D_FIELD(RGXFEN1, RGXenLighting,    25, 1)
G3D_FIELD(RGXFEN1, RXLighEnable,     15, 8)   /* light n at D[15 + n] */
G3D_FIELD(RGXFEN1, RGXenOpenGLLight, 14, 1)
G3D_FIELD(RGXFEN1, RGXVDNormX,       13, 1)
G3D_FIELD(RGXFEN1, RGXNegCWNORMAL,   12, 1)
G3D_FIELD(RGXFEN1, RGXenNegNormal,   11, 1)
G3D_FIELD(RGXFEN1, RGXSingleColor,   10, 1)
G3D_FIELD(RGXFEN1, RGXenSpecLight,    9, 1)
G3D_FIELD(RGXFEN1, RGXenVertexFog,    8, 1)
G3D_FIELD(RGXFEN1, RGXenScaleNormal,  6, 1)
G3D_FIELD(RGXFEN1, RGXenPtScale,      5, 1)
G3D_FIELD(RGXFEN1, RGXenOPenGLPtScale, 4, 1)
G3D_FIELD(RGXFEN1, RGXDisSpecTurbo,   0, 4)
enum {   /* RGXDisSpecTurbo: 1 disables the shortcut */
    GLAMO_TURBO_OFF_NH = 1,     /* D[0] T: N.H below the threshold */
    GLAMO_TURBO_OFF_CONE = 2,   /* D[1] S: outside the spot cone */
    GLAMO_TURBO_OFF_RANGE = 4,  /* D[2] R: beyond the light range */
    GLAMO_TURBO_OFF_ND = 8,     /* D[3] D: N.L < 0 */
};
G3D_REG32(RGXFEN2,          0x2608)   /* clipping & cull */
G3D_FIELD(RGXFEN2, RGXDisableClip,    26, 6)  /* top bottom right left far near */
G3D_FIELD(RGXFEN2, RGXen2SideCull,     5, 1)
G3D_FIELD(RGXFEN2, RGXUseDefSel,       4, 1)
G3D_FIELD(RGXFEN2, RGXenUserClipPlan,  3, 1)
G3D_FIELD(RGXFEN2, RGPenDrop,          0, 3)
G3D_REG32(RGXFEN3,          0x260c)   /* setup */
G3D_FIELD(RGXFEN3, RGPenWNorm,         31, 1)
G3D_FIELD(RGXFEN3, RGPCopyZtoW,        30, 1)
G3D_FIELD(RGXFEN3, RGPLLPixel,         28, 1)
G3D_FIELD(RGXFEN3, RGSetupDivSel,      27, 1)
G3D_FIELD(RGXFEN3, RGPenZscale,        26, 1)
G3D_FIELD(RGXFEN3, RGPenSFMode,        25, 1)
G3D_FIELD(RGXFEN3, RGPStrFrame,        24, 1)
G3D_FIELD(RGXFEN3, RGPStrZ0NoShft,     23, 1)
G3D_FIELD(RGXFEN3, RGPenXYZZeroCnt,    22, 1)
G3D_FIELD(RGXFEN3, RGPen1TJump,        20, 1)
G3D_FIELD(RGXFEN3, RGPenPolygonOffset, 19, 1)
G3D_FIELD(RGXFEN3, RGPCullDflg,        16, 1)
G3D_FIELD(RGXFEN3, RGPenCull,          15, 1)
G3D_FIELD(RGXFEN3, RGPenPtSprite,      14, 1)
G3D_FIELD(RGXFEN3, RGPSHMD,            11, 3)
G3D_FIELD(RGXFEN3, RGPenZClamp,        10, 1)
G3D_FIELD(RGXFEN3, RGPZClampSign,       9, 1)
enum {
    GLAMO_SHADE_FLAT_A = 1, GLAMO_SHADE_FLAT_B = 2, GLAMO_SHADE_FLAT_C = 3,
    GLAMO_SHADE_GOURAUD = 4,
};
G3D_REG32(RGXFEN4,          0x2610)   /* parser, xform, setup setting */
G3D_FIELD(RGXFEN4, RGPVDTexBCoor,      26, 2)
G3D_FIELD(RGXFEN4, RGPVDTexACoor,      24, 2)
G3D_FIELD(RGXFEN4, RGPTexGTXBMode,     18, 2)
G3D_FIELD(RGXFEN4, RGPTexGTXAMode,     16, 2)
G3D_FIELD(RGXFEN4, RGenDuplTxCoord,    14, 1)
G3D_FIELD(RGXFEN4, RGPTexGenTXBflg,    13, 1)
G3D_FIELD(RGXFEN4, RGPTexGenTXAflg,    12, 1)
G3D_FIELD(RGXFEN4, RGPTexTransTXBform, 11, 1)
G3D_FIELD(RGXFEN4, RGPTexTransTXAform, 10, 1)
G3D_FIELD(RGXFEN4, RGPTexTransTXBflg,   9, 1)
G3D_FIELD(RGXFEN4, RGPTexTransTXAflg,   8, 1)
G3D_FIELD(RGXFEN4, RGXProjTXBflg,       5, 1)
G3D_FIELD(RGXFEN4, RGXProjTXAflg,       4, 1)
G3D_REG32(RGXFEN5,          0x2614)
G3D_FIELD(RGXFEN5, RGPVDTexBNoPPFlg, 17, 1)
G3D_FIELD(RGXFEN5, RGPVDTexANoPPFlg, 16, 1)
G3D_FIELD(RGXFEN5, RGPenTexBWrap,     4, 4)
G3D_FIELD(RGXFEN5, RGPenTexAWrap,     0, 4)
G3D_REG32(RGPStrScale,      0x2618)   /* s[7].16 values from here on */
G3D_REG32(RGPStrShift,      0x261c)
G3D_REG32(RGXSlopeCoeff,    0x2620)
G3D_REG32(RGXResCoeff,      0x2624)
G3D_REG32(RGPZClamp,        0x2628)
G3D_REG32(RGXPtScaleA,      0x2630)
G3D_REG32(RGXPtScaleB,      0x2634)
G3D_REG32(RGXPtScaleC,      0x2638)
G3D_REG32(RGXVPHeight,      0x263c)
G3D_REG32(RGXPtSizeMin,     0x2640)
G3D_REG32(RGXPtSizeMax,     0x2644)
G3D_REG32(RGXPtThreshold,   0x2648)
G3D_REG32(RGXPtAlphaClamp,  0x264c)
G3D_REG32(RGXPtsize,        0x2650)
G3D_REG32(RGPPtCLTB,        0x2654)   /* s10 D[26:16] bottom, D[10:0] top */
G3D_REG32(RGPPtCLLR,        0x2658)   /* s10 D[26:16] right, D[10:0] left */
G3D_REG32(RGPLINE,          0x265c)
G3D_FIELD(RGPLINE, RGPClrLineCnt,  31, 1)
G3D_FIELD(RGPLINE, RGStippleTxSel, 24, 1)
G3D_FIELD(RGPLINE, RGAALineTxSel,  20, 1)
G3D_FIELD(RGPLINE, RGAAPontTxSel,  16, 1)
G3D_FIELD(RGPLINE, RGPLineWidth,    0, 13)   /* unsigned 9.4 */
G3D_REG32(RGPLnRepeat,      0x2660)
G3D_REG32(RGPdvRWfar,       0x2664)
G3D_REG32(RGRCpHalf,        0x2668)
G3D_REG32(RGXScaleX,        0x2678)
G3D_REG32(RGXOffsetX,       0x267c)
G3D_REG32(RGXScaleY,        0x2680)
G3D_REG32(RGXOffsetY,       0x2684)
G3D_REG32(RGXScaleZ,        0x2688)
G3D_REG32(RGXOffsetZ,       0x268c)
#define GLAMO_RGXR0T1MAT(r, c)   (0x26a0 + 4 * (4 * (r) + (c)))  /* 4x4 */
#define GLAMO_RGXR0MWV(r, c)     (0x26e0 + 4 * (3 * (r) + (c)))  /* 4x3 */
#define GLAMO_RGXR0INVMVW(r, c)  (0x2710 + 4 * (3 * (r) + (c)))  /* 3x3 */
G3D_REG32(RGXR0T1MAT00,     0x26a0)
G3D_REG32(RGXR0Mwv00,       0x26e0)
G3D_REG32(RGXR0InvMvw00,    0x2710)
G3D_REG32(RGXNormalFactor,  0x2734)
G3D_REG32(RGPUUserClipPlanVa, 0x2738)
G3D_REG32(RGPUUserClipPlanVb, 0x273c)
G3D_REG32(RGPUUserClipPlanVc, 0x2740)
G3D_REG32(RGPUUserClipPlanVd, 0x2744)
#define GLAMO_RGXTXMAT(t, r, c)  (0x2a00 + 0x50 * (t) + 4 * (4 * (r) + (c)))

/* material and lighting globals 2B00h (L1480-L1556) */
G3D_REG32(RGXMATSRC,        0x2b00)
G3D_FIELD(RGXMATSRC, RGXDiffMatSrc,     30, 2)
G3D_FIELD(RGXMATSRC, RGXSpecMatSrc,     28, 2)
G3D_FIELD(RGXMATSRC, RGXEmissiveMatSrc, 26, 2)
G3D_FIELD(RGXMATSRC, RGXAmbientMatSrc,  24, 2)
G3D_FIELD(RGXMATSRC, RGXFogFactSrc,     22, 2)
G3D_FIELD(RGXMATSRC, RGXAlphaSrc,       20, 2)
G3D_FIELD(RGXMATSRC, RGXFogMode,        18, 2)
G3D_FIELD(RGXMATSRC, RGXSpecPresent,    15, 1)
G3D_FIELD(RGXMATSRC, RGXDiffPresent,    14, 1)
G3D_FIELD(RGXMATSRC, RGXNormNormal,     13, 1)
G3D_FIELD(RGXMATSRC, RGXLocalViewer,    12, 1)
G3D_FIELD(RGXMATSRC, RGXCWmpZero,        9, 1)
G3D_FIELD(RGXMATSRC, RGXCCWmpZero,       8, 1)
enum { GLAMO_MATSRC_VCD = 0, GLAMO_MATSRC_VCS = 1, GLAMO_MATSRC_REG = 2 };
G3D_REG32(RGXLTYPE,         0x2b04)   /* light n type at D[31-2n:30-2n] */
enum { GLAMO_LIGHT_POINT = 0, GLAMO_LIGHT_SPOT = 1, GLAMO_LIGHT_DIRECTIONAL = 2 };
G3D_REG32(RGSCWSDTh,        0x2b08)
G3D_REG32(RGSCCWSDTh,       0x2b0c)
/* material sets: CW at 2B10h, CCW at 2B60h, same layout */
#define GLAMO_MAT_CW             0x2b10
#define GLAMO_MAT_CCW            0x2b60
enum {
    GLAMO_MAT_DIFF = 0x00,  /* R G B A, s[8].23 */
    GLAMO_MAT_AMB  = 0x10,  /* R G B, s[8].23; +0Ch A, 8 bits */
    GLAMO_MAT_SPEC = 0x20,  /* R G B A */
    GLAMO_MAT_EMIS = 0x30,  /* R G B; +0Ch A, 8 bits */
    GLAMO_MAT_AMB_A = 0x1c, GLAMO_MAT_EMIS_A = 0x3c,
};
G3D_REG32(RGXCWMP,          0x2b50)   /* s[7].16 */
G3D_REG32(RGXFogEnd,        0x2b54)
G3D_REG32(RGXFogRatio,      0x2b58)
G3D_REG32(RGXFogDensity,    0x2b5c)
G3D_REG32(RGXCCWMP,         0x2ba0)
G3D_REG32(RGXLaR,           0x2ba4)
G3D_REG32(RGXLaG,           0x2ba8)
G3D_REG32(RGXLaB,           0x2bac)

/* lights 2C00h + 60h * n, write-only, s[7].16 (L1557-L1603) */
#define GLAMO_LIGHT(n)           (0x2c00 + 0x60 * (n))
#define GLAMO_LIGHTS             8
enum {
    GLAMO_L_POS = 0x00, GLAMO_L_DIR = 0x0c, GLAMO_L_AMB = 0x18,
    GLAMO_L_SPEC = 0x24, GLAMO_L_DIFF = 0x30, GLAMO_L_RANGE = 0x3c,
    GLAMO_L_ATT0 = 0x40, GLAMO_L_ATT1 = 0x44, GLAMO_L_ATT2 = 0x48,
    GLAMO_L_FALLOFF = 0x4c, GLAMO_L_THETA = 0x50, GLAMO_L_PHI = 0x54,
    GLAMO_L_THETASUBPHI = 0x58, GLAMO_L_RANGESQRT = 0x5c,
};

#endif
