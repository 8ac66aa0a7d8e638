/*
 * PICA200 (Nintendo 3DS GPU) registers as the pica200-3d device exposes them:
 * one source for the device, the core, the tests and freestanding guests.
 *
 * BAR0 (64 KiB) is the GPU register block of 3DS physical 0x10400000 with
 * its own offsets: memory fill (PSC0/PSC1), GPU busy, LCD framebuffer setup
 * (PDC0 top screen, PDC1 bottom screen), the transfer engine (PPF), and the
 * P3D internal registers 0x000-0x2FF at 0x1000 + 4 * ID.
 * BAR2 is VRAM: 8 MiB of BAR, the first 6 MiB used.
 *
 * Addresses the GPU uses are 3DS physical addresses:
 *   0x18000000 + x = VRAM offset x, 0x20000000 + x = guest physical x.
 *
 * Internal register IDs and names are those of the register reference
 * (3dbrew "GPU/Internal Registers", specs/pica200-internal-registers.txt).
 * External offsets, the interrupt registers 0x000-0x03F and the shader
 * instruction encoding are public facts (3dbrew, Citra, 3Beans; see
 * docs/references.md).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_PICA200_REGS_H
#define GPU3D_PICA200_REGS_H

#include <stdint.h>

#include "gpu3d/regfields.h"

/* ---- PCI identity and memory map ------------------------------------- */

#define PICA200_PCI_VENDOR_ID      0x1234
#define PICA200_PCI_DEVICE_ID      0x3D01
#define PICA200_REGS_BAR           0            /* BAR0: registers */
#define PICA200_VRAM_BAR           2            /* BAR2: VRAM, 64-bit */
#define PICA200_BAR0_SIZE          0x10000u
#define PICA200_VRAM_BAR_SIZE      (8u << 20)
#define PICA200_VRAM_SIZE          (6u << 20)
#define PICA200_PHYS_VRAM          0x18000000u  /* 3DS physical VRAM base */
#define PICA200_PHYS_FCRAM         0x20000000u  /* guest physical 0 */

/* top screen 400x240, bottom screen 320x240 (landscape, as shown) */
#define PICA200_TOP_WIDTH          400
#define PICA200_BOTTOM_WIDTH       320
#define PICA200_SCREEN_HEIGHT      240

/* ---- external registers (BAR0 offsets = 3DS physical - 0x10400000) --- */

G3D_REG32(PICA_HW_ID, 0x0000)                 /* b2: new model; reads 0 */

/* memory fill units "PSC0"/"PSC1" (3dbrew External Registers) */
G3D_REG32(PSC0_ADDR_START, 0x0010)            /* start paddr >> 3 */
G3D_REG32(PSC0_ADDR_END, 0x0014)              /* end paddr >> 3 (exclusive) */
G3D_REG32(PSC0_VALUE, 0x0018)
G3D_REG32(PSC0_CONTROL, 0x001C)
G3D_REG32(PSC1_ADDR_START, 0x0020)
G3D_REG32(PSC1_ADDR_END, 0x0024)
G3D_REG32(PSC1_VALUE, 0x0028)
G3D_REG32(PSC1_CONTROL, 0x002C)
#define PICA_PSC_BASE(n)           (0x0010u + 0x10u * (n))
#define PICA_PSC_ADDR_START        0x0
#define PICA_PSC_ADDR_END          0x4
#define PICA_PSC_VALUE             0x8
#define PICA_PSC_CONTROL           0xC
G3D_FIELD(PSC0_CONTROL, START, 0, 1)          /* write 1: start; reads 1 while busy */
G3D_FIELD(PSC0_CONTROL, FINISHED, 1, 1)       /* set when done; write 0 clears */
G3D_FIELD(PSC0_CONTROL, WIDTH, 8, 2)          /* 0 16-bit, 1/3 24-bit, 2 32-bit */

G3D_REG32(VRAM_BANK_CONTROL, 0x0030)
G3D_REG32(GPU_BUSY, 0x0034)
G3D_FIELD(GPU_BUSY, PSC0, 26, 1)
G3D_FIELD(GPU_BUSY, PSC1, 27, 1)
G3D_FIELD(GPU_BUSY, PPF, 30, 1)
G3D_FIELD(GPU_BUSY, P3D, 31, 1)

/* LCD framebuffer setup "PDC0" (top) / "PDC1" (bottom), 0x100 bytes each */
#define PICA_PDC_BASE(n)           (0x0400u + 0x100u * (n))
#define PICA_PDC_FRAMEBUF_SIZE     0x5C   /* b0-15 width, b16-31 height (stored) */
#define PICA_PDC_FRAMEBUF_A1       0x68   /* framebuffer A first address (paddr) */
#define PICA_PDC_FRAMEBUF_A2       0x6C   /* framebuffer A second address */
#define PICA_PDC_FRAMEBUF_FORMAT   0x70   /* b0-2 pixel format (PICA_PIXFMT_*) */
#define PICA_PDC_CONTROL           0x74   /* b0 display enable */
#define PICA_PDC_FRAMEBUF_SELECT   0x78   /* b0: 0 = first address, 1 = second */
#define PICA_PDC_FRAMEBUF_STRIDE   0x90   /* bytes between stored lines */
#define PICA_PDC_FRAMEBUF_B1       0x94   /* right-eye framebuffers (stored) */
#define PICA_PDC_FRAMEBUF_B2       0x98
G3D_REG32(PDC0_FRAMEBUF_A1, 0x0468)
G3D_REG32(PDC0_FRAMEBUF_A2, 0x046C)
G3D_REG32(PDC0_FRAMEBUF_FORMAT, 0x0470)
G3D_REG32(PDC0_CONTROL, 0x0474)
G3D_REG32(PDC0_FRAMEBUF_SELECT, 0x0478)
G3D_REG32(PDC0_FRAMEBUF_STRIDE, 0x0490)
G3D_REG32(PDC1_FRAMEBUF_A1, 0x0568)
G3D_REG32(PDC1_FRAMEBUF_A2, 0x056C)
G3D_REG32(PDC1_FRAMEBUF_FORMAT, 0x0570)
G3D_REG32(PDC1_CONTROL, 0x0574)
G3D_REG32(PDC1_FRAMEBUF_SELECT, 0x0578)
G3D_REG32(PDC1_FRAMEBUF_STRIDE, 0x0590)
G3D_FIELD(PDC0_FRAMEBUF_FORMAT, PIXFMT, 0, 3)
G3D_FIELD(PDC0_CONTROL, ENABLE, 0, 1)
G3D_FIELD(PDC0_FRAMEBUF_SELECT, SECOND, 0, 1)

/* pixel formats of the PDC and the PPF (not COLORBUFFER_FORMAT's order!) */
enum {
    PICA_PIXFMT_RGBA8 = 0,   /* u32 R<<24|G<<16|B<<8|A: bytes A,B,G,R */
    PICA_PIXFMT_RGB8 = 1,    /* bytes B,G,R */
    PICA_PIXFMT_RGB565 = 2,
    PICA_PIXFMT_RGB5A1 = 3,
    PICA_PIXFMT_RGBA4 = 4,
};

/* transfer engine "PPF": display transfer and texture copy */
G3D_REG32(PPF_INPUT_ADDR, 0x0C00)             /* paddr >> 3 */
G3D_REG32(PPF_OUTPUT_ADDR, 0x0C04)            /* paddr >> 3 */
G3D_REG32(PPF_OUTPUT_SIZE, 0x0C08)            /* b0-15 width, b16-31 height */
G3D_REG32(PPF_INPUT_SIZE, 0x0C0C)             /* b0-15 width, b16-31 height */
G3D_REG32(PPF_FLAGS, 0x0C10)
G3D_REG32(PPF_CONTROL, 0x0C18)
G3D_REG32(PPF_TEXCOPY_SIZE, 0x0C20)           /* bytes, low 4 bits ignored */
G3D_REG32(PPF_TEXCOPY_INPUT, 0x0C24)          /* 16-byte units: b0-15 width, b16-31 gap */
G3D_REG32(PPF_TEXCOPY_OUTPUT, 0x0C28)
G3D_FIELD(PPF_OUTPUT_SIZE, WIDTH, 0, 16)
G3D_FIELD(PPF_OUTPUT_SIZE, HEIGHT, 16, 16)
G3D_FIELD(PPF_FLAGS, FLIP_V, 0, 1)            /* flip vertically */
G3D_FIELD(PPF_FLAGS, LINEAR_TO_TILED, 1, 1)   /* input linear, output tiled */
G3D_FIELD(PPF_FLAGS, CROP, 2, 1)
G3D_FIELD(PPF_FLAGS, TEXTURE_COPY, 3, 1)
G3D_FIELD(PPF_FLAGS, NO_TILING, 5, 1)         /* linear to linear */
G3D_FIELD(PPF_FLAGS, INPUT_FORMAT, 8, 3)      /* PICA_PIXFMT_* */
G3D_FIELD(PPF_FLAGS, OUTPUT_FORMAT, 12, 3)
G3D_FIELD(PPF_FLAGS, BLOCK32, 16, 1)          /* 32x32 blocks (not modelled) */
G3D_FIELD(PPF_FLAGS, DOWNSCALE, 24, 2)        /* 0 none, 1 2x1, 2 2x2 */
G3D_FIELD(PPF_CONTROL, START, 0, 1)           /* write 1: start; reads 1 while busy */
G3D_FIELD(PPF_CONTROL, FINISHED, 8, 1)        /* set when done; write 0 clears */
G3D_FIELD(PPF_TEXCOPY_INPUT, WIDTH, 0, 16)
G3D_FIELD(PPF_TEXCOPY_INPUT, GAP, 16, 16)

/* P3D internal register N in BAR0 */
#define PICA_INTERNAL_BASE         0x1000u
#define PICA_INTERNAL_OFFSET(id)   (PICA_INTERNAL_BASE + 4u * (uint32_t)(id))
#define PICA_INTERNAL_COUNT        0x300

/* ---- command lists (reference "Command Header") ----------------------- */

/* header word: ID b0-15, byte mask b16-19, extra parameters b20-27, consecutive b31 */
#define PICA_CMD_HEADER(id, mask, extra, consecutive)                     \
    ((uint32_t)(id) | ((uint32_t)(mask) & 0xF) << 16 |                    \
     ((uint32_t)(extra) & 0xFF) << 20 | (uint32_t)!!(consecutive) << 31)

/* ---- internal register IDs (the reference's names) -------------------- */

enum {
    /*
     * 0x000-0x03F are the P3D interrupt registers (3Beans, 3dbrew External
     * Registers; the reference names only 0x010). IRQ_REQ0 = FINALIZE.
     */
    GPUREG_IRQ_ACK0                          = 0x000, /* ..0x00F, reads REQ */
    GPUREG_IRQ_REQ0                          = 0x010, /* ..0x01F */
    GPUREG_IRQ_CMP0                          = 0x020, /* ..0x02F */
    GPUREG_IRQ_MASK_LO                       = 0x030, /* 1 = masked */
    GPUREG_IRQ_MASK_HI                       = 0x031,
    GPUREG_IRQ_STAT_LO                       = 0x032,
    GPUREG_IRQ_STAT_HI                       = 0x033,
    GPUREG_IRQ_AUTOSTOP                      = 0x034, /* b0 */
    GPUREG_FINALIZE                          = 0x010,
    GPUREG_FACECULLING_CONFIG                = 0x040,
    GPUREG_VIEWPORT_WIDTH                    = 0x041,
    GPUREG_VIEWPORT_INVW                     = 0x042,
    GPUREG_VIEWPORT_HEIGHT                   = 0x043,
    GPUREG_VIEWPORT_INVH                     = 0x044,
    GPUREG_FRAGOP_CLIP                       = 0x047,
    GPUREG_FRAGOP_CLIP_DATA0                 = 0x048,
    GPUREG_FRAGOP_CLIP_DATA1                 = 0x049,
    GPUREG_FRAGOP_CLIP_DATA2                 = 0x04A,
    GPUREG_FRAGOP_CLIP_DATA3                 = 0x04B,
    GPUREG_DEPTHMAP_SCALE                    = 0x04D,
    GPUREG_DEPTHMAP_OFFSET                   = 0x04E,
    GPUREG_SH_OUTMAP_TOTAL                   = 0x04F,
    GPUREG_SH_OUTMAP_O0                      = 0x050,
    GPUREG_SH_OUTMAP_O1                      = 0x051,
    GPUREG_SH_OUTMAP_O2                      = 0x052,
    GPUREG_SH_OUTMAP_O3                      = 0x053,
    GPUREG_SH_OUTMAP_O4                      = 0x054,
    GPUREG_SH_OUTMAP_O5                      = 0x055,
    GPUREG_SH_OUTMAP_O6                      = 0x056,
    GPUREG_EARLYDEPTH_FUNC                   = 0x061,
    GPUREG_EARLYDEPTH_TEST1                  = 0x062,
    GPUREG_EARLYDEPTH_CLEAR                  = 0x063,
    GPUREG_SH_OUTATTR_MODE                   = 0x064,
    GPUREG_SCISSORTEST_MODE                  = 0x065,
    GPUREG_SCISSORTEST_POS                   = 0x066,
    GPUREG_SCISSORTEST_DIM                   = 0x067,
    GPUREG_VIEWPORT_XY                       = 0x068,
    GPUREG_EARLYDEPTH_DATA                   = 0x06A,
    GPUREG_DEPTHMAP_ENABLE                   = 0x06D,
    GPUREG_RENDERBUF_DIM                     = 0x06E,
    GPUREG_SH_OUTATTR_CLOCK                  = 0x06F,
    GPUREG_TEXUNIT_CONFIG                    = 0x080,
    GPUREG_TEXUNIT0_BORDER_COLOR             = 0x081,
    GPUREG_TEXUNIT0_DIM                      = 0x082,
    GPUREG_TEXUNIT0_PARAM                    = 0x083,
    GPUREG_TEXUNIT0_LOD                      = 0x084,
    GPUREG_TEXUNIT0_ADDR1                    = 0x085,
    GPUREG_TEXUNIT0_ADDR2                    = 0x086,
    GPUREG_TEXUNIT0_ADDR3                    = 0x087,
    GPUREG_TEXUNIT0_ADDR4                    = 0x088,
    GPUREG_TEXUNIT0_ADDR5                    = 0x089,
    GPUREG_TEXUNIT0_ADDR6                    = 0x08A,
    GPUREG_TEXUNIT0_SHADOW                   = 0x08B,
    GPUREG_TEXUNIT0_TYPE                     = 0x08E,
    GPUREG_LIGHTING_ENABLE0                  = 0x08F,
    GPUREG_TEXUNIT1_BORDER_COLOR             = 0x091,
    GPUREG_TEXUNIT1_DIM                      = 0x092,
    GPUREG_TEXUNIT1_PARAM                    = 0x093,
    GPUREG_TEXUNIT1_LOD                      = 0x094,
    GPUREG_TEXUNIT1_ADDR                     = 0x095,
    GPUREG_TEXUNIT1_TYPE                     = 0x096,
    GPUREG_TEXUNIT2_BORDER_COLOR             = 0x099,
    GPUREG_TEXUNIT2_DIM                      = 0x09A,
    GPUREG_TEXUNIT2_PARAM                    = 0x09B,
    GPUREG_TEXUNIT2_LOD                      = 0x09C,
    GPUREG_TEXUNIT2_ADDR                     = 0x09D,
    GPUREG_TEXUNIT2_TYPE                     = 0x09E,
    GPUREG_TEXUNIT3_PROCTEX0                 = 0x0A8,
    GPUREG_TEXUNIT3_PROCTEX1                 = 0x0A9,
    GPUREG_TEXUNIT3_PROCTEX2                 = 0x0AA,
    GPUREG_TEXUNIT3_PROCTEX3                 = 0x0AB,
    GPUREG_TEXUNIT3_PROCTEX4                 = 0x0AC,
    GPUREG_TEXUNIT3_PROCTEX5                 = 0x0AD,
    GPUREG_PROCTEX_LUT                       = 0x0AF,
    GPUREG_PROCTEX_LUT_DATA0                 = 0x0B0,
    GPUREG_PROCTEX_LUT_DATA1                 = 0x0B1,
    GPUREG_PROCTEX_LUT_DATA2                 = 0x0B2,
    GPUREG_PROCTEX_LUT_DATA3                 = 0x0B3,
    GPUREG_PROCTEX_LUT_DATA4                 = 0x0B4,
    GPUREG_PROCTEX_LUT_DATA5                 = 0x0B5,
    GPUREG_PROCTEX_LUT_DATA6                 = 0x0B6,
    GPUREG_PROCTEX_LUT_DATA7                 = 0x0B7,
    GPUREG_TEXENV0_SOURCE                    = 0x0C0,
    GPUREG_TEXENV0_OPERAND                   = 0x0C1,
    GPUREG_TEXENV0_COMBINER                  = 0x0C2,
    GPUREG_TEXENV0_COLOR                     = 0x0C3,
    GPUREG_TEXENV0_SCALE                     = 0x0C4,
    GPUREG_TEXENV1_SOURCE                    = 0x0C8,
    GPUREG_TEXENV1_OPERAND                   = 0x0C9,
    GPUREG_TEXENV1_COMBINER                  = 0x0CA,
    GPUREG_TEXENV1_COLOR                     = 0x0CB,
    GPUREG_TEXENV1_SCALE                     = 0x0CC,
    GPUREG_TEXENV2_SOURCE                    = 0x0D0,
    GPUREG_TEXENV2_OPERAND                   = 0x0D1,
    GPUREG_TEXENV2_COMBINER                  = 0x0D2,
    GPUREG_TEXENV2_COLOR                     = 0x0D3,
    GPUREG_TEXENV2_SCALE                     = 0x0D4,
    GPUREG_TEXENV3_SOURCE                    = 0x0D8,
    GPUREG_TEXENV3_OPERAND                   = 0x0D9,
    GPUREG_TEXENV3_COMBINER                  = 0x0DA,
    GPUREG_TEXENV3_COLOR                     = 0x0DB,
    GPUREG_TEXENV3_SCALE                     = 0x0DC,
    GPUREG_TEXENV_UPDATE_BUFFER              = 0x0E0,
    GPUREG_FOG_COLOR                         = 0x0E1,
    GPUREG_GAS_ATTENUATION                   = 0x0E4,
    GPUREG_GAS_ACCMAX                        = 0x0E5,
    GPUREG_FOG_LUT_INDEX                     = 0x0E6,
    GPUREG_FOG_LUT_DATA0                     = 0x0E8,
    GPUREG_FOG_LUT_DATA1                     = 0x0E9,
    GPUREG_FOG_LUT_DATA2                     = 0x0EA,
    GPUREG_FOG_LUT_DATA3                     = 0x0EB,
    GPUREG_FOG_LUT_DATA4                     = 0x0EC,
    GPUREG_FOG_LUT_DATA5                     = 0x0ED,
    GPUREG_FOG_LUT_DATA6                     = 0x0EE,
    GPUREG_FOG_LUT_DATA7                     = 0x0EF,
    GPUREG_TEXENV4_SOURCE                    = 0x0F0,
    GPUREG_TEXENV4_OPERAND                   = 0x0F1,
    GPUREG_TEXENV4_COMBINER                  = 0x0F2,
    GPUREG_TEXENV4_COLOR                     = 0x0F3,
    GPUREG_TEXENV4_SCALE                     = 0x0F4,
    GPUREG_TEXENV5_SOURCE                    = 0x0F8,
    GPUREG_TEXENV5_OPERAND                   = 0x0F9,
    GPUREG_TEXENV5_COMBINER                  = 0x0FA,
    GPUREG_TEXENV5_COLOR                     = 0x0FB,
    GPUREG_TEXENV5_SCALE                     = 0x0FC,
    GPUREG_TEXENV_BUFFER_COLOR               = 0x0FD,
    GPUREG_COLOR_OPERATION                   = 0x100,
    GPUREG_BLEND_FUNC                        = 0x101,
    GPUREG_LOGIC_OP                          = 0x102,
    GPUREG_BLEND_COLOR                       = 0x103,
    GPUREG_FRAGOP_ALPHA_TEST                 = 0x104,
    GPUREG_STENCIL_TEST                      = 0x105,
    GPUREG_STENCIL_OP                        = 0x106,
    GPUREG_DEPTH_COLOR_MASK                  = 0x107,
    GPUREG_FRAMEBUFFER_INVALIDATE            = 0x110,
    GPUREG_FRAMEBUFFER_FLUSH                 = 0x111,
    GPUREG_COLORBUFFER_READ                  = 0x112,
    GPUREG_COLORBUFFER_WRITE                 = 0x113,
    GPUREG_DEPTHBUFFER_READ                  = 0x114,
    GPUREG_DEPTHBUFFER_WRITE                 = 0x115,
    GPUREG_DEPTHBUFFER_FORMAT                = 0x116,
    GPUREG_COLORBUFFER_FORMAT                = 0x117,
    GPUREG_EARLYDEPTH_TEST2                  = 0x118,
    GPUREG_FRAMEBUFFER_BLOCK32               = 0x11B,
    GPUREG_DEPTHBUFFER_LOC                   = 0x11C,
    GPUREG_COLORBUFFER_LOC                   = 0x11D,
    GPUREG_FRAMEBUFFER_DIM                   = 0x11E,
    GPUREG_GAS_LIGHT_XY                      = 0x120,
    GPUREG_GAS_LIGHT_Z                       = 0x121,
    GPUREG_GAS_LIGHT_Z_COLOR                 = 0x122,
    GPUREG_GAS_LUT_INDEX                     = 0x123,
    GPUREG_GAS_LUT_DATA                      = 0x124,
    GPUREG_GAS_DELTAZ_DEPTH                  = 0x126,
    GPUREG_FRAGOP_SHADOW                     = 0x130,
    GPUREG_LIGHT0_SPECULAR0                  = 0x140,
    GPUREG_LIGHT0_SPECULAR1                  = 0x141,
    GPUREG_LIGHT0_DIFFUSE                    = 0x142,
    GPUREG_LIGHT0_AMBIENT                    = 0x143,
    GPUREG_LIGHT0_XY                         = 0x144,
    GPUREG_LIGHT0_Z                          = 0x145,
    GPUREG_LIGHT0_SPOTDIR_XY                 = 0x146,
    GPUREG_LIGHT0_SPOTDIR_Z                  = 0x147,
    GPUREG_LIGHT0_CONFIG                     = 0x149,
    GPUREG_LIGHT0_ATTENUATION_BIAS           = 0x14A,
    GPUREG_LIGHT0_ATTENUATION_SCALE          = 0x14B,
    GPUREG_LIGHT1_SPECULAR0                  = 0x150,
    GPUREG_LIGHT1_SPECULAR1                  = 0x151,
    GPUREG_LIGHT1_DIFFUSE                    = 0x152,
    GPUREG_LIGHT1_AMBIENT                    = 0x153,
    GPUREG_LIGHT1_XY                         = 0x154,
    GPUREG_LIGHT1_Z                          = 0x155,
    GPUREG_LIGHT1_SPOTDIR_XY                 = 0x156,
    GPUREG_LIGHT1_SPOTDIR_Z                  = 0x157,
    GPUREG_LIGHT1_CONFIG                     = 0x159,
    GPUREG_LIGHT1_ATTENUATION_BIAS           = 0x15A,
    GPUREG_LIGHT1_ATTENUATION_SCALE          = 0x15B,
    GPUREG_LIGHT2_SPECULAR0                  = 0x160,
    GPUREG_LIGHT2_SPECULAR1                  = 0x161,
    GPUREG_LIGHT2_DIFFUSE                    = 0x162,
    GPUREG_LIGHT2_AMBIENT                    = 0x163,
    GPUREG_LIGHT2_XY                         = 0x164,
    GPUREG_LIGHT2_Z                          = 0x165,
    GPUREG_LIGHT2_SPOTDIR_XY                 = 0x166,
    GPUREG_LIGHT2_SPOTDIR_Z                  = 0x167,
    GPUREG_LIGHT2_CONFIG                     = 0x169,
    GPUREG_LIGHT2_ATTENUATION_BIAS           = 0x16A,
    GPUREG_LIGHT2_ATTENUATION_SCALE          = 0x16B,
    GPUREG_LIGHT3_SPECULAR0                  = 0x170,
    GPUREG_LIGHT3_SPECULAR1                  = 0x171,
    GPUREG_LIGHT3_DIFFUSE                    = 0x172,
    GPUREG_LIGHT3_AMBIENT                    = 0x173,
    GPUREG_LIGHT3_XY                         = 0x174,
    GPUREG_LIGHT3_Z                          = 0x175,
    GPUREG_LIGHT3_SPOTDIR_XY                 = 0x176,
    GPUREG_LIGHT3_SPOTDIR_Z                  = 0x177,
    GPUREG_LIGHT3_CONFIG                     = 0x179,
    GPUREG_LIGHT3_ATTENUATION_BIAS           = 0x17A,
    GPUREG_LIGHT3_ATTENUATION_SCALE          = 0x17B,
    GPUREG_LIGHT4_SPECULAR0                  = 0x180,
    GPUREG_LIGHT4_SPECULAR1                  = 0x181,
    GPUREG_LIGHT4_DIFFUSE                    = 0x182,
    GPUREG_LIGHT4_AMBIENT                    = 0x183,
    GPUREG_LIGHT4_XY                         = 0x184,
    GPUREG_LIGHT4_Z                          = 0x185,
    GPUREG_LIGHT4_SPOTDIR_XY                 = 0x186,
    GPUREG_LIGHT4_SPOTDIR_Z                  = 0x187,
    GPUREG_LIGHT4_CONFIG                     = 0x189,
    GPUREG_LIGHT4_ATTENUATION_BIAS           = 0x18A,
    GPUREG_LIGHT4_ATTENUATION_SCALE          = 0x18B,
    GPUREG_LIGHT5_SPECULAR0                  = 0x190,
    GPUREG_LIGHT5_SPECULAR1                  = 0x191,
    GPUREG_LIGHT5_DIFFUSE                    = 0x192,
    GPUREG_LIGHT5_AMBIENT                    = 0x193,
    GPUREG_LIGHT5_XY                         = 0x194,
    GPUREG_LIGHT5_Z                          = 0x195,
    GPUREG_LIGHT5_SPOTDIR_XY                 = 0x196,
    GPUREG_LIGHT5_SPOTDIR_Z                  = 0x197,
    GPUREG_LIGHT5_CONFIG                     = 0x199,
    GPUREG_LIGHT5_ATTENUATION_BIAS           = 0x19A,
    GPUREG_LIGHT5_ATTENUATION_SCALE          = 0x19B,
    GPUREG_LIGHT6_SPECULAR0                  = 0x1A0,
    GPUREG_LIGHT6_SPECULAR1                  = 0x1A1,
    GPUREG_LIGHT6_DIFFUSE                    = 0x1A2,
    GPUREG_LIGHT6_AMBIENT                    = 0x1A3,
    GPUREG_LIGHT6_XY                         = 0x1A4,
    GPUREG_LIGHT6_Z                          = 0x1A5,
    GPUREG_LIGHT6_SPOTDIR_XY                 = 0x1A6,
    GPUREG_LIGHT6_SPOTDIR_Z                  = 0x1A7,
    GPUREG_LIGHT6_CONFIG                     = 0x1A9,
    GPUREG_LIGHT6_ATTENUATION_BIAS           = 0x1AA,
    GPUREG_LIGHT6_ATTENUATION_SCALE          = 0x1AB,
    GPUREG_LIGHT7_SPECULAR0                  = 0x1B0,
    GPUREG_LIGHT7_SPECULAR1                  = 0x1B1,
    GPUREG_LIGHT7_DIFFUSE                    = 0x1B2,
    GPUREG_LIGHT7_AMBIENT                    = 0x1B3,
    GPUREG_LIGHT7_XY                         = 0x1B4,
    GPUREG_LIGHT7_Z                          = 0x1B5,
    GPUREG_LIGHT7_SPOTDIR_XY                 = 0x1B6,
    GPUREG_LIGHT7_SPOTDIR_Z                  = 0x1B7,
    GPUREG_LIGHT7_CONFIG                     = 0x1B9,
    GPUREG_LIGHT7_ATTENUATION_BIAS           = 0x1BA,
    GPUREG_LIGHT7_ATTENUATION_SCALE          = 0x1BB,
    GPUREG_LIGHTING_AMBIENT                  = 0x1C0,
    GPUREG_LIGHTING_NUM_LIGHTS               = 0x1C2,
    GPUREG_LIGHTING_CONFIG0                  = 0x1C3,
    GPUREG_LIGHTING_CONFIG1                  = 0x1C4,
    GPUREG_LIGHTING_LUT_INDEX                = 0x1C5,
    GPUREG_LIGHTING_ENABLE1                  = 0x1C6,
    GPUREG_LIGHTING_LUT_DATA0                = 0x1C8,
    GPUREG_LIGHTING_LUT_DATA1                = 0x1C9,
    GPUREG_LIGHTING_LUT_DATA2                = 0x1CA,
    GPUREG_LIGHTING_LUT_DATA3                = 0x1CB,
    GPUREG_LIGHTING_LUT_DATA4                = 0x1CC,
    GPUREG_LIGHTING_LUT_DATA5                = 0x1CD,
    GPUREG_LIGHTING_LUT_DATA6                = 0x1CE,
    GPUREG_LIGHTING_LUT_DATA7                = 0x1CF,
    GPUREG_LIGHTING_LUTINPUT_ABS             = 0x1D0,
    GPUREG_LIGHTING_LUTINPUT_SELECT          = 0x1D1,
    GPUREG_LIGHTING_LUTINPUT_SCALE           = 0x1D2,
    GPUREG_LIGHTING_LIGHT_PERMUTATION        = 0x1D9,
    GPUREG_ATTRIBBUFFERS_LOC                 = 0x200,
    GPUREG_ATTRIBBUFFERS_FORMAT_LOW          = 0x201,
    GPUREG_ATTRIBBUFFERS_FORMAT_HIGH         = 0x202,
    GPUREG_ATTRIBBUFFER0_OFFSET              = 0x203,
    GPUREG_ATTRIBBUFFER0_CONFIG1             = 0x204,
    GPUREG_ATTRIBBUFFER0_CONFIG2             = 0x205,
    GPUREG_ATTRIBBUFFER1_OFFSET              = 0x206,
    GPUREG_ATTRIBBUFFER1_CONFIG1             = 0x207,
    GPUREG_ATTRIBBUFFER1_CONFIG2             = 0x208,
    GPUREG_ATTRIBBUFFER2_OFFSET              = 0x209,
    GPUREG_ATTRIBBUFFER2_CONFIG1             = 0x20A,
    GPUREG_ATTRIBBUFFER2_CONFIG2             = 0x20B,
    GPUREG_ATTRIBBUFFER3_OFFSET              = 0x20C,
    GPUREG_ATTRIBBUFFER3_CONFIG1             = 0x20D,
    GPUREG_ATTRIBBUFFER3_CONFIG2             = 0x20E,
    GPUREG_ATTRIBBUFFER4_OFFSET              = 0x20F,
    GPUREG_ATTRIBBUFFER4_CONFIG1             = 0x210,
    GPUREG_ATTRIBBUFFER4_CONFIG2             = 0x211,
    GPUREG_ATTRIBBUFFER5_OFFSET              = 0x212,
    GPUREG_ATTRIBBUFFER5_CONFIG1             = 0x213,
    GPUREG_ATTRIBBUFFER5_CONFIG2             = 0x214,
    GPUREG_ATTRIBBUFFER6_OFFSET              = 0x215,
    GPUREG_ATTRIBBUFFER6_CONFIG1             = 0x216,
    GPUREG_ATTRIBBUFFER6_CONFIG2             = 0x217,
    GPUREG_ATTRIBBUFFER7_OFFSET              = 0x218,
    GPUREG_ATTRIBBUFFER7_CONFIG1             = 0x219,
    GPUREG_ATTRIBBUFFER7_CONFIG2             = 0x21A,
    GPUREG_ATTRIBBUFFER8_OFFSET              = 0x21B,
    GPUREG_ATTRIBBUFFER8_CONFIG1             = 0x21C,
    GPUREG_ATTRIBBUFFER8_CONFIG2             = 0x21D,
    GPUREG_ATTRIBBUFFER9_OFFSET              = 0x21E,
    GPUREG_ATTRIBBUFFER9_CONFIG1             = 0x21F,
    GPUREG_ATTRIBBUFFER9_CONFIG2             = 0x220,
    GPUREG_ATTRIBBUFFER10_OFFSET             = 0x221,
    GPUREG_ATTRIBBUFFER10_CONFIG1            = 0x222,
    GPUREG_ATTRIBBUFFER10_CONFIG2            = 0x223,
    GPUREG_ATTRIBBUFFER11_OFFSET             = 0x224,
    GPUREG_ATTRIBBUFFER11_CONFIG1            = 0x225,
    GPUREG_ATTRIBBUFFER11_CONFIG2            = 0x226,
    GPUREG_INDEXBUFFER_CONFIG                = 0x227,
    GPUREG_NUMVERTICES                       = 0x228,
    GPUREG_GEOSTAGE_CONFIG                   = 0x229,
    GPUREG_VERTEX_OFFSET                     = 0x22A,
    GPUREG_POST_VERTEX_CACHE_NUM             = 0x22D,
    GPUREG_DRAWARRAYS                        = 0x22E,
    GPUREG_DRAWELEMENTS                      = 0x22F,
    GPUREG_VTX_FUNC                          = 0x231,
    GPUREG_FIXEDATTRIB_INDEX                 = 0x232,
    GPUREG_FIXEDATTRIB_DATA0                 = 0x233,
    GPUREG_FIXEDATTRIB_DATA1                 = 0x234,
    GPUREG_FIXEDATTRIB_DATA2                 = 0x235,
    GPUREG_CMDBUF_SIZE0                      = 0x238,
    GPUREG_CMDBUF_SIZE1                      = 0x239,
    GPUREG_CMDBUF_ADDR0                      = 0x23A,
    GPUREG_CMDBUF_ADDR1                      = 0x23B,
    GPUREG_CMDBUF_JUMP0                      = 0x23C,
    GPUREG_CMDBUF_JUMP1                      = 0x23D,
    GPUREG_VSH_NUM_ATTR                      = 0x242,
    GPUREG_VSH_COM_MODE                      = 0x244,
    GPUREG_START_DRAW_FUNC0                  = 0x245,
    GPUREG_VSH_OUTMAP_TOTAL1                 = 0x24A,
    GPUREG_VSH_OUTMAP_TOTAL2                 = 0x251,
    GPUREG_GSH_MISC0                         = 0x252,
    GPUREG_GEOSTAGE_CONFIG2                  = 0x253,
    GPUREG_GSH_MISC1                         = 0x254,
    GPUREG_PRIMITIVE_CONFIG                  = 0x25E,
    GPUREG_RESTART_PRIMITIVE                 = 0x25F,
    GPUREG_GSH_BOOLUNIFORM                   = 0x280,
    GPUREG_GSH_INTUNIFORM_I0                 = 0x281,
    GPUREG_GSH_INTUNIFORM_I1                 = 0x282,
    GPUREG_GSH_INTUNIFORM_I2                 = 0x283,
    GPUREG_GSH_INTUNIFORM_I3                 = 0x284,
    GPUREG_GSH_INPUTBUFFER_CONFIG            = 0x289,
    GPUREG_GSH_ENTRYPOINT                    = 0x28A,
    GPUREG_GSH_ATTRIBUTES_PERMUTATION_LOW    = 0x28B,
    GPUREG_GSH_ATTRIBUTES_PERMUTATION_HIGH   = 0x28C,
    GPUREG_GSH_OUTMAP_MASK                   = 0x28D,
    GPUREG_GSH_CODETRANSFER_END              = 0x28F,
    GPUREG_GSH_FLOATUNIFORM_INDEX            = 0x290,
    GPUREG_GSH_FLOATUNIFORM_DATA0            = 0x291,
    GPUREG_GSH_FLOATUNIFORM_DATA1            = 0x292,
    GPUREG_GSH_FLOATUNIFORM_DATA2            = 0x293,
    GPUREG_GSH_FLOATUNIFORM_DATA3            = 0x294,
    GPUREG_GSH_FLOATUNIFORM_DATA4            = 0x295,
    GPUREG_GSH_FLOATUNIFORM_DATA5            = 0x296,
    GPUREG_GSH_FLOATUNIFORM_DATA6            = 0x297,
    GPUREG_GSH_FLOATUNIFORM_DATA7            = 0x298,
    GPUREG_GSH_CODETRANSFER_INDEX            = 0x29B,
    GPUREG_GSH_CODETRANSFER_DATA0            = 0x29C,
    GPUREG_GSH_CODETRANSFER_DATA1            = 0x29D,
    GPUREG_GSH_CODETRANSFER_DATA2            = 0x29E,
    GPUREG_GSH_CODETRANSFER_DATA3            = 0x29F,
    GPUREG_GSH_CODETRANSFER_DATA4            = 0x2A0,
    GPUREG_GSH_CODETRANSFER_DATA5            = 0x2A1,
    GPUREG_GSH_CODETRANSFER_DATA6            = 0x2A2,
    GPUREG_GSH_CODETRANSFER_DATA7            = 0x2A3,
    GPUREG_GSH_OPDESCS_INDEX                 = 0x2A5,
    GPUREG_GSH_OPDESCS_DATA0                 = 0x2A6,
    GPUREG_GSH_OPDESCS_DATA1                 = 0x2A7,
    GPUREG_GSH_OPDESCS_DATA2                 = 0x2A8,
    GPUREG_GSH_OPDESCS_DATA3                 = 0x2A9,
    GPUREG_GSH_OPDESCS_DATA4                 = 0x2AA,
    GPUREG_GSH_OPDESCS_DATA5                 = 0x2AB,
    GPUREG_GSH_OPDESCS_DATA6                 = 0x2AC,
    GPUREG_GSH_OPDESCS_DATA7                 = 0x2AD,
    GPUREG_VSH_BOOLUNIFORM                   = 0x2B0,
    GPUREG_VSH_INTUNIFORM_I0                 = 0x2B1,
    GPUREG_VSH_INTUNIFORM_I1                 = 0x2B2,
    GPUREG_VSH_INTUNIFORM_I2                 = 0x2B3,
    GPUREG_VSH_INTUNIFORM_I3                 = 0x2B4,
    GPUREG_VSH_INPUTBUFFER_CONFIG            = 0x2B9,
    GPUREG_VSH_ENTRYPOINT                    = 0x2BA,
    GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW    = 0x2BB,
    GPUREG_VSH_ATTRIBUTES_PERMUTATION_HIGH   = 0x2BC,
    GPUREG_VSH_OUTMAP_MASK                   = 0x2BD,
    GPUREG_VSH_CODETRANSFER_END              = 0x2BF,
    GPUREG_VSH_FLOATUNIFORM_INDEX            = 0x2C0,
    GPUREG_VSH_FLOATUNIFORM_DATA0            = 0x2C1,
    GPUREG_VSH_FLOATUNIFORM_DATA1            = 0x2C2,
    GPUREG_VSH_FLOATUNIFORM_DATA2            = 0x2C3,
    GPUREG_VSH_FLOATUNIFORM_DATA3            = 0x2C4,
    GPUREG_VSH_FLOATUNIFORM_DATA4            = 0x2C5,
    GPUREG_VSH_FLOATUNIFORM_DATA5            = 0x2C6,
    GPUREG_VSH_FLOATUNIFORM_DATA6            = 0x2C7,
    GPUREG_VSH_FLOATUNIFORM_DATA7            = 0x2C8,
    GPUREG_VSH_CODETRANSFER_INDEX            = 0x2CB,
    GPUREG_VSH_CODETRANSFER_DATA0            = 0x2CC,
    GPUREG_VSH_CODETRANSFER_DATA1            = 0x2CD,
    GPUREG_VSH_CODETRANSFER_DATA2            = 0x2CE,
    GPUREG_VSH_CODETRANSFER_DATA3            = 0x2CF,
    GPUREG_VSH_CODETRANSFER_DATA4            = 0x2D0,
    GPUREG_VSH_CODETRANSFER_DATA5            = 0x2D1,
    GPUREG_VSH_CODETRANSFER_DATA6            = 0x2D2,
    GPUREG_VSH_CODETRANSFER_DATA7            = 0x2D3,
    GPUREG_VSH_OPDESCS_INDEX                 = 0x2D5,
    GPUREG_VSH_OPDESCS_DATA0                 = 0x2D6,
    GPUREG_VSH_OPDESCS_DATA1                 = 0x2D7,
    GPUREG_VSH_OPDESCS_DATA2                 = 0x2D8,
    GPUREG_VSH_OPDESCS_DATA3                 = 0x2D9,
    GPUREG_VSH_OPDESCS_DATA4                 = 0x2DA,
    GPUREG_VSH_OPDESCS_DATA5                 = 0x2DB,
    GPUREG_VSH_OPDESCS_DATA6                 = 0x2DC,
    GPUREG_VSH_OPDESCS_DATA7                 = 0x2DD,
};

/* GPUREG_FACECULLING_CONFIG b0-1 */
enum { PICA_CULL_NONE = 0, PICA_CULL_FRONT_CCW = 1, PICA_CULL_BACK_CCW = 2 };

G3D_FIELD(GPUREG_VIEWPORT_XY, X, 0, 10)       /* signed */
G3D_FIELD(GPUREG_VIEWPORT_XY, Y, 16, 10)      /* signed */
G3D_FIELD(GPUREG_SH_OUTMAP_TOTAL, COUNT, 0, 3)
G3D_FIELD(GPUREG_SCISSORTEST_MODE, MODE, 0, 2) /* 0 off, 1 inverted, 3 on */
G3D_FIELD(GPUREG_SCISSORTEST_POS, X1, 0, 10)
G3D_FIELD(GPUREG_SCISSORTEST_POS, Y1, 16, 10)
G3D_FIELD(GPUREG_SCISSORTEST_DIM, X2, 0, 10)  /* inclusive end */
G3D_FIELD(GPUREG_SCISSORTEST_DIM, Y2, 16, 10)

/* output semantics of GPUREG_SH_OUTMAP_Oi (8 bits per component) */
enum {
    PICA_SEM_POSITION_X = 0x00, PICA_SEM_QUAT_X = 0x04,
    PICA_SEM_COLOR_R = 0x08, PICA_SEM_COLOR_G, PICA_SEM_COLOR_B,
    PICA_SEM_COLOR_A, PICA_SEM_TEXCOORD0_U = 0x0C, PICA_SEM_TEXCOORD0_V,
    PICA_SEM_TEXCOORD1_U, PICA_SEM_TEXCOORD1_V, PICA_SEM_TEXCOORD0_W,
    PICA_SEM_VIEW_X = 0x12, PICA_SEM_TEXCOORD2_U = 0x16,
    PICA_SEM_TEXCOORD2_V, PICA_SEM_COUNT, PICA_SEM_UNUSED = 0x1F,
};

/* texture units 0-2 (3dbrew GPU/Internal Registers 0x080-0x0B7; Citra): unit
 * i's registers at PICA_TEXUNIT_BASE(i) + 0..5 */
#define PICA_TEXUNIT_BASE(i) ((i) == 0 ? 0x081u : 0x089u + 8u * (i))
enum {
    PICA_TEXUNIT_BORDER = 0, PICA_TEXUNIT_DIM = 1, PICA_TEXUNIT_PARAM = 2,
    PICA_TEXUNIT_LOD = 3, PICA_TEXUNIT_ADDR = 4,
};
/* the TYPE register: unit 0 at 0x08E, units 1 and 2 at base + 5 */
#define PICA_TEXUNIT_TYPE_REG(i) ((i) == 0 ? 0x08Eu : PICA_TEXUNIT_BASE(i) + 5u)
G3D_FIELD(GPUREG_TEXUNIT_CONFIG, ENABLE, 0, 3)      /* b0-2: units 0-2 */
G3D_FIELD(GPUREG_TEXUNIT_CONFIG, TEX3_COORDS, 8, 2)
G3D_FIELD(GPUREG_TEXUNIT_CONFIG, TEX3_ENABLE, 10, 1)
G3D_FIELD(GPUREG_TEXUNIT_CONFIG, TEX2_COORDS, 13, 1) /* 0 texcoord2, 1 texcoord1 */
G3D_FIELD(GPUREG_TEXUNIT_CONFIG, CLEAR_CACHE, 16, 1)
G3D_FIELD(GPUREG_TEXUNIT0_DIM, HEIGHT, 0, 11)
G3D_FIELD(GPUREG_TEXUNIT0_DIM, WIDTH, 16, 11)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, MAG_FILTER, 1, 1)   /* 0 nearest, 1 linear */
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, MIN_FILTER, 2, 1)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, ETC1, 4, 2)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, WRAP_T, 8, 3)       /* PICA_WRAP_* */
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, WRAP_S, 12, 3)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, SHADOW, 20, 1)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, MIP_FILTER, 24, 1)
G3D_FIELD(GPUREG_TEXUNIT0_PARAM, TYPE, 28, 3)        /* unit 0: PICA_TEXTYPE_* */
G3D_FIELD(GPUREG_TEXUNIT0_LOD, BIAS, 0, 13)          /* fixed1.4.8, signed */
G3D_FIELD(GPUREG_TEXUNIT0_LOD, MAX_LEVEL, 16, 4)
G3D_FIELD(GPUREG_TEXUNIT0_LOD, MIN_LEVEL, 24, 4)
G3D_FIELD(GPUREG_TEXUNIT0_ADDR1, ADDR, 0, 28)        /* physical address >> 3 */
enum {
    PICA_WRAP_CLAMP_TO_EDGE = 0, PICA_WRAP_CLAMP_TO_BORDER = 1,
    PICA_WRAP_REPEAT = 2, PICA_WRAP_MIRRORED_REPEAT = 3,
};
enum {
    PICA_TEXTYPE_2D = 0, PICA_TEXTYPE_CUBE = 1, PICA_TEXTYPE_SHADOW_2D = 2,
    PICA_TEXTYPE_PROJECTION = 3, PICA_TEXTYPE_SHADOW_CUBE = 4,
    PICA_TEXTYPE_DISABLED = 5,
};
/* TEXUNIT3_PROCTEX0 U/V clamp modes (b0-2, b3-5) */
enum {
    PICA_PROCTEX_CLAMP_ZERO = 0, PICA_PROCTEX_CLAMP_EDGE = 1,
    PICA_PROCTEX_CLAMP_SYMMETRIC = 2, PICA_PROCTEX_CLAMP_MIRRORED = 3,
    PICA_PROCTEX_CLAMP_PULSE = 4,
};
/* TEXUNITi_TYPE b0-3 */
enum {
    PICA_TEXFMT_RGBA8 = 0, PICA_TEXFMT_RGB8 = 1, PICA_TEXFMT_RGBA5551 = 2,
    PICA_TEXFMT_RGB565 = 3, PICA_TEXFMT_RGBA4 = 4, PICA_TEXFMT_IA8 = 5,
    PICA_TEXFMT_HILO8 = 6, PICA_TEXFMT_I8 = 7, PICA_TEXFMT_A8 = 8,
    PICA_TEXFMT_IA4 = 9, PICA_TEXFMT_I4 = 10, PICA_TEXFMT_A4 = 11,
    PICA_TEXFMT_ETC1 = 12, PICA_TEXFMT_ETC1A4 = 13, PICA_TEXFMT_COUNT = 14,
};

/* texture combiners: stage i registers at PICA_TEXENV_BASE(i) + 0..4 */
#define PICA_TEXENV_BASE(i) ((i) < 4 ? 0x0C0 + 8 * (i) : 0x0F0 + 8 * ((i) - 4))
enum {
    PICA_TEVSRC_PRIMARY = 0, PICA_TEVSRC_FRAG_PRIMARY = 1,
    PICA_TEVSRC_FRAG_SECONDARY = 2, PICA_TEVSRC_TEXTURE0 = 3,
    PICA_TEVSRC_TEXTURE3 = 6, PICA_TEVSRC_PREVIOUS_BUFFER = 13,
    PICA_TEVSRC_CONSTANT = 14, PICA_TEVSRC_PREVIOUS = 15,
};
enum {
    PICA_TEVOP_REPLACE, PICA_TEVOP_MODULATE, PICA_TEVOP_ADD,
    PICA_TEVOP_ADD_SIGNED, PICA_TEVOP_INTERPOLATE, PICA_TEVOP_SUBTRACT,
    PICA_TEVOP_DOT3_RGB, PICA_TEVOP_DOT3_RGBA, PICA_TEVOP_MULTIPLY_ADD,
    PICA_TEVOP_ADD_MULTIPLY,
};
G3D_FIELD(GPUREG_TEXENV_UPDATE_BUFFER, FOG_MODE, 0, 3)
G3D_FIELD(GPUREG_TEXENV_UPDATE_BUFFER, RGB_UPDATE, 8, 4)
G3D_FIELD(GPUREG_TEXENV_UPDATE_BUFFER, ALPHA_UPDATE, 12, 4)
G3D_FIELD(GPUREG_TEXENV_UPDATE_BUFFER, Z_FLIP, 16, 1)
enum { PICA_FOG_MODE_OFF = 0, PICA_FOG_MODE_FOG = 5, PICA_FOG_MODE_GAS = 7 };

G3D_FIELD(GPUREG_COLOR_OPERATION, FRAGMENT_MODE, 0, 2) /* 0 default, 1 gas, 3 shadow */
G3D_FIELD(GPUREG_COLOR_OPERATION, BLEND, 8, 1)         /* 1 blend, 0 logic op */
G3D_FIELD(GPUREG_BLEND_FUNC, EQ_RGB, 0, 3)
G3D_FIELD(GPUREG_BLEND_FUNC, EQ_ALPHA, 8, 3)
G3D_FIELD(GPUREG_BLEND_FUNC, SRC_RGB, 16, 4)
G3D_FIELD(GPUREG_BLEND_FUNC, DST_RGB, 20, 4)
G3D_FIELD(GPUREG_BLEND_FUNC, SRC_ALPHA, 24, 4)
G3D_FIELD(GPUREG_BLEND_FUNC, DST_ALPHA, 28, 4)
G3D_FIELD(GPUREG_FRAGOP_ALPHA_TEST, ENABLE, 0, 1)
G3D_FIELD(GPUREG_FRAGOP_ALPHA_TEST, FUNC, 4, 3)
G3D_FIELD(GPUREG_FRAGOP_ALPHA_TEST, REF, 8, 8)
G3D_FIELD(GPUREG_STENCIL_TEST, ENABLE, 0, 1)
G3D_FIELD(GPUREG_STENCIL_TEST, FUNC, 4, 3)
G3D_FIELD(GPUREG_STENCIL_TEST, WRITE_MASK, 8, 8)
G3D_FIELD(GPUREG_STENCIL_TEST, REF, 16, 8)
G3D_FIELD(GPUREG_STENCIL_TEST, MASK, 24, 8)
G3D_FIELD(GPUREG_STENCIL_OP, FAIL, 0, 3)
G3D_FIELD(GPUREG_STENCIL_OP, ZFAIL, 4, 3)
G3D_FIELD(GPUREG_STENCIL_OP, ZPASS, 8, 3)
G3D_FIELD(GPUREG_DEPTH_COLOR_MASK, DEPTH_TEST, 0, 1)
G3D_FIELD(GPUREG_DEPTH_COLOR_MASK, DEPTH_FUNC, 4, 3)
G3D_FIELD(GPUREG_DEPTH_COLOR_MASK, RGBA_WRITE, 8, 4)   /* b8 R .. b11 A */
G3D_FIELD(GPUREG_DEPTH_COLOR_MASK, DEPTH_WRITE, 12, 1)
/* compare functions (alpha, stencil, depth) */
enum {
    PICA_CMP_NEVER, PICA_CMP_ALWAYS, PICA_CMP_EQUAL, PICA_CMP_NOTEQUAL,
    PICA_CMP_LESS, PICA_CMP_LEQUAL, PICA_CMP_GREATER, PICA_CMP_GEQUAL,
};
/* GPUREG_DEPTHBUFFER_FORMAT b0-1 */
enum { PICA_DEPTH_D16 = 0, PICA_DEPTH_D24 = 2, PICA_DEPTH_D24S8 = 3 };
G3D_FIELD(GPUREG_COLORBUFFER_FORMAT, PIXEL_SIZE, 0, 2) /* 0 16-bit, 1 24-bit, 2 32-bit */
G3D_FIELD(GPUREG_COLORBUFFER_FORMAT, FORMAT, 16, 3)
/* GPUREG_COLORBUFFER_FORMAT b16-18 (RGB565 and RGB5A1 swap vs PICA_PIXFMT_*) */
enum {
    PICA_COLORFMT_RGBA8 = 0, PICA_COLORFMT_RGB8 = 1, PICA_COLORFMT_RGB5A1 = 2,
    PICA_COLORFMT_RGB565 = 3, PICA_COLORFMT_RGBA4 = 4,
};
G3D_FIELD(GPUREG_FRAMEBUFFER_DIM, WIDTH, 0, 11)
G3D_FIELD(GPUREG_FRAMEBUFFER_DIM, HEIGHT_M1, 12, 10)
G3D_FIELD(GPUREG_FRAMEBUFFER_DIM, ONE, 24, 1)

/* fragment lighting (reference "Fragment lighting registers") */
#define PICA_LIGHT_BASE(i)           (0x140 + 0x10 * (i))  /* LIGHTi_SPECULAR0 */
enum {                                /* offsets from PICA_LIGHT_BASE */
    PICA_LIGHT_SPECULAR0 = 0, PICA_LIGHT_SPECULAR1 = 1, PICA_LIGHT_DIFFUSE = 2,
    PICA_LIGHT_AMBIENT = 3, PICA_LIGHT_XY = 4, PICA_LIGHT_Z = 5,
    PICA_LIGHT_SPOTDIR_XY = 6, PICA_LIGHT_SPOTDIR_Z = 7, PICA_LIGHT_CONFIG = 9,
    PICA_LIGHT_ATTENUATION_BIAS = 10, PICA_LIGHT_ATTENUATION_SCALE = 11,
};
/* colours: B b0-7, G b10-17, R b20-27 */
#define PICA_LIGHT_COLOR(r, g, b) \
    ((uint32_t)(b) | (uint32_t)(g) << 10 | (uint32_t)(r) << 20)
G3D_FIELD(GPUREG_LIGHT0_CONFIG, DIRECTIONAL, 0, 1)
G3D_FIELD(GPUREG_LIGHT0_CONFIG, TWO_SIDED, 1, 1)
G3D_FIELD(GPUREG_LIGHT0_CONFIG, GEO_FACTOR0, 2, 1)
G3D_FIELD(GPUREG_LIGHT0_CONFIG, GEO_FACTOR1, 3, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_ENABLE, 0, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, FRESNEL, 2, 2)     /* b0 primary, b1 secondary alpha */
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, LAYER_CONFIG, 4, 4) /* 0-6, 8 = configuration 7 */
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_PRIMARY, 16, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_SECONDARY, 17, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_INVERT, 18, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_ALPHA, 19, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, BUMP_UNIT, 22, 2)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, SHADOW_UNIT, 24, 2)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, CLAMP_HIGHLIGHTS, 27, 1)
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, BUMP_MODE, 28, 2)  /* 0 off, 1 bump, 2 tangent */
G3D_FIELD(GPUREG_LIGHTING_CONFIG0, NO_BUMP_RENORM, 30, 1)
enum { PICA_BUMP_NONE = 0, PICA_BUMP_NORMAL = 1, PICA_BUMP_TANGENT = 2 };
/* CONFIG1: per light b0-7 shadow, b8-15 spot, b24-31 distance attenuation
 * disabled; b16 + PICA_LIGHT_LUT_* of D0, D1, FR, RB, RG, RR disables it */
G3D_FIELD(GPUREG_LIGHTING_CONFIG1, NO_SHADOW, 0, 8)
G3D_FIELD(GPUREG_LIGHTING_CONFIG1, NO_SPOT, 8, 8)
G3D_FIELD(GPUREG_LIGHTING_CONFIG1, NO_DIST_ATTEN, 24, 8)
/* LUT numbers (LIGHTING_LUT_INDEX b8-12); SP and DA add the light's ID */
enum {
    PICA_LIGHT_LUT_D0 = 0, PICA_LIGHT_LUT_D1 = 1, PICA_LIGHT_LUT_FR = 3,
    PICA_LIGHT_LUT_RB = 4, PICA_LIGHT_LUT_RG = 5, PICA_LIGHT_LUT_RR = 6,
    PICA_LIGHT_LUT_SP = 8, PICA_LIGHT_LUT_DA = 16,
};
/* LUTINPUT_ABS/SELECT/SCALE: 4-bit slots in this order */
enum {
    PICA_LUTSLOT_D0, PICA_LUTSLOT_D1, PICA_LUTSLOT_SP, PICA_LUTSLOT_FR,
    PICA_LUTSLOT_RB, PICA_LUTSLOT_RG, PICA_LUTSLOT_RR,
};
/* LUT inputs (LUTINPUT_SELECT) */
enum {
    PICA_LUTIN_NH = 0, PICA_LUTIN_VH = 1, PICA_LUTIN_NV = 2, PICA_LUTIN_LN = 3,
    PICA_LUTIN_SP = 4, PICA_LUTIN_CP = 5,
};
G3D_FIELD(GPUREG_LIGHTING_LUT_INDEX, INDEX, 0, 8)
G3D_FIELD(GPUREG_LIGHTING_LUT_INDEX, LUT, 8, 5)

/* geometry pipeline */
G3D_FIELD(GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, FIXED_MASK, 16, 12)
G3D_FIELD(GPUREG_ATTRIBBUFFERS_FORMAT_HIGH, TOTAL_M1, 28, 4)
G3D_FIELD(GPUREG_ATTRIBBUFFER0_CONFIG2, STRIDE, 16, 8)
G3D_FIELD(GPUREG_ATTRIBBUFFER0_CONFIG2, COMPONENTS, 28, 4)
#define PICA_ATTRIBBUFFER_OFFSET(i)  (0x203 + 3 * (i))
#define PICA_ATTRIBBUFFER_CONFIG1(i) (0x204 + 3 * (i))
#define PICA_ATTRIBBUFFER_CONFIG2(i) (0x205 + 3 * (i))
/* attribute format nibble: b0-1 type, b2-3 components - 1 */
enum { PICA_ATTR_S8 = 0, PICA_ATTR_U8 = 1, PICA_ATTR_S16 = 2, PICA_ATTR_F32 = 3 };
#define PICA_ATTRIB_FORMAT(type, comps) ((uint32_t)(type) | ((uint32_t)(comps) - 1) << 2)
G3D_FIELD(GPUREG_INDEXBUFFER_CONFIG, OFFSET, 0, 28)
G3D_FIELD(GPUREG_INDEXBUFFER_CONFIG, U16, 31, 1)
G3D_FIELD(GPUREG_GEOSTAGE_CONFIG, GS_MODE, 0, 2)       /* 2 = geometry shader on */
G3D_FIELD(GPUREG_PRIMITIVE_CONFIG, OUTMAP_M1, 0, 4)
G3D_FIELD(GPUREG_PRIMITIVE_CONFIG, TOPOLOGY, 8, 2)
enum {
    PICA_TOPOLOGY_TRIANGLES = 0, PICA_TOPOLOGY_STRIP = 1, PICA_TOPOLOGY_FAN = 2,
    PICA_TOPOLOGY_GEOMETRY = 3,
};
#define PICA_FIXEDATTRIB_IMMEDIATE 0xF
/* GPUREG_GSH_MISC0 b0-7: geometry shader input mode (Citra "gs_config") */
enum { PICA_GS_MODE_POINT = 0, PICA_GS_MODE_VARIABLE = 1, PICA_GS_MODE_FIXED = 2 };

/* shader units: the same 0x30-register block at 0x280 (GSH) and 0x2B0 (VSH) */
#define PICA_GSH_BASE              0x280
#define PICA_VSH_BASE              0x2B0
enum {
    PICA_SH_BOOLUNIFORM = 0x00, PICA_SH_INTUNIFORM_I0 = 0x01,
    PICA_SH_INPUTBUFFER_CONFIG = 0x09, PICA_SH_ENTRYPOINT = 0x0A,
    PICA_SH_ATTRIBUTES_PERMUTATION_LOW = 0x0B,
    PICA_SH_ATTRIBUTES_PERMUTATION_HIGH = 0x0C, PICA_SH_OUTMAP_MASK = 0x0D,
    PICA_SH_CODETRANSFER_END = 0x0F, PICA_SH_FLOATUNIFORM_INDEX = 0x10,
    PICA_SH_FLOATUNIFORM_DATA0 = 0x11, PICA_SH_CODETRANSFER_INDEX = 0x1B,
    PICA_SH_CODETRANSFER_DATA0 = 0x1C, PICA_SH_OPDESCS_INDEX = 0x25,
    PICA_SH_OPDESCS_DATA0 = 0x26,
};
G3D_FIELD(GPUREG_VSH_FLOATUNIFORM_INDEX, INDEX, 0, 8)
G3D_FIELD(GPUREG_VSH_FLOATUNIFORM_INDEX, F32, 31, 1)   /* 1 = float1.8.23 words */
#define PICA_VSH_CODE_WORDS        512
#define PICA_GSH_CODE_WORDS        4096
#define PICA_OPDESC_COUNT          128
#define PICA_FLOAT_UNIFORMS        96

/* ---- shader instruction set (3dbrew, Citra/nihstro, Panda3DS) ---------- */

enum {
    PICA_SH_ADD = 0x00, PICA_SH_DP3 = 0x01, PICA_SH_DP4 = 0x02,
    PICA_SH_DPH = 0x03, PICA_SH_DST = 0x04, PICA_SH_EX2 = 0x05,
    PICA_SH_LG2 = 0x06, PICA_SH_LITP = 0x07, PICA_SH_MUL = 0x08,
    PICA_SH_SGE = 0x09, PICA_SH_SLT = 0x0A, PICA_SH_FLR = 0x0B,
    PICA_SH_MAX = 0x0C, PICA_SH_MIN = 0x0D, PICA_SH_RCP = 0x0E,
    PICA_SH_RSQ = 0x0F, PICA_SH_MOVA = 0x12, PICA_SH_MOV = 0x13,
    PICA_SH_DPHI = 0x18, PICA_SH_DSTI = 0x19, PICA_SH_SGEI = 0x1A,
    PICA_SH_SLTI = 0x1B, PICA_SH_BREAK = 0x20, PICA_SH_NOP = 0x21,
    PICA_SH_END = 0x22, PICA_SH_BREAKC = 0x23, PICA_SH_CALL = 0x24,
    PICA_SH_CALLC = 0x25, PICA_SH_CALLU = 0x26, PICA_SH_IFU = 0x27,
    PICA_SH_IFC = 0x28, PICA_SH_LOOP = 0x29, PICA_SH_EMIT = 0x2A,
    PICA_SH_SETEMIT = 0x2B, PICA_SH_JMPC = 0x2C, PICA_SH_JMPU = 0x2D,
    PICA_SH_CMP = 0x2E,       /* 0x2E-0x2F: b26 is part of the x compare op */
    PICA_SH_MADI = 0x30,      /* 0x30-0x37 */
    PICA_SH_MAD = 0x38,       /* 0x38-0x3F */
};

/* register numbers: sources 0x00-0x0F v, 0x10-0x1F r, 0x20-0x7F c0-c95;
 * destinations 0x00-0x0F o, 0x10-0x1F r */
#define PICA_SH_V(n) (n)
#define PICA_SH_O(n) (n)
#define PICA_SH_R(n) (0x10 + (n))
#define PICA_SH_C(n) (0x20 + (n))
/* relative addressing selector: 0 none, 1 a0.x, 2 a0.y, 3 aL */
enum { PICA_SH_IDX_NONE, PICA_SH_IDX_A0X, PICA_SH_IDX_A0Y, PICA_SH_IDX_AL };
/* compare ops of CMP (and condition ops of flow control) */
enum {
    PICA_SH_CMP_EQ, PICA_SH_CMP_NE, PICA_SH_CMP_LT, PICA_SH_CMP_LE,
    PICA_SH_CMP_GT, PICA_SH_CMP_GE,
};
enum { PICA_SH_COND_OR, PICA_SH_COND_AND, PICA_SH_COND_X, PICA_SH_COND_Y };

/* format 1: desc b0-6, src2 b7-11, src1 b12-18, idx b19-20, dst b21-25 */
#define PICA_SH_FMT1(op, dst, src1, src2, idx, desc)                      \
    ((uint32_t)(op) << 26 | ((uint32_t)(dst) & 0x1F) << 21 |              \
     ((uint32_t)(idx) & 3) << 19 | ((uint32_t)(src1) & 0x7F) << 12 |      \
     ((uint32_t)(src2) & 0x1F) << 7 | ((uint32_t)(desc) & 0x7F))
/* format 1i (DPHI, DSTI, SGEI, SLTI): src2 b7-13 (indexed), src1 b14-18 */
#define PICA_SH_FMT1I(op, dst, src1, src2, idx, desc)                     \
    ((uint32_t)(op) << 26 | ((uint32_t)(dst) & 0x1F) << 21 |              \
     ((uint32_t)(idx) & 3) << 19 | ((uint32_t)(src1) & 0x1F) << 14 |      \
     ((uint32_t)(src2) & 0x7F) << 7 | ((uint32_t)(desc) & 0x7F))
/* format 1c (CMP): cmpx b24-26, cmpy b21-23 */
#define PICA_SH_FMT1C(cmpx, cmpy, src1, src2, idx, desc)                  \
    ((uint32_t)(PICA_SH_CMP >> 1) << 27 | ((uint32_t)(cmpx) & 7) << 24 |  \
     ((uint32_t)(cmpy) & 7) << 21 | ((uint32_t)(idx) & 3) << 19 |         \
     ((uint32_t)(src1) & 0x7F) << 12 | ((uint32_t)(src2) & 0x1F) << 7 |   \
     ((uint32_t)(desc) & 0x7F))
/* format 2 (JMPC, CALLC, IFC, BREAKC): num b0-7, dst b10-21, condop b22-23,
 * refy b24, refx b25 */
#define PICA_SH_FMT2(op, dst, num, condop, refx, refy)                    \
    ((uint32_t)(op) << 26 | (uint32_t)!!(refx) << 25 |                    \
     (uint32_t)!!(refy) << 24 | ((uint32_t)(condop) & 3) << 22 |          \
     ((uint32_t)(dst) & 0xFFF) << 10 | ((uint32_t)(num) & 0xFF))
/* format 3 (CALL, CALLU, IFU, JMPU, LOOP): uniform b22-25 (bool) / b22-23 (int);
 * JMPU jumps when the bool equals !(num & 1) */
#define PICA_SH_FMT3(op, dst, num, uniform)                               \
    ((uint32_t)(op) << 26 | ((uint32_t)(uniform) & 0xF) << 22 |           \
     ((uint32_t)(dst) & 0xFFF) << 10 | ((uint32_t)(num) & 0xFF))
/* format 4 (SETEMIT): vertex id b24-25, primitive emit b23, winding b22 */
#define PICA_SH_FMT4(vtx, prim, winding)                                  \
    ((uint32_t)PICA_SH_SETEMIT << 26 | ((uint32_t)(vtx) & 3) << 24 |      \
     (uint32_t)!!(prim) << 23 | (uint32_t)!!(winding) << 22)
/* format 5 (MAD): desc b0-4, src3 b5-9, src2 b10-16 (indexed), src1 b17-21,
 * idx b22-23, dst b24-28; format 5i (MADI): src3 b5-11 (indexed), src2 b12-16 */
#define PICA_SH_FMT5(dst, src1, src2, src3, idx, desc)                    \
    (7u << 29 | ((uint32_t)(dst) & 0x1F) << 24 | ((uint32_t)(idx) & 3) << 22 | \
     ((uint32_t)(src1) & 0x1F) << 17 | ((uint32_t)(src2) & 0x7F) << 10 |  \
     ((uint32_t)(src3) & 0x1F) << 5 | ((uint32_t)(desc) & 0x1F))
#define PICA_SH_FMT5I(dst, src1, src2, src3, idx, desc)                   \
    (6u << 29 | ((uint32_t)(dst) & 0x1F) << 24 | ((uint32_t)(idx) & 3) << 22 | \
     ((uint32_t)(src1) & 0x1F) << 17 | ((uint32_t)(src2) & 0x1F) << 12 |  \
     ((uint32_t)(src3) & 0x7F) << 5 | ((uint32_t)(desc) & 0x1F))

/*
 * Operand descriptor: dest mask b0-3 (b3 = x .. b0 = w); per source n (1..3)
 * a negate bit and an 8-bit swizzle, 2 bits per component with x's selector
 * in the top pair (identity xyzw = 0x1B).
 */
#define PICA_SWZ(a, b, c, d) ((a) << 6 | (b) << 4 | (c) << 2 | (d))
#define PICA_SWZ_XYZW        0x1B
#define PICA_MASK_XYZW       0xF
#define PICA_OPDESC(mask, neg1, swz1, neg2, swz2, neg3, swz3)             \
    (((uint32_t)(mask) & 0xF) | (uint32_t)!!(neg1) << 4 |                 \
     ((uint32_t)(swz1) & 0xFF) << 5 | (uint32_t)!!(neg2) << 13 |          \
     ((uint32_t)(swz2) & 0xFF) << 14 | (uint32_t)!!(neg3) << 22 |         \
     ((uint32_t)(swz3) & 0xFF) << 23)

#endif
