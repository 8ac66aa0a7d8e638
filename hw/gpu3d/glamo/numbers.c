/*
 * Glamo number formats: the s[7].16 and s[7].10 floats of the 3D engine
 * (Glamo3365 3D Engine specification, "number notation"; decisions in
 * docs/glamo-3d.md) and the A6 R5 G6 B5 colour registers (EGBLCst,
 * EGTXnTRSH/L, EGTXnCTB). Every block may use these; they call no block.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "glamo-int.h"

#include "common/fpformat.h"

static const G3DFloatFmt f24_fmt = { 7, 16, 63, G3D_FP_ROUND };
static const G3DFloatFmt f18_fmt = { 7, 10, 63, G3D_FP_ROUND };

uint32_t glamo_f24_from_float(float f)
{
    return g3d_float_pack(f, &f24_fmt);
}

float glamo_f24_to_float(uint32_t bits)
{
    return g3d_float_unpack(bits & 0xffffff, &f24_fmt);
}

/*
 * Where the binary32 exponent is a normal s[7].16 one below the largest
 * (65..190: rounding may carry into the next, which is still normal), the
 * round trip is the mantissa rounded to 16 bits, to nearest even, in
 * place; elsewhere (zero, too small, the top binade, inf, NaN) it is
 * taken through the format.
 */
float glamo_f24_round(float f)
{
    uint32_t u = g3d_f2u(f), e32 = (u >> 23) & 0xFF;

    if (e32 - 65 <= 190 - 65) {
        return g3d_u2f((u + 0x3F + ((u >> 7) & 1)) & ~0x7Fu);
    }
    return glamo_f24_to_float(glamo_f24_from_float(f));
}

float glamo_f18_to_float(uint32_t bits)
{
    return g3d_float_unpack(bits & 0x3ffff, &f18_fmt);
}

uint32_t glamo_f18_from_float(float f)
{
    return g3d_float_pack(f, &f18_fmt);
}

/* an A6 R5 G6 B5 colour register: r g b a in 0..1 */
void glamo_argb6565(uint32_t v, float out[4])
{
    out[0] = g3d_unorm2f((v >> 19) & 31, 5);
    out[1] = g3d_unorm2f((v >> 10) & 63, 6);
    out[2] = g3d_unorm2f((v >> 3) & 31, 5);
    out[3] = g3d_unorm2f((v >> 26) & 63, 6);
}
