/*
 * R300 register file: every register of the reference with its reset value,
 * the bits that store, its access rules, and the side effects of writes.
 *
 * The table comes from the reference's register entries (offset, fields,
 * defaults), with the repairs noted per row (reference defects R300-n,
 * docs/references.md).
 * Decisions (docs/r300-3d.md): undocumented bits of a documented register
 * read back as 0; every dword of the 3D range 0x1D98-0x4FFC that the
 * reference does not list is stored whole [R3xx 3D ref. §1]; VAP registers
 * accept 32-bit accesses only, the others 8/16/32 [R3xx 3D ref. §1 access
 * column].
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "r300-int.h"

#include <string.h>

const R300RegInfo r300_reg_info[] = {
    R300_REG_ARRAY(VAP_PORT_DATA, 16, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD),
    R300_REG_ARRAY(VAP_PORT_IDX, 16, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD),
    R300_REG_ROW(VAP_CNTL, 1, 4, 0x00240000, 0x007C0FFF, R300_REG_DWORD | R300_REG_PARTIAL,
      "DX_CLIP_SPACE_DEF only; the rest is performance partitioning"),
    R300_REG_ROW(VAP_VF_CNTL, 1, 4, 0x00000000, 0xFFFF3FFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_OUT_VTX_FMT_0, 1, 4, 0x00000000, 0x0001001F, R300_REG_DWORD),
    R300_REG_ROW(VAP_OUT_VTX_FMT_1, 1, 4, 0x00000000, 0x00FFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_XSCALE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_XOFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_YSCALE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_YOFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_ZSCALE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VPORT_ZOFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VTE_CNTL, 1, 4, 0x00000000, 0x00000F3F, R300_REG_DWORD),
    R300_REG_ROW(VAP_VTX_SIZE, 1, 4, 0x00000000, 0x0000007F, R300_REG_DWORD),
    R300_REG_ROW(VAP_PORT_DATA_IDX_128, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD),
    R300_REG_ROW(VAP_VTX_NUM_ARRAYS, 1, 4, 0x00000000, 0xFFFF007F, R300_REG_DWORD),
    R300_REG_ARRAY(VAP_VTX_AOS_ATTR, 8, 12, 0x00000000, 0x7F7F7F7F, R300_REG_DWORD),
    R300_REG_AT(VAP_VTX_AOS_ADDR_EVEN, R300_VAP_VTX_AOS_ADDR(0), 8, 12, 0x00000000, 0xFFFFFFFC, R300_REG_DWORD),
    R300_REG_AT(VAP_VTX_AOS_ADDR_ODD, R300_VAP_VTX_AOS_ADDR(1), 8, 12, 0x00000000, 0xFFFFFFFC, R300_REG_DWORD),
    R300_REG_ROW(VAP_VF_MAX_VTX_INDX, 1, 4, 0x00000000, 0x00FFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VF_MIN_VTX_INDX, 1, 4, 0x00000000, 0x00FFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_CNTL_STATUS, 1, 4, 0x00000000, 0x00000103, R300_REG_DWORD), /* busy bits 11, 24-31 are read-only */
    R300_REG_ARRAY(VAP_PROG_STREAM_CNTL, 8, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VTX_STATE_CNTL, 1, 4, 0x00000000, 0x0005FFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_PSC_SGN_NORM_CNTL, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ARRAY(VAP_PROG_STREAM_CNTL_EXT, 8, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_VECTOR_INDX_REG, 1, 4, 0x00000000, 0x000007FF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_VECTOR_DATA_REG, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_VECTOR_DATA_REG_128, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD),
    R300_REG_ROW(VAP_CLIP_CNTL, 1, 4, 0x00000000, 0x0007C03F, R300_REG_DWORD | R300_REG_PARTIAL,
      "UCP_ENA, CLIP_DISABLE; PS_UCP_MODE, UCP_CULL_ONLY_ENA, BOUNDARY_EDGE_FLAG_ENA not modelled"),
    R300_REG_ROW(VAP_GB_VERT_CLIP_ADJ, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_GB_VERT_DISC_ADJ, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_GB_HORZ_CLIP_ADJ, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_GB_HORZ_DISC_ADJ, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_PVS_FLOW_CNTL_ADDRS, 16, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_STATE_FLUSH_REG, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_VTX_TIMEOUT_REG, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_PVS_FLOW_CNTL_LOOP_INDEX, 16, 4, 0x00000000, 0x0000FFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_CODE_CNTL_0, 1, 4, 0x00000000, 0x3FFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_CONST_CNTL, 1, 4, 0x00000000, 0x00FF00FF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_CODE_CNTL_1, 1, 4, 0x00000000, 0x000003FF, R300_REG_DWORD),
    R300_REG_ROW(VAP_PVS_FLOW_CNTL_OPC, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD),
    R300_REG_ROW(VAP_VTX_ST_POS_0_X_4, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_Y_4, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_Z_4, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_W_4, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_0_X, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_0_Y, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_0_Z, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_PVMS, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_CLR_R, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_CLR_G, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_CLR_B, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_CLR_A, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_TEX_S, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_TEX_T, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_TEX_R, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_TEX_Q, 8, 16, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_PNT_SPRT_SZ, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_DISC_FOG, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_SHININESS_0, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_SHININESS_1, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_BLND_WT, 4, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_1_X, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_1_Y, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_1_Z, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_1_W, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_1_X, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_1_Y, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED), /* OCR-damaged field row */
    R300_REG_ROW(VAP_VTX_ST_NORM_1_Z, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_EDGE_FLAGS, 1, 4, 0x00000000, 0x00000001, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_USR_CLR_R, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_USR_CLR_G, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_USR_CLR_B, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_USR_CLR_A, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ARRAY(VAP_VTX_ST_CLR_PKD, 8, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_X_2, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_Y_2, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_NORM_0_PKD, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_USR_CLR_PKD, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_X_3, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_Y_3, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_POS_0_Z_3, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(VAP_VTX_ST_END_OF_PKT, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_WO | R300_REG_DWORD | R300_REG_STORED),
    R300_REG_ROW(GB_ENABLE, 1, 4, 0x00000000, 0xFFFF0037, R300_REG_PARTIAL,
      "texcoord stuffing; STENCIL_AUTO not modelled"),
    R300_REG_ROW(GB_MSPOS0, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_PARTIAL,
      "sample positions 0-2; MSBD0 (a scan-converter hint) stored"),
    R300_REG_ROW(GB_MSPOS1, 1, 4, 0x00000000, 0x0FFFFFFF, R300_REG_PARTIAL,
      "sample positions 3-5; MSBD1 (a scan-converter hint) stored"),
    R300_REG_ROW(GB_TILE_CONFIG, 1, 4, 0x00000011, 0x000FFFFF, R300_REG_PARTIAL,
      "SUBPIXEL only; pipes and tiles do not change the picture"),
    R300_REG_ROW(GB_SELECT, 1, 4, 0x00000000, 0x0000001F, 0),
    R300_REG_ROW(GB_AA_CONFIG, 1, 4, 0x00000000, 0x00000007, 0),
    /* RS_HIGHWATER_TEX 21:19 lost in the reference [reference defect R300-23,
     * docs/references.md] */
    R300_REG_ROW(GB_FIFO_SIZE, 1, 4, 0x00000000, 0x0FFFFFFF, R300_REG_STORED),
    R300_REG_ROW(TX_INVALTAGS, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(TX_ENABLE, 1, 4, 0x00000000, 0x0000FFFF, 0),
    R300_REG_ROW(GA_POINT_S0, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_POINT_T0, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_POINT_S1, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_POINT_T1, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_TRIANGLE_STIPPLE, 1, 4, 0x00000000, 0x000F000F, R300_REG_STORED),
    R300_REG_ROW(GA_POINT_SIZE, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_POINT_MINMAX, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_LINE_CNTL, 1, 4, 0x00000000, 0x0003FFFF, 0),
    R300_REG_ROW(GA_LINE_STIPPLE_CONFIG, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(GA_LINE_STIPPLE_VALUE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(GA_LINE_S0, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_LINE_S1, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    /* FASTSYNC_CNTL bit 1 lost (reference defect R300-15,
     * docs/references.md) */
    R300_REG_ROW(GA_ENHANCE, 1, 4, 0x00000000, 0x00000003, R300_REG_STORED),
    R300_REG_ROW(GA_COLOR_CONTROL, 1, 4, 0x00000000, 0x0003FFFF, 0),
    R300_REG_ROW(GA_SOLID_RG, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_SOLID_BA, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_POLY_MODE, 1, 4, 0x00000000, 0x000003F3, 0),
    R300_REG_ROW(GA_ROUND_MODE, 1, 4, 0x00000000, 0x0000003F, 0),
    R300_REG_ROW(GA_OFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_FOG_SCALE, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_FOG_OFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(GA_SOFT_RESET, 1, 4, 0x00000000, 0x0000FFFF, 0),
    R300_REG_ROW(SU_TEX_WRAP, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(SU_POLY_OFFSET_FRONT_SCALE, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_POLY_OFFSET_FRONT_OFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_POLY_OFFSET_BACK_SCALE, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_POLY_OFFSET_BACK_OFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_POLY_OFFSET_ENABLE, 1, 4, 0x00000000, 0x00000007, 0),
    R300_REG_ROW(SU_CULL_MODE, 1, 4, 0x00000000, 0x00000007, 0),
    R300_REG_ROW(SU_DEPTH_SCALE, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_DEPTH_OFFSET, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(SU_REG_DEST, 1, 4, 0x00000000, 0x0000000F, 0),
    R300_REG_ROW(RS_COUNT, 1, 4, 0x00000000, 0x0007FFFF, R300_REG_STORED),
    R300_REG_ROW(RS_INST_COUNT, 1, 4, 0x00000000, 0x000000FF, R300_REG_PARTIAL,
      "INST_COUNT; W_EN and TX_OFFSET not modelled"),
    R300_REG_ARRAY(RS_IP, 8, 4, 0x00000000, 0x01FFFFFF, 0),
    R300_REG_ARRAY(RS_INST, 16, 4, 0x00000000, 0x01FFFFFF, 0),
    R300_REG_ROW(SC_HYPERZ_EN, 1, 4, 0x00000000, 0x0000007F, R300_REG_STORED),
    R300_REG_ROW(SC_EDGERULE, 1, 4, 0x00000000, 0x3FFFFFFF, 0),
    R300_REG_ROW(SC_CLIP_0_A, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_0_B, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_1_A, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_1_B, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_2_A, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_2_B, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_3_A, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_3_B, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_CLIP_RULE, 1, 4, 0x00000000, 0x0000FFFF, 0),
    R300_REG_ROW(SC_SCISSOR0, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_SCISSOR1, 1, 4, 0x00000000, 0x03FFFFFF, 0),
    R300_REG_ROW(SC_SCREENDOOR, 1, 4, 0x00000000, 0x00FFFFFF, R300_REG_STORED),
    R300_REG_ARRAY(TX_FILTER0, 16, 4, 0x00000000, 0xF0FFFFFF, 0),
    R300_REG_ARRAY(TX_FILTER1, 16, 4, 0x00000000, 0x00007FFF, 0),
    R300_REG_ARRAY(TX_FORMAT0, 16, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ARRAY(TX_FORMAT1, 16, 4, 0x00000800, 0xFFFFFFFF, 0),
    R300_REG_ARRAY(TX_FORMAT2, 16, 4, 0x00000000, 0x00003FFF, 0),
    R300_REG_ARRAY(TX_OFFSET, 16, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ARRAY(TX_CHROMA_KEY, 16, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ARRAY(TX_BORDER_COLOR, 16, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(US_CONFIG, 1, 4, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ROW(US_PIXSIZE, 1, 4, 0x00000000, 0x0000001F, 0),
    R300_REG_ROW(US_CODE_OFFSET, 1, 4, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ARRAY(US_CODE_ADDR, 4, 4, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ARRAY(US_TEX_INST, 32, 4, 0x00000000, 0x0007FFDF, 0),
    R300_REG_ARRAY(US_OUT_FMT, 4, 4, 0x00000000, 0x000FFF1F, 0),
    R300_REG_ROW(US_W_FMT, 1, 4, 0x00000000, 0x00000007, 0),
    R300_REG_ARRAY(US_ALU_RGB_ADDR, 64, 4, 0x00000000, 0x7FFFFFFF, 0),
    R300_REG_ARRAY(US_ALU_ALPHA_ADDR, 64, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ARRAY(US_ALU_RGB_INST, 64, 4, 0x00000000, 0xFFFFFFFF, 0),
    /* SEL_C/MOD_C bit ranges lost (reference defect R300-43,
     * docs/references.md) */
    R300_REG_ARRAY(US_ALU_ALPHA_INST, 64, 4, 0x00000000, 0x7FFFFFFF, 0),
    R300_REG_ROW(FG_FOG_BLEND, 1, 4, 0x00000000, 0x00000007, 0),
    R300_REG_ROW(FG_FOG_FACTOR, 1, 4, 0x00000000, 0x000003FF, 0),
    R300_REG_ROW(FG_FOG_COLOR_R, 1, 4, 0x00000000, 0x000003FF, 0),
    R300_REG_ROW(FG_FOG_COLOR_G, 1, 4, 0x00000000, 0x000003FF, 0),
    R300_REG_ROW(FG_FOG_COLOR_B, 1, 4, 0x00000000, 0x000003FF, 0),
    R300_REG_ROW(FG_ALPHA_FUNC, 1, 4, 0x00000000, 0x00130FFF, R300_REG_PARTIAL,
      "alpha test; AM_EN (alpha to mask) and DITH_EN not modelled"),
    R300_REG_ROW(FG_DEPTH_SRC, 1, 4, 0x00000000, 0x00000001, 0),
    R300_REG_ARRAY(US_ALU_CONST_R, 32, 16, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ARRAY(US_ALU_CONST_G, 32, 16, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ARRAY(US_ALU_CONST_B, 32, 16, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ARRAY(US_ALU_CONST_A, 32, 16, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ROW(RB3D_CCTL, 1, 4, 0x00000000, 0x000006E0, R300_REG_PARTIAL,
      "NUM_MULTIWRITES and CMASK_ENABLE (bit 10, Mesa r300_reg.h); "
      "CLRCMP_FLIPE_ENABLE and AA_COMPRESSION_ENABLE not modelled"),
    R300_REG_ROW(RB3D_BLENDCNTL, 1, 4, 0x00000004, 0x3F3F703F, 0),
    /* SRCBLEND is 21:16 (reference defect R300-2, docs/references.md) */
    R300_REG_ROW(RB3D_ABLENDCNTL, 1, 4, 0x00000000, 0x3F3F7000, 0),
    R300_REG_ROW(RB3D_COLOR_CHANNEL_MASK, 1, 4, 0x0000000F, 0x0000000F, 0),
    R300_REG_ROW(RB3D_CONSTANT_COLOR, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(RB3D_COLOR_CLEAR_VALUE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(RB3D_ROPCNTL, 1, 4, 0x00000000, 0x00000F04, 0),
    R300_REG_ROW(RB3D_CLRCMP_FLIPE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(RB3D_CLRCMP_CLR, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(RB3D_CLRCMP_MSK, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ARRAY(RB3D_COLOROFFSET, 4, 4, 0x00000000, 0xFFFFFFE0, 0),
    R300_REG_ARRAY(RB3D_COLORPITCH, 4, 4, 0x00C00000, 0x01FF3FFE, R300_REG_PARTIAL,
      "pitch, format (not YUV) and macro/micro tiling; endian swap not modelled"),
    R300_REG_ROW(RB3D_DSTCACHE_CTLSTAT, 1, 4, 0x00000000, 0x0000001F, 0),
    R300_REG_ROW(RB3D_DITHER_CTL, 1, 4, 0x00000000, 0x0000000F, R300_REG_PARTIAL,
      "truncate/round for colour and alpha; LUT dither (no public LUT) rounds, logged"),
    R300_REG_ROW(RB3D_AARESOLVE_OFFSET, 1, 4, 0x00000000, 0xFFFFFFE0, 0), /* field row lost; 31:5 as RB3D_COLOROFFSET */
    R300_REG_ROW(RB3D_AARESOLVE_PITCH, 1, 4, 0x00000000, 0x00003FFE, 0),
    R300_REG_ROW(RB3D_AARESOLVE_CTL, 1, 4, 0x00000000, 0x00000007, 0), /* bit 2 AARESOLVE_ALPHA (Mesa r300_reg.h) */
    R300_REG_ROW(ZB_CNTL, 1, 4, 0x00000000, 0x0000001F, 0),
    R300_REG_ROW(ZB_ZSTENCILCNTL, 1, 4, 0x00000000, 0x07FFFFFF, 0),
    R300_REG_ROW(ZB_STENCILREFMASK, 1, 4, 0x00000000, 0x00FFFFFF, 0),
    R300_REG_ROW(ZB_FORMAT, 1, 4, 0x00000000, 0x0000003F, R300_REG_PARTIAL,
      "16-bit, 13E3 (with INVERT) and 24+8 Z; PEQ8 is unused"),
    R300_REG_ROW(ZB_ZTOP, 1, 4, 0x00000000, 0x00000001, R300_REG_STORED),
    /* ZC_FREE is bit 1 (reference defect R300-72, docs/references.md); ZC_BUSY
     * 31 is status */
    R300_REG_ROW(ZB_ZCACHE_CTLSTAT, 1, 4, 0x00000000, 0x00000003, 0),
    R300_REG_ROW(ZB_BW_CNTL, 1, 4, 0x00000000, 0x0000007F, R300_REG_STORED),
    R300_REG_ROW(ZB_DEPTHOFFSET, 1, 4, 0x00000000, 0xFFFFFFE0, 0),
    R300_REG_ROW(ZB_DEPTHPITCH, 1, 4, 0x00000000, 0x001F3FFC, R300_REG_PARTIAL,
      "pitch and macro/micro tiling; endian swap not modelled"),
    R300_REG_ROW(ZB_DEPTHCLEARVALUE, 1, 4, 0x00000000, 0xFFFFFFFF, R300_REG_STORED),
    R300_REG_ROW(ZB_HIZ_OFFSET, 1, 4, 0x00000000, 0x0001FFFC, R300_REG_STORED),
    R300_REG_ROW(ZB_HIZ_WRINDEX, 1, 4, 0x00000000, 0x0001FFFC, 0),
    R300_REG_ROW(ZB_HIZ_DWORD, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(ZB_HIZ_RDINDEX, 1, 4, 0x00000000, 0x0001FFFC, 0),
    R300_REG_ROW(ZB_HIZ_PITCH, 1, 4, 0x00000000, 0x00003FF0, R300_REG_STORED),
    R300_REG_ROW(ZB_ZPASS_DATA, 1, 4, 0x00000000, 0xFFFFFFFF, 0),
    R300_REG_ROW(ZB_ZPASS_ADDR, 1, 4, 0x00000000, 0xFFFFFFFC, 0),
    R300_REG_ROW(ZB_DEPTHXY_OFFSET, 1, 4, 0x00000000, 0x0FFE0FFE, R300_REG_STORED),
};

const unsigned r300_reg_info_count = G_N_ELEMENTS(r300_reg_info);

/* dword index -> table index + 1, built once */
static uint16_t reg_index[R300_NUM_REGS];

static gpointer build_index(gpointer unused)
{
    unsigned i, k;

    for (i = 0; i < r300_reg_info_count; i++) {
        const R300RegInfo *r = &r300_reg_info[i];
        for (k = 0; k < r->count; k++) {
            reg_index[(r->offset + k * r->stride) >> 2] = i + 1;
        }
    }
    return NULL;
}

const R300RegInfo *r300_reg_lookup(uint32_t offset)
{
    static GOnce once = G_ONCE_INIT;
    uint16_t i;

    g_once(&once, build_index, NULL);
    if (offset >= R300_MMIO_SIZE) {
        return NULL;
    }
    i = reg_index[offset >> 2];
    return i ? &r300_reg_info[i - 1] : NULL;
}

void r300_regs_reset(R300Core *c)
{
    unsigned i, k;

    memset(c->regs, 0, sizeof(c->regs));
    for (i = 0; i < r300_reg_info_count; i++) {
        const R300RegInfo *r = &r300_reg_info[i];
        for (k = 0; k < r->count; k++) {
            c->regs[(r->offset + k * r->stride) >> 2] = r->reset;
        }
    }
    /* host interface: VRAM at GPU address 0, its size readable */
    R300_REG(c, A_CONFIG_MEMSIZE) = (uint32_t)c->cfg.vram_size;
    /* the VRAM BAR is the whole VRAM (Linux r100_vram_init_sizes) */
    R300_REG(c, A_CONFIG_APER_SIZE) = (uint32_t)c->cfg.vram_size;
    /* a 9700's 256-bit memory bus (Linux r300_mc_init) */
    R300_REG(c, A_MEM_CNTL) = 2;
    R300_REG(c, A_MC_FB_LOCATION) =
        (uint32_t)((c->cfg.vram_size - 1) >> 16) << 16;
    R300_REG(c, A_MC_AGP_LOCATION) = 0xFFFFFFF0u;  /* empty: start > top */
}

/* 0x1D98-0x1DAC reach VAP_VPORT_* at 0x2098-0x20AC [reference defect R300-60,
 * docs/references.md] */
static uint32_t canonical(uint32_t offset)
{
    if (offset >= R300_VAP_VPORT_XSCALE_ALIAS &&
        offset <= R300_VAP_VPORT_ZOFFSET_ALIAS + 3) {
        return offset + (A_VAP_VPORT_XSCALE - R300_VAP_VPORT_XSCALE_ALIAS);
    }
    return offset;
}

static bool in_3d_range(uint32_t offset)
{
    return offset >= R300_3D_FIRST && offset <= R300_3D_LAST;
}

static void scratch_write(R300Core *c, unsigned i, uint32_t val)
{
    uint32_t addr;

    if (!(R300_REG(c, A_SCRATCH_UMSK) & (1u << i))) {
        return;
    }
    addr = (R300_REG(c, A_SCRATCH_ADDR) & ~0x1Fu) + 4 * i;
    /* the driver's fence: the draws before it are done once it lands */
    r300_flush_render(c);
    if (!g3d_mem_write32le(&c->gpu, addr, val)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: scratch write-back to 0x%08x outside memory",
                  addr);
    }
}

static void zpass_write(R300Core *c, uint32_t addr)
{
    uint32_t sel = G3D_FIELD_EX32(R300_REG(c, A_SU_REG_DEST), SU_REG_DEST,
                                  SELECT);
    /* pipe 0 is bit 0, pipe 1 bit 3 on RV380 and older [reference defect
     * R300-33, docs/references.md] */
    unsigned pipe = (sel & 1) ? 0 : (sel & 8) ? 1 : 0;

    r300_flush_render(c);
    if (!g3d_mem_write32le(&c->gpu, addr & ~3u, c->zpass[pipe])) {
        g3d_error(&c->errors, 0, 0,
                  "r300: ZB_ZPASS_ADDR 0x%08x outside memory", addr);
    }
}

/* MM_DATA's target: the register MM_INDEX names, or -1 */
static int64_t mm_target(R300Core *c)
{
    uint32_t idx = R300_REG(c, A_MM_INDEX);

    if ((idx & 3) || idx >= R300_MMIO_SIZE || idx == A_MM_DATA) {
        g3d_error(&c->errors, 0, 0,
                  "r300: MM_INDEX 0x%08x does not name a register", idx);
        return -1;
    }
    return idx;
}

static uint32_t read_dword(R300Core *c, uint32_t offset);

static uint32_t mm_data_read(R300Core *c)
{
    int64_t t = mm_target(c);
    return t < 0 ? 0 : read_dword(c, canonical(t));
}

static void mm_data_write(R300Core *c, uint32_t val)
{
    int64_t t = mm_target(c);
    if (t >= 0) {
        r300_write_reg(c, t, val);
    }
}

static void write_host(R300Core *c, uint32_t offset, uint32_t val)
{
    uint32_t *r = &c->regs[offset >> 2];

    switch (offset) {
    case A_GEN_INT_CNTL:
        *r = val & R300_GEN_INT_SOURCES;
        r300_update_irq(c);
        return;
    case A_GEN_INT_STATUS:
        /* writing 1 acknowledges; SW_INT_FIRE raises the software interrupt */
        *r &= ~(val & R300_GEN_INT_SOURCES);
        if (val & R_GEN_INT_STATUS_SW_INT_FIRE_MASK) {
            *r |= R_GEN_INT_STATUS_SW_INT_TEST_MASK;
        }
        r300_update_irq(c);
        return;
    case A_MM_DATA:
        mm_data_write(c, val);
        return;
    case A_CLOCK_CNTL_INDEX:
        *r = val & (R_CLOCK_CNTL_INDEX_PLL_ADDR_MASK |
                    R_CLOCK_CNTL_INDEX_PLL_WR_EN_MASK |
                    R_CLOCK_CNTL_INDEX_PPLL_DIV_SEL_MASK);
        return;
    case A_CLOCK_CNTL_DATA:
        r300_pll_write(c, val);
        return;
    case A_CONFIG_MEMSIZE:
    case A_CONFIG_APER_SIZE:
    case A_MC_STATUS:
    case A_CP_RB_RPTR:
    case A_RBBM_STATUS:
    case A_CP_CSQ_STAT:
        return;                     /* read-only */
    case A_RBBM_SOFT_RESET:
        *r = val;
        if (val & R_RBBM_SOFT_RESET_CP_MASK) {
            r300_cp_reset(c);
        }
        if (val & ~R_RBBM_SOFT_RESET_CP_MASK & 0xFF) {
            r300_flush_render(c);
            c->port_need = 0;       /* forget a half-fed port draw */
        }
        return;
    case A_CP_RB_RPTR_WR:
        *r = val;
        if (R300_REG(c, A_CP_RB_CNTL) & R_CP_RB_CNTL_RB_RPTR_WR_ENA_MASK) {
            c->cp.rptr = val;
        }
        return;
    case A_CP_IB_BUFSZ:
        *r = val;
        r300_cp_start_ib(c);
        return;
    case A_WAIT_UNTIL:
        *r = val;
        r300_flush_render(c);       /* all work is done once this returns */
        return;
    default:
        break;
    }
    if (r300_crtc_write(c, offset, val) || r300_2d_write(c, offset, val)) {
        return;
    }
    if (offset >= A_SCRATCH_REG0 && offset < R300_SCRATCH_REG(R300_NUM_SCRATCH)) {
        *r = val;
        scratch_write(c, (offset - A_SCRATCH_REG0) / 4, val);
        return;
    }
    /* every other host register stores its value */
    *r = val;
}

static void write_3d(R300Core *c, uint32_t offset, uint32_t val)
{
    const R300RegInfo *info = r300_reg_lookup(offset);
    uint32_t *r = &c->regs[offset >> 2];

    if (info) {
        val &= info->wmask;
    }
    *r = val;

    if (offset >= A_VAP_PORT_DATA_0 && offset < A_VAP_PORT_IDX_0 + 64) {
        r300_vap_port_write(c, offset, val);
        return;
    }
    switch (offset) {
    case A_VAP_VF_CNTL:
        /* a direct write starts a draw fed through the ports [Mesa
         * r300_emit.c] */
        r300_vap_port_write(c, offset, val);
        break;
    case A_VAP_PORT_DATA_IDX_128:
        r300_vap_port_write(c, offset, val);
        break;
    case A_VAP_PVS_VECTOR_INDX_REG:
        c->pvs_upload = G3D_FIELD_EX32(val, VAP_PVS_VECTOR_INDX_REG,
                                       OCTWORD_OFFSET) * 4;
        break;
    case A_VAP_PVS_VECTOR_DATA_REG:
    case A_VAP_PVS_VECTOR_DATA_REG_128:
        r300_vap_pvs_upload(c, val);
        break;
    case A_VAP_VTX_ST_END_OF_PKT:
        g3d_unimp("r300: state-based vertices (VAP_VTX_ST_*) are stored, "
                  "not drawn; use 3D_DRAW_IMMD_2");
        break;
    case A_GA_SOFT_RESET:
        r300_flush_render(c);
        c->port_need = 0;
        break;
    case A_RB3D_DSTCACHE_CTLSTAT:
        r300_flush_render(c);
        *r &= ~(R_RB3D_DSTCACHE_CTLSTAT_DC_FLUSH_MASK |
                R_RB3D_DSTCACHE_CTLSTAT_DC_FREE_MASK);
        if (c->cfg.hooks.display_update) {
            c->cfg.hooks.display_update(c->cfg.hooks.opaque);
        }
        break;
    case A_ZB_ZCACHE_CTLSTAT:
        r300_flush_render(c);
        *r = 0;                 /* flush and free complete at once */
        break;
    case A_ZB_HIZ_DWORD:
        r300_zb_port_write(c, R300_RAM_HIZ, val);
        break;
    case A_ZB_ZMASK_DWORD:
        r300_zb_port_write(c, R300_RAM_ZMASK, val);
        break;
    case A_RB3D_CMASK_DWORD:
        r300_zb_port_write(c, R300_RAM_CMASK, val);
        break;
    case A_ZB_ZPASS_DATA: {
        uint32_t sel = G3D_FIELD_EX32(R300_REG(c, A_SU_REG_DEST), SU_REG_DEST,
                                      SELECT);
        r300_flush_render(c);
        if ((sel & 1) || !sel) {
            c->zpass[0] = val;
        }
        if (sel & 8) {
            c->zpass[1] = val;
        }
        break;
    }
    case A_ZB_ZPASS_ADDR:
        zpass_write(c, val);
        break;
    default:
        break;
    }
}

void r300_write_reg(R300Core *c, uint32_t offset, uint32_t val)
{
    offset = canonical(offset & ~3u);
    if (offset >= R300_MMIO_SIZE) {
        g3d_error(&c->errors, 0, 0,
                  "r300: register write 0x%x outside the BAR", offset);
        return;
    }
    if (in_3d_range(offset)) {
        write_3d(c, offset, val);
    } else {
        write_host(c, offset, val);
    }
}

static uint32_t read_dword(R300Core *c, uint32_t offset)
{
    const R300RegInfo *info;
    uint32_t v = c->regs[offset >> 2];

    switch (offset) {
    case A_CP_RB_RPTR:
        return c->cp.rptr;
    case A_RBBM_STATUS:
        /* the command FIFO always has room; busy while the CP has work or
         * draws are queued in the rasteriser */
        return 64 | (r300_cp_busy(c) || c->ndraws ?
                     R_RBBM_STATUS_GUI_ACTIVE_MASK : 0);
    case A_ZB_HIZ_DWORD:
        return r300_zb_port_read(c, R300_RAM_HIZ);
    case A_ZB_ZMASK_DWORD:
        return r300_zb_port_read(c, R300_RAM_ZMASK);
    case A_RB3D_CMASK_DWORD:
        return r300_zb_port_read(c, R300_RAM_CMASK);
    case A_ZB_ZPASS_DATA:
        return c->zpass[0];
    case A_MM_DATA:
        return mm_data_read(c);
    case A_CLOCK_CNTL_DATA:
        return r300_pll_read(c);
    case A_MC_STATUS:
        /* memory accesses complete when made: always idle */
        return R_MC_STATUS_MC_IDLE_MASK;
    default:
        break;
    }
    if (!in_3d_range(offset) && r300_crtc_read(c, offset, &v)) {
        return v;
    }
    info = in_3d_range(offset) ? r300_reg_lookup(offset) : NULL;
    if (info && (info->flags & R300_REG_WO)) {
        return 0;
    }
    return v;
}

uint64_t r300_reg_read(R300Core *c, uint32_t offset, unsigned size)
{
    const R300RegInfo *info;
    uint32_t v;

    if (offset >= R300_MMIO_SIZE || size == 0 || size > 4 ||
        (offset & (size - 1))) {
        g3d_error(&c->errors, 0, 0,
                  "r300: bad register read 0x%x size %u", offset, size);
        return 0;
    }
    info = in_3d_range(offset & ~3u) ? r300_reg_lookup(offset & ~3u) : NULL;
    if (size != 4 && info && (info->flags & R300_REG_DWORD)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s is dword-access only (read size %u)",
                  info->name, size);
        return 0;
    }
    v = read_dword(c, canonical(offset & ~3u));
    return (v >> ((offset & 3) * 8)) & (size == 4 ? ~0u : (1u << (size * 8)) - 1);
}

void r300_reg_write(R300Core *c, uint32_t offset, uint64_t val, unsigned size)
{
    const R300RegInfo *info;
    uint32_t aligned = offset & ~3u, v;

    if (offset >= R300_MMIO_SIZE || size == 0 || size > 4 ||
        (offset & (size - 1))) {
        g3d_error(&c->errors, 0, 0,
                  "r300: bad register write 0x%x size %u", offset, size);
        return;
    }
    if (size == 4) {
        r300_write_reg(c, aligned, (uint32_t)val);
        return;
    }
    info = in_3d_range(aligned) ? r300_reg_lookup(aligned) : NULL;
    if (info && (info->flags & R300_REG_DWORD)) {
        g3d_error(&c->errors, 0, 0,
                  "r300: %s is dword-access only (write size %u)",
                  info->name, size);
        return;
    }
    /* narrower writes merge into the dword [R3xx 3D ref. §1 access column
     * "8/16/32"] */
    {
        unsigned shift = (offset & 3) * 8;
        uint32_t mask = ((1u << (size * 8)) - 1) << shift;
        /* ...except write-1-to-acknowledge bits, which see only the bytes */
        uint32_t old = aligned == A_GEN_INT_STATUS ? 0 : c->regs[aligned >> 2];
        v = (old & ~mask) | (((uint32_t)val << shift) & mask);
    }
    r300_write_reg(c, aligned, v);
}
