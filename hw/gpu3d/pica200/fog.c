/*
 * Fog (reference "GPUREG_FOG_*", TEXENV_UPDATE_BUFFER b0-2 = 5 and b16;
 * 3dbrew GPU/Internal Registers 0x0E0-0x0EF; Citra): the combiners' output is
 * mixed with FOG_COLOR by a factor from the 128-entry fog LUT indexed by the
 * fragment's window depth (or 1 - depth with Z flip), linearly between entries
 * (Citra):
 *
 *   x = depth * 128;  i = floor(x) (at most 127);  frac = x - i
 *   f = clamp01((value[i] + diff[i] * frac) / 2047)
 *   rgb = f * rgb + (1 - f) * fog_rgb       (alpha unchanged)
 *
 * LUT entries: value b13-23 (fixed0.0.11), difference b0-12 (13-bit two's
 * complement, fixed1.1.11). Results are truncated to 8 bits as Citra does.
 * The table is copied into the render state, so queued triangles keep the
 * one they were drawn with.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "pica200-int.h"

void pica_fog_setup(Pica200Core *c, PicaFog *fog)
{
    uint32_t upd = c->regs[GPUREG_TEXENV_UPDATE_BUFFER];
    uint32_t col = c->regs[GPUREG_FOG_COLOR];
    int i;

    fog->enabled = G3D_FIELD_EX32(upd, GPUREG_TEXENV_UPDATE_BUFFER, FOG_MODE) ==
                   PICA_FOG_MODE_FOG;
    if (!fog->enabled) {
        return;
    }
    fog->z_flip = G3D_FIELD_EX32(upd, GPUREG_TEXENV_UPDATE_BUFFER, Z_FLIP);
    for (i = 0; i < 3; i++) {
        fog->color[i] = col >> (8 * i);
    }
    for (i = 0; i < 128; i++) {
        uint32_t e = c->fog_lut[i];
        fog->value[i] = (float)((e >> 13) & 0x7FF);
        fog->diff[i] = (float)g3d_sextract32(e, 0, 13);
    }
}

void pica_fog_apply(const PicaFog *fog, float depth, uint8_t rgba[4])
{
    float x, frac, f;
    int i, k;

    if (fog->z_flip) {
        depth = 1.0f - depth;
    }
    x = g3d_clampf(depth, 0.0f, 1.0f) * 128.0f;
    i = (int)x;
    if (i > 127) {
        i = 127;
    }
    frac = x - (float)i;
    f = g3d_clampf((fog->value[i] + fog->diff[i] * frac) / 2047.0f, 0.0f, 1.0f);
    for (k = 0; k < 3; k++) {
        rgba[k] = (uint8_t)(f * rgba[k] + (1.0f - f) * fog->color[k]);
    }
}
