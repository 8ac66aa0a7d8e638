/*
 * The independent reference for the pica200 textured-quad test
 * (tests/pica200/pica-texscene.h): Mesa's llvmpipe through OSMesa draws the
 * same perspective quad with the same texture, S repeat, T mirrored repeat,
 * with GL_NEAREST or GL_LINEAR and no mipmaps, or the mipmapped variant with
 * GL_NEAREST_MIPMAP_NEAREST or GL_LINEAR_MIPMAP_LINEAR, or the cube-map
 * variant (clamp to edge, GL_NEAREST or GL_LINEAR), and writes a PNG with
 * row 0 at the top:
 *
 *   pica200-texref [cube-|mip-]nearest|[cube-|mip-]linear OUT.png
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/osmesa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "pica-texscene.h"

#ifndef GL_MIRRORED_REPEAT
#define GL_MIRRORED_REPEAT 0x8370
#endif

int main(int argc, char **argv)
{
    static uint8_t tex[TEXSCENE_MIP_TEX * TEXSCENE_MIP_TEX * 4];
    static uint8_t rgba[TEXSCENE_W * TEXSCENE_H * 4];
    GLint filter, mag;
    bool mip, cube;
    GLenum target;
    const char *mode;
    float scale;
    unsigned level, size;
    OSMesaContext ctx;
    G3DImage img;
    GLuint name;
    unsigned s, t;
    int i;

    if (argc != 3) {
        fprintf(stderr, "usage: %s nearest|linear|mip-nearest|mip-linear "
                "OUT.png\n", argv[0]);
        return 2;
    }
    mip = !strncmp(argv[1], "mip-", 4);
    cube = !strncmp(argv[1], "cube-", 5);
    mode = argv[1] + (mip ? 4 : cube ? 5 : 0);
    target = cube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D;
    if (!strcmp(mode, "nearest")) {
        filter = mip ? GL_NEAREST_MIPMAP_NEAREST : GL_NEAREST;
        mag = GL_NEAREST;
    } else if (!strcmp(mode, "linear")) {
        filter = mip ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR;
        mag = GL_LINEAR;
    } else {
        fprintf(stderr, "pica200-texref: unknown mode %s\n", argv[1]);
        return 2;
    }
    scale = mip ? TEXSCENE_MIP_SCALE : 1.0f;
    ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, rgba, GL_UNSIGNED_BYTE, TEXSCENE_W,
                                   TEXSCENE_H)) {
        fprintf(stderr, "pica200-texref: no OSMesa context\n");
        return 1;
    }
    OSMesaPixelStore(OSMESA_Y_UP, 0);
    glGenTextures(1, &name);
    glBindTexture(target, name);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (cube) {
        /* faces +X, -X, +Y, -Y, +Z, -Z; GL row t is image row t */
        for (level = 0; level < 6; level++) {
            for (t = 0; t < TEXSCENE_TEX; t++) {
                for (s = 0; s < TEXSCENE_TEX; s++) {
                    texscene_face_texel(level, s, t, tex + 4 * (t * TEXSCENE_TEX + s));
                }
            }
            glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + level, 0, GL_RGBA8,
                         TEXSCENE_TEX, TEXSCENE_TEX, 0, GL_RGBA,
                         GL_UNSIGNED_BYTE, tex);
        }
    }
    /* GL row t is image row t (bottom first), as texscene_texel counts */
    for (level = 0; !cube && level < (mip ? TEXSCENE_MIP_LEVELS : 1u); level++) {
        size = mip ? TEXSCENE_MIP_TEX >> level : TEXSCENE_TEX;
        for (t = 0; t < size; t++) {
            for (s = 0; s < size; s++) {
                if (mip) {
                    texscene_mip_texel(level, s, t, tex + 4 * (t * size + s));
                } else {
                    texscene_texel(s, t, tex + 4 * (t * size + s));
                }
            }
        }
        glTexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, size, size, 0, GL_RGBA,
                     GL_UNSIGNED_BYTE, tex);
    }
    glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, mip ? TEXSCENE_MIP_LEVELS - 1 : 0);
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, mag);
    glTexParameteri(target, GL_TEXTURE_WRAP_S, cube ? GL_CLAMP_TO_EDGE : GL_REPEAT);
    glTexParameteri(target, GL_TEXTURE_WRAP_T,
                    cube ? GL_CLAMP_TO_EDGE : GL_MIRRORED_REPEAT);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glEnable(target);
    glHint(GL_PERSPECTIVE_CORRECTION_HINT, GL_NICEST);

    glViewport(0, 0, TEXSCENE_W, TEXSCENE_H);
    glClearColor(0.0f, 0.0f, 64 / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glBegin(GL_TRIANGLE_STRIP);
    for (i = 0; i < 4; i++) {
        const float *v = texscene_verts[i];
        if (cube) {
            glTexCoord3fv(texscene_cube_dirs[i]);
        } else {
            glTexCoord2f(v[3] * scale, v[4] * scale);
        }
        glVertex4f(v[0], v[1], 0.0f, v[2]);
    }
    glEnd();
    glFinish();

    g3d_image_alloc(&img, TEXSCENE_W, TEXSCENE_H);
    for (i = 0; i < TEXSCENE_W * TEXSCENE_H; i++) {
        memcpy(img.rgb + 3 * i, rgba + 4 * i, 3);
    }
    if (!g3d_image_save(&img, argv[2])) {
        fprintf(stderr, "pica200-texref: cannot write %s\n", argv[2]);
        return 1;
    }
    printf("pica200-texref: %s, renderer %s -> %s\n", argv[1],
           (const char *)glGetString(GL_RENDERER), argv[2]);
    OSMesaDestroyContext(ctx);
    g3d_image_free(&img);
    return 0;
}
