/*
 * The P3D internal register file: 768 32-bit registers written through
 * command lists and BAR0 with byte masks (reference "Parameter masking"),
 * the side effects of triggers and data ports, the interrupt registers
 * 0x000-0x03F, and what reads return.
 *
 * Decisions (docs/pica200-3d.md): every register stores all 32 bits of what
 * was written and reads them back; fixed-value fields are applied only when
 * interpreting. Data ports push the register value a masked write leaves;
 * triggers fire when the written bytes are non-zero.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

#include <string.h>

/* generated from the reference's register table (L48-850); see regs.c */
static const Pica200RegInfo reg_info[PICA_NREGS] = {
    [0x000] = { "GPUREG_IRQ_ACK0", PICA200_REG_MODELLED, "regs.c" },
    [0x001] = { "GPUREG_IRQ_ACK1", PICA200_REG_MODELLED, "regs.c" },
    [0x002] = { "GPUREG_IRQ_ACK2", PICA200_REG_MODELLED, "regs.c" },
    [0x003] = { "GPUREG_IRQ_ACK3", PICA200_REG_MODELLED, "regs.c" },
    [0x004] = { "GPUREG_IRQ_ACK4", PICA200_REG_MODELLED, "regs.c" },
    [0x005] = { "GPUREG_IRQ_ACK5", PICA200_REG_MODELLED, "regs.c" },
    [0x006] = { "GPUREG_IRQ_ACK6", PICA200_REG_MODELLED, "regs.c" },
    [0x007] = { "GPUREG_IRQ_ACK7", PICA200_REG_MODELLED, "regs.c" },
    [0x008] = { "GPUREG_IRQ_ACK8", PICA200_REG_MODELLED, "regs.c" },
    [0x009] = { "GPUREG_IRQ_ACK9", PICA200_REG_MODELLED, "regs.c" },
    [0x00A] = { "GPUREG_IRQ_ACK10", PICA200_REG_MODELLED, "regs.c" },
    [0x00B] = { "GPUREG_IRQ_ACK11", PICA200_REG_MODELLED, "regs.c" },
    [0x00C] = { "GPUREG_IRQ_ACK12", PICA200_REG_MODELLED, "regs.c" },
    [0x00D] = { "GPUREG_IRQ_ACK13", PICA200_REG_MODELLED, "regs.c" },
    [0x00E] = { "GPUREG_IRQ_ACK14", PICA200_REG_MODELLED, "regs.c" },
    [0x00F] = { "GPUREG_IRQ_ACK15", PICA200_REG_MODELLED, "regs.c" },
    [0x010] = { "GPUREG_FINALIZE", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x011] = { "GPUREG_IRQ_REQ1", PICA200_REG_MODELLED, "regs.c" },
    [0x012] = { "GPUREG_IRQ_REQ2", PICA200_REG_MODELLED, "regs.c" },
    [0x013] = { "GPUREG_IRQ_REQ3", PICA200_REG_MODELLED, "regs.c" },
    [0x014] = { "GPUREG_IRQ_REQ4", PICA200_REG_MODELLED, "regs.c" },
    [0x015] = { "GPUREG_IRQ_REQ5", PICA200_REG_MODELLED, "regs.c" },
    [0x016] = { "GPUREG_IRQ_REQ6", PICA200_REG_MODELLED, "regs.c" },
    [0x017] = { "GPUREG_IRQ_REQ7", PICA200_REG_MODELLED, "regs.c" },
    [0x018] = { "GPUREG_IRQ_REQ8", PICA200_REG_MODELLED, "regs.c" },
    [0x019] = { "GPUREG_IRQ_REQ9", PICA200_REG_MODELLED, "regs.c" },
    [0x01A] = { "GPUREG_IRQ_REQ10", PICA200_REG_MODELLED, "regs.c" },
    [0x01B] = { "GPUREG_IRQ_REQ11", PICA200_REG_MODELLED, "regs.c" },
    [0x01C] = { "GPUREG_IRQ_REQ12", PICA200_REG_MODELLED, "regs.c" },
    [0x01D] = { "GPUREG_IRQ_REQ13", PICA200_REG_MODELLED, "regs.c" },
    [0x01E] = { "GPUREG_IRQ_REQ14", PICA200_REG_MODELLED, "regs.c" },
    [0x01F] = { "GPUREG_IRQ_REQ15", PICA200_REG_MODELLED, "regs.c" },
    [0x020] = { "GPUREG_IRQ_CMP0", PICA200_REG_MODELLED, "regs.c" },
    [0x021] = { "GPUREG_IRQ_CMP1", PICA200_REG_MODELLED, "regs.c" },
    [0x022] = { "GPUREG_IRQ_CMP2", PICA200_REG_MODELLED, "regs.c" },
    [0x023] = { "GPUREG_IRQ_CMP3", PICA200_REG_MODELLED, "regs.c" },
    [0x024] = { "GPUREG_IRQ_CMP4", PICA200_REG_MODELLED, "regs.c" },
    [0x025] = { "GPUREG_IRQ_CMP5", PICA200_REG_MODELLED, "regs.c" },
    [0x026] = { "GPUREG_IRQ_CMP6", PICA200_REG_MODELLED, "regs.c" },
    [0x027] = { "GPUREG_IRQ_CMP7", PICA200_REG_MODELLED, "regs.c" },
    [0x028] = { "GPUREG_IRQ_CMP8", PICA200_REG_MODELLED, "regs.c" },
    [0x029] = { "GPUREG_IRQ_CMP9", PICA200_REG_MODELLED, "regs.c" },
    [0x02A] = { "GPUREG_IRQ_CMP10", PICA200_REG_MODELLED, "regs.c" },
    [0x02B] = { "GPUREG_IRQ_CMP11", PICA200_REG_MODELLED, "regs.c" },
    [0x02C] = { "GPUREG_IRQ_CMP12", PICA200_REG_MODELLED, "regs.c" },
    [0x02D] = { "GPUREG_IRQ_CMP13", PICA200_REG_MODELLED, "regs.c" },
    [0x02E] = { "GPUREG_IRQ_CMP14", PICA200_REG_MODELLED, "regs.c" },
    [0x02F] = { "GPUREG_IRQ_CMP15", PICA200_REG_MODELLED, "regs.c" },
    [0x030] = { "GPUREG_IRQ_MASK_LO", PICA200_REG_MODELLED, "regs.c" },
    [0x031] = { "GPUREG_IRQ_MASK_HI", PICA200_REG_MODELLED, "regs.c" },
    [0x032] = { "GPUREG_IRQ_STAT_LO", PICA200_REG_MODELLED, "regs.c" },
    [0x033] = { "GPUREG_IRQ_STAT_HI", PICA200_REG_MODELLED, "regs.c" },
    [0x034] = { "GPUREG_IRQ_AUTOSTOP", PICA200_REG_MODELLED, "regs.c" },
    [0x040] = { "GPUREG_FACECULLING_CONFIG", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x041] = { "GPUREG_VIEWPORT_WIDTH", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x042] = { "GPUREG_VIEWPORT_INVW", PICA200_REG_STORED, NULL },
    [0x043] = { "GPUREG_VIEWPORT_HEIGHT", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x044] = { "GPUREG_VIEWPORT_INVH", PICA200_REG_STORED, NULL },
    [0x047] = { "GPUREG_FRAGOP_CLIP", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x048] = { "GPUREG_FRAGOP_CLIP_DATA0", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x049] = { "GPUREG_FRAGOP_CLIP_DATA1", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x04A] = { "GPUREG_FRAGOP_CLIP_DATA2", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x04B] = { "GPUREG_FRAGOP_CLIP_DATA3", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x04D] = { "GPUREG_DEPTHMAP_SCALE", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x04E] = { "GPUREG_DEPTHMAP_OFFSET", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x04F] = { "GPUREG_SH_OUTMAP_TOTAL", PICA200_REG_MODELLED, "pipeline.c" },
    [0x050] = { "GPUREG_SH_OUTMAP_O0", PICA200_REG_MODELLED, "pipeline.c" },
    [0x051] = { "GPUREG_SH_OUTMAP_O1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x052] = { "GPUREG_SH_OUTMAP_O2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x053] = { "GPUREG_SH_OUTMAP_O3", PICA200_REG_MODELLED, "pipeline.c" },
    [0x054] = { "GPUREG_SH_OUTMAP_O4", PICA200_REG_MODELLED, "pipeline.c" },
    [0x055] = { "GPUREG_SH_OUTMAP_O5", PICA200_REG_MODELLED, "pipeline.c" },
    [0x056] = { "GPUREG_SH_OUTMAP_O6", PICA200_REG_MODELLED, "pipeline.c" },
    [0x061] = { "GPUREG_EARLYDEPTH_FUNC", PICA200_REG_STORED, NULL },
    [0x062] = { "GPUREG_EARLYDEPTH_TEST1", PICA200_REG_STORED, NULL },
    [0x063] = { "GPUREG_EARLYDEPTH_CLEAR", PICA200_REG_STORED, NULL },
    [0x064] = { "GPUREG_SH_OUTATTR_MODE", PICA200_REG_STORED, NULL },
    [0x065] = { "GPUREG_SCISSORTEST_MODE", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x066] = { "GPUREG_SCISSORTEST_POS", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x067] = { "GPUREG_SCISSORTEST_DIM", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x068] = { "GPUREG_VIEWPORT_XY", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x06A] = { "GPUREG_EARLYDEPTH_DATA", PICA200_REG_STORED, NULL },
    [0x06D] = { "GPUREG_DEPTHMAP_ENABLE", PICA200_REG_MODELLED, "rasterizer.c" },
    [0x06E] = { "GPUREG_RENDERBUF_DIM", PICA200_REG_STORED, NULL },
    [0x06F] = { "GPUREG_SH_OUTATTR_CLOCK", PICA200_REG_STORED, NULL },
    [0x080] = { "GPUREG_TEXUNIT_CONFIG", PICA200_REG_MODELLED, "texunit.c" },
    [0x081] = { "GPUREG_TEXUNIT0_BORDER_COLOR", PICA200_REG_MODELLED, "texunit.c" },
    [0x082] = { "GPUREG_TEXUNIT0_DIM", PICA200_REG_MODELLED, "texunit.c" },
    [0x083] = { "GPUREG_TEXUNIT0_PARAM", PICA200_REG_MODELLED, "texunit.c" },
    [0x084] = { "GPUREG_TEXUNIT0_LOD", PICA200_REG_MODELLED, "texunit.c" },
    [0x085] = { "GPUREG_TEXUNIT0_ADDR1", PICA200_REG_MODELLED, "texunit.c" },
    [0x086] = { "GPUREG_TEXUNIT0_ADDR2", PICA200_REG_MODELLED, "texunit.c" },
    [0x087] = { "GPUREG_TEXUNIT0_ADDR3", PICA200_REG_MODELLED, "texunit.c" },
    [0x088] = { "GPUREG_TEXUNIT0_ADDR4", PICA200_REG_MODELLED, "texunit.c" },
    [0x089] = { "GPUREG_TEXUNIT0_ADDR5", PICA200_REG_MODELLED, "texunit.c" },
    [0x08A] = { "GPUREG_TEXUNIT0_ADDR6", PICA200_REG_MODELLED, "texunit.c" },
    [0x08B] = { "GPUREG_TEXUNIT0_SHADOW", PICA200_REG_MODELLED, "texunit.c" },
    [0x08E] = { "GPUREG_TEXUNIT0_TYPE", PICA200_REG_MODELLED, "texunit.c" },
    [0x08F] = { "GPUREG_LIGHTING_ENABLE0", PICA200_REG_MODELLED, "lighting.c" },
    [0x091] = { "GPUREG_TEXUNIT1_BORDER_COLOR", PICA200_REG_MODELLED, "texunit.c" },
    [0x092] = { "GPUREG_TEXUNIT1_DIM", PICA200_REG_MODELLED, "texunit.c" },
    [0x093] = { "GPUREG_TEXUNIT1_PARAM", PICA200_REG_MODELLED, "texunit.c" },
    [0x094] = { "GPUREG_TEXUNIT1_LOD", PICA200_REG_MODELLED, "texunit.c" },
    [0x095] = { "GPUREG_TEXUNIT1_ADDR", PICA200_REG_MODELLED, "texunit.c" },
    [0x096] = { "GPUREG_TEXUNIT1_TYPE", PICA200_REG_MODELLED, "texunit.c" },
    [0x099] = { "GPUREG_TEXUNIT2_BORDER_COLOR", PICA200_REG_MODELLED, "texunit.c" },
    [0x09A] = { "GPUREG_TEXUNIT2_DIM", PICA200_REG_MODELLED, "texunit.c" },
    [0x09B] = { "GPUREG_TEXUNIT2_PARAM", PICA200_REG_MODELLED, "texunit.c" },
    [0x09C] = { "GPUREG_TEXUNIT2_LOD", PICA200_REG_MODELLED, "texunit.c" },
    [0x09D] = { "GPUREG_TEXUNIT2_ADDR", PICA200_REG_MODELLED, "texunit.c" },
    [0x09E] = { "GPUREG_TEXUNIT2_TYPE", PICA200_REG_MODELLED, "texunit.c" },
    [0x0A8] = { "GPUREG_TEXUNIT3_PROCTEX0", PICA200_REG_MODELLED, "proctex.c" },
    [0x0A9] = { "GPUREG_TEXUNIT3_PROCTEX1", PICA200_REG_MODELLED, "proctex.c" },
    [0x0AA] = { "GPUREG_TEXUNIT3_PROCTEX2", PICA200_REG_MODELLED, "proctex.c" },
    [0x0AB] = { "GPUREG_TEXUNIT3_PROCTEX3", PICA200_REG_MODELLED, "proctex.c" },
    [0x0AC] = { "GPUREG_TEXUNIT3_PROCTEX4", PICA200_REG_MODELLED, "proctex.c" },
    [0x0AD] = { "GPUREG_TEXUNIT3_PROCTEX5", PICA200_REG_MODELLED, "proctex.c" },
    [0x0AF] = { "GPUREG_PROCTEX_LUT", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B0] = { "GPUREG_PROCTEX_LUT_DATA0", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B1] = { "GPUREG_PROCTEX_LUT_DATA1", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B2] = { "GPUREG_PROCTEX_LUT_DATA2", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B3] = { "GPUREG_PROCTEX_LUT_DATA3", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B4] = { "GPUREG_PROCTEX_LUT_DATA4", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B5] = { "GPUREG_PROCTEX_LUT_DATA5", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B6] = { "GPUREG_PROCTEX_LUT_DATA6", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0B7] = { "GPUREG_PROCTEX_LUT_DATA7", PICA200_REG_MODELLED, "regs.c, proctex.c" },
    [0x0C0] = { "GPUREG_TEXENV0_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C1] = { "GPUREG_TEXENV0_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C2] = { "GPUREG_TEXENV0_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C3] = { "GPUREG_TEXENV0_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C4] = { "GPUREG_TEXENV0_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C8] = { "GPUREG_TEXENV1_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0C9] = { "GPUREG_TEXENV1_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0CA] = { "GPUREG_TEXENV1_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0CB] = { "GPUREG_TEXENV1_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0CC] = { "GPUREG_TEXENV1_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D0] = { "GPUREG_TEXENV2_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D1] = { "GPUREG_TEXENV2_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D2] = { "GPUREG_TEXENV2_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D3] = { "GPUREG_TEXENV2_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D4] = { "GPUREG_TEXENV2_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D8] = { "GPUREG_TEXENV3_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0D9] = { "GPUREG_TEXENV3_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0DA] = { "GPUREG_TEXENV3_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0DB] = { "GPUREG_TEXENV3_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0DC] = { "GPUREG_TEXENV3_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0E0] = { "GPUREG_TEXENV_UPDATE_BUFFER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0E1] = { "GPUREG_FOG_COLOR", PICA200_REG_MODELLED, "fog.c" },
    [0x0E4] = { "GPUREG_GAS_ATTENUATION", PICA200_REG_STORED, NULL },
    [0x0E5] = { "GPUREG_GAS_ACCMAX", PICA200_REG_STORED, NULL },
    [0x0E6] = { "GPUREG_FOG_LUT_INDEX", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0E8] = { "GPUREG_FOG_LUT_DATA0", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0E9] = { "GPUREG_FOG_LUT_DATA1", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0EA] = { "GPUREG_FOG_LUT_DATA2", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0EB] = { "GPUREG_FOG_LUT_DATA3", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0EC] = { "GPUREG_FOG_LUT_DATA4", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0ED] = { "GPUREG_FOG_LUT_DATA5", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0EE] = { "GPUREG_FOG_LUT_DATA6", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0EF] = { "GPUREG_FOG_LUT_DATA7", PICA200_REG_MODELLED, "regs.c, fog.c" },
    [0x0F0] = { "GPUREG_TEXENV4_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F1] = { "GPUREG_TEXENV4_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F2] = { "GPUREG_TEXENV4_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F3] = { "GPUREG_TEXENV4_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F4] = { "GPUREG_TEXENV4_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F8] = { "GPUREG_TEXENV5_SOURCE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0F9] = { "GPUREG_TEXENV5_OPERAND", PICA200_REG_MODELLED, "texenv.c" },
    [0x0FA] = { "GPUREG_TEXENV5_COMBINER", PICA200_REG_MODELLED, "texenv.c" },
    [0x0FB] = { "GPUREG_TEXENV5_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x0FC] = { "GPUREG_TEXENV5_SCALE", PICA200_REG_MODELLED, "texenv.c" },
    [0x0FD] = { "GPUREG_TEXENV_BUFFER_COLOR", PICA200_REG_MODELLED, "texenv.c" },
    [0x100] = { "GPUREG_COLOR_OPERATION", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x101] = { "GPUREG_BLEND_FUNC", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x102] = { "GPUREG_LOGIC_OP", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x103] = { "GPUREG_BLEND_COLOR", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x104] = { "GPUREG_FRAGOP_ALPHA_TEST", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x105] = { "GPUREG_STENCIL_TEST", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x106] = { "GPUREG_STENCIL_OP", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x107] = { "GPUREG_DEPTH_COLOR_MASK", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x110] = { "GPUREG_FRAMEBUFFER_INVALIDATE", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x111] = { "GPUREG_FRAMEBUFFER_FLUSH", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x112] = { "GPUREG_COLORBUFFER_READ", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x113] = { "GPUREG_COLORBUFFER_WRITE", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x114] = { "GPUREG_DEPTHBUFFER_READ", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x115] = { "GPUREG_DEPTHBUFFER_WRITE", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x116] = { "GPUREG_DEPTHBUFFER_FORMAT", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x117] = { "GPUREG_COLORBUFFER_FORMAT", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x118] = { "GPUREG_EARLYDEPTH_TEST2", PICA200_REG_STORED, NULL },
    [0x11B] = { "GPUREG_FRAMEBUFFER_BLOCK32", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x11C] = { "GPUREG_DEPTHBUFFER_LOC", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x11D] = { "GPUREG_COLORBUFFER_LOC", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x11E] = { "GPUREG_FRAMEBUFFER_DIM", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x120] = { "GPUREG_GAS_LIGHT_XY", PICA200_REG_STORED, NULL },
    [0x121] = { "GPUREG_GAS_LIGHT_Z", PICA200_REG_STORED, NULL },
    [0x122] = { "GPUREG_GAS_LIGHT_Z_COLOR", PICA200_REG_STORED, NULL },
    [0x123] = { "GPUREG_GAS_LUT_INDEX", PICA200_REG_STORED, "regs.c (LUT kept)" },
    [0x124] = { "GPUREG_GAS_LUT_DATA", PICA200_REG_STORED, "regs.c (LUT kept)" },
    [0x126] = { "GPUREG_GAS_DELTAZ_DEPTH", PICA200_REG_STORED, NULL },
    [0x130] = { "GPUREG_FRAGOP_SHADOW", PICA200_REG_MODELLED, "framebuffer.c" },
    [0x140] = { "GPUREG_LIGHT0_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x141] = { "GPUREG_LIGHT0_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x142] = { "GPUREG_LIGHT0_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x143] = { "GPUREG_LIGHT0_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x144] = { "GPUREG_LIGHT0_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x145] = { "GPUREG_LIGHT0_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x146] = { "GPUREG_LIGHT0_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x147] = { "GPUREG_LIGHT0_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x149] = { "GPUREG_LIGHT0_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x14A] = { "GPUREG_LIGHT0_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x14B] = { "GPUREG_LIGHT0_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x150] = { "GPUREG_LIGHT1_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x151] = { "GPUREG_LIGHT1_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x152] = { "GPUREG_LIGHT1_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x153] = { "GPUREG_LIGHT1_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x154] = { "GPUREG_LIGHT1_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x155] = { "GPUREG_LIGHT1_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x156] = { "GPUREG_LIGHT1_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x157] = { "GPUREG_LIGHT1_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x159] = { "GPUREG_LIGHT1_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x15A] = { "GPUREG_LIGHT1_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x15B] = { "GPUREG_LIGHT1_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x160] = { "GPUREG_LIGHT2_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x161] = { "GPUREG_LIGHT2_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x162] = { "GPUREG_LIGHT2_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x163] = { "GPUREG_LIGHT2_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x164] = { "GPUREG_LIGHT2_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x165] = { "GPUREG_LIGHT2_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x166] = { "GPUREG_LIGHT2_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x167] = { "GPUREG_LIGHT2_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x169] = { "GPUREG_LIGHT2_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x16A] = { "GPUREG_LIGHT2_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x16B] = { "GPUREG_LIGHT2_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x170] = { "GPUREG_LIGHT3_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x171] = { "GPUREG_LIGHT3_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x172] = { "GPUREG_LIGHT3_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x173] = { "GPUREG_LIGHT3_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x174] = { "GPUREG_LIGHT3_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x175] = { "GPUREG_LIGHT3_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x176] = { "GPUREG_LIGHT3_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x177] = { "GPUREG_LIGHT3_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x179] = { "GPUREG_LIGHT3_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x17A] = { "GPUREG_LIGHT3_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x17B] = { "GPUREG_LIGHT3_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x180] = { "GPUREG_LIGHT4_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x181] = { "GPUREG_LIGHT4_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x182] = { "GPUREG_LIGHT4_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x183] = { "GPUREG_LIGHT4_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x184] = { "GPUREG_LIGHT4_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x185] = { "GPUREG_LIGHT4_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x186] = { "GPUREG_LIGHT4_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x187] = { "GPUREG_LIGHT4_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x189] = { "GPUREG_LIGHT4_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x18A] = { "GPUREG_LIGHT4_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x18B] = { "GPUREG_LIGHT4_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x190] = { "GPUREG_LIGHT5_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x191] = { "GPUREG_LIGHT5_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x192] = { "GPUREG_LIGHT5_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x193] = { "GPUREG_LIGHT5_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x194] = { "GPUREG_LIGHT5_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x195] = { "GPUREG_LIGHT5_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x196] = { "GPUREG_LIGHT5_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x197] = { "GPUREG_LIGHT5_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x199] = { "GPUREG_LIGHT5_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x19A] = { "GPUREG_LIGHT5_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x19B] = { "GPUREG_LIGHT5_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A0] = { "GPUREG_LIGHT6_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A1] = { "GPUREG_LIGHT6_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A2] = { "GPUREG_LIGHT6_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A3] = { "GPUREG_LIGHT6_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A4] = { "GPUREG_LIGHT6_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A5] = { "GPUREG_LIGHT6_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A6] = { "GPUREG_LIGHT6_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A7] = { "GPUREG_LIGHT6_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x1A9] = { "GPUREG_LIGHT6_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x1AA] = { "GPUREG_LIGHT6_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x1AB] = { "GPUREG_LIGHT6_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B0] = { "GPUREG_LIGHT7_SPECULAR0", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B1] = { "GPUREG_LIGHT7_SPECULAR1", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B2] = { "GPUREG_LIGHT7_DIFFUSE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B3] = { "GPUREG_LIGHT7_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B4] = { "GPUREG_LIGHT7_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B5] = { "GPUREG_LIGHT7_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B6] = { "GPUREG_LIGHT7_SPOTDIR_XY", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B7] = { "GPUREG_LIGHT7_SPOTDIR_Z", PICA200_REG_MODELLED, "lighting.c" },
    [0x1B9] = { "GPUREG_LIGHT7_CONFIG", PICA200_REG_MODELLED, "lighting.c" },
    [0x1BA] = { "GPUREG_LIGHT7_ATTENUATION_BIAS", PICA200_REG_MODELLED, "lighting.c" },
    [0x1BB] = { "GPUREG_LIGHT7_ATTENUATION_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C0] = { "GPUREG_LIGHTING_AMBIENT", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C2] = { "GPUREG_LIGHTING_NUM_LIGHTS", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C3] = { "GPUREG_LIGHTING_CONFIG0", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C4] = { "GPUREG_LIGHTING_CONFIG1", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C5] = { "GPUREG_LIGHTING_LUT_INDEX", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1C6] = { "GPUREG_LIGHTING_ENABLE1", PICA200_REG_MODELLED, "lighting.c" },
    [0x1C8] = { "GPUREG_LIGHTING_LUT_DATA0", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1C9] = { "GPUREG_LIGHTING_LUT_DATA1", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CA] = { "GPUREG_LIGHTING_LUT_DATA2", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CB] = { "GPUREG_LIGHTING_LUT_DATA3", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CC] = { "GPUREG_LIGHTING_LUT_DATA4", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CD] = { "GPUREG_LIGHTING_LUT_DATA5", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CE] = { "GPUREG_LIGHTING_LUT_DATA6", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1CF] = { "GPUREG_LIGHTING_LUT_DATA7", PICA200_REG_MODELLED, "regs.c, lighting.c" },
    [0x1D0] = { "GPUREG_LIGHTING_LUTINPUT_ABS", PICA200_REG_MODELLED, "lighting.c" },
    [0x1D1] = { "GPUREG_LIGHTING_LUTINPUT_SELECT", PICA200_REG_MODELLED, "lighting.c" },
    [0x1D2] = { "GPUREG_LIGHTING_LUTINPUT_SCALE", PICA200_REG_MODELLED, "lighting.c" },
    [0x1D9] = { "GPUREG_LIGHTING_LIGHT_PERMUTATION", PICA200_REG_MODELLED, "lighting.c" },
    [0x200] = { "GPUREG_ATTRIBBUFFERS_LOC", PICA200_REG_MODELLED, "pipeline.c" },
    [0x201] = { "GPUREG_ATTRIBBUFFERS_FORMAT_LOW", PICA200_REG_MODELLED, "pipeline.c" },
    [0x202] = { "GPUREG_ATTRIBBUFFERS_FORMAT_HIGH", PICA200_REG_MODELLED, "pipeline.c" },
    [0x203] = { "GPUREG_ATTRIBBUFFER0_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x204] = { "GPUREG_ATTRIBBUFFER0_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x205] = { "GPUREG_ATTRIBBUFFER0_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x206] = { "GPUREG_ATTRIBBUFFER1_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x207] = { "GPUREG_ATTRIBBUFFER1_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x208] = { "GPUREG_ATTRIBBUFFER1_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x209] = { "GPUREG_ATTRIBBUFFER2_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20A] = { "GPUREG_ATTRIBBUFFER2_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20B] = { "GPUREG_ATTRIBBUFFER2_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20C] = { "GPUREG_ATTRIBBUFFER3_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20D] = { "GPUREG_ATTRIBBUFFER3_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20E] = { "GPUREG_ATTRIBBUFFER3_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x20F] = { "GPUREG_ATTRIBBUFFER4_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x210] = { "GPUREG_ATTRIBBUFFER4_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x211] = { "GPUREG_ATTRIBBUFFER4_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x212] = { "GPUREG_ATTRIBBUFFER5_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x213] = { "GPUREG_ATTRIBBUFFER5_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x214] = { "GPUREG_ATTRIBBUFFER5_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x215] = { "GPUREG_ATTRIBBUFFER6_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x216] = { "GPUREG_ATTRIBBUFFER6_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x217] = { "GPUREG_ATTRIBBUFFER6_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x218] = { "GPUREG_ATTRIBBUFFER7_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x219] = { "GPUREG_ATTRIBBUFFER7_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21A] = { "GPUREG_ATTRIBBUFFER7_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21B] = { "GPUREG_ATTRIBBUFFER8_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21C] = { "GPUREG_ATTRIBBUFFER8_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21D] = { "GPUREG_ATTRIBBUFFER8_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21E] = { "GPUREG_ATTRIBBUFFER9_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x21F] = { "GPUREG_ATTRIBBUFFER9_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x220] = { "GPUREG_ATTRIBBUFFER9_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x221] = { "GPUREG_ATTRIBBUFFER10_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x222] = { "GPUREG_ATTRIBBUFFER10_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x223] = { "GPUREG_ATTRIBBUFFER10_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x224] = { "GPUREG_ATTRIBBUFFER11_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x225] = { "GPUREG_ATTRIBBUFFER11_CONFIG1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x226] = { "GPUREG_ATTRIBBUFFER11_CONFIG2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x227] = { "GPUREG_INDEXBUFFER_CONFIG", PICA200_REG_MODELLED, "pipeline.c" },
    [0x228] = { "GPUREG_NUMVERTICES", PICA200_REG_MODELLED, "pipeline.c" },
    [0x229] = { "GPUREG_GEOSTAGE_CONFIG", PICA200_REG_MODELLED, "pipeline.c" },
    [0x22A] = { "GPUREG_VERTEX_OFFSET", PICA200_REG_MODELLED, "pipeline.c" },
    [0x22D] = { "GPUREG_POST_VERTEX_CACHE_NUM", PICA200_REG_STORED, NULL },
    [0x22E] = { "GPUREG_DRAWARRAYS", PICA200_REG_MODELLED, "pipeline.c" },
    [0x22F] = { "GPUREG_DRAWELEMENTS", PICA200_REG_MODELLED, "pipeline.c" },
    [0x231] = { "GPUREG_VTX_FUNC", PICA200_REG_MODELLED, "pipeline.c" },
    [0x232] = { "GPUREG_FIXEDATTRIB_INDEX", PICA200_REG_MODELLED, "pipeline.c" },
    [0x233] = { "GPUREG_FIXEDATTRIB_DATA0", PICA200_REG_MODELLED, "pipeline.c" },
    [0x234] = { "GPUREG_FIXEDATTRIB_DATA1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x235] = { "GPUREG_FIXEDATTRIB_DATA2", PICA200_REG_MODELLED, "pipeline.c" },
    [0x238] = { "GPUREG_CMDBUF_SIZE0", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x239] = { "GPUREG_CMDBUF_SIZE1", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x23A] = { "GPUREG_CMDBUF_ADDR0", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x23B] = { "GPUREG_CMDBUF_ADDR1", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x23C] = { "GPUREG_CMDBUF_JUMP0", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x23D] = { "GPUREG_CMDBUF_JUMP1", PICA200_REG_MODELLED, "cmdlist.c" },
    [0x242] = { "GPUREG_VSH_NUM_ATTR", PICA200_REG_MODELLED, "pipeline.c" },
    [0x244] = { "GPUREG_VSH_COM_MODE", PICA200_REG_MODELLED, "pipeline.c" },
    [0x245] = { "GPUREG_START_DRAW_FUNC0", PICA200_REG_STORED, NULL },
    [0x24A] = { "GPUREG_VSH_OUTMAP_TOTAL1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x251] = { "GPUREG_VSH_OUTMAP_TOTAL2", PICA200_REG_STORED, NULL },
    [0x252] = { "GPUREG_GSH_MISC0", PICA200_REG_MODELLED, "pipeline.c" },
    [0x253] = { "GPUREG_GEOSTAGE_CONFIG2", PICA200_REG_STORED, NULL },
    [0x254] = { "GPUREG_GSH_MISC1", PICA200_REG_MODELLED, "pipeline.c" },
    [0x25E] = { "GPUREG_PRIMITIVE_CONFIG", PICA200_REG_MODELLED, "primitive.c" },
    [0x25F] = { "GPUREG_RESTART_PRIMITIVE", PICA200_REG_MODELLED, "primitive.c" },
    [0x280] = { "GPUREG_GSH_BOOLUNIFORM", PICA200_REG_MODELLED, "shader.c" },
    [0x281] = { "GPUREG_GSH_INTUNIFORM_I0", PICA200_REG_MODELLED, "shader.c" },
    [0x282] = { "GPUREG_GSH_INTUNIFORM_I1", PICA200_REG_MODELLED, "shader.c" },
    [0x283] = { "GPUREG_GSH_INTUNIFORM_I2", PICA200_REG_MODELLED, "shader.c" },
    [0x284] = { "GPUREG_GSH_INTUNIFORM_I3", PICA200_REG_MODELLED, "shader.c" },
    [0x289] = { "GPUREG_GSH_INPUTBUFFER_CONFIG", PICA200_REG_MODELLED, "shader.c" },
    [0x28A] = { "GPUREG_GSH_ENTRYPOINT", PICA200_REG_MODELLED, "shader.c" },
    [0x28B] = { "GPUREG_GSH_ATTRIBUTES_PERMUTATION_LOW", PICA200_REG_MODELLED, "shader.c" },
    [0x28C] = { "GPUREG_GSH_ATTRIBUTES_PERMUTATION_HIGH", PICA200_REG_MODELLED, "shader.c" },
    [0x28D] = { "GPUREG_GSH_OUTMAP_MASK", PICA200_REG_MODELLED, "shader.c" },
    [0x28F] = { "GPUREG_GSH_CODETRANSFER_END", PICA200_REG_MODELLED, "shader.c" },
    [0x290] = { "GPUREG_GSH_FLOATUNIFORM_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x291] = { "GPUREG_GSH_FLOATUNIFORM_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x292] = { "GPUREG_GSH_FLOATUNIFORM_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x293] = { "GPUREG_GSH_FLOATUNIFORM_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x294] = { "GPUREG_GSH_FLOATUNIFORM_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x295] = { "GPUREG_GSH_FLOATUNIFORM_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x296] = { "GPUREG_GSH_FLOATUNIFORM_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x297] = { "GPUREG_GSH_FLOATUNIFORM_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x298] = { "GPUREG_GSH_FLOATUNIFORM_DATA7", PICA200_REG_MODELLED, "shader.c" },
    [0x29B] = { "GPUREG_GSH_CODETRANSFER_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x29C] = { "GPUREG_GSH_CODETRANSFER_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x29D] = { "GPUREG_GSH_CODETRANSFER_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x29E] = { "GPUREG_GSH_CODETRANSFER_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x29F] = { "GPUREG_GSH_CODETRANSFER_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x2A0] = { "GPUREG_GSH_CODETRANSFER_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x2A1] = { "GPUREG_GSH_CODETRANSFER_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x2A2] = { "GPUREG_GSH_CODETRANSFER_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x2A3] = { "GPUREG_GSH_CODETRANSFER_DATA7", PICA200_REG_MODELLED, "shader.c" },
    [0x2A5] = { "GPUREG_GSH_OPDESCS_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x2A6] = { "GPUREG_GSH_OPDESCS_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x2A7] = { "GPUREG_GSH_OPDESCS_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x2A8] = { "GPUREG_GSH_OPDESCS_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x2A9] = { "GPUREG_GSH_OPDESCS_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x2AA] = { "GPUREG_GSH_OPDESCS_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x2AB] = { "GPUREG_GSH_OPDESCS_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x2AC] = { "GPUREG_GSH_OPDESCS_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x2AD] = { "GPUREG_GSH_OPDESCS_DATA7", PICA200_REG_MODELLED, "shader.c" },
    [0x2B0] = { "GPUREG_VSH_BOOLUNIFORM", PICA200_REG_MODELLED, "shader.c" },
    [0x2B1] = { "GPUREG_VSH_INTUNIFORM_I0", PICA200_REG_MODELLED, "shader.c" },
    [0x2B2] = { "GPUREG_VSH_INTUNIFORM_I1", PICA200_REG_MODELLED, "shader.c" },
    [0x2B3] = { "GPUREG_VSH_INTUNIFORM_I2", PICA200_REG_MODELLED, "shader.c" },
    [0x2B4] = { "GPUREG_VSH_INTUNIFORM_I3", PICA200_REG_MODELLED, "shader.c" },
    [0x2B9] = { "GPUREG_VSH_INPUTBUFFER_CONFIG", PICA200_REG_MODELLED, "shader.c" },
    [0x2BA] = { "GPUREG_VSH_ENTRYPOINT", PICA200_REG_MODELLED, "shader.c" },
    [0x2BB] = { "GPUREG_VSH_ATTRIBUTES_PERMUTATION_LOW", PICA200_REG_MODELLED, "shader.c" },
    [0x2BC] = { "GPUREG_VSH_ATTRIBUTES_PERMUTATION_HIGH", PICA200_REG_MODELLED, "shader.c" },
    [0x2BD] = { "GPUREG_VSH_OUTMAP_MASK", PICA200_REG_MODELLED, "shader.c" },
    [0x2BF] = { "GPUREG_VSH_CODETRANSFER_END", PICA200_REG_MODELLED, "shader.c" },
    [0x2C0] = { "GPUREG_VSH_FLOATUNIFORM_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x2C1] = { "GPUREG_VSH_FLOATUNIFORM_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x2C2] = { "GPUREG_VSH_FLOATUNIFORM_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x2C3] = { "GPUREG_VSH_FLOATUNIFORM_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x2C4] = { "GPUREG_VSH_FLOATUNIFORM_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x2C5] = { "GPUREG_VSH_FLOATUNIFORM_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x2C6] = { "GPUREG_VSH_FLOATUNIFORM_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x2C7] = { "GPUREG_VSH_FLOATUNIFORM_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x2C8] = { "GPUREG_VSH_FLOATUNIFORM_DATA7", PICA200_REG_MODELLED, "shader.c" },
    [0x2CB] = { "GPUREG_VSH_CODETRANSFER_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x2CC] = { "GPUREG_VSH_CODETRANSFER_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x2CD] = { "GPUREG_VSH_CODETRANSFER_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x2CE] = { "GPUREG_VSH_CODETRANSFER_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x2CF] = { "GPUREG_VSH_CODETRANSFER_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x2D0] = { "GPUREG_VSH_CODETRANSFER_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x2D1] = { "GPUREG_VSH_CODETRANSFER_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x2D2] = { "GPUREG_VSH_CODETRANSFER_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x2D3] = { "GPUREG_VSH_CODETRANSFER_DATA7", PICA200_REG_MODELLED, "shader.c" },
    [0x2D5] = { "GPUREG_VSH_OPDESCS_INDEX", PICA200_REG_MODELLED, "shader.c" },
    [0x2D6] = { "GPUREG_VSH_OPDESCS_DATA0", PICA200_REG_MODELLED, "shader.c" },
    [0x2D7] = { "GPUREG_VSH_OPDESCS_DATA1", PICA200_REG_MODELLED, "shader.c" },
    [0x2D8] = { "GPUREG_VSH_OPDESCS_DATA2", PICA200_REG_MODELLED, "shader.c" },
    [0x2D9] = { "GPUREG_VSH_OPDESCS_DATA3", PICA200_REG_MODELLED, "shader.c" },
    [0x2DA] = { "GPUREG_VSH_OPDESCS_DATA4", PICA200_REG_MODELLED, "shader.c" },
    [0x2DB] = { "GPUREG_VSH_OPDESCS_DATA5", PICA200_REG_MODELLED, "shader.c" },
    [0x2DC] = { "GPUREG_VSH_OPDESCS_DATA6", PICA200_REG_MODELLED, "shader.c" },
    [0x2DD] = { "GPUREG_VSH_OPDESCS_DATA7", PICA200_REG_MODELLED, "shader.c" },
};

static const Pica200RegInfo unnamed_info = { NULL, PICA200_REG_UNNAMED, NULL };

const Pica200RegInfo *pica200_reg_info(unsigned id)
{
    if (id >= PICA_NREGS) {
        return NULL;
    }
    return reg_info[id].name ? &reg_info[id] : &unnamed_info;
}

void pica_regs_reset(Pica200Core *c)
{
    memset(c->regs, 0, sizeof(c->regs));
    c->irq_stat = 0;
    /*
     * The values the 3DS's GSP driver programs at GPU init (3dbrew External
     * Registers): FINALIZE with 0x12345678 then raises the P3D interrupt and
     * stops the list, as the reference describes FINALIZE.
     */
    c->regs[GPUREG_IRQ_CMP0] = 0x12345678;
    c->regs[GPUREG_IRQ_MASK_LO] = 0xFFFFFFF0;
    c->regs[GPUREG_IRQ_MASK_HI] = 0xFFFFFFFF;
    c->regs[GPUREG_IRQ_AUTOSTOP] = 1;
    memset(c->proctex_lut, 0, sizeof(c->proctex_lut));
    memset(c->fog_lut, 0, sizeof(c->fog_lut));
    memset(c->gas_lut, 0, sizeof(c->gas_lut));
    memset(c->light_lut, 0, sizeof(c->light_lut));
    c->rs_dirty = true;
}

/* ---- interrupts (3Beans GPU interrupt registers) ------------------------- */

/*
 * Request byte i (0..63) raises interrupt i when it equals its compare byte
 * and the mask bit is clear.
 */
static bool irq_check(Pica200Core *c, unsigned i)
{
    uint64_t mask = (uint64_t)c->regs[GPUREG_IRQ_MASK_HI] << 32 |
                    c->regs[GPUREG_IRQ_MASK_LO];
    uint32_t req = c->regs[GPUREG_IRQ_REQ0 + i / 4];
    uint32_t cmp = c->regs[GPUREG_IRQ_CMP0 + i / 4];

    if ((mask >> i) & 1) {
        return false;
    }
    if (((req ^ cmp) >> ((i & 3) * 8)) & 0xFF) {
        return false;
    }
    c->irq_stat |= 1ull << i;
    return true;
}

static void irq_write(Pica200Core *c, uint32_t id, uint32_t value,
                      uint32_t mask)
{
    unsigned word = id & 0xF, j;

    if (id < GPUREG_IRQ_REQ0) {
        /* ACK: rewrites the request bytes; a byte that no longer matches
         * clears its status bit */
        uint32_t *req = &c->regs[GPUREG_IRQ_REQ0 + word];
        *req = (*req & ~mask) | (value & mask);
        for (j = 0; j < 4; j++) {
            if ((mask >> (j * 8)) & 0xFF && !irq_check(c, word * 4 + j)) {
                c->irq_stat &= ~(1ull << (word * 4 + j));
            }
        }
    } else if (id < GPUREG_IRQ_CMP0) {
        /* REQ (GPUREG_FINALIZE is REQ0): a match interrupts, and with
         * AUTOSTOP ends the command list */
        c->cp.finalized = true;
        for (j = 0; j < 4; j++) {
            if ((mask >> (j * 8)) & 0xFF && irq_check(c, word * 4 + j) &&
                (c->regs[GPUREG_IRQ_AUTOSTOP] & 1)) {
                pica_cmdlist_stop(c);
            }
        }
    } else if (id < GPUREG_IRQ_MASK_LO) {
        for (j = 0; j < 4; j++) {
            if ((mask >> (j * 8)) & 0xFF) {
                irq_check(c, word * 4 + j);
            }
        }
    }
    pica_update_irq(c);
}

/* ---- lookup-table data ports ----------------------------------------------- */

static void lut_push(Pica200Core *c, uint32_t index_reg, uint32_t value)
{
    uint32_t *ir = &c->regs[index_reg];
    uint32_t idx, table;

    switch (index_reg) {
    case GPUREG_PROCTEX_LUT: {
        /* b0-7 index, b8-11 table: 0 noise, 2 RGB map, 3 alpha map (128),
         * 4 colour, 5 colour difference (256) */
        static const uint16_t size[16] = { 128, 0, 128, 128, 256, 256 };
        idx = *ir & 0xFF;
        table = (*ir >> 8) & 0xF;
        if (!size[table]) {
            g3d_guest_error("pica200: procedural texture LUT %u does not exist",
                            table);
            return;
        }
        idx %= size[table];
        c->proctex_lut[table][idx] = value;
        *ir = (*ir & ~0xFFu) | ((idx + 1) % size[table]);
        return;
    }
    case GPUREG_FOG_LUT_INDEX:
        /* Citra: modulo 128 (reference defect PICA-29, docs/references.md) */
        idx = (*ir & 0xFFFF) % 128;
        c->fog_lut[idx] = value & 0xFFFFFF;
        *ir = (*ir & ~0xFFFFu) | ((idx + 1) % 128);
        return;
    case GPUREG_GAS_LUT_INDEX:
        idx = (*ir & 0xFFFF) % 16;
        c->gas_lut[idx] = value;
        *ir = (*ir & ~0xFFFFu) | ((idx + 1) % 16);
        return;
    case GPUREG_LIGHTING_LUT_INDEX:
        /* b0-7 index, b8-12 LUT: 0 D0, 1 D1, 3 FR, 4-6 RB/RG/RR,
         * 8-15 SP0-7, 16-23 DA0-7 */
        idx = *ir & 0xFF;
        table = (*ir >> 8) & 0x1F;
        if (table == 2 || table == 7 || table >= 24) {
            g3d_guest_error("pica200: lighting LUT %u does not exist", table);
            return;
        }
        c->light_lut[table][idx] = value & 0xFFFFFF;
        *ir = (*ir & ~0xFFu) | ((idx + 1) & 0xFF);
        return;
    }
}

/* ---- writes ----------------------------------------------------------------- */

static bool is_data_port(uint32_t id)
{
    return (id >= GPUREG_PROCTEX_LUT_DATA0 && id <= GPUREG_PROCTEX_LUT_DATA7) ||
           (id >= GPUREG_FOG_LUT_DATA0 && id <= GPUREG_FOG_LUT_DATA7) ||
           id == GPUREG_GAS_LUT_DATA ||
           (id >= GPUREG_LIGHTING_LUT_DATA0 && id <= GPUREG_LIGHTING_LUT_DATA7) ||
           (id >= GPUREG_FIXEDATTRIB_DATA0 && id <= GPUREG_FIXEDATTRIB_DATA2) ||
           (id >= GPUREG_GSH_FLOATUNIFORM_DATA0 && id <= GPUREG_GSH_FLOATUNIFORM_DATA7) ||
           (id >= GPUREG_GSH_CODETRANSFER_DATA0 && id <= GPUREG_GSH_CODETRANSFER_DATA7) ||
           (id >= GPUREG_GSH_OPDESCS_DATA0 && id <= GPUREG_GSH_OPDESCS_DATA7) ||
           (id >= GPUREG_VSH_FLOATUNIFORM_DATA0 && id <= GPUREG_VSH_FLOATUNIFORM_DATA7) ||
           (id >= GPUREG_VSH_CODETRANSFER_DATA0 && id <= GPUREG_VSH_CODETRANSFER_DATA7) ||
           (id >= GPUREG_VSH_OPDESCS_DATA0 && id <= GPUREG_VSH_OPDESCS_DATA7);
}

static void shader_block_write(Pica200Core *c, uint32_t id, uint32_t value,
                               uint32_t mask)
{
    unsigned unit = id >= PICA_VSH_BASE ? PICA_UNIT_VS : PICA_UNIT_GS;
    unsigned off = id - (unit == PICA_UNIT_VS ? PICA_VSH_BASE : PICA_GSH_BASE);

    pica_shader_reg_write(c, unit, off, c->regs[id]);
    /*
     * VSH_COM_MODE b0 = 0 and no geometry shader: the GS unit runs vertex
     * shaders too, so VS configuration reaches it as well (Citra).
     */
    if (unit == PICA_UNIT_VS && !(c->regs[GPUREG_VSH_COM_MODE] & 1) &&
        G3D_FIELD_EX32(c->regs[GPUREG_GEOSTAGE_CONFIG], GPUREG_GEOSTAGE_CONFIG,
                       GS_MODE) != 2) {
        uint32_t *g = &c->regs[PICA_GSH_BASE + off];
        *g = (*g & ~mask) | (value & mask);
        pica_shader_reg_write(c, PICA_UNIT_GS, off, *g);
    }
}

void pica_reg_write(Pica200Core *c, uint32_t id, uint32_t value, uint32_t mask)
{
    uint32_t written = value & mask;

    if (id >= PICA_NREGS) {
        g3d_guest_error("pica200: write 0x%08x to internal register 0x%x "
                        "(IDs end at 0x2ff)", value, id);
        return;
    }
    c->regs[id] = (c->regs[id] & ~mask) | written;
    if (mask != 0xFFFFFFFF && is_data_port(id)) {
        /* (reference defect PICA-2, docs/references.md): the port takes what
         * the masked write leaves in the register */
        g3d_guest_error("pica200: byte mask 0x%08x on data port 0x%03x",
                        mask, id);
    }
    if (id >= 0x040 && id < 0x200) {
        c->rs_dirty = true;          /* render state changed */
    }
    if (id < GPUREG_IRQ_AUTOSTOP) {
        if (id == GPUREG_IRQ_STAT_LO || id == GPUREG_IRQ_STAT_HI) {
            c->regs[id] = 0;
            g3d_guest_error("pica200: IRQ_STAT is read-only");
            return;
        }
        if (id < GPUREG_IRQ_MASK_LO) {
            irq_write(c, id, value, mask);
        }
        return;
    }

    switch (id) {
    case GPUREG_FRAMEBUFFER_INVALIDATE:
    case GPUREG_FRAMEBUFFER_FLUSH:
        if (written) {
            /* rendering writes memory directly: a flush is a sync point */
            pica_raster_flush(c);
            pica_display_changed(c);
        }
        return;
    case GPUREG_EARLYDEPTH_CLEAR:
        return;
    case GPUREG_PROCTEX_LUT_DATA0 ... GPUREG_PROCTEX_LUT_DATA7:
        lut_push(c, GPUREG_PROCTEX_LUT, c->regs[id]);
        return;
    case GPUREG_FOG_LUT_DATA0 ... GPUREG_FOG_LUT_DATA7:
        lut_push(c, GPUREG_FOG_LUT_INDEX, c->regs[id]);
        return;
    case GPUREG_GAS_LUT_DATA:
        lut_push(c, GPUREG_GAS_LUT_INDEX, c->regs[id]);
        return;
    case GPUREG_LIGHTING_LUT_DATA0 ... GPUREG_LIGHTING_LUT_DATA7:
        lut_push(c, GPUREG_LIGHTING_LUT_INDEX, c->regs[id]);
        return;
    case GPUREG_DRAWARRAYS:
    case GPUREG_DRAWELEMENTS:
        if (written) {
            pica_draw_start(c, id == GPUREG_DRAWELEMENTS);
        }
        return;
    case GPUREG_VTX_FUNC:
        if (written) {
            memset(c->draw.cache_valid, 0, sizeof(c->draw.cache_valid));
        }
        return;
    case GPUREG_FIXEDATTRIB_INDEX:
        pica_fixedattrib_index(c, c->regs[id]);
        return;
    case GPUREG_FIXEDATTRIB_DATA0:
    case GPUREG_FIXEDATTRIB_DATA1:
    case GPUREG_FIXEDATTRIB_DATA2:
        pica_fixedattrib_data(c, c->regs[id]);
        return;
    case GPUREG_CMDBUF_JUMP0:
    case GPUREG_CMDBUF_JUMP1:
        if (written) {
            pica_cmdlist_jump(c, id - GPUREG_CMDBUF_JUMP0);
        }
        return;
    case GPUREG_PRIMITIVE_CONFIG:
        /* a new topology starts a new strip/fan (Citra Reconfigure) */
        pica_pa_restart(c);
        return;
    case GPUREG_RESTART_PRIMITIVE:
        if (written & 1) {
            pica_pa_restart(c);
        }
        return;
    }
    if (id >= PICA_GSH_BASE && id < PICA_GSH_BASE + 0x30) {
        shader_block_write(c, id, value, mask);
    } else if (id >= PICA_VSH_BASE && id < PICA_VSH_BASE + 0x30) {
        shader_block_write(c, id, value, mask);
    }
}

uint32_t pica_reg_read(Pica200Core *c, uint32_t id)
{
    if (id >= PICA_NREGS) {
        return 0;
    }
    if (id < GPUREG_IRQ_REQ0) {
        return c->regs[GPUREG_IRQ_REQ0 + id];   /* ACK reads the requests */
    }
    if (id == GPUREG_IRQ_STAT_LO) {
        return (uint32_t)c->irq_stat;
    }
    if (id == GPUREG_IRQ_STAT_HI) {
        return (uint32_t)(c->irq_stat >> 32);
    }
    return c->regs[id];
}
