/*
 * The independent reference for the glamo-3d golden image: renders the
 * scene of tests/glamo/scene.h with Mesa's llvmpipe through OSMesa and
 * OpenGL 1.x fixed function, with the state the glamo-3d test programs:
 * glFrustum / glTranslate / glRotate, Gouraud shading, GL_LESS depth test
 * into a 16-bit depth buffer, an RGB565 colour buffer, no dithering.
 *
 *   glamo-refscene OUT.png [textured]
 *
 * The committed references are made by
 *   build/glamo-refscene tests/glamo/ref/scene.png
 *   build/glamo-refscene tests/glamo/ref/textured.png textured
 * ("textured": quad A only, the 16x16 RGB565 texture of scene.h, GL_LINEAR,
 * GL_REPEAT, GL_MODULATE with white vertices).
 * (Debian: libosmesa6-dev; LIBGL_ALWAYS_SOFTWARE is implied by OSMesa).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <GL/gl.h>
#include <GL/osmesa.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "image.h"
#include "../tests/glamo/scene.h"

int main(int argc, char **argv)
{
    static uint16_t buf[SCENE_W * SCENE_H];
    const double *f = scene_frustum;
    OSMesaContext ctx;
    G3DImage img;
    unsigned i;
    int x, y;

    bool textured = argc == 3;

    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: %s OUT.png [textured]\n", argv[0]);
        return 2;
    }
    ctx = OSMesaCreateContextExt(OSMESA_RGB_565, 16, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_SHORT_5_6_5,
                                   SCENE_W, SCENE_H)) {
        fprintf(stderr, "OSMesa: no RGB565 context\n");
        return 1;
    }
    fprintf(stderr, "renderer: %s\n", (const char *)glGetString(GL_RENDERER));
    glViewport(0, 0, SCENE_W, SCENE_H);
    glDisable(GL_DITHER);
    glClearColor(((SCENE_CLEAR_565 >> 11) & 31) / 31.0f,
                 ((SCENE_CLEAR_565 >> 5) & 63) / 63.0f,
                 (SCENE_CLEAR_565 & 31) / 31.0f, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glShadeModel(GL_SMOOTH);
    glDisable(GL_CULL_FACE);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glFrustum(f[0], f[1], f[2], f[3], f[4], f[5]);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glTranslated(scene_translate[0], scene_translate[1], scene_translate[2]);
    glRotated(scene_rot_y, 0, 1, 0);
    glRotated(scene_rot_x, 1, 0, 0);
    if (textured) {
        static uint16_t tex[SCENE_TEX * SCENE_TEX];
        for (y = 0; y < SCENE_TEX; y++) {
            for (x = 0; x < SCENE_TEX; x++) {
                tex[y * SCENE_TEX + x] = scene_texel(x, y);
            }
        }
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB, SCENE_TEX, SCENE_TEX, 0,
                     GL_RGB, GL_UNSIGNED_SHORT_5_6_5, tex);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
        glEnable(GL_TEXTURE_2D);
        glHint(GL_PERSPECTIVE_CORRECTION_HINT, GL_NICEST);
    }
    glBegin(GL_TRIANGLES);
    for (i = 0; i < (textured ? 6 : SCENE_NIDX); i++) {
        const uint8_t *c = scene_col[scene_idx[i]];
        if (textured) {
            glColor4ub(255, 255, 255, 255);
            glTexCoord2fv(scene_uv[scene_idx[i]]);
        } else {
            glColor4ub(c[0], c[1], c[2], c[3]);
        }
        glVertex3fv(scene_pos[scene_idx[i]]);
    }
    glEnd();
    glFinish();

    /* GL rows run bottom to top; expand 565 by bit replication */
    if (!g3d_image_alloc(&img, SCENE_W, SCENE_H)) {
        return 1;
    }
    for (y = 0; y < SCENE_H; y++) {
        for (x = 0; x < SCENE_W; x++) {
            uint16_t p = buf[(SCENE_H - 1 - y) * SCENE_W + x];
            uint8_t *o = img.rgb + 3 * (y * SCENE_W + x);
            unsigned r = p >> 11, g = (p >> 5) & 63, b = p & 31;
            o[0] = (uint8_t)(r << 3 | r >> 2);
            o[1] = (uint8_t)(g << 2 | g >> 4);
            o[2] = (uint8_t)(b << 3 | b >> 2);
        }
    }
    if (!g3d_image_save(&img, argv[1])) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 1;
    }
    g3d_image_free(&img);
    OSMesaDestroyContext(ctx);
    return 0;
}
