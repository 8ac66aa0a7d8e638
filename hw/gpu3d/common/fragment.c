/*
 * Float blender shared by the chips (see fragment.h).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "fragment.h"

float g3d_blend_factor(G3DBlendFactor f, int ch, const float src[4],
                       const float dst[4], const float cst[4])
{
    float sat;

    switch (f) {
    case G3D_BF_ZERO:            return 0.0f;
    case G3D_BF_ONE:             return 1.0f;
    case G3D_BF_SRC_COLOR:       return src[ch];
    case G3D_BF_INV_SRC_COLOR:   return 1.0f - src[ch];
    case G3D_BF_SRC_ALPHA:       return src[3];
    case G3D_BF_INV_SRC_ALPHA:   return 1.0f - src[3];
    case G3D_BF_DST_ALPHA:       return dst[3];
    case G3D_BF_INV_DST_ALPHA:   return 1.0f - dst[3];
    case G3D_BF_DST_COLOR:       return dst[ch];
    case G3D_BF_INV_DST_COLOR:   return 1.0f - dst[ch];
    case G3D_BF_SRC_ALPHA_SAT:
        if (ch == 3) {
            return 1.0f;
        }
        sat = 1.0f - dst[3];
        return src[3] < sat ? src[3] : sat;
    case G3D_BF_CONST_COLOR:     return cst[ch];
    case G3D_BF_INV_CONST_COLOR: return 1.0f - cst[ch];
    case G3D_BF_CONST_ALPHA:     return cst[3];
    case G3D_BF_INV_CONST_ALPHA: return 1.0f - cst[3];
    default:                     return 0.0f;
    }
}

static float blend_eq(G3DBlendEq eq, float s, float d, float sf, float df)
{
    switch (eq) {
    case G3D_BEQ_SUB:     return s * sf - d * df;
    case G3D_BEQ_REV_SUB: return d * df - s * sf;
    case G3D_BEQ_MIN:     return s < d ? s : d;
    case G3D_BEQ_MAX:     return s > d ? s : d;
    default:              return s * sf + d * df;
    }
}

void g3d_blend_float(float out[4], const float src[4], const float dst[4],
                     const float cst[4], G3DBlendEq eq_rgb,
                     G3DBlendFactor sf_rgb, G3DBlendFactor df_rgb,
                     G3DBlendEq eq_a, G3DBlendFactor sf_a,
                     G3DBlendFactor df_a)
{
    int ch;

    for (ch = 0; ch < 4; ch++) {
        G3DBlendEq eq = ch < 3 ? eq_rgb : eq_a;
        G3DBlendFactor sf = ch < 3 ? sf_rgb : sf_a;
        G3DBlendFactor df = ch < 3 ? df_rgb : df_a;

        out[ch] = blend_eq(eq, src[ch], dst[ch],
                           g3d_blend_factor(sf, ch, src, dst, cst),
                           g3d_blend_factor(df, ch, src, dst, cst));
    }
}
