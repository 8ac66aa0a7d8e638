/*
 * Texture units (21A0h, 2200h) and the texture-blend combiner (2330h-239Fh).
 *
 * Not modelled yet: with EGenTXMP set the back end logs LOG_UNIMP once per
 * state and shades with the diffuse colour ("if NOTEXEL then Txblendouput
 * = Cdif", L129). The registers themselves are complete (regfile.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include <string.h>

void glamo_tex_decode(GlamoCore *c, GlamoRenderState *rs)
{
    uint32_t en0 = glamo_r32(c, A_EGEN0);

    rs->tex_persp = en0 & R_EGEN0_EGenTXPP_MASK;
    rs->tex_enable = false;
    rs->ntex = 0;
    if ((en0 & R_EGEN0_EGenTXMP_MASK) &&
        G3D_FIELD_EX32(en0, EGEN0, EGTXNUM) != 0) {
        g3d_unimp("glamo render: texture mapping is not modelled, the "
                  "diffuse colour is used");
    }
}

void glamo_tex_sample(const GlamoRenderState *rs, int unit,
                      const float uv[4][2], uint32_t mask, float out[4][4])
{
    memset(out, 0, 16 * sizeof(float));
}

void glamo_combine(const GlamoRenderState *rs, const float dif[4],
                   const float spec[4], const float t0[4], const float t1[4],
                   float out[4])
{
    memcpy(out, dif, 4 * sizeof(float));
}
