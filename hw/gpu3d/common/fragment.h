/*
 * Per-fragment operations every chip has in some form: compare functions
 * (depth, stencil, alpha test), stencil operations, blend factors and
 * equations, and the 16 logic ops. Chips translate their own field codes
 * into these enums (each chip's file cites its reference for the mapping).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_FRAGMENT_H
#define GPU3D_COMMON_FRAGMENT_H

#include <stdbool.h>
#include <stdint.h>

typedef enum G3DCompare {
    G3D_CMP_NEVER, G3D_CMP_LESS, G3D_CMP_EQUAL, G3D_CMP_LEQUAL,
    G3D_CMP_GREATER, G3D_CMP_NOTEQUAL, G3D_CMP_GEQUAL, G3D_CMP_ALWAYS,
} G3DCompare;

/* "incoming FUNC stored", in the order above (which is also GL's) */
static inline bool g3d_compare_u(G3DCompare f, uint32_t in, uint32_t stored)
{
    switch (f) {
    case G3D_CMP_NEVER:    return false;
    case G3D_CMP_LESS:     return in < stored;
    case G3D_CMP_EQUAL:    return in == stored;
    case G3D_CMP_LEQUAL:   return in <= stored;
    case G3D_CMP_GREATER:  return in > stored;
    case G3D_CMP_NOTEQUAL: return in != stored;
    case G3D_CMP_GEQUAL:   return in >= stored;
    default:               return true;
    }
}

static inline bool g3d_compare_f(G3DCompare f, float in, float stored)
{
    switch (f) {
    case G3D_CMP_NEVER:    return false;
    case G3D_CMP_LESS:     return in < stored;
    case G3D_CMP_EQUAL:    return in == stored;
    case G3D_CMP_LEQUAL:   return in <= stored;
    case G3D_CMP_GREATER:  return in > stored;
    case G3D_CMP_NOTEQUAL: return in != stored;
    case G3D_CMP_GEQUAL:   return in >= stored;
    default:               return true;
    }
}

typedef enum G3DStencilOp {
    G3D_SOP_KEEP, G3D_SOP_ZERO, G3D_SOP_REPLACE, G3D_SOP_INCR_SAT,
    G3D_SOP_DECR_SAT, G3D_SOP_INVERT, G3D_SOP_INCR_WRAP, G3D_SOP_DECR_WRAP,
} G3DStencilOp;

/* apply a stencil op to an 8-bit value; the caller applies the write mask */
static inline uint8_t g3d_stencil_op(G3DStencilOp op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case G3D_SOP_ZERO:      return 0;
    case G3D_SOP_REPLACE:   return ref;
    case G3D_SOP_INCR_SAT:  return s == 0xff ? s : s + 1;
    case G3D_SOP_DECR_SAT:  return s == 0 ? s : s - 1;
    case G3D_SOP_INVERT:    return ~s;
    case G3D_SOP_INCR_WRAP: return s + 1;
    case G3D_SOP_DECR_WRAP: return s - 1;
    default:                return s;
    }
}

typedef enum G3DBlendFactor {
    G3D_BF_ZERO, G3D_BF_ONE,
    G3D_BF_SRC_COLOR, G3D_BF_INV_SRC_COLOR,
    G3D_BF_SRC_ALPHA, G3D_BF_INV_SRC_ALPHA,
    G3D_BF_DST_ALPHA, G3D_BF_INV_DST_ALPHA,
    G3D_BF_DST_COLOR, G3D_BF_INV_DST_COLOR,
    G3D_BF_SRC_ALPHA_SAT,
    G3D_BF_CONST_COLOR, G3D_BF_INV_CONST_COLOR,
    G3D_BF_CONST_ALPHA, G3D_BF_INV_CONST_ALPHA,
} G3DBlendFactor;

typedef enum G3DBlendEq {
    G3D_BEQ_ADD, G3D_BEQ_SUB /* src - dst */, G3D_BEQ_REV_SUB /* dst - src */,
    G3D_BEQ_MIN, G3D_BEQ_MAX,
} G3DBlendEq;

/*
 * The factor for channel `ch` (0..2 colour, 3 alpha) of a float blend.
 * src, dst, cst are RGBA in [0, 1] (or beyond, for float targets).
 */
float g3d_blend_factor(G3DBlendFactor f, int ch, const float src[4],
                       const float dst[4], const float cst[4]);

/* out = eq(src * sf, dst * df) per channel, the GL/D3D float blender */
void g3d_blend_float(float out[4], const float src[4], const float dst[4],
                     const float cst[4], G3DBlendEq eq_rgb,
                     G3DBlendFactor sf_rgb, G3DBlendFactor df_rgb,
                     G3DBlendEq eq_a, G3DBlendFactor sf_a,
                     G3DBlendFactor df_a);

/* The 16 two-operand raster ops, by their GL/X11 codes (0 CLEAR .. 15 SET). */
static inline uint32_t g3d_logic_op(int op, uint32_t s, uint32_t d)
{
    switch (op & 15) {
    case 0:  return 0;
    case 1:  return s & d;
    case 2:  return s & ~d;
    case 3:  return s;
    case 4:  return ~s & d;
    case 5:  return d;
    case 6:  return s ^ d;
    case 7:  return s | d;
    case 8:  return ~(s | d);
    case 9:  return ~(s ^ d);
    case 10: return ~d;
    case 11: return s | ~d;
    case 12: return ~s;
    case 13: return ~s | d;
    case 14: return ~(s & d);
    default: return ~0u;
    }
}

#endif
