/*
 * The independent reference for the pica200 textured-quad test
 * (tests/pica200/pica-texscene.h): Mesa's llvmpipe through OSMesa draws the
 * same perspective quad with the same texture, S repeat, T mirrored repeat,
 * no mipmaps, with GL_NEAREST or GL_LINEAR, and writes a PNG with row 0 at
 * the top:
 *
 *   pica200-texref nearest|linear OUT.png
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/osmesa.h>
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
    static uint8_t tex[TEXSCENE_TEX * TEXSCENE_TEX * 4];
    static uint8_t rgba[TEXSCENE_W * TEXSCENE_H * 4];
    GLint filter;
    OSMesaContext ctx;
    G3DImage img;
    GLuint name;
    unsigned s, t;
    int i;

    if (argc != 3 || (strcmp(argv[1], "nearest") && strcmp(argv[1], "linear"))) {
        fprintf(stderr, "usage: %s nearest|linear OUT.png\n", argv[0]);
        return 2;
    }
    filter = strcmp(argv[1], "linear") ? GL_NEAREST : GL_LINEAR;
    ctx = OSMesaCreateContextExt(OSMESA_RGBA, 0, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, rgba, GL_UNSIGNED_BYTE, TEXSCENE_W,
                                   TEXSCENE_H)) {
        fprintf(stderr, "pica200-texref: no OSMesa context\n");
        return 1;
    }
    OSMesaPixelStore(OSMESA_Y_UP, 0);
    /* GL row t is image row t (bottom first), as texscene_texel counts */
    for (t = 0; t < TEXSCENE_TEX; t++) {
        for (s = 0; s < TEXSCENE_TEX; s++) {
            texscene_texel(s, t, tex + 4 * (t * TEXSCENE_TEX + s));
        }
    }
    glGenTextures(1, &name);
    glBindTexture(GL_TEXTURE_2D, name);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, TEXSCENE_TEX, TEXSCENE_TEX, 0,
                 GL_RGBA, GL_UNSIGNED_BYTE, tex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_MIRRORED_REPEAT);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
    glEnable(GL_TEXTURE_2D);
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
        glTexCoord2f(v[3], v[4]);
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
