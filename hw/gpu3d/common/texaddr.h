/*
 * gpu3d engine cores: texel addressing along one texture axis.
 *
 * The wrap modes every chip has, on signed texel indices i of an axis of
 * n texels (n >= 1): what OpenGL 2.1 section 3.8.7 ("Texture Wrap Modes")
 * calls REPEAT, MIRRORED_REPEAT, CLAMP_TO_EDGE and CLAMP_TO_BORDER, and
 * ATI's MIRROR_ONCE (R300 3D register reference, TX_FILTER0 CLAMP_S).
 * A result of -1 stands for the border colour. The _pow2 forms mask with
 * n - 1 as chips do whose sizes are powers of two (GX on the GameCube):
 * for a power of two n they equal the general forms.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef GPU3D_COMMON_TEXADDR_H
#define GPU3D_COMMON_TEXADDR_H

static inline int g3d_tex_repeat_pow2(int i, int n)
{
    return i & (n - 1);         /* two's complement: also for i < 0 */
}

static inline int g3d_tex_mirror_pow2(int i, int n)
{
    return (i & n ? ~i : i) & (n - 1);
}

static inline int g3d_tex_repeat(int i, int n)
{
    int m;

    if (!(n & (n - 1))) {
        return g3d_tex_repeat_pow2(i, n);
    }
    m = i % n;
    return m < 0 ? m + n : m;
}

static inline int g3d_tex_mirror(int i, int n)
{
    int m;

    if (!(n & (n - 1))) {
        return g3d_tex_mirror_pow2(i, n);
    }
    m = i % (2 * n);
    m = m < 0 ? m + 2 * n : m;
    return m < n ? m : 2 * n - 1 - m;
}

/* to the edge texel */
static inline int g3d_tex_clamp(int i, int n)
{
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* outside the texture: the border colour */
static inline int g3d_tex_border(int i, int n)
{
    return i < 0 || i >= n ? -1 : i;
}

/* mirrored once about 0, then clamped to the edge texel */
static inline int g3d_tex_mirror_once(int i, int n)
{
    i = i < 0 ? -1 - i : i;
    return i >= n ? n - 1 : i;
}

/* mirrored once about 0, then the border colour outside */
static inline int g3d_tex_mirror_once_border(int i, int n)
{
    i = i < 0 ? -1 - i : i;
    return i >= n ? -1 : i;
}

typedef enum G3DTexWrap {
    G3D_TEX_REPEAT,
    G3D_TEX_MIRROR,
    G3D_TEX_CLAMP,
    G3D_TEX_BORDER,
    G3D_TEX_MIRROR_ONCE,
    G3D_TEX_MIRROR_ONCE_BORDER,
    G3D_TEX_REPEAT_POW2,
    G3D_TEX_MIRROR_POW2,
} G3DTexWrap;

/* index i of n by `mode`: a chip maps its wrap field onto these */
static inline int g3d_tex_wrap(int i, int n, G3DTexWrap mode)
{
    switch (mode) {
    case G3D_TEX_REPEAT:
        return g3d_tex_repeat(i, n);
    case G3D_TEX_MIRROR:
        return g3d_tex_mirror(i, n);
    case G3D_TEX_CLAMP:
        return g3d_tex_clamp(i, n);
    case G3D_TEX_BORDER:
        return g3d_tex_border(i, n);
    case G3D_TEX_MIRROR_ONCE:
        return g3d_tex_mirror_once(i, n);
    case G3D_TEX_MIRROR_ONCE_BORDER:
        return g3d_tex_mirror_once_border(i, n);
    case G3D_TEX_REPEAT_POW2:
        return g3d_tex_repeat_pow2(i, n);
    default:
        return g3d_tex_mirror_pow2(i, n);
    }
}

#endif
